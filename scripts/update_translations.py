#!/usr/bin/env python3
"""Refresh the Qt translation files of the GUI's own texts: source -> .ts -> .qm.

Core's words (findings, steps, summaries, ...) are not here: they are messages in the catalogue,
``resources/messages/*.json``, every language side by side. This script is for the ``tr()`` texts
of ``wizard/`` outside ``wizard/core`` (page titles, buttons, labels). Two steps:

1. ``pyside6-lupdate`` scans ``wizard/**/*.py`` (core excluded: it holds no ``tr()`` text) into
   ``resources/i18n/gpu_wizard_zh_CN.ts``. Existing translations are kept; entries whose source
   text vanished are dropped (``-no-obsolete``). New entries come in as ``type="unfinished"``:
   translate them (Qt Linguist, or any editor) and run this script again.
2. ``pyside6-lrelease`` compiles the ``.ts`` into ``resources/i18n/gpu_wizard_zh_CN.qm``. The
   ``.qm`` is committed too, so a fresh checkout runs without the Qt tools.

The tools come with PySide6-Essentials: ``pyside6-lupdate`` / ``pyside6-lrelease`` next to the
Python interpreter (a venv's ``bin/`` or ``Scripts\\``), or the ``lupdate`` / ``lrelease``
binaries inside the PySide6 package folder.

Usage::

    python scripts/update_translations.py            # both steps
    python scripts/update_translations.py --check    # exit 1 if anything would change
    python scripts/update_translations.py --release  # only step 2 (.ts -> .qm)

``tests/gui/test_translations.py`` fails when the ``.ts`` has unfinished, empty or obsolete
entries, or when it is stale against the source.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = ("zh_CN",)
TS_DIR = ROOT / "resources" / "i18n"
# Source folders lupdate scans. wizard/core is left out on purpose: it never calls tr().
SCAN_EXCLUDE = ("core",)


def ts_path(lang: str) -> Path:
    return TS_DIR / f"gpu_wizard_{lang}.ts"


def qm_path(lang: str) -> Path:
    return TS_DIR / f"gpu_wizard_{lang}.qm"


def find_tool(name: str) -> str:
    """Locate ``pyside6-<name>`` (venv wrapper) or the raw ``<name>`` binary in PySide6."""
    exe_dir = Path(sys.executable).parent
    suffixes = (".exe", "") if os.name == "nt" else ("",)
    for suffix in suffixes:
        candidate = exe_dir / f"pyside6-{name}{suffix}"
        if candidate.is_file():
            return str(candidate)
    found = shutil.which(f"pyside6-{name}")
    if found:
        return found
    try:
        import PySide6
    except ImportError as exc:  # pragma: no cover - only without PySide6
        raise SystemExit(f"PySide6 is not installed in {sys.executable}: {exc}") from exc
    package_dir = Path(PySide6.__file__).parent
    for suffix in suffixes:
        for candidate in (package_dir / f"{name}{suffix}", package_dir / "Qt" / "bin" / name):
            if candidate.is_file():
                return str(candidate)
    raise SystemExit(
        f"Cannot find pyside6-{name} or {name}: install PySide6-Essentials >= 6.6 into "
        f"{sys.executable} (pip install PySide6-Essentials), which ships both tools."
    )


# ---------------------------------------------------------------------------------------------
# lupdate and lrelease


def source_files() -> list[Path]:
    """Every Python file lupdate must scan, in a stable order."""
    files = []
    for path in sorted((ROOT / "wizard").rglob("*.py")):
        rel = path.relative_to(ROOT / "wizard").parts
        if rel[0] in SCAN_EXCLUDE or "__pycache__" in rel:
            continue
        files.append(path)
    return files


def run_lupdate(ts_file: Path, sources: list[Path] | None = None) -> str:
    """Update ``ts_file`` from the sources in place; returns lupdate's output."""
    sources = source_files() if sources is None else sources
    lang = ts_file.stem.split("_", 2)[-1]  # gpu_wizard_zh_CN -> zh_CN
    with tempfile.NamedTemporaryFile("w", suffix=".lst", delete=False, encoding="utf-8") as lst:
        lst.write("\n".join(str(p) for p in sources) + "\n")
    try:
        argv = [
            find_tool("lupdate"),
            "-no-obsolete",
            "-locations",
            "none",
            "-source-language",
            "en",
            "-target-language",
            lang,
            f"@{lst.name}",
            "-ts",
            str(ts_file),
        ]
        proc = subprocess.run(argv, capture_output=True, text=True, check=False)
    finally:
        os.unlink(lst.name)
    if proc.returncode != 0:
        raise SystemExit(f"lupdate failed for {ts_file}:\n{proc.stdout}{proc.stderr}")
    return proc.stdout + proc.stderr


def run_lrelease(ts_file: Path, qm_file: Path) -> str:
    argv = [find_tool("lrelease"), str(ts_file), "-qm", str(qm_file)]
    proc = subprocess.run(argv, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise SystemExit(f"lrelease failed for {ts_file}:\n{proc.stdout}{proc.stderr}")
    return proc.stdout + proc.stderr


def unfinished_count(ts_file: Path) -> int:
    import xml.etree.ElementTree as ET

    count = 0
    for message in ET.parse(ts_file).getroot().iter("message"):
        tr = message.find("translation")
        done = tr is not None and tr.get("type") not in ("unfinished", "obsolete", "vanished")
        if not done or not ((tr.text or "").strip() or list(tr)):
            count += 1
    return count


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if stale")
    parser.add_argument("--release", action="store_true", help="only compile .ts -> .qm")
    args = parser.parse_args(argv)

    stale = False
    if not args.release:
        for lang in LANGUAGES:
            ts_file = ts_path(lang)
            if args.check:
                with tempfile.TemporaryDirectory() as tmp:
                    copy = Path(tmp) / ts_file.name
                    if ts_file.is_file():
                        shutil.copy(ts_file, copy)
                    run_lupdate(copy)
                    if not ts_file.is_file() or copy.read_bytes() != ts_file.read_bytes():
                        print(f"{ts_file.relative_to(ROOT)} is stale")
                        stale = True
            else:
                print(run_lupdate(ts_file).strip())
    if not args.check:
        for lang in LANGUAGES:
            print(run_lrelease(ts_path(lang), qm_path(lang)).strip())
            todo = unfinished_count(ts_path(lang))
            if todo:
                print(f"{todo} entries of {ts_path(lang).name} still need a translation")
    if args.check and stale:
        print("Run: python scripts/update_translations.py, then translate the new entries.")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
