"""The finding vocabulary (DESIGN section 6): every code and the layer it belongs to.

A code's words (its title, message and fix summary, with their variants) are in the message
catalogue under ``finding.<code>.title``, ``finding.<code>.message`` and ``finding.<code>.fix``
(``resources/messages/findings.json``), in every language; a fix step's words under
``step.<key>``. Add a code when a cause needs its own fix; never reuse one for a different cause.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from wizard.core.messages import DEFAULT_LANGUAGE, Message, render


@dataclass(frozen=True)
class Code:
    layer: str


CODES: dict[str, Code] = {
    "no_nvidia_gpu": Code("gpu"),
    "compute_capability_unsupported": Code("gpu"),
    "gpu_hardware_fault": Code("gpu"),
    "gpu_kernel_fault": Code("gpu"),
    "gpu_without_driver": Code("driver"),
    "no_driver_or_nvidia_smi_missing": Code("driver"),
    "driver_too_old": Code("driver"),
    "nvml_driver_library_mismatch": Code("driver"),
    "permission_denied_dev_nvidia": Code("driver"),
    "nvidia_uvm_not_loaded": Code("driver"),
    "wsl_gpu_missing": Code("driver"),
    "container_no_gpu_passthrough": Code("driver"),
    "wrong_libcuda_loaded": Code("driver"),
    "cuda_not_installed": Code("cuda"),
    "cuda_version_mismatch": Code("cuda"),
    "cuda_not_on_path": Code("cuda"),
    "cudart_missing": Code("cuda"),
    "cuda_lib_other_missing": Code("cuda"),
    "libdevice_or_ptxas_missing": Code("cuda"),
    "cudnn_missing": Code("cudnn"),
    "cudnn_version_mismatch": Code("cudnn"),
    "cudnn_partial_install": Code("cudnn"),
    "zlibwapi_missing": Code("cudnn"),
    "tensorflow_not_installed": Code("tensorflow"),
    "windows_native_tf_2_11_plus": Code("tensorflow"),
    "gpu_not_listed_cpu_only_package": Code("tensorflow"),
    "python_version_unsupported": Code("tensorflow"),
    "numpy_abi_mismatch": Code("tensorflow"),
    "tf_conflicting_packages": Code("tensorflow"),
    "cudnn_handle_oom": Code("tensorflow"),
    "operation_not_supported": Code("tensorflow"),
    "cuda_visible_devices_misconfigured": Code("tensorflow"),
    "gpu_index_out_of_range": Code("tensorflow"),
    "gpu_model_oom": Code("tensorflow"),
    "op_no_gpu_kernel": Code("tensorflow"),
    "windows_dll_dependency_missing": Code("tensorflow"),
    "numa_or_harmless_warning": Code("tensorflow"),
    "check_failed": Code("tensorflow"),
    "probe_failed": Code("tensorflow"),
    "python_32bit": Code("tensorflow"),
    "gpu_computation_failed": Code("tensorflow"),
    "tensorflow_without_cuda_wheels": Code("tensorflow"),
    "gpu_not_used_unknown_cause": Code("tensorflow"),
}


def layer_of(code: str) -> str:
    return CODES[code].layer if code in CODES else "tensorflow"


def title(code: str) -> Message:
    return Message(f"finding.{code}.title")


def message(code: str, params: dict[str, Any]) -> Message:
    return Message(f"finding.{code}.message", params)


FIX_INSTEAD = "fix_instead"
"""A param holding a Message that replaces a finding's own fix summary: where another finding's
fix supersedes it (a root cause the cuda and cudnn layers defer to)."""


def fix_summary(code: str, params: dict[str, Any]) -> Message:
    instead = params.get(FIX_INSTEAD)
    if isinstance(instead, Message):
        return instead
    return Message(f"finding.{code}.fix", params)


def step(key: str, params: dict[str, Any]) -> Message:
    return Message(f"step.{key}", params)


def render_title(code: str, lang: str = DEFAULT_LANGUAGE) -> str:
    return render(title(code), lang) if code in CODES else code


def render_message(code: str, params: dict[str, Any], lang: str = DEFAULT_LANGUAGE) -> str:
    return render(message(code, params), lang) if code in CODES else code


def render_fix_summary(code: str, params: dict[str, Any], lang: str = DEFAULT_LANGUAGE) -> str:
    return render(fix_summary(code, params), lang) if code in CODES else ""


def render_step(key: str, params: dict[str, Any], lang: str = DEFAULT_LANGUAGE) -> str:
    return render(step(key, params), lang)
