#!/usr/bin/env python3
"""Build resources/similar_reports.json from the development part of data/explain-corpus
(wizard/core/similar_reports.py): each log's thread, confirmed cause and term weights.

Usage: python scripts/build_similar_reports.py [--check]
  --check   exit 1 when the shipped file differs from what the corpus gives (a test runs it)
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import corpus_split  # noqa: E402

from wizard.core.similar_reports import INDEX_FILE, build_index  # noqa: E402

TARGET = ROOT / "resources" / INDEX_FILE
ABOUT = ("The development part of data/explain-corpus as term weights (TF-IDF), each log with "
         "its thread and the finding code of its confirmed cause; built by "
         "scripts/build_similar_reports.py, read by wizard/core/similar_reports.py. The test "
         "part is never in it.")


def log_text(row: dict) -> str:
    log = row.get("log") or ""
    return "\n".join(map(str, log)) if isinstance(log, list) else str(log)


def built() -> str:
    rows = corpus_split.load("dev")
    data = {"about": ABOUT, **build_index((row["source"], row["label"], log_text(row))
                                         for row in rows)}
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    text = built()
    if args.check:
        current = TARGET.read_text(encoding="utf-8") if TARGET.exists() else ""
        if current != text:
            print(f"{TARGET} is not what the corpus gives: run {Path(__file__).name}",
                  file=sys.stderr)
            return 1
        return 0
    TARGET.write_text(text, encoding="utf-8")
    print(f"{TARGET}: {len(text) / 1000:.0f} kB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
