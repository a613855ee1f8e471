"""The command line the page-screenshot scripts share: each language is rendered in a process of
its own (a clean QApplication per language), by running the script again with ``--one LANG``."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path
from typing import Callable, Optional


def main(script: str, description: str, out_dir: Path, render: Callable[[str, Path], int],
         argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--langs", nargs="+", default=["en", "zh_CN"])
    parser.add_argument("--out", type=Path, default=out_dir)
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:
        return render(args.one, args.out)
    status = 0
    for lang in args.langs:
        done = subprocess.run([sys.executable, script, "--one", lang, "--out", str(args.out)],
                              check=False)
        status = status or done.returncode
    return status
