"""diagnose.settle(): the report agrees with itself on machines no profile of the library shows
(each built here from a library profile with one thing changed)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any, Callable

import pytest

from wizard.core.diagnose import CheckOptions, run_check
from wizard.core.host import ReplayHost
from wizard.core.layers import tensorflow as tf_layer
from wizard.core.model import Report
from wizard.core.session import CheckSession

PROFILES = Path(__file__).resolve().parents[1] / "profiles"
GUI_PROFILES = Path(__file__).resolve().parents[1] / "gui" / "profiles"
LINUX = "linux-tf221-and-cuda-healthy"
CPU = "/job:localhost/replica:0/task:0/device:CPU:0"


def load(name: str) -> dict[str, Any]:
    return json.loads((PROFILES / f"{name}.json").read_text(encoding="utf-8"))


def changed(name: str, change: Callable[[dict[str, Any]], None]) -> Report:
    profile = copy.deepcopy(load(name))
    change(profile)
    return run_check(ReplayHost(profile))


def tf_probe(profile: dict[str, Any]) -> dict[str, Any]:
    return profile["pythons"][0]["probe"]


def finding(report: Report, layer: str, code: str) -> Any:
    found = [f for f in report.layer(layer).findings if f.code == code]
    assert found, [f.code for f in report.layer(layer).findings]
    return found[0]


def agrees(report: Report) -> None:
    assert report.ready is (report.blocking_layer is None)
    if report.blocking_layer:
        assert any(f.severity == "fail" for f in report.layer(report.blocking_layer).findings)


# -- not ready, and no rule knows why ------------------------------------------------------------

ODD_LOG = (
    "2024-11-29 10:02:14.640117: I tensorflow/core/platform/cpu_feature_guard.cc:210] This "
    "TensorFlow binary is optimized to use available CPU instructions in performance-critical "
    "operations.\n"
    "W0000 00:00:1732874535.117093   48213 gpu_device.cc:9999] Frobnicating GPU 0 failed: "
    "status 42\n"
    "I0000 00:00:1732874535.117131   48213 numa_node.cc:12] successful NUMA node read\n"
)


def _no_gpu_odd_log(profile: dict[str, Any]) -> None:
    probe = tf_probe(profile)
    probe["tensorflow"].update(gpus=[], matmul={"ok": True, "device": CPU, "error": None},
                               conv={"ok": True, "device": CPU, "error": None})
    probe["log"] = ODD_LOG


def test_tf_sees_no_gpu_for_an_unknown_reason_fails_with_the_logs_lines_and_next_steps() -> None:
    report = changed(LINUX, _no_gpu_odd_log)
    agrees(report)
    assert not report.ready and report.blocking_layer == "tensorflow"
    unknown = finding(report, "tensorflow", "gpu_not_used_unknown_cause")
    assert unknown.severity == "fail"
    assert "Lines of the log about the GPU: 1," in unknown.message()
    seen = unknown.to_dict()["evidence"]
    assert "Frobnicating GPU 0 failed" in seen
    assert "cpu_feature_guard" not in seen and "NUMA" not in seen  # harmless lines left out
    python = report.python
    assert any(c.startswith(f'"{python}" -c ') for c in unknown.fix.commands)
    assert "gpu-wizard explain tf-gpu.log" in unknown.fix.commands
    assert "nvidia-smi" in unknown.fix.commands
    assert "unknown_cause" in unknown.to_dict("zh_CN")["code"]


def test_an_unknown_cause_without_any_gpu_line_says_so() -> None:
    def change(profile: dict[str, Any]) -> None:
        _no_gpu_odd_log(profile)
        tf_probe(profile)["log"] = ""

    unknown = finding(changed(LINUX, change), "tensorflow", "gpu_not_used_unknown_cause")
    assert "no line about the GPU" in unknown.message()


def test_decisive_lines_keep_the_gpu_lines_and_drop_the_harmless_ones() -> None:
    lines = tf_layer.decisive_lines(ODD_LOG + "random text\n" + ODD_LOG)
    assert lines == ["W0000 00:00:1732874535.117093   48213 gpu_device.cc:9999] Frobnicating "
                     "GPU 0 failed: status 42"]


def test_a_probe_that_hung_is_the_reason_when_nothing_else_fails() -> None:
    def change(profile: dict[str, Any]) -> None:
        profile["pythons"][0]["probe"] = {
            "error": "the environment probe did not finish within 180 s", "error_kind": "timeout",
            "stage": "import_tensorflow", "stdout_tail": "", "stderr_tail": "", "log": ""}

    profile = copy.deepcopy(load(LINUX))
    change(profile)
    python = profile["pythons"][0]["executable"]
    report = run_check(ReplayHost(profile), CheckOptions(python=python))  # as --python does
    agrees(report)
    assert report.blocking_layer == "tensorflow"
    assert finding(report, "tensorflow", "probe_failed").severity == "fail"


def test_a_gpu_listed_whose_matmul_ran_on_the_cpu_is_a_failed_computation() -> None:
    def change(profile: dict[str, Any]) -> None:
        tf_probe(profile)["tensorflow"]["matmul"] = {"ok": True, "device": CPU, "error": None}

    report = changed(LINUX, change)
    agrees(report)
    assert finding(report, "tensorflow", "gpu_computation_failed").severity == "fail"


# -- proof from above ----------------------------------------------------------------------------


def _drop_cudnn_wheel(profile: dict[str, Any]) -> None:
    for path in [p for p in profile["files"] if "/nvidia/cudnn/" in p]:
        del profile["files"][path]


def test_a_convolution_on_the_gpu_turns_a_missing_cudnn_listing_into_a_warning() -> None:
    report = changed(LINUX, _drop_cudnn_wheel)
    agrees(report)
    assert report.ready and report.layer("cudnn").status == "warn"
    for f in report.layer("cudnn").findings:
        assert f.severity != "fail"
    proved = [f for f in report.layer("cudnn").findings if f.severity == "warn"]
    evidence = proved[0].to_dict()["evidence"]
    assert "TensorFlow ran a matmul and a convolution on GPU:0" in evidence
    assert "卷积" in proved[0].to_dict("zh_CN")["evidence"]


def test_a_matmul_alone_proves_cuda_but_not_cudnn() -> None:
    def change(profile: dict[str, Any]) -> None:
        _drop_cudnn_wheel(profile)
        for path in [p for p in profile["files"] if "/nvidia/cuda_runtime/" in p]:
            del profile["files"][path]
        tf_probe(profile)["tensorflow"]["conv"] = {
            "ok": False, "device": None, "error": "DNN library is not found."}

    report = changed(LINUX, change)
    agrees(report)
    assert not report.ready
    assert report.layer("cuda").status != "fail"  # the matmul ran on the GPU
    assert report.layer("cudnn").status == "fail" and report.blocking_layer == "cudnn"


@pytest.mark.parametrize("name", ["gui-win-ready", "gui-linux-pip-ready"])
def test_the_gui_demo_profiles_are_ready_with_warnings(name: str) -> None:
    report = run_check(ReplayHost.from_file(GUI_PROFILES / f"{name}.json"))
    assert report.ready and report.blocking_layer is None
    assert {layer.status for layer in report.layers} <= {"ok", "warn", "n/a"}


def test_the_gui_session_settles_like_the_check() -> None:
    host = ReplayHost.from_file(GUI_PROFILES / "gui-win-ready.json")
    report = CheckSession(host).run_all()
    assert report.ready and report.blocking_layer is None
    assert report.layer("cudnn").status == "warn"


# -- outside the chain ---------------------------------------------------------------------------


def test_a_cpu_only_pytorch_beside_a_working_tf_does_not_block_tf() -> None:
    def change(profile: dict[str, Any]) -> None:
        tf_probe(profile)["torch"] = {"version": "2.5.1+cpu", "cuda": None, "cudnn": None,
                                      "available": False, "devices": [], "error": None}
        tf_probe(profile)["packages"]["torch"] = "2.5.1+cpu"

    report = changed(LINUX, change)
    assert report.layer("pytorch").status == "fail"
    assert report.ready and report.blocking_layer is None


# -- root cause first ----------------------------------------------------------------------------


def test_a_cpu_only_tf_leads_and_the_cuda_layers_defer_to_its_fix() -> None:
    report = run_check(ReplayHost.from_file(PROFILES / "linux-tensorflow-cpu-no-cuda-wheels.json"))
    agrees(report)
    assert report.blocking_layer == "tensorflow"
    root = finding(report, "tensorflow", "gpu_not_listed_cpu_only_package")
    for layer in ("cuda", "cudnn"):
        result = report.layer(layer)
        assert result.status == "warn"
        for f in result.findings:
            data = f.to_dict()
            assert f.severity == "warn" and not f.fix.steps and not f.fix.commands
            assert "Toolkit" not in data["fix"]["summary"]  # no conflicting install
            assert root.fix.commands[-1] in data["fix"]["summary"]


def test_the_root_cause_is_only_for_pip_cuda_targets() -> None:
    """On native Windows the toolkit is needed whatever TF package is installed: no deference."""
    report = run_check(ReplayHost.from_file(PROFILES / "win-tf210-cudnn-never-copied.json"))
    assert report.blocking_layer == "cudnn"
    assert "fix_instead" not in finding(report, "cudnn", "cudnn_missing").params


def test_a_new_probe_is_judged_against_the_layers_as_they_found_things() -> None:
    """The GUI's "check again" on the TF page: a new probe whose convolution fails no longer
    proves cuDNN, so the listing that only warned fails again (and back)."""
    profile = json.loads((GUI_PROFILES / "gui-win-ready.json").read_text(encoding="utf-8"))
    host = ReplayHost(profile)
    session = CheckSession(host)
    assert session.run_all().layer("cudnn").status == "warn"
    recorded = host._pythons[0]["probe"]["tensorflow"]
    good_conv = dict(recorded["conv"])
    recorded["conv"] = {"ok": False, "device": None, "error": "DNN library is not found."}
    session.recheck("tensorflow")
    report = session.report()
    agrees(report)
    assert report.layer("cudnn").status == "fail" and report.blocking_layer == "cudnn"
    recorded["conv"] = good_conv
    session.recheck("tensorflow")
    report = session.report()
    assert report.ready and report.layer("cudnn").status == "warn"
    assert len(report.layer("cudnn").findings) == 1  # judged once, not once per probe
