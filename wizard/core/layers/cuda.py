"""The cuda layer: is the CUDA runtime the target needs installed, and does the loader find it?

Discovery is :mod:`wizard.core.cuda_installs` (shared with the cudnn layer through
``ctx.cuda_discovery``). What "right" means:

* target without GPU support (TF >= 2.11 on native Windows): nothing to check (``n/a``);
* target with CUDA from pip wheels (``tensorflow[and-cuda]`` on Linux/WSL2): no system toolkit is
  needed; the wheels in the chosen environment are checked when an environment is known;
* otherwise a toolkit (or conda ``cudatoolkit``) whose runtime the loader finds first: the same
  major.minor as the target is ``ok``; another minor of the same major is a warning (every 11.x
  ships ``cudart64_110.dll`` / ``libcudart.so.11.0``, every 12.x ``cudart64_12.dll`` /
  ``libcudart.so.12``, so TF loads it, but it was not tested with it); an older minor or another
  major cannot serve the build.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Optional

from wizard.core import cuda_installs, knowledge
from wizard.core.cuda_installs import CudaDiscovery, CudaInstall, version_tuple
from wizard.core.layers import CheckContext, env_conda_install, env_pip
from wizard.core.messages import msg
from wizard.core.model import (
    NOT_APPLICABLE,
    OK,
    Finding,
    Fix,
    LayerResult,
    Link,
    Step,
    Target,
    worst_status,
)

TF_PIP_URL = knowledge.TF_PIP_URL
TF_WINDOWS_URL = "https://www.tensorflow.org/install/pip#windows-native"
CUDA_WINDOWS_GUIDE = "https://docs.nvidia.com/cuda/cuda-installation-guide-microsoft-windows/"
CUDA_LINUX_GUIDE = "https://docs.nvidia.com/cuda/cuda-installation-guide-linux/"
CUDA_WSL_GUIDE = "https://docs.nvidia.com/cuda/wsl-user-guide/index.html"


def discovery(ctx: CheckContext) -> CudaDiscovery:
    """The CUDA discovery for this check, computed once and shared with the cudnn layer."""
    if ctx.cuda_discovery is None:
        ctx.cuda_discovery = cuda_installs.discover(ctx.host, ctx.python, ctx.probe)
    return ctx.cuda_discovery


def check(ctx: CheckContext) -> LayerResult:
    found = discovery(ctx)
    facts = found.facts()
    target = ctx.target
    facts["needed"] = _needed(ctx)
    if target.cuda:
        first = found.loader_first(target.cuda)
        facts["loader_first_needed"] = (
            {"path": first[0].path, "version": first[0].version, "dir": first[1].path,
             "origin": first[1].origin, "file": first[2]} if first else None
        )
    if not target.gpu_supported:
        return LayerResult(
            "cuda", NOT_APPLICABLE,
            msg("cuda.summary.no_windows_gpu_build", tensorflow=target.tensorflow), facts,
        )
    if not target.cuda:
        return LayerResult("cuda", NOT_APPLICABLE,
                           msg("cuda.summary.no_cuda_named", tensorflow=target.tensorflow), facts)
    if target.pip_cuda and not ctx.host.is_windows:
        result = _check_pip(ctx, found, facts)
    else:
        result = _check_toolkit(ctx, found, facts)
    return without_gpu(ctx, result)


_NOT_NEEDED_WITHOUT_GPU = frozenset({"cuda_not_installed", "cudart_missing", "cudnn_missing"})


def without_gpu(ctx: CheckContext, result: LayerResult) -> LayerResult:
    """With no NVIDIA GPU at all (the gpu layer says so), the layer is not applicable and
    nothing in it fails. A "missing" finding would say what is false there ("TensorFlow needs
    CUDA 12.5": not without a GPU) and offer installs that contradict the gpu layer's CPU-only
    advice, so those are left out (the summary and the facts still say what was found); any
    other finding stays, as ``info``, without fix steps."""
    gpu = ctx.results.get("gpu")
    if gpu is None or not any(f.code == "no_nvidia_gpu" for f in gpu.findings):
        return result
    findings = [replace(f, severity="info", fix=Fix()) for f in result.findings
                if f.code not in _NOT_NEEDED_WITHOUT_GPU]
    return LayerResult(result.layer, NOT_APPLICABLE,
                       msg("cuda.summary.without_gpu", summary=result.summary),
                       result.facts, findings)


def _needed(ctx: CheckContext) -> Optional[dict[str, Any]]:
    cuda = ctx.target.cuda
    if not cuda:
        return None
    return {
        "cuda": cuda,
        "file": cuda_installs.cudart_file_name(cuda, ctx.host.is_windows),
        "pip_cuda": ctx.target.pip_cuda,
    }


# ------------------------------------------------------------------------------------------
# tensorflow[and-cuda]: the runtime comes from pip wheels
# ------------------------------------------------------------------------------------------


def _check_pip(ctx: CheckContext, found: CudaDiscovery, facts: dict[str, Any]) -> LayerResult:
    target = ctx.target
    env = found.env
    if env is None:
        return LayerResult(
            "cuda", NOT_APPLICABLE,
            msg("cuda.summary.pip_brings_cuda", tensorflow=target.tensorflow, cuda=target.cuda),
            facts,
        )
    wheel = found.pip_runtime()
    command = _pip_command(ctx)
    severity = "fail" if env.tensorflow else "info"
    findings: list[Finding] = []
    if wheel is None:
        conda_ok = next(
            (i for i in found.installs if i.kind == "conda" and i.provides(target.cuda)), None
        )
        if conda_ok is not None:
            summary = msg("cuda.summary.from_conda", version=conda_ok.version,
                          prefix=env.prefix)
            return LayerResult("cuda", NOT_APPLICABLE, summary, facts)
        system = found.loader_first(str(target.cuda))
        if system is not None:
            # No wheels, but a system toolkit on the library path serves the build.
            install, entry, _name = system
            findings = _version_findings(ctx, found, install, entry.path)
            summary = msg("cuda.summary.system_without_wheels", version=install.version or "?",
                          dir=entry.path, origin=entry.origin, prefix=env.prefix)
            return LayerResult("cuda", worst_status(findings, OK), summary, facts, findings)
        findings.append(Finding(
            "cuda_not_installed", severity,
            params={"tensorflow": target.tensorflow, "cuda": target.cuda, "install": command,
                    "where": env.prefix},
            evidence=f"no nvidia-cuda-runtime wheel in {', '.join(env.site_packages) or env.prefix}"
            + (f" (TensorFlow {env.tensorflow} is installed without [and-cuda])"
               if env.tensorflow else ""),
            fix=Fix(steps=(Step("run", {"command": command}),),
                    links=(Link(msg("link.cuda.tf_pip"), TF_PIP_URL),), commands=(command,)),
        ))
        summary = msg("cuda.summary.no_wheels", prefix=env.prefix)
        return LayerResult("cuda", worst_status(findings, NOT_APPLICABLE), summary, facts, findings)
    if not wheel.provides(target.cuda):
        findings.append(Finding(
            "cuda_version_mismatch", severity,
            params={"found": wheel.version, "tensorflow": target.tensorflow, "cuda": target.cuda,
                    "path": wheel.path},
            evidence=f"{wheel.package or 'CUDA wheel'} {wheel.version} in {wheel.lib_dir}",
            fix=Fix(steps=(Step("run", {"command": command}),),
                    links=(Link(msg("link.cuda.tf_pip"), TF_PIP_URL),),
                    commands=(command,)),
        ))
    else:
        findings.extend(_library_path_shadows(ctx, found, wheel))
    summary = msg("cuda.summary.from_wheels", version=wheel.version,
                  package=wheel.package or None, prefix=env.prefix)
    return LayerResult("cuda", worst_status(findings, NOT_APPLICABLE), summary, facts, findings)


def _library_path_shadows(ctx: CheckContext, found: CudaDiscovery, wheel: CudaInstall
                          ) -> list[Finding]:
    """LD_LIBRARY_PATH comes before the TF wheel's RUNPATH: an older toolkit of the same major
    there is the runtime TF really opens."""
    cuda = str(ctx.target.cuda)
    first = found.loader_first(cuda)
    if first is None or first[0] is wheel:
        return []
    install, entry, _name = first
    have = version_tuple(install.version)
    want = version_tuple(wheel.version) or version_tuple(cuda) or (0, 0)
    if have is None or len(have) < 2 or have[:2] >= want[:2]:
        return []
    wheel_dir = wheel.lib_dir or wheel.path
    return [Finding(
        "cuda_version_mismatch", "warn",
        params={"found": install.version, "tensorflow": ctx.target.tensorflow, "cuda": cuda,
                "path": install.path},
        evidence=(f"{entry.path} ({entry.origin}) holds CUDA {install.version}, which the loader "
                  f"opens before the wheel's CUDA {wheel.version} in {wheel_dir}"),
        fix=Fix(steps=(Step("move_path_entry", {"dir": wheel_dir, "other": entry.path,
                                                "variable": "LD_LIBRARY_PATH"}),
                       Step("new_terminal")),
                links=(Link(msg("link.cuda.tf_pip"), TF_PIP_URL),),
                action="set_env",
                action_params={"name": "LD_LIBRARY_PATH", "remove": entry.path}),
    )]


def _pip_command(ctx: CheckContext) -> str:
    """The TF install that brings the CUDA wheels, run by the chosen environment's Python."""
    try:
        line = knowledge.install_command(ctx.target.tensorflow, ctx.host.platform.os_kind)
    except ValueError:
        line = 'pip install "tensorflow[and-cuda]"'
    return env_pip(ctx, line)


# ------------------------------------------------------------------------------------------
# A system toolkit (or a conda cudatoolkit)
# ------------------------------------------------------------------------------------------


def _check_toolkit(ctx: CheckContext, found: CudaDiscovery, facts: dict[str, Any]
                   ) -> LayerResult:
    target = ctx.target
    cuda = str(target.cuda)
    host = ctx.host
    first = found.loader_first(cuda)
    findings: list[Finding] = []
    if first is not None:
        install = first[0]
        findings.extend(_version_findings(ctx, found, install, first[1].path))
        findings.extend(_terminal_findings(ctx, found))
        status = worst_status(findings, OK)
        new_terminal = status == OK and host.is_windows and found.loader_new is not None
        summary = msg("cuda.summary.found_new_terminal" if new_terminal else "cuda.summary.found",
                      version=install.version or "?", path=install.path)
        return LayerResult("cuda", status, summary, facts, findings)
    candidates = [i for i in found.installs if i.exists and i.provides(cuda)]
    if candidates:
        best = _best(candidates, cuda)
        if not _same_series(best.version, cuda):
            findings.extend(_version_findings(ctx, found, best, None))
        findings.append(_not_on_path(ctx, found, best))
        status = worst_status(findings, OK)
        summary = msg("cuda.summary.not_on_path", version=best.version or "?", path=best.path)
        return LayerResult("cuda", status, summary, facts, findings)
    broken = [i for i in found.installs if i.exists and i.kind == "toolkit" and not i.cudart
              and _same_series(i.version, cuda)]
    if broken:
        findings.append(_cudart_missing(ctx, broken[0]))
        summary = msg("cuda.summary.no_runtime", version=broken[0].version,
                      path=broken[0].path)
        return LayerResult("cuda", worst_status(findings, OK), summary, facts, findings)
    others = [i for i in found.installs if i.exists and (i.cudart or i.kind == "toolkit")]
    if others:
        findings.append(_mismatch(ctx, others[0], "fail", others))
        versions = sorted({i.version or "?" for i in others})
        summary = msg("cuda.summary.other_versions", versions=versions,
                      tensorflow=target.tensorflow, cuda=cuda)
        return LayerResult("cuda", worst_status(findings, OK), summary, facts, findings)
    findings.append(_not_installed(ctx, found))
    return LayerResult("cuda", worst_status(findings, OK), msg("cuda.summary.not_found"), facts,
                       findings)


def _cudart_missing(ctx: CheckContext, install: CudaInstall) -> Finding:
    """The toolkit of the right version is there, but its runtime DLL/.so is gone (an
    antivirus quarantine, a half-finished uninstall)."""
    cuda = str(ctx.target.cuda)
    windows = ctx.host.is_windows
    name = cuda_installs.cudart_file_name(cuda, windows)
    lib_dir = install.lib_dir or install.path
    url = knowledge.cuda_download_url(cuda, ctx.host.platform.os_kind)
    return Finding(
        "cudart_missing", "fail",
        params={"file": name, "cuda": cuda, "path": lib_dir},
        evidence=(f"{install.path} ({', '.join(install.sources)}, version from "
                  f"{install.version_source}) has no {name} in {lib_dir}"),
        fix=Fix(
            steps=(Step("download", {"what": msg("cuda.phrase.toolkit", cuda=cuda), "url": url}),
                   Step("install_cuda", {"cuda": cuda}), Step("new_terminal")),
            links=_cuda_links(ctx, cuda),
        ),
    )


def _same_series(version: Optional[str], cuda: str) -> bool:
    have, want = version_tuple(version), version_tuple(cuda)
    return bool(have and want and len(have) >= 2 and have[:2] == want[:2])


def _best(candidates: list[CudaInstall], cuda: str) -> CudaInstall:
    """The exact series first, then the closest newer minor, then anything."""
    exact = [i for i in candidates if _same_series(i.version, cuda)]
    if exact:
        return exact[0]
    want = version_tuple(cuda) or (0, 0)
    newer = sorted((i for i in candidates if (version_tuple(i.version) or (0,))[:2] >= want[:2]),
                   key=lambda i: version_tuple(i.version) or (0,))
    return newer[0] if newer else candidates[0]


def _version_findings(ctx: CheckContext, found: CudaDiscovery, install: CudaInstall,
                      loader_dir: Optional[str]) -> list[Finding]:
    """The install the loader opens has the right file name; is its version the target's?"""
    cuda = str(ctx.target.cuda)
    if _same_series(install.version, cuda):
        return []
    have = version_tuple(install.version)
    want = version_tuple(cuda) or (0, 0)
    if have is None or len(have) < 2:
        return []  # only the major is known (cudart64_110.dll alone): the file name matches
    exact = [i for i in found.installs if i.exists and _same_series(i.version, cuda)
             and i.provides(cuda)]
    severity = "warn" if have[:2] > want[:2] else "fail"
    finding = _mismatch(ctx, install, severity, [install], shadowed=exact[0] if exact else None,
                        loader_dir=loader_dir)
    return [finding]


def _mismatch(ctx: CheckContext, install: CudaInstall, severity: str, found: list[CudaInstall],
              shadowed: Optional[CudaInstall] = None, loader_dir: Optional[str] = None
              ) -> Finding:
    target = ctx.target
    cuda = str(target.cuda)
    os_kind = ctx.host.platform.os_kind
    windows = ctx.host.is_windows
    variable = "PATH" if windows else "LD_LIBRARY_PATH"
    steps: list[Step] = []
    action: Optional[str] = None
    action_params: dict[str, Any] = {}
    if shadowed is not None and shadowed.lib_dir and loader_dir:
        steps.append(Step("move_path_entry", {"dir": shadowed.lib_dir, "other": loader_dir,
                                              "variable": variable}))
        steps.append(Step("new_terminal"))
        action, action_params = "set_env", {"name": variable, "prepend": shadowed.lib_dir}
    else:
        url = knowledge.cuda_download_url(cuda, os_kind)
        steps.append(Step("download", {"what": msg("cuda.phrase.toolkit", cuda=cuda), "url": url}))
        steps.append(Step("install_cuda", {"cuda": cuda}))
        default = _default_toolkit_dir(ctx, cuda)
        steps.append(Step("add_to_path", {"dir": _lib_dir_of(ctx, default), "variable": variable}))
        if windows:
            steps.append(Step("set_env", {"name": "CUDA_PATH", "value": default}))
        steps.append(Step("new_terminal"))
    evidence = "; ".join(
        f"CUDA {i.version or '?'} in {i.path} ({', '.join(i.cudart) or 'no runtime'})"
        for i in found
    )
    if severity == "warn":
        evidence += (f"; {cuda_installs.cudart_file_name(cuda, windows)} is the same file name "
                     f"for every CUDA {cuda.split('.')[0]}.x, so TensorFlow loads it")
    return Finding(
        "cuda_version_mismatch", severity,
        params={"found": install.version or "?", "tensorflow": target.tensorflow, "cuda": cuda,
                "path": install.path},
        evidence=evidence,
        fix=Fix(steps=tuple(steps), links=_cuda_links(ctx, cuda), action=action,
                action_params=action_params),
    )


def _not_on_path(ctx: CheckContext, found: CudaDiscovery, install: CudaInstall) -> Finding:
    """The right runtime exists but the loader does not reach its folder."""
    windows = ctx.host.is_windows
    variable = "PATH" if windows else "LD_LIBRARY_PATH"
    lib_dir = install.lib_dir or install.path
    cuda = str(ctx.target.cuda)
    steps = [Step("add_to_path", {"dir": lib_dir, "variable": variable})]
    commands: list[str] = []
    if windows:
        if install.kind == "toolkit":
            steps.append(Step("set_env", {"name": "CUDA_PATH", "value": install.path}))
        steps.append(Step("new_terminal"))
        severity = "fail"
        evidence = f"{', '.join(install.cudart)} in {lib_dir}; neither PATH has this folder"
        literal = [e for e in found.path_registry or [] if "%" in e]
        if literal:
            evidence += (f"; the saved PATH holds unexpanded entries ({', '.join(literal)}): "
                         f"it is stored as REG_SZ, so Windows does not expand %VAR% in it")
        if install.on_path and install.on_new_path is False:
            # This process sees it (PATH set in this session only); new terminals will not.
            severity = "warn"
            evidence = (f"{lib_dir} is on this process's PATH only; the saved PATH (registry) "
                        f"lacks it, so a new terminal will not find {', '.join(install.cudart)}")
    else:
        line = f"export LD_LIBRARY_PATH={lib_dir}${{LD_LIBRARY_PATH:+:${{LD_LIBRARY_PATH}}}}"
        commands = [f"echo '{line}' >> ~/.bashrc", "source ~/.bashrc"]
        conf = f"/etc/ld.so.conf.d/cuda-{cuda.replace('.', '-')}.conf"
        commands.append(f"echo {lib_dir} | sudo tee {conf} && sudo ldconfig")
        steps.extend(Step("run", {"command": c}) for c in commands[:2])
        steps.append(Step("new_terminal"))
        severity = "fail"
        evidence = (f"{', '.join(install.cudart)} in {lib_dir}; not on LD_LIBRARY_PATH, "
                    f"not in /etc/ld.so.conf*")
    return Finding(
        "cuda_not_on_path", severity,
        params={"cuda": install.version or cuda, "path": install.path, "dir": lib_dir,
                "variable": variable},
        evidence=evidence,
        fix=Fix(steps=tuple(steps), links=_cuda_links(ctx, cuda), commands=tuple(commands),
                action="set_env", action_params={"name": variable, "append": lib_dir}),
    )


def _terminal_findings(ctx: CheckContext, found: CudaDiscovery) -> list[Finding]:
    """Windows: the loader finds the runtime with one PATH but not with the other."""
    if not ctx.host.is_windows or found.loader_new is None:
        return []
    cuda = str(ctx.target.cuda)
    in_process = found.loader_first(cuda, new_terminal=False)
    in_new = found.loader_first(cuda, new_terminal=True)
    if in_process is None and in_new is not None:
        install, entry, name = in_new
        return [Finding(
            "cuda_not_on_path", "info",
            params={"cuda": install.version or cuda, "path": install.path, "dir": entry.path,
                    "variable": "PATH"},
            evidence=(f"the saved PATH (registry) has {entry.path}, but this process's PATH "
                      f"(and terminals opened before the change) does not"),
            fix=Fix(steps=(Step("new_terminal"),)),
        )]
    if in_process is not None and in_new is None:
        return [_not_on_path(ctx, found, in_process[0])]
    return []


def _not_installed(ctx: CheckContext, found: CudaDiscovery) -> Finding:
    target = ctx.target
    cuda = str(target.cuda)
    os_kind = ctx.host.platform.os_kind
    windows = ctx.host.is_windows
    url = knowledge.cuda_download_url(cuda, os_kind)
    default = _default_toolkit_dir(ctx, cuda)
    variable = "PATH" if windows else "LD_LIBRARY_PATH"
    steps = [
        Step("download", {"what": msg("cuda.phrase.toolkit", cuda=cuda), "url": url}),
        Step("install_cuda", {"cuda": cuda}),
        Step("add_to_path", {"dir": _lib_dir_of(ctx, default), "variable": variable}),
    ]
    if windows:
        steps.append(Step("set_env", {"name": "CUDA_PATH", "value": default}))
    steps.append(Step("new_terminal"))
    commands: list[str] = []
    env = found.env
    if env is not None and env.conda and target.cudnn:
        conda = env_conda_install(
            ctx, f"-c conda-forge cudatoolkit={cuda} cudnn={_conda_cudnn(target)}")
        commands.append(conda)
        steps.append(Step("or_conda", {"command": conda}))
    stale = [i for i in found.installs if not i.exists]
    looked = ("Program Files\\NVIDIA GPU Computing Toolkit\\CUDA, CUDA_PATH*, registry"
              if windows else "/usr/local/cuda*, /opt/cuda*, library path")
    evidence = f"looked in {looked}"
    if stale:
        evidence += "; " + ", ".join(f"{', '.join(i.sources)} names the missing folder {i.path}"
                                     for i in stale)
    return Finding(
        "cuda_not_installed", "fail",
        params={"tensorflow": target.tensorflow, "cuda": cuda, "install": url,
                "where": looked},
        evidence=evidence,
        fix=Fix(steps=tuple(steps), links=_cuda_links(ctx, cuda), commands=tuple(commands)),
    )


def _conda_cudnn(target: Target) -> str:
    return f"{target.cudnn}.0" if target.cudnn and target.cudnn.count(".") == 1 else str(
        target.cudnn)


def _default_toolkit_dir(ctx: CheckContext, cuda: str) -> str:
    host = ctx.host
    series = ".".join(cuda.split(".")[:2])
    if host.is_windows:
        root = host.getenv("ProgramW6432") or host.getenv("ProgramFiles") or "C:\\Program Files"
        return host.join(root, cuda_installs.TOOLKIT_SUBDIR, f"v{series}")
    return f"/usr/local/cuda-{series}"


def _lib_dir_of(ctx: CheckContext, root: str) -> str:
    host = ctx.host
    if host.is_windows:
        major = (version_tuple(str(ctx.target.cuda)) or (0,))[0]
        return host.join(root, "bin", "x64") if major >= 13 else host.join(root, "bin")
    return host.join(root, "lib64")


def _cuda_links(ctx: CheckContext, cuda: str) -> tuple[Link, ...]:
    os_kind = ctx.host.platform.os_kind
    guide = {"windows": CUDA_WINDOWS_GUIDE, "wsl2": CUDA_WSL_GUIDE}.get(os_kind, CUDA_LINUX_GUIDE)
    return (
        Link(msg("link.cuda.toolkit_download", cuda=cuda),
             knowledge.cuda_download_url(cuda, os_kind)),
        Link(msg("link.cuda.install_guide"), guide),
    )
