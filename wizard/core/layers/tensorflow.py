"""The tensorflow layer: what the environment probe saw in the chosen Python environment.

It never imports TensorFlow: everything comes from ``ctx.probe`` (``resources/probes/
env_probe.py`` run in that environment). It checks the environment's Python against the target,
finds CPU-only builds, conflicting TF distributions, NumPy 2 under a TF built for NumPy 1, TF >=
2.11 on native Windows and a ``CUDA_VISIBLE_DEVICES`` that hides the GPU. It reads the loader's
own log with the ``explain`` engine and files each finding in the layer it belongs to (a missing
``cudnn64_8.dll`` lands on the cudnn layer with that file named). When PyTorch is installed it
adds a ``pytorch`` entry to the report (``ctx.cache["extra_layers"]``).
"""

from __future__ import annotations

import re
from typing import Any, Optional

from wizard.core import explain, knowledge
from wizard.core.layers import CheckContext
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

TF_DISTRIBUTIONS = (
    "tensorflow",
    "tensorflow-gpu",
    "tensorflow-cpu",
    "tensorflow-intel",
    "tf-nightly",
    "tf-nightly-cpu",
    "tf-nightly-gpu",
    "tf-nightly-intel",
    "intel-tensorflow",
    "tensorflow-macos",
)
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
TORCH_INSTALL_URL = "https://pytorch.org/get-started/locally/"


# ======================================================================================
# helpers over the probe
# ======================================================================================


def installed_tf(probe: dict[str, Any]) -> dict[str, str]:
    """The TF distributions installed, ``{name: version}``."""
    packages = probe.get("packages") or {}
    return {name: str(packages[name]) for name in TF_DISTRIBUTIONS if packages.get(name)}


def tf_version(probe: dict[str, Any]) -> Optional[str]:
    tf = probe.get("tensorflow") if isinstance(probe.get("tensorflow"), dict) else {}
    if tf.get("version"):
        return str(tf["version"])
    found = installed_tf(probe)
    for name in ("tensorflow", "tensorflow-gpu", "tensorflow-cpu", "tensorflow-intel"):
        if name in found:
            return found[name]
    return next(iter(found.values()), None)


def _version_tuple(text: Optional[str]) -> Optional[tuple[int, ...]]:
    if not text:
        return None
    match = re.match(r"(\d+)(?:\.(\d+))?(?:\.(\d+))?", str(text))
    if not match:
        return None
    return tuple(int(part) for part in match.groups() if part is not None)


def _at_least(version: Optional[str], minimum: tuple[int, ...]) -> bool:
    parsed = _version_tuple(version)
    if parsed is None:
        return False
    padded = parsed + (0,) * (len(minimum) - len(parsed))
    return padded[: len(minimum)] >= minimum


def env_pip(ctx: CheckContext, pip_line: str) -> str:
    """``pip install ...`` rewritten to run in the chosen environment: ``conda run -p <prefix>
    python -m pip ...`` for a conda env, else ``"<python>" -m pip ...``."""
    rest = re.sub(r"^\s*pip\s+", "", pip_line)
    python = ctx.python
    info = (ctx.probe or {}).get("python") or {}
    if not python:
        return pip_line
    if info.get("conda") and info.get("prefix"):
        return f'conda run -p "{info["prefix"]}" python -m pip {rest}'
    return f'"{python}" -m pip {rest}'


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
    probe = ctx.probe if isinstance(ctx.probe, dict) else None
    if ctx.python is None and probe is None:
        return _no_environment(ctx)
    if probe is None or probe.get("error"):
        return _probe_failed(ctx, probe or {"error": "no probe result"})
    facts = _facts(ctx, probe)
    findings: list[Finding] = []
    findings += _python_findings(ctx, probe)
    python_fits = not any(f.code == "python_version_unsupported" for f in findings)
    _add_torch_entry(ctx, probe)
    installed = installed_tf(probe)
    if not installed and not isinstance(probe.get("tensorflow"), dict):
        findings.append(_not_installed(ctx, probe, python_fits))
        result = _result(ctx, probe, facts, findings)
        # whatever the probe's log says is filed here too, so that a page (which runs the
        # layers one by one) shows what `gpu-wizard check` shows
        file_log_findings(ctx, result, explain.probe_log_findings(probe, _os(ctx)))
        return result
    findings += _package_findings(ctx, probe, installed)
    result = _result(ctx, probe, facts, findings)
    explained = explain.probe_log_findings(probe, _os(ctx))
    merged = file_log_findings(ctx, result, explained)
    if merged.added:  # the log may have failed a lower layer: name it in the summary
        tf_info = probe.get("tensorflow") if isinstance(probe.get("tensorflow"), dict) else None
        result.summary = _summary(ctx, probe, tf_info, _gpu_ready(tf_info))
    # a log finding the machine's facts ruled out explains nothing
    extra = _unexplained_findings(ctx, probe, findings + merged.kept)
    if extra:
        result.findings.extend(extra)
        result.status = worst_status(result.findings, result.status)
    return result


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
    layers = [r for name, r in ctx.results.items() if name != "tensorflow"] + [result]
    return explain.reconcile_log_findings(layers, explained)


def _result(
    ctx: CheckContext, probe: dict[str, Any], facts: dict[str, Any], findings: list[Finding]
) -> LayerResult:
    tf = probe.get("tensorflow") if isinstance(probe.get("tensorflow"), dict) else None
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
    ctx: CheckContext, probe: dict[str, Any], tf: Optional[dict[str, Any]], ready: bool
) -> str:
    python = (probe.get("python") or {}).get("version") or "?"
    where = f"Python {python} at {ctx.python}"
    if tf is None:
        return f"TensorFlow not installed ({where})"
    version = tf.get("version") or tf_version(probe) or "?"
    if not tf.get("imported"):
        return f"TensorFlow {version} fails to import ({where})"
    if ready:
        names = ", ".join(g.get("device_name") or g.get("name", "GPU") for g in tf["gpus"])
        return f"TensorFlow {version} runs on {names} ({where})"
    if tf.get("built_with_cuda") is False:
        return f"TensorFlow {version} is a CPU-only build: it cannot use a GPU ({where})"
    build = "CUDA build"
    if tf.get("gpus"):
        return f"TensorFlow {version} ({build}) lists the GPU but a computation failed ({where})"
    blocking = _lower_failure(ctx)
    gpu = ctx.results.get("gpu")
    if gpu is not None and any(f.code == "no_nvidia_gpu" for f in gpu.findings):
        return f"TensorFlow {version} ({build}) sees no GPU: this machine has none ({where})"
    hint = f"; fix the {blocking} layer first" if blocking else ""
    return f"TensorFlow {version} ({build}) sees no GPU{hint} ({where})"


def _lower_failure(ctx: CheckContext) -> Optional[str]:
    for name in ("gpu", "driver", "cuda", "cudnn"):
        result = ctx.results.get(name)
        if result is not None and result.status == FAIL:
            return name
    return None


def _facts(ctx: CheckContext, probe: dict[str, Any]) -> dict[str, Any]:
    python = probe.get("python") or {}
    tf = probe.get("tensorflow") if isinstance(probe.get("tensorflow"), dict) else None
    packages = {k: v for k, v in (probe.get("packages") or {}).items() if v}
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
        "cuda_visible_devices": (probe.get("env") or {}).get("CUDA_VISIBLE_DEVICES"),
        "probe_seconds": probe.get("probe_seconds"),
        "log": _trim_log(str(probe.get("log") or "")),
    }
    return facts


def _trim_log(text: str) -> str:
    if len(text) <= 2 * LOG_FACT_KEEP:
        return text
    cut = len(text) - 2 * LOG_FACT_KEEP
    return f"{text[:LOG_FACT_KEEP]}\n[... {cut} characters cut ...]\n{text[-LOG_FACT_KEEP:]}"


# -- no environment / failed probe ------------------------------------------------------------


def _no_environment(ctx: CheckContext) -> LayerResult:
    line = _install_line(ctx)
    finding = Finding(
        "tensorflow_not_installed",
        "fail",
        {"python": "any Python environment found on this machine", "command": line,
         "tensorflow": ctx.target.tensorflow, "python_range": ctx.target.python},
        fix=Fix(
            steps=(
                Step("text", {"text": f"Create an environment with Python {ctx.target.python}."}),
                Step("run", {"command": line}),
            ),
            links=(Link("TensorFlow: install with pip", TF_PIP_URL),),
            commands=(line,),
            action="pip_install",
            action_params={"command": line},
        ),
    )
    return LayerResult(
        "tensorflow", FAIL, "no Python environment with TensorFlow found", {"python": None},
        [finding],
    )


def _probe_failed(ctx: CheckContext, probe: dict[str, Any]) -> LayerResult:
    python = ctx.python or probe.get("executable") or "?"
    kind = probe.get("error_kind") or "unknown"
    log = str(probe.get("log") or "")
    evidence = (probe.get("stderr_tail") or probe.get("stdout_tail") or log[-2000:] or None)
    finding = Finding(
        "probe_failed",
        "warn",
        {"python": python, "error": probe.get("error"), "error_kind": kind,
         "stage": probe.get("stage") or "",
         "next_step": _next_step(python, "too_old" if _too_old(probe) else kind,
                                 ctx.target.python or "3")},
        evidence=evidence,
    )
    findings = [finding]
    facts = {
        "python": python,
        "probe_error": probe.get("error"),
        "probe_error_kind": kind,
        "stage": probe.get("stage"),
        "returncode": probe.get("returncode"),
        "stdout_tail": probe.get("stdout_tail"),
        "stderr_tail": probe.get("stderr_tail"),
        "log": _trim_log(log),
    }
    summary = f"could not check {python}: {kind}"
    result = LayerResult("tensorflow", UNKNOWN, summary, facts, findings)
    # A probe that hung or crashed may still have printed the loader's lines: read them.
    text = log + "\n" + str(probe.get("stderr_tail") or "")
    file_log_findings(ctx, result, explain_text(text, _os(ctx)))
    return result


def _too_old(probe: dict[str, Any]) -> bool:
    """The probe did not run because the Python is too old for it (Python 2, 3.3...): then it is
    too old for TensorFlow too."""
    text = f"{probe.get('error') or ''}\n{probe.get('stderr_tail') or ''}"
    return "too old to run the environment probe" in text or "Unknown option: -I" in text


def _next_step(python: str, kind: str, python_range: str = "3") -> str:
    if kind == "too_old":
        version = _newest_in_range(python_range)
        name = _new_env_name(version)
        return (f"Choose an environment with Python {python_range} with --python, or create one "
                f"(python.org, or conda create -n {name} python={version}): TensorFlow cannot "
                "run in this Python.")
    if kind == "not_found":
        return ("Check the path (a venv's interpreter is bin/python, or Scripts\\python.exe on "
                "Windows), or leave out --python to let the wizard find your environments.")
    if kind == "timeout":
        return (f'Run "{python}" -c "import tensorflow" in a terminal to see where it hangs, then '
                "check again (a first import can be slow); or choose another environment with "
                "--python.")
    if kind == "cancelled":
        return "Run the check again."
    return (f'Run "{python}" -c "import tensorflow" in a terminal to see the error, or choose '
            "another environment with --python.")


# -- Python ------------------------------------------------------------------------------------


def _python_findings(ctx: CheckContext, probe: dict[str, Any]) -> list[Finding]:
    python = probe.get("python") or {}
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
    tf = probe.get("tensorflow") if isinstance(probe.get("tensorflow"), dict) else None
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
                fix=Fix(
                    steps=(
                        Step("text",
                             {"text": f"Create an environment with Python {ctx.target.python}."}),
                        *(Step("run", {"command": c}) for c in commands),
                    ),
                    links=(Link("TensorFlow: install with pip", TF_PIP_URL),),
                    commands=commands,
                ),
            )
        )
    return findings


def _new_env_name(version: str) -> str:
    """``tf-py310``: the environment the wizard suggests creating (conda ``-n``, venv folder),
    named after its Python so that it does not clash with an env called ``tf``."""
    return "tf-py" + version.replace(".", "")


def new_env_commands(ctx: CheckContext, probe: Optional[dict[str, Any]]) -> tuple[str, ...]:
    """Commands that create an environment whose Python can run the target TF and install TF
    there: a conda env for a conda user, else a venv made with that Python (``py -3.x`` on
    Windows, ``python3.x`` elsewhere). Never the chosen environment: its Python cannot run it."""
    version = _newest_in_range(ctx.target.python or "")
    rest = re.sub(r"^\s*pip\s+", "", _install_line(ctx))
    info = ((probe or {}).get("python") or {}) if isinstance(probe, dict) else {}
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
    ta, tb = _version_tuple(a), _version_tuple(b)
    return bool(ta and tb and ta[:2] == tb[:2])


# -- packages ----------------------------------------------------------------------------------


def _not_installed(ctx: CheckContext, probe: dict[str, Any], python_fits: bool = True) -> Finding:
    line = _install_line(ctx)
    if not python_fits:
        # this Python cannot run the target: install into a new environment, never into it
        commands = new_env_commands(ctx, probe)
        return Finding(
            "tensorflow_not_installed",
            "fail",
            {"python": ctx.python, "command": commands[-1], "tensorflow": ctx.target.tensorflow},
            evidence=f"{ctx.python}: no tensorflow distribution installed",
            fix=Fix(
                steps=(
                    Step("text",
                         {"text": f"Create an environment with Python {ctx.target.python}."}),
                    *(Step("run", {"command": c}) for c in commands),
                ),
                links=(Link("TensorFlow: install with pip", TF_PIP_URL),),
                commands=commands,
            ),
        )
    command = env_pip(ctx, line)
    return Finding(
        "tensorflow_not_installed",
        "fail",
        {"python": ctx.python, "command": command, "tensorflow": ctx.target.tensorflow},
        evidence=f"{ctx.python}: no tensorflow distribution installed",
        fix=Fix(
            steps=(Step("run", {"command": command}),),
            links=(Link("TensorFlow: install with pip", TF_PIP_URL),),
            commands=(command,),
            action="pip_install",
            action_params={"python": ctx.python, "command": command, "requirement": line},
        ),
    )


def _package_findings(
    ctx: CheckContext, probe: dict[str, Any], installed: dict[str, str]
) -> list[Finding]:
    findings: list[Finding] = []
    os_kind = ctx.host.platform.os_kind
    tf = probe.get("tensorflow") if isinstance(probe.get("tensorflow"), dict) else {}
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
                        Step("text", {"text": "In a Python 3.7-3.10 environment:"}),
                        *(Step("run", {"command": c}) for c in commands),
                    ),
                    links=(Link("TensorFlow on WSL2", WSL_TF_URL),),
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
                fix=Fix(
                    steps=(Step("run", {"command": uninstall}), Step("run", {"command": install})),
                    links=(Link("TensorFlow: install with pip", TF_PIP_URL),),
                    commands=(uninstall, install),
                    action="pip_install",
                    action_params={"python": ctx.python, "command": install,
                                   "uninstall": package},
                ),
            )
        )
    numpy = _numpy_mismatch(ctx, probe, version)
    if numpy:
        findings.append(numpy)
    visible = _visible_devices_finding(ctx, probe)
    if visible:
        findings.append(visible)
    return findings


TF210_PYTHON = "3.7-3.10"
TF210_ENV = "tf210"


def _tf210_commands(ctx: CheckContext, probe: dict[str, Any]) -> tuple[str, ...]:
    """Commands that install TF 2.10 (the last with GPU support on native Windows): into this
    environment when its Python can run it, else into a new conda env with Python 3.10 (a conda
    user), or with the pip of whichever Python 3.7-3.10 the user picks."""
    pip_line = 'pip install "tensorflow<2.11"'
    info = probe.get("python") or {}
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
    return (pip_line,)


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
    ctx: CheckContext, probe: dict[str, Any], version: Optional[str]
) -> Optional[Finding]:
    numpy = (probe.get("packages") or {}).get("numpy") or probe.get("numpy_version")
    tf = probe.get("tensorflow") if isinstance(probe.get("tensorflow"), dict) else {}
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


def _visible_devices_finding(ctx: CheckContext, probe: dict[str, Any]) -> Optional[Finding]:
    value = (probe.get("env") or {}).get("CUDA_VISIBLE_DEVICES")
    if value is None:
        return None
    problem = visible_devices_problem(value, _gpu_count(ctx))
    if not problem:
        return None
    return Finding(
        "cuda_visible_devices_misconfigured",
        "fail",
        {"value": repr(value), "problem": problem},
        evidence=f"CUDA_VISIBLE_DEVICES={value!r} ({problem})",
        fix=Fix(steps=(Step("text", {"text": "Unset CUDA_VISIBLE_DEVICES or set it to 0."}),)),
    )


def visible_devices_problem(value: str, gpu_count: Optional[int]) -> Optional[str]:
    """Why ``CUDA_VISIBLE_DEVICES`` hides every GPU, or None when it does not."""
    text = value.strip()
    if text == "":
        return "empty: no GPU is visible"
    items = [item.strip() for item in text.split(",")]
    if not all(_VISIBLE_ITEM.match(item) for item in items):
        if text.startswith("-") or text.lower() in ("none", "nodevfiles", "void"):
            return "it hides every GPU"
        return "malformed: use GPU indices such as 0 or 0,1"
    indices = [int(item) for item in items if item.isdigit()]
    if indices and indices == [i for i in indices if gpu_count is not None and i >= gpu_count]:
        return f"no GPU has index {', '.join(map(str, indices))} ({gpu_count} present)"
    return None


def _gpu_count(ctx: CheckContext) -> Optional[int]:
    gpus = ctx.facts("gpu").get("gpus")
    return len(gpus) if isinstance(gpus, list) and gpus else None


# -- import, log and computations --------------------------------------------------------------


def _unexplained_findings(
    ctx: CheckContext, probe: dict[str, Any], known: list[Finding]
) -> list[Finding]:
    """What the log did not explain: an import error or a failed GPU computation as such."""
    tf = probe.get("tensorflow") if isinstance(probe.get("tensorflow"), dict) else {}
    causes = [f for f in known if f.code != "numa_or_harmless_warning"]
    if not tf.get("imported"):
        if causes:
            return []
        return [
            Finding(
                "probe_failed",
                "fail",
                {"python": ctx.python, "error": f"import tensorflow failed: {tf.get('error')}",
                 "error_kind": "import_error", "stage": "import_tensorflow",
                 "next_step": _next_step(str(ctx.python), "import_error")},
                evidence=(tf.get("traceback") or tf.get("error") or "")[-2000:],
            )
        ]
    if not tf.get("gpus") or any(f.severity != "info" for f in causes):
        return []
    found = []
    for step in ("matmul", "conv"):
        result = tf.get(step) or {}
        if result.get("ok") and "GPU" in str(result.get("device") or ""):
            continue
        found.append(
            Finding(
                "gpu_computation_failed",
                "fail",
                {"step": step, "device": result.get("requested") or "/GPU:0",
                 "error": result.get("error") or f"it ran on {result.get('device')}"},
                evidence=result.get("error"),
            )
        )
        break
    return found


# ======================================================================================
# PyTorch
# ======================================================================================


def _add_torch_entry(ctx: CheckContext, probe: dict[str, Any]) -> None:
    torch = probe.get("torch")
    if not isinstance(torch, dict):
        return
    entry = torch_layer(ctx, torch, probe)
    extra = ctx.cache.setdefault("extra_layers", [])
    extra[:] = [layer for layer in extra if layer.layer != "pytorch"] + [entry]


def torch_layer(ctx: CheckContext, torch: dict[str, Any], probe: dict[str, Any]) -> LayerResult:
    version = str(torch.get("version") or (probe.get("packages") or {}).get("torch") or "?")
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
    if torch.get("error") and not torch.get("version"):
        text = str(torch["error"]) + "\n" + str(probe.get("log") or "")
        findings += [f for f in explain_text(text, _os(ctx))
                     if f.code != "numa_or_harmless_warning"][:3]
    elif "+cpu" in version or not cuda:
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
                    links=(Link("PyTorch: install", TORCH_INSTALL_URL),),
                    commands=(line,),
                    action="pip_install",
                    action_params={"python": ctx.python, "command": line},
                ),
            )
        )
    else:
        findings += _torch_driver_findings(ctx, str(cuda))
        findings += _torch_arch_findings(ctx, torch, version)
    if findings:
        status = worst_status(findings, OK if torch.get("available") else WARN)
    else:
        status = OK if torch.get("available") else WARN
    where = "CPU build" if ("+cpu" in version or not cuda) else f"CUDA {cuda}"
    seen = "sees the GPU" if torch.get("available") else "sees no GPU"
    summary = f"PyTorch {version} ({where}) {seen}"
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


def _torch_driver_findings(ctx: CheckContext, cuda: str) -> list[Finding]:
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
            fix=Fix(links=(Link("NVIDIA drivers", knowledge.driver_download_url()),),
                    action="download_driver"),
        )
    ]


def arch_supported(cc: str, arch_list: list[str]) -> bool:
    """Whether a GPU of compute capability ``cc`` ("8.6") can run a build for ``arch_list``
    (``sm_80``..., ``compute_90``): a cubin of the same major and a lower or equal minor, or PTX
    of a lower or equal capability that the driver can compile."""
    parsed = _version_tuple(cc)
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


def _torch_arch_findings(ctx: CheckContext, torch: dict[str, Any], version: str) -> list[Finding]:
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
        findings.append(
            Finding(
                "compute_capability_unsupported",
                "fail",
                {"gpu": name, "cc": cc, "framework": "PyTorch", "version": version,
                 "min_cc": _arch_min(arch_list), "max_note": "", "arch_list": arch_list,
                 "advice": "a PyTorch build whose arch list includes sm_" + cc.replace(".", "")},
                evidence=f"{name} is sm_{cc.replace('.', '')}; the build has {' '.join(arch_list)}",
                fix=Fix(links=(Link("PyTorch: install", TORCH_INSTALL_URL),)),
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
