"""A long-lived NVML session for the live monitor (``wizard.core.monitor`` sits above it).

One ``nvmlInit`` for the session, not one per sample. Static facts (name, memory size, power
limits, maximum clocks, PCIe generation and width) are read once per GPU; each :meth:`sample`
reads only what changes. Rules the monitor relies on:

- a field the GPU does not support is ``None`` ("not available"), never 0, and is not asked
  again for that GPU; a function the binding or the driver's library lacks is asked once for
  the whole session;
- a lost GPU (or one that cannot be opened) is a GPU entry with an ``error`` kind; the others
  keep sampling, and the lost one is opened again on a later sample;
- NVML failing as a whole (init failing, the driver updated under the running program) is a
  sample with an ``error`` kind and NVML's text; the session shuts NVML down and calls
  ``nvmlInit`` again every ``retry_s`` seconds, and sampling resumes by itself;
- no process is spawned, and nothing that blocks: NVML's PCIe throughput call (it sleeps
  20 ms) is not in the set;
- process names and command lines come from psutil, once per process (cached by PID and start
  time); a process that ends in between is left out.
"""

from __future__ import annotations

import contextlib
import time
from types import ModuleType
from typing import Any, Callable, Optional

from wizard.core.host.nvml import import_pynvml, is_laptop_name

# NVML return codes (nvml.h) -> the kinds the monitor's messages name.
ERROR_KINDS: dict[int, str] = {
    1: "uninitialized",
    2: "invalid_argument",
    3: "not_supported",
    4: "no_permission",
    6: "not_found",
    9: "driver_not_loaded",
    12: "library_not_found",
    13: "function_not_found",
    15: "gpu_lost",
    17: "operating_system",
    18: "driver_library_mismatch",
    999: "unknown",
}
NOT_SUPPORTED, FUNCTION_NOT_FOUND, GPU_IS_LOST = 3, 13, 15
# A GPU-level failure: this GPU is unusable now, the others may be fine.
GPU_ERRORS = {GPU_IS_LOST, 2, 6, 4}

# Per-tick fields (None: not available) and static facts, in CSV/JSON order.
TICK_FIELDS = (
    "util_gpu", "util_memory", "memory_used", "memory_total", "temperature", "power_w",
    "power_limit_w", "sm_clock", "memory_clock", "fan", "pstate", "clock_reasons",
)
STATIC_FIELDS = (
    "name", "uuid", "memory_total", "power_limit_default_w", "power_limit_min_w",
    "power_limit_max_w", "max_sm_clock", "max_memory_clock", "pcie_gen", "pcie_width",
    "is_laptop",
)

CLOCK_GRAPHICS, CLOCK_SM, CLOCK_MEM = 0, 1, 2
TEMPERATURE_GPU = 0


def nvml_code(exc: BaseException) -> Optional[int]:
    """NVML's return code inside a pynvml exception (``value``), None for anything else."""
    value = getattr(exc, "value", None)
    return value if isinstance(value, int) else None


def error_kind_of(exc: BaseException) -> str:
    code = nvml_code(exc)
    if code is not None:
        return ERROR_KINDS.get(code, "unknown")
    if isinstance(exc, OSError):
        return "library_not_found"
    return "unknown"


def _text(value: Any) -> str:
    if isinstance(value, bytes):
        return value.decode("utf-8", errors="replace").rstrip("\0")
    return str(value)


class _Missing(Exception):
    """The function is absent (from the binding or the library), or the field unsupported."""


class NvmlSession:
    """See the module docstring. ``module`` replaces ``pynvml`` (tests); ``clock`` is the time
    source of the retry interval."""

    def __init__(self, module: Optional[ModuleType] = None, retry_s: float = 5.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._module = module
        self.retry_s = retry_s
        self._clock = clock
        self._nvml: Optional[ModuleType] = None
        self._initialised = False
        self._last_attempt: Optional[float] = None
        self.error: Optional[str] = None
        """The kind of the last whole-NVML failure (None while NVML answers)."""
        self.detail = ""
        self.driver_version: Optional[str] = None
        self.missing: set[str] = set()
        """Functions asked once and absent: never asked again."""
        self.unsupported: set[tuple[int, str]] = set()
        """(GPU index, function) pairs the GPU answered NOT_SUPPORTED for."""
        self.calls = 0
        """NVML calls made (for the benchmark and the tests)."""
        self._handles: dict[int, Any] = {}
        self._static: dict[int, dict[str, Any]] = {}
        self._count = 0
        self._names: dict[tuple[int, float], tuple[str, str]] = {}

    # -- the session -------------------------------------------------------------------------
    def _binding(self) -> ModuleType:
        if self._nvml is None:
            self._nvml = self._module if self._module is not None else import_pynvml()
        return self._nvml

    def _init(self) -> bool:
        self._last_attempt = self._clock()
        try:
            nvml = self._binding()
        except ImportError as exc:
            self.error, self.detail = "binding_missing", str(exc)
            return False
        try:
            nvml.nvmlInit()
        except Exception as exc:  # NVMLError, or OSError from a broken library
            self.error, self.detail = error_kind_of(exc), _text(exc) or type(exc).__name__
            return False
        self._initialised = True
        self.error, self.detail = None, ""
        self._handles.clear()
        with contextlib.suppress(Exception):
            self.driver_version = _text(nvml.nvmlSystemGetDriverVersion())
        return True

    def _fail(self, exc: BaseException) -> None:
        """NVML as a whole stopped answering: shut it down; a later sample starts it again."""
        self.error, self.detail = error_kind_of(exc), _text(exc) or type(exc).__name__
        self.close()

    def close(self) -> None:
        if self._initialised and self._nvml is not None:
            with contextlib.suppress(Exception):
                self._nvml.nvmlShutdown()
        self._initialised = False
        self._handles.clear()

    def _ready(self) -> bool:
        if self._initialised:
            return True
        due = self._last_attempt is None or self._clock() - self._last_attempt >= self.retry_s
        return self._init() if due else False

    # -- one call ------------------------------------------------------------------------------
    def _call(self, index: Optional[int], name: str, *args: Any) -> Any:
        """One NVML call. Raises _Missing for an absent function or an unsupported field (and
        remembers it), the NVML exception for anything else."""
        if name in self.missing or (index, name) in self.unsupported:
            raise _Missing(name)
        func = getattr(self._nvml, name, None)
        if func is None:
            self.missing.add(name)
            raise _Missing(name)
        self.calls += 1
        try:
            return func(*args)
        except Exception as exc:
            code = nvml_code(exc)
            if code == FUNCTION_NOT_FOUND:
                self.missing.add(name)
                raise _Missing(name) from None
            if code == NOT_SUPPORTED:
                self.unsupported.add((index, name))  # type: ignore[arg-type]
                raise _Missing(name) from None
            raise

    def _value(self, index: int, name: str, *args: Any) -> Any:
        """A field: None when not available; GPU-level and NVML-level errors go up."""
        try:
            return self._call(index, name, *args)
        except _Missing:
            return None

    # -- static facts ----------------------------------------------------------------------------
    def _open(self, index: int) -> Any:
        handle = self._handles.get(index)
        if handle is None:
            handle = self._call(None, "nvmlDeviceGetHandleByIndex", index)
            self._handles[index] = handle
            if index not in self._static:
                self._static[index] = self._read_static(index, handle)
        return handle

    def _read_static(self, index: int, handle: Any) -> dict[str, Any]:
        v = self._value
        name = v(index, "nvmlDeviceGetName", handle)
        name = _text(name) if name is not None else None
        uuid = v(index, "nvmlDeviceGetUUID", handle)
        memory = v(index, "nvmlDeviceGetMemoryInfo", handle)
        limits = v(index, "nvmlDeviceGetPowerManagementLimitConstraints", handle)
        default = v(index, "nvmlDeviceGetPowerManagementDefaultLimit", handle)
        return {
            "name": name,
            "uuid": _text(uuid) if uuid is not None else None,
            "memory_total": int(memory.total) if memory is not None and memory.total else None,
            "power_limit_default_w": _watts(default),
            "power_limit_min_w": _watts(limits[0]) if limits else None,
            "power_limit_max_w": _watts(limits[1]) if limits else None,
            "max_sm_clock": v(index, "nvmlDeviceGetMaxClockInfo", handle, CLOCK_SM),
            "max_memory_clock": v(index, "nvmlDeviceGetMaxClockInfo", handle, CLOCK_MEM),
            "pcie_gen": v(index, "nvmlDeviceGetMaxPcieLinkGeneration", handle),
            "pcie_width": v(index, "nvmlDeviceGetMaxPcieLinkWidth", handle),
            "is_laptop": is_laptop_name(name or ""),
        }

    def static(self) -> list[dict[str, Any]]:
        """The static facts of the GPUs opened so far, by index."""
        return [dict(self._static[i], index=i) for i in sorted(self._static)]

    # -- a sample ----------------------------------------------------------------------------------
    def sample(self) -> dict[str, Any]:
        """``{"time", "error", "detail", "gpus": [...]}``; never raises."""
        now = time.time()
        if not self._ready():
            return {"time": now, "error": self.error, "detail": self.detail, "gpus": []}
        try:
            count = int(self._call(None, "nvmlDeviceGetCount"))
        except _Missing:
            count = 0
        except Exception as exc:
            self._fail(exc)
            return {"time": now, "error": self.error, "detail": self.detail, "gpus": []}
        self._count = count
        gpus = []
        for index in range(count):
            try:
                gpus.append(self._sample_gpu(index))
            except Exception as exc:
                code = nvml_code(exc)
                if code in GPU_ERRORS:
                    self._handles.pop(index, None)  # open it again next time
                    gpus.append(self._lost(index, exc))
                    continue
                self._fail(exc)
                return {"time": now, "error": self.error, "detail": self.detail, "gpus": []}
        return {"time": now, "error": None, "detail": "", "gpus": gpus}

    def _lost(self, index: int, exc: BaseException) -> dict[str, Any]:
        entry: dict[str, Any] = {"index": index, "error": error_kind_of(exc),
                                 "detail": _text(exc)}
        entry.update(dict.fromkeys(TICK_FIELDS))
        entry["name"] = (self._static.get(index) or {}).get("name")
        entry["processes"] = []
        return entry

    def _sample_gpu(self, index: int) -> dict[str, Any]:
        h = self._open(index)
        v = self._value
        static = self._static[index]
        util = v(index, "nvmlDeviceGetUtilizationRates", h)
        memory = v(index, "nvmlDeviceGetMemoryInfo", h)
        power = v(index, "nvmlDeviceGetPowerUsage", h)
        limit = v(index, "nvmlDeviceGetEnforcedPowerLimit", h)
        reasons = v(index, "nvmlDeviceGetCurrentClocksEventReasons", h)
        if reasons is None and "nvmlDeviceGetCurrentClocksEventReasons" in self.missing:
            reasons = v(index, "nvmlDeviceGetCurrentClocksThrottleReasons", h)
        return {
            "index": index,
            "error": None,
            "name": static.get("name"),
            "util_gpu": int(util.gpu) if util is not None else None,
            "util_memory": int(util.memory) if util is not None else None,
            "memory_used": int(memory.used) if memory is not None else None,
            "memory_total": (int(memory.total) if memory is not None and memory.total
                             else static.get("memory_total")),
            "temperature": v(index, "nvmlDeviceGetTemperature", h, TEMPERATURE_GPU),
            "power_w": _watts(power),
            "power_limit_w": _watts(limit),
            "sm_clock": v(index, "nvmlDeviceGetClockInfo", h, CLOCK_SM),
            "memory_clock": v(index, "nvmlDeviceGetClockInfo", h, CLOCK_MEM),
            "fan": v(index, "nvmlDeviceGetFanSpeed", h),
            "pstate": v(index, "nvmlDeviceGetPerformanceState", h),
            "clock_reasons": int(reasons) if reasons is not None else None,
            "processes": self._processes(index, h),
        }

    def _processes(self, index: int, handle: Any) -> list[dict[str, Any]]:
        found = self._value(index, "nvmlDeviceGetComputeRunningProcesses", handle)
        if not found:
            return []
        out = []
        for proc in found:
            pid = int(proc.pid)
            used = getattr(proc, "usedGpuMemory", None)
            name, command = self._describe(pid)
            if name is None:
                continue  # ended between NVML's answer and psutil's
            out.append({"pid": pid, "memory_used": int(used) if used is not None else None,
                        "name": name, "command": command})
        return out

    def _describe(self, pid: int) -> tuple[Optional[str], str]:
        """psutil's name and command line, once per process (PID and start time)."""
        try:
            import psutil
        except ImportError:
            return str(pid), ""
        try:
            process = psutil.Process(pid)
            key = (pid, process.create_time())
        except (psutil.NoSuchProcess, psutil.ZombieProcess):
            return None, ""
        except (psutil.AccessDenied, OSError):
            return str(pid), ""
        known = self._names.get(key)
        if known is not None:
            return known
        try:
            name = process.name()
        except (psutil.AccessDenied, OSError):
            name = str(pid)
        except psutil.NoSuchProcess:
            return None, ""
        try:
            command = " ".join(process.cmdline())
        except (psutil.Error, OSError):
            command = ""
        if len(self._names) > 4096:
            self._names.clear()
        self._names[key] = (name, command)
        return name, command


def _watts(milliwatts: Any) -> Optional[float]:
    if milliwatts is None:
        return None
    return round(int(milliwatts) / 1000.0, 3)
