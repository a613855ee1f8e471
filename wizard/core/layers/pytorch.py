"""The pytorch layer (optional): what the environment probe saw of PyTorch in the chosen Python
environment. It runs after the chain only where that environment has PyTorch (:func:`applies`)
and, like the tensorflow layer, reads only ``ctx.probe`` (it never imports torch).

It finds a CPU-only build (with the CUDA wheel the driver can run), a build for a CUDA newer than
the driver supports, and a build without code for the GPU's compute capability; a torch that
fails to import is read with the ``explain`` engine.
"""

from __future__ import annotations

import re
from typing import Any, Optional

from wizard.core import knowledge
from wizard.core.host import ProbeResult
from wizard.core.layers import CheckContext
from wizard.core.layers.tensorflow import env_pip, explain_text
from wizard.core.messages import msg
from wizard.core.model import OK, WARN, Finding, Fix, LayerResult, Link, Step, worst_status

TORCH_INSTALL_URL = "https://pytorch.org/get-started/locally/"


def applies(ctx: CheckContext) -> bool:
    """The chosen environment was probed and has PyTorch (importable or not)."""
    probe = ctx.probe
    return probe is not None and not probe.error and probe.torch is not None


def check(ctx: CheckContext) -> LayerResult:
    probe = ctx.probe if ctx.probe is not None else ProbeResult()
    return torch_layer(ctx, probe.torch or {}, probe)


def torch_layer(ctx: CheckContext, torch: dict[str, Any], probe: ProbeResult) -> LayerResult:
    version = str(torch.get("version") or probe.packages.get("torch") or "?")
    cuda = torch.get("cuda")
    facts = {
        "version": version,
        "cuda": cuda,
        "cudnn": torch.get("cudnn"),
        "available": torch.get("available"),
        "devices": torch.get("devices") or [],
        "arch_list": torch.get("arch_list") or [],
        "error": torch.get("error"),
    }
    findings: list[Finding] = []
    cpu_build = "+cpu" in version or not cuda
    if torch.get("error") and not torch.get("version"):
        text = str(torch["error"]) + "\n" + str(probe.get("log") or "")
        findings += [f for f in explain_text(text, ctx.host.platform.os_kind)
                     if f.code != "numa_or_harmless_warning"][:3]
    elif cpu_build:
        line = env_pip(ctx, _torch_install(ctx, version))
        findings.append(
            Finding(
                "gpu_not_listed_cpu_only_package",
                "fail",
                {"package": "torch", "version": version, "command": line,
                 "framework": "PyTorch"},
                evidence=f"torch {version}: torch.version.cuda is {cuda!r}",
                fix=Fix(
                    steps=(Step("run", {"command": line}),),
                    links=(Link(msg("link.pytorch.install"), TORCH_INSTALL_URL),),
                    commands=(line,),
                    action="pip_install",
                    action_params={"python": ctx.python, "command": line},
                ),
            )
        )
    else:
        findings += _driver_findings(ctx, str(cuda))
        findings += _arch_findings(ctx, torch, version)
    default = OK if torch.get("available") else WARN
    status = worst_status(findings, default) if findings else default
    build = msg("pytorch.phrase.cpu_build") if cpu_build else msg("pytorch.phrase.cuda_build",
                                                                    cuda=cuda)
    summary = msg("pytorch.summary.sees_gpu" if torch.get("available") else
                  "pytorch.summary.no_gpu", version=version, build=build)
    return LayerResult("pytorch", status, summary, facts, findings)


def _torch_install(ctx: CheckContext, version: str) -> str:
    """``pip install torch --index-url .../cuXXX``: the newest CUDA variant of that PyTorch
    release the driver can run (from the compat table)."""
    series = ".".join(version.split("+")[0].split(".")[:2])
    variants: list[str] = []
    try:
        for row in knowledge.compat_data().get("pytorch_cuda", []):
            if str(row.get("torch")) == series:
                variants = list(row.get("wheel_variants") or [])
                break
    except (KeyError, TypeError, AttributeError):
        variants = []
    driver_cuda = _driver_cuda(ctx)
    chosen = None
    for variant in variants:
        cuda = _variant_cuda(variant)
        if driver_cuda is None or (cuda and knowledge.compare_versions(cuda, driver_cuda) <= 0):
            chosen = variant if driver_cuda is not None else (chosen or variant)
    chosen = chosen or (variants[0] if variants else "cu126")
    pin = f"torch=={version.split('+')[0]}" if version and version[0].isdigit() else "torch"
    return f"pip install {pin} --index-url https://download.pytorch.org/whl/{chosen}"


def _variant_cuda(variant: str) -> Optional[str]:
    match = re.match(r"cu(\d+)(\d)$", variant)
    return f"{match.group(1)}.{match.group(2)}" if match else None


def _driver_cuda(ctx: CheckContext) -> Optional[str]:
    """The highest CUDA the driver supports: from the driver layer, else NVML."""
    value = ctx.facts("driver").get("cuda_driver_version")
    if value is None:
        try:
            value = ctx.nvml().get("cuda_driver_version")
        except Exception:  # NVML answers are the host's business; no answer is fine here
            value = None
    if isinstance(value, int) and value > 0:
        return knowledge.driver_cuda_version(value)
    if isinstance(value, str) and re.match(r"^\d+\.\d+", value):
        return value
    return None


def _driver_findings(ctx: CheckContext, cuda: str) -> list[Finding]:
    driver_cuda = _driver_cuda(ctx)
    if driver_cuda is None or knowledge.compare_versions(cuda, driver_cuda) <= 0:
        return []
    os_kind = ctx.host.platform.os_kind
    try:
        requirement = knowledge.min_driver(cuda, os_kind)
        min_version = requirement.toolkit or requirement.compat or "?"
    except (ValueError, KeyError, AttributeError):
        min_version = "?"
    driver = ctx.facts("driver").get("driver_version") or ctx.nvml().get("driver_version") or "?"
    return [
        Finding(
            "driver_too_old",
            "fail",
            {"driver": driver, "driver_cuda": driver_cuda, "cuda": cuda,
             "min_driver": min_version, "framework": "PyTorch"},
            evidence=f"torch.version.cuda = {cuda}; the driver supports CUDA up to {driver_cuda}",
            fix=Fix(links=(Link(msg("link.pytorch.drivers"), knowledge.driver_download_url()),),
                    manual_reason=msg("nofix.driver")),
        )
    ]


def arch_supported(cc: str, arch_list: list[str]) -> bool:
    """Whether a GPU of compute capability ``cc`` ("8.6") can run a build for ``arch_list``
    (``sm_80``..., ``compute_90``): a cubin of the same major and a lower or equal minor, or PTX
    of a lower or equal capability that the driver can compile."""
    parsed = knowledge.try_parse_version(cc)
    if not parsed or len(parsed) < 2:
        return True
    major, minor = parsed[0], parsed[1]
    for arch in arch_list:
        match = re.match(r"(sm|compute)_(\d+?)(\d)[a-z]?$", arch)
        if not match:
            continue
        a_major, a_minor = int(match.group(2)), int(match.group(3))
        if match.group(1) == "sm" and a_major == major and a_minor <= minor:
            return True
        if match.group(1) == "compute" and (a_major, a_minor) <= (major, minor):
            return True
    return False


def _arch_findings(ctx: CheckContext, torch: dict[str, Any], version: str) -> list[Finding]:
    arch_list = [str(a) for a in torch.get("arch_list") or []]
    if not arch_list:
        return []
    gpus = [
        (d.get("name"), ".".join(str(x) for x in d["compute_capability"]))
        for d in torch.get("devices") or [] if d.get("compute_capability")
    ] or [
        (g.get("name"), str(g["compute_capability"]))
        for g in ctx.facts("gpu").get("gpus") or [] if g.get("compute_capability")
    ]
    findings = []
    for name, cc in gpus:
        if arch_supported(cc, arch_list):
            continue
        sm = "sm_" + cc.replace(".", "")
        findings.append(
            Finding(
                "compute_capability_unsupported",
                "fail",
                {"gpu": name, "cc": cc, "framework": "PyTorch", "version": version,
                 "min_cc": _arch_min(arch_list), "max_note": "", "arch_list": arch_list,
                 "advice": msg("pytorch.phrase.build_with_arch", arch=sm)},
                evidence=f"{name} is {sm}; the build has {' '.join(arch_list)}",
                fix=Fix(links=(Link(msg("link.pytorch.install"), TORCH_INSTALL_URL),)),
            )
        )
    return findings


def _arch_min(arch_list: list[str]) -> str:
    values = []
    for arch in arch_list:
        match = re.match(r"(?:sm|compute)_(\d+?)(\d)[a-z]?$", arch)
        if match:
            values.append((int(match.group(1)), int(match.group(2))))
    if not values:
        return "?"
    low = min(values)
    return f"{low[0]}.{low[1]}"
