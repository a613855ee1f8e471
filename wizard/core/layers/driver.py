"""The driver layer: is an NVIDIA driver installed and loaded, how new is it, and can this user
(and this WSL distro or container) reach the GPU through it?

Facts come from NVML first (``ctx.nvml()``), ``nvidia-smi`` only when NVML fails, and the PCI
list to tell "a card without a driver" from "no card". Linux adds the ``/dev/nvidia*`` nodes and
``nvidia-uvm``; WSL2 adds ``/dev/dxg`` and the Windows-provided libraries in ``/usr/lib/wsl/lib``.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any, Optional

from wizard.core import knowledge
from wizard.core.host.nvml import DRIVER_LIBRARY_DIRS
from wizard.core.layers import CheckContext
from wizard.core.layers.gpu import SMI_TIMEOUT, Inventory, inventory
from wizard.core.messages import Message, has, msg
from wizard.core.model import (
    FAIL,
    NOT_APPLICABLE,
    OK,
    UNKNOWN,
    WARN,
    Finding,
    Fix,
    LayerResult,
    Link,
    Step,
    sorted_findings,
)

WSL_GUIDE_URL = "https://docs.nvidia.com/cuda/wsl-user-guide/index.html"
CONTAINER_TOOLKIT_URL = (
    "https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/install-guide.html"
)
LINUX_DRIVER_GUIDE_URL = "https://docs.nvidia.com/datacenter/tesla/driver-installation-guide/"
WSL_LIB = "/usr/lib/wsl/lib"
PROC_NVIDIA_VERSION = "/proc/driver/nvidia/version"
# A libcuda.so.1 or nvidia-smi from a distro driver package shadows the one Windows provides.
LINUX_DRIVER_IN_WSL = (
    "/usr/lib/x86_64-linux-gnu/libcuda.so.1",
    "/usr/lib/aarch64-linux-gnu/libcuda.so.1",
    "/usr/lib64/libcuda.so.1",
    "/usr/bin/nvidia-smi",
)
CONTAINER_CGROUP = re.compile(r"docker|containerd|kubepods|libpod|lxc", re.IGNORECASE)
KERNEL_MODULE = re.compile(r"Kernel Module(?:\s+for\s+\S+)?\s+(\d+(?:\.\d+)+)")
SMI_CUDA = re.compile(r"CUDA Version:\s*(\d+\.\d+)")
NVML_TIMEOUT = re.compile(r"did not answer within (\d+(?:\.\d+)?) s")
WINDOWS_PROBLEM = re.compile(r"code (\d+)(?::|$)")


# -- facts ----------------------------------------------------------------------------------


def _driver_versions(ctx: CheckContext, inv: Inventory) -> tuple[Optional[str], Optional[str],
                                                                 Optional[str]]:
    """``(driver_version, max CUDA the driver supports, source)``."""
    nvml = inv.nvml
    if nvml.get("error") is None and nvml.get("driver_version"):
        cuda_int = nvml.get("cuda_driver_version")
        # 0 or a negative number: NVML could not say (an old driver); not a version
        cuda = knowledge.driver_cuda_version(cuda_int) if cuda_int and cuda_int > 0 else None
        return str(nvml["driver_version"]), cuda, "nvml"
    if inv.smi is not None and inv.smi.ok and inv.smi.driver_version:
        return inv.smi.driver_version, _smi_banner_cuda(ctx, inv), "nvidia-smi"
    return None, None, None


def _smi_banner_cuda(ctx: CheckContext, inv: Inventory) -> Optional[str]:
    """The "CUDA Version: 12.2" of nvidia-smi's banner (only used when NVML failed)."""
    assert inv.smi is not None
    result = ctx.host.run([inv.smi.program], timeout=20.0)
    match = SMI_CUDA.search(result.stdout) if result.ok else None
    return match.group(1) if match else None


def _requirement(ctx: CheckContext) -> Optional[knowledge.DriverRequirement]:
    cuda = ctx.target.cuda
    if not cuda:
        return None
    try:
        return knowledge.min_driver(cuda, ctx.host.platform.os_kind)
    except (ValueError, KeyError):
        return None


def _kernel_module_version(ctx: CheckContext) -> Optional[str]:
    text = ctx.host.read_text(PROC_NVIDIA_VERSION) or ""
    match = KERNEL_MODULE.search(text)
    return match.group(1) if match else None


def _device_nodes(ctx: CheckContext) -> list[str]:
    return ctx.host.glob("/dev", "nvidia*")


def _driver_folder(ctx: CheckContext) -> Optional[str]:
    """The folder off the loader's default path that holds the driver's libcuda.so.1 (NixOS:
    /run/opengl-driver/lib), where there is one: programs not built there do not search it."""
    return next((folder for folder in DRIVER_LIBRARY_DIRS
                 if ctx.host.exists(f"{folder}/libcuda.so.1")), None)


def _in_container(ctx: CheckContext) -> bool:
    host = ctx.host
    if host.exists("/.dockerenv") or host.exists("/run/.containerenv"):
        return True
    return bool(CONTAINER_CGROUP.search(host.read_text("/proc/1/cgroup") or ""))


def _probe_saw_gpu(ctx: CheckContext) -> bool:
    tf = (ctx.probe.tensorflow if ctx.probe else None) or {}
    torch = (ctx.probe.torch if ctx.probe else None) or {}
    return bool(tf.get("gpus")) or bool(torch.get("available"))


def _is_ubuntu(ctx: CheckContext) -> bool:
    return "ubuntu" in (ctx.host.platform.distro or "").lower()


def _gpu_names(inv: Inventory) -> str | Message:
    names = [str(g.get("name")) for g in inv.gpus] or [str(d.get("name")) for d in inv.nvidia_pci]
    return ", ".join(names) or msg("driver.phrase.your_gpu")


def _download_link() -> Link:
    return Link(msg("link.driver.downloads"), knowledge.driver_download_url())


def _nvml_evidence(inv: Inventory) -> str:
    parts = []
    if inv.nvml_error:
        detail = inv.nvml.get("detail")
        parts.append(f"NVML: {inv.nvml_error}" + (f" ({detail})" if detail else ""))
    if inv.smi is not None and not inv.smi.ok:
        parts.append(f"{inv.smi.program}: {inv.smi.message or inv.smi.status}")
    return "; ".join(parts)


# -- the layer -------------------------------------------------------------------------------


def check(ctx: CheckContext) -> LayerResult:
    inv = inventory(ctx)
    platform = ctx.host.platform
    linux_native = platform.system == "linux" and not platform.wsl
    driver, driver_cuda, source = _driver_versions(ctx, inv)
    requirement = _requirement(ctx)
    facts: dict[str, Any] = {
        "driver_version": driver,
        "cuda_driver_version": driver_cuda,
        "source": source,
        "min_driver": _requirement_fact(requirement),
        "nvml_error": inv.nvml_error,
        "nvml_detail": inv.nvml.get("detail"),
    }
    if inv.smi is not None:
        facts["nvidia_smi"] = inv.smi.to_fact()
    if linux_native:
        facts["kernel_module_version"] = _kernel_module_version(ctx)
        facts["device_nodes"] = _device_nodes(ctx)
        facts["in_container"] = _in_container(ctx)
        facts["driver_folder"] = _driver_folder(ctx)
    findings: list[Finding] = []
    if platform.wsl:
        findings += _wsl_findings(ctx, inv, working=driver is not None)
    elif linux_native and driver is None:
        findings += _container_findings(ctx, inv, facts)
    if driver is None:
        if not findings:
            no_driver = _no_driver_findings(ctx, inv, requirement, facts)
            if no_driver is None:
                return LayerResult("driver", NOT_APPLICABLE, msg("driver.summary.no_gpu"), facts)
            findings += no_driver
    else:
        findings += _working_driver_findings(ctx, inv, driver, driver_cuda, requirement)
    return LayerResult("driver", _status(findings, driver), _summary(facts, findings),
                       facts, findings)


def _requirement_fact(requirement: Optional[knowledge.DriverRequirement]) -> Optional[dict]:
    if requirement is None:
        return None
    return {
        "cuda": requirement.cuda,
        "toolkit": requirement.toolkit,
        "compat": requirement.compat,
        "source": requirement.source,
    }


def _status(findings: list[Finding], driver: Optional[str]) -> str:
    if any(f.severity == "fail" for f in findings):
        return FAIL
    if any(f.severity == "warn" for f in findings):
        return WARN
    return OK if driver else UNKNOWN


def _summary(facts: dict[str, Any], findings: list[Finding]) -> Message:
    worst = next((f for f in sorted_findings(findings) if f.severity != "info"), None)
    problem = _problem_summary(worst) if worst is not None else None
    if not facts["driver_version"]:
        return problem or msg("driver.summary.unknown")
    version = msg("driver.summary.version", driver=facts["driver_version"],
                  driver_cuda=facts["cuda_driver_version"])
    requirement = facts["min_driver"]
    minimum = requirement and (requirement["toolkit"] or requirement["compat"])
    cuda = requirement["cuda"] if requirement else None
    if worst is not None and worst.code == "driver_too_old":
        if worst.severity == "warn":  # below the toolkit's floor, above the compat one
            return msg("driver.summary.old_but_compatible", version=version, cuda=cuda,
                       min_driver=minimum)
        return msg("driver.summary.too_old", version=version, cuda=cuda, min_driver=minimum)
    return msg("driver.summary.working", version=version, cuda=cuda if minimum else None,
               min_driver=minimum or None, problem=problem)


def _problem_summary(finding: Finding) -> Message:
    """A finding's message as a summary's clause (the same words without the full stop)."""
    summary_id = f"driver.summary.{finding.code}"
    if has(summary_id):
        return Message(summary_id, finding.params)
    return Message(f"finding.{finding.code}.title")


def display_name(name: str) -> str:
    """``"NVIDIA device 10de:2684"`` -> ``"10de:2684"``, ``"NVIDIA GA102 [GeForce RTX 3090]"`` ->
    ``"GA102 [GeForce RTX 3090]"``: the messages already say "NVIDIA device"."""
    return re.sub(r"^NVIDIA\s+(device\s+)?", "", name.strip())


# -- no working driver -----------------------------------------------------------------------


def _no_driver_findings(ctx: CheckContext, inv: Inventory,
                        requirement: Optional[knowledge.DriverRequirement],
                        facts: dict[str, Any]) -> Optional[list[Finding]]:
    """Findings when neither NVML nor nvidia-smi reports a driver; None: no NVIDIA GPU at all."""
    kind = inv.nvml_error
    smi_kind = inv.smi.status if inv.smi is not None else None
    if kind == "driver_library_mismatch" or smi_kind == "driver_library_mismatch":
        return [_mismatch_finding(ctx, inv, facts)]
    if kind == "no_permission" or smi_kind == "no_permission":
        if ctx.host.is_windows:
            return [_windows_permission_finding(inv)]
        denied = _denied_nodes(ctx) or ["/dev/nvidiactl"]
        return [_permission_finding(ctx, denied, _nvml_evidence(inv))]
    nvidia_pci = inv.nvidia_pci
    if nvidia_pci:
        bound = [d for d in nvidia_pci if _served_by_nvidia(d)]
        if bound:
            detail = _served_detail(ctx, bound[0], kind, inv)
            if _driver_hung(inv):
                return [_hung_finding(ctx, inv, requirement, detail)]
            return [_not_running_finding(ctx, inv, requirement, detail)]
        return [_without_driver_finding(ctx, inv, nvidia_pci, requirement)]
    if inv.pci_known:
        return None  # the PCI list is known and holds no NVIDIA device
    detail = _not_running_detail(inv)
    return [_not_running_finding(ctx, inv, requirement, detail)]


def _served_by_nvidia(device: dict[str, Any]) -> bool:
    """The NVIDIA kernel driver is bound to the device (Linux ``nvidia``; Windows ``nvlddmkm``
    without a device-manager problem)."""
    driver = str(device.get("driver") or "").lower()
    return driver.startswith("nvidia") or (driver == "nvlddmkm" and not device.get("problem"))


def _served_detail(ctx: CheckContext, device: dict[str, Any], kind: Optional[str],
                   inv: Inventory) -> Message:
    windows = ctx.host.platform.system == "windows"
    served = (msg("driver.phrase.served_windows", service="nvlddmkm",
                  gpu=device.get("name")) if windows
              else msg("driver.phrase.served_linux", module=device.get("driver"),
                       gpu=device.get("name")))
    if kind == "library_not_found":
        library = "nvml.dll" if windows else "libnvidia-ml.so.1"
        return msg("driver.phrase.served_without_nvml", served=served, file=library)
    return msg("driver.phrase.served_not_answering", served=served,
               reason=_not_running_detail(inv))


def _nvml_failure(inv: Inventory) -> Message:
    """What NVML said: its error text as it wrote it, or the kind of error."""
    detail = str(inv.nvml.get("detail") or "").rstrip(".")
    timeout = NVML_TIMEOUT.search(detail)
    if timeout:  # the wizard's own "did not answer" (a hung driver)
        return msg("driver.phrase.nvml_timed_out", timeout=timeout.group(1))
    if detail:
        return msg("driver.phrase.nvml_failed", evidence=detail)
    return msg("driver.phrase.nvml_reports", kind=inv.nvml_error)


def _not_running_detail(inv: Inventory) -> Message:
    smi = inv.smi
    nvml = _nvml_failure(inv)
    if smi is None or smi.status == "not_found":
        if inv.nvml_error == "library_not_found":
            return msg("driver.phrase.nothing_answers")
        return msg("driver.phrase.no_smi", nvml=nvml)
    if smi.status == "timed_out":
        return msg("driver.phrase.smi_timed_out", timeout=f"{SMI_TIMEOUT:g}", nvml=nvml)
    return msg("driver.phrase.smi_failed", evidence=smi.message or smi.status, nvml=nvml)


def _driver_params(ctx: CheckContext, inv: Inventory,
                   requirement: Optional[knowledge.DriverRequirement]) -> dict[str, Any]:
    return {
        "gpu": _gpu_names(inv),
        "min_driver": (requirement.minimum if requirement else None)
        or msg("driver.phrase.latest_driver"),
        "cuda": ctx.target.cuda or msg("driver.phrase.your_framework"),
    }


def _install_driver_fix(ctx: CheckContext, params: dict[str, Any],
                        extra_steps: tuple[Step, ...] = (),
                        extra_commands: tuple[str, ...] = ()) -> Fix:
    """Download page, and on Ubuntu the packaged installer; then a restart."""
    host = ctx.host
    steps: list[Step] = [Step("install_driver", params)]
    commands: list[str] = []
    links = [_download_link()]
    if host.platform.wsl:
        steps = [Step("driver.install_on_windows_for_wsl"), Step("driver.wsl_shutdown")]
        links.append(Link(msg("link.driver.wsl_guide"), WSL_GUIDE_URL))
    elif host.platform.system == "linux":
        if _is_ubuntu(ctx):
            steps.append(Step("run", {"command": "sudo ubuntu-drivers install"}))
            commands.append("sudo ubuntu-drivers install")
        else:
            steps.append(Step("driver.install_from_distro"))
        links.append(Link(msg("link.driver.linux_guide"), LINUX_DRIVER_GUIDE_URL))
        steps += list(extra_steps)
        commands += extra_commands
        steps.append(Step("restart", {}))
    else:
        steps += list(extra_steps)
        commands += extra_commands
        steps.append(Step("restart", {}))
    return Fix(steps=tuple(steps), links=tuple(links), commands=tuple(commands))


def _without_driver_finding(ctx: CheckContext, inv: Inventory, devices: list[dict[str, Any]],
                            requirement: Optional[knowledge.DriverRequirement],
                            problem: Optional[Message] = None) -> Finding:
    device = devices[0]
    params = _driver_params(ctx, inv, requirement)
    params["gpu"] = ", ".join(display_name(str(d.get("name"))) for d in devices)
    params["problem"] = problem or _pci_problem(ctx, device)
    extra: tuple[Step, ...] = ()
    commands: tuple[str, ...] = ()
    if device.get("driver") == "nouveau":
        extra = (Step("driver.nouveau_blacklisted"),)
    elif _module_failed_to_load(ctx, inv):
        extra, commands = _MODULE_LOAD_STEPS, _MODULE_LOAD_COMMANDS
    evidence = "; ".join(
        filter(None, [f"PCI {d.get('vendor_id')}:{d.get('device_id')} {d.get('name')}"
                      f" driver={d.get('driver') or 'none'}"
                      + (f" problem={d.get('problem')}" if d.get("problem") else "")
                      for d in devices] + [_nvml_evidence(inv)])
    )
    fix = _install_driver_fix(ctx, params, extra, commands)
    unnamed = [d for d in devices if str(d.get("name", "")).startswith("NVIDIA device ")]
    if unnamed:  # Windows without a driver only knows the PCI id: help find the model
        device_id = str(unnamed[0].get("device_id", "")).upper()
        fix = replace(fix, links=fix.links + (
            Link(msg("link.driver.which_gpu", device_id=device_id),
                 f"https://devicehunt.com/view/type/pci/vendor/10DE/device/{device_id}"),
        ))
    return Finding("gpu_without_driver", "fail", params, evidence, fix)


_MODULE_LOAD_STEPS = (
    Step("driver.load_module",
         {"command": "sudo modprobe nvidia", "status_command": "dkms status"}),
)
_MODULE_LOAD_COMMANDS = ("sudo modprobe nvidia", "mokutil --sb-state", "dkms status")


def _module_failed_to_load(ctx: CheckContext, inv: Inventory) -> bool:
    """Linux: the user-space driver is there (NVML or nvidia-smi ran) but the kernel module is
    not loaded: Secure Boot, a DKMS build missing for the running kernel, or nouveau."""
    platform = ctx.host.platform
    if platform.system != "linux" or platform.wsl:
        return False
    smi_kind = inv.smi.status if inv.smi is not None else None
    return "driver_not_loaded" in (inv.nvml_error, smi_kind)


def _pci_problem(ctx: CheckContext, device: dict[str, Any]) -> Optional[Message]:
    if device.get("problem"):
        return _device_manager_problem(str(device["problem"]))
    driver = str(device.get("driver") or "")
    if driver == "nouveau":
        return msg("driver.phrase.nouveau_loaded")
    if driver == "vfio-pci":
        return msg("driver.phrase.vfio_bound")
    if ctx.host.platform.system == "windows" and driver.lower() == "basicdisplay":
        return msg("driver.phrase.basic_display")
    if not driver and ctx.host.platform.system == "linux":
        return msg("driver.phrase.no_kernel_driver")
    return None


def _device_manager_problem(problem: str) -> Message:
    """Windows Device Manager's problem ("code 28: drivers not installed") in the catalogue's
    words; a code the catalogue lacks keeps its number."""
    match = WINDOWS_PROBLEM.match(problem)
    code = match.group(1) if match else None
    if code and has(f"driver.device_problem.code_{code}"):
        return msg(f"driver.device_problem.code_{code}")
    return msg("driver.device_problem.other", code=code or problem)


def _not_running_finding(ctx: CheckContext, inv: Inventory,
                         requirement: Optional[knowledge.DriverRequirement], detail: str
                         ) -> Finding:
    params = _driver_params(ctx, inv, requirement)
    params["detail"] = detail
    extra: tuple[Step, ...] = ()
    commands: tuple[str, ...] = ()
    if ctx.host.platform.system == "linux" and not ctx.host.platform.wsl:
        extra, commands = _MODULE_LOAD_STEPS, _MODULE_LOAD_COMMANDS
    evidence = _nvml_evidence(inv) or None
    return Finding("no_driver_or_nvidia_smi_missing", "fail", params, evidence,
                   _install_driver_fix(ctx, params, extra, commands))


def _driver_hung(inv: Inventory) -> bool:
    """nvidia-smi or NVML did not answer at all (rather than failing): a hung driver, often a
    GPU that fell off the bus (Xid 79)."""
    smi_hung = inv.smi is not None and inv.smi.status == "timed_out"
    return smi_hung or "did not answer" in str(inv.nvml.get("detail") or "")


def _hung_finding(ctx: CheckContext, inv: Inventory,
                  requirement: Optional[knowledge.DriverRequirement], detail: Message) -> Finding:
    """The kernel module serves the GPU but does not answer: installing a driver is not the
    fix, a restart is (then the kernel log says why). The params pick the "loaded but does not
    answer" variants of the code's message and fix (``what`` instead of ``detail``, no
    ``min_driver``)."""
    params = {"gpu": _gpu_names(inv), "what": detail}
    # (no "dmesg" command: a report lists commands after the steps, and the restart clears it)
    return Finding(
        "no_driver_or_nvidia_smi_missing", "fail", params, _nvml_evidence(inv) or None,
        Fix(steps=(Step("restart", {}),), links=(_download_link(),)),
    )


def _mismatch_finding(ctx: CheckContext, inv: Inventory, facts: dict[str, Any]) -> Finding:
    module = facts.get("kernel_module_version")
    evidence = _nvml_evidence(inv)
    if module:
        evidence += f"; loaded kernel module: {module}"
    steps = [Step("restart", {})]
    if ctx.host.platform.system == "linux":
        steps.append(Step("driver.reinstall_if_mismatch_persists",
                          {"command": f"cat {PROC_NVIDIA_VERSION}"}))
    else:
        steps.append(Step("driver.reinstall_clean"))
    return Finding(
        "nvml_driver_library_mismatch", "fail", {"kernel_module": module}, evidence,
        Fix(steps=tuple(steps), links=(_download_link(),)),
    )


def _denied_nodes(ctx: CheckContext) -> list[str]:
    host = ctx.host
    if host.platform.system != "linux" or host.platform.wsl:
        return []
    nodes = ["/dev/nvidiactl", "/dev/nvidia-uvm"] + host.glob("/dev", "nvidia[0-9]*")
    return [n for n in nodes if host.exists(n) and not host.can_open(n)]


def _permission_finding(ctx: CheckContext, denied: list[str], evidence: str) -> Finding:
    device = ", ".join(denied)
    commands = ("ls -l /dev/nvidia*", "sudo usermod -aG video $USER")
    return Finding(
        "permission_denied_dev_nvidia", "fail", {"device": device},
        evidence or f"cannot open {device} for reading and writing",
        Fix(
            steps=(
                Step("run", {"command": "ls -l /dev/nvidia*"}),
                Step("driver.add_user_to_group", {"path": "/proc/driver/nvidia/params"}),
                Step("run", {"command": "sudo usermod -aG video $USER"}),
                Step("driver.log_in_again"),
            ),
            commands=commands,
        ),
    )


def _windows_permission_finding(inv: Inventory) -> Finding:
    """NVML refuses this Windows session (a service account, some remote sessions)."""
    device = msg("driver.phrase.gpu_through_nvml")
    return Finding(
        "permission_denied_dev_nvidia", "fail", {"device": device}, _nvml_evidence(inv),
        Fix(
            steps=(Step("driver.run_as_desktop_user"), Step("restart", {})),
            links=(_download_link(),),
        ),
    )


# -- a working driver ------------------------------------------------------------------------


def _working_driver_findings(ctx: CheckContext, inv: Inventory, driver: str,
                             driver_cuda: Optional[str],
                             requirement: Optional[knowledge.DriverRequirement]) -> list[Finding]:
    platform = ctx.host.platform
    findings: list[Finding] = []
    if platform.system == "linux" and not platform.wsl:
        denied = _denied_nodes(ctx)
        if denied:
            findings.append(_permission_finding(ctx, denied, ""))
        uvm = _uvm_finding(ctx)
        if uvm:
            findings.append(uvm)
    if requirement is not None:
        too_old = _too_old_finding(ctx, inv, driver, driver_cuda, requirement)
        if too_old:
            findings.append(too_old)
    if inv.source == "pci" and inv.nvidia_pci:
        # the driver runs but lists none of the NVIDIA cards on the bus
        problem = msg("driver.phrase.lists_no_gpu", driver=driver)
        findings.append(_without_driver_finding(ctx, inv, inv.nvidia_pci, requirement, problem))
    return findings


def _uvm_finding(ctx: CheckContext) -> Optional[Finding]:
    host = ctx.host
    if host.exists("/dev/nvidia-uvm") or _probe_saw_gpu(ctx):
        return None
    modules = host.read_text("/proc/modules") or ""
    loaded = any(line.split(" ", 1)[0] == "nvidia_uvm" for line in modules.splitlines())
    on_demand = host.which("nvidia-modprobe") is not None
    severity = "warn" if on_demand else "fail"
    commands = ["sudo nvidia-modprobe -u -c=0"] if loaded else ["sudo modprobe nvidia-uvm"]
    commands.append("echo nvidia-uvm | sudo tee /etc/modules-load.d/nvidia-uvm.conf")
    note = Step("driver.uvm_created_on_demand" if on_demand else "driver.load_uvm_now")
    evidence = "/dev/nvidia-uvm does not exist; nvidia_uvm module " + (
        "loaded" if loaded else "not in /proc/modules"
    )
    return Finding(
        "nvidia_uvm_not_loaded", severity, {"module_loaded": loaded}, evidence,
        Fix(
            steps=(note,)
            + tuple(Step("run", {"command": c}) for c in commands),
            commands=tuple(commands),
        ),
    )


def _major(version: str) -> int:
    parsed = knowledge.parse_version(version)
    return parsed[0] if parsed else 0


def _too_old_finding(ctx: CheckContext, inv: Inventory, driver: str, driver_cuda: Optional[str],
                     requirement: knowledge.DriverRequirement) -> Optional[Finding]:
    cuda = requirement.cuda
    compare = knowledge.compare_versions
    try:
        below_compat = bool(requirement.compat) and compare(driver, requirement.compat) < 0
        below_toolkit = bool(requirement.toolkit) and compare(driver, requirement.toolkit) < 0
    except ValueError:  # a driver string that is not a version: nothing to compare
        return None
    major_short = bool(driver_cuda) and _major(driver_cuda) < _major(cuda)
    minor_short = bool(driver_cuda) and compare(driver_cuda, cuda) < 0
    no_compat = requirement.compat is None and below_toolkit  # CUDA 10 and older
    major = _major(cuda)
    note: Optional[Step] = None
    if below_compat or major_short or no_compat:
        severity = "fail"
        if below_compat and requirement.compat != requirement.minimum:
            note = Step("driver.below_compat_floor",
                        {"major": major, "compat": requirement.compat})
        elif major_short and not below_compat:
            note = Step("driver.branch_too_old", {"driver_cuda": driver_cuda, "major": major})
    elif below_toolkit or minor_short:
        severity = "warn"
        note = Step("driver.minor_version_compat", {"major": major, "compat": requirement.compat})
    else:
        return None
    params = _driver_params(ctx, inv, requirement)
    params.update({
        "driver": driver,
        "driver_cuda": driver_cuda or msg("driver.phrase.unknown_version"),
        "cuda": cuda,
        "min_driver": requirement.minimum,
        "compat": requirement.compat,
        "note": note.message if note else "",
    })
    evidence = f"driver {driver}" + (f", CUDA {driver_cuda}" if driver_cuda else "") + (
        f"; CUDA {cuda} needs {requirement.toolkit or '?'} (toolkit)"
        + (f", {requirement.compat} (minor-version compatibility)" if requirement.compat else "")
    )
    fix = _install_driver_fix(ctx, params)
    if note:  # why it fails or only warns comes first, before the steps that fix it
        fix = replace(fix, steps=(note, *fix.steps))
    return Finding("driver_too_old", severity, params, evidence, fix)


# -- WSL and containers ----------------------------------------------------------------------


def _wsl_findings(ctx: CheckContext, inv: Inventory, working: bool) -> list[Finding]:
    host = ctx.host
    distro = host.getenv("WSL_DISTRO_NAME") or "<distro>"
    if host.platform.wsl == 1:
        return [_wsl_finding(
            msg("driver.phrase.wsl1"),
            "fail", f"platform: WSL 1 ({host.platform.release})",
            commands=(f"wsl --set-version {distro} 2", "wsl --update"),
        )]
    if not host.exists("/dev/dxg"):
        return [_wsl_finding(
            msg("driver.phrase.no_dxg", device="/dev/dxg"),
            "fail", "/dev/dxg does not exist",
            commands=("wsl --update", "wsl --shutdown"),
        )]
    findings = []
    libcuda = f"{WSL_LIB}/libcuda.so.1"
    if not host.exists(libcuda):
        findings.append(_wsl_finding(
            msg("driver.phrase.no_wsl_libcuda", path=libcuda),
            "fail", f"{WSL_LIB}: {', '.join(host.listdir(WSL_LIB)) or 'empty or absent'}",
            commands=("wsl --update", "wsl --shutdown"),
        ))
    shadows = [p for p in (PROC_NVIDIA_VERSION, *LINUX_DRIVER_IN_WSL) if host.exists(p)]
    if shadows:
        findings.append(_linux_driver_in_wsl(ctx, shadows, "warn" if working else "fail"))
    if not findings and not working:
        findings.append(_wsl_finding(
            msg("driver.phrase.wsl_nvml_unreachable", device="/dev/dxg", path=libcuda),
            "fail", _nvml_evidence(inv) or None, commands=("wsl --update", "wsl --shutdown"),
        ))
    return findings


def _wsl_finding(detail: Message, severity: str, evidence: Optional[str],
                 commands: tuple[str, ...] = (), steps: tuple[Step, ...] = ()) -> Finding:
    """``steps`` replace the default ones and run ``commands`` themselves, where they fit."""
    default_steps = (
        Step("driver.install_on_windows"),
        Step("driver.run_in_windows_terminal"),
        *(Step("run", {"command": c}) for c in commands),
    )
    return Finding(
        "wsl_gpu_missing", severity, {"detail": detail}, evidence,
        Fix(
            steps=steps or default_steps,
            links=(Link(msg("link.driver.wsl_guide"), WSL_GUIDE_URL), _download_link()),
            commands=commands,
        ),
    )


def _linux_driver_in_wsl(ctx: CheckContext, shadows: list[str], severity: str) -> Finding:
    commands: tuple[str, ...] = ()
    if any(name in (ctx.host.platform.distro or "").lower() for name in ("ubuntu", "debian")):
        commands = ("sudo apt-get remove --purge 'nvidia-driver-*' 'libnvidia-compute-*' "
                    "'nvidia-utils-*'",)
    steps = (
        Step("driver.remove_linux_driver"),
        *(Step("run", {"command": c}) for c in commands),
        Step("driver.wsl_shutdown"),
    )
    return _wsl_finding(
        msg("driver.phrase.linux_driver_in_wsl"),
        severity, "found: " + ", ".join(shadows), commands=commands, steps=steps,
    )


def _container_findings(ctx: CheckContext, inv: Inventory, facts: dict[str, Any]
                        ) -> list[Finding]:
    if not facts.get("in_container") or (inv.pci_known and not inv.nvidia_pci):
        return []  # not a container, or the host has no NVIDIA GPU to pass through
    nodes = facts.get("device_nodes") or []
    if not nodes:
        detail = msg("driver.phrase.container_no_devices")
    elif inv.nvml_error == "library_not_found":
        detail = msg("driver.phrase.container_no_libraries",
                     variable="NVIDIA_DRIVER_CAPABILITIES", value="compute,utility")
    else:
        return []
    command = "docker run --gpus all <image>"
    return [Finding(
        "container_no_gpu_passthrough", "fail", {"detail": detail},
        _nvml_evidence(inv) or None,
        Fix(
            steps=(
                Step("driver.container_host_setup"),
                Step("run", {"command": command}),
                Step("driver.kubernetes_gpu",
                     {"resource": "nvidia.com/gpu", "plugin": "NVIDIA device plugin"}),
            ),
            links=(Link(msg("link.driver.container_toolkit"), CONTAINER_TOOLKIT_URL),),
            commands=(command,),
        ),
    )]
