"""The gpu layer on small inline profiles, replayed: NVML, the nvidia-smi fallback, the PCI
fallback, compute capability against the target, and the "no GPU" cases."""

from __future__ import annotations

import sys
from typing import Any, Optional

import pytest

from wizard.core import knowledge
from wizard.core.host import ReplayHost
from wizard.core.layers import CheckContext, gpu
from wizard.core.messages import render
from wizard.core.model import FAIL, OK, UNKNOWN, WARN, LayerResult

SMI_QUERY = [
    "nvidia-smi",
    "--query-gpu=index,name,uuid,pci.bus_id,compute_cap,memory.total,driver_version",
    "--format=csv,noheader,nounits",
]
SMI_QUERY_OLD = [
    "nvidia-smi",
    "--query-gpu=index,name,uuid,pci.bus_id,memory.total,driver_version",
    "--format=csv,noheader,nounits",
]
LAPTOP_3070TI = {
    "index": 0,
    "name": "NVIDIA GeForce RTX 3070 Ti Laptop GPU",
    "uuid": "GPU-5a1b",
    "pci_bus_id": "00000000:01:00.0",
    "compute_capability": [8, 6],
    "memory_total_bytes": 8589934592,
}
INTEL_IGPU = {"vendor_id": "8086", "device_id": "9a60", "name": "Intel(R) UHD Graphics",
              "driver": "iigd_dch", "problem": None}
NVIDIA_PCI = {"vendor_id": "10de", "device_id": "24a0",
              "name": "NVIDIA GeForce RTX 3070 Ti Laptop GPU", "driver": "nvlddmkm",
              "problem": None}


def make_profile(system: str = "windows", *, wsl: Optional[int] = None,
                 nvml: Optional[dict[str, Any]] = None, pci: tuple = (),
                 commands: tuple = (), files: Optional[dict[str, Any]] = None) -> dict[str, Any]:
    return {
        "format": "gpu-wizard/profile@1",
        "platform": {"system": system, "wsl": wsl},
        "nvml": nvml if nvml is not None else {"error": "library_not_found"},
        "pci": list(pci),
        "commands": list(commands),
        "files": files or {},
    }


def run_gpu(profile: dict[str, Any], tf: Optional[str] = None) -> LayerResult:
    host = ReplayHost(profile)
    target = knowledge.choose_target(host.platform.os_kind, requested=tf)
    return gpu.check(CheckContext(host=host, target=target))


def nvml_ok(*gpus: dict[str, Any], driver: str = "516.94", cuda: int = 11070) -> dict[str, Any]:
    return {"error": None, "driver_version": driver, "cuda_driver_version": cuda,
            "gpus": list(gpus)}


def test_nvml_gpu_summary_and_facts() -> None:
    result = run_gpu(make_profile(nvml=nvml_ok(LAPTOP_3070TI), pci=(INTEL_IGPU, NVIDIA_PCI)))
    assert result.status == OK
    assert result.summary_text() == "NVIDIA GeForce RTX 3070 Ti Laptop GPU, compute 8.6, 8 GiB"
    assert result.findings == []
    facts = result.facts
    assert facts["source"] == "nvml"
    (entry,) = facts["gpus"]
    assert entry["compute_capability"] == "8.6"
    assert entry["compute_capability_source"] == "nvml"
    assert entry["laptop"] is True
    assert entry["memory_total_bytes"] == 8589934592
    assert entry["newest_tf"] == "2.10"  # the last with GPU support on native Windows
    assert facts["other_adapters"] == [
        {"name": "Intel(R) UHD Graphics", "vendor_id": "8086", "device_id": "9a60",
         "driver": "iigd_dch"}
    ]
    assert facts["hybrid_graphics"] is True
    assert facts["min_compute_capability"] == "3.5"  # TF 2.10, the Windows target
    assert "nvidia_smi" not in facts  # NVML answered: nvidia-smi is never run


def test_two_gpus_summary() -> None:
    second = dict(LAPTOP_3070TI, index=1, name="NVIDIA RTX A6000", compute_capability=[8, 6],
                  memory_total_bytes=51527024640)
    result = run_gpu(make_profile(nvml=nvml_ok(LAPTOP_3070TI, second)))
    assert result.summary_text().startswith("2 GPUs: NVIDIA GeForce RTX 3070 Ti Laptop GPU")
    assert "NVIDIA RTX A6000, compute 8.6, 48 GiB" in result.summary_text()
    assert result.facts["hybrid_graphics"] is False


def test_nvml_error_falls_back_to_nvidia_smi() -> None:
    smi = {"argv": SMI_QUERY, "returncode": 0,
           "stdout": "0, NVIDIA GeForce RTX 3060, GPU-abc, 00000000:2B:00.0, 8.6, 12288, 531.79\n"}
    result = run_gpu(make_profile(nvml={"error": "unknown", "detail": "pynvml missing"},
                                  commands=(smi,)))
    assert result.status == OK
    assert result.facts["source"] == "nvidia-smi"
    assert result.facts["nvidia_smi"]["status"] == "ok"
    assert result.summary_text() == "NVIDIA GeForce RTX 3060, compute 8.6, 12 GiB"
    assert result.facts["gpus"][0]["compute_capability_source"] == "nvidia-smi"


def test_old_nvidia_smi_without_compute_cap_field_is_retried() -> None:
    rejected = {"argv": SMI_QUERY, "returncode": 2,
                "stdout": 'Field "compute_cap" is not a valid field to query.\n'}
    old = {"argv": SMI_QUERY_OLD, "returncode": 0,
           "stdout": "0, NVIDIA GeForce GTX 1060 6GB, GPU-1, 00000000:01:00.0, 6144, 472.12\n"}
    result = run_gpu(make_profile(nvml={"error": "unknown"}, commands=(rejected, old)))
    (entry,) = result.facts["gpus"]
    assert result.facts["source"] == "nvidia-smi"
    assert entry["compute_capability"] == "6.1"  # from the spec table, by name
    assert entry["compute_capability_source"] == "spec"
    assert result.summary_text() == "NVIDIA GeForce GTX 1060 6GB, compute 6.1, 6 GiB"


def test_no_driver_falls_back_to_pci_with_chip_compute_capability() -> None:
    device = {"vendor_id": "10de", "device_id": "2204", "name": "NVIDIA GA102 [GeForce RTX 3090]",
              "driver": None, "problem": None, "slot": "0000:01:00.0"}
    result = run_gpu(make_profile("linux", nvml={"error": "driver_not_loaded"}, pci=(device,)))
    assert result.facts["source"] == "pci"
    (entry,) = result.facts["gpus"]
    assert entry["compute_capability"] == "8.6"
    assert entry["pci_driver"] is None
    assert result.status == OK  # the card is fine; the driver layer reports the missing driver
    assert "found on the PCI bus" in result.summary_text()
    assert result.facts["nvidia_smi"]["status"] == "not_found"


def test_pci_mobile_name_found_in_spec_table() -> None:
    device = {"vendor_id": "10de", "device_id": "24a0",
              "name": "NVIDIA GA104M [GeForce RTX 3070 Ti Mobile / Max-Q]", "driver": None,
              "problem": None}
    result = run_gpu(make_profile("linux", pci=(device,)))
    (entry,) = result.facts["gpus"]
    assert entry["compute_capability"] == "8.6"
    assert entry["compute_capability_source"] == "spec"
    assert entry["laptop"] is True


def test_windows_code_28_card_has_unknown_compute_capability() -> None:
    device = {"vendor_id": "10de", "device_id": "2684", "name": "NVIDIA device 10de:2684",
              "driver": None, "problem": "code 28: drivers not installed"}
    result = run_gpu(make_profile(pci=(device,)))
    assert result.status == WARN
    assert result.facts["gpus"][0]["compute_capability"] is None
    assert result.facts["gpus"][0]["pci_problem"] == "code 28: drivers not installed"
    assert "compute capability unknown until the driver is installed" in result.summary_text()


def test_nvml_without_gpus_uses_pci() -> None:
    result = run_gpu(make_profile(nvml=nvml_ok(), pci=(NVIDIA_PCI,)))
    assert result.facts["source"] == "pci"


def test_hanging_nvidia_smi_is_a_fact_not_a_crash() -> None:
    hung = {"argv": SMI_QUERY, "timed_out": True}
    result = run_gpu(make_profile(nvml={"error": "driver_not_loaded"}, pci=(NVIDIA_PCI,),
                                  commands=(hung,)))
    assert result.facts["nvidia_smi"]["status"] == "timed_out"
    assert "did not answer" in result.facts["nvidia_smi"]["message"]
    assert result.facts["source"] == "pci"


def test_no_nvidia_pci_device() -> None:
    result = run_gpu(make_profile(pci=(INTEL_IGPU,)))
    assert result.status == FAIL
    (finding,) = result.findings
    assert finding.code == "no_nvidia_gpu"
    assert render(finding.params["where"]) == " (no NVIDIA PCI device)"
    assert "Intel(R) UHD Graphics" in finding.evidence
    assert finding.fix.steps and finding.fix.links
    assert result.summary_text() == "no NVIDIA GPU found (only Intel(R) UHD Graphics)"
    assert "(no NVIDIA PCI device)" in finding.message()


def test_nothing_found_anywhere_is_no_gpu() -> None:
    result = run_gpu(make_profile("linux"))
    assert result.status == FAIL
    assert [f.code for f in result.findings] == ["no_nvidia_gpu"]


def test_broken_driver_and_unreadable_pci_is_unknown() -> None:
    smi = {"argv": SMI_QUERY, "returncode": 9,
           "stdout": "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA "
           "driver. Make sure that the latest NVIDIA driver is installed and running.\n"}
    result = run_gpu(make_profile("linux", nvml={"error": "driver_not_loaded"}, commands=(smi,)))
    assert result.status == UNKNOWN
    assert result.findings == []
    assert result.facts["nvidia_smi"]["status"] == "driver_not_loaded"


def test_wsl_without_gpu_defers_to_the_driver_layer() -> None:
    result = run_gpu(make_profile("linux", wsl=2))
    assert result.status == UNKNOWN
    assert "WSL" in result.summary_text()


def test_maxwell_gpu_is_too_old_for_current_tf() -> None:
    old = dict(LAPTOP_3070TI, name="NVIDIA GeForce GTX 980", compute_capability=[5, 2],
               memory_total_bytes=4294967296)
    result = run_gpu(make_profile("linux", nvml=nvml_ok(old, driver="535.104.05", cuda=12020)))
    assert result.facts["min_compute_capability"] == "6.0"
    assert result.status == FAIL
    (finding,) = result.findings
    assert finding.code == "compute_capability_unsupported"
    assert finding.params["cc"] == "5.2" and finding.params["min_cc"] == "6.0"
    assert finding.params["fitting_tf"] == "2.16"
    assert finding.fix.commands == ('pip install "tensorflow[and-cuda]==2.16.*"',)
    assert "needs at least 6.0" in finding.message()


def test_kepler_on_windows_tf_2_10_is_fine_but_fermi_era_is_not() -> None:
    k80 = dict(LAPTOP_3070TI, name="Tesla K80", compute_capability=[3, 7])
    assert run_gpu(make_profile(nvml=nvml_ok(k80))).status == OK
    gtx680 = dict(LAPTOP_3070TI, name="NVIDIA GeForce GTX 680", compute_capability=[3, 0])
    result = run_gpu(make_profile(nvml=nvml_ok(gtx680)))
    (finding,) = result.findings
    assert finding.severity == "fail"
    assert finding.params["fitting_tf"] is None
    assert str(finding.params["advice"]).startswith("none does")
    # the fix summary says it; no step repeats it (or starts in lower case)
    assert "(none does: " in finding.fix_summary() and finding.fix.steps == ()


def test_cc_excluded_from_a_build() -> None:
    maxwell = dict(LAPTOP_3070TI, name="NVIDIA GeForce GTX 750 Ti", compute_capability=[5, 0])
    result = run_gpu(make_profile("linux", nvml=nvml_ok(maxwell)), tf="2.3")
    (finding,) = result.findings
    assert "leaves out compute capability 5.0" in finding.message()


def test_one_old_gpu_of_two_is_a_warning() -> None:
    old = dict(LAPTOP_3070TI, index=1, name="NVIDIA GeForce GTX 980", compute_capability=[5, 2])
    result = run_gpu(make_profile("linux", nvml=nvml_ok(LAPTOP_3070TI, old)))
    assert result.status == WARN
    assert [f.severity for f in result.findings] == ["warn"]


@pytest.mark.parametrize(
    ("name", "cc"),
    [
        ("NVIDIA GK110B [GeForce GTX 780 Ti]", "3.5"),
        ("NVIDIA GK210GL [Tesla K80]", "3.7"),
        ("NVIDIA GM107 [GeForce GTX 750 Ti]", "5.0"),
        ("NVIDIA TU117M [GeForce GTX 1650 Mobile / Max-Q]", "7.5"),
        ("NVIDIA GA100 [A100 PCIe 40GB]", "8.0"),
        ("NVIDIA AD102 [GeForce RTX 4090]", "8.9"),
        ("NVIDIA GH100 [H100 PCIe]", "9.0"),
        ("NVIDIA GB202 [GeForce RTX 5090]", "12.0"),
        ("NVIDIA device 10de:2684", None),
    ],
)
def test_compute_capability_from_pci_names(name: str, cc: Optional[str]) -> None:
    assert gpu.compute_capability_from_name(name)[0] == cc


def test_nvidia_smi_two_gpus_and_not_available_fields() -> None:
    smi = {"argv": SMI_QUERY, "returncode": 0,
           "stdout": "0, NVIDIA GeForce RTX 4090, GPU-a, 00000000:01:00.0, 8.9, 24564, 560.35.03\n"
           "1, NVIDIA GeForce RTX 4090, GPU-b, 00000000:02:00.0, [N/A], [N/A], 560.35.03\n"}
    result = run_gpu(make_profile("linux", nvml={"error": "unknown"}, commands=(smi,)))
    first, second = result.facts["gpus"]
    assert "_driver" not in first and "_driver" not in second
    assert first["memory_gib"] == 24.0
    assert second["memory_total_bytes"] is None
    assert second["compute_capability"] == "8.9"  # not reported: taken from the spec table
    assert result.summary_text() == (
        "2 GPUs: NVIDIA GeForce RTX 4090, compute 8.9, 24 GiB; NVIDIA GeForce RTX 4090, compute 8.9"
    )


@pytest.mark.parametrize(
    ("stdout", "returncode", "status"),
    [
        ("Failed to initialize NVML: Driver/library version mismatch\n", 18,
         "driver_library_mismatch"),
        ("Failed to initialize NVML: Insufficient Permissions\n", 4, "no_permission"),
        ("No devices were found\n", 6, "no_devices"),
        ("Segmentation fault\n", 139, "failed"),
    ],
)
def test_nvidia_smi_failures_are_classified(stdout: str, returncode: int, status: str) -> None:
    smi = {"argv": SMI_QUERY, "returncode": returncode, "stdout": stdout}
    result = run_gpu(make_profile("linux", nvml={"error": "unknown"}, commands=(smi,)))
    assert result.facts["nvidia_smi"]["status"] == status
    assert result.facts["nvidia_smi"]["message"] == stdout.strip()


def test_legacy_windows_nvsmi_folder_is_used_when_not_on_path() -> None:
    program = "C:\\Program Files\\NVIDIA Corporation\\NVSMI\\nvidia-smi.exe"
    assert gpu.nvidia_smi_program(ReplayHost(make_profile(files={program: None}))) == program
    assert gpu.nvidia_smi_program(ReplayHost(make_profile())) == "nvidia-smi"


def test_a_gpu_nvml_cannot_open_is_a_warning() -> None:
    lost = {"index": 1, "name": None, "error": "unknown: GPU is lost"}
    result = run_gpu(make_profile("linux", nvml=nvml_ok(LAPTOP_3070TI, lost)))
    assert result.status == WARN
    assert "GPU 1: NVML cannot open it (unknown: GPU is lost)" in result.summary_text()


def test_public_nvidia_smi_argv_matches_the_call() -> None:
    assert list(gpu.SMI_QUERY_ARGV) == SMI_QUERY
    assert list(gpu.SMI_QUERY_ARGV_OLD) == SMI_QUERY_OLD


def test_no_compute_capability_verdict_for_a_target_without_gpu_build() -> None:
    gtx680 = dict(LAPTOP_3070TI, name="NVIDIA GeForce GTX 680", compute_capability=[3, 0])
    result = run_gpu(make_profile(nvml=nvml_ok(gtx680)), tf="2.15")
    assert result.facts["min_compute_capability"] is None
    assert result.findings == []



# -- this machine's case: no NVIDIA driver, live -----------------------------------------------


@pytest.mark.skipif(sys.platform == "win32", reason="the POSIX PATH lookup of LocalHost.run")
def test_live_gpu_and_driver_layers_without_a_driver_start_nothing(monkeypatch, tmp_path) -> None:
    """On a Linux machine without an NVIDIA driver the gpu and driver layers load no NVML
    binding and start no process (``nvidia-smi`` is not there to start): the slow paths that
    made the gpu layer most of a check's time (pynvml's import, a fork per missing program)."""
    import ctypes
    import subprocess

    from wizard.core.host import LocalHost
    from wizard.core.host import nvml as nvml_query
    from wizard.core.layers import driver

    started: list[list[str]] = []
    real_popen = subprocess.Popen

    class CountingPopen(real_popen):  # type: ignore[misc, valid-type]
        def __init__(self, args, *rest, **kwargs) -> None:
            started.append(list(args))
            super().__init__(args, *rest, **kwargs)

    imports: list[int] = []

    def no_library(name: str, *args, **kwargs):
        raise OSError(f"{name}: cannot open shared object file")

    monkeypatch.setenv("PATH", str(tmp_path))  # no nvidia-smi, no nvidia-modprobe
    monkeypatch.setattr(subprocess, "Popen", CountingPopen)
    monkeypatch.setattr(ctypes, "CDLL", no_library)
    monkeypatch.delitem(sys.modules, "pynvml", raising=False)
    monkeypatch.setattr(nvml_query, "_import_pynvml", lambda: imports.append(1))
    host = LocalHost()
    target = knowledge.choose_target(host.platform.os_kind)
    ctx = CheckContext(host=host, target=target)
    ctx.results["gpu"] = gpu.check(ctx)
    ctx.results["driver"] = driver.check(ctx)
    assert started == []
    assert imports == []
    assert ctx.nvml()["error"] == "library_not_found"
    smi = gpu.inventory(ctx).smi
    assert smi is not None and smi.status == "not_found"


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX exec semantics")
def test_not_on_path_answers_only_for_a_missing_bare_name(tmp_path) -> None:
    from wizard.core.host.local import LocalHost, not_on_path

    env = {"PATH": str(tmp_path)}
    assert not_on_path("nvidia-smi", env)
    assert not not_on_path("/usr/bin/nvidia-smi", env)  # a path: exec decides
    (tmp_path / "nvidia-smi").write_text("not executable")
    assert not not_on_path("nvidia-smi", env)  # exec's PermissionError keeps its text
    result = LocalHost().run(["gpu-wizard-no-such-program-13"])
    assert result.not_found and result.returncode is None and result.stderr == ""
