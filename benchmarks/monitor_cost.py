#!/usr/bin/env python3
"""What the GPU monitor costs, side by side in one run on the same stand-in libnvidia-ml.so.1
(tests/standin, built here with the C compiler and loaded by the real nvidia-ml-py binding):

1. CPU time per sample: the core's NVML session (every per-tick field and the processes) against
   nvitop's ``Device.as_snapshot()`` and gpustat's ``new_query()``, where those are installed
   (``pip install nvitop gpustat`` into the venv; they are not project dependencies);
2. the monitor page's CPU share at 1 Hz with its plots visible (offscreen Qt), for 2 and 8 GPUs,
   and the time one repaint takes;
3. the history's memory after 24 simulated hours at 1 Hz for 2 GPUs.

Usage: ``python benchmarks/monitor_cost.py [--samples N] [--page-seconds S] [--repeat R]
[--part all|samples|page|memory] [--gpus 2,8]``. ``--repeat`` measures the page R times per GPU
count and prints each run and the median (a shared machine is noisy). Linux only (the stand-in
is an ELF shared library). Numbers depend on the machine; nothing here asserts.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CONFIG = """\
count {count}
g0.name NVIDIA GeForce RTX 4090
g0.util 97
g0.mem_used 20000000000
g0.mem_total 25757220864
g0.pid {pid}
g0.pid_mem 1073741824
g0.reasons 0x4
"""


def relaunch(args: argparse.Namespace) -> int:
    """Build the stand-in and run this script again with LD_LIBRARY_PATH pointing at it."""
    from tests import standin

    if standin.compiler() is None:
        print("monitor_cost: needs Linux and a C compiler (gcc) to build the stand-in NVML")
        return 2
    with tempfile.TemporaryDirectory(prefix="monitor-cost-") as tmp:
        libdir = standin.build(Path(tmp) / "lib")
        config = Path(tmp) / "nvml.cfg"
        config.write_text(CONFIG.format(count=2, pid=os.getpid()), encoding="utf-8")
        env = standin.environment(libdir, config)
        env["MONITOR_COST_CHILD"] = tmp
        env.setdefault("QT_QPA_PLATFORM", "offscreen")
        argv = [sys.executable, __file__, "--samples", str(args.samples), "--page-seconds",
                str(args.page_seconds), "--repeat", str(args.repeat), "--part", args.part,
                "--gpus", args.gpus]
        return subprocess.call(argv, env=env)


def per_sample(label: str, fn, samples: int) -> None:  # noqa: ANN001
    try:
        fn()  # warm: the first call opens handles, reads static facts, loads modules
    except Exception as exc:  # a tool that needs a function the stand-in lacks
        print(f"  {label:<44} failed on the stand-in: {type(exc).__name__}: {exc}")
        return
    start_cpu, start_wall = time.process_time(), time.perf_counter()
    for _ in range(samples):
        fn()
    cpu = (time.process_time() - start_cpu) / samples
    wall = (time.perf_counter() - start_wall) / samples
    print(f"  {label:<44} {cpu * 1e6:9.1f} µs CPU   {wall * 1e6:9.1f} µs wall")


def sample_costs(samples: int) -> None:
    print(f"CPU time per sample, 2 GPUs, {samples} samples each (lower is better):")
    from wizard.core.host.nvml_session import NvmlSession

    session = NvmlSession(retry_s=0)
    per_sample("gpu-wizard NvmlSession.sample() (+processes)", session.sample, samples)
    print(f"    NVML calls per sample: {session.calls / (samples + 1):.1f}")
    session.close()
    try:
        from nvitop import Device

        devices = Device.all()

        def nvitop_snapshot() -> None:
            for device in devices:
                device.as_snapshot()

        per_sample("nvitop Device.as_snapshot() (no processes)", nvitop_snapshot, samples)

        def nvitop_with_processes() -> None:
            for device in devices:
                device.as_snapshot()
                device.processes()

        per_sample("nvitop as_snapshot() + processes()", nvitop_with_processes, samples)
    except ImportError:
        print("  nvitop: not installed (pip install nvitop)")
    try:
        import gpustat

        per_sample("gpustat new_query()", gpustat.new_query, samples)
    except ImportError:
        print("  gpustat: not installed (pip install gpustat)")


def page_cost(seconds: float, gpus: int, tmp: Path) -> float:
    """One run of the page for ``seconds``; returns its CPU share of one core in percent."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from tests import standin
    from wizard.core.host import ReplayHost
    from wizard.core.host.nvml_session import NvmlSession
    from wizard.core.monitor import LiveSource
    from wizard.core.session import CheckSession
    from wizard.pages.wizard import SetupWizard

    standin.write_config(tmp / "nvml.cfg", CONFIG.format(count=gpus, pid=os.getpid()))
    app = QApplication.instance() or QApplication([])
    host = ReplayHost.from_file(ROOT / "tests" / "profiles" / "linux-dual-4090-healthy.json")
    wizard = SetupWizard(CheckSession(host), start_page="monitor",
                         monitor_source=lambda: LiveSource(NvmlSession(retry_s=0)))
    wizard.resize(1000, 900)
    wizard.show()
    page = wizard.monitor
    # fill an hour of history first, so the plots draw full curves (downsampled)
    warm_until = time.monotonic() + 2.0
    while time.monotonic() < warm_until:
        app.processEvents()
    if page.monitor is not None and page.monitor.latest is not None:
        base = page.monitor.latest
        for i in range(3600):
            page.monitor.add(dict(base, time=base["time"] - 3600 + i))
    paints = []
    original = page.refresh  # what the paint timer calls

    profiler = None
    if os.environ.get("MONITOR_COST_PROFILE"):
        import cProfile

        profiler = cProfile.Profile()

    def timed_refresh() -> None:
        start = time.perf_counter()
        if profiler is not None:
            profiler.enable()
        original()
        if profiler is not None:
            profiler.disable()
        paints.append(time.perf_counter() - start)

    page.paint_timer.timeout.disconnect()
    page.paint_timer.timeout.connect(timed_refresh)
    QTimer.singleShot(int(seconds * 1000), app.quit)
    start_cpu, start_wall = time.process_time(), time.perf_counter()
    app.exec()
    cpu, wall = time.process_time() - start_cpu, time.perf_counter() - start_wall
    samples = page.monitor.history.count if page.monitor and page.monitor.history else 0
    wizard.close()
    wizard.shutdown()
    if profiler is not None:  # MONITOR_COST_PROFILE=1: where a repaint's time goes
        import pstats

        pstats.Stats(profiler).sort_stats("cumulative").print_stats(12)
    mean_paint = sum(paints) / len(paints) * 1000 if paints else float("nan")
    # process CPU time: the sampler thread, the paint timer and Qt's own work together
    print(f"  {gpus} GPUs: {100 * cpu / wall:5.2f}% of one core over {wall:.0f} s at 1 Hz "
          f"({samples} samples in history, {len(paints)} repaints, {mean_paint:.1f} ms each)")
    return 100 * cpu / wall


def history_memory() -> None:
    import psutil

    from wizard.core.monitor import DAY_S, History

    process = psutil.Process()
    before = process.memory_info().rss
    history = History(gpus=2, capacity=DAY_S)
    gpu = {"util_gpu": 97, "util_memory": 40, "memory_used": 2 * 10**10, "temperature": 70,
           "power_w": 300.5, "sm_clock": 2520, "memory_clock": 10501, "fan": 60,
           "clock_reasons": 4}
    start = time.process_time()
    for t in range(DAY_S):
        history.append({"time": float(t), "gpus": [dict(gpu, index=0), dict(gpu, index=1)]})
    append_us = (time.process_time() - start) / DAY_S * 1e6
    after = process.memory_info().rss
    print(f"History after 24 h at 1 Hz, 2 GPUs: {history.nbytes() / 2**20:.1f} MiB in the "
          f"ring buffers, process RSS +{(after - before) / 2**20:.1f} MiB "
          f"(goal < 50 MB); {append_us:.1f} µs CPU per append")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=2000)
    parser.add_argument("--page-seconds", type=float, default=20.0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--part", choices=("all", "samples", "page", "memory"), default="all")
    parser.add_argument("--gpus", default="2,8", help="GPU counts for the page, comma-separated")
    args = parser.parse_args()
    tmp = os.environ.get("MONITOR_COST_CHILD")
    if not tmp:
        return relaunch(args)
    if args.part in ("all", "samples"):
        sample_costs(args.samples)
    if args.part in ("all", "page"):
        print("Monitor page CPU share at 1 Hz, plots visible (offscreen):")
        for gpus in (int(n) for n in args.gpus.split(",")):
            shares = sorted(page_cost(args.page_seconds, gpus, Path(tmp))
                            for _ in range(max(1, args.repeat)))
            if len(shares) > 1:
                print(f"  {gpus} GPUs: median {statistics.median(shares):.2f}% of one core "
                      f"over {len(shares)} runs (min {shares[0]:.2f}%, max {shares[-1]:.2f}%)")
    if args.part in ("all", "memory"):
        history_memory()
    return 0


if __name__ == "__main__":
    sys.exit(main())
