"""The GUI's texts for what core reports: layer names, statuses, fact labels, and core's own
messages (findings, steps, links, summaries) rendered from the message catalogue
(:mod:`wizard.core.messages`) in the language the wizard shows. Widgets and pages call these;
they never format core data themselves.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from PySide6.QtCore import QCoreApplication

from wizard.core import codes, messages
from wizard.core.messages import Message
from wizard.finding_templates import CORE_TEXTS

_CORE_CONTEXT = "CoreText"


class _Missing(dict):
    """format_map values: a placeholder the params lack renders as '?' (as in core)."""

    def __missing__(self, key: str) -> str:
        return "?"


def render(template: str, params: dict[str, Any] | None) -> str:
    """Fill ``template`` with ``params`` like core's ``codes._render``.

    A translation whose braces are broken must never crash a page: such a template is shown
    unfilled rather than raising.
    """
    values = _Missing({k: ("" if v is None else v) for k, v in (params or {}).items()})
    try:
        return template.format_map(values)
    except (ValueError, IndexError, AttributeError, KeyError, TypeError):
        return template


def _layer_titles() -> dict[str, str]:
    return {
        "gpu": QCoreApplication.translate("Layers", "GPU"),
        "driver": QCoreApplication.translate("Layers", "Driver"),
        "cuda": QCoreApplication.translate("Layers", "CUDA Toolkit"),
        "cudnn": QCoreApplication.translate("Layers", "cuDNN"),
        "tensorflow": QCoreApplication.translate("Layers", "TensorFlow"),
        "pytorch": QCoreApplication.translate("Layers", "PyTorch"),
    }


def layer_title(layer: str) -> str:
    """The layer's name as shown on its page and in the summary ("CUDA Toolkit")."""
    return _layer_titles().get(layer, layer)


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


def _legacy(params: dict[str, Any]) -> dict[str, Any]:
    """Until every core module passes messages: English text params translated by match."""
    return {k: core_text(v) if isinstance(v, str) else v for k, v in params.items()}


def finding_title(code: str) -> str:
    """The finding's short title ("cuDNN not found"); an unknown code shows as itself."""
    return codes.render_title(code, _lang())


def finding_message(finding: Any) -> str:
    """What is wrong, filled with the finding's params, in the current language."""
    return codes.render_message(finding.code, _legacy(_params(finding)), _lang())


def finding_fix(finding: Any) -> str:
    """The fix summary, filled with the finding's params ("" for an unknown code)."""
    return codes.render_fix_summary(finding.code, _legacy(_params(finding)), _lang())


def step_text(step: Any) -> str:
    """One fix step (a :class:`~wizard.core.model.Step`) in the current language."""
    params = _params(step)
    if step.key == "text":
        return core_text(str(params.get("text") or ""))
    return codes.render_step(step.key, _legacy(params), _lang())


def link_title(link: Any) -> str:
    """A fix link's title (a :class:`~wizard.core.model.Link`), translated."""
    title = getattr(link, "title", "")
    if isinstance(title, Message):
        return render_message(title)
    return core_text(str(title or ""))


def render_message(message: Message) -> str:
    """A core message in the current language."""
    return messages.render(message, _lang())


@lru_cache(maxsize=1)
def _core_patterns() -> tuple[tuple[re.Pattern[str], str, tuple[str, ...]], ...]:
    """For each core free-text template with placeholders: a regex that matches its rendered
    English, the template, and its placeholder names in order."""
    patterns = []
    for template in CORE_TEXTS:
        names = re.findall(r"(?<!\{)\{(\w+)\}(?!\})", template)
        if not names:
            continue
        regex = ""
        for piece in re.split(r"((?<!\{)\{\w+\}(?!\}))", template):
            if re.fullmatch(r"\{\w+\}", piece):
                regex += "(.+?)"
            else:
                regex += re.escape(piece.replace("{{", "{").replace("}}", "}"))
        patterns.append((re.compile(regex, re.DOTALL), template, tuple(names)))
    # Most specific first: "CUDA {cuda}" must not swallow a whole sentence that starts "CUDA 12.x
    # minor-version compatibility ...".
    patterns.sort(key=lambda item: -len(re.sub(r"\{\w+\}", "", item[1])))
    return tuple(patterns)


def core_text(english: str) -> str:
    """Translate a free English text written in core (a step or a link title).

    Exact texts are looked up directly; texts core builds with an f-string are matched against
    their template and the values are carried into the translation. Anything else (a text
    computed at run time) stays English.
    """
    if not english:
        return english
    literal = english.replace("{", "{{").replace("}", "}}")
    if literal in _core_literals():
        return render(QCoreApplication.translate(_CORE_CONTEXT, literal), {})
    for regex, template, names in _core_patterns():
        match = regex.fullmatch(english)
        if match:
            # A value may itself be a core text (f"installed{where}" with where = f" in {path}").
            values = {
                name: core_text(value) if len(value) < len(english) else value
                for name, value in zip(names, match.groups())
            }
            return render(QCoreApplication.translate(_CORE_CONTEXT, template), values)
    return english


@lru_cache(maxsize=1)
def _core_literals() -> frozenset[str]:
    return frozenset(CORE_TEXTS)


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


def _first(items: Any) -> dict[str, Any]:
    return items[0] if isinstance(items, list) and items and isinstance(items[0], dict) else {}


def _gpu_summary(facts: dict[str, Any]) -> str | None:
    gpus = [g for g in facts.get("gpus") or [] if isinstance(g, dict) and g.get("name")]
    if not gpus:
        return None
    gpu = gpus[0]
    text = render(
        QCoreApplication.translate("Summary", "{name}, compute capability {cc}"),
        {"name": gpu["name"], "cc": gpu.get("compute_capability") or "?"},
    )
    if gpu.get("memory_gib"):
        memory = f"{float(gpu['memory_gib']):g}"
        text += render(QCoreApplication.translate("Summary", ", {memory} GiB"), {"memory": memory})
    if len(gpus) > 1:
        text += QCoreApplication.translate("Summary", " (and %n more)", "", len(gpus) - 1)
    return text


def _driver_summary(facts: dict[str, Any]) -> str | None:
    if not facts.get("driver_version"):
        return None
    text = render(
        QCoreApplication.translate("Summary", "Driver {driver}"),
        {"driver": facts["driver_version"]},
    )
    if facts.get("cuda_driver_version"):
        text += render(
            QCoreApplication.translate("Summary", ", supports CUDA up to {cuda}"),
            {"cuda": facts["cuda_driver_version"]},
        )
    need = facts.get("min_driver")
    if isinstance(need, dict) and need.get("cuda") and need.get("toolkit"):
        text += render(
            QCoreApplication.translate("Summary", "; CUDA {cuda} needs {driver} or newer"),
            {"cuda": need["cuda"], "driver": need["toolkit"]},
        )
    return text


def _library_summary(layer: str, facts: dict[str, Any], status: str) -> str | None:
    """CUDA or cuDNN: the copy the loader uses first, or the pip wheel that brings it."""
    first = facts.get("loader_first") if isinstance(facts.get("loader_first"), dict) else {}
    install = first or _first(facts.get("installs"))
    version = install.get("version")
    if not version:
        return None
    name = "CUDA" if layer == "cuda" else "cuDNN"
    package = install.get("package") or _first(facts.get("installs")).get("package")
    kind = str(install.get("kind") or install.get("source") or "pip")
    if status == "n/a":
        # not needed for this target (pip brings it): never "CUDA x in <a system folder>",
        # which reads as if that copy were the one in use
        if package and kind == "pip":
            return render(
                QCoreApplication.translate(
                    "Summary",
                    "No system {name} needed: {name} {version} comes from the pip package "
                    "{package}",
                ),
                {"name": name, "version": version, "package": package},
            )
        if kind == "conda":
            return render(
                QCoreApplication.translate(
                    "Summary", "No system {name} needed: {name} {version} comes from conda"
                ),
                {"name": name, "version": version},
            )
        return None
    return render(
        QCoreApplication.translate("Summary", "{name} {version} in {path}"),
        {"name": name, "version": version, "path": install.get("path") or install.get("dir")},
    )


def _ran_on_gpu(facts: dict[str, Any], step: str) -> bool:
    """The probe's matmul or conv ran, and on a GPU."""
    result = facts.get(step) if isinstance(facts.get(step), dict) else {}
    return bool(result.get("ok")) and "GPU" in str(result.get("device") or "").upper()


def _tensorflow_summary(facts: dict[str, Any], below: Any = None) -> str | None:
    """As core's summary: "runs on" only when both computations (the matmul, which needs
    cuBLAS, and the convolution, which needs cuDNN) ran on the GPU."""
    version = facts.get("tensorflow_version")
    if not version:
        return None
    gpus = [g for g in facts.get("gpus") or [] if isinstance(g, dict)]
    values = {"version": version}
    if facts.get("imported") is False:
        text = render(
            QCoreApplication.translate("Summary", "TensorFlow {version} fails to import"), values
        )
    elif gpus and _ran_on_gpu(facts, "matmul") and _ran_on_gpu(facts, "conv"):
        gpu = gpus[0].get("device_name") or gpus[0].get("name") or "GPU"
        text = render(
            QCoreApplication.translate("Summary", "TensorFlow {version} runs on {gpu}"),
            {"version": version, "gpu": gpu},
        )
    elif facts.get("built_with_cuda") is False:
        text = render(
            QCoreApplication.translate(
                "Summary", "TensorFlow {version} is a CPU-only build: it cannot use a GPU"
            ),
            values,
        )
    elif gpus:
        text = render(
            QCoreApplication.translate(
                "Summary", "TensorFlow {version} lists the GPU but a computation failed"
            ),
            values,
        )
    elif below is not None and any(
        getattr(f, "code", "") == "no_nvidia_gpu" for f in getattr(below, "findings", None) or []
    ):
        text = render(
            QCoreApplication.translate(
                "Summary", "TensorFlow {version} sees no GPU: this machine has none"
            ),
            values,
        )
    elif below is not None:
        text = render(
            QCoreApplication.translate(
                "Summary", "TensorFlow {version} sees no GPU; fix the {layer} layer first"
            ),
            {"version": version, "layer": layer_title(getattr(below, "layer", ""))},
        )
    else:
        text = render(
            QCoreApplication.translate("Summary", "TensorFlow {version} sees no GPU"), values
        )
    if facts.get("python_version"):
        text += render(
            QCoreApplication.translate("Summary", " (Python {python})"),
            {"python": facts["python_version"]},
        )
    return text


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


def layer_summary(result: Any, below: Any = None) -> str:
    """The one-line summary of a layer result in the current language.

    English keeps core's own summary. Otherwise: the most severe problem's title for a layer
    with a problem or warning, else a line built from the layer's facts; core's English
    summary when neither applies (a fact layout this function does not know yet). ``below`` is
    the failing lower layer's result (see :func:`failing_below`), which core's TensorFlow
    summary names too.
    """
    from wizard import i18n

    summary = getattr(result, "summary", "")
    if isinstance(summary, Message):
        return render_message(summary)
    english = str(summary or "")
    if i18n.current_language() == "en":
        return english
    status = getattr(result, "status", "")
    findings = [f for f in getattr(result, "findings", None) or [] if f.code in codes.CODES]
    serious = [f for f in findings if f.severity in ("fail", "warn")]
    if status in ("fail", "warn") and serious:
        worst = next((f for f in serious if f.severity == "fail"), serious[0])
        return finding_title(worst.code)
    facts = dict(getattr(result, "facts", None) or {})
    layer = getattr(result, "layer", "")
    try:
        if layer == "gpu":
            text = _gpu_summary(facts)
        elif layer == "driver":
            text = _driver_summary(facts)
        elif layer in ("cuda", "cudnn"):
            text = _library_summary(layer, facts, status)
        elif layer == "tensorflow":
            text = _tensorflow_summary(facts, below)
        else:
            text = None
    except (TypeError, ValueError, KeyError, AttributeError):
        text = None
    if text:
        return text
    if status == "n/a":
        return QCoreApplication.translate("Summary", "Not needed for this target")
    if layer == "gpu" and status == "unknown":
        return QCoreApplication.translate(
            "Summary", "No GPU visible here; the driver layer says why"
        )
    return english or status_text(status)
