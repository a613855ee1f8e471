"""The tensorflow layer: what the environment probe saw in the chosen Python environment.

It never imports TensorFlow: everything comes from ``ctx.probe`` (``resources/probes/
env_probe.py`` run in that environment). It checks the environment's Python against the target,
finds CPU-only builds, conflicting TF distributions, NumPy 2 under a TF built for NumPy 1, TF >=
2.11 on native Windows and a ``CUDA_VISIBLE_DEVICES`` that hides the GPU. It reads the loader's
own log with the ``explain`` engine and files each finding in the layer it belongs to (a missing
``cudnn64_8.dll`` lands on the cudnn layer with that file named). PyTorch in the same
environment is the optional ``pytorch`` layer's (:mod:`wizard.core.layers.pytorch`).
"""

from __future__ import annotations

import re
import signal
from dataclasses import replace
from typing import Any, Optional

from wizard.core import codes, explain, knowledge
from wizard.core.envs import TF_DISTRIBUTIONS, installed_tf, tf_version
from wizard.core.host import ProbeResult
from wizard.core.layers import CheckContext, env_pip, wiring
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
    worst_status,
)

__all__ = ["TF_DISTRIBUTIONS", "check", "env_pip", "explain_text", "installed_tf",
           "new_env_commands", "tf_version", "visible_devices_problem"]

CPU_ONLY_DISTRIBUTIONS = ("tensorflow-cpu", "tf-nightly-cpu", "intel-tensorflow")
LOG_FACT_KEEP = 8 * 1024
NUMPY_ABI_TEXT = re.compile(
    r"compiled using NumPy 1\.x cannot be run in\s+NumPy 2|_ARRAY_API not found"
    r"|numpy\.core\.(?:_multiarray_umath|umath) failed to import",
    re.IGNORECASE,
)
_VISIBLE_ITEM = re.compile(r"^(?:\d+|GPU-[0-9A-Fa-f-]+|MIG-[\w/-]+)$")
WSL_TF_URL = "https://www.tensorflow.org/install/pip#windows-wsl2"
TF_PIP_URL = knowledge.TF_PIP_URL


# ======================================================================================
# helpers over the probe
# ======================================================================================


def _at_least(version: Optional[str], minimum: tuple[int, ...]) -> bool:
    parsed = knowledge.try_parse_version(version)
    if parsed is None:
        return False
    padded = parsed + (0,) * (len(minimum) - len(parsed))
    return padded[: len(minimum)] >= minimum


def _install_line(ctx: CheckContext, tf: Optional[str] = None) -> str:
    target = tf or ctx.target.tensorflow
    try:
        line = knowledge.install_command(target, ctx.host.platform.os_kind)
    except (ValueError, KeyError):
        line = 'pip install "tensorflow[and-cuda]"' if ctx.target.pip_cuda else (
            "pip install tensorflow"
        )
    if _no_nvidia_gpu(ctx):
        # the CUDA wheels (gigabytes) are of no use without an NVIDIA GPU
        line = line.replace("tensorflow[and-cuda]", "tensorflow")
    return line


def _no_nvidia_gpu(ctx: CheckContext) -> bool:
    gpu = ctx.results.get("gpu")
    return gpu is not None and any(f.code == "no_nvidia_gpu" for f in gpu.findings)


def explain_text(text: str, os_kind: Optional[str] = None) -> list[Finding]:
    """Findings for a log, most likely first, from the shared ``explain`` engine."""
    if not text.strip():
        return []
    return list(explain.explain_log(text, os_kind))


# ======================================================================================
# the layer
# ======================================================================================


def check(ctx: CheckContext) -> LayerResult:
    probe = ctx.probe
    if ctx.python is None and probe is None:
        return _no_environment(ctx)
    if probe is None or probe.error:
        return _probe_failed(ctx, probe or {"error": "no probe result"})
    facts = _facts(ctx, probe)
    findings: list[Finding] = []
    findings += _python_findings(ctx, probe)
    python_fits = not any(f.code == "python_version_unsupported" for f in findings)
    installed = installed_tf(probe)
    if not installed and not probe.tensorflow is not None:
        findings.append(_not_installed(ctx, probe, python_fits))
        return _result(ctx, probe, facts, findings)
    findings += _package_findings(ctx, probe, installed)
    return _result(ctx, probe, facts, findings)


def reconcile(ctx: CheckContext) -> None:
    """The one pass after the chain (``diagnose``, and the session after the TF layer): what the
    probe's log says is filed in the layer each cause belongs to, this one included (the layers'
    own facts come first: see ``explain.reconcile_log_findings``); where the log failed a lower
    layer, this layer's summary names it; and a failure no log line explains (an import error,
    a computation that did not run on the GPU) becomes a finding of its own. Once per result.
    Then every failure gets the fix it leads to or the reason there is none (``wiring``)."""
    _reconcile(ctx)
    wiring.wire_all(ctx)


def _reconcile(ctx: CheckContext) -> None:
    result = ctx.results.get("tensorflow")
    probe = ctx.probe
    if result is None or probe is None or ctx.reconciled is result:
        return
    ctx.reconciled = result
    own = list(result.findings)
    # what the layers found on the machine narrows the log's candidates (issue 13 item 2)
    known = explain.machine_facts(ctx.results)
    explained = [f for f in explain.probe_log_findings(probe, _os(ctx), machine=known)
                 if not _ruled_out(ctx, probe, f)]
    merged = file_log_findings(ctx, result, explained)
    tf_info = probe.tensorflow
    if probe.error or (tf_info is None and not installed_tf(probe)):
        return  # no TensorFlow to speak of: only the log's findings are filed
    if merged.added:  # the log may have failed a lower layer: name it in the summary
        result.summary = _summary(ctx, probe, tf_info, _gpu_ready(tf_info))
    # a log finding the machine's facts ruled out explains nothing
    extra = _unexplained_findings(ctx, probe, own + merged.kept)
    if extra:
        result.findings.extend(extra)
        result.status = worst_status(result.findings, result.status)


def _ruled_out(ctx: CheckContext, probe: ProbeResult, finding: Finding) -> bool:
    """A log candidate the probe's facts contradict: a CPU-only package where TF says it is a
    CUDA build and no CPU-only distribution is installed; ``CUDA_VISIBLE_DEVICES`` where the
    value the probe ran with (unset, or one that leaves CUDA a GPU) hides nothing."""
    if finding.code == "cuda_visible_devices_misconfigured":
        value, _ = inherited_env(ctx, "CUDA_VISIBLE_DEVICES")
        return value is None or judge_visible_devices(value, _nvml_gpus(ctx)) is None
    if finding.code != "gpu_not_listed_cpu_only_package":
        return False
    tf = probe.tensorflow or {}
    installed = installed_tf(probe)
    return tf.get("built_with_cuda") is True and _cpu_only_package(
        installed, tf, _os(ctx)) is None


def _os(ctx: CheckContext) -> str:
    return ctx.host.platform.os_kind


def file_log_findings(
    ctx: CheckContext, result: LayerResult, explained: list[Finding]
) -> explain.Merged:
    """File each log finding in the layer its code belongs to (this one included), through
    ``explain.reconcile_log_findings``: the layers' own facts come first (a code a layer already
    reported, or the consequence of a layer's own failure, becomes evidence of that finding; a
    finding the facts rule out is dropped), and with no NVIDIA GPU at all the loader's
    complaints are only ``info``."""
    layers = [r for name, r in ctx.results.items() if name in _BELOW] + [result]
    return explain.reconcile_log_findings(layers, explained)


_BELOW = ("gpu", "driver", "cuda", "cudnn")
"""The layers under this one (an optional layer's result is never a place for a log finding)."""


def _result(
    ctx: CheckContext, probe: ProbeResult, facts: dict[str, Any], findings: list[Finding]
) -> LayerResult:
    tf = probe.tensorflow
    ready = _gpu_ready(tf)
    if findings:
        default = OK if ready else WARN
        status = worst_status(findings, default)
    elif ready:
        status = OK
    else:
        status = WARN  # TF works but sees no GPU; the reason is in a lower layer (or unknown)
    return LayerResult("tensorflow", status, _summary(ctx, probe, tf, ready), facts, findings)


def _gpu_ready(tf: Optional[dict[str, Any]]) -> bool:
    if not tf or not tf.get("gpus"):
        return False
    return all(
        (tf.get(step) or {}).get("ok") and "GPU" in str((tf.get(step) or {}).get("device") or "")
        for step in ("matmul", "conv")
    )


def _summary(
    ctx: CheckContext, probe: ProbeResult, tf: Optional[dict[str, Any]], ready: bool
) -> Message:
    python = probe.python_version or "?"
    where = msg("tensorflow.phrase.where", version=python, python=ctx.python)
    if tf is None:
        return msg("tensorflow.summary.not_installed", where=where)
    version = tf.get("version") or tf_version(probe) or "?"
    if not tf.get("imported"):
        return msg("tensorflow.summary.import_fails", version=version, where=where)
    if ready:
        names = [g.get("device_name") or g.get("name", "GPU") for g in tf["gpus"]]
        return msg("tensorflow.summary.runs_on", version=version, gpus=names, where=where)
    if tf.get("built_with_cuda") is False:
        return msg("tensorflow.summary.cpu_only", version=version, where=where)
    if tf.get("gpus"):
        return msg("tensorflow.summary.computation_failed", version=version, where=where)
    blocking = _lower_failure(ctx)
    gpu = ctx.results.get("gpu")
    if gpu is not None and any(f.code == "no_nvidia_gpu" for f in gpu.findings):
        return msg("tensorflow.summary.no_gpu_here", version=version, where=where)
    if blocking:
        return msg("tensorflow.summary.fix_lower_first", version=version,
                   layer=msg(f"tensorflow.phrase.layer.{blocking}"), where=where)
    return msg("tensorflow.summary.no_gpu", version=version, where=where)


def _lower_failure(ctx: CheckContext) -> Optional[str]:
    for name in ("gpu", "driver", "cuda", "cudnn"):
        result = ctx.results.get(name)
        if result is not None and result.status == FAIL:
            return name
    return None


def _facts(ctx: CheckContext, probe: ProbeResult) -> dict[str, Any]:
    python = probe.python
    tf = probe.tensorflow
    packages = {k: v for k, v in probe.packages.items() if v}
    facts: dict[str, Any] = {
        "python": ctx.python,
        "python_version": python.get("version"),
        "python_bits": python.get("bits"),
        "environment": "conda" if python.get("conda") else ("venv" if python.get("venv") else
                                                              "system"),
        "prefix": python.get("prefix"),
        "packages": packages,
        "nvidia_packages": probe.get("nvidia_packages") or {},
        "tensorflow_version": tf_version(probe),
        "imported": tf.get("imported") if tf else None,
        "import_error": tf.get("error") if tf else None,
        "built_with_cuda": tf.get("built_with_cuda") if tf else None,
        "build_info": tf.get("build_info") if tf else None,
        "gpus": tf.get("gpus") if tf else [],
        "matmul": tf.get("matmul") if tf else None,
        "conv": tf.get("conv") if tf else None,
        "cuda_visible_devices": inherited_env(ctx, "CUDA_VISIBLE_DEVICES")[0],
        "inherited_env": _inherited_facts(ctx),
        "probe_seconds": probe.get("probe_seconds"),
        "log": _trim_log(probe.log),
    }
    return facts


def _trim_log(text: str) -> str:
    if len(text) <= 2 * LOG_FACT_KEEP:
        return text
    cut = len(text) - 2 * LOG_FACT_KEEP
    return f"{text[:LOG_FACT_KEEP]}\n[... {cut} characters cut ...]\n{text[-LOG_FACT_KEEP:]}"


# -- no environment / failed probe ------------------------------------------------------------


def _no_environment(ctx: CheckContext) -> LayerResult:
    """No Python environment at all: create one and install TF with its own interpreter."""
    commands = new_env_commands(ctx, None)
    finding = Finding(
        "tensorflow_not_installed",
        "fail",
        {"python": msg("tensorflow.phrase.any_environment"), "command": commands[-1],
         "tensorflow": ctx.target.tensorflow, "python_range": ctx.target.python},
        fix=new_env_fix(ctx, commands),
    )
    return LayerResult(
        "tensorflow", FAIL, msg("tensorflow.summary.no_environment"), {"python": None},
        [finding],
    )


def _probe_failed(ctx: CheckContext, probe: ProbeResult) -> LayerResult:
    python = ctx.python or probe.get("executable") or "?"
    kind = probe.error_kind or "unknown"
    log = probe.log
    evidence = (probe.get("stderr_tail") or probe.get("stdout_tail") or log[-2000:]
                or probe.error or None)
    finding = Finding(
        "probe_failed",
        "warn",
        {"python": python, "error": _probe_error(probe, kind), "error_kind": kind,
         "stage": probe.get("stage") or "",
         "next_step": _next_step(python, "too_old" if _too_old(probe) else kind,
                                 ctx.target.python or "3")},
        evidence=evidence,
    )
    findings = [finding]
    facts = {
        "python": python,
        "probe_error": probe.error,
        "probe_error_kind": kind,
        "stage": probe.get("stage"),
        "returncode": probe.get("returncode"),
        "stdout_tail": probe.get("stdout_tail"),
        "stderr_tail": probe.get("stderr_tail"),
        "log": _trim_log(log),
    }
    kind_text = msg(f"tensorflow.probe_kind.{kind}") if kind in PROBE_KINDS else kind
    summary = msg("tensorflow.summary.probe_failed", python=python, kind=kind_text)
    result = LayerResult("tensorflow", UNKNOWN, summary, facts, findings)
    # A probe that hung or crashed may still have printed the loader's lines: read them.
    text = log + "\n" + str(probe.get("stderr_tail") or "")
    file_log_findings(ctx, result, explain_text(text, _os(ctx)))
    return result


PROBE_KINDS = ("timeout", "not_found", "bad_output", "crashed", "cancelled", "unknown")
"""The probe's ``error_kind`` values (``host.probe``)."""


def _probe_error(probe: ProbeResult, kind: str) -> Message:
    """What went wrong with the probe, from its kind and details (the host's own sentence stays
    in the facts as ``probe_error``)."""
    stage = probe.get("stage") or None
    if _too_old(probe):
        return msg("tensorflow.probe_error.too_old")
    if kind == "bad_output" and not str(probe.get("stdout_tail") or "").strip():
        kind = "bad_output_empty"
    if kind in ("timeout", "cancelled", "crashed", "bad_output", "bad_output_empty", "not_found"):
        limit = re.search(r"within (\d+) s\b", str(probe.error or ""))
        return msg(f"tensorflow.probe_error.{kind}", stage=stage,
                   status=_exit_status(probe.get("returncode")),
                   seconds=limit.group(1) if limit else None)
    return msg("tensorflow.probe_error.unknown")


def _exit_status(returncode: Any) -> Optional[str]:
    """An exit status as the system names it: ``3``, ``SIGKILL``, ``0xC0000135``."""
    if not isinstance(returncode, int) or isinstance(returncode, bool):
        return None
    if returncode < 0:
        try:
            return signal.Signals(-returncode).name
        except ValueError:
            return f"signal {-returncode}"
    if returncode > 0xFFFFFF:  # a Windows NTSTATUS such as 0xC0000135 (DLL not found)
        return f"0x{returncode & 0xFFFFFFFF:08X}"
    return str(returncode)


def _too_old(probe: ProbeResult) -> bool:
    """The probe did not run because the Python is too old for it (Python 2, 3.3...): then it is
    too old for TensorFlow too."""
    text = f"{probe.get('error') or ''}\n{probe.get('stderr_tail') or ''}"
    return "too old to run the environment probe" in text or "Unknown option: -I" in text


def _next_step(python: str, kind: str, python_range: str = "3") -> Message:
    if kind == "too_old":
        version = _newest_in_range(python_range)
        return msg("tensorflow.next_step.too_old", python_range=python_range,
                   name=_new_env_name(version), version=version)
    if kind in ("not_found", "timeout", "cancelled"):
        return msg(f"tensorflow.next_step.{kind}", python=python)
    return msg("tensorflow.next_step.see_error", python=python)


# -- Python ------------------------------------------------------------------------------------


def _python_findings(ctx: CheckContext, probe: ProbeResult) -> list[Finding]:
    python = probe.python
    version = python.get("version")
    findings = []
    if python.get("bits") == 32:
        findings.append(
            Finding(
                "python_32bit",
                "fail",
                {"python": ctx.python, "version": version, "python_range": ctx.target.python},
                evidence=f"{ctx.python}: 32-bit",
            )
        )
    target_range = ctx.target.python
    if not version or not target_range:
        return findings
    tf = probe.tensorflow
    installed = tf_version(probe)
    # An import that worked proves the wheel fits this Python: only judge the others.
    if tf and tf.get("imported") and installed and _same_series(installed, ctx.target.tensorflow):
        return findings
    try:
        supported = knowledge.python_supported(version, target_range)
    except (ValueError, TypeError):
        return findings
    if not supported:
        commands = new_env_commands(ctx, probe)
        findings.append(
            Finding(
                "python_version_unsupported",
                "fail",
                {"found": version, "tensorflow": ctx.target.tensorflow, "python": target_range},
                evidence=f"{ctx.python}: Python {version}",
                fix=new_env_fix(ctx, commands),
            )
        )
    return findings


def _new_env_name(version: str) -> str:
    """``tf-py310``: the environment the wizard suggests creating (conda ``-n``, venv folder),
    named after its Python so that it does not clash with an env called ``tf``."""
    return "tf-py" + version.replace(".", "")


def new_env_fix(ctx: CheckContext, commands: tuple[str, ...]) -> Fix:
    """Create an environment with a Python the target supports, and install TF there."""
    return Fix(
        steps=(
            Step("tensorflow.create_env", {"python": ctx.target.python}),
            *(Step("run", {"command": c}) for c in commands),
        ),
        links=(Link(msg("link.tensorflow.pip"), TF_PIP_URL),),
        commands=commands,
    )


def _pip_fix(ctx: CheckContext, *commands: str, **action_params: str) -> Fix:
    """Run ``commands`` (the environment's own pip) in order; the fix action installs the last
    one into ``ctx.python`` (``action_params`` add e.g. the requirement or a package to remove
    first)."""
    return Fix(
        steps=tuple(Step("run", {"command": c}) for c in commands),
        links=(Link(msg("link.tensorflow.pip"), TF_PIP_URL),),
        commands=commands,
        action="pip_install",
        action_params={"python": ctx.python, "command": commands[-1], **action_params},
    )


def new_env_commands(ctx: CheckContext, probe: Optional[ProbeResult]) -> tuple[str, ...]:
    """Commands that create an environment whose Python can run the target TF and install TF
    there: a conda env for a conda user, else a venv made with that Python (``py -3.x`` on
    Windows, ``python3.x`` elsewhere). Never the chosen environment: its Python cannot run it."""
    version = _newest_in_range(ctx.target.python or "")
    rest = re.sub(r"^\s*pip\s+", "", _install_line(ctx))
    info = probe.python if probe else {}
    name = _new_env_name(version)
    if info.get("conda"):
        return (f"conda create -y -n {name} python={version}",
                f"conda run -n {name} python -m pip {rest}")
    if ctx.host.is_windows:  # .\ paths work in cmd and in PowerShell alike
        return (f"py -{version} -m venv {name}",
                f".\\{name}\\Scripts\\python.exe -m pip {rest}")
    return (f"python{version} -m venv ~/{name}", f"~/{name}/bin/python -m pip {rest}")


def _newest_in_range(range_text: str) -> str:
    versions = re.findall(r"\d+\.\d+", range_text)
    return versions[-1] if versions else range_text


def _same_series(a: Optional[str], b: Optional[str]) -> bool:
    ta, tb = knowledge.try_parse_version(a), knowledge.try_parse_version(b)
    return bool(ta and tb and ta[:2] == tb[:2])


# -- packages ----------------------------------------------------------------------------------


def _not_installed(ctx: CheckContext, probe: ProbeResult, python_fits: bool = True) -> Finding:
    line = _install_line(ctx)
    if not python_fits:
        # this Python cannot run the target: install into a new environment, never into it
        commands = new_env_commands(ctx, probe)
        return Finding(
            "tensorflow_not_installed",
            "fail",
            {"python": ctx.python, "command": commands[-1], "tensorflow": ctx.target.tensorflow},
            evidence=f"{ctx.python}: no tensorflow distribution installed",
            fix=new_env_fix(ctx, commands),
        )
    command = env_pip(ctx, line)
    return Finding(
        "tensorflow_not_installed",
        "fail",
        {"python": ctx.python, "command": command, "tensorflow": ctx.target.tensorflow},
        evidence=f"{ctx.python}: no tensorflow distribution installed",
        fix=_pip_fix(ctx, command, requirement=line),
    )


def _package_findings(
    ctx: CheckContext, probe: ProbeResult, installed: dict[str, str]
) -> list[Finding]:
    findings: list[Finding] = []
    os_kind = ctx.host.platform.os_kind
    tf = (probe.tensorflow or {})
    version = tf_version(probe)
    conflict = conflicting(installed)
    if conflict:
        uninstall = env_pip(ctx, "pip uninstall -y " + " ".join(sorted(conflict)))
        reinstall = env_pip(ctx, _install_line(ctx))
        findings.append(
            Finding(
                "tf_conflicting_packages",
                "fail",
                {"packages": ", ".join(f"{k} {v}" for k, v in sorted(conflict.items()))},
                evidence=", ".join(f"{k}=={v}" for k, v in sorted(conflict.items())),
                fix=Fix(
                    steps=(
                        Step("run", {"command": uninstall}),
                        Step("run", {"command": reinstall}),
                    ),
                    commands=(uninstall, reinstall),
                    action="pip_install",
                    action_params={"python": ctx.python, "command": reinstall},
                ),
            )
        )
    windows_new = os_kind == "windows" and _at_least(version, (2, 11))
    if windows_new:
        commands = _tf210_commands(ctx, probe)
        findings.append(
            Finding(
                "windows_native_tf_2_11_plus",
                "fail",
                {"version": version, "command": commands[-1]},
                evidence=f"TensorFlow {version} on native Windows",
                fix=Fix(
                    steps=(
                        Step("tensorflow.in_python_env", {"python": TF210_PYTHON}),
                        *(Step("run", {"command": c}) for c in commands),
                    ),
                    links=(Link(msg("link.tensorflow.wsl2"), WSL_TF_URL),),
                    commands=commands,
                ),
            )
        )
    cpu_only = _cpu_only_package(installed, tf, os_kind)
    if cpu_only and not windows_new:
        package, pkg_version = cpu_only
        uninstall = env_pip(ctx, f"pip uninstall -y {package}")
        install = env_pip(ctx, _install_line(ctx))
        findings.append(
            Finding(
                "gpu_not_listed_cpu_only_package",
                "fail",
                {"package": package, "version": pkg_version, "command": f"{uninstall} && {install}",
                 "framework": "TensorFlow"},
                evidence=_cpu_evidence(package, pkg_version, tf),
                fix=_pip_fix(ctx, uninstall, install, uninstall=package),
            )
        )
    if not cpu_only and not windows_new:
        wheels = _without_cuda_wheels(ctx, probe, version)
        if wheels:
            findings.append(wheels)
    numpy = _numpy_mismatch(ctx, probe, version)
    if numpy:
        findings.append(numpy)
    visible = _visible_devices_finding(ctx, probe)
    if visible:
        findings.append(visible)
    return findings


ROOT_PACKAGE_CODES = ("gpu_not_listed_cpu_only_package", "tensorflow_without_cuda_wheels",
                      "tf_conflicting_packages")
"""Where CUDA and cuDNN come from the framework's wheels, a wrong TensorFlow package is the root
cause of whatever the cuda and cudnn layers miss: they defer to its fix (``defer_to_package``)."""


def _without_cuda_wheels(
    ctx: CheckContext, probe: ProbeResult, version: Optional[str]
) -> Optional[Finding]:
    """Linux/WSL2 with CUDA from pip: a GPU build of TF installed without ``[and-cuda]``, so no
    nvidia-* wheels (the cuda or cudnn layer found none, nor a system copy) and no GPU."""
    tf = probe.tensorflow or {}
    if not ctx.target.pip_cuda or ctx.host.is_windows or not tf.get("imported"):
        return None
    if tf.get("gpus") or tf.get("built_with_cuda") is False or _no_nvidia_gpu(ctx):
        return None
    env = ctx.cuda_discovery.env if ctx.cuda_discovery is not None else None
    if env is None or not env.tensorflow or not _lower_misses_wheels(ctx):
        return None
    line = _install_line(ctx)
    command = env_pip(ctx, line)
    nvidia = sorted(probe.get("nvidia_packages") or {})
    return Finding(
        "tensorflow_without_cuda_wheels",
        "fail",
        {"version": version, "python": ctx.python, "command": command},
        evidence=(f"tensorflow {version} in {env.prefix}; nvidia-* wheels: "
                  + (", ".join(nvidia) if nvidia else "none")),
        fix=_pip_fix(ctx, command, requirement=line),
    )


def _lower_misses_wheels(ctx: CheckContext) -> bool:
    """The cuda layer found no CUDA wheel (nor a system CUDA), or the cudnn layer no cuDNN
    wheel: their pip-variant "missing" findings (those carry the install ``command``)."""
    cuda = ctx.results.get("cuda")
    cudnn = ctx.results.get("cudnn")
    if cuda is not None and any(f.code == "cuda_not_installed" and "where" in f.params
                                for f in cuda.findings):
        return True
    return cudnn is not None and any(f.code == "cudnn_missing" and "command" in f.params
                                     for f in cudnn.findings)


def root_package_finding(ctx: CheckContext) -> Optional[Finding]:
    """The TF layer's wrong-package finding (``fail``) where CUDA comes from pip wheels."""
    result = ctx.results.get("tensorflow")
    if result is None or not ctx.target.pip_cuda or ctx.host.is_windows:
        return None
    return next((f for f in result.findings
                 if f.code in ROOT_PACKAGE_CODES and f.severity == "fail"), None)


def defer_to_package(ctx: CheckContext) -> None:
    """Root cause first: with a wrong TF package (CPU-only, without ``[and-cuda]``, two at
    once) and CUDA from pip wheels, what the cuda and cudnn layers find missing is its
    consequence. Their failures become warnings whose one step is the package fix, so that
    fixing the lowest layer first never installs a toolkit that the package fix makes moot (or
    ``tensorflow[and-cuda]`` beside ``tensorflow-cpu``)."""
    root = root_package_finding(ctx)
    if root is None or not root.fix.commands:
        return
    command = root.fix.commands[-1] if root.code != "gpu_not_listed_cpu_only_package" else \
        " && ".join(root.fix.commands)
    step = Step("tensorflow.package_fix_first", {"command": command})
    for name in ("cuda", "cudnn"):
        result = ctx.results.get(name)
        if result is None or result.status != FAIL:
            continue
        result.findings = [_deferred(f, step) if f.severity == "fail" else f
                           for f in result.findings]
        result.status = worst_status(result.findings, WARN)
    tf_result = ctx.results["tensorflow"]
    if ctx.probe is not None:  # its summary no longer sends the user to a lower layer
        tf_result.summary = _summary(ctx, ctx.probe, ctx.probe.tensorflow,
                                     _gpu_ready(ctx.probe.tensorflow))


def _deferred(finding: Finding, step: Step) -> Finding:
    """The finding as a warning whose fix is the package fix (its own words and steps, e.g.
    "install the CUDA Toolkit", would conflict with it)."""
    evidence = (msg("diagnose.evidence.deferred", evidence=finding.evidence)
                if finding.evidence is not None else None)
    params = {**finding.params, codes.FIX_INSTEAD: step.message}
    return replace(finding, severity="warn", params=params, evidence=evidence, fix=Fix())


def explain_not_ready(ctx: CheckContext) -> None:
    """Not ready, yet no layer fails: say why on the TF layer, as a ``fail`` finding. A probe
    that could not run is the reason; a computation that failed on a listed GPU is; an import
    that failed is; else TF sees no GPU for a reason no rule knows: the log's lines about the
    GPU and the next diagnostic steps (:func:`unknown_cause`)."""
    result = ctx.results.get("tensorflow")
    if result is None:
        return
    probe = ctx.probe
    tf = (probe.tensorflow if probe is not None else None) or {}
    failed = next((f for f in result.findings if f.code == "probe_failed"), None)
    if failed is not None:
        result.findings = [replace(f, severity="fail") if f is failed else f
                           for f in result.findings]
    elif probe is None or not tf:
        result.findings.append(_no_tensorflow_finding(ctx))
    elif not tf.get("imported"):
        result.findings.extend(_unexplained_findings(ctx, probe, []))
    elif tf.get("gpus"):
        result.findings.extend(_computation_failures(tf) or [unknown_cause(ctx, probe)])
    else:
        result.findings.append(unknown_cause(ctx, probe))
    result.status = FAIL
    wiring.wire_result(ctx, result)


def _no_tensorflow_finding(ctx: CheckContext) -> Finding:
    probe = ctx.probe
    if probe is None:
        return _no_environment(ctx).findings[0]
    return _not_installed(ctx, probe)


GPU_LINE = re.compile(
    r"cuda|cudnn|cublas|gpu|nvidia|libcu|dlopen|dso_loader|cuInit|visible|device|\.dll\b"
    r"|\.so\b|\.so\.\d", re.IGNORECASE)
HARMLESS_LINE = re.compile(
    r"numa node|cpu_feature_guard|oneDNN|TensorRT|libnvinfer|optimized to use available CPU"
    r"|rebuild TensorFlow with the appropriate compiler flags|cuda_malloc_async|Created device",
    re.IGNORECASE)
DECISIVE_LINES = 8


def decisive_lines(log: str) -> list[str]:
    """The log's last lines about the GPU (CUDA, cuDNN, drivers, libraries, devices), without
    those known to be harmless: what a person reads first when no rule recognised the cause."""
    lines = []
    for line in log.splitlines():
        text = line.strip()
        if text and GPU_LINE.search(text) and not HARMLESS_LINE.search(text) and \
                text not in lines:
            lines.append(text[:400])
    return lines[-DECISIVE_LINES:]


def unknown_cause(ctx: CheckContext, probe: ProbeResult) -> Finding:
    """TF imported, yet lists no GPU (or ran nothing on it) and nothing explains it."""
    lines = decisive_lines(probe.log)
    python = ctx.python or "python"
    script = "import tensorflow as tf; print(tf.config.list_physical_devices('GPU'))"
    commands = (f'"{python}" -c "{script}" > tf-gpu.log 2>&1', "gpu-wizard explain tf-gpu.log")
    return Finding(
        "gpu_not_used_unknown_cause",
        "fail",
        {"version": tf_version(probe) or "?", "python": ctx.python,
         "count": len(lines) if lines else None},
        evidence="\n".join(lines) if lines else None,
        fix=Fix(
            steps=(Step("tensorflow.nvidia_smi"), *(Step("run", {"command": c}) for c in commands)),
            links=(Link(msg("link.tensorflow.pip"), TF_PIP_URL),),
            commands=("nvidia-smi", *commands),
        ),
    )


TF210_PYTHON = "3.7-3.10"
TF210_ENV = "tf210"


def _tf210_commands(ctx: CheckContext, probe: ProbeResult) -> tuple[str, ...]:
    """Commands that install TF 2.10 (the last with GPU support on native Windows): into this
    environment when its Python can run it, else into a new conda env with Python 3.10 (a conda
    user), or with the pip of whichever Python 3.7-3.10 the user picks."""
    pip_line = 'pip install "tensorflow<2.11"'
    info = probe.python
    version = str(info.get("version") or "")
    try:
        fits = bool(version) and knowledge.python_supported(version, TF210_PYTHON)
    except ValueError:
        fits = False
    if fits:
        return (env_pip(ctx, pip_line),)
    if info.get("conda"):
        return (f"conda create -y -n {TF210_ENV} python=3.10",
                f'conda run -n {TF210_ENV} python -m pip install "tensorflow<2.11"')
    # a venv made with a Python 3.10 (the py launcher finds it), TF installed with its Python
    return (f"py -3.10 -m venv {TF210_ENV}",
            f'.\\{TF210_ENV}\\Scripts\\python.exe -m pip install "tensorflow<2.11"')


def conflicting(installed: dict[str, str]) -> dict[str, str]:
    """Several TF distributions at once. ``tensorflow-intel`` at the same version as
    ``tensorflow`` is the Windows 2.12-2.15 wheel's own dependency, not a conflict."""
    names = dict(installed)
    if "tensorflow" in names and names.get("tensorflow-intel") == names["tensorflow"]:
        del names["tensorflow-intel"]
    names.pop("tensorflow-macos", None)
    return names if len(names) > 1 else {}


def _cpu_only_package(
    installed: dict[str, str], tf: dict[str, Any], os_kind: str
) -> Optional[tuple[str, str]]:
    for name in CPU_ONLY_DISTRIBUTIONS:
        if name in installed:
            return name, installed[name]
    if "tensorflow-intel" in installed and "tensorflow" not in installed:
        return "tensorflow-intel", installed["tensorflow-intel"]
    if tf.get("imported") and tf.get("built_with_cuda") is False:
        name = next(iter(installed), "tensorflow")
        return name, str(tf.get("version") or installed.get(name) or "?")
    return None


def _cpu_evidence(package: str, version: str, tf: dict[str, Any]) -> str:
    if tf.get("built_with_cuda") is False:
        return f"{package} {version}: tf.test.is_built_with_cuda() is False"
    return f"{package} {version} is installed"


def _numpy_mismatch(
    ctx: CheckContext, probe: ProbeResult, version: Optional[str]
) -> Optional[Finding]:
    numpy = probe.packages.get("numpy") or probe.get("numpy_version")
    tf = (probe.tensorflow or {})
    text = "\n".join(str(x or "") for x in (tf.get("error"), tf.get("traceback"), probe.get("log")))
    match = NUMPY_ABI_TEXT.search(text)
    by_version = _at_least(numpy, (2,)) and version is not None and not _at_least(version, (2, 16))
    if not (by_version or match):
        return None
    line = env_pip(ctx, 'pip install "numpy<2"')
    evidence = match.group(0) if match else f"numpy {numpy} with TensorFlow {version}"
    return Finding(
        "numpy_abi_mismatch",
        "fail",
        {"numpy": numpy, "tensorflow": version, "command": line},
        evidence=evidence,
        fix=Fix(steps=(Step("run", {"command": line}),), commands=(line,),
                action="pip_install", action_params={"python": ctx.python, "command": line}),
    )


INHERITED = ("CUDA_VISIBLE_DEVICES", "LD_LIBRARY_PATH", "PATH")
"""Variables the probe inherits from the wizard's environment that decide what TF loads and
sees (``TF_*`` too, found by prefix)."""


def inherited_env(ctx: CheckContext, name: str) -> tuple[Optional[str], str]:
    """The value of ``name`` the probe ran with, and where it comes from: the probe's own record
    (``probe``) where it recorded the name, else the wizard's process environment (``process``,
    through the Host), which the probe inherits."""
    recorded = (ctx.probe.get("env") if ctx.probe else None) or {}
    if isinstance(recorded, dict) and name in recorded:
        value = recorded[name]
        return (value if isinstance(value, str) else None), "probe"
    return ctx.host.getenv(name), "process"


def _inherited_facts(ctx: CheckContext) -> dict[str, Any]:
    names = list(INHERITED)
    names += sorted(n for n in ctx.host.env() if n.upper().startswith("TF_") and n not in names)
    facts = {}
    for name in names:
        value, source = inherited_env(ctx, name)
        if value is not None:
            facts[name] = {"value": value, "source": source}
    return facts


def _visible_devices_finding(ctx: CheckContext, probe: ProbeResult) -> Optional[Finding]:
    value, source = inherited_env(ctx, "CUDA_VISIBLE_DEVICES")
    if value is None:
        return None
    gpus = _nvml_gpus(ctx)
    judged = judge_visible_devices(value, gpus)
    if judged is None:
        return None
    severity, problem = judged
    listed = [f"{g['index']}: {g['name']}" + (f" ({g['uuid']})" if g.get("uuid") else "")
              for g in gpus]
    where = "the environment probe" if source == "probe" else "the wizard's environment"
    return Finding(
        "cuda_visible_devices_misconfigured",
        severity,
        {"value": repr(value), "problem": problem, "gpus": listed or None},
        evidence=f"CUDA_VISIBLE_DEVICES={value!r} (from {where}); GPUs NVML lists: "
                 + ("; ".join(listed) if listed else "none"),
        fix=Fix(steps=(Step("tensorflow.unset_visible_devices"),)),
    )


def visible_devices_problem(value: str, gpu_count: Optional[int]) -> Optional[Message]:
    """Why ``CUDA_VISIBLE_DEVICES`` hides every GPU, or None when it does not (GPUs known only
    by their number)."""
    gpus = [{"index": i, "name": "", "uuid": None} for i in range(gpu_count or 0)]
    judged = judge_visible_devices(value, gpus if gpu_count else [])
    return judged[1] if judged and judged[0] == "fail" else None


def judge_visible_devices(
    value: str, gpus: list[dict[str, Any]]
) -> Optional[tuple[str, Message]]:
    """``("fail", why)`` when ``CUDA_VISIBLE_DEVICES`` leaves CUDA no GPU, ``("warn", why)``
    when it drops some of the GPUs it names, None when it is fine. CUDA reads the list up to its
    first invalid entry (an index beyond the GPUs there are, a UUID no GPU has, anything that is
    neither): the devices before it are visible, none after. ``gpus`` are NVML's (``index``,
    ``uuid``); with none known only the form is judged."""
    text = value.strip()
    if text == "":
        return "fail", msg("tensorflow.visible_devices.empty")
    items = [item.strip() for item in text.split(",")]
    uuids = [str(g.get("uuid") or "") for g in gpus]
    for position, item in enumerate(items):
        why = _invalid_item(item, gpus, uuids)
        if why is None:
            continue
        if position == 0:
            return "fail", why
        return "warn", msg("tensorflow.visible_devices.stops_at", item=item,
                           kept=", ".join(items[:position]), why=why)
    return None


def _invalid_item(item: str, gpus: list[dict[str, Any]], uuids: list[str]) -> Optional[Message]:
    if not _VISIBLE_ITEM.match(item):
        if item.startswith("-") or item.lower() in ("none", "nodevfiles", "void"):
            return msg("tensorflow.visible_devices.hides_all")
        return msg("tensorflow.visible_devices.malformed")
    if item.isdigit():
        if gpus and int(item) >= len(gpus):
            return msg("tensorflow.visible_devices.no_such_index", indices=item, count=len(gpus))
        return None
    known = [u for u in uuids if u]
    if item.upper().startswith("GPU-") and known and len(gpus) == len(known):
        # CUDA takes a unique prefix of a GPU's UUID
        matches = [u for u in known if u.lower().startswith(item.lower())]
        if len(matches) != 1:
            return msg("tensorflow.visible_devices.no_such_uuid", uuid=item, count=len(gpus))
    return None


def _nvml_gpus(ctx: CheckContext) -> list[dict[str, Any]]:
    """The GPUs the gpu layer found (NVML's list, index and UUID), [] when unknown."""
    gpus = ctx.facts("gpu").get("gpus")
    if not isinstance(gpus, list):
        return []
    found = []
    for position, gpu in enumerate(g for g in gpus if isinstance(g, dict)):
        index = gpu.get("index")
        found.append({"index": index if isinstance(index, int) else position,
                      "name": str(gpu.get("name") or "GPU"), "uuid": gpu.get("uuid")})
    return found


# -- import, log and computations --------------------------------------------------------------


def _unexplained_findings(
    ctx: CheckContext, probe: ProbeResult, known: list[Finding]
) -> list[Finding]:
    """What the log did not explain: an import error or a failed GPU computation as such."""
    tf = (probe.tensorflow or {})
    causes = [f for f in known if f.code != "numa_or_harmless_warning"]
    if not tf.get("imported"):
        if causes:
            return []
        return [
            Finding(
                "probe_failed",
                "fail",
                {"python": ctx.python,
                 "error": msg("tensorflow.probe_error.import_failed",
                                     exception=tf.get("error") or "?"),
                 "error_kind": "import_error", "stage": "import_tensorflow",
                 "next_step": _next_step(str(ctx.python), "import_error")},
                evidence=(tf.get("traceback") or tf.get("error") or "")[-2000:],
            )
        ]
    if not tf.get("gpus") or any(f.severity != "info" for f in causes):
        return []
    return _computation_failures(tf)


def _computation_failures(tf: dict[str, Any]) -> list[Finding]:
    """The first of the matmul and the convolution that did not run on the GPU, as such."""
    found = []
    for step in ("matmul", "conv"):
        result = tf.get(step) or {}
        if result.get("ok") and "GPU" in str(result.get("device") or ""):
            continue
        found.append(
            Finding(
                "gpu_computation_failed",
                "fail",
                {"step": msg(f"tensorflow.phrase.{step}"),
                 "device": result.get("requested") or "/GPU:0",
                 "error": result.get("error") or msg("tensorflow.phrase.ran_on",
                                                     device=result.get("device") or "?")},
                evidence=result.get("error"),
            )
        )
        break
    return found
