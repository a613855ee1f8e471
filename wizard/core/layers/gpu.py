"""The gpu layer: is there an NVIDIA GPU, which one, and can the target build run on it?

GPUs are found NVML first; when NVML fails, ``nvidia-smi``; when both know nothing, the PCI bus
(vendor ``10de``), which still finds a card that has no driver. The inventory gathered here is
cached in ``ctx.gpu_inventory`` and shared with the driver layer (:func:`inventory`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Optional

from wizard.core import knowledge
from wizard.core.host import CommandResult, Host
from wizard.core.host.nvml import is_laptop_name
from wizard.core.host.pci import NVIDIA, SYSFS_PCI_DEVICES
from wizard.core.layers import CheckContext
from wizard.core.messages import Message, msg
from wizard.core.model import (
    FAIL,
    OK,
    UNKNOWN,
    WARN,
    Finding,
    Fix,
    LayerResult,
    Link,
    Step,
    Text,
)

CUDA_GPUS_URL = "https://developer.nvidia.com/cuda-gpus"
SMI_TIMEOUT = 20.0
SMI_FIELDS = "index,name,uuid,pci.bus_id,compute_cap,memory.total,driver_version"
SMI_FIELDS_OLD = "index,name,uuid,pci.bus_id,memory.total,driver_version"
SMI_FORMAT = "--format=csv,noheader,nounits"
SMI_QUERY_ARGV = ("nvidia-smi", f"--query-gpu={SMI_FIELDS}", SMI_FORMAT)
"""The exact nvidia-smi call of the fallback (a profile's ``commands`` entry must match it);
``SMI_QUERY_ARGV_OLD`` follows when a driver rejects ``compute_cap``, then the bare banner
``nvidia-smi`` for the CUDA version."""
SMI_QUERY_ARGV_OLD = ("nvidia-smi", f"--query-gpu={SMI_FIELDS_OLD}", SMI_FORMAT)
WINDOWS_SMI_PATHS = (
    "C:\\Windows\\System32\\nvidia-smi.exe",
    "C:\\Program Files\\NVIDIA Corporation\\NVSMI\\nvidia-smi.exe",
)
WSL_SMI_PATH = "/usr/lib/wsl/lib/nvidia-smi"

# GPU chip code name (as pci.ids writes it: "GA104M [GeForce RTX 3070 Ti Mobile]") -> compute
# capability, from NVIDIA's CUDA GPU list (https://developer.nvidia.com/cuda-gpus). Used only for a
# card without a driver, where NVML cannot say. First match wins, so exact chips come first.
CHIP_COMPUTE_CAPABILITY: tuple[tuple[str, str], ...] = (
    (r"GK(110|180)", "3.5"),
    (r"GK208", "3.5"),
    (r"GK210", "3.7"),
    (r"GK\d", "3.0"),
    (r"GM10\d", "5.0"),
    (r"GM20\d", "5.2"),
    (r"GP100", "6.0"),
    (r"GP10\d", "6.1"),
    (r"GV10\d", "7.0"),
    (r"TU1\d\d", "7.5"),
    (r"GA100", "8.0"),
    (r"GA10\d", "8.6"),
    (r"AD10\d", "8.9"),
    (r"GH100", "9.0"),
    (r"GB10\d", "10.0"),
    (r"GB20\d", "12.0"),
)

# nvidia-smi's own failure texts -> a kind the driver layer understands.
SMI_FAILURES: tuple[tuple[str, str], ...] = (
    ("couldn't communicate with the nvidia driver", "driver_not_loaded"),
    ("driver/library version mismatch", "driver_library_mismatch"),
    ("insufficient permissions", "no_permission"),
    ("permission denied", "no_permission"),
    ("no devices were found", "no_devices"),
    ("gpu is lost", "gpu_lost"),
    ("unable to determine the device handle", "gpu_lost"),
)


@dataclass
class SmiAnswer:
    """What ``nvidia-smi --query-gpu`` said."""

    program: str
    status: str
    """``ok``, ``not_found``, ``timed_out`` or a failure kind of :data:`SMI_FAILURES` /
    ``failed``."""
    message: str = ""
    gpus: list[dict[str, Any]] = field(default_factory=list)
    driver_version: Optional[str] = None

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    def to_fact(self) -> dict[str, Any]:
        return {"program": self.program, "status": self.status, "message": self.message or None}


@dataclass
class Inventory:
    """Every GPU fact the gpu and driver layers share."""

    nvml: dict[str, Any]
    gpus: list[dict[str, Any]]
    source: Optional[str]
    """``nvml``, ``nvidia-smi``, ``pci`` or None (nothing found)."""
    pci: list[dict[str, Any]]
    smi: Optional[SmiAnswer] = None
    pci_known: bool = False
    """True when the PCI list is trustworthy even if empty: devices were listed, or (Linux) the
    sysfs PCI directory could be read. False: an empty list may only mean "could not ask"."""

    @property
    def nvml_error(self) -> Optional[str]:
        return self.nvml.get("error")

    @property
    def nvidia_pci(self) -> list[dict[str, Any]]:
        return [d for d in self.pci if str(d.get("vendor_id", "")).lower() == NVIDIA]

    @property
    def other_adapters(self) -> list[dict[str, Any]]:
        return [d for d in self.pci if str(d.get("vendor_id", "")).lower() != NVIDIA]


# -- gathering -------------------------------------------------------------------------------


def inventory(ctx: CheckContext) -> Inventory:
    """The GPU inventory, gathered once per check."""
    if ctx.gpu_inventory is None:
        ctx.gpu_inventory = _gather(ctx)
    return ctx.gpu_inventory


def _gather(ctx: CheckContext) -> Inventory:
    host = ctx.host
    nvml = ctx.nvml()
    pci_devices = [d for d in host.pci_devices() if isinstance(d, dict)]
    inv = Inventory(nvml=nvml, gpus=[], source=None, pci=pci_devices,
                    pci_known=bool(pci_devices) or _sysfs_readable(host))
    if nvml.get("error") is None and nvml.get("gpus"):
        inv.gpus = [_from_nvml(g) for g in nvml["gpus"] if isinstance(g, dict)]
        inv.source = "nvml"
        return inv
    if nvml.get("error") is not None:
        inv.smi = query_nvidia_smi(host)
        if inv.smi.ok and inv.smi.gpus:
            inv.gpus, inv.source = inv.smi.gpus, "nvidia-smi"
            return inv
    if inv.nvidia_pci:
        inv.gpus = [_from_pci(i, d) for i, d in enumerate(inv.nvidia_pci)]
        inv.source = "pci"
    return inv


def _sysfs_readable(host: Host) -> bool:
    return host.platform.system == "linux" and bool(host.listdir(SYSFS_PCI_DEVICES))


def _from_nvml(gpu: dict[str, Any]) -> dict[str, Any]:
    cc = gpu.get("compute_capability")
    name = gpu.get("name") or f"GPU {gpu.get('index', '?')}"
    return _gpu_entry(
        index=gpu.get("index"),
        name=name,
        cc=f"{cc[0]}.{cc[1]}" if isinstance(cc, (list, tuple)) and len(cc) == 2 else None,
        cc_source="nvml",
        memory=gpu.get("memory_total_bytes"),
        uuid=gpu.get("uuid"),
        pci_bus_id=gpu.get("pci_bus_id"),
        pci_device_id=gpu.get("pci_device_id"),
        error=gpu.get("error"),
    )


def _from_pci(index: int, device: dict[str, Any]) -> dict[str, Any]:
    name = str(device.get("name") or f"NVIDIA device 10de:{device.get('device_id', '????')}")
    cc, cc_source = compute_capability_from_name(name)
    entry = _gpu_entry(
        index=index, name=name, cc=cc, cc_source=cc_source, memory=None, uuid=None,
        pci_bus_id=device.get("slot"), pci_device_id=device.get("device_id"),
    )
    entry["pci_driver"] = device.get("driver")
    entry["pci_problem"] = device.get("problem")
    return entry


def _gpu_entry(*, index: Any, name: str, cc: Optional[str], cc_source: Optional[str],
               memory: Any, uuid: Any, pci_bus_id: Any, pci_device_id: Any,
               error: Optional[str] = None) -> dict[str, Any]:
    if cc is None:  # NVML/nvidia-smi did not say: the spec table may know the name
        cc, cc_source = compute_capability_from_name(name)
    memory_bytes = int(memory) if isinstance(memory, (int, float)) and memory > 0 else None
    entry: dict[str, Any] = {
        "index": index,
        "name": name,
        "compute_capability": cc,
        "compute_capability_source": cc_source if cc else None,
        "memory_total_bytes": memory_bytes,
        "memory_gib": round(memory_bytes / 2**30, 1) if memory_bytes else None,
        "laptop": is_laptop_name(name),
        "uuid": uuid,
        "pci_bus_id": pci_bus_id,
        "pci_device_id": pci_device_id,
    }
    if error:
        entry["error"] = error
    return entry


def compute_capability_from_name(name: str) -> tuple[Optional[str], Optional[str]]:
    """Compute capability for a GPU known only by name: the spec table (NVML-style names, also
    derived from a pci.ids name), else the chip code name. ``(cc, source)`` or ``(None, None)``."""
    for candidate in _spec_names(name):
        spec = knowledge.gpu_spec(candidate)
        if spec and spec.get("compute_capability"):
            return str(spec["compute_capability"]), "spec"
    for pattern, cc in CHIP_COMPUTE_CAPABILITY:
        if re.search(r"\b" + pattern, name):
            return cc, "chip"
    return None, None


def _spec_names(name: str) -> list[str]:
    """``"NVIDIA GA104M [GeForce RTX 3070 Ti Mobile / Max-Q]"`` -> the name itself plus
    ``"NVIDIA GeForce RTX 3070 Ti Laptop GPU"`` and ``"NVIDIA GeForce RTX 3070 Ti Mobile"``."""
    names = [name]
    bracket = re.search(r"\[([^\]]+)\]", name)
    if bracket:
        first = bracket.group(1).split("/")[0].strip()
        mobile = re.sub(r"\s+Mobile\b", " Laptop GPU", first)
        names += [f"NVIDIA {mobile}", f"NVIDIA {first}"]
    return names


# -- nvidia-smi ------------------------------------------------------------------------------


def nvidia_smi_program(host: Host) -> str:
    """``nvidia-smi`` when PATH finds it, else its usual folder (legacy Windows drivers put it in
    NVSMI, WSL in /usr/lib/wsl/lib), else the bare name."""
    if host.which("nvidia-smi"):
        return "nvidia-smi"
    candidates = WINDOWS_SMI_PATHS if host.is_windows else (WSL_SMI_PATH,)
    return next((path for path in candidates if host.exists(path)), "nvidia-smi")


def query_nvidia_smi(host: Host) -> SmiAnswer:
    program = nvidia_smi_program(host)
    result = _run_query(host, program, SMI_FIELDS)
    if not result.ok and "compute_cap" in (result.stdout + result.stderr):
        result = _run_query(host, program, SMI_FIELDS_OLD)  # drivers before ~510 lack the field
    return smi_answer(program, result)


def _run_query(host: Host, program: str, fields: str) -> CommandResult:
    argv = [program, f"--query-gpu={fields}", SMI_FORMAT]
    return host.run(argv, timeout=SMI_TIMEOUT)


def smi_answer(program: str, result: CommandResult) -> SmiAnswer:
    text = (result.stdout + "\n" + result.stderr).strip()
    if result.not_found:
        return SmiAnswer(program, "not_found", "nvidia-smi was not found")
    if result.timed_out:
        message = f"nvidia-smi did not answer within {SMI_TIMEOUT:g} s"
        return SmiAnswer(program, "timed_out", message)
    if not result.ok:
        return SmiAnswer(program, _failure_kind(text), _first_line(text) or
                         f"nvidia-smi exited with code {result.returncode}")
    with_cc = "compute_cap" in " ".join(result.argv)
    gpus = [g for g in (_parse_smi_line(line, with_cc) for line in result.stdout.splitlines()) if g]
    if not gpus:
        kind = _failure_kind(text)
        return SmiAnswer(program, kind if kind != "failed" else "no_devices", _first_line(text))
    drivers = [g.pop("_driver", None) for g in gpus]
    return SmiAnswer(program, "ok", "", gpus, drivers[0])


def _failure_kind(text: str) -> str:
    lowered = text.lower()
    return next((kind for needle, kind in SMI_FAILURES if needle in lowered), "failed")


def _first_line(text: str) -> str:
    return next((line.strip() for line in text.splitlines() if line.strip()), "")


def _parse_smi_line(line: str, with_cc: bool) -> Optional[dict[str, Any]]:
    parts = [p.strip() for p in line.split(",")]
    if len(parts) != (7 if with_cc else 6) or not parts[0].isdigit():
        return None
    values = [None if p.startswith("[") or p in ("", "N/A") else p for p in parts]
    if with_cc:
        index, name, uuid, bus_id, cc, memory, driver = values
    else:
        index, name, uuid, bus_id, memory, driver = values
        cc = None
    memory_bytes = int(float(memory) * 2**20) if memory and _is_number(memory) else None
    entry = _gpu_entry(
        index=int(index or 0), name=name or "NVIDIA GPU", cc=cc, cc_source="nvidia-smi",
        memory=memory_bytes, uuid=uuid, pci_bus_id=bus_id, pci_device_id=None,
    )
    entry["_driver"] = driver
    return entry


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


# -- the layer -------------------------------------------------------------------------------


def check(ctx: CheckContext) -> LayerResult:
    inv = inventory(ctx)
    facts: dict[str, Any] = {
        "gpus": [_with_tf_support(g, ctx.host.platform.os_kind) for g in inv.gpus],
        "source": inv.source,
        "other_adapters": [
            {k: d.get(k) for k in ("name", "vendor_id", "device_id", "driver")}
            for d in inv.other_adapters
        ],
        "nvml_error": inv.nvml_error,
        # no GPU build for the target (TF >= 2.11 on native Windows): nothing to compare with
        "min_compute_capability": _min_cc(ctx.target.tensorflow)
        if ctx.target.gpu_supported else None,
    }
    if inv.smi is not None:
        facts["nvidia_smi"] = inv.smi.to_fact()
    facts["hybrid_graphics"] = bool(
        inv.gpus and any(g["laptop"] for g in inv.gpus) and inv.other_adapters
    )
    if not inv.gpus:
        return _no_gpu(ctx, inv, facts)
    findings = _compute_capability_findings(ctx, inv.gpus, facts["min_compute_capability"])
    unknown_cc = [g for g in inv.gpus if not g["compute_capability"]]
    lost = [g for g in inv.gpus if g.get("error")]
    default = WARN if lost or (unknown_cc and len(unknown_cc) == len(inv.gpus)) else OK
    status = _status(findings, default)
    return LayerResult("gpu", status, _summary(inv), facts, findings)


def _with_tf_support(gpu: dict[str, Any], os_kind: str) -> dict[str, Any]:
    """The GPU's facts plus what it can run: the newest TF release series whose GPU build
    supports its compute capability (None when unknown or none)."""
    entry = dict(gpu)
    cc = gpu.get("compute_capability")
    entry["newest_tf"] = newest_tf_for_cc(cc, os_kind) if cc else None
    return entry


def _status(findings: list[Finding], default: str) -> str:
    if any(f.severity == "fail" for f in findings):
        return FAIL
    if any(f.severity == "warn" for f in findings):
        return WARN
    return default


def _min_cc(tf: Optional[str]) -> Optional[str]:
    """The lowest compute capability the TF release's wheels run on: the effective minimum
    (TF 2.15/2.16 list 3.5 but their CUDA 12 builds start at 5.0), else the documented one."""
    if not tf:
        return None
    requirement = _cc_requirement(tf)
    value = (requirement or {}).get("effective_min_cc") or knowledge.min_compute_capability(tf)
    match = re.match(r"\d+\.\d+", str(value or ""))
    return match.group(0) if match else None


def _cc_requirement(tf: str) -> Optional[dict[str, Any]]:
    try:
        return knowledge.compute_capability_requirement(tf)
    except (ValueError, KeyError):
        return None


def _cc_tuple(cc: str) -> tuple[int, ...]:
    return (knowledge.try_parse_version(cc) or ())[:2]


def _compute_capability_findings(ctx: CheckContext, gpus: list[dict[str, Any]],
                                 min_cc: Optional[str]) -> list[Finding]:
    tf = ctx.target.tensorflow
    excluded = [str(cc) for cc in ((_cc_requirement(tf) or {}).get("unsupported_cc") or [])]
    too_old = [
        g for g in gpus
        if g["compute_capability"] and (
            (min_cc and _cc_tuple(g["compute_capability"]) < _cc_tuple(min_cc))
            or g["compute_capability"] in excluded
        )
    ]
    severity = "fail" if len(too_old) == len(gpus) else "warn"
    return [_cc_finding(ctx, gpu, min_cc or "?", severity) for gpu in too_old]


def _cc_finding(ctx: CheckContext, gpu: dict[str, Any], min_cc: str, severity: str) -> Finding:
    cc = gpu["compute_capability"]
    tf = ctx.target.tensorflow
    fitting = newest_tf_for_cc(cc, ctx.host.platform.os_kind)
    commands: tuple[str, ...] = ()
    advice: Message
    if fitting:
        advice = msg("gpu.phrase.newest_tf_for_cc", fitting=fitting)
        try:
            commands = (knowledge.install_command(fitting, ctx.host.platform.os_kind),)
        except (ValueError, KeyError):
            commands = ()
    else:
        # worded to follow the fix summary's "Use a TensorFlow release that supports ... (":
        # the summary alone says it, a step would only repeat it
        advice = msg("gpu.phrase.no_tf_for_cc")
    steps = [Step("gpu.newest_tf_for_cc", {"fitting": fitting})] if fitting else []
    if commands:
        steps.append(Step("run", {"command": commands[0]}))
    return Finding(
        "compute_capability_unsupported",
        severity=severity,
        params={
            "gpu": gpu["name"], "cc": cc, "framework": "TensorFlow", "version": tf,
            "min_cc": min_cc, "max_note": _excluded_note(cc, min_cc), "advice": advice,
            "fitting_tf": fitting,
        },
        evidence=f"{gpu['name']}: compute capability {cc} "
        f"(from {gpu.get('compute_capability_source') or 'unknown'})",
        fix=Fix(
            steps=tuple(steps),
            links=(Link(msg("link.gpu.cuda_gpus_cc"), CUDA_GPUS_URL),),
            commands=commands,
        ),
    )


def _excluded_note(cc: str, min_cc: str) -> Text:
    if min_cc != "?" and _cc_tuple(cc) >= _cc_tuple(min_cc):
        return msg("gpu.phrase.cc_left_out", cc=cc)
    return ""


def newest_tf_for_cc(cc: str, os_kind: str) -> Optional[str]:
    """The newest TF release series whose minimum compute capability is at or below ``cc``."""
    versions = _known_tf_series(os_kind)
    for version in versions:
        minimum = _min_cc(version)
        excluded = (_cc_requirement(version) or {}).get("unsupported_cc") or []
        if minimum and _cc_tuple(cc) >= _cc_tuple(minimum) and cc not in excluded:
            return version
    return None


def _known_tf_series(os_kind: str) -> list[str]:
    known = getattr(knowledge, "known_tf_versions", None)
    series: list[str] = []
    if callable(known):
        try:
            series = [".".join(str(v).split(".")[:2]) for v in known(os_kind)]
        except (ValueError, KeyError, TypeError):
            series = []
    if not series:
        series = [f"2.{minor}" for minor in range(30, -1, -1)]
    unique = sorted(set(series), key=lambda v: _cc_tuple(v), reverse=True)
    return unique


def _no_gpu(ctx: CheckContext, inv: Inventory, facts: dict[str, Any]) -> LayerResult:
    if ctx.host.platform.os_kind == "wsl2" or ctx.host.platform.wsl:
        return LayerResult("gpu", UNKNOWN, msg("gpu.summary.wsl_no_gpu"), facts)
    other_names = [str(d.get("name")) for d in inv.other_adapters]
    others = ", ".join(other_names)
    if not inv.pci_known:  # the PCI list could not be read: only the driver's silence is known
        driver_broken = inv.nvml_error in ("driver_not_loaded", "driver_library_mismatch",
                                           "no_permission")
        smi_broken = inv.smi is not None and inv.smi.status not in ("not_found", "no_devices")
        if driver_broken or smi_broken:
            return LayerResult("gpu", UNKNOWN, msg("gpu.summary.driver_not_working"), facts)
    where = msg("gpu.phrase.no_pci_device") if inv.pci_known else msg("gpu.phrase.nothing_listed")
    finding = Finding(
        "no_nvidia_gpu",
        severity="fail",
        params={"where": where, "others": others or None},
        evidence=f"display devices: {others}" if others else "no display device was listed",
        fix=Fix(
            steps=(Step("gpu.enable_in_bios"), Step("gpu.cpu_only")),
            links=(Link(msg("link.gpu.cuda_gpus"), CUDA_GPUS_URL),),
        ),
    )
    summary = msg("gpu.summary.no_gpu", others=other_names or None)
    return LayerResult("gpu", FAIL, summary, facts, [finding])


def _summary(inv: Inventory) -> Message:
    parts = [_gpu_summary(g, inv.source) for g in inv.gpus]
    if len(parts) == 1:
        return parts[0]
    return msg("gpu.summary.gpus", count=len(parts), gpus=_semicolon_list(parts))


def _semicolon_list(parts: list[Message]) -> Message:
    """``a; b; c`` (each part holds commas of its own, so not the language's list separator)."""
    if len(parts) == 1:
        return parts[0]
    return msg("gpu.phrase.semicolon_list", first=parts[0], rest=_semicolon_list(parts[1:]))


def _gpu_summary(gpu: dict[str, Any], source: Optional[str]) -> Message:
    name = str(gpu["name"])
    if gpu.get("error"):  # NVML could not open this GPU (lost, reset needed, ...)
        return msg("gpu.summary.gpu_unopenable", name=name, error=gpu["error"])
    shown: Text = name
    if source == "pci":
        # NVML could not answer: no driver, or one this user cannot reach (permissions, hung)
        shown = msg("gpu.phrase.found_on_pci", name=name)
    if gpu["compute_capability"]:
        compute = msg("gpu.phrase.compute", cc=gpu["compute_capability"])
    elif source == "nvml":  # the driver answers, but not for this field (an odd or old GPU)
        compute = msg("gpu.phrase.cc_not_reported")
    else:
        compute = msg("gpu.phrase.cc_unknown_until_driver")
    memory = None
    if gpu.get("memory_gib"):
        gib = gpu["memory_gib"]
        memory = f"{int(gib) if float(gib).is_integer() else gib}"
    return msg("gpu.summary.gpu", name=shown, compute=compute, memory=memory)

