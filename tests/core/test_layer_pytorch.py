"""The optional pytorch layer over recorded probe outputs, and its place in a report."""

from __future__ import annotations

import copy
from typing import Optional

import pytest
from test_layer_tensorflow import LINUX_EXE, context, finding, make_probe

from wizard.core.diagnose import run_check
from wizard.core.host import ReplayHost
from wizard.core.layers import CheckContext, pytorch, tensorflow
from wizard.core.model import FAIL, OK, LayerResult
from wizard.core.session import CheckSession

# -- the layer -----------------------------------------------------------------------------------


def torch_block(version: str = "2.13.0+cpu", cuda: Optional[str] = None, available: bool = False,
                arch: Optional[list[str]] = None, devices: Optional[list] = None) -> dict:
    return {"version": version, "cuda": cuda, "cudnn": None, "available": available,
            "devices": devices or [], "arch_list": arch or [], "error": None}


def pytorch_entry(ctx: CheckContext) -> LayerResult:
    tensorflow.check(ctx)
    assert pytorch.applies(ctx)
    entry = pytorch.check(ctx)
    assert entry.layer == "pytorch"
    return entry


def test_torch_cpu_build() -> None:
    probe = make_probe(None, packages={"torch": "2.13.0+cpu"}, torch=torch_block(),
                       python="3.11.7")
    entry = pytorch_entry(context(probe))
    cpu = finding(entry, "gpu_not_listed_cpu_only_package")
    assert cpu.params["package"] == "torch" and "download.pytorch.org/whl/cu" in cpu.params[
        "command"]
    assert entry.status == FAIL


def test_torch_cuda_newer_than_the_driver() -> None:
    lower = {name: LayerResult(name, OK, "ok") for name in ("gpu", "cuda", "cudnn")}
    lower["driver"] = LayerResult("driver", OK, "ok", facts={"cuda_driver_version": 12020,
                                                             "driver_version": "535.104"})
    probe = make_probe(None, torch=torch_block("2.13.0+cu130", cuda="13.0", available=False),
                       python="3.11.7")
    entry = pytorch_entry(context(probe, lower=lower))
    old = finding(entry, "driver_too_old")
    assert old.params["cuda"] == "13.0" and old.params["driver_cuda"] == "12.2"
    assert old.params["min_driver"] not in ("", "?")
    # the wizard installs no driver: the card says so and links NVIDIA's page (issue 10)
    assert old.fix.action is None and old.fix.manual_reason.id == "nofix.driver"
    assert any("nvidia.com" in link.url for link in old.fix.links)


def test_torch_build_without_the_gpu_arch() -> None:
    lower = {name: LayerResult(name, OK, "ok") for name in ("driver", "cuda", "cudnn")}
    lower["gpu"] = LayerResult("gpu", OK, "ok", facts={
        "gpus": [{"name": "NVIDIA GeForce GTX 1080", "compute_capability": "6.1"}]})
    probe = make_probe(None, torch=torch_block(
        "2.13.0+cu130", cuda="13.0", available=True,
        arch=["sm_75", "sm_80", "sm_86", "sm_90", "sm_100", "sm_120", "compute_120"]),
        python="3.11.7")
    entry = pytorch_entry(context(probe, lower=lower))
    unsupported = finding(entry, "compute_capability_unsupported")
    assert unsupported.params["cc"] == "6.1" and unsupported.params["framework"] == "PyTorch"


@pytest.mark.parametrize(
    ("cc", "arch", "ok"),
    [("8.6", ["sm_80"], True), ("8.6", ["sm_75", "sm_90"], False), ("8.9", ["compute_80"], True),
     ("6.1", ["sm_75", "compute_75"], False), ("12.0", ["sm_120"], True), ("5.0", ["sm_50"], True)],
)
def test_arch_supported(cc: str, arch: list[str], ok: bool) -> None:
    assert pytorch.arch_supported(cc, arch) is ok


def test_run_check_appends_the_pytorch_entry() -> None:
    profile = {
        "format": "gpu-wizard/profile@1",
        "platform": {"system": "linux", "release": "6.5", "wsl": None},
        "nvml": {"error": "library_not_found"},
        "pythons": [{"executable": LINUX_EXE, "probe": make_probe(
            None, packages={"torch": "2.13.0+cpu"}, torch=torch_block(), python="3.11.7")}],
    }
    report = run_check(ReplayHost(copy.deepcopy(profile)))
    names = [entry.layer for entry in report.layers]
    assert names[:5] == ["gpu", "driver", "cuda", "cudnn", "tensorflow"] and names[5] == "pytorch"
    assert "gpu_not_listed_cpu_only_package" in [f.code for f in report.layers[5].findings]
    assert report.python == LINUX_EXE


def test_no_pytorch_layer_without_torch() -> None:
    ctx = context(make_probe("2.10.0"))
    assert not pytorch.applies(ctx)
    failed = context({"error": "boom", "error_kind": "timeout"})
    assert not pytorch.applies(failed)


def test_the_session_report_lists_the_pytorch_layer_after_the_chain() -> None:
    profile = {
        "format": "gpu-wizard/profile@1",
        "platform": {"system": "linux", "release": "6.5", "wsl": None},
        "nvml": {"error": "library_not_found"},
        "pythons": [{"executable": LINUX_EXE, "probe": make_probe(
            None, packages={"torch": "2.13.0+cpu"}, torch=torch_block(), python="3.11.7")}],
    }
    session = CheckSession(ReplayHost(copy.deepcopy(profile)))
    report = session.run_all()
    assert [entry.layer for entry in report.layers][-2:] == ["tensorflow", "pytorch"]
    session.invalidate("driver")
    assert session.result("pytorch") is None
    assert [entry.layer for entry in session.report().layers] == ["gpu"]
    session.run_layer("tensorflow")
    assert session.report().layers[-1].layer == "pytorch"
    assert report.to_dict()["layers"][-1]["summary"] == "PyTorch 2.13.0+cpu (CPU build) sees no GPU"


def test_the_pytorch_layer_speaks_in_messages() -> None:
    from wizard.core.messages import Message, render

    probe = make_probe(None, packages={"torch": "2.13.0+cpu"}, torch=torch_block(),
                       python="3.11.7")
    entry = pytorch_entry(context(probe))
    assert isinstance(entry.summary, Message)
    assert render(entry.summary, "zh_CN") == "PyTorch 2.13.0+cpu（CPU 版本）没有识别到显卡"
    (cpu,) = entry.findings
    assert [link.title_text("zh_CN") for link in cpu.fix.links] == ["PyTorch：安装"]
