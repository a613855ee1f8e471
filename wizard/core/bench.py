"""The benchmark: run ``resources/probes/bench.py`` in the target Python, read its JSON lines,
sample NVML alongside, and judge the numbers against the GPU's peak (``gpu_specs.json``).

No Qt. ``run_bench(python, ...)`` streams each record to ``on_record`` and honours
``cancelled()`` (the child's whole process tree is killed); ``judge(run)`` turns a run into
figures and plain-words verdicts (messages, both languages); a run is saved to the history in
the user data folder and exported as JSON or Markdown.

Peak conventions (docs in ``shared/research/benchmark-anchors.md``): dense peaks, FMA = 2 FLOP,
FP16 with FP32 accumulation for mixed precision; the peak at the measured clock scales the
spec's peak by measured SM clock / the clock the spec was given at.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import json
import os
import queue
import subprocess
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Optional

from wizard.core.host.clock_sampler import ClockSampler, reason_names
from wizard.core.host.probe import _popen_kwargs, kill_tree, probe_environment
from wizard.core.host.process import decode_output, json_object, reset_dll_directory
from wizard.core.knowledge.gpus import gpu_spec
from wizard.core.messages import Message, msg, render
from wizard.resources import resource_path

BENCH_FORMAT = "gpu-wizard/bench@1"
RUN_FORMAT = "gpu-wizard/bench-run@1"
DEFAULT_TIMEOUT = 1800.0
QUICK_TIMEOUT = 300.0

POWER_BITS = 0x4 | 0x80
THERMAL_BITS = 0x20 | 0x40
HW_SLOWDOWN_BITS = 0x8
SUSPECT_ABOVE = 1.15
"""A figure above 1.15 x the peak at the measured clock is a measurement error, not a fast GPU."""


def bench_script() -> str:
    return str(resource_path("probes", "bench.py"))


# -- a run ---------------------------------------------------------------------------------------
@dataclass
class BenchRun:
    """Everything one run produced: the probe's records, NVML samples, how it ended."""

    records: list[dict[str, Any]] = field(default_factory=list)
    samples: list[dict[str, Any]] = field(default_factory=list)
    nvml_name: Optional[str] = None
    nvml_memory_bytes: Optional[int] = None
    nvml_error: Optional[str] = None
    python: Optional[str] = None
    quick: bool = False
    started: str = ""
    seconds: Optional[float] = None
    outcome: str = "done"
    """done | cancelled | timeout | crashed | not_found"""
    stderr_tail: str = ""

    @property
    def hello(self) -> dict[str, Any]:
        return next((r for r in self.records if r.get("type") == "hello"), {})

    @property
    def results(self) -> list[dict[str, Any]]:
        return [r for r in self.records if r.get("type") == "result"]

    @property
    def skips(self) -> list[dict[str, Any]]:
        return [r for r in self.records if r.get("type") == "skip"]

    @property
    def errors(self) -> list[dict[str, Any]]:
        return [r for r in self.records if r.get("type") == "error"]

    def matmuls(self, device: str) -> list[dict[str, Any]]:
        return [r for r in self.results if r.get("kind") == "matmul" and r.get("device") == device
                and r.get("step", "matmul") == "matmul"]

    @property
    def gpu_name(self) -> Optional[str]:
        gpus = self.hello.get("gpus") or []
        return self.nvml_name or (gpus[0].get("name") if gpus else None)

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": RUN_FORMAT, "started": self.started, "python": self.python,
            "quick": self.quick, "seconds": self.seconds, "outcome": self.outcome,
            "nvml_name": self.nvml_name, "nvml_memory_bytes": self.nvml_memory_bytes,
            "nvml_error": self.nvml_error, "records": self.records, "samples": self.samples,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> BenchRun:
        if data.get("format") != RUN_FORMAT:
            raise ValueError(f"not a saved benchmark run (format {data.get('format')!r})")
        return cls(
            records=list(data.get("records") or []), samples=list(data.get("samples") or []),
            nvml_name=data.get("nvml_name"), nvml_memory_bytes=data.get("nvml_memory_bytes"),
            nvml_error=data.get("nvml_error"), python=data.get("python"),
            quick=bool(data.get("quick")), started=data.get("started") or "",
            seconds=data.get("seconds"), outcome=data.get("outcome") or "done",
        )


def parse_line(line: str) -> Optional[dict[str, Any]]:
    """One record of the probe, or None for any other line (a library's own output)."""
    data = json_object(line)
    return data if data is not None and data.get("bench") == BENCH_FORMAT else None


def _deliver(run: BenchRun, record: dict[str, Any],
             progress: Optional[Callable[[float, str], None]],
             on_record: Optional[Callable[[dict[str, Any]], None]]) -> None:
    """Keep one record of a run (live or replayed) and tell the caller about it."""
    run.records.append(record)
    if progress is not None and record.get("type") == "progress":
        progress(float(record.get("fraction") or 0.0), str(record.get("step") or ""))
    if on_record is not None:
        on_record(record)


def parse_lines(lines: Iterable[str]) -> BenchRun:
    """A run from recorded lines: the probe's records and, in recordings, ``{"type": "nvml",
    ...}`` sample lines and one ``{"type": "nvml_device", "name": ...}``."""
    run = BenchRun()
    for line in lines:
        data = json_object(line)
        if data is None:
            continue
        if data.get("type") == "nvml":
            run.samples.append({k: v for k, v in data.items() if k != "type"})
        elif data.get("type") == "nvml_device":
            run.nvml_name = data.get("name")
            run.nvml_memory_bytes = data.get("memory_bytes")
        elif data.get("bench") == BENCH_FORMAT:
            run.records.append(data)
            if data.get("type") == "done":
                run.seconds = data.get("seconds")
    return run


# -- running -------------------------------------------------------------------------------------
def bench_argv(python: str, quick: bool = False, extra: Optional[list[str]] = None,
               script: Optional[str] = None) -> list[str]:
    argv = [python, "-I", script or bench_script()]
    if quick:
        argv.append("--quick")
    return argv + list(extra or [])


def run_bench(
    python: str,
    quick: bool = False,
    on_record: Optional[Callable[[dict[str, Any]], None]] = None,
    progress: Optional[Callable[[float, str], None]] = None,
    cancelled: Optional[Callable[[], bool]] = None,
    extra_args: Optional[list[str]] = None,
    timeout: Optional[float] = None,
    sample_nvml: bool = True,
    sampler: Optional[ClockSampler] = None,
    script: Optional[str] = None,
) -> BenchRun:
    """Run the benchmark in ``python``; never raises for the child's failures (``outcome``)."""
    run = BenchRun(python=python, quick=quick,
                   started=_dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"))
    limit = timeout if timeout is not None else (QUICK_TIMEOUT if quick else DEFAULT_TIMEOUT)
    started = time.monotonic()
    if not python or not os.path.exists(python):
        run.outcome = "not_found"
        return run
    env = probe_environment()
    env["TF_CPP_MIN_LOG_LEVEL"] = "2"
    reset_dll_directory()  # frozen on Windows: the user's Python must not load our DLLs
    try:
        process = subprocess.Popen(
            bench_argv(python, quick, extra_args, script), stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, **_popen_kwargs())
    except OSError:
        run.outcome = "not_found"
        return run
    lines: queue.Queue = queue.Queue()
    err_chunks: list[bytes] = []

    def read_out() -> None:
        assert process.stdout is not None
        for raw in iter(process.stdout.readline, b""):
            lines.put(decode_output(raw))
        lines.put(None)

    def read_err() -> None:
        assert process.stderr is not None
        for raw in iter(lambda: process.stderr.read(8192), b""):  # type: ignore[union-attr]
            err_chunks.append(raw)
            if len(err_chunks) > 64:
                del err_chunks[: len(err_chunks) - 64]

    for target in (read_out, read_err):
        threading.Thread(target=target, daemon=True, name="bench-read").start()
    nvml = sampler
    if nvml is None and sample_nvml:
        nvml = ClockSampler().start()
    try:
        while True:
            if cancelled is not None and cancelled():
                run.outcome = "cancelled"
                break
            if time.monotonic() - started > limit:
                run.outcome = "timeout"
                break
            try:
                line = lines.get(timeout=0.1)
            except queue.Empty:
                continue
            if line is None:
                break
            record = parse_line(line)
            if record is None:
                continue
            _deliver(run, record, progress, on_record)
    finally:
        kill_tree(process)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=10)
        if nvml is not None:
            run.samples = nvml.stop()
            run.nvml_name, run.nvml_memory_bytes = nvml.name, nvml.memory_bytes
            run.nvml_error = nvml.error
    run.seconds = round(time.monotonic() - started, 3)
    run.stderr_tail = decode_output(b"".join(err_chunks))[-4000:]
    if run.outcome == "done" and not any(r.get("type") == "done" for r in run.records):
        run.outcome = "crashed"
    return run


# -- judging -------------------------------------------------------------------------------------
def label_of(result: dict[str, Any]) -> str:
    """fp32 | tf32 | fp16 | bf16 for a matmul result."""
    dtype = result.get("dtype")
    if dtype == "float16":
        return "fp16"
    if dtype == "bfloat16":
        return "bf16"
    return "tf32" if result.get("tf32") else "fp32"


_PEAK_KEYS = {
    "fp32": "fp32_tflops",
    "tf32": "tf32_tensor_tflops_dense",
    "fp16": "fp16_tensor_tflops_fp32acc_dense",
    "bf16": "fp16_tensor_tflops_fp32acc_dense",
}


def _cc_major(spec: dict[str, Any]) -> int:
    try:
        return int(str(spec.get("compute_capability", "0")).split(".")[0])
    except ValueError:
        return 0


def spec_peak(spec: dict[str, Any], label: str) -> tuple[Optional[float], Optional[float]]:
    """(peak TFLOP/s, the SM clock in MHz it is given at) for ``label``; a laptop range gives
    its top (or its only known end)."""
    if label == "bf16" and _cc_major(spec) < 8:
        return None, None
    key = _PEAK_KEYS[label]
    value, clock = spec.get(key), spec.get("boost_clock_mhz")
    if value is None and spec.get(key + "_range"):
        values, clocks = spec[key + "_range"], spec.get("boost_clock_mhz_range") or [None, None]
        top = 1 if values[1] is not None and clocks[1] is not None else 0
        value, clock = values[top], clocks[top]
    if value is None and label == "tf32" and _cc_major(spec) >= 8:
        # TF32 runs at half the FP16 (FP32-accumulate) Tensor rate on every cc >= 8.0 part
        fp16, clock = spec_peak(spec, "fp16")
        value = fp16 / 2.0 if fp16 else None
    if value is None:
        return None, None
    return float(value), (float(clock) if clock else None)


def expected_share(spec: dict[str, Any], label: str) -> float:
    """The share of the peak (at the measured clock) a healthy GPU reaches through cuBLAS."""
    arch = str(spec.get("architecture", ""))
    if label in ("fp16", "bf16"):
        return 0.55 if (spec.get("tdp_w") or 999) <= 75 else 0.7
    if label == "tf32":
        return 0.6
    doubled = any(a in arch for a in ("Ampere (GA10", "Ada", "Blackwell"))
    return 0.5 if doubled and spec.get("segment") != "datacenter" else 0.7


@dataclass
class Figure:
    """One GPU matmul result judged: TFLOP/s and the share of the peak."""

    label: str
    n: int
    tflops: float
    peak_tflops: Optional[float] = None
    clock_peak_tflops: Optional[float] = None
    percent_of_peak: Optional[float] = None
    percent_of_clock_peak: Optional[float] = None
    suspect: bool = False


@dataclass
class Judgement:
    gpu: Optional[str]
    spec: Optional[dict[str, Any]]
    figures: list[Figure]
    clock_mhz: Optional[float]
    max_clock_mhz: Optional[float]
    power_w: Optional[float]
    power_limit_w: Optional[float]
    temperature_c: Optional[float]
    reasons: list[str]
    speedup: Optional[float]
    verdicts: list[tuple[str, Message]]
    """(severity ok | warn | fail | info, message)."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "gpu": self.gpu,
            "spec": self.spec.get("name") if self.spec else None,
            "clock_mhz": self.clock_mhz, "max_clock_mhz": self.max_clock_mhz,
            "power_w": self.power_w, "power_limit_w": self.power_limit_w,
            "temperature_c": self.temperature_c, "throttle_reasons": self.reasons,
            "gpu_cpu_speedup": self.speedup,
            "figures": [vars(f) for f in self.figures],
            "verdicts": [{"severity": s, "id": m.id, "text": render(m, "en")}
                         for s, m in self.verdicts],
        }


def load_samples(samples: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The samples taken while the GPU was busy (utilisation >= 50%), else all."""
    busy = [s for s in samples if (s.get("utilization") or 0) >= 50]
    return busy or [s for s in samples if s.get("utilization") is None]


def _median(values: list[float]) -> Optional[float]:
    values = sorted(v for v in values if isinstance(v, (int, float)))
    if not values:
        return None
    mid = len(values) // 2
    return float(values[mid]) if len(values) % 2 else (values[mid - 1] + values[mid]) / 2.0


def _share_with(samples: list[dict[str, Any]], bits: int) -> float:
    flagged = [s for s in samples if isinstance(s.get("reasons"), int)]
    if not flagged:
        return 0.0
    return sum(1 for s in flagged if s["reasons"] & bits) / len(flagged)


def precheck(hello: dict[str, Any]) -> Optional[Message]:
    """What to tell the user as soon as the probe said hello: the build cannot run on this GPU."""
    support = hello.get("gpu_support") or {}
    gpus = hello.get("gpus") or []
    if not gpus or support.get("ok") is not False:
        return None
    return _unsupported(hello, None)


def _framework(hello: dict[str, Any]) -> str:
    return "PyTorch" if hello.get("backend") == "torch" else "TensorFlow"


def _unsupported(hello: dict[str, Any], detail: Optional[str]) -> Message:
    gpus = hello.get("gpus") or [{}]
    cc = gpus[0].get("compute_capability")
    archs = (hello.get("gpu_support") or {}).get("arch_list") or []
    params = dict(framework=_framework(hello), version=hello.get("version") or "?",
                  gpu=gpus[0].get("name") or "?",
                  cc=f"{cc[0]}.{cc[1]}" if cc else "?")
    if archs:
        params["archs"] = ", ".join(archs)
    if detail:
        params["detail"] = detail
    if hello.get("backend") == "torch":
        return msg("bench.verdict.gpu_unsupported_torch", **params)
    return msg("bench.verdict.gpu_unsupported_tf", **params)


def _pct(value: Optional[float]) -> str:
    return "?" if value is None else f"{value:.0f}"


def judge(run: BenchRun) -> Judgement:
    hello = run.hello
    name = run.gpu_name
    gpus = hello.get("gpus") or []
    memory = run.nvml_memory_bytes or (gpus[0].get("memory_bytes") if gpus else None)
    spec = gpu_spec(name, memory) if name else None
    busy = load_samples(run.samples)
    clock = _median([s.get("sm_clock_mhz") for s in busy])
    max_clock = _median([s.get("max_sm_clock_mhz") for s in busy])
    power = _median([s.get("power_w") for s in busy])
    limit = _median([s.get("power_limit_w") for s in busy])
    temperature = max((s.get("temperature_c") for s in busy
                       if isinstance(s.get("temperature_c"), (int, float))), default=None)
    mask = 0
    for sample in busy:
        if isinstance(sample.get("reasons"), int):
            mask |= sample["reasons"]
    reasons = [r for r in reason_names(mask) if r != "gpu_idle"]
    figures = _figures(run, spec, clock)
    cpu = [r["gflops"] for r in run.matmuls("cpu") if r.get("gflops")]
    gpu32 = [r["gflops"] for r in run.matmuls("gpu") if r.get("gflops") and label_of(r) == "fp32"]
    speedup = max(gpu32) / max(cpu) if cpu and gpu32 else None
    judgement = Judgement(name, spec, figures, clock, max_clock, power, limit, temperature,
                          reasons, speedup, [])
    judgement.verdicts = _verdicts(run, judgement, busy)
    return judgement


def _figures(run: BenchRun, spec: Optional[dict[str, Any]], clock: Optional[float]
             ) -> list[Figure]:
    best: dict[str, dict[str, Any]] = {}
    figures = []
    for result in run.matmuls("gpu"):
        if not result.get("gflops"):
            continue
        label = label_of(result)
        figure = Figure(label, int(result.get("n") or 0), result["gflops"] / 1000.0)
        if spec is not None:
            peak, at = spec_peak(spec, label)
            if peak:
                figure.peak_tflops = peak
                figure.percent_of_peak = 100.0 * figure.tflops / peak
                if clock and at:
                    figure.clock_peak_tflops = peak * clock / at
                    figure.percent_of_clock_peak = 100.0 * figure.tflops / figure.clock_peak_tflops
                    figure.suspect = figure.tflops > SUSPECT_ABOVE * figure.clock_peak_tflops
        figures.append(figure)
        if label not in best or figure.n >= best[label]["n"]:
            best[label] = {"n": figure.n}
    return figures


def headline(figures: list[Figure]) -> Optional[Figure]:
    """The figure a verdict speaks of: FP16 at the largest size, else TF32, else FP32."""
    for label in ("fp16", "tf32", "fp32"):
        candidates = [f for f in figures if f.label == label]
        if candidates:
            return max(candidates, key=lambda f: f.n)
    return None


def _verdicts(run: BenchRun, j: Judgement, busy: list[dict[str, Any]]
              ) -> list[tuple[str, Message]]:
    out: list[tuple[str, Message]] = []
    hello = run.hello
    if run.outcome == "cancelled":
        out.append(("info", msg("bench.verdict.cancelled")))
    elif run.outcome in ("timeout", "crashed", "not_found"):
        out.append(("fail", msg(f"bench.verdict.{run.outcome}", python=run.python or "?")))
    for error in run.errors:
        if error.get("step") == "import":
            out.append(("fail", msg("bench.verdict.no_framework", python=run.python or "?",
                                    detail=str(error.get("detail") or ""))))
    gpu_skip = next((s for s in run.skips if s.get("step") == "gpu"), None)
    if gpu_skip is not None:
        reason = gpu_skip.get("reason")
        if reason == "gpu_unsupported":
            out.append(("fail", _unsupported(hello, str(gpu_skip.get("detail") or ""))))
        elif reason == "cpu_only_build":
            out.append(("fail", msg("bench.verdict.cpu_only_build", framework=_framework(hello),
                                    version=hello.get("version") or "?")))
        else:
            out.append(("fail", msg("bench.verdict.no_gpu", framework=_framework(hello))))
    figure = headline(j.figures)
    if figure is not None:
        out.extend(_gpu_verdict(j, figure, busy))
    if j.speedup is not None:
        out.append(("info", msg("bench.verdict.speedup", speedup=f"{j.speedup:.1f}")))
    out.extend(_train_verdicts(run))
    return out


def _gpu_verdict(j: Judgement, figure: Figure, busy: list[dict[str, Any]]
                 ) -> list[tuple[str, Message]]:
    spec = j.spec
    what = dict(tflops=f"{figure.tflops:.1f}", label=figure.label.upper(), n=figure.n,
                gpu=j.gpu or "?")
    if spec is None or figure.peak_tflops is None:
        return [("info", msg("bench.verdict.unknown_gpu", **what))]
    if figure.suspect:
        return [("warn", msg("bench.verdict.suspect", **what,
                             percent=_pct(figure.percent_of_clock_peak)))]
    expected = 100.0 * expected_share(spec, figure.label)
    share = figure.percent_of_clock_peak
    efficient = (share if share is not None else figure.percent_of_peak or 0) >= expected
    full = (figure.percent_of_peak or 0) >= expected
    what.update(percent=_pct(figure.percent_of_peak), peak=f"{figure.peak_tflops:.1f}")
    clock = dict(clock=f"{j.clock_mhz:.0f}" if j.clock_mhz else "?",
                 clock_percent=_pct(share))
    if efficient and full:
        return [("ok", msg("bench.verdict.as_expected", **what))]
    if _share_with(busy, POWER_BITS) >= 0.25:
        power = dict(power=f"{j.power_w:.0f}" if j.power_w else "?",
                     limit=f"{j.power_limit_w:.0f}" if j.power_limit_w else "?")
        return [("warn", msg("bench.verdict.power_limited", **what, **clock, **power))]
    if _share_with(busy, THERMAL_BITS) >= 0.25:
        return [("warn", msg("bench.verdict.thermal_limited", **what, **clock,
                             temperature=f"{j.temperature_c:.0f}" if j.temperature_c else "?"))]
    if _share_with(busy, HW_SLOWDOWN_BITS) >= 0.25:
        return [("warn", msg("bench.verdict.hw_slowdown", **what, **clock))]
    if efficient:
        return [("warn", msg("bench.verdict.clock_low", **what, **clock))]
    return [("warn", msg("bench.verdict.slower", **what, expected=_pct(expected)))]


def _train_verdicts(run: BenchRun) -> list[tuple[str, Message]]:
    out: list[tuple[str, Message]] = []
    trains = [r for r in run.results if r.get("kind") == "train" and r.get("images_per_s")]
    plain = next((r for r in trains if not r.get("mixed_precision")), None)
    mixed = next((r for r in trains if r.get("mixed_precision")), None)
    if plain and mixed:
        out.append(("info", msg("bench.verdict.mixed_speedup",
                                speedup=f"{mixed['images_per_s'] / plain['images_per_s']:.1f}")))
    fastest = max(trains, key=lambda r: r["images_per_s"], default=None)
    data = {bool(r.get("prefetch")): r for r in run.results
            if r.get("kind") == "data" and r.get("batches_per_s")}
    if fastest is not None and False in data:
        need = fastest["images_per_s"]
        have = data[False]["batches_per_s"] * (data[False].get("batch") or 1)
        tuned = data.get(True)
        tuned_rate = tuned["batches_per_s"] * (tuned.get("batch") or 1) if tuned else None
        if have < need:
            out.append(("warn", msg(
                "bench.verdict.data_starves", have=f"{have:.0f}", need=f"{need:.0f}",
                idle=_pct(100.0 * (1 - have / need)),
                tuned=f"{tuned_rate:.0f}" if tuned_rate else "?")))
        else:
            out.append(("ok", msg("bench.verdict.data_keeps_up", have=f"{have:.0f}",
                                  need=f"{need:.0f}")))
    return out


# -- output --------------------------------------------------------------------------------------
def result_line(result: dict[str, Any], j: Optional[Judgement] = None) -> dict[str, Any]:
    """A result as the CLI's ``--json`` prints it: the probe's record (``device``, ``n``,
    ``dtype``, ``gflops`` for a matmul) plus its label and share of the peak."""
    line = {k: v for k, v in result.items() if k not in ("bench", "samples_s")}
    if result.get("kind") == "matmul":
        line["label"] = label_of(result) if result.get("device") == "gpu" else "fp32"
        if j is not None and result.get("device") == "gpu":
            match = next((f for f in j.figures if f.label == line["label"]
                          and f.n == result.get("n")), None)
            if match is not None and result.get("step", "matmul") == "matmul":
                line.update(peak_tflops=match.peak_tflops,
                            percent_of_peak=match.percent_of_peak,
                            percent_of_clock_peak=match.percent_of_clock_peak)
    return line


def describe(result: dict[str, Any]) -> Message:
    """A result's name in words: "matmul on the GPU, FP16, n=4096"."""
    kind = result.get("kind")
    if kind == "matmul":
        device = "gpu" if result.get("device") == "gpu" else "cpu"
        label = label_of(result).upper() if device == "gpu" else "FP32"
        if result.get("step") == "xla":
            return msg("bench.name.xla", label=label, n=result.get("n"),
                       xla=msg("bench.word.on" if result.get("xla") else "bench.word.off"))
        return msg(f"bench.name.matmul_{device}", label=label, n=result.get("n"))
    if kind == "train":
        device = "gpu" if result.get("device") == "gpu" else "cpu"
        which = "mixed" if result.get("mixed_precision") else "plain"
        return msg(f"bench.name.train_{which}_{device}", batch=result.get("batch"))
    tuned = "tuned" if result.get("prefetch") else "plain"
    return msg(f"bench.name.data_{tuned}", batch=result.get("batch"))


def value_text(result: dict[str, Any]) -> Message:
    kind = result.get("kind")
    if kind == "matmul":
        gflops = result.get("gflops") or 0.0
        if gflops >= 1000:
            return msg("bench.unit.tflops", value=f"{gflops / 1000:.2f}")
        return msg("bench.unit.gflops", value=f"{gflops:.1f}")
    if kind == "train":
        return msg("bench.unit.images", value=f"{result.get('images_per_s') or 0:.0f}")
    return msg("bench.unit.batches", value=f"{result.get('batches_per_s') or 0:.1f}")


def skip_text(skip: dict[str, Any]) -> Message:
    reason = str(skip.get("reason") or "other")
    known = ("no_gpu", "cpu_only_build", "gpu_unsupported", "no_tf32", "no_bf16",
             "tensorflow_only")
    return msg(f"bench.skip.{reason if reason in known else 'other'}",
               step=str(skip.get("step") or "?"), detail=str(skip.get("detail") or ""))


def to_json(run: BenchRun) -> str:
    data = run.to_dict()
    data["judgement"] = judge(run).to_dict()
    return json.dumps(data, indent=1, sort_keys=True)


def to_markdown(run: BenchRun, lang: str = "en") -> str:
    j = judge(run)
    hello = run.hello
    lines = [f"# {render(msg('bench.md.title'), lang)}", ""]
    lines.append(render(msg("bench.md.setup", framework=_framework(hello),
                            version=hello.get("version") or "?", gpu=j.gpu or "-",
                            python=run.python or "?", started=run.started or "?"), lang))
    if j.clock_mhz:
        lines.append("")
        lines.append(render(msg("bench.md.clock", clock=f"{j.clock_mhz:.0f}",
                                reasons=", ".join(j.reasons) or "-"), lang))
    lines += ["", f"## {render(msg('bench.md.verdicts'), lang)}", ""]
    lines += [f"- {render(m, lang)}" for _, m in j.verdicts] or ["-"]
    lines += ["", f"## {render(msg('bench.md.results'), lang)}", "",
              "| " + " | ".join(render(msg(f"bench.md.col.{c}"), lang)
                                for c in ("step", "value", "peak", "spread")) + " |",
              "| --- | --- | --- | --- |"]
    for result in run.results:
        line = result_line(result, j)
        peak = line.get("percent_of_peak")
        spread = result.get("iqr_ratio")
        lines.append(
            f"| {render(describe(result), lang)} | {render(value_text(result), lang)} | "
            f"{'-' if peak is None else f'{peak:.0f}%'} | "
            f"{'-' if spread is None else f'{100 * spread:.0f}%'} |")
    for skip in run.skips:
        lines.append(f"| {skip.get('step')} | {render(skip_text(skip), lang)} | - | - |")
    return "\n".join(lines) + "\n"


# -- history -------------------------------------------------------------------------------------
def history_dir() -> Path:
    override = os.environ.get("GPU_WIZARD_DATA_DIR")
    if override:
        return Path(override) / "benchmarks"
    import platformdirs

    return Path(platformdirs.user_data_dir("gpu-wizard", appauthor=False)) / "benchmarks"


def save_run(run: BenchRun, folder: Optional[Path] = None) -> Path:
    """Keep ``run`` in the history; written to a temporary file and renamed (never half-written)."""
    folder = folder or history_dir()
    folder.mkdir(parents=True, exist_ok=True)
    stamp = _dt.datetime.now(_dt.timezone.utc).strftime("%Y%m%d-%H%M%S-%f")
    path = folder / f"bench-{stamp}.json"
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(run.to_dict(), sort_keys=True), encoding="utf-8")
    os.replace(tmp, path)
    return path


def load_history(folder: Optional[Path] = None) -> list[tuple[Path, BenchRun]]:
    """Saved runs, newest first; unreadable files are left out."""
    folder = folder or history_dir()
    runs = []
    for path in sorted(folder.glob("bench-*.json"), reverse=True):
        try:
            runs.append((path, BenchRun.from_dict(json.loads(path.read_text(encoding="utf-8")))))
        except (OSError, ValueError):
            continue
    return runs


def recording_lines(run: BenchRun) -> list[str]:
    """A run as recorded lines (the inverse of :func:`parse_lines`): for demo mode and tests."""
    out = []
    if run.nvml_name:
        out.append(json.dumps({"type": "nvml_device", "name": run.nvml_name,
                               "memory_bytes": run.nvml_memory_bytes}))
    out += [json.dumps(r, sort_keys=True) for r in run.records]
    out += [json.dumps(dict(s, type="nvml"), sort_keys=True) for s in run.samples]
    return out


def find_bench_python() -> Optional[str]:
    """The likeliest environment to measure on this machine: a usable one with TensorFlow or
    PyTorch in its site-packages, by the discovery's score."""
    from wizard.core import envs
    from wizard.core.host import LocalHost

    host = LocalHost()
    candidates = []
    for env in envs.discover(host):
        if not env.usable or not env.executable:
            continue
        found = [name for folder in env.site_packages for name in ("tensorflow", "torch")
                 if host.is_dir(host.join(folder, name))]
        if found or env.has_tensorflow:
            candidates.append(env)
    if not candidates:
        return None
    return max(candidates, key=envs.score).executable


def demo_recording() -> list[str]:
    """The recorded run the wizard replays in demo mode (a throttling laptop)."""
    with open(resource_path("bench", "demo-run.jsonl"), encoding="utf-8") as handle:
        return handle.read().splitlines()


def replay_run(
    lines: Iterable[str],
    on_record: Optional[Callable[[dict[str, Any]], None]] = None,
    progress: Optional[Callable[[float, str], None]] = None,
    cancelled: Optional[Callable[[], bool]] = None,
    delay: float = 0.03,
    python: str = "demo",
) -> BenchRun:
    """Play a recorded run as if it ran now: the same records, in order, ``delay`` apart (demo
    mode; the page and the tests use it); cancel works the same."""
    recorded = parse_lines(lines)
    run = BenchRun(python=python, nvml_name=recorded.nvml_name,
                   nvml_memory_bytes=recorded.nvml_memory_bytes,
                   started=_dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"))
    for record in recorded.records:
        if cancelled is not None and cancelled():
            run.outcome = "cancelled"
            break
        _deliver(run, record, progress, on_record)
        if delay and record.get("type") in ("result", "progress"):
            time.sleep(delay)
    run.samples = recorded.samples
    run.seconds = recorded.seconds
    return run


def step_message(step: str) -> Message:
    """The probe's progress step ("matmul gpu n=4096", "train mixed=True") in words."""
    parts = step.split()
    if len(parts) == 3 and parts[0] == "matmul" and parts[2].startswith("n="):
        device = "gpu" if parts[1] == "gpu" else "cpu"
        return msg(f"bench.step.matmul_{device}", n=parts[2][2:])
    if parts[:1] == ["train"]:
        return msg("bench.step.train_mixed" if "mixed=True" in step else "bench.step.train_plain")
    if parts[:1] == ["data"]:
        return msg("bench.step.data_tuned" if "tuned=True" in step else "bench.step.data_plain")
    if step == "xla":
        return msg("bench.step.xla")
    if step == "done":
        return msg("bench.step.done")
    return msg("bench.step.starting")
