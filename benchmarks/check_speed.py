"""How long a check takes, per step, on a few machine profiles and on this machine.

    python benchmarks/check_speed.py [--repeat N] [--no-local] [--no-cold] [PROFILE.json ...]

Two tables of milliseconds per step (environment choice and each layer, from
``CheckOptions.timings``), each the median of N runs:

- *in process*: ``run_check`` on each replayed profile and on this machine (a fresh host each
  run, but modules already imported, as the GUI's "check again");
- *fresh process*: ``gpu-wizard check --json`` as a user starts it, one new interpreter per run,
  with this machine's Python environments probed as usual, and without them (the environment
  step answers "none found" without looking; the rest of the check is unchanged). ``python``
  is the interpreter's own start, ``imports`` the wizard's modules and the CLI up to the check,
  ``rest`` the check's own work between the steps (the target, the log's reconciliation, the
  report object), ``report`` the JSON and the rest of ``main``, ``exit`` the interpreter's
  shutdown, ``total`` the whole process as the shell sees it, ``cpu`` the CPU time it used (with
  the probes' processes; steadier than the wall clock on a busy machine).

The children write and read bytecode in a cache folder of their own, as an installed copy has
it, even where the shell sets PYTHONDONTWRITEBYTECODE (else every process compiles every module).
No assertions: it is for watching the cost of the check, not for pass/fail; the tests that fail
when a known slow path returns are in tests/core/test_nvml_query.py and test_layer_gpu.py.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

# A fresh-process child imports only the above before its clock starts; everything else (the
# wizard's modules too) is imported inside the functions that need it.
LAYERS = ("gpu", "driver", "cuda", "cudnn", "tensorflow")  # wizard.core.model.LAYERS
DEFAULT_PROFILES = [
    "win-tf210-healthy",
    "win-tf210-cudnn-never-copied",
    "win-zh-cn-healthy",
    "linux-tf221-and-cuda-healthy",
    "linux-cuda112-ld-library-path-missing",
    "wsl2-healthy",
]
STEPS = ("environment", *LAYERS)
COLD_STEPS = ("python", "imports", *STEPS, "layers", "rest", "report", "exit", "total", "cpu")


def measure(make_host: Callable[[], Any], repeat: int) -> dict[str, float]:
    """Median seconds per step and in total over ``repeat`` checks (a fresh host each time, so
    nothing is cached between runs)."""
    import statistics

    from wizard.core.diagnose import CheckOptions, run_check

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


def child(no_envs: bool, out: str) -> int:
    """One ``gpu-wizard check --json`` in this (fresh) process; the timings go to ``out``.

    ``no_envs``: the environment step answers "no Python environment found" without looking,
    the rest of the check (layers, report) runs as in a real check."""
    entered, started = time.time(), time.perf_counter()
    from wizard import cli
    from wizard.core import diagnose
    from wizard.core.messages import msg

    seen: dict[str, float] = {"entered": entered}
    real_run_check = diagnose.run_check

    def timed_run_check(host: Any, options: Any = None, *args: Any, **kwargs: Any) -> Any:
        seen["imports"] = time.perf_counter() - started
        options = options or diagnose.CheckOptions()
        try:
            return real_run_check(host, options, *args, **kwargs)
        finally:
            seen.update(options.timings)
            seen["checked"] = time.perf_counter() - started
            seen["rest"] = seen["checked"] - seen["imports"] - sum(options.timings.values())

    diagnose.run_check = timed_run_check
    if no_envs:
        diagnose.choose_environment = lambda *a, **k: (None, None, msg("target.env.none_found"))
    with open(os.devnull, "w", encoding="utf-8") as sink:
        saved, sys.stdout = sys.stdout, sink
        sys.argv = ["gpu-wizard", "check", "--json"]
        try:
            cli.main()  # as the console script calls it (argv from sys.argv)
        finally:
            sys.stdout = saved
    seen["report"] = time.perf_counter() - started - seen.pop("checked")
    seen["left"] = time.time()
    Path(out).write_text(json.dumps(seen), encoding="utf-8")
    return 0


def child_environment(cache: str) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = cache
    return env


def run_child(argv: list[str], env: dict[str, str]) -> float:
    """Run one child; its CPU seconds (user + system, its own children included: the probes),
    which the other helpers and builds sharing a machine disturb less than the wall clock."""
    import subprocess

    process = subprocess.Popen(argv, stdin=subprocess.DEVNULL, env=env)
    if not hasattr(os, "wait4"):  # Windows: no rusage
        if process.wait() != 0:
            raise SystemExit(f"check_speed: the child failed ({process.returncode})")
        return 0.0
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"check_speed: the child failed ({process.returncode})")
    return usage.ru_utime + usage.ru_stime


def measure_cold(no_envs: bool, repeat: int) -> dict[str, float]:
    """Median seconds per step over ``repeat`` fresh processes (after one uncounted run that
    writes the bytecode)."""
    import statistics
    import subprocess
    import tempfile

    runs: dict[str, list[float]] = {step: [] for step in COLD_STEPS}
    temp = Path(tempfile.gettempdir())
    out = temp / f"check_speed_{os.getpid()}.json"
    argv = [sys.executable, str(Path(__file__).resolve()), "--child", str(out)]
    if no_envs:
        argv.append("--child-no-envs")
    env = child_environment(str(temp / "gpu-wizard-check-speed-pyc"))
    try:
        subprocess.run(argv, check=True, stdin=subprocess.DEVNULL, env=env)
        for _ in range(repeat):
            spawned, started = time.time(), time.perf_counter()
            runs["cpu"].append(run_child(argv, env))
            runs["total"].append(time.perf_counter() - started)
            ended = time.time()
            seen = json.loads(out.read_text(encoding="utf-8"))
            runs["python"].append(max(0.0, seen["entered"] - spawned))
            runs["exit"].append(max(0.0, ended - seen["left"]))
            for step in ("imports", *STEPS, "rest", "report"):
                runs[step].append(seen.get(step, 0.0))
            runs["layers"].append(sum(seen.get(step, 0.0) for step in LAYERS))
    finally:
        out.unlink(missing_ok=True)
    return {step: statistics.median(values) for step, values in runs.items()}


def table(rows: list[tuple[str, dict[str, float]]], steps: tuple[str, ...]) -> str:
    headers = ["machine", *steps]
    body = [[name] + [f"{row[s] * 1000:.1f}" for s in steps] for name, row in rows]
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
    parser.add_argument("--no-cold", action="store_true", help="skip the fresh-process runs")
    parser.add_argument("--child", metavar="OUT", help=argparse.SUPPRESS)
    parser.add_argument("--child-no-envs", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        return child(args.child_no_envs, args.child)
    from wizard.core.host import LocalHost, ReplayHost
    from wizard.core.model import LAYERS as MODEL_LAYERS

    assert MODEL_LAYERS == LAYERS, "update check_speed.LAYERS to wizard.core.model.LAYERS"
    paths = [Path(p) for p in args.profiles] or [
        ROOT / "tests" / "profiles" / f"{name}.json" for name in DEFAULT_PROFILES]

    rows = []
    for path in paths:
        rows.append((path.stem, measure(lambda p=path: ReplayHost.from_file(p), args.repeat)))
    live_repeat = max(1, min(args.repeat, 3))  # the live check probes real Pythons: fewer runs
    if not args.no_local:
        rows.append(("this machine (LocalHost)", measure(LocalHost, live_repeat)))
    print(f"run_check in process, milliseconds per step (median of {args.repeat} runs; this "
          f"machine: {live_repeat})")
    print(table(rows, (*STEPS, "total")))
    if args.no_local or args.no_cold:
        return 0
    cold = [
        ("this machine", measure_cold(False, live_repeat)),
        ("this machine, no Python envs", measure_cold(True, args.repeat)),
    ]
    print()
    print(f"gpu-wizard check --json in a fresh process, milliseconds (median of {live_repeat} "
          f"runs; without environments: {args.repeat})")
    print(table(cold, COLD_STEPS))
    return 0


if __name__ == "__main__":
    sys.exit(main())
