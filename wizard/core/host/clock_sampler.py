"""Sample the GPU's clock, power, temperature and clock-event (throttle) reasons through NVML
(nvidia-ml-py) while a benchmark runs, in a daemon thread.

Never raises: without the binding or a driver, ``error`` says why and there are no samples.
Each sample is a plain dict (``t`` seconds since start, ``sm_clock_mhz``, ``max_sm_clock_mhz``,
``power_w``, ``power_limit_w``, ``temperature_c``, ``utilization``, ``reasons``: the bit mask of
``nvmlDeviceGetCurrentClocksEventReasons``).
"""

from __future__ import annotations

import contextlib
import threading
import time
from types import ModuleType
from typing import Any, Optional

from wizard.core.host.nvml import _text, error_kind, import_pynvml

# nvmlClocksEventReason* (formerly nvmlClocksThrottleReason*) bits
REASONS = {
    0x1: "gpu_idle",
    0x2: "applications_clocks",
    0x4: "sw_power_cap",
    0x8: "hw_slowdown",
    0x10: "sync_boost",
    0x20: "sw_thermal",
    0x40: "hw_thermal",
    0x80: "hw_power_brake",
    0x100: "display_clocks",
}


def reason_names(mask: int) -> list[str]:
    return [name for bit, name in REASONS.items() if mask & bit]


class ClockSampler:
    def __init__(self, index: int = 0, interval: float = 0.25,
                 module: Optional[ModuleType] = None) -> None:
        self.index = index
        self.interval = interval
        self.module = module
        self.samples: list[dict[str, Any]] = []
        self.name: Optional[str] = None
        self.memory_bytes: Optional[int] = None
        self.error: Optional[str] = None
        self._stop = threading.Event()
        self._thread: Optional[threading.Thread] = None
        self._lock = threading.Lock()

    def start(self) -> ClockSampler:
        self._thread = threading.Thread(target=self._run, name="bench-nvml", daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout: float = 2.0) -> list[dict[str, Any]]:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
        return self.snapshot()

    def snapshot(self) -> list[dict[str, Any]]:
        with self._lock:
            return list(self.samples)

    def _run(self) -> None:
        try:
            nvml = self.module if self.module is not None else import_pynvml()
        except ImportError as exc:
            self.error = f"nvidia-ml-py is not installed: {exc}"
            return
        try:
            nvml.nvmlInit()
        except Exception as exc:
            self.error = f"{error_kind(exc)}: {_text(exc) or type(exc).__name__}"
            return
        try:
            handle = nvml.nvmlDeviceGetHandleByIndex(self.index)
            self.name = _text(_call(nvml, "nvmlDeviceGetName", handle)) or None
            memory = _call(nvml, "nvmlDeviceGetMemoryInfo", handle)
            self.memory_bytes = int(memory.total) if memory is not None else None
            started = time.monotonic()
            while not self._stop.is_set():
                sample = self._sample(nvml, handle)
                sample["t"] = round(time.monotonic() - started, 3)
                with self._lock:
                    self.samples.append(sample)
                self._stop.wait(self.interval)
        except Exception as exc:
            self.error = f"{error_kind(exc)}: {_text(exc) or type(exc).__name__}"
        finally:
            with contextlib.suppress(Exception):
                nvml.nvmlShutdown()

    @staticmethod
    def _sample(nvml: ModuleType, handle: Any) -> dict[str, Any]:
        sm = getattr(nvml, "NVML_CLOCK_SM", 1)
        power = _call(nvml, "nvmlDeviceGetPowerUsage", handle)
        limit = _call(nvml, "nvmlDeviceGetEnforcedPowerLimit", handle)
        util = _call(nvml, "nvmlDeviceGetUtilizationRates", handle)
        reasons = _call(nvml, "nvmlDeviceGetCurrentClocksEventReasons", handle)
        if reasons is None:
            reasons = _call(nvml, "nvmlDeviceGetCurrentClocksThrottleReasons", handle)
        return {
            "sm_clock_mhz": _call(nvml, "nvmlDeviceGetClockInfo", handle, sm),
            "max_sm_clock_mhz": _call(nvml, "nvmlDeviceGetMaxClockInfo", handle, sm),
            "power_w": power / 1000.0 if isinstance(power, (int, float)) else None,
            "power_limit_w": limit / 1000.0 if isinstance(limit, (int, float)) else None,
            "temperature_c": _call(nvml, "nvmlDeviceGetTemperature", handle,
                                   getattr(nvml, "NVML_TEMPERATURE_GPU", 0)),
            "utilization": getattr(util, "gpu", None) if util is not None else None,
            "reasons": int(reasons) if isinstance(reasons, int) else None,
        }


def _call(nvml: ModuleType, name: str, *args: Any) -> Any:
    func = getattr(nvml, name, None)
    if func is None:
        return None
    try:
        return func(*args)
    except Exception:
        return None
