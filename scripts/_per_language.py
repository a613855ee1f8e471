"""What the screenshot scripts share: the command line (each language is rendered in a process of
its own, a clean QApplication per language, by running the script again with ``--one LANG``)
and the offscreen QApplication they render in."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable, Optional


def screenshot_app() -> Any:
    """The QApplication to render in: offscreen unless a display is asked for, with settings of
    its own (an INI file under "GPU Setup Wizard Screenshots", never the user's)."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QCoreApplication, QSettings
    from PySide6.QtWidgets import QApplication

    QCoreApplication.setOrganizationName("GPU Setup Wizard Screenshots")
    QCoreApplication.setApplicationName("screenshots")
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    return QApplication.instance() or QApplication([sys.argv[0]])


def language_installed(script: str, app: Any, lang: str) -> bool:
    """Install ``lang``'s catalogue, or say on stderr that it cannot be loaded."""
    from wizard import i18n

    if i18n.install_language(app, lang):
        return True
    print(f"{script}: cannot load the {lang} catalogue", file=sys.stderr)
    return False


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
