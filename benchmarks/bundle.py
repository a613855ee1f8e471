"""Build the one-folder bundle (packaging/pyinstaller.spec) and print what users download: its
size with the largest parts, and the built wizard's start-up time.

    python benchmarks/bundle.py [--dist DIR] [--runs N]

``--dist`` measures an existing bundle folder (GPU-Setup-Wizard) instead of building one.
Goals: under 200 MB on Linux (Qt's ICU data alone is 31 MB), under 150 MB on Windows; the first
page shown in under 2 s. Start-up is measured from process start to the window shown and closed
again (``GPU_WIZARD_QUIT_AFTER_MS=1``, offscreen): an upper bound of the first paint, bootloader
included. Prints one line per figure and a JSON line at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SPEC = ROOT / "packaging" / "pyinstaller.spec"
PROFILE = ROOT / "resources" / "selftest" / "healthy.json"
GOAL_MB = 150 if sys.platform == "win32" else 200
GOAL_START_S = 2.0
MB = 1024 * 1024


def build(work: Path) -> tuple[Path, float]:
    started = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-m", "PyInstaller", str(SPEC), "--noconfirm",
         "--distpath", str(work / "dist"), "--workpath", str(work / "build")],
        cwd=ROOT, capture_output=True, text=True,
    )
    if result.returncode != 0:
        sys.exit(f"bundle.py: PyInstaller failed:\n{result.stderr[-4000:]}")
    return work / "dist" / "GPU-Setup-Wizard", time.perf_counter() - started


def folder_size(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file() and not f.is_symlink())


def largest_parts(bundle: Path, count: int = 15) -> list[tuple[str, int]]:
    """The largest files and the largest folders one level inside _internal and PySide6."""
    parts: dict[str, int] = {}
    internal = bundle / "_internal"
    for item in internal.iterdir():
        if item.is_symlink():  # links to libraries counted where they lie
            continue
        size = folder_size(item) if item.is_dir() else item.stat().st_size
        parts[item.name + ("/" if item.is_dir() else "")] = size
    for files in (bundle / "_internal").rglob("*"):
        if files.is_file() and not files.is_symlink() and files.stat().st_size > 2 * MB:
            parts[str(files.relative_to(internal)).replace(os.sep, "/")] = files.stat().st_size
    return sorted(parts.items(), key=lambda kv: -kv[1])[:count]


def exe(bundle: Path, name: str) -> Path:
    return bundle / (name + (".exe" if sys.platform == "win32" else ""))


def start_up(bundle: Path, runs: int) -> list[float]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "GPU_WIZARD_QUIT_AFTER_MS": "1"}
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        result = subprocess.run([str(exe(bundle, "GPU-Setup-Wizard")), "--profile", str(PROFILE)],
                                env=env, capture_output=True, text=True, timeout=120)
        times.append(time.perf_counter() - started)
        if result.returncode != 0:
            sys.exit(f"bundle.py: the wizard exited {result.returncode}: {result.stderr[-2000:]}")
    return times


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--dist", type=Path, help="an existing GPU-Setup-Wizard folder")
    parser.add_argument("--runs", type=int, default=5, help="start-up runs (default 5)")
    args = parser.parse_args()
    figures: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="bundle-") as tmp:
        if args.dist:
            bundle = args.dist
        else:
            bundle, seconds = build(Path(tmp))
            figures["build_s"] = round(seconds, 1)
            print(f"build time:               {seconds:.0f} s")
        size = folder_size(bundle)
        figures["size_mb"] = round(size / MB, 1)
        print(f"bundle size:              {size / MB:.1f} MB (goal: under {GOAL_MB} MB) "
              f"{'ok' if size / MB < GOAL_MB else 'OVER'}")
        print("largest parts:")
        for name, part in largest_parts(bundle):
            print(f"  {part / MB:7.1f} MB  {name}")
        times = start_up(bundle, args.runs)
        figures["start_min_s"] = round(min(times), 3)
        figures["start_median_s"] = round(statistics.median(times), 3)
        median = statistics.median(times)
        print(f"start-up (shown+closed):  min {min(times):.2f} s, median {median:.2f} s over "
              f"{len(times)} runs (goal: under {GOAL_START_S:.0f} s) "
              f"{'ok' if median < GOAL_START_S else 'OVER'}")
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
