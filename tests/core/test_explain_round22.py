"""Shapes written from round 22 of the explain corpus: each names its cause from the message's
shape (operator, library and extension names as variables), and where one line has several
readings they are ranked as the development threads ended. The logs here are other wordings
of the same messages, not the corpus's own lines."""

from __future__ import annotations

import pytest

from wizard.core.codes import message, render_fix_summary
from wizard.core.explain import explain_log
from wizard.core.messages import render

LIGHTNING = (
    "lightning_fabric.utilities.exceptions.MisconfigurationException: CUDAAccelerator can not "
    "run on your system since the accelerator is not available. The following accelerator(s) "
    "is available and can be passed into `accelerator` argument of `Trainer`: ['cpu'].")
ORT_126 = (
    'onnxruntime.capi.onnxruntime_pybind11_state.Fail: [ONNXRuntimeError] : 1 : FAIL : '
    'LoadLibrary failed with error 126 "" when trying to load '
    '"C:\\app\\onnxruntime\\capi\\onnxruntime_providers_cuda.dll"')


def codes(log: str, os_kind: str | None) -> list[str]:
    return [f.code for f in explain_log(log, os_kind)]


@pytest.mark.parametrize(("log", "os_kind", "code"), [
    ("tensorflow.python.framework.errors_impl.NotFoundError: No registered 'Where' OpKernel "
     "for GPU devices compatible with node {{node boolean_mask/Where}}", None,
     "op_no_gpu_kernel"),
    ("ImportError: /opt/cudnn/lib/libcudnn_adv_train.so.8: symbol cudnnRNNForward, version "
     "libcudnn_ops_infer.so.8 not defined in file libcudnn_ops_infer.so.8 with link time "
     "reference", "linux", "cudnn_version_mismatch"),
    ("OSError: /env/lib/libcublas.so.12: symbol cublasLtGetStatusString, version "
     "libcublasLt.so.12 not defined in file libcublasLt.so.12 with link time reference",
     "linux", "cuda_version_mismatch"),
    (LIGHTNING, "linux", "gpu_not_listed_cpu_only_package"),
    ("UserWarning: Failed to load custom C++ ops. Running on CPU mode Only!", "linux",
     "cuda_not_on_path"),
    ("unable to execute 'nvcc': No such file or directory", "linux", "cuda_not_on_path"),
    ("RuntimeError: cuBLAS failed with status CUBLAS_STATUS_NOT_SUPPORTED", "windows",
     "compute_capability_unsupported"),
    ("ImportError: /home/u/venv/lib/python3.10/site-packages/torch_scatter/_scatter_cuda.so: "
     "undefined symbol: _ZN2at4_ops5zeros4callEN3c108ArrayRefINS2_6SymIntEEE", "linux",
     "cuda_version_mismatch"),
])
def test_round_22_shapes_name_their_cause(log: str, os_kind: str | None, code: str) -> None:
    assert codes(log, os_kind)[0] == code


def test_the_operator_without_a_gpu_kernel_is_the_one_in_the_log() -> None:
    finding = explain_log("No registered 'Size' OpKernel for GPU devices compatible with node "
                          "module_apply_default/Prod = Size[T=DT_STRING]", "windows")[0]
    assert finding.params["op"] == "Size"


@pytest.mark.parametrize(("log", "extension"), [
    ("ImportError: /usr/lib/python3/dist-packages/mmcv/_ext.cpython-38-x86_64-linux-gnu.so: "
     "undefined symbol: _ZN3c105ErrorC2ENS_14SourceLocationESs", "mmcv"),
    ("OSError: /srv/env/site-packages/torch_cluster/_grid_cuda.so: undefined symbol: "
     "_ZNK3c106Device3strEv", "torch_cluster"),
])
def test_an_extension_missing_a_pytorch_symbol_was_built_for_another_pytorch(
        log: str, extension: str) -> None:
    finding = explain_log(log, "linux")[0]
    assert finding.code == "cuda_version_mismatch"
    assert finding.params["extension"] == extension
    for lang in ("en", "zh_CN"):
        assert extension in render(message(finding.code, finding.params), lang)
        assert extension in render_fix_summary(finding.code, finding.params, lang)


def test_a_library_missing_a_symbol_of_its_own_is_not_an_extension() -> None:
    # cuDNN's own sub-library missing a cuDNN symbol is two cuDNN copies mixed, not a build
    log = ("libcudnn_cnn_train.so.8: undefined symbol: _ZN5cudnn3cnn34layerNormFwd_execute_"
           "internal_implERKNS_7backend11VariantPackEP11CUstream_st")
    finding = explain_log(log, "linux")[0]
    assert finding.code == "cudnn_version_mismatch" and "extension" not in finding.params


def test_onnx_runtimes_cuda_provider_that_does_not_load_ranks_the_cuda_major_first() -> None:
    assert codes(ORT_126, "windows")[:3] == [
        "cuda_version_mismatch", "cudnn_missing", "windows_dll_dependency_missing"]
    # another program's DLL that fails the same way is still a missing dependency
    other = 'LoadLibrary failed with error 126 "" when trying to load "C:\\app\\plugin.dll"'
    assert codes(other, "windows")[0] == "windows_dll_dependency_missing"


def test_custom_ops_built_without_cuda_point_at_cuda_home_then_a_toolkit() -> None:
    findings = explain_log("Failed to load custom C++ ops. Running on CPU mode Only!", "linux")
    assert [f.code for f in findings[:2]] == ["cuda_not_on_path", "cuda_not_installed"]
    assert "CUDA_HOME" in render_fix_summary(findings[0].code, findings[0].params, "en")
    assert "CUDA_HOME" in render_fix_summary(findings[0].code, findings[0].params, "zh_CN")
    # setting CUDA_HOME is not enough: the extension must be compiled again
    assert "explain.rebuild_extension" in [step.key for step in findings[0].fix.steps]


def test_a_compiler_flag_that_names_ptxas_is_not_a_message_about_ptxas() -> None:
    log = ("nvcc -I/usr/include/python3.8 -c k.cu -o build/k.o -arch=sm_52 -O "
           "--ptxas-options=-v --compiler-options=-fPIC\n"
           "unable to execute 'nvcc': No such file or directory\n"
           "error: command 'nvcc' failed with exit status 1")
    found = codes(log, "linux")
    assert found[0] == "cuda_not_on_path" and "libdevice_or_ptxas_missing" not in found
    assert codes("ptxas fatal : Value 'sm_90' is not defined for option 'gpu-name'", "linux")


def test_onnx_runtimes_cuda_path_line_ranks_the_cuda_then_the_cudnn() -> None:
    log = ("[E:onnxruntime:Default, provider_bridge_ort.cc:1862 onnxruntime::TryGetProviderInfo_"
           "CUDA] CUDA_PATH is set but CUDA wasn't able to be loaded. Please install the correct "
           "version of CUDA and cuDNN as mentioned in the GPU requirements page")
    assert codes(log, "windows")[:2] == ["cuda_version_mismatch", "cudnn_version_mismatch"]


def test_a_dll_that_does_not_load_ranks_the_cuda_build_and_the_dll_path_after_it() -> None:
    log = ("FileNotFoundError: Could not find module 'C:\\app\\venv\\Lib\\site-packages\\kernels\\"
           "lib\\kernels.dll' (or one of its dependencies). Try using the full path with "
           "constructor syntax.")
    findings = explain_log(log, "windows")
    assert [f.code for f in findings[:3]] == [
        "windows_dll_dependency_missing", "cuda_version_mismatch", "cuda_not_on_path"]
    # the question it asks settles the CUDA build either way
    from wizard.core.explain import question_for
    assert question_for(findings).id == "other_cuda"
    answered = explain_log(log, "windows", machine=["other_cuda_installed"])
    assert answered[0].code == "cuda_version_mismatch"


NIX_RUN = """\
[nix-shell:~/project]$ python train.py
Traceback (most recent call last):
RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU \
and installed a driver from http://www.nvidia.com/Download/index.aspx
"""


def test_under_nix_cuda_failing_to_start_is_the_driver_folder_off_the_loader_path() -> None:
    finding = explain_log(NIX_RUN, "linux")[0]
    assert finding.code == "cuda_not_on_path"
    assert finding.params["driver_folder"] == "/run/opengl-driver/lib"
    assert "export LD_LIBRARY_PATH=/run/opengl-driver/lib:$LD_LIBRARY_PATH" in \
        finding.fix.commands
    # the fix the wizard can run: the folder added to LD_LIBRARY_PATH for new terminals
    assert (finding.fix.action, finding.fix.action_params) == (
        "set_env", {"name": "LD_LIBRARY_PATH", "append": "/run/opengl-driver/lib"})
    for lang in ("en", "zh_CN"):
        assert "/run/opengl-driver/lib" in render(message(finding.code, finding.params), lang)
        assert "LD_LIBRARY_PATH" in render_fix_summary(finding.code, finding.params, lang)
    # the same error elsewhere is the driver
    elsewhere = NIX_RUN.replace("[nix-shell:~/project]$ ", "$ ")
    assert explain_log(elsewhere, "linux")[0].code != "cuda_not_on_path"


def test_cuda_error_802_says_the_fabric_manager_and_its_version() -> None:
    finding = explain_log("RuntimeError: Unexpected error from cudaGetDeviceCount(). Error 802: "
                          "system not yet initialized", "linux")[0]
    assert finding.code == "gpu_without_driver"
    for lang in ("en", "zh_CN"):
        assert "NVIDIA Fabric Manager" in render(message(finding.code, finding.params), lang)
        fix = render_fix_summary(finding.code, finding.params, lang)
        assert "NVIDIA Fabric Manager" in fix and "nvidia-fabricmanager-535" in fix


@pytest.mark.parametrize(("log", "code"), [
    ("RuntimeError: cuBLAS failed with status\nCUBLAS_STATUS_NOT_SUPPORTED",
     "compute_capability_unsupported"),
    ("OSError:\n~/env/lib/python3.8/site-packages/torch_sparse/_convert_cuda.so:\n"
     "undefined symbol: _ZN3c106detail14torchCheckFailEPKcS2_jRKSs", "cuda_version_mismatch"),
])
def test_a_mail_that_wrapped_the_line_still_names_the_cause(log: str, code: str) -> None:
    assert codes(log, "linux")[0] == code


CMAKE_NOTFOUND = """\
CMake Error: The following variables are used in this project, but they are set to NOTFOUND.
Please set them or make sure they are set and tested correctly in the CMake files:
CUDA_CUDA_LIBRARY (ADVANCED)
    linked by target "gpu_kernels" in directory /build/src
"""


def test_cmake_without_the_drivers_library_is_a_build_without_gpu_access_then_no_driver() -> None:
    findings = explain_log(CMAKE_NOTFOUND, "linux")
    assert [f.code for f in findings[:2]] == [
        "container_no_gpu_passthrough", "no_driver_or_nvidia_smi_missing"]
    assert "explain.cmake_cuda_stub" in [step.key for step in findings[0].fix.steps]
