"""The driver layer on small inline profiles, replayed through the gpu layer's inventory:
versions against the target, no driver, mismatch, permissions, nvidia-uvm, WSL2, containers."""

from __future__ import annotations

from typing import Any, Optional

import pytest

from wizard.core import knowledge
from wizard.core.host import ReplayHost
from wizard.core.layers import CheckContext, driver, gpu
from wizard.core.model import FAIL, NOT_APPLICABLE, OK, WARN, LayerResult

SMI_QUERY = [
    "nvidia-smi",
    "--query-gpu=index,name,uuid,pci.bus_id,compute_cap,memory.total,driver_version",
    "--format=csv,noheader,nounits",
]
SMI_FAILED = (
    "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure "
    "that the latest NVIDIA driver is installed and running.\n"
)
GPU = {
    "index": 0,
    "name": "NVIDIA GeForce RTX 3070 Ti Laptop GPU",
    "uuid": "GPU-5a1b",
    "pci_bus_id": "00000000:01:00.0",
    "compute_capability": [8, 6],
    "memory_total_bytes": 8589934592,
}
NVIDIA_PCI_LINUX = {"vendor_id": "10de", "device_id": "2204",
                    "name": "NVIDIA GA102 [GeForce RTX 3090]", "driver": None, "problem": None}
INTEL = {"vendor_id": "8086", "device_id": "9a60", "name": "Intel(R) UHD Graphics",
         "driver": "i915", "problem": None}
LINUX_DEV_OK = {"/dev/nvidiactl": None, "/dev/nvidia0": None, "/dev/nvidia-uvm": None}
WSL_OK = {"/dev/dxg": None, "/usr/lib/wsl/lib/libcuda.so.1": None,
          "/usr/lib/wsl/lib/libnvidia-ml.so.1": None}
NVRM = ("NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.104.05  Sat Aug 19 01:15:15 UTC "
        "2023\nGCC version:  gcc version 11.4.0\n")


def nvml_ok(driver: str, cuda: int) -> dict[str, Any]:
    return {"error": None, "driver_version": driver, "cuda_driver_version": cuda, "gpus": [GPU]}


def make_profile(system: str = "windows", *, wsl: Optional[int] = None,
                 distro: Optional[str] = None, nvml: Optional[dict[str, Any]] = None,
                 pci: tuple = (), commands: tuple = (), files: Optional[dict[str, Any]] = None,
                 denied: tuple = (), env: Optional[dict[str, str]] = None) -> dict[str, Any]:
    return {
        "format": "gpu-wizard/profile@1",
        "platform": {"system": system, "wsl": wsl, "distro": distro},
        "env": env or {},
        "nvml": nvml if nvml is not None else {"error": "library_not_found"},
        "pci": list(pci),
        "commands": list(commands),
        "files": files or {},
        "denied": list(denied),
    }


def run_driver(profile: dict[str, Any], tf: Optional[str] = None,
               probe: Optional[dict[str, Any]] = None) -> LayerResult:
    host = ReplayHost(profile)
    target = knowledge.choose_target(host.platform.os_kind, requested=tf)
    ctx = CheckContext(host=host, target=target, probe=probe)
    ctx.results["gpu"] = gpu.check(ctx)
    result = driver.check(ctx)
    for finding in result.findings:  # every finding says how to fix it
        assert finding.fix.steps, finding.code
        assert finding.fix.links or finding.fix.commands, finding.code
        assert "?" not in finding.message(), finding.message()
        assert "?" not in finding.fix_summary(), finding.fix_summary()
    return result


def codes(result: LayerResult) -> list[str]:
    return [f.code for f in result.findings]


# -- versions --------------------------------------------------------------------------------


def test_windows_516_94_meets_tf_2_10() -> None:
    result = run_driver(make_profile(nvml=nvml_ok("516.94", 11070)))
    assert result.status == OK
    assert result.findings == []
    facts = result.facts
    assert facts["driver_version"] == "516.94"
    assert facts["cuda_driver_version"] == "11.7"
    assert facts["source"] == "nvml"
    assert facts["min_driver"]["cuda"] == "11.2"
    assert facts["min_driver"]["toolkit"] == "460.82"
    assert facts["min_driver"]["compat"] == "452.39"
    assert result.summary_text() == (
        "driver 516.94, supports CUDA up to 11.7; CUDA 11.2 needs 460.82 or newer"
    )


def test_windows_driver_between_compat_and_toolkit_warns() -> None:
    result = run_driver(make_profile(nvml=nvml_ok("456.71", 11010)))
    assert result.status == WARN
    (finding,) = result.findings
    assert finding.code == "driver_too_old" and finding.severity == "warn"
    assert finding.params["min_driver"] == "460.82"
    assert "minor-version compatibility" in finding.fix.steps[0].text()
    assert finding.fix.links[0].url == knowledge.driver_download_url()
    # a warning, so the summary does not call the driver "too old"
    summary = result.summary_text()
    assert "too old" not in summary and "minor-version compatibility" in summary


def test_windows_driver_below_compat_fails() -> None:
    result = run_driver(make_profile(nvml=nvml_ok("451.48", 11000)))
    assert result.status == FAIL
    (finding,) = result.findings
    assert finding.code == "driver_too_old" and finding.severity == "fail"
    assert "Driver 451.48 supports CUDA up to 11.0" in finding.message()
    assert "too old" in result.summary_text()


def test_linux_pip_cuda_target_within_major_warns() -> None:
    files = dict(LINUX_DEV_OK)
    result = run_driver(make_profile("linux", nvml=nvml_ok("535.104.05", 12020), files=files))
    assert result.facts["min_driver"]["cuda"] == "12.5"  # the pip CUDA of tensorflow[and-cuda]
    assert codes(result) == ["driver_too_old"]
    assert result.status == WARN


def test_linux_driver_of_an_older_cuda_major_fails() -> None:
    result = run_driver(make_profile("linux", nvml=nvml_ok("470.82.01", 11040),
                                     files=dict(LINUX_DEV_OK)))
    assert result.status == FAIL
    assert codes(result) == ["driver_too_old"]


def test_new_linux_driver_is_ok() -> None:
    result = run_driver(make_profile("linux", nvml=nvml_ok("560.35.03", 12060),
                                     files=dict(LINUX_DEV_OK)))
    assert result.status == OK, result.findings
    assert result.facts["device_nodes"] == ["/dev/nvidia-uvm", "/dev/nvidia0", "/dev/nvidiactl"]


def test_nvidia_smi_fallback_gives_versions() -> None:
    query = {"argv": SMI_QUERY, "returncode": 0,
             "stdout": "0, NVIDIA GeForce RTX 3070 Ti Laptop GPU, GPU-1, 00000000:01:00.0, 8.6, "
             "8192, 516.94\n"}
    banner = {"argv": ["nvidia-smi"], "returncode": 0,
              "stdout": "| NVIDIA-SMI 516.94       Driver Version: 516.94       CUDA Version: "
              "11.7     |\n"}
    result = run_driver(make_profile(nvml={"error": "unknown"}, commands=(query, banner)))
    assert result.status == OK
    assert result.facts["source"] == "nvidia-smi"
    assert result.facts["driver_version"] == "516.94"
    assert result.facts["cuda_driver_version"] == "11.7"


def test_windows_cpu_only_target_skips_the_version_check() -> None:
    result = run_driver(make_profile(nvml=nvml_ok("451.48", 11000)), tf="2.15")
    assert result.facts["min_driver"] is None
    assert result.status == OK


# -- no working driver -----------------------------------------------------------------------


@pytest.mark.parametrize("error", ["library_not_found", "driver_not_loaded"])
def test_windows_code_28_card_without_driver(error: str) -> None:
    device = {"vendor_id": "10de", "device_id": "2684", "name": "NVIDIA device 10de:2684",
              "driver": None, "problem": "code 28: drivers not installed"}
    result = run_driver(make_profile(nvml={"error": error}, pci=(device,)))
    assert result.status == FAIL
    (finding,) = result.findings
    assert finding.code == "gpu_without_driver"
    assert finding.message() == (
        "The NVIDIA device 10de:2684 is present, but no NVIDIA driver serves it (code 28: "
        "drivers not installed)."
    )
    assert finding.params["min_driver"] == "460.82"
    assert finding.fix.links[0].url == knowledge.driver_download_url()
    assert finding.fix.links[-1].url.endswith("/vendor/10DE/device/2684")
    assert f"NVML: {error}" in finding.evidence


def test_linux_card_without_module_points_at_secure_boot_and_dkms() -> None:
    smi = {"argv": SMI_QUERY, "returncode": 9, "stdout": SMI_FAILED}
    result = run_driver(make_profile("linux", distro="Ubuntu 22.04",
                                     nvml={"error": "driver_not_loaded"},
                                     pci=(NVIDIA_PCI_LINUX,), commands=(smi,)))
    (finding,) = result.findings
    assert finding.code == "gpu_without_driver"
    assert "no kernel driver is bound" in finding.message()
    assert "sudo modprobe nvidia" in finding.fix.commands
    assert "sudo ubuntu-drivers install" in finding.fix.commands
    assert "couldn't communicate with the NVIDIA driver" in finding.evidence


def test_linux_nouveau() -> None:
    device = dict(NVIDIA_PCI_LINUX, driver="nouveau")
    result = run_driver(make_profile("linux", pci=(device,)))
    (finding,) = result.findings
    assert finding.code == "gpu_without_driver"
    assert "nouveau" in finding.message()


def test_linux_module_bound_but_no_nvml_library() -> None:
    device = dict(NVIDIA_PCI_LINUX, driver="nvidia")
    result = run_driver(make_profile("linux", pci=(device,)))
    (finding,) = result.findings
    assert finding.code == "no_driver_or_nvidia_smi_missing"
    assert "libnvidia-ml.so.1" in finding.message()


def test_no_nvidia_gpu_makes_the_driver_not_applicable() -> None:
    result = run_driver(make_profile(pci=(INTEL,)))
    assert result.status == NOT_APPLICABLE
    assert result.findings == []
    assert "no NVIDIA GPU" in result.summary_text()


def test_failing_nvidia_smi_without_pci_info() -> None:
    smi = {"argv": SMI_QUERY, "returncode": 9, "stdout": SMI_FAILED}
    result = run_driver(make_profile("linux", nvml={"error": "driver_not_loaded"},
                                     commands=(smi,)))
    assert result.status == FAIL
    (finding,) = result.findings
    assert finding.code == "no_driver_or_nvidia_smi_missing"
    assert "NVIDIA-SMI has failed because it couldn't communicate" in finding.evidence
    assert "nvidia-smi failed" in str(finding.params["detail"])


def test_nothing_at_all_without_pci_info() -> None:
    result = run_driver(make_profile())
    assert codes(result) == ["no_driver_or_nvidia_smi_missing"]
    assert "nvidia-smi was not found" in str(result.findings[0].params["detail"])


def test_hanging_nvidia_smi_is_a_clear_finding() -> None:
    hung = {"argv": SMI_QUERY, "timed_out": True}
    result = run_driver(make_profile(nvml={"error": "driver_not_loaded"}, commands=(hung,)))
    (finding,) = result.findings
    assert finding.code == "no_driver_or_nvidia_smi_missing"
    assert "did not answer" in finding.message()
    assert "restart" in finding.message()


def test_a_driver_that_serves_the_gpu_but_hangs_is_not_called_missing() -> None:
    """The kernel module is bound to the card, but NVML and nvidia-smi do not answer: the
    message says the driver is loaded but hung, and the fix is a restart, not an install."""
    hung = {"argv": SMI_QUERY, "timed_out": True}
    result = run_driver(make_profile(
        "linux", nvml={"error": "unknown", "detail": "NVML did not answer within 10 s"},
        pci=(dict(NVIDIA_PCI_LINUX, driver="nvidia"),), commands=(hung,),
        files={"/proc/driver/nvidia/version": NVRM, **LINUX_DEV_OK}))
    (finding,) = result.findings
    assert finding.code == "no_driver_or_nvidia_smi_missing" and finding.severity == "fail"
    assert finding.message().startswith("The NVIDIA driver is loaded but does not answer: ")
    assert "not installed" not in finding.message()
    assert finding.fix_summary().startswith("Restart the machine")
    assert [step.key for step in finding.fix.steps] == ["restart"]


def test_nvml_mismatch() -> None:
    result = run_driver(make_profile(
        "linux", nvml={"error": "driver_library_mismatch", "detail": "RM has detected an "
                       "NVML/RM version mismatch."},
        pci=(dict(NVIDIA_PCI_LINUX, driver="nvidia"),),
        files={"/proc/driver/nvidia/version": NVRM, **LINUX_DEV_OK}))
    assert result.status == FAIL
    (finding,) = result.findings
    assert finding.code == "nvml_driver_library_mismatch"
    assert finding.params["kernel_module"] == "535.104.05"
    assert "535.104.05" in finding.evidence
    assert result.facts["kernel_module_version"] == "535.104.05"


def test_nvidia_smi_mismatch_also_counts() -> None:
    smi = {"argv": SMI_QUERY, "returncode": 18,
           "stdout": "Failed to initialize NVML: Driver/library version mismatch\n"}
    result = run_driver(make_profile("linux", nvml={"error": "unknown"}, commands=(smi,)))
    assert codes(result) == ["nvml_driver_library_mismatch"]


def test_nvml_no_permission() -> None:
    files = {"/dev/nvidiactl": None, "/dev/nvidia0": None}
    result = run_driver(make_profile("linux", nvml={"error": "no_permission"}, files=files,
                                     denied=("/dev/nvidiactl", "/dev/nvidia0")))
    (finding,) = result.findings
    assert finding.code == "permission_denied_dev_nvidia"
    assert finding.params["device"] == "/dev/nvidiactl, /dev/nvidia0"
    assert "sudo usermod -aG video $USER" in finding.fix.commands


def test_denied_device_node_with_a_working_driver() -> None:
    result = run_driver(make_profile("linux", nvml=nvml_ok("560.35.03", 12060),
                                     files=dict(LINUX_DEV_OK), denied=("/dev/nvidia0",)))
    assert codes(result) == ["permission_denied_dev_nvidia"]
    assert result.findings[0].params["device"] == "/dev/nvidia0"
    assert result.status == FAIL


# -- nvidia-uvm ------------------------------------------------------------------------------


def _no_uvm(**extra: Any) -> dict[str, Any]:
    files = {"/dev/nvidiactl": None, "/dev/nvidia0": None, "/proc/modules": "nvidia 1 0\n"}
    files.update(extra)
    return make_profile("linux", nvml=nvml_ok("560.35.03", 12060), files=files)


def test_uvm_missing_without_nvidia_modprobe_fails() -> None:
    result = run_driver(_no_uvm())
    (finding,) = result.findings
    assert finding.code == "nvidia_uvm_not_loaded" and finding.severity == "fail"
    assert finding.fix.commands[0] == "sudo modprobe nvidia-uvm"


def test_uvm_missing_with_nvidia_modprobe_warns() -> None:
    profile = _no_uvm(**{"/usr/bin/nvidia-modprobe": None})
    profile["env"] = {"PATH": "/usr/bin"}
    result = run_driver(profile)
    (finding,) = result.findings
    assert finding.severity == "warn"


def test_uvm_node_missing_but_module_loaded() -> None:
    result = run_driver(_no_uvm(**{"/proc/modules": "nvidia_uvm 1 0\nnvidia 2 1\n"}))
    assert result.findings[0].fix.commands[0] == "sudo nvidia-modprobe -u -c=0"


def test_uvm_not_reported_when_the_probe_used_the_gpu() -> None:
    probe = {"tensorflow": {"gpus": [{"name": "/physical_device:GPU:0"}]}}
    assert run_driver(_no_uvm(), probe=probe).findings == []


# -- WSL -------------------------------------------------------------------------------------


def test_wsl2_ok() -> None:
    result = run_driver(make_profile("linux", wsl=2, nvml=nvml_ok("560.94", 12060),
                                     files=dict(WSL_OK)))
    assert result.status == OK, result.findings
    assert result.facts["min_driver"]["toolkit"] == "555.85"  # the Windows column


def test_wsl1() -> None:
    result = run_driver(make_profile("linux", wsl=1, env={"WSL_DISTRO_NAME": "Ubuntu"}))
    (finding,) = result.findings
    assert finding.code == "wsl_gpu_missing"
    assert "WSL 1" in finding.message()
    assert finding.fix.commands[0] == "wsl --set-version Ubuntu 2"


def test_wsl2_without_dxg_fails_even_without_any_gpu_info() -> None:
    result = run_driver(make_profile("linux", wsl=2))
    assert result.status == FAIL
    (finding,) = result.findings
    assert finding.code == "wsl_gpu_missing"
    assert "/dev/dxg" in finding.message()
    assert "wsl --update" in finding.fix.commands
    assert any(link.url == driver.WSL_GUIDE_URL for link in finding.fix.links)


def test_wsl2_without_libcuda() -> None:
    result = run_driver(make_profile("linux", wsl=2, files={"/dev/dxg": None}))
    assert codes(result) == ["wsl_gpu_missing"]
    assert "libcuda.so.1" in result.findings[0].message()


def test_wsl2_linux_driver_inside() -> None:
    files = dict(WSL_OK)
    files["/usr/lib/x86_64-linux-gnu/libcuda.so.1"] = None
    files["/proc/driver/nvidia/version"] = NVRM
    result = run_driver(make_profile("linux", wsl=2, distro="Ubuntu 22.04",
                                     nvml={"error": "driver_not_loaded"}, files=files))
    (finding,) = result.findings
    assert finding.code == "wsl_gpu_missing" and finding.severity == "fail"
    assert "Linux NVIDIA driver is installed inside WSL" in finding.message()
    assert "/usr/lib/x86_64-linux-gnu/libcuda.so.1" in finding.evidence
    assert finding.fix.commands[0].startswith("sudo apt-get remove --purge")


def test_wsl2_old_windows_driver_is_too_old() -> None:
    result = run_driver(make_profile("linux", wsl=2, nvml=nvml_ok("472.12", 11040),
                                     files=dict(WSL_OK)))
    assert codes(result) == ["driver_too_old"]
    assert result.status == FAIL
    assert "not inside WSL" in result.findings[0].fix.steps[1].text()


# -- containers ------------------------------------------------------------------------------


def test_container_without_gpu_passthrough() -> None:
    result = run_driver(make_profile(
        "linux", pci=(dict(NVIDIA_PCI_LINUX, driver="nvidia"),),
        files={"/.dockerenv": "", "/proc/1/cgroup": "0::/\n"}))
    (finding,) = result.findings
    assert finding.code == "container_no_gpu_passthrough"
    assert "no /dev/nvidia*" in finding.message()
    assert "docker run --gpus all <image>" in finding.fix.commands
    assert result.facts["in_container"] is True


def test_container_with_nodes_but_no_libraries() -> None:
    result = run_driver(make_profile(
        "linux", files={"/proc/1/cgroup": "12:devices:/kubepods/burstable/pod1\n",
                        "/dev/nvidiactl": None, "/dev/nvidia0": None}))
    assert codes(result) == ["container_no_gpu_passthrough"]
    assert "libraries were not mounted" in result.findings[0].message()


def test_container_with_working_gpu_is_ok() -> None:
    files = dict(LINUX_DEV_OK)
    files["/.dockerenv"] = ""
    result = run_driver(make_profile("linux", nvml=nvml_ok("560.35.03", 12060), files=files))
    assert result.status == OK


def test_driver_running_but_not_listing_the_card() -> None:
    nvml = {"error": None, "driver_version": "560.35.03", "cuda_driver_version": 12060,
            "gpus": []}
    device = {"vendor_id": "10de", "device_id": "1004", "name": "NVIDIA GK110 [GeForce GTX 780]",
              "driver": "nvidia", "problem": None}
    result = run_driver(make_profile("linux", nvml=nvml, pci=(device,), files=dict(LINUX_DEV_OK)))
    assert codes(result) == ["gpu_without_driver"]
    assert "legacy" in result.findings[0].message()


def test_readable_sysfs_without_display_devices_means_no_gpu() -> None:
    """A headless VM or a container on a host without GPUs: sysfs lists PCI devices but none is
    a display device, so there is nothing for a driver (or a passthrough) to serve."""
    files = {"/sys/bus/pci/devices/0000:00:00.0/class": "0x060000\n", "/.dockerenv": ""}
    result = run_driver(make_profile("linux", files=files))
    assert result.status == NOT_APPLICABLE
    assert result.findings == []
    host = ReplayHost(make_profile("linux", files=files))
    ctx = CheckContext(host=host, target=knowledge.choose_target("linux"))
    gpu_result = gpu.check(ctx)
    assert str(gpu_result.findings[0].params["where"]) == " (no NVIDIA PCI device)"


def test_windows_driver_bound_but_nvml_dll_missing() -> None:
    device = {"vendor_id": "10de", "device_id": "24a0",
              "name": "NVIDIA GeForce RTX 3070 Ti Laptop GPU", "driver": "nvlddmkm",
              "problem": None}
    result = run_driver(make_profile(pci=(device,)))
    (finding,) = result.findings
    assert finding.code == "no_driver_or_nvidia_smi_missing"
    assert "nvml.dll" in finding.message()


def test_windows_code_43_with_the_nvidia_driver_is_a_driver_problem() -> None:
    device = {"vendor_id": "10de", "device_id": "24a0",
              "name": "NVIDIA GeForce RTX 3070 Ti Laptop GPU", "driver": "nvlddmkm",
              "problem": "code 43: device reported a problem (driver stopped it)"}
    result = run_driver(make_profile(nvml={"error": "driver_not_loaded"}, pci=(device,)))
    (finding,) = result.findings
    assert finding.code == "gpu_without_driver"
    assert "code 43" in finding.message()


def test_snapshot_of_this_machine_replays_to_the_same_results() -> None:
    from wizard.core.host import LocalHost, RecordingHost

    def layers(host) -> tuple[dict, dict]:
        ctx = CheckContext(host=host, target=knowledge.choose_target(host.platform.os_kind))
        ctx.results["gpu"] = gpu.check(ctx)
        return ctx.results["gpu"].to_dict(), driver.check(ctx).to_dict()

    recording = RecordingHost.wrap(LocalHost())
    live = layers(recording)
    assert layers(ReplayHost(recording.profile())) == live


def test_windows_nvml_no_permission_does_not_talk_about_dev_nodes() -> None:
    result = run_driver(make_profile(nvml={"error": "no_permission"}, pci=(
        {"vendor_id": "10de", "device_id": "24a0", "name": "NVIDIA GeForce RTX 3070 Ti Laptop GPU",
         "driver": "nvlddmkm", "problem": None},)))
    (finding,) = result.findings
    assert finding.code == "permission_denied_dev_nvidia"
    assert "/dev" not in finding.message()


@pytest.mark.parametrize(("profile", "folder"), [
    ("linux-nixos-driver-folder-off-path", "/run/opengl-driver/lib"),
    ("linux-tf221-and-cuda-healthy", None),
])
def test_the_driver_folder_nixos_keeps_off_the_loader_path_is_a_fact(profile: str,
                                                                       folder: Optional[str]):
    from pathlib import Path

    from wizard.core import explain
    from wizard.core.diagnose import run_check

    path = Path(__file__).resolve().parents[1] / "profiles" / f"{profile}.json"
    report = run_check(ReplayHost.from_file(path))
    assert report.layer("driver").facts["driver_folder"] == folder
    facts = explain.machine_facts({layer.layer: layer for layer in report.layers})
    assert ("driver_in_nix_folder" in facts) is (folder is not None)
    if folder:
        # what CUDA failing to start is there, and the fix the wizard runs: the folder added
        # to LD_LIBRARY_PATH for new terminals
        finding = next(f for f in report.layer("cuda").findings if f.code == "cuda_not_on_path")
        assert finding.params["driver_folder"] == folder
        assert (finding.fix.action, finding.fix.action_params) == (
            "set_env", {"name": "LD_LIBRARY_PATH", "append": folder})
