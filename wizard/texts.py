"""The GUI's texts for what core reports: layer names, statuses, fact labels, and core's own
messages (findings, steps, links, summaries) rendered from the message catalogue
(:mod:`wizard.core.messages`) in the language the wizard shows. Widgets and pages call these;
they never format core data themselves.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication

from wizard.core import codes, messages
from wizard.core.messages import Message


def layer_title(layer: str) -> str:
    """The layer's name as shown on its page and in the summary ("CUDA Toolkit"); the same
    catalogue entry the CLI's Chinese report uses."""
    message_id = f"layer.{layer}"
    return messages.render(Message(message_id), _lang()) if messages.has(message_id) else layer


def _status_texts() -> dict[str, str]:
    return {
        "ok": QCoreApplication.translate("Status", "OK"),
        "warn": QCoreApplication.translate("Status", "Warning"),
        "fail": QCoreApplication.translate("Status", "Problem"),
        "unknown": QCoreApplication.translate("Status", "Unknown"),
        "n/a": QCoreApplication.translate("Status", "Not needed"),
    }


def status_text(status: str) -> str:
    """A layer status (``ok``/``warn``/``fail``/``unknown``/``n/a``) as a short word."""
    return _status_texts().get(status, status)


def _severity_texts() -> dict[str, str]:
    return {
        "fail": QCoreApplication.translate("Status", "Problem"),
        "warn": QCoreApplication.translate("Status", "Warning"),
        "info": QCoreApplication.translate("Status", "Note"),
    }


def severity_text(severity: str) -> str:
    """A finding severity (``fail``/``warn``/``info``) as a short word."""
    return _severity_texts().get(severity, severity)


def _params(item: Any) -> dict[str, Any]:
    return dict(getattr(item, "params", None) or {})


def _lang() -> str:
    from wizard import i18n

    return i18n.current_language()


def finding_title(code: str) -> str:
    """The finding's short title ("cuDNN not found"); an unknown code shows as itself."""
    return codes.render_title(code, _lang())


def finding_message(finding: Any) -> str:
    """What is wrong, filled with the finding's params, in the current language."""
    return finding.message(_lang()) if hasattr(finding, "message") else finding.code


def finding_fix(finding: Any) -> str:
    """The fix summary, filled with the finding's params ("" for an unknown code)."""
    return codes.render_fix_summary(finding.code, _params(finding), _lang())


def step_text(step: Any) -> str:
    """One fix step (a :class:`~wizard.core.model.Step`) in the current language."""
    return codes.render_step(step.key, _params(step), _lang())


def link_title(link: Any) -> str:
    """A fix link's title (a :class:`~wizard.core.model.Link`), translated."""
    return messages.render(getattr(link, "title", ""), _lang())


def render_message(message: Message | str) -> str:
    """A core message (or a plain value) in the current language, in its GUI wording where
    it has one (``id.gui``: the dialog's buttons, not the command line's options)."""
    return messages.render(messages.for_gui(message), _lang())


_PACKAGE_NAMES = frozenset({"tensorflow", "keras", "numpy", "torch", "jax", "tf_keras"})


def _fact_labels() -> dict[str, str]:
    return {
        # gpu
        "gpus": QCoreApplication.translate("Facts", "GPUs"),
        "source": QCoreApplication.translate("Facts", "Source"),
        "other_adapters": QCoreApplication.translate("Facts", "Other display adapters"),
        "nvml_error": QCoreApplication.translate("Facts", "NVML error"),
        "nvml_detail": QCoreApplication.translate("Facts", "NVML details"),
        "min_compute_capability": QCoreApplication.translate("Facts", "Minimum compute capability"),
        "hybrid_graphics": QCoreApplication.translate("Facts", "Hybrid graphics"),
        "index": QCoreApplication.translate("Facts", "Index"),
        "name": QCoreApplication.translate("Facts", "Name"),
        "compute_capability": QCoreApplication.translate("Facts", "Compute capability"),
        "compute_capability_source": QCoreApplication.translate("Facts", "Compute capability from"),
        "memory_gib": QCoreApplication.translate("Facts", "Memory (GiB)"),
        "memory_total_bytes": QCoreApplication.translate("Facts", "Memory (bytes)"),
        "laptop": QCoreApplication.translate("Facts", "Laptop GPU"),
        "uuid": QCoreApplication.translate("Facts", "UUID"),
        "pci_bus_id": QCoreApplication.translate("Facts", "PCI bus ID"),
        "pci_device_id": QCoreApplication.translate("Facts", "PCI device ID"),
        "pci_driver": QCoreApplication.translate("Facts", "PCI driver"),
        "pci_problem": QCoreApplication.translate("Facts", "Device problem"),
        "vendor_id": QCoreApplication.translate("Facts", "Vendor ID"),
        "device_id": QCoreApplication.translate("Facts", "Device ID"),
        # driver
        "driver_version": QCoreApplication.translate("Facts", "Driver version"),
        "cuda_driver_version": QCoreApplication.translate(
            "Facts", "Highest CUDA the driver supports"
        ),
        "min_driver": QCoreApplication.translate("Facts", "Minimum driver"),
        "nvidia_smi": QCoreApplication.translate("Facts", "nvidia-smi"),
        "kernel_module_version": QCoreApplication.translate("Facts", "Kernel module version"),
        "device_nodes": QCoreApplication.translate("Facts", "Device files"),
        "in_container": QCoreApplication.translate("Facts", "In a container"),
        "driver": QCoreApplication.translate("Facts", "Driver"),
        "toolkit": QCoreApplication.translate("Facts", "With the CUDA Toolkit"),
        "compat": QCoreApplication.translate("Facts", "With minor-version compatibility"),
        # cuda / cudnn
        "installs": QCoreApplication.translate("Facts", "Installations found"),
        "loader_first": QCoreApplication.translate("Facts", "Loaded first"),
        "loader_first_process": QCoreApplication.translate("Facts", "Loaded first (this process)"),
        "loader_first_needed": QCoreApplication.translate(
            "Facts", "Loaded first (the needed version)"
        ),
        "loader_first_new_terminal": QCoreApplication.translate(
            "Facts", "Loaded first (a new terminal)"
        ),
        "env": QCoreApplication.translate("Facts", "Python environment"),
        "nvcc": QCoreApplication.translate("Facts", "nvcc"),
        "path_entries_process": QCoreApplication.translate("Facts", "PATH entries (this process)"),
        "path_entries_registry": QCoreApplication.translate(
            "Facts", "PATH entries (registry, new terminals)"
        ),
        "ld_library_path": QCoreApplication.translate("Facts", "LD_LIBRARY_PATH"),
        "loader_dirs": QCoreApplication.translate("Facts", "Loader folders"),
        "needed": QCoreApplication.translate("Facts", "Needed"),
        "from_probe_log": QCoreApplication.translate("Facts", "Seen in TensorFlow's log"),
        "zlibwapi": QCoreApplication.translate("Facts", "zlibwapi.dll"),
        "version": QCoreApplication.translate("Facts", "Version"),
        "version_source": QCoreApplication.translate("Facts", "Version from"),
        "path": QCoreApplication.translate("Facts", "Path"),
        "kind": QCoreApplication.translate("Facts", "Kind"),
        "sources": QCoreApplication.translate("Facts", "Found through"),
        "aliases": QCoreApplication.translate("Facts", "Also known as"),
        "lib_dir": QCoreApplication.translate("Facts", "Library folder"),
        "cudart": QCoreApplication.translate("Facts", "CUDA runtime"),
        "package": QCoreApplication.translate("Facts", "Package"),
        "exists": QCoreApplication.translate("Facts", "Exists"),
        "on_path": QCoreApplication.translate("Facts", "On the search path"),
        "on_new_path": QCoreApplication.translate("Facts", "On the search path of a new terminal"),
        "origin": QCoreApplication.translate("Facts", "Found via"),
        "dir": QCoreApplication.translate("Facts", "Folder"),
        "file": QCoreApplication.translate("Facts", "File"),
        "files": QCoreApplication.translate("Facts", "Files"),
        "header": QCoreApplication.translate("Facts", "Header"),
        "major": QCoreApplication.translate("Facts", "Major version"),
        "missing": QCoreApplication.translate("Facts", "Missing"),
        "cuda": QCoreApplication.translate("Facts", "CUDA"),
        "cudnn": QCoreApplication.translate("Facts", "cuDNN"),
        "pip_cuda": QCoreApplication.translate("Facts", "CUDA from pip"),
        # tensorflow
        "python": QCoreApplication.translate("Facts", "Python"),
        "python_version": QCoreApplication.translate("Facts", "Python version"),
        "python_bits": QCoreApplication.translate("Facts", "Python bits"),
        "environment": QCoreApplication.translate("Facts", "Environment type"),
        "prefix": QCoreApplication.translate("Facts", "Environment folder"),
        "packages": QCoreApplication.translate("Facts", "Packages"),
        "nvidia_packages": QCoreApplication.translate("Facts", "NVIDIA pip packages"),
        "tensorflow_version": QCoreApplication.translate("Facts", "TensorFlow version"),
        "imported": QCoreApplication.translate("Facts", "Imports"),
        "import_error": QCoreApplication.translate("Facts", "Import error"),
        "built_with_cuda": QCoreApplication.translate("Facts", "Built with CUDA"),
        "build_info": QCoreApplication.translate("Facts", "Build information"),
        "matmul": QCoreApplication.translate("Facts", "Matrix multiplication test"),
        "conv": QCoreApplication.translate("Facts", "Convolution test"),
        "cuda_visible_devices": QCoreApplication.translate("Facts", "CUDA_VISIBLE_DEVICES"),
        "inherited_env": QCoreApplication.translate("Facts", "Inherited environment"),
        "probe_seconds": QCoreApplication.translate("Facts", "Check took (s)"),
        "log": QCoreApplication.translate("Facts", "Log"),
        "ok": QCoreApplication.translate("Facts", "Succeeded"),
        "device": QCoreApplication.translate("Facts", "Device"),
        "device_name": QCoreApplication.translate("Facts", "Device name"),
        "error": QCoreApplication.translate("Facts", "Error"),
        "message": QCoreApplication.translate("Facts", "Message"),
        "status": QCoreApplication.translate("Facts", "Status"),
        "program": QCoreApplication.translate("Facts", "Program"),
    }


def fact_label(key: str) -> str:
    """A fact's key for people (``driver_version`` -> "Driver version"), translated for the
    keys the layers report; others (package names, new keys) are humanised."""
    label = _fact_labels().get(str(key))
    if label is not None:
        return label
    if "-" in str(key) or str(key) in _PACKAGE_NAMES:  # a distribution name: shown as it is
        return str(key)
    text = str(key).replace("_", " ").strip()
    return text[:1].upper() + text[1:]


_ENUM_FACTS = frozenset({
    "nvml_error", "status", "origin", "source", "sources", "kind", "version_source",
    "compute_capability_source", "environment",
})
"""Fact keys whose values are the engine's identifiers (``library_not_found``), not names."""


def _fact_values() -> dict[str, str]:
    return {
        # NVML errors and nvidia-smi states
        "library_not_found": QCoreApplication.translate("FactValue", "NVML library not found"),
        "driver_not_loaded": QCoreApplication.translate("FactValue", "driver not loaded"),
        "driver_library_mismatch": QCoreApplication.translate(
            "FactValue", "driver and library versions differ"
        ),
        "no_permission": QCoreApplication.translate("FactValue", "no permission"),
        "unknown": QCoreApplication.translate("FactValue", "unknown error"),
        "not_found": QCoreApplication.translate("FactValue", "not found"),
        "timed_out": QCoreApplication.translate("FactValue", "did not answer in time"),
        # where a library or a fact was found
        "conda_env": QCoreApplication.translate("FactValue", "the conda environment"),
        "default": QCoreApplication.translate("FactValue", "the system's default folders"),
        "rpath": QCoreApplication.translate("FactValue", "TensorFlow's own library folders"),
        "folder": QCoreApplication.translate("FactValue", "install folder"),
        "registry": QCoreApplication.translate("FactValue", "registry"),
        "cuda_folder": QCoreApplication.translate("FactValue", "the CUDA Toolkit folder"),
        "pip": QCoreApplication.translate("FactValue", "pip package"),
        "toolkit": QCoreApplication.translate("FactValue", "CUDA Toolkit"),
        "header": QCoreApplication.translate("FactValue", "header file"),
        "chip": QCoreApplication.translate("FactValue", "the GPU's chip"),
        "spec": QCoreApplication.translate("FactValue", "the GPU data table"),
        "nvml": QCoreApplication.translate("FactValue", "NVML (the driver)"),
        "pci": QCoreApplication.translate("FactValue", "PCI bus"),
        "system": QCoreApplication.translate("FactValue", "system Python"),
    }


def fact_value(key: str, value: Any) -> str | None:
    """A fact's value for people when it is one of the engine's identifiers (``nvml_error``:
    ``library_not_found`` -> "NVML library not found"); None for anything else (versions,
    paths and names such as ``conda`` or ``venv`` are shown as they are)."""
    if str(key) not in _ENUM_FACTS or not isinstance(value, str):
        return None
    return _fact_values().get(value)


def shown_facts(facts: dict[str, Any], os_kind: str) -> dict[str, Any]:
    """The facts a page shows: ``zlibwapi`` (a Windows-only file of cuDNN 8.3-8.9) only on
    Windows."""
    if os_kind == "windows":
        return dict(facts)

    def without(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: without(v) for k, v in value.items() if k != "zlibwapi"}
        if isinstance(value, list):
            return [without(v) for v in value]
        return value

    return without(dict(facts))


# ---------------------------------------------------------------------------------------------
# Layer summaries: core's LayerResult.summary is an English one-liner (for the CLI). In another
# language the pages show one built here from the layer's facts and findings instead.


def failing_below(layer: str, results: Any) -> Any:
    """The lowest layer under ``layer`` whose result failed (core's summary names it), from
    ``results`` (a Report's layers or a session's results), or None."""
    from wizard.core.model import LAYERS

    by_name = {getattr(r, "layer", ""): r for r in (results or [])}
    if layer not in LAYERS:
        return None
    for name in LAYERS[: LAYERS.index(layer)]:
        result = by_name.get(name)
        if result is not None and getattr(result, "status", "") == "fail":
            return result
    return None


def layer_summary(result: Any) -> str:
    """The one-line summary of a layer result in the current language (core's own summary:
    one text in every language, so the Chinese says what the English says)."""
    summary = getattr(result, "summary", "")
    return render_message(summary) if summary else status_text(getattr(result, "status", ""))
