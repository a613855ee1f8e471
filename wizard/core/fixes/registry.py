"""The fixes the wizard can run, by the action name a finding carries (``Fix.action``), so the
GUI can offer "Fix it" where a builder exists. Each builder takes the host, the finding's
``action_params`` and what the user supplied (an archive, a file), and returns a Plan (the
``install_cudnn`` builder without an archive: the DownloadPlan of NVIDIA's archive)."""

from __future__ import annotations

import re
from typing import Any, Callable, Optional

from wizard.core.fixes.cudnn import CudnnRequest, plan_cudnn, plan_zlibwapi
from wizard.core.fixes.env import plan_cuda_path, plan_path
from wizard.core.fixes.plan import FixError, Plan
from wizard.core.host import Host
from wizard.core.messages import msg

Builder = Callable[[Host, dict[str, Any], dict[str, Any]], Plan]


def _install_cudnn(host: Host, params: dict[str, Any], given: dict[str, Any]) -> Any:
    """cuDNN from the archive the user gave (``given["archive"]``): the archive fix's Plan;
    with ``given["download"]`` or no archive, the ``DownloadPlan`` of the archive the target
    needs from NVIDIA (:mod:`wizard.core.fixes.cudnn_download`: fetch it, then
    ``install_plan``)."""
    if given.get("download") or not given.get("archive"):
        from wizard.core.fixes import cudnn_download

        return cudnn_download.download_plan(host, params, given)
    return plan_cudnn(host, CudnnRequest(
        archive=given["archive"], dest=given.get("dest") or params["dest"],
        toolkit=given.get("toolkit", True), tensorflow=params.get("tensorflow"),
        cudnn_needed=params.get("cudnn"), force=bool(given.get("force")),
        zlibwapi=given.get("zlibwapi")))


def _install_zlibwapi(host: Host, params: dict[str, Any], given: dict[str, Any]) -> Plan:
    if not given.get("file"):
        raise FixError(msg("fix.needs.zlibwapi"))
    return plan_zlibwapi(host, given["file"], given.get("dest") or params["dest"])


def _set_env(host: Host, params: dict[str, Any], given: dict[str, Any]) -> Plan:
    name = params.get("name", "PATH")
    if name == "CUDA_PATH":
        return plan_cuda_path(host, params["value"], system=bool(given.get("system")))
    directory = params.get("prepend") or params.get("append")
    if not directory:
        raise FixError(msg("fix.needs.directory", name=name))
    return plan_path(host, directory, name, system=bool(given.get("system")))


ACTIONS: dict[str, Builder] = {
    "install_cudnn": _install_cudnn,
    "install_zlibwapi": _install_zlibwapi,
    "set_env": _set_env,
}


def builder(action: Optional[str]) -> Optional[Builder]:
    """The plan builder of a finding's action; None when the wizard has no fix for it."""
    return ACTIONS.get(action or "")


# -- fixes that run a program (pip, conda, NVIDIA's installer) --------------------------------
# Not journaled file changes. pip_install: a PackagePlan (wizard.core.fixes.packages), run by
# packages.run_plan; install_cuda: a CudaPlan (wizard.core.fixes.cuda_installer), fetched by
# cuda_installer.fetch and run by cuda_installer.run_installer; both with live output lines,
# progress and cancel, then the layer checked again (packages.recheck, cuda_installer.recheck).

def _pip_install(host: Host, params: dict[str, Any], given: dict[str, Any]) -> Any:
    """A TensorFlow install: the whole plan for this machine (conflicts out, conda's CUDA, a
    new environment for a Python too new); any other pip line (``numpy<2``, a PyTorch wheel):
    exactly that line, with the environment's interpreter. ``given["probe"]`` (with
    ``given["probe_python"]``): the check's probe of that environment, used instead of a new
    one (:func:`given_probe`)."""
    from wizard.core.fixes import packages

    python = given.get("python") or params.get("python")
    command = params.get("command") or ""
    try:
        addressed, args = packages.parse_pip_command(host, command)
    except ValueError:
        addressed, args = None, ["install", "tensorflow"]
    tensorflow = given.get("tensorflow") or params.get("tensorflow")
    if tensorflow or any(re.match(r"(tensorflow|tf-nightly)", a) for a in args[1:]):
        return packages.plan_tensorflow(host, python=python, tensorflow=tensorflow,
                                        probe=given_probe(host, given, python),
                                        cancelled=given.get("cancelled"))
    return packages.plan_command(host, command, probe=given_probe(host, given, addressed))


def given_probe(host: Host, given: dict[str, Any], python: Optional[str]) -> Any:
    """The check's own probe of ``python`` (``given["probe"]``, run in
    ``given["probe_python"]``), so that planning does not start the probe again (seconds on a
    real machine); None when it is absent, failed, or another environment's (the builder then
    probes)."""
    from wizard.core.host import ProbeResult

    probe = ProbeResult.of(given.get("probe"))
    if probe is None or probe.error or not python:
        return None
    owner = given.get("probe_python")
    if not owner or host.same_path(str(owner), str(python)):
        return probe
    return None


def _install_cuda(host: Host, params: dict[str, Any], given: dict[str, Any]) -> Any:
    """NVIDIA's installer for the finding's CUDA (``given["installer"]``: a file at hand), a
    ``CudaPlan``; on Linux and WSL2 FixError with the route to take instead."""
    from wizard.core.fixes.cuda_installer import plan_cuda

    return plan_cuda(host, cuda=given.get("cuda") or params.get("cuda"),
                     tensorflow=given.get("tensorflow") or params.get("tensorflow"),
                     python=given.get("python") or params.get("python"),
                     installer=given.get("installer"),
                     allow_hosts=tuple(given.get("allow_hosts") or ()))


RUNS: dict[str, Builder] = {
    "pip_install": _pip_install,
    "install_cuda": _install_cuda,
}


def run_builder(action: Optional[str]) -> Optional[Builder]:
    """The builder of a fix that runs a program, by a finding's action; None when none."""
    return RUNS.get(action or "")
