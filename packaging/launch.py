"""Entry point of the frozen build: the same command line as ``gpu-wizard``."""

import sys

from wizard.cli import main

if __name__ == "__main__":
    sys.exit(main())
