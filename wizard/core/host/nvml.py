"""Ask NVML (through nvidia-ml-py's ``pynvml``) what the driver knows, in the profile's ``nvml``
shape (DESIGN section 3).

``query_nvml()`` never raises: a missing library, an unloaded driver, a user-space/kernel
mismatch or a permission problem become ``{"error": <kind>, "detail": <NVML's text>}``, with
the kinds of :data:`wizard.core.host.NVML_ERRORS`. A field one GPU does not support becomes
``None``; a GPU that cannot be opened keeps its index and gets an ``error``. ``nvmlShutdown`` is
always called after a successful ``nvmlInit``. A driver that hangs in NVML cannot freeze the
caller: the query runs in a daemon thread with a time limit.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import re
import sys
import threading
from types import ModuleType
from typing import Any, Callable, Optional

DEFAULT_TIMEOUT = 30.0
LAPTOP_NAME = re.compile(r"\b(laptop|mobile|max-q)\b|\b[0-9]{3,4}m\b", re.IGNORECASE)

# pynvml exception class name -> the profile's error kind.
_ERROR_KINDS = {
    "NVMLError_LibraryNotFound": "library_not_found",
    "NVMLError_DriverNotLoaded": "driver_not_loaded",
    "NVMLError_LibRmVersionMismatch": "driver_library_mismatch",
    "NVMLError_NoPermission": "no_permission",
}


def is_laptop_name(name: str) -> bool:
    """True for names NVIDIA gives laptop parts ("... Laptop GPU", "Max-Q", "GTX 1060M", a
    pci.ids "Mobile" entry). NVML has no such field; the name is what there is."""
    return bool(LAPTOP_NAME.search(name or ""))


def error_kind(exc: BaseException) -> str:
    """The profile's error kind for a pynvml exception (by class, so any binding version works)."""
    for cls in type(exc).__mro__:
        kind = _ERROR_KINDS.get(cls.__name__)
        if kind:
            return kind
    return "unknown"


def query_nvml(timeout: Optional[float] = DEFAULT_TIMEOUT, module: Optional[ModuleType] = None
               ) -> dict[str, Any]:
    """What NVML reports about the driver and every GPU. ``module`` replaces ``pynvml`` (tests).

    Whether the loader finds the library at all is asked first, in the caller's thread (a
    library lookup does not talk to the driver, so it cannot hang): on a machine without an
    NVIDIA driver that is the whole answer, with no thread and no pynvml import."""
    if module is None and not _library_loadable():
        return dict(LIBRARY_NOT_FOUND)
    if timeout is None:
        return _query(module)
    box: dict[str, Any] = {}

    def target() -> None:
        box["result"] = _query(module)

    worker = threading.Thread(target=target, name="nvml-query", daemon=True)
    worker.start()
    worker.join(timeout)
    if "result" not in box:
        return {
            "error": "unknown",
            "detail": f"NVML did not answer within {timeout:g} s (the driver may be hung; "
            "restart the machine)",
        }
    return box["result"]


def _query(module: Optional[ModuleType]) -> dict[str, Any]:
    try:
        nvml = module if module is not None else _import_pynvml()
    except ImportError as exc:
        return {
            "error": "unknown",
            "detail": f"the Python binding nvidia-ml-py (pynvml) is not installed: {exc}",
        }
    try:
        nvml.nvmlInit()
    except Exception as exc:  # NVMLError subclasses, or OSError from a broken library
        return {"error": error_kind(exc), "detail": _text(exc) or type(exc).__name__}
    try:
        return _read_all(nvml)
    except Exception as exc:  # an unexpected failure after init: still report, never raise
        return {"error": error_kind(exc), "detail": _text(exc) or type(exc).__name__}
    finally:
        with contextlib.suppress(Exception):  # nothing useful to do if shutdown fails
            nvml.nvmlShutdown()


# What pynvml's nvmlInit raises when the loader cannot find NVML, as _query reports it
# (str(NVMLError_LibraryNotFound()) in nvidia-ml-py).
LIBRARY_NOT_FOUND = {"error": "library_not_found", "detail": "NVML Shared Library Not Found"}


LINUX_NVML = "libnvidia-ml.so.1"
DRIVER_LIBRARY_DIRS = ("/run/opengl-driver/lib",)
"""Where a distribution that keeps the driver's libraries off the loader's default path puts
them (NixOS: /run/opengl-driver/lib, which only programs built by Nix search)."""


def nvml_library_candidates() -> list[str]:
    """The names pynvml's ``_LoadNvmlLibrary`` gives the loader, in its order (Windows
    variables ignore case: ``PROGRAMFILES`` is its ``ProgramFiles``); on Linux then the library
    in :data:`DRIVER_LIBRARY_DIRS`, which pynvml does not look for."""
    if sys.platform[:3] == "win":
        return [
            os.path.join(os.getenv("WINDIR", "C:/Windows"), "System32/nvml.dll"),
            os.path.join(os.getenv("PROGRAMFILES", "C:/Program Files"),
                         "NVIDIA Corporation/NVSMI/nvml.dll"),
        ]
    return [LINUX_NVML, *(os.path.join(folder, LINUX_NVML) for folder in DRIVER_LIBRARY_DIRS)]


def load_nvml_library() -> Optional[str]:
    """Load the first NVML library the loader opens (:func:`nvml_library_candidates`) and say
    which; None when none opens.

    Loaded by its full path, a library answers pynvml's own ``CDLL("libnvidia-ml.so.1")``
    afterwards: the loader matches an object already loaded by its soname. So NVML is read on
    NixOS without LD_LIBRARY_PATH. Loading it is harmless where pynvml would load it anyway."""
    import ctypes

    for name in nvml_library_candidates():
        try:
            ctypes.CDLL(name)
        except OSError:
            continue
        return name
    return None


def _library_loadable() -> bool:
    """False when the loader opens no NVML library (:func:`load_nvml_library`), so nvmlInit
    could only raise NVMLError_LibraryNotFound.

    On a machine without an NVIDIA driver this answers without importing pynvml, whose import
    (about 10 ms: its 330 kB module and ctypes.util) was most of the gpu layer's time. When the
    binding is not installed, or already imported (tests patch it), pynvml itself decides, as
    before."""
    if "pynvml" in sys.modules or importlib.util.find_spec("pynvml") is None:
        return True
    return load_nvml_library() is not None


def _import_pynvml() -> ModuleType:
    import pynvml

    return pynvml


def import_pynvml() -> ModuleType:
    """pynvml, with the NVML library loaded where pynvml alone would not find it (NixOS): for
    the callers that keep a session of their own (the monitor, the benchmark's clock sampler).
    ``query_nvml`` loads it in :func:`_library_loadable` before pynvml is first imported."""
    pynvml = _import_pynvml()
    load_nvml_library()
    return pynvml


def _read_all(nvml: ModuleType) -> dict[str, Any]:
    result: dict[str, Any] = {
        "error": None,
        "driver_version": _field(nvml, "nvmlSystemGetDriverVersion"),
        "cuda_driver_version": _cuda_driver_version(nvml),
        "nvml_version": _field(nvml, "nvmlSystemGetNVMLVersion"),
        "gpus": [],
    }
    count = nvml.nvmlDeviceGetCount()
    for index in range(int(count)):
        result["gpus"].append(_read_gpu(nvml, index))
    return result


def _cuda_driver_version(nvml: ModuleType) -> Optional[int]:
    for name in ("nvmlSystemGetCudaDriverVersion_v2", "nvmlSystemGetCudaDriverVersion"):
        value = _field(nvml, name)
        if isinstance(value, int) and value > 0:
            return value
    return None


def _read_gpu(nvml: ModuleType, index: int) -> dict[str, Any]:
    gpu: dict[str, Any] = {"index": index}
    try:
        handle = nvml.nvmlDeviceGetHandleByIndex(index)
    except Exception as exc:
        gpu["error"] = f"{error_kind(exc)}: {_text(exc)}"
        gpu["name"] = None
        return gpu
    gpu["name"] = _field(nvml, "nvmlDeviceGetName", handle)
    gpu["uuid"] = _field(nvml, "nvmlDeviceGetUUID", handle)
    pci = _field(nvml, "nvmlDeviceGetPciInfo", handle, raw=True)
    gpu["pci_bus_id"] = (_text(getattr(pci, "busId", None)) or None) if pci is not None else None
    device_id = getattr(pci, "pciDeviceId", None) if pci is not None else None
    gpu["pci_device_id"] = f"{(int(device_id) >> 16) & 0xFFFF:04x}" if device_id else None
    cc = _field(nvml, "nvmlDeviceGetCudaComputeCapability", handle, raw=True)
    gpu["compute_capability"] = [int(cc[0]), int(cc[1])] if _is_pair(cc) else None
    memory = _field(nvml, "nvmlDeviceGetMemoryInfo", handle, raw=True)
    total = getattr(memory, "total", None) if memory is not None else None
    gpu["memory_total_bytes"] = int(total) if total else None
    gpu["is_laptop"] = is_laptop_name(gpu["name"] or "")
    return gpu


def _field(nvml: ModuleType, name: str, *args: Any, raw: bool = False) -> Any:
    """One NVML call; None when the binding lacks it or the GPU does not support it."""
    func: Optional[Callable[..., Any]] = getattr(nvml, name, None)
    if func is None:
        return None
    try:
        value = func(*args)
    except Exception:
        return None
    if raw:
        return value
    if isinstance(value, (bytes, str)):
        return _text(value)
    return value


def _is_pair(value: Any) -> bool:
    return isinstance(value, (tuple, list)) and len(value) == 2


def _text(value: Any) -> str:
    """Old bindings return bytes, newer ones str; exception text goes through str()."""
    if value is None:
        return ""
    if isinstance(value, bytes):
        return value.decode("utf-8", errors="replace").rstrip("\0")
    return str(value)
