"""How long ``run_check`` takes, per step, on a few machine profiles and on this machine.

    python benchmarks/check_speed.py [--repeat N] [--no-local] [PROFILE.json ...]

Prints a table of milliseconds per step (environment choice and each layer, from
``CheckOptions.timings``), the median of N runs. No assertions: it is for watching the cost of
the check (the GUI runs it on every "check again"), not for pass/fail.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from wizard.core.diagnose import CheckOptions, run_check  # noqa: E402
from wizard.core.host import Host, LocalHost, ReplayHost  # noqa: E402
from wizard.core.model import LAYERS  # noqa: E402

DEFAULT_PROFILES = [
    "win-tf210-healthy",
    "win-tf210-cudnn-never-copied",
    "win-zh-cn-healthy",
    "linux-tf221-and-cuda-healthy",
    "linux-cuda112-ld-library-path-missing",
    "wsl2-healthy",
]
STEPS = ("environment", *LAYERS)


def measure(make_host: Callable[[], Host], repeat: int) -> dict[str, float]:
    """Median seconds per step and in total over ``repeat`` checks (a fresh host each time, so
    nothing is cached between runs)."""
    runs: dict[str, list[float]] = {step: [] for step in (*STEPS, "total")}
    for _ in range(repeat):
        options = CheckOptions()
        host = make_host()
        started = time.perf_counter()
        run_check(host, options)
        runs["total"].append(time.perf_counter() - started)
        for step in STEPS:
            runs[step].append(options.timings.get(step, 0.0))
    return {step: statistics.median(values) for step, values in runs.items()}


def table(rows: list[tuple[str, dict[str, float]]]) -> str:
    headers = ["machine", *STEPS, "total"]
    body = [[name] + [f"{row[s] * 1000:.1f}" for s in (*STEPS, "total")] for name, row in rows]
    widths = [max(len(r[i]) for r in [headers, *body]) for i in range(len(headers))]
    lines = [
        "  ".join(h.ljust(w) if i == 0 else h.rjust(w) for i, (h, w) in enumerate(
            zip(headers, widths))),
        "  ".join("-" * w for w in widths),
    ]
    for r in body:
        lines.append("  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                               for i, (c, w) in enumerate(zip(r, widths))))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("profiles", nargs="*", help="profile files (default: a few from "
                        "tests/profiles)")
    parser.add_argument("--repeat", type=int, default=5, help="runs per machine (median shown)")
    parser.add_argument("--no-local", action="store_true", help="skip this machine")
    args = parser.parse_args(argv)
    paths = [Path(p) for p in args.profiles] or [
        ROOT / "tests" / "profiles" / f"{name}.json" for name in DEFAULT_PROFILES]

    rows = []
    for path in paths:
        rows.append((path.stem, measure(lambda p=path: ReplayHost.from_file(p), args.repeat)))
    if not args.no_local:
        # the live check probes real Python environments: fewer runs
        rows.append(("this machine (LocalHost)", measure(LocalHost, max(1, min(args.repeat, 3)))))
    print(f"run_check, milliseconds per step (median of {args.repeat} runs; this machine: "
          f"{max(1, min(args.repeat, 3))})")
    print(table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
