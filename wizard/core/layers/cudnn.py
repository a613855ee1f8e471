"""The cudnn layer: is the cuDNN the target needs there, complete, and the one the loader opens?

Discovery is :mod:`wizard.core.cudnn_installs` over the cuda layer's discovery. What "right"
means: the loader's first ``cudnn64_<major>.dll`` / ``libcudnn.so.<major>`` belongs to a cuDNN of
the target's major with a minor at least the target's (cuDNN minor releases are backward
compatible within a major; an older minor fails with "Loaded runtime CuDNN library: X but source
was compiled with: Y"), the same folder holds every sub-library of that major (the front library
loads them by name), and for cuDNN 8.3-8.9 on Windows ``zlibwapi.dll`` is reachable.
"""

from __future__ import annotations

from typing import Any, Optional

from wizard.core import cudnn_installs, knowledge
from wizard.core.cuda_installs import CudaDiscovery, CudaInstall, LoaderDir, version_tuple
from wizard.core.cudnn_installs import CudnnDiscovery, CudnnInstall
from wizard.core.layers import CheckContext, env_conda_install, env_pip
from wizard.core.layers.cuda import discovery as cuda_discovery
from wizard.core.layers.cuda import without_gpu
from wizard.core.messages import Message, msg
from wizard.core.model import (
    NOT_APPLICABLE,
    OK,
    Finding,
    Fix,
    LayerResult,
    Link,
    Step,
    worst_status,
)

ZLIB_URL = "http://www.winimage.com/zLibDll/zlib123dllx64.zip"
ZLIB_ARCHIVE = "zlib123dllx64.zip"
ZLIB_GUIDE = ("https://docs.nvidia.com/deeplearning/cudnn/archives/cudnn-890/install-guide/"
              "index.html#install-zlib-windows")
CUDNN_WINDOWS_GUIDE = "https://docs.nvidia.com/deeplearning/cudnn/installation/latest/windows.html"
CUDNN_LINUX_GUIDE = "https://docs.nvidia.com/deeplearning/cudnn/installation/latest/linux.html"
TF_PIP_URL = knowledge.TF_PIP_URL


def discovery(ctx: CheckContext) -> CudnnDiscovery:
    if ctx.cudnn_discovery is None:
        ctx.cudnn_discovery = cudnn_installs.discover(ctx.host, cuda_discovery(ctx))
    return ctx.cudnn_discovery


def check(ctx: CheckContext) -> LayerResult:
    target = ctx.target
    found = discovery(ctx)
    major = (version_tuple(target.cudnn) or (None,))[0] if target.cudnn else None
    facts = found.facts(major)
    facts["needed"] = _needed(ctx, major)
    if not target.gpu_supported:
        return LayerResult(
            "cudnn", NOT_APPLICABLE,
            msg("cudnn.summary.no_windows_gpu_build", tensorflow=target.tensorflow),
            facts,
        )
    if not target.cudnn or major is None:
        return LayerResult("cudnn", NOT_APPLICABLE,
                           msg("cudnn.summary.no_version", tensorflow=target.tensorflow), facts)
    if target.pip_cuda and not ctx.host.is_windows:
        result = _check_pip(ctx, found, major, facts)
    else:
        result = _check_system(ctx, found, major, facts)
    return without_gpu(ctx, result)


def _needed(ctx: CheckContext, major: Optional[int]) -> Optional[dict[str, Any]]:
    if major is None:
        return None
    windows = ctx.host.is_windows
    return {
        "cudnn": ctx.target.cudnn,
        "files": list(cudnn_installs.expected_files(major, windows)),
        "zlibwapi": cudnn_installs.needs_zlibwapi(ctx.target.cudnn, windows),
    }


# ------------------------------------------------------------------------------------------
# tensorflow[and-cuda]: cuDNN from the nvidia-cudnn wheel
# ------------------------------------------------------------------------------------------


def _check_pip(ctx: CheckContext, found: CudnnDiscovery, major: int, facts: dict[str, Any]
               ) -> LayerResult:
    target = ctx.target
    env = found.cuda.env
    if env is None:
        return LayerResult(
            "cudnn", NOT_APPLICABLE,
            msg("cudnn.summary.pip_wheel_needed", tensorflow=target.tensorflow,
                cudnn=target.cudnn),
            facts,
        )
    severity = "fail" if env.tensorflow else "info"
    command = _pip_command(ctx)
    pip_fix = Fix(steps=(Step("run", {"command": command}),),
                  links=(Link(msg("link.cudnn.tensorflow_pip"), TF_PIP_URL),),
                  commands=(command,))
    wheel = next((i for i in found.installs if i.source == "pip" and i.major == major), None)
    if wheel is None:  # a conda env's own cudnn package serves the same purpose
        wheel = next((i for i in found.installs if i.source == "conda" and i.major == major),
                     None)
    findings: list[Finding] = []
    if wheel is None:
        other = found.pip_wheel()
        system = found.loader_first(major)
        if other is not None:
            findings.append(_mismatch_finding(ctx, other, severity, pip_fix))
        elif system is not None and _version_ok(system[0].version, str(target.cudnn)):
            findings.extend(_completeness(ctx, found, system[0]))
            summary = msg("cudnn.summary.system_without_wheel", version=system[0].version,
                          path=system[0].lib_dir)
            return LayerResult("cudnn", worst_status(findings, OK), summary, facts, findings)
        else:
            findings.append(Finding(
                "cudnn_missing", severity,
                # no "cuda": the fix summary is the pip-wheel variant, naming the command
                params={"cudnn": target.cudnn, "command": command,
                        "file": cudnn_installs.front_file(major, False),
                        "file_note": _file_note(cudnn_installs.front_file(major, False))},
                evidence=f"no nvidia-cudnn wheel in {', '.join(env.site_packages) or env.prefix}",
                fix=pip_fix,
            ))
        summary = msg("cudnn.summary.no_wheel", major=major, prefix=env.prefix)
        return LayerResult("cudnn", worst_status(findings, NOT_APPLICABLE), summary, facts,
                           findings)
    if not _version_ok(wheel.version, str(target.cudnn)):
        findings.append(_mismatch_finding(ctx, wheel, severity, pip_fix))
    findings.extend(_completeness(ctx, found, wheel))
    first = found.loader_first(major)
    if first is not None and first[0] is not wheel and not _version_ok(first[0].version,
                                                                        str(target.cudnn)):
        findings.append(_shadow_finding(ctx, first, wheel))
    # no package name: "from the conda package" (a variant without {package})
    summary = msg("cudnn.summary.from_wheel", version=wheel.version or "?", package=wheel.package,
                  source=wheel.source, prefix=env.prefix)
    return LayerResult("cudnn", worst_status(findings, NOT_APPLICABLE), summary, facts, findings)


def _pip_command(ctx: CheckContext) -> str:
    """The TF install that brings the CUDA wheels, run by the chosen environment's Python."""
    try:
        line = knowledge.install_command(ctx.target.tensorflow, ctx.host.platform.os_kind)
    except ValueError:
        line = 'pip install "tensorflow[and-cuda]"'
    return env_pip(ctx, line)


# ------------------------------------------------------------------------------------------
# A cuDNN copied into the toolkit, its own folder, a distro package or a conda env
# ------------------------------------------------------------------------------------------


def _check_system(ctx: CheckContext, found: CudnnDiscovery, major: int, facts: dict[str, Any]
                  ) -> LayerResult:
    target = ctx.target
    wanted = str(target.cudnn)
    hits = found.loader_hits(major)
    findings: list[Finding] = []
    if hits:
        first = hits[0]
        install = first[0]
        good = next((h for h in hits[1:] if _version_ok(h[0].version, wanted)), None)
        if not _version_ok(install.version, wanted):
            if good is not None:
                findings.append(_shadow_finding(ctx, first, good[0]))
            else:
                findings.append(_mismatch_finding(ctx, install, "fail", _install_fix(ctx, found)))
        else:
            findings.extend(_cuda_fit(ctx, install))
        findings.extend(_completeness(ctx, found, install))
        findings.extend(_terminal_findings(ctx, found, major))
        status = worst_status(findings, OK)
        summary = msg("cudnn.summary.on_loader_path", version=install.version or "?",
                      path=install.lib_dir)
        return LayerResult("cudnn", status, summary, facts, findings)
    right = [i for i in found.installs if i.major == major and i.files]
    if right:
        best = sorted(right, key=lambda i: not _version_ok(i.version, wanted))[0]
        findings.append(_off_path(ctx, found, best))
        if not _version_ok(best.version, wanted):
            findings.append(_mismatch_finding(ctx, best, "fail", _install_fix(ctx, found)))
        findings.extend(_completeness(ctx, found, best))
        summary = msg("cudnn.summary.off_loader_path", version=best.version or "?",
                      path=best.lib_dir)
        return LayerResult("cudnn", worst_status(findings, OK), summary, facts, findings)
    header_only = [i for i in found.installs if i.major == major and not i.files]
    if header_only:
        findings.extend(_completeness(ctx, found, header_only[0]))
        summary = msg("cudnn.summary.headers_only", version=header_only[0].version,
                      path=header_only[0].path)
        return LayerResult("cudnn", worst_status(findings, OK), summary, facts, findings)
    other = [i for i in found.installs if i.files]
    if other:
        findings.append(_mismatch_finding(ctx, other[0], "fail", _install_fix(ctx, found)))
        versions = sorted({i.version or "?" for i in other})
        summary = msg("cudnn.summary.other_versions", versions=versions,
                      tensorflow=target.tensorflow, cudnn=wanted)
        return LayerResult("cudnn", worst_status(findings, OK), summary, facts, findings)
    front = cudnn_installs.front_file(major, ctx.host.is_windows)
    findings.append(Finding(
        "cudnn_missing", "fail",
        params={"cudnn": wanted, "cuda": target.cuda, "file": front,
                "file_note": _file_note(front)},
        evidence=msg("cudnn.evidence.not_found", file=front),
        fix=_install_fix(ctx, found),
    ))
    return LayerResult("cudnn", worst_status(findings, OK), msg("cudnn.summary.none"), facts,
                       findings)


def _terminal_findings(ctx: CheckContext, found: CudnnDiscovery, major: int) -> list[Finding]:
    """Windows: the saved PATH (a new terminal) and this process's PATH disagree."""
    if not ctx.host.is_windows or found.cuda.loader_new is None:
        return []
    in_process = found.loader_first(major, new_terminal=False)
    in_new = found.loader_first(major, new_terminal=True)
    front = cudnn_installs.front_file(major, True)
    params = {"cudnn": ctx.target.cudnn, "cuda": ctx.target.cuda, "file": front,
              "file_note": _file_note(front)}
    if in_process is None and in_new is not None:
        return [Finding(
            "cudnn_missing", "info", params={**params, "path": in_new[1].path},
            evidence=(f"the saved PATH (registry) has {in_new[1].path}, but this process's PATH "
                      f"(and terminals opened before the change) does not"),
            fix=Fix(steps=(Step("new_terminal"),)),
        )]
    if in_process is not None and in_new is None:
        directory = in_process[1].path
        return [Finding(
            "cudnn_missing", "warn", params={**params, "path": directory},
            evidence=(f"{directory} is on this process's PATH only; the saved PATH (registry) "
                      f"lacks it, so a new terminal will not find {front}"),
            fix=Fix(steps=(Step("add_to_path", {"dir": directory, "variable": "PATH"}),
                           Step("new_terminal")),
                    links=_cudnn_links(ctx), action="set_env",
                    action_params={"name": "PATH", "append": directory}),
        )]
    return []


def _version_ok(version: Optional[str], wanted: str) -> bool:
    """Same major and a minor at least the target's (an unknown minor counts as fine: only the
    file name was seen, and it matches)."""
    have, want = version_tuple(version), version_tuple(wanted)
    if not have or not want:
        return False
    if have[0] != want[0]:
        return False
    return len(have) < 2 or len(want) < 2 or have[1] >= want[1]


def _cuda_fit(ctx: CheckContext, install: CudnnInstall) -> list[Finding]:
    """A newer cuDNN minor is fine if NVIDIA built it for the target's CUDA."""
    target = ctx.target
    if not install.version or not target.cuda or install.version.count(".") < 1:
        return []
    fix = _install_fix(ctx, discovery(ctx))
    built_for = (version_tuple(install.cuda) or (None,))[0] if install.cuda else None
    if built_for is not None and built_for != (version_tuple(str(target.cuda)) or (0,))[0]:
        # Certain for a wheel or a cuDNN 9 sub-folder; only likely for a copy in a toolkit.
        severity = "warn" if install.source == "cuda_folder" else "fail"
        return [_mismatch_finding(ctx, install, severity, fix)]
    if knowledge.cudnn_supports_cuda(install.version, str(target.cuda)) is False:
        return [_mismatch_finding(ctx, install, "fail", fix)]
    return []


def _completeness(ctx: CheckContext, found: CudnnDiscovery, install: CudnnInstall
                  ) -> list[Finding]:
    """Missing sub-libraries (or every library, for a header-only copy), and zlibwapi.dll."""
    findings: list[Finding] = []
    windows = ctx.host.is_windows
    if install.missing:
        directory = install.lib_dir or install.path
        findings.append(Finding(
            "cudnn_partial_install", "fail",
            params={"found": install.version or "?", "path": directory,
                    "missing": ", ".join(install.missing)},
            evidence=(f"{directory} holds {', '.join(install.files) or 'no cuDNN library'}"
                      + (f"; header {install.header}" if install.header else "")),
            fix=_partial_fix(ctx, found, install, directory),
        ))
    needs_zlib = windows and cudnn_installs.needs_zlibwapi(install.version, True)
    if needs_zlib and not found.zlibwapi_on_path:
        dest = install.lib_dir or install.path
        elsewhere = list(found.zlibwapi)
        what = msg("cudnn.phrase.file_in_archive", file=cudnn_installs.ZLIBWAPI,
                   archive=ZLIB_ARCHIVE)
        steps = [Step("download", {"what": what, "url": ZLIB_URL}),
                 Step("run", {"command": f'copy dll_x64\\zlibwapi.dll "{dest}"'})]
        findings.append(Finding(
            "zlibwapi_missing", "fail",
            params={"found": install.version, "dest": dest, "file": cudnn_installs.ZLIBWAPI},
            evidence=msg("cudnn.evidence.zlibwapi_not_on_path", file=cudnn_installs.ZLIBWAPI,
                         elsewhere=list(elsewhere) or None),
            fix=Fix(steps=tuple(steps),
                    links=(Link(msg("link.cudnn.zlib_dll", version="1.2.3", site="winimage"),
                                ZLIB_URL),
                           Link(msg("link.cudnn.zlib_guide"), ZLIB_GUIDE)),
                    commands=(f'copy dll_x64\\zlibwapi.dll "{dest}"',),
                    action="install_zlibwapi", action_params={"dest": dest}),
        ))
    return findings


def _partial_fix(ctx: CheckContext, found: CudnnDiscovery, install: CudnnInstall,
                 directory: str) -> Fix:
    """Copy the missing files from the same archive; a package manager's copy is reinstalled
    by that package manager instead."""
    if install.source in ("pip", "conda") and install.package:
        if install.source == "pip":
            command = env_pip(
                ctx, f"pip install --force-reinstall {install.package}=={install.version}")
        else:
            command = env_conda_install(
                ctx, f"--force-reinstall -c conda-forge cudnn={install.version}")
        return Fix(steps=(Step("run", {"command": command}),), links=_cudnn_links(ctx),
                   commands=(command,))
    return Fix(
        steps=(Step("copy_missing_files", {"files": list(install.missing),
                                           "version": install.version or "?",
                                           "dir": directory}),),
        links=_cudnn_links(ctx),
        action="install_cudnn",
        action_params=_install_params(ctx, found, dest=_dest_of(ctx, install)),
    )


def _mismatch_finding(ctx: CheckContext, install: CudnnInstall, severity: str, fix: Fix
                      ) -> Finding:
    target = ctx.target
    where = install.lib_dir or install.path
    return Finding(
        "cudnn_version_mismatch", severity,
        params={"found": install.version or "?", "where": _where_note(where),
                "tensorflow": target.tensorflow, "cudnn": target.cudnn, "cuda": target.cuda,
                "path": where},
        evidence=_describe(install),
        fix=fix,
    )


def _shadow_finding(ctx: CheckContext, first: tuple[CudnnInstall, LoaderDir],
                    good: CudnnInstall) -> Finding:
    """An older copy earlier on the loader path hides the right one."""
    target = ctx.target
    old, entry = first
    variable = "PATH" if ctx.host.is_windows else "LD_LIBRARY_PATH"
    good_dir = good.lib_dir or good.path
    return Finding(
        "cudnn_version_mismatch", "fail",
        params={"found": old.version or "?", "where": _where_note(entry.path),
                "tensorflow": target.tensorflow, "cudnn": target.cudnn, "cuda": target.cuda,
                "path": entry.path, "shadowed": good_dir},
        evidence=(f"{_describe(old)} comes first ({entry.origin}); cuDNN {good.version} in "
                  f"{good_dir} comes later and is never loaded"),
        fix=Fix(
            steps=(Step("move_path_entry", {"dir": good_dir, "other": entry.path,
                                            "variable": variable}),
                   Step("new_terminal")),
            links=_cudnn_links(ctx),
            action="set_env",
            action_params={"name": variable, "prepend": good_dir},
        ),
    )


def _off_path(ctx: CheckContext, found: CudnnDiscovery, install: CudnnInstall) -> Finding:
    """The right cuDNN exists but no loader folder holds it (cuDNN 9's own folder, a zip
    unpacked somewhere)."""
    windows = ctx.host.is_windows
    variable = "PATH" if windows else "LD_LIBRARY_PATH"
    directory = install.lib_dir or install.path
    front = cudnn_installs.front_file(install.major or 0, windows)
    steps = [Step("add_to_path", {"dir": directory, "variable": variable}), Step("new_terminal")]
    commands: tuple[str, ...] = ()
    if not windows:
        line = f"export LD_LIBRARY_PATH={directory}${{LD_LIBRARY_PATH:+:${{LD_LIBRARY_PATH}}}}"
        commands = (f"echo '{line}' >> ~/.bashrc",)
        steps.insert(1, Step("run", {"command": commands[0]}))
    return Finding(
        "cudnn_missing", "fail",
        # no "cuda": the fix summary is the "installed, but not on the loader path" variant
        params={"cudnn": ctx.target.cudnn, "file_note": _file_note(front), "file": front,
                "path": directory, "variable": variable},
        evidence=f"{front} is in {directory}, which is not on {variable}",
        fix=Fix(steps=tuple(steps), links=_cudnn_links(ctx), commands=commands,
                action="set_env", action_params={"name": variable, "append": directory}),
    )


def _install_fix(ctx: CheckContext, found: CudnnDiscovery) -> Fix:
    """Download the target cuDNN and copy it into the CUDA folder the loader uses."""
    target = ctx.target
    windows = ctx.host.is_windows
    dest = _cuda_dest(ctx, found.cuda)
    url = knowledge.cudnn_download_url(str(target.cudnn), target.cuda)
    steps: list[Step] = [
        Step("download", {"what": msg("cudnn.phrase.cudnn_for_cuda", cudnn=target.cudnn,
                                      cuda=target.cuda), "url": url}),
        Step("copy_cudnn", {"dest": dest}),
    ]
    if windows:
        commands = (
            f'copy /Y cuda\\bin\\cudnn*.dll "{dest}\\bin"',
            f'copy /Y cuda\\include\\cudnn*.h "{dest}\\include"',
            f'copy /Y cuda\\lib\\x64\\cudnn*.lib "{dest}\\lib\\x64"',
        )
    else:
        commands = (
            f"sudo cp cudnn-*-archive/include/cudnn*.h {dest}/include",
            f"sudo cp -P cudnn-*-archive/lib/libcudnn* {dest}/lib64",
            f"sudo chmod a+r {dest}/include/cudnn*.h {dest}/lib64/libcudnn*",
        )
    steps.extend(Step("run", {"command": c}) for c in commands)
    env = found.cuda.env
    conda: tuple[str, ...] = ()
    if env is not None and env.conda and target.cuda:
        cudnn = target.cudnn if str(target.cudnn).count(".") > 1 else f"{target.cudnn}.0"
        line = env_conda_install(ctx, f"-c conda-forge cudatoolkit={target.cuda} cudnn={cudnn}")
        conda = (line,)
        steps.append(Step("or_conda", {"command": line}))
    return Fix(
        steps=tuple(steps),
        links=(Link(msg("link.cudnn.download", cudnn=target.cudnn), url),
               *_cudnn_links(ctx)[1:]),
        commands=commands + conda,
        action="install_cudnn",
        action_params=_install_params(ctx, found, dest=dest),
    )


def install_params(ctx: CheckContext) -> dict[str, Any]:
    """The ``install_cudnn`` params for the target's cuDNN on this machine (``dest``: the
    toolkit the loader uses, else one of the target's CUDA, else that CUDA's default folder,
    which may not exist): for a finding that named no folder (one filed from a log)."""
    return _install_params(ctx, discovery(ctx))


def _install_params(ctx: CheckContext, found: CudnnDiscovery, dest: Optional[str] = None
                    ) -> dict[str, Any]:
    return {"dest": dest or _cuda_dest(ctx, found.cuda), "cudnn": ctx.target.cudnn,
            "cuda": ctx.target.cuda}


def _cuda_dest(ctx: CheckContext, cuda: CudaDiscovery) -> str:
    """Where the cuDNN files belong: the toolkit of the target's CUDA the loader uses, else any
    toolkit of that CUDA, else the default folder of that CUDA."""
    host = ctx.host
    want = str(ctx.target.cuda or "")
    first = cuda.loader_first(want) if want else None
    if first is not None and first[0].kind == "toolkit":
        return first[0].path
    series = ".".join(want.split(".")[:2])
    toolkits: list[CudaInstall] = [i for i in cuda.installs if i.exists and i.kind == "toolkit"]
    for install in toolkits:
        if install.series == series:
            return install.path
    if host.is_windows:
        root = host.getenv("ProgramW6432") or host.getenv("ProgramFiles") or "C:\\Program Files"
        return host.join(root, "NVIDIA GPU Computing Toolkit", "CUDA", f"v{series}")
    return f"/usr/local/cuda-{series}"


def _dest_of(ctx: CheckContext, install: CudnnInstall) -> str:
    """The folder a cuDNN archive is unpacked into for this copy (its CUDA folder or root)."""
    if install.source == "cuda_folder":
        return install.path
    return install.path if install.source != "loader_path" else ctx.host.path.dirname(
        install.path.rstrip("\\/"))


def _describe(install: CudnnInstall) -> str:
    files = ", ".join(install.files) if install.files else "no libraries"
    header = f", header {install.header}" if install.header else ""
    where = install.lib_dir or install.path
    built = f" for CUDA {install.cuda}" if install.cuda else ""
    return (f"cuDNN {install.version or '?'}{built} ({install.source}) in {where}: "
            f"{files}{header}")


def _cudnn_links(ctx: CheckContext) -> tuple[Link, ...]:
    target = ctx.target
    guide = CUDNN_WINDOWS_GUIDE if ctx.host.is_windows else CUDNN_LINUX_GUIDE
    return (
        Link(msg("link.cudnn.download", cudnn=target.cudnn),
             knowledge.cudnn_download_url(str(target.cudnn), target.cuda)),
        Link(msg("link.cudnn.install_guide"), guide),
    )


def _file_note(file: str) -> Message:
    """`` (cudnn64_8.dll)``: the file a message names after the cuDNN version."""
    return msg("cudnn.phrase.file_note", file=file)


def _where_note(path: str) -> Message:
    """`` (C:\\...\\bin)``: where a cuDNN was found, after its version."""
    return msg("cudnn.phrase.where_note", path=path)
