"""The tensorflow layer over recorded probe outputs."""

from __future__ import annotations

from typing import Any, Optional

import pytest

from wizard.core import knowledge
from wizard.core.host import ReplayHost
from wizard.core.layers import CheckContext
from wizard.core.layers import tensorflow as layer
from wizard.core.model import FAIL, NOT_APPLICABLE, OK, UNKNOWN, WARN, Finding, LayerResult

WIN_EXE = "C:\\Users\\me\\miniconda3\\envs\\tf\\python.exe"
LINUX_EXE = "/home/me/venvs/tf/bin/python"



def checked(ctx):
    """The TF layer as the chain runs it: its check, then the one reconcile pass with the log."""
    ctx.results["tensorflow"] = layer.check(ctx)
    layer.reconcile(ctx)
    return ctx.results["tensorflow"]

def host(system: str = "linux", env: Optional[dict[str, str]] = None) -> ReplayHost:
    return ReplayHost(
        {
            "format": "gpu-wizard/profile@1",
            "platform": {"system": system, "release": "x", "wsl": None},
            "env": env or {},
            "nvml": {"error": "library_not_found"},
        }
    )


def make_probe(
    tf: Optional[str] = "2.10.0",
    *,
    packages: Optional[dict[str, Any]] = None,
    gpus: int = 1,
    built_with_cuda: bool = True,
    imported: bool = True,
    error: Optional[str] = None,
    log: str = "",
    python: str = "3.9.13",
    bits: int = 64,
    conda: bool = False,
    env: Optional[dict[str, Any]] = None,
    on: str = "GPU",
    torch: Optional[dict[str, Any]] = None,
) -> dict[str, Any]:
    pkgs: dict[str, Any] = {"tensorflow": tf, "numpy": "1.23.5"}
    pkgs.update(packages or {})
    device = f"/job:localhost/replica:0/task:0/device:{on}:0"
    data: dict[str, Any] = {
        "probe": "gpu-wizard/env-probe@1",
        "python": {"version": python, "bits": bits, "executable": "x",
                   "prefix": "C:\\Users\\me\\miniconda3\\envs\\tf", "conda": conda,
                   "venv": not conda},
        "packages": pkgs,
        "env": env or {},
        "tensorflow": None,
        "torch": torch,
        "log": log,
    }
    if tf or any(pkgs.get(n) for n in layer.TF_DISTRIBUTIONS):
        data["tensorflow"] = {
            "imported": imported,
            "error": error,
            "version": tf if imported else None,
            "built_with_cuda": built_with_cuda if imported else None,
            "build_info": {"cuda_version": "64_112", "cudnn_version": "64_8"},
            "gpus": [
                {"name": "/physical_device:GPU:0",
                 "device_name": "NVIDIA GeForce RTX 3070 Ti Laptop GPU",
                 "compute_capability": [8, 6]}
            ] * (gpus if imported else 0),
            "matmul": {"ok": True, "device": device, "error": None} if imported else None,
            "conv": {"ok": True, "device": device, "error": None} if imported else None,
        }
    return data


def context(
    probe: Optional[dict[str, Any]],
    system: str = "linux",
    python: Optional[str] = LINUX_EXE,
    lower: Optional[dict[str, LayerResult]] = None,
    tf: Optional[str] = None,
    env: Optional[dict[str, str]] = None,
) -> CheckContext:
    h = host(system, env)
    installed = layer.tf_version(probe) if probe and not probe.get("error") else None
    target = knowledge.choose_target(h.platform.os_kind, requested=tf, installed=installed)
    results = lower if lower is not None else {
        name: LayerResult(name, OK, "ok") for name in ("gpu", "driver", "cuda", "cudnn")
    }
    return CheckContext(host=h, target=target, python=python, probe=probe, results=results)


def codes(result: LayerResult) -> list[str]:
    return [f.code for f in result.findings]


def finding(result: LayerResult, code: str) -> Finding:
    return next(f for f in result.findings if f.code == code)


# -- the good case and the not-installed case --------------------------------------------------


def test_tf_on_the_gpu_is_ok() -> None:
    result = checked(context(make_probe("2.10.0"), system="windows", python=WIN_EXE))
    assert result.status == OK and result.findings == []
    assert "RTX 3070 Ti" in str(result.summary)
    assert result.facts["gpus"][0]["compute_capability"] == [8, 6]
    assert result.facts["matmul"]["device"].endswith("GPU:0")


def test_not_installed_gives_the_command_for_this_environment() -> None:
    result = checked(context(make_probe(None, python="3.11.7"), system="linux"))
    assert result.status == FAIL and codes(result) == ["tensorflow_not_installed"]
    command = finding(result, "tensorflow_not_installed").params["command"]
    assert command.startswith(f'"{LINUX_EXE}" -m pip install')
    assert "tensorflow[and-cuda]" in command
    assert finding(result, "tensorflow_not_installed").fix.action == "pip_install"


def test_not_installed_in_a_conda_env_uses_conda_run() -> None:
    probe = make_probe(None, conda=True, python="3.10.11")
    result = checked(context(probe, system="windows", python=WIN_EXE))
    command = finding(result, "tensorflow_not_installed").params["command"]
    assert command.startswith('conda run -p "C:\\Users\\me\\miniconda3\\envs\\tf" python -m pip')
    assert "tensorflow<2.11" in command


def test_not_installed_with_a_python_too_new_for_the_target() -> None:
    result = layer.check(context(make_probe(None, python="3.12.1"), system="windows",
                                 python=WIN_EXE))
    assert set(codes(result)) == {"tensorflow_not_installed", "python_version_unsupported"}
    unsupported = finding(result, "python_version_unsupported")
    assert unsupported.params["found"] == "3.12.1" and unsupported.params["python"] == "3.7-3.10"


def test_no_environment_at_all() -> None:
    result = checked(context(None, python=None))
    assert result.status == FAIL and codes(result) == ["tensorflow_not_installed"]


def test_32bit_python() -> None:
    result = checked(context(make_probe(None, bits=32), system="windows", python=WIN_EXE))
    assert "python_32bit" in codes(result)


# -- packages ----------------------------------------------------------------------------------


def test_windows_tf_2_11_plus_is_its_own_finding_not_cpu_only() -> None:
    probe = make_probe("2.15.0", gpus=0, built_with_cuda=False, on="CPU",
                       packages={"tensorflow-intel": "2.15.0"})
    result = checked(context(probe, system="windows", python=WIN_EXE))
    assert codes(result) == ["windows_native_tf_2_11_plus"]  # tensorflow-intel is no conflict
    assert 'tensorflow<2.11' in finding(result, "windows_native_tf_2_11_plus").params["command"]
    assert result.status == FAIL


@pytest.mark.parametrize(
    ("python", "conda", "expected"),
    [
        ("3.9.13", False, (f'"{WIN_EXE}" -m pip install "tensorflow<2.11"',)),
        ("3.11.7", True, ("conda create -y -n tf210 python=3.10",
                          'conda run -n tf210 python -m pip install "tensorflow<2.11"')),
        ("3.11.7", False, ("py -3.10 -m venv tf210",
                           '.\\tf210\\Scripts\\python.exe -m pip install "tensorflow<2.11"')),
    ],
)
def test_windows_tf_2_11_plus_never_installs_tf_210_into_a_python_it_cannot_run_on(
    python: str, conda: bool, expected: tuple[str, ...]
) -> None:
    """TF 2.10 has wheels for Python 3.7-3.10 only: into this env when its Python fits, else a
    new conda env with Python 3.10, or a new venv made with Python 3.10 (never a bare pip)."""
    probe = make_probe("2.15.0", gpus=0, built_with_cuda=False, on="CPU", python=python,
                       conda=conda, packages={"tensorflow-intel": "2.15.0"})
    result = checked(context(probe, system="windows", python=WIN_EXE))
    found = finding(result, "windows_native_tf_2_11_plus")
    assert found.fix.commands == expected
    assert found.params["command"] == expected[-1]


def test_tensorflow_cpu_package_is_cpu_only() -> None:
    probe = make_probe(None, packages={"tensorflow-cpu": "2.21.0"}, gpus=0, on="CPU",
                       built_with_cuda=False, python="3.11.7")
    probe["tensorflow"]["version"] = "2.21.0"
    result = checked(context(probe))
    cpu = finding(result, "gpu_not_listed_cpu_only_package")
    assert cpu.params["package"] == "tensorflow-cpu" and cpu.params["version"] == "2.21.0"
    assert "uninstall -y tensorflow-cpu" in cpu.params["command"]
    assert result.status == FAIL


def test_tensorflow_built_without_cuda_on_linux_is_cpu_only() -> None:
    probe = make_probe("2.15.0", gpus=0, built_with_cuda=False, on="CPU", python="3.11.7")
    result = checked(context(probe))
    assert "gpu_not_listed_cpu_only_package" in codes(result)
    assert "is_built_with_cuda() is False" in finding(
        result, "gpu_not_listed_cpu_only_package").evidence


def test_conflicting_distributions() -> None:
    probe = make_probe("2.15.0", packages={"tensorflow-cpu": "2.12.0"}, python="3.11.7")
    result = checked(context(probe))
    conflict = finding(result, "tf_conflicting_packages")
    assert "tensorflow 2.15.0" in conflict.params["packages"]
    assert "tensorflow-cpu 2.12.0" in conflict.params["packages"]


def test_tensorflow_intel_at_another_version_is_a_conflict() -> None:
    probe = make_probe("2.15.0", packages={"tensorflow-intel": "2.14.0"}, python="3.11.7")
    assert layer.conflicting(layer.installed_tf(probe)) == {
        "tensorflow": "2.15.0", "tensorflow-intel": "2.14.0"
    }


def test_numpy_2_with_tf_before_2_16() -> None:
    probe = make_probe("2.10.1", packages={"numpy": "2.2.6"}, imported=False,
                       error="TypeError: Unable to convert function return value",
                       python="3.10.13")
    result = checked(context(probe))
    numpy = finding(result, "numpy_abi_mismatch")
    assert numpy.params["numpy"] == "2.2.6" and numpy.params["tensorflow"] == "2.10.1"
    assert 'numpy<2' in numpy.params["command"]
    assert result.status == FAIL
    assert "probe_failed" not in codes(result)  # the cause is known: no generic import error


def test_numpy_message_in_the_log_without_versions() -> None:
    log = "A module that was compiled using NumPy 1.x cannot be run in\nNumPy 2.0.0 as it may."
    probe = make_probe("2.13.0", packages={"numpy": None}, imported=False,
                       error="ImportError: numpy.core.multiarray failed to import", log=log,
                       python="3.11.7")
    assert "numpy_abi_mismatch" in codes(checked(context(probe)))


def test_numpy_2_with_tf_2_16_is_fine() -> None:
    probe = make_probe("2.16.1", packages={"numpy": "2.0.1"}, python="3.11.7")
    assert "numpy_abi_mismatch" not in codes(checked(context(probe)))


UUID0 = "GPU-8f2c1a9e-0000-1111-2222-333344445555"
UUID1 = "GPU-1b2c3d4e-0000-1111-2222-333344445555"


@pytest.mark.parametrize(
    ("value", "severity"),
    [("", "fail"), ("-1", "fail"), ("[1,2,3]", "fail"), ("NoDevFiles", "fail"), ("2", "fail"),
     ("0", None), ("0,1", None), (UUID0, None), ("GPU-8f2c", None), ("GPU-1b2c", None),
     ("GPU-ffff0000-0000-1111-2222-333344445555", "fail"), ("GPU-", "fail"),
     ("0,2", "warn"), ("1,5,0", "warn"), ("0,x", "warn"), (" 1 , 0 ", None)],
)
def test_cuda_visible_devices(value: str, severity: Optional[str]) -> None:
    """CUDA reads the list up to its first invalid entry (an index beyond the GPUs NVML lists,
    a UUID no GPU has, anything else): nothing visible is a failure, a cut list a warning."""
    lower = {name: LayerResult(name, OK, "ok") for name in ("driver", "cuda", "cudnn")}
    lower["gpu"] = LayerResult("gpu", OK, "ok", facts={"gpus": [
        {"index": 0, "name": "RTX A", "uuid": UUID0},
        {"index": 1, "name": "RTX B", "uuid": UUID1}]})
    probe = make_probe("2.10.0", env={"CUDA_VISIBLE_DEVICES": value}, gpus=0, on="CPU")
    result = checked(context(probe, system="windows", python=WIN_EXE, lower=lower))
    found = [f for f in result.findings if f.code == "cuda_visible_devices_misconfigured"]
    assert [f.severity for f in found] == ([severity] if severity else [])
    if found:
        text = found[0].message()
        assert repr(value) in text and "0: RTX A" in text and UUID1 in text, text


def test_cuda_visible_devices_without_uuids_judges_only_the_form() -> None:
    lower = {name: LayerResult(name, OK, "ok") for name in ("driver", "cuda", "cudnn")}
    lower["gpu"] = LayerResult("gpu", OK, "ok", facts={"gpus": [{"name": "RTX"}]})
    for value, bad in (("1", True), ("0", False), (UUID1, False)):
        probe = make_probe("2.10.0", env={"CUDA_VISIBLE_DEVICES": value}, gpus=0, on="CPU")
        result = checked(context(probe, system="windows", python=WIN_EXE, lower=lower))
        assert ("cuda_visible_devices_misconfigured" in codes(result)) is bad, value


def test_cuda_visible_devices_from_the_process_environment_when_the_probe_did_not_record_it(
) -> None:
    """The probe inherits the wizard's environment: with no record of its own, the value the
    Host's environment holds is the one TF ran with."""
    lower = {name: LayerResult(name, OK, "ok") for name in ("driver", "cuda", "cudnn")}
    lower["gpu"] = LayerResult("gpu", OK, "ok",
                               facts={"gpus": [{"index": 0, "name": "RTX", "uuid": UUID0}]})
    probe = make_probe("2.10.0", gpus=0, on="CPU")
    env = {"CUDA_VISIBLE_DEVICES": "1", "TF_GPU_ALLOCATOR": "cuda_malloc_async"}
    result = checked(context(probe, system="linux", python=LINUX_EXE, lower=lower, env=env))
    found = finding(result, "cuda_visible_devices_misconfigured")
    assert found.severity == "fail" and "(from the wizard's environment)" in found.evidence
    assert result.facts["cuda_visible_devices"] == "1"
    assert result.facts["inherited_env"]["TF_GPU_ALLOCATOR"] == {
        "value": "cuda_malloc_async", "source": "process"}
    # a value the probe recorded (even "unset") wins over the process environment
    probe = make_probe("2.10.0", gpus=0, on="CPU", env={"CUDA_VISIBLE_DEVICES": None})
    ctx = context(probe, system="linux", python=LINUX_EXE, lower=lower,
                  env={"CUDA_VISIBLE_DEVICES": "1"})
    assert "cuda_visible_devices_misconfigured" not in codes(checked(ctx))


# -- the loader's log goes to the layer it is about ---------------------------------------------


def test_missing_cudnn_dll_lands_on_the_cudnn_layer_with_the_file_named() -> None:
    log = (
        "2022-10-01 10:00:00.000: W tensorflow/stream_executor/platform/default/dso_loader.cc:64]"
        " Could not load dynamic library 'cudnn64_8.dll'; dlerror: cudnn64_8.dll not found\n"
        "2022-10-01 10:00:00.001: W tensorflow/core/common_runtime/gpu/gpu_device.cc:1934] "
        "Cannot dlopen some GPU libraries. Please make sure the missing libraries mentioned above"
        " are installed properly if you would like to use GPU. Follow the guide at "
        "https://www.tensorflow.org/install/gpu for how to download and setup the required "
        "libraries for your platform.\nSkipping registering GPU devices...\n"
    )
    ctx = context(make_probe("2.10.0", gpus=0, on="CPU", log=log), system="windows",
                  python=WIN_EXE)
    result = checked(ctx)
    cudnn = ctx.results["cudnn"]
    assert cudnn.status == FAIL
    found = [f for f in cudnn.findings if f.code == "cudnn_missing"]
    assert found, [f.code for f in cudnn.findings]
    assert "cudnn64_8.dll" in (found[0].message() + (found[0].evidence or ""))
    assert result.status == WARN  # TF itself is fine: it is not "TF broken"
    assert not any(f.layer in ("cudnn", "cuda") for f in result.findings)


def test_old_cudnn_shadowing_is_a_version_mismatch_not_missing() -> None:
    log = (
        "E tensorflow/stream_executor/cuda/cuda_dnn.cc:377] Loaded runtime CuDNN library: 8.0.5 "
        "but source was compiled with: 8.1.0.  CuDNN library needs to have matching major version"
        " and equal or higher minor version.\n"
    )
    probe = make_probe("2.10.0", log=log)
    probe["tensorflow"]["conv"] = {"ok": False, "device": None,
                                   "error": "UnimplementedError: DNN library is not found."}
    ctx = context(probe, system="windows", python=WIN_EXE)
    checked(ctx)
    cudnn_codes = [f.code for f in ctx.results["cudnn"].findings]
    assert "cudnn_version_mismatch" in cudnn_codes
    assert "cudnn_missing" not in cudnn_codes


def test_without_any_nvidia_gpu_log_findings_are_only_informative() -> None:
    log = ("W dso_loader.cc:64] Could not load dynamic library 'libcudart.so.11.0'; dlerror: "
           "libcudart.so.11.0: cannot open shared object file: No such file or directory\n")
    lower = {name: LayerResult(name, NOT_APPLICABLE, "n/a") for name in ("driver", "cuda", "cudnn")}
    lower["gpu"] = LayerResult("gpu", FAIL, "no GPU", findings=[Finding("no_nvidia_gpu")])
    ctx = context(make_probe("2.10.1", gpus=0, on="CPU", log=log, python="3.10.13"), lower=lower)
    result = checked(ctx)
    cuda = ctx.results["cuda"]
    # the loader's complaint is a consequence of having no GPU: evidence, not a finding
    assert cuda.findings == [] and cuda.status == NOT_APPLICABLE
    assert "libcudart.so.11.0" in (ctx.results["gpu"].findings[0].evidence or "")
    assert result.status == WARN and "this machine has none" in str(result.summary)


def test_without_any_nvidia_gpu_the_install_command_skips_the_cuda_wheels() -> None:
    lower = {name: LayerResult(name, NOT_APPLICABLE, "n/a") for name in ("driver", "cuda", "cudnn")}
    lower["gpu"] = LayerResult("gpu", FAIL, "no GPU", findings=[Finding("no_nvidia_gpu")])
    result = checked(context(make_probe(None, python="3.11.7"), lower=lower))
    command = finding(result, "tensorflow_not_installed").params["command"]
    assert command.endswith('pip install "tensorflow"') and "and-cuda" not in command
    with_gpu = checked(context(make_probe(None, python="3.11.7")))
    assert "tensorflow[and-cuda]" in finding(with_gpu, "tensorflow_not_installed").params["command"]


def test_summary_names_the_lower_layer_the_log_failed() -> None:
    log = ("W dso_loader.cc:64] Could not load dynamic library 'libcublas.so.11'; dlerror: "
           "libcublas.so.11: cannot open shared object file: No such file or directory\n")
    ctx = context(make_probe("2.10.1", gpus=0, on="CPU", log=log, python="3.10.13"))
    result = checked(ctx)
    assert ctx.results["cuda"].status == FAIL
    assert "fix the cuda layer first" in str(result.summary)


def test_gpu_listed_but_conv_failed_without_a_known_cause() -> None:
    probe = make_probe("2.10.0")
    probe["tensorflow"]["conv"] = {"ok": False, "device": None, "requested": "/GPU:0",
                                   "error": "InternalError: something odd"}
    result = checked(context(probe, system="windows", python=WIN_EXE))
    failed = finding(result, "gpu_computation_failed")
    assert str(failed.params["step"]) == "conv" and "something odd" in failed.params["error"]


def test_import_failure_with_an_unknown_cause_shows_the_exception() -> None:
    probe = make_probe("2.10.0", imported=False, error="ImportError: DLL load failed: weird")
    probe["tensorflow"]["traceback"] = "Traceback ...\nImportError: DLL load failed: weird\n"
    result = checked(context(probe, system="windows", python=WIN_EXE))
    assert result.status == FAIL
    assert any("weird" in (f.evidence or "") + f.message() for f in result.findings)


# -- a failed probe ----------------------------------------------------------------------------


def test_probe_timeout_is_unknown_with_a_clear_finding() -> None:
    probe = {"error": "the environment probe in X did not finish within 180 s",
             "error_kind": "timeout", "stage": "import_tensorflow", "stdout_tail": "",
             "stderr_tail": "", "log": "I cuda_driver.cc] about to call cuInit\n"}
    result = checked(context(probe))
    assert result.status == UNKNOWN
    failed = finding(result, "probe_failed")
    assert failed.params["error_kind"] == "timeout"
    assert "did not finish within 180 s" in failed.message()
    assert "where it hangs" in failed.fix_summary()
    assert result.facts["stage"] == "import_tensorflow"


def test_conv_failure_explained_by_a_code_a_lower_layer_already_has() -> None:
    log = ("E tensorflow/stream_executor/cuda/cuda_dnn.cc:377] Loaded runtime CuDNN library: 8.0.5"
           " but source was compiled with: 8.1.0.\n")
    lower = {name: LayerResult(name, OK, "ok") for name in ("gpu", "driver", "cuda")}
    lower["cudnn"] = LayerResult("cudnn", FAIL, "old cuDNN first", findings=[
        Finding("cudnn_version_mismatch", params={"found": "8.0.5", "cudnn": "8.1"})])
    probe = make_probe("2.10.0", log=log)
    probe["tensorflow"]["conv"] = {"ok": False, "device": None,
                                   "error": "UnimplementedError: DNN library is not found."}
    ctx = context(probe, system="windows", python=WIN_EXE, lower=lower)
    result = checked(ctx)
    assert "gpu_computation_failed" not in codes(result)
    assert [f.code for f in ctx.results["cudnn"].findings] == ["cudnn_version_mismatch"]
    assert result.status == WARN and "computation failed" in str(result.summary)


# -- messages ----------------------------------------------------------------------------------


def test_summaries_steps_and_links_are_messages_in_both_languages() -> None:
    from wizard.core.messages import Message, render

    result = checked(context(make_probe("2.10.0")))
    assert isinstance(result.summary, Message)
    english, chinese = render(result.summary), render(result.summary, "zh_CN")
    assert english == (f"TensorFlow 2.10.0 runs on NVIDIA GeForce RTX 3070 Ti Laptop GPU "
                       f"(Python 3.9.13 at {LINUX_EXE})")
    assert chinese.startswith("TensorFlow 2.10.0 在 NVIDIA GeForce RTX 3070 Ti Laptop GPU 上运行")
    ctx = context(None, python=None)
    (missing,) = checked(ctx).findings
    assert missing.fix.steps[0].text() == f"Create an environment with Python {ctx.target.python}."
    assert missing.fix.steps[0].key == "tensorflow.create_env"
    assert all(isinstance(link.title, Message) for link in missing.fix.links)
    assert "Python 环境" in missing.message("zh_CN")


def test_a_failed_probe_says_why_by_its_kind() -> None:
    from wizard.core.messages import render

    probe = {"error": "x", "error_kind": "crashed", "returncode": 0xC0000135, "stage": "import",
             "stdout_tail": "", "stderr_tail": "", "log": ""}
    result = checked(context(probe))
    failed = finding(result, "probe_failed")
    assert "exit status 0xC0000135 (at step 'import')" in failed.message()
    assert "0xC0000135" in failed.message("zh_CN") and "退出状态" in failed.message("zh_CN")
    assert render(result.summary, "zh_CN").endswith("探测进程崩溃")
    assert str(result.summary).endswith(": crashed")


def test_a_log_candidate_for_cuda_visible_devices_is_ruled_out_by_the_value_itself(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """explain may name CUDA_VISIBLE_DEVICES for "no CUDA-capable device"; the layer knows the
    value the probe ran with: unset (or fine), it hides nothing, so the candidate is dropped."""
    from wizard.core import explain

    candidate = Finding("cuda_visible_devices_misconfigured", "fail",
                        evidence="CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected")
    monkeypatch.setattr(explain, "probe_log_findings", lambda *args, **kwargs: [candidate])
    lower = {name: LayerResult(name, OK, "ok") for name in ("driver", "cuda", "cudnn")}
    lower["gpu"] = LayerResult("gpu", OK, "ok",
                               facts={"gpus": [{"index": 0, "name": "RTX", "uuid": UUID0}]})
    for env, kept in (({}, False), ({"CUDA_VISIBLE_DEVICES": "0"}, False),
                      ({"CUDA_VISIBLE_DEVICES": "3"}, True)):
        probe = make_probe("2.16.1", gpus=0, on="CPU", python="3.11.7")
        result = checked(context(probe, python=LINUX_EXE, lower=dict(lower), env=env))
        assert ("cuda_visible_devices_misconfigured" in codes(result)) is kept, env
