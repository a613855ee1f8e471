"""The live GPU monitor's core (no Qt): where samples come from, their history, CSV recording
and the advice read from them.

A *sample* is one tick for every GPU::

    {"time": 1764500000.0, "error": None, "detail": "", "gpus": [
        {"index": 0, "error": None, "name": "...", "util_gpu": 97, "util_memory": 40,
         "memory_used": 7516192768, "memory_total": 8589934592, "temperature": 71,
         "power_w": 142.5, "power_limit_w": 150.0, "sm_clock": 1830, "memory_clock": 7000,
         "fan": 62, "pstate": 0, "clock_reasons": 4,
         "processes": [{"pid": 4242, "memory_used": 7000000000, "name": "python",
                        "command": "python train.py"}]}]}

``None`` is "not available" (the GPU does not support the field, or it is lost). A live sample
comes from :class:`wizard.core.host.nvml_session.NvmlSession`; a demo plays a profile's
``monitor.ticks`` (same shape, ``t`` seconds instead of ``time``, ``static`` facts beside).
"""

from __future__ import annotations

import csv
import io
import json
import os
import time
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Callable, Optional

import numpy as np

from wizard.core.host.nvml_session import STATIC_FIELDS, TICK_FIELDS, NvmlSession
from wizard.core.messages import Message, msg

DAY_S = 24 * 3600

# -- clock event (throttle) reasons, nvml.h nvmlClocksEventReason* --------------------------
REASON_IDLE = 0x1
REASON_APP_CLOCKS = 0x2
REASON_SW_POWER_CAP = 0x4
REASON_HW_SLOWDOWN = 0x8
REASON_SYNC_BOOST = 0x10
REASON_SW_THERMAL = 0x20
REASON_HW_THERMAL = 0x40
REASON_HW_POWER_BRAKE = 0x80
REASON_DISPLAY_CLOCKS = 0x100
REASON_NAMES = {
    REASON_IDLE: "idle",
    REASON_APP_CLOCKS: "app_clocks",
    REASON_SW_POWER_CAP: "power_cap",
    REASON_HW_SLOWDOWN: "hw_slowdown",
    REASON_SYNC_BOOST: "sync_boost",
    REASON_SW_THERMAL: "sw_thermal",
    REASON_HW_THERMAL: "hw_thermal",
    REASON_HW_POWER_BRAKE: "power_brake",
    REASON_DISPLAY_CLOCKS: "display_clocks",
}
SLOWDOWN_REASONS = (REASON_SW_POWER_CAP | REASON_HW_SLOWDOWN | REASON_SW_THERMAL
                    | REASON_HW_THERMAL | REASON_HW_POWER_BRAKE)


def reason_names(bits: Optional[int]) -> list[str]:
    """The names of the set clock-event reason bits (``power_cap``, ``sw_thermal``, ...)."""
    if not bits:
        return []
    return [name for bit, name in REASON_NAMES.items() if bits & bit]


# -- the history -------------------------------------------------------------------------------
# One float32 column per numeric field (NaN: not available); times as float64.
HISTORY_FIELDS = ("util_gpu", "util_memory", "memory_used_mib", "temperature", "power_w",
                  "sm_clock", "memory_clock", "fan", "clock_reasons")


class History:
    """Ring buffers for ``gpus`` GPUs: ``capacity`` ticks (default 24 h at 1 Hz) in bounded
    memory, about 40 bytes per GPU per tick (24 h, 2 GPUs: about 7.6 MB)."""

    def __init__(self, gpus: int, capacity: int = DAY_S) -> None:
        self.capacity = int(capacity)
        self.gpus = int(gpus)
        self.times = np.full(self.capacity, np.nan, dtype=np.float64)
        self.data = np.full((len(HISTORY_FIELDS), self.gpus, self.capacity), np.nan,
                            dtype=np.float32)
        self.count = 0
        """Ticks written in all (the newest is at ``(count - 1) % capacity``)."""

    @property
    def size(self) -> int:
        return min(self.count, self.capacity)

    def nbytes(self) -> int:
        return int(self.times.nbytes + self.data.nbytes)

    def append(self, sample: dict[str, Any]) -> None:
        slot = self.count % self.capacity
        self.times[slot] = float(sample.get("time") or 0.0)
        column = self.data[:, :, slot]
        column.fill(np.nan)
        for gpu in sample.get("gpus") or []:
            index = gpu.get("index", 0)
            if not 0 <= index < self.gpus:
                continue
            for row, name in enumerate(HISTORY_FIELDS):
                value = (_mib(gpu.get("memory_used")) if name == "memory_used_mib"
                         else gpu.get(name))
                if value is not None:
                    column[row, index] = value
        self.count += 1

    def window(self, seconds: float, now: Optional[float] = None
               ) -> tuple[np.ndarray, np.ndarray]:
        """The ticks of the last ``seconds``, oldest first: (times, data[field, gpu, tick])."""
        size = self.size
        if size == 0:
            return np.empty(0), np.empty((len(HISTORY_FIELDS), self.gpus, 0), np.float32)
        end = self.count % self.capacity
        if self.count <= self.capacity:
            order = np.arange(0, size)
        else:
            order = np.concatenate((np.arange(end, self.capacity), np.arange(0, end)))
        times = self.times[order]
        newest = times[-1] if now is None else now
        start = int(np.searchsorted(times, newest - seconds, side="left"))
        keep = order[start:]
        return self.times[keep], self.data[:, :, keep]

    def series(self, field: str, gpu: int, seconds: float, points: int = 0
               ) -> tuple[np.ndarray, np.ndarray]:
        """One field of one GPU over the window, downsampled to about ``points`` points (the
        mean of each bucket; 0: every tick). Times are seconds before the newest tick."""
        times, data = self.window(seconds)
        values = data[HISTORY_FIELDS.index(field), gpu] if times.size else np.empty(0)
        if times.size:
            times = times - times[-1]
        if points and times.size > points:
            return downsample(times, values, points)
        return times, values


def downsample(times: np.ndarray, values: np.ndarray, points: int
               ) -> tuple[np.ndarray, np.ndarray]:
    """Bucket means (NaN-aware) of ``values``, ``points`` buckets of equal tick count."""
    step = int(np.ceil(times.size / points))
    usable = (times.size // step) * step
    head_t = times[:usable].reshape(-1, step)[:, -1]
    chunks = values[:usable].reshape(-1, step)
    valid = ~np.isnan(chunks)
    sums = np.where(valid, chunks, 0).sum(axis=1)
    counts = valid.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        head_v = np.where(counts > 0, sums / np.maximum(counts, 1), np.nan).astype(np.float32)
    if usable < times.size:
        rest = values[usable:]
        tail_v = np.nanmean(rest) if np.any(~np.isnan(rest)) else np.nan
        head_t = np.append(head_t, times[-1])
        head_v = np.append(head_v, np.float32(tail_v))
    return head_t, head_v


def _mib(value: Any) -> Optional[float]:
    return None if value is None else int(value) / (1024 * 1024)


# -- CSV --------------------------------------------------------------------------------------
CSV_COLUMNS = (
    "time_iso", "time_unix", "gpu", "name", "error", "util_gpu_pct", "util_memory_pct",
    "memory_used_mib", "memory_total_mib", "temperature_c", "power_w", "power_limit_w",
    "sm_clock_mhz", "memory_clock_mhz", "fan_pct", "pstate", "clock_reasons",
    "processes",
)
"""One row per GPU per tick. Empty cell: not available. ``clock_reasons`` names the set
clock-event reasons joined by ``+`` (``power_cap+sw_thermal``); ``processes`` is
``pid:name:MiB`` joined by ``;``."""


def csv_row(sample: dict[str, Any], gpu: dict[str, Any]) -> list[str]:
    stamp = float(sample.get("time") or 0.0)

    def cell(value: Any) -> str:
        return "" if value is None else str(value)

    mib = _mib(gpu.get("memory_used"))
    total = _mib(gpu.get("memory_total"))
    procs = ";".join(
        f"{p.get('pid')}:{p.get('name') or ''}:"
        f"{'' if p.get('memory_used') is None else round(p['memory_used'] / 1048576)}"
        for p in gpu.get("processes") or [])
    return [
        time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(stamp))
        + f".{int(stamp * 1000) % 1000:03d}Z",
        f"{stamp:.3f}", str(gpu.get("index", "")), gpu.get("name") or "", gpu.get("error") or "",
        cell(gpu.get("util_gpu")), cell(gpu.get("util_memory")),
        "" if mib is None else f"{mib:.0f}", "" if total is None else f"{total:.0f}",
        cell(gpu.get("temperature")), cell(gpu.get("power_w")), cell(gpu.get("power_limit_w")),
        cell(gpu.get("sm_clock")), cell(gpu.get("memory_clock")), cell(gpu.get("fan")),
        cell(gpu.get("pstate")),
        "" if gpu.get("clock_reasons") is None else "+".join(reason_names(gpu["clock_reasons"])),
        procs,
    ]


class CsvRecorder:
    """Writes samples to ``path`` as they come (header first, flushed each tick, so a crash
    loses at most one tick). Start by constructing, stop with :meth:`close`."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = os.fspath(path)
        self._file: Optional[io.TextIOWrapper] = open(  # noqa: SIM115 - closed in close()
            self.path, "w", encoding="utf-8", newline="")
        self._writer = csv.writer(self._file)
        self._writer.writerow(CSV_COLUMNS)
        self.rows = 0

    def write(self, sample: dict[str, Any]) -> None:
        if self._file is None:
            return
        for gpu in sample.get("gpus") or []:
            self._writer.writerow(csv_row(sample, gpu))
            self.rows += 1
        self._file.flush()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    @property
    def recording(self) -> bool:
        return self._file is not None


# -- JSON -------------------------------------------------------------------------------------
def sample_json(sample: dict[str, Any]) -> str:
    """One line of JSON per sample (``gpu-wizard monitor --json``); ``null`` = not available;
    ``clock_reasons`` as names beside the raw bits."""
    out = dict(sample)
    out["gpus"] = [dict(g, clock_reason_names=reason_names(g.get("clock_reasons")))
                   for g in sample.get("gpus") or []]
    return json.dumps(out, ensure_ascii=False, sort_keys=False)


# -- sources ----------------------------------------------------------------------------------
class Source:
    """Where samples come from: :meth:`sample` never raises; :meth:`static` lists the GPUs'
    static facts known so far; :meth:`close` ends the session."""

    live = True
    interval_s = 1.0

    def sample(self) -> dict[str, Any]:
        raise NotImplementedError

    def static(self) -> list[dict[str, Any]]:
        return []

    def close(self) -> None:
        pass


class LiveSource(Source):
    """This machine's GPUs through one long-lived NVML session."""

    def __init__(self, session: Optional[NvmlSession] = None, retry_s: float = 5.0) -> None:
        self.session = session or NvmlSession(retry_s=retry_s)

    def sample(self) -> dict[str, Any]:
        return self.session.sample()

    def static(self) -> list[dict[str, Any]]:
        return self.session.static()

    def close(self) -> None:
        self.session.close()


class ReplaySource(Source):
    """A profile's ``monitor`` block played in a loop: each call returns the next tick, stamped
    with the current time (the demo looks live)."""

    live = False

    def __init__(self, monitor: Optional[dict[str, Any]],
                 clock: Callable[[], float] = time.time) -> None:
        monitor = monitor or {}
        self.ticks: list[dict[str, Any]] = list(monitor.get("ticks") or [])
        self.interval_s = float(monitor.get("interval_s") or 1.0)
        self._static = [dict(s) for s in monitor.get("static") or []]
        self._clock = clock
        self._next = 0

    def sample(self) -> dict[str, Any]:
        now = self._clock()
        if not self.ticks:
            return {"time": now, "error": "no_ticks", "detail": "", "gpus": []}
        tick = self.ticks[self._next % len(self.ticks)]
        self._next += 1
        gpus = []
        for gpu in tick.get("gpus") or []:
            entry: dict[str, Any] = dict.fromkeys(TICK_FIELDS)
            entry.update({"error": None, "processes": []})
            entry.update(gpu)
            index = int(entry.get("index", len(gpus)))
            entry["index"] = index
            static = self._static[index] if index < len(self._static) else {}
            entry.setdefault("name", static.get("name"))
            if entry.get("name") is None:
                entry["name"] = static.get("name")
            if entry.get("memory_total") is None:
                entry["memory_total"] = static.get("memory_total")
            gpus.append(entry)
        return {"time": now, "error": tick.get("error"), "detail": tick.get("detail") or "",
                "gpus": gpus}

    def static(self) -> list[dict[str, Any]]:
        out = []
        for index, facts in enumerate(self._static):
            entry: dict[str, Any] = dict.fromkeys(STATIC_FIELDS)
            entry.update(facts)
            entry["index"] = index
            out.append(entry)
        return out


def open_source(host: Any) -> Source:
    """A live NVML source for a live host; the profile's recorded ticks for a replayed one."""
    if getattr(host, "is_live", True):
        return LiveSource()
    return ReplaySource(getattr(host, "monitor", None))


# -- advice -------------------------------------------------------------------------------------
MEMORY_FULL = 0.95
"""Memory used / total from which the "nearly full" advice shows."""
IDLE_UTIL = 30.0
"""Mean GPU utilisation (%) under which a GPU holding a training process's memory is starving."""
STARVING_MIN_MEMORY = 256 * 1024 * 1024
LOW_POWER_SHARE = 0.6
"""A laptop GPU whose enforced limit is under this share of its maximum is held low."""
ADVICE_WINDOW = 30
"""Advice reads the last this many ticks."""


@dataclass(frozen=True)
class Advice:
    """What the samples show, with what to do: ``kind`` (memory_full, throttle.<reason>,
    starving, laptop_low_power), the GPU and the message."""

    kind: str
    gpu: int
    message: Message
    severity: str = "warning"


def advise(recent: Sequence[dict[str, Any]], static: Sequence[dict[str, Any]] = ()
           ) -> list[Advice]:
    """Advice from the recent samples (oldest first) and the GPUs' static facts."""
    if not recent:
        return []
    latest = recent[-1]
    facts = {int(s.get("index", i)): s for i, s in enumerate(static)}
    out: list[Advice] = []
    for gpu in latest.get("gpus") or []:
        if gpu.get("error"):
            continue
        index = int(gpu.get("index", 0))
        history = [g for s in recent for g in s.get("gpus") or []
                   if g.get("index", 0) == index and not g.get("error")]
        label = f"GPU {index}"
        out.extend(_memory_advice(gpu, index, label))
        out.extend(_throttle_advice(history, index, label))
        out.extend(_starving_advice(history, gpu, index, label))
        out.extend(_laptop_advice(gpu, facts.get(index, {}), index, label))
    return out


def _memory_advice(gpu: dict[str, Any], index: int, label: str) -> list[Advice]:
    used, total = gpu.get("memory_used"), gpu.get("memory_total")
    if not used or not total or used / total < MEMORY_FULL:
        return []
    return [Advice("memory_full", index, msg(
        "monitor.advice.memory_full", gpu=label, used=f"{used / 2**30:.1f}",
        total=f"{total / 2**30:.1f}", percent=f"{100 * used / total:.0f}"))]


def _throttle_advice(history: list[dict[str, Any]], index: int, label: str) -> list[Advice]:
    known = [g.get("clock_reasons") for g in history if g.get("clock_reasons") is not None]
    if not known:
        return []
    out = []
    for bit in (REASON_HW_THERMAL, REASON_SW_THERMAL, REASON_HW_POWER_BRAKE,
                REASON_HW_SLOWDOWN, REASON_SW_POWER_CAP):
        share = sum(1 for bits in known if bits & bit) / len(known)
        if share >= 0.5:
            name = REASON_NAMES[bit]
            temps = [g["temperature"] for g in history if g.get("temperature") is not None]
            out.append(Advice(f"throttle.{name}", index, msg(
                f"monitor.advice.throttle.{name}", gpu=label,
                share=f"{100 * share:.0f}",
                temperature=f"{max(temps)}" if temps else None)))
    return out


def _starving_advice(history: list[dict[str, Any]], gpu: dict[str, Any], index: int,
                     label: str) -> list[Advice]:
    procs = gpu.get("processes") or []
    held = sum(p.get("memory_used") or 0 for p in procs)
    if not procs or (held and held < STARVING_MIN_MEMORY):
        return []
    if not held and (gpu.get("memory_used") or 0) < STARVING_MIN_MEMORY:
        return []
    utils = [g["util_gpu"] for g in history if g.get("util_gpu") is not None]
    if len(utils) < min(10, ADVICE_WINDOW) or sum(utils) / len(utils) >= IDLE_UTIL:
        return []
    busiest = max(procs, key=lambda p: p.get("memory_used") or 0)
    return [Advice("starving", index, msg(
        "monitor.advice.starving", gpu=label, process=busiest.get("name") or busiest.get("pid"),
        pid=busiest.get("pid"), util=f"{sum(utils) / len(utils):.0f}",
        seconds=str(len(utils))))]


def _laptop_advice(gpu: dict[str, Any], facts: dict[str, Any], index: int, label: str
                   ) -> list[Advice]:
    if not facts.get("is_laptop"):
        return []
    limit, top = gpu.get("power_limit_w"), facts.get("power_limit_max_w")
    if not limit or not top or limit >= LOW_POWER_SHARE * top:
        return []
    return [Advice("laptop_low_power", index, msg(
        "monitor.advice.laptop_low_power", gpu=label, limit=f"{limit:.0f}",
        max=f"{top:.0f}"))]


def error_message(kind: Optional[str], detail: str = "") -> Optional[Message]:
    """What a whole-NVML or per-GPU error kind means and what to do (None: no error)."""
    if not kind:
        return None
    known = {"uninitialized", "invalid_argument", "no_permission", "not_found",
             "driver_not_loaded", "library_not_found", "function_not_found", "gpu_lost",
             "operating_system", "driver_library_mismatch", "binding_missing", "no_ticks",
             "not_supported"}
    if kind in known:
        return msg(f"monitor.error.{kind}", detail=detail or None)
    return msg("monitor.error.unknown", detail=detail or kind)


# -- the monitor ----------------------------------------------------------------------------------
class Monitor:
    """A source, its history and the advice: what the page and ``gpu-wizard monitor`` hold.
    :meth:`tick` takes one sample, files it and returns it."""

    def __init__(self, source: Source, capacity: int = DAY_S, max_gpus: int = 16) -> None:
        self.source = source
        self.capacity = capacity
        self.max_gpus = max_gpus
        self.history: Optional[History] = None
        self.recent: deque[dict[str, Any]] = deque(maxlen=ADVICE_WINDOW)
        self.recorder: Optional[CsvRecorder] = None
        self.latest: Optional[dict[str, Any]] = None

    def tick(self) -> dict[str, Any]:
        sample = self.source.sample()
        self.add(sample)
        return sample

    def add(self, sample: dict[str, Any]) -> None:
        gpus = sample.get("gpus") or []
        wanted = max([int(g.get("index", 0)) + 1 for g in gpus] or [0])
        if self.history is None or wanted > self.history.gpus:
            self._grow(min(max(wanted, 1), self.max_gpus))
        assert self.history is not None
        self.history.append(sample)
        self.recent.append(_light(sample))
        self.latest = sample
        if self.recorder is not None:
            self.recorder.write(sample)

    def _grow(self, gpus: int) -> None:
        old = self.history
        self.history = History(gpus, self.capacity)
        if old is not None and old.count:
            self.history.times[:] = old.times
            self.history.data[:, : old.gpus, :] = old.data
            self.history.count = old.count

    def advice(self) -> list[Advice]:
        return advise(list(self.recent), self.source.static())

    def start_recording(self, path: str | os.PathLike[str]) -> CsvRecorder:
        self.stop_recording()
        self.recorder = CsvRecorder(path)
        return self.recorder

    def stop_recording(self) -> None:
        if self.recorder is not None:
            self.recorder.close()
            self.recorder = None

    def close(self) -> None:
        self.stop_recording()
        self.source.close()


def _light(sample: dict[str, Any]) -> dict[str, Any]:
    """The sample without command lines (the advice window keeps 30 of them)."""
    return {"time": sample.get("time"), "error": sample.get("error"),
            "gpus": [{k: v for k, v in g.items() if k != "processes"}
                     | {"processes": [{"pid": p.get("pid"), "name": p.get("name"),
                                       "memory_used": p.get("memory_used")}
                                      for p in g.get("processes") or []]}
                     for g in sample.get("gpus") or []]}


def iter_reason_bits(samples: Iterable[dict[str, Any]]) -> set[str]:
    """Every clock-event reason named in ``samples`` (tests and the summary)."""
    names: set[str] = set()
    for sample in samples:
        for gpu in sample.get("gpus") or []:
            names.update(reason_names(gpu.get("clock_reasons")))
    return names


# -- terminal text ----------------------------------------------------------------------------
def _na(value: Any, lang: str, message_id: str, **extra: Any) -> str:
    from wizard.core.messages import render

    if value is None:
        return render(msg("monitor.value.na"), lang)
    return render(msg(message_id, value=value, **extra), lang)


def gpu_values(gpu: dict[str, Any], lang: str) -> dict[str, str]:
    """The GPU's per-tick values as short texts ("97%", "n/a" for not available)."""
    from wizard.core.messages import render

    used, total = _mib(gpu.get("memory_used")), _mib(gpu.get("memory_total"))
    memory = (render(msg("monitor.value.na"), lang) if used is None else render(
        msg("monitor.value.memory", used=f"{used:.0f}",
            total=None if total is None else f"{total:.0f}"), lang))
    limit = gpu.get("power_limit_w")
    power = (render(msg("monitor.value.na"), lang) if gpu.get("power_w") is None else render(
        msg("monitor.value.power", value=f"{gpu['power_w']:.0f}",
            limit=None if limit is None else f"{limit:.0f}"), lang))
    return {
        "util": _na(gpu.get("util_gpu"), lang, "monitor.value.percent"),
        "memory": memory,
        "temperature": _na(gpu.get("temperature"), lang, "monitor.value.temperature"),
        "power": power,
        "clock": _na(gpu.get("sm_clock"), lang, "monitor.value.clock"),
        "fan": _na(gpu.get("fan"), lang, "monitor.value.percent"),
    }


def sample_text(sample: dict[str, Any], lang: str, advice: Sequence[Advice] = ()) -> str:
    """``gpu-wizard monitor``'s lines for one sample, in ``lang``."""
    from wizard.core.messages import render

    stamp = time.strftime("%H:%M:%S", time.localtime(float(sample.get("time") or 0)))
    if sample.get("error"):
        text = render(error_message(sample["error"], sample.get("detail") or ""), lang)
        return render(msg("monitor.cli.error", time=stamp, text=text), lang)
    gpus = sample.get("gpus") or []
    if not gpus:
        return render(msg("monitor.cli.no_gpus", time=stamp), lang)
    lines = []
    na = render(msg("monitor.value.na"), lang)
    for gpu in gpus:
        if gpu.get("error"):
            lines.append(render(msg("monitor.gpu.lost", index=gpu.get("index"),
                                    name=gpu.get("name") or na), lang))
            lines.append("  " + render(error_message(gpu["error"], gpu.get("detail") or ""),
                                       lang))
            continue
        values = gpu_values(gpu, lang)
        reasons = gpu.get("clock_reasons")
        lines.append(render(msg(
            "monitor.cli.header", time=stamp, index=gpu.get("index"),
            name=gpu.get("name") or na, pstate=na if gpu.get("pstate") is None
            else gpu["pstate"],
            reasons=na if reasons is None else (
                "+".join(reason_names(reasons)) or render(msg("monitor.reason.none"), lang)),
            **values), lang))
        for proc in gpu.get("processes") or []:
            used = proc.get("memory_used")
            lines.append(render(msg(
                "monitor.cli.process", pid=proc.get("pid"), name=proc.get("name") or "",
                memory=na if used is None else f"{used / 1048576:.0f}",
                command=proc.get("command") or ""), lang))
    for item in advice:
        lines.append(render(msg("monitor.cli.advice", text=item.message), lang))
    return "\n".join(lines)


def cli_run(host: Any, interval_s: float, count: Optional[int], csv_path: Optional[str],
            as_json: bool, lang: str, write: Callable[[str], None]) -> int:
    """``gpu-wizard monitor``: returns the exit status (0; 2 when the CSV cannot be written)."""
    from wizard.core.messages import render

    source = open_source(host)
    monitor = Monitor(source, capacity=max(1, min(DAY_S, count or 3600)))
    if csv_path:
        try:
            monitor.start_recording(csv_path)
        except OSError as exc:
            source.close()
            write(render(msg("monitor.cli.csv_failed", path=csv_path,
                             detail=exc.strerror or str(exc)), lang))
            return 2
    taken = 0
    next_at = time.monotonic()
    try:
        while count is None or taken < count:
            sample = monitor.tick()
            taken += 1
            write(sample_json(sample) if as_json else sample_text(sample, lang,
                                                                  monitor.advice()))
            if interval_s > 0 and (count is None or taken < count):
                next_at += interval_s
                delay = next_at - time.monotonic()
                if delay > 0:
                    time.sleep(delay)
                else:
                    next_at = time.monotonic()
    finally:
        monitor.close()
    return 0
