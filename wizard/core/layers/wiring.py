"""Which fix a layer's failure leads to, or why the wizard has none for it (issue 10).

Every ``fail`` finding of a check either carries an ``action`` that
:mod:`wizard.core.fixes.registry` can plan (``Fix.action``/``Fix.action_params``), or says why
the wizard cannot fix it (``Fix.manual_reason``, a ``nofix.*`` message), so that the GUI's card
shows "Fix it" or the reason, and ``check`` prints the ``gpu-wizard fix`` line or the reason.

The layers set the actions they know where they find the problem (cuDNN from an archive,
zlibwapi.dll, PATH). This pass fills in the rest from the finding's code and the machine; it
runs on each layer's result (``layers.layer_checker``) and again after the probe's log was filed
in the layers (log findings come from the explain engine, which knows no machine):

* CUDA missing, the wrong version, or broken: NVIDIA's installer for the target's CUDA on native
  Windows (``install_cuda``); the TensorFlow wheels where CUDA comes from pip (``pip_install``);
  on Linux a system toolkit is the distribution's packages (sudo): a reason.
* A wrong or missing TensorFlow package: ``pip_install`` with the environment's interpreter and
  the target (TF 2.10 on native Windows for a 2.11+); the registry's builder plans the whole
  install (conflicts out, a new environment for a Python too new).
* A fix that is one pip line addressed to an interpreter: ``pip_install`` of exactly that line.
* Everything else: the reason by code (:data:`REASONS`).

A finding that already carries an action is checked too: ``install_cudnn`` filed from a log
names no folder (the explain engine knows no machine), and a layer's may name the default folder
of a CUDA that is not installed. Where CUDA and cuDNN come from the TF wheels it becomes the
TensorFlow install (``pip_install``, ``tensorflow[and-cuda]``); with a system toolkit, the
toolkit's folder as ``dest``; with none, the reason (install CUDA first). A target with no GPU
build (TF 2.11+ on native Windows) has no CUDA or cuDNN to install: a reason.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any, Optional

from wizard.core import knowledge
from wizard.core.layers import CheckContext, env_pip
from wizard.core.messages import Message, msg
from wizard.core.model import Finding, LayerResult

CUDA_CODES = ("cuda_not_installed", "cuda_version_mismatch", "cudart_missing",
              "cuda_lib_other_missing", "libdevice_or_ptxas_missing")
TF_INSTALL_CODES = ("tensorflow_not_installed", "windows_native_tf_2_11_plus",
                    "python_version_unsupported", "gpu_not_listed_cpu_only_package",
                    "tensorflow_without_cuda_wheels", "tf_conflicting_packages")
"""Findings whose fix is installing the target TensorFlow in the chosen environment."""
CUDNN_CODES = ("cudnn_missing", "cudnn_version_mismatch", "cudnn_partial_install")
GPU_LIBRARY_CODES = (*CUDA_CODES, *CUDNN_CODES, "zlibwapi_missing")
"""Findings about the CUDA libraries a GPU build of TensorFlow loads."""

REASONS: dict[str, str] = {
    "no_nvidia_gpu": "nofix.hardware",
    "compute_capability_unsupported": "nofix.gpu_too_old",
    "driver_too_old": "nofix.driver",
    "gpu_without_driver": "nofix.driver",
    "no_driver_or_nvidia_smi_missing": "nofix.driver",
    "wrong_libcuda_loaded": "nofix.driver_files",
    "nvml_driver_library_mismatch": "nofix.restart",
    "nvidia_uvm_not_loaded": "nofix.root",
    "permission_denied_dev_nvidia": "nofix.root",
    "wsl_gpu_missing": "nofix.wsl",
    "container_no_gpu_passthrough": "nofix.container",
    "python_32bit": "nofix.python",
    "windows_dll_dependency_missing": "nofix.vc_redist",
    "cuda_visible_devices_misconfigured": "nofix.program",
    "gpu_index_out_of_range": "nofix.program",
    "gpu_kernel_fault": "nofix.kernel_fault",
    "gpu_model_oom": "nofix.program",
    "cudnn_handle_oom": "nofix.program",
    "operation_not_supported": "nofix.program",
    "op_no_gpu_kernel": "nofix.program",
    "gpu_computation_failed": "nofix.unknown",
    "gpu_not_used_unknown_cause": "nofix.unknown",
    "probe_failed": "nofix.probe",
    "check_failed": "nofix.wizard_bug",
}
"""Why the wizard has no fix, by code (``nofix.*`` in resources/messages/nofix.json)."""
FALLBACK = "nofix.manual"
"""A failure no rule here knows: follow its steps (never expected on a profile)."""
_PIP_LINE = re.compile(r'^(?:"[^"]+"|\S+)\s+-m\s+pip\s+install\s|^conda run -p "[^"]+" python '
                       r'-m pip install\s')


_BARE_PIP = re.compile(r"^\s*pip3?\s+(?:install|uninstall)\b")


def wire_result(ctx: CheckContext, result: LayerResult) -> LayerResult:
    """``result`` with each failure given its action or its reason (in place; returned)."""
    result.findings = [wire(ctx, _own_pip(ctx, finding)) for finding in result.findings]
    return result


def _own_pip(ctx: CheckContext, finding: Finding) -> Finding:
    """A finding whose commands run the environment's own pip: a bare ``pip install`` (the
    fix of a log line's signature, read without knowing the environment) may be another
    Python's."""
    commands = finding.fix.commands
    own = tuple(env_pip(ctx, c) if _BARE_PIP.match(c) else c for c in commands)
    return finding if own == commands else replace(finding, fix=replace(finding.fix,
                                                                        commands=own))


def wire_all(ctx: CheckContext) -> None:
    """Every result of the check so far (after the probe's log was filed in them)."""
    for result in ctx.results.values():
        wire_result(ctx, result)


def wire(ctx: CheckContext, finding: Finding) -> Finding:
    """The finding with an action or a reason; as it is when it has one, or is no failure."""
    fix = finding.fix
    if finding.severity != "fail" or fix.manual_reason is not None:
        return finding
    if fix.action:
        return _checked(ctx, finding)
    return _with(ctx, finding, _action(ctx, finding))


def _with(ctx: CheckContext, finding: Finding, action: Optional[Action]) -> Finding:
    """``finding`` with ``action``, or with its reason when None."""
    fix = finding.fix
    if action is not None:
        return replace(finding, fix=replace(fix, action=action[0], action_params=action[1],
                                            manual_reason=None))
    return replace(finding, fix=replace(fix, action=None, action_params={},
                                        manual_reason=reason(ctx, finding)))


def reason(ctx: CheckContext, finding: Finding) -> Message:
    """Why the wizard runs no fix for ``finding`` here."""
    code = finding.code
    target = ctx.target
    if code in GPU_LIBRARY_CODES and not target.gpu_supported:
        return msg("nofix.target_no_gpu", tensorflow=knowledge.series(str(target.tensorflow)),
                   last=knowledge.last_windows_gpu_tf())
    if code in (*CUDA_CODES, *CUDNN_CODES) and target.pip_cuda and not ctx.python:
        return msg("nofix.no_python")
    if code in CUDA_CODES:
        return msg(FALLBACK if ctx.host.is_windows else "nofix.cuda_system")
    if code in TF_INSTALL_CODES:
        return msg("nofix.no_python")
    if code in CUDNN_CODES:
        if any(c.startswith("conda ") for c in finding.fix.commands):
            return msg("nofix.package_manager")
        return msg("nofix.cudnn_system" if not ctx.host.is_windows else "nofix.cuda_first")
    return msg(REASONS.get(code, FALLBACK))


# -- actions -----------------------------------------------------------------------------------

Action = tuple[str, dict[str, Any]]


def _action(ctx: CheckContext, finding: Finding) -> Optional[Action]:
    if finding.code in CUDA_CODES:
        return _cuda_action(ctx, finding)
    if finding.code in TF_INSTALL_CODES:
        return _tf_action(ctx, finding)
    line = next((c for c in finding.fix.commands if _PIP_LINE.match(c)), None)
    if line is not None and ctx.python:
        return "pip_install", {"python": ctx.python, "command": line}
    return None


def _checked(ctx: CheckContext, finding: Finding) -> Finding:
    """A finding that carries its action: as it is when the builder has what it needs, else
    completed from this machine, else given its reason."""
    if finding.fix.action != "install_cudnn":
        return finding
    dest = finding.fix.action_params.get("dest")
    if dest and ctx.host.is_dir(dest):
        return finding
    return _with(ctx, finding, None if dest else _cudnn_action(ctx, finding))


def _cudnn_action(ctx: CheckContext, finding: Finding) -> Optional[Action]:
    """cuDNN for a finding that named no folder: the TF wheels' where CUDA comes from pip,
    else the toolkit of the target's CUDA when it is there; None without a GPU build to aim
    for or a toolkit to put it in."""
    target = ctx.target
    if not target.gpu_supported or not target.cudnn:
        return None
    if target.pip_cuda:
        return _tf_action(ctx, finding)
    from wizard.core.layers.cudnn import install_params

    params = install_params(ctx)
    return ("install_cudnn", params) if ctx.host.is_dir(params["dest"]) else None


def _cuda_action(ctx: CheckContext, finding: Finding) -> Optional[Action]:
    """The target's CUDA: from the TF wheels where it comes from pip, else NVIDIA's installer
    on native Windows; None on Linux (the distribution's packages, with sudo)."""
    target = ctx.target
    if target.pip_cuda:
        return _tf_action(ctx, finding)
    if ctx.host.is_windows and target.cuda:
        return "install_cuda", {"cuda": knowledge.series(str(target.cuda))}
    return None


def _tf_action(ctx: CheckContext, finding: Finding) -> Optional[Action]:
    """Install the target TF with the chosen environment's interpreter (the builder puts it in
    a new environment when this one's Python cannot run it); None without an environment."""
    if not ctx.python:
        return None
    os_kind = ctx.host.platform.os_kind
    tensorflow = str(ctx.target.tensorflow)
    if finding.code == "windows_native_tf_2_11_plus" or (
            os_kind == "windows" and not ctx.target.gpu_supported):
        tensorflow = knowledge.last_windows_gpu_tf()
    try:
        line = knowledge.install_command(tensorflow, os_kind)
    except (ValueError, KeyError):
        line = "pip install tensorflow"
    return "pip_install", {"python": ctx.python, "command": env_pip(ctx, line),
                           "tensorflow": knowledge.series(tensorflow)}
