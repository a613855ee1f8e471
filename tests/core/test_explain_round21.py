"""Shapes written from round 21 of the explain corpus: each names its cause from the message's
shape (package, operator and library names as variables), and where one line has two readings
both are ranked."""

from __future__ import annotations

import pytest

from wizard.core.codes import message, render_fix_summary
from wizard.core.explain import decisive, explain_log
from wizard.core.messages import render

XFORMERS_OPERATORS = """\
NotImplementedError: No operator found for `memory_efficient_attention_forward` with inputs:
     query       : shape=(1, 4096, 8, 64) (torch.float16)
`fa3F@0.0.0` is not supported because:
    xFormers wasn't build with CUDA support
    requires device with capability > (9, 0) but your GPU has capability (8, 6) (too old)
`cutlassF-pt` is not supported because:
    xFormers wasn't build with CUDA support
"""


@pytest.mark.parametrize(("log", "os_kind", "code"), [
    ("AttributeError: module 'faiss' has no attribute 'StandardGpuResources'", "linux",
     "gpu_not_listed_cpu_only_package"),
    ("AttributeError: module 'faiss' has no attribute 'index_cpu_to_all_gpus'", None,
     "gpu_not_listed_cpu_only_package"),
    ("NotImplementedError: Could not run 'torchvision::roi_align' with arguments from the "
     "'CUDA' backend.", "windows", "gpu_not_listed_cpu_only_package"),
    ("nvrtc: error: failed to load builtins", "linux", "cuda_not_on_path"),
    ("nvrtc: error: failed to load builtins", "windows", "cuda_not_on_path"),
    ("RuntimeError: Triton Error [CUDA]: device kernel image is invalid.", "linux",
     "driver_too_old"),
    ("tensorflow.python.framework.errors_impl.InternalError: CUDA runtime implicit "
     "initialization on GPU:0 failed. Status: device kernel image is invalid", "linux",
     "compute_capability_unsupported"),
    (XFORMERS_OPERATORS, "linux", "cuda_version_mismatch"),
])
def test_round_21_shapes_name_their_cause(log: str, os_kind: str | None, code: str) -> None:
    assert explain_log(log, os_kind)[0].code == code


@pytest.mark.parametrize(("log", "first", "second"), [
    ("CUDA error: device kernel image is invalid", "driver_too_old",
     "compute_capability_unsupported"),
    ("Error in load module (gpu_burn-drv.cpp:238): a PTX JIT compilation failed",
     "driver_too_old", "compute_capability_unsupported"),
])
def test_a_line_with_two_readings_ranks_both_and_decides_neither(log: str, first: str,
                                                                 second: str) -> None:
    findings = explain_log(log, "linux")
    assert [f.code for f in findings[:2]] == [first, second]
    assert not decisive(findings)


def test_the_package_a_cpu_build_names_is_the_one_in_the_log() -> None:
    finding = explain_log("Could not run 'torchaudio::rnnt_loss' with arguments from the "
                          "'CUDA' backend", "linux")[0]
    assert finding.params["package"] == "torchaudio"
    faiss = explain_log("module 'faiss' has no attribute 'GpuIndexFlatL2'", "linux")[0]
    for lang in ("en", "zh_CN"):
        assert "faiss-cpu" in render(message(faiss.code, faiss.params), lang)


def test_nvrtc_builtins_name_the_file_and_path_of_the_os() -> None:
    linux = explain_log("nvrtc: error: failed to load builtins", "linux")[0]
    windows = explain_log("nvrtc: error: failed to load builtins", "windows")[0]
    assert (linux.params["file"], linux.params["variable"]) == (
        "libnvrtc-builtins.so", "LD_LIBRARY_PATH")
    assert (windows.params["file"], windows.params["variable"]) == (
        "nvrtc-builtins64_*.dll", "PATH")


def test_xformers_is_explained_as_built_for_another_pytorch_in_both_languages() -> None:
    finding = explain_log(XFORMERS_OPERATORS, "linux")[0]
    for lang in ("en", "zh_CN"):
        text = render(message(finding.code, finding.params), lang)
        assert "xFormers" in text and "PyTorch" in text
        assert "xFormers" in render_fix_summary(finding.code, finding.params, lang)
        assert "torch.version.cuda" in render(finding.params["how_to_tell"], lang)


def test_a_cpu_pytorch_under_xformers_still_leads_with_the_cpu_build() -> None:
    log = ("WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:\n"
           "    PyTorch 2.3.1+cu121 with CUDA 1201 (you have 2.3.1+cpu)")
    codes = [f.code for f in explain_log(log, "windows")]
    assert codes[:2] == ["gpu_not_listed_cpu_only_package", "cuda_version_mismatch"]


def test_cuda_tensor_sharing_on_windows_is_its_own_operation_not_the_allocator() -> None:
    log = ("THCudaCheck FAIL file=..\\torch/csrc/generic/StorageSharing.cpp line=253 error=801 : "
           "operation not supported")
    finding = explain_log(log, "windows")[0]
    assert finding.code == "operation_not_supported"
    for lang in ("en", "zh_CN"):
        assert "num_workers" in render_fix_summary(finding.code, finding.params, lang)
    allocator = explain_log("RuntimeError: CUDA error: operation not supported", "linux")[0]
    assert "cudaMallocAsync" in render(message(allocator.code, allocator.params), "en")
    assert "cuda_malloc_async" in render_fix_summary(allocator.code, allocator.params, "en")


@pytest.mark.parametrize(("line", "compiler"), [
    ("#error -- unsupported GNU version! gcc versions later than 13 are not supported!", "GNU"),
    ("error -- unsupported clang version! clang version must be less than 16 and greater than 3.2",
     "clang"),
    ("#error: -- unsupported Microsoft Visual Studio version! Only the versions between 2017 and "
     "2022 (inclusive) are supported!", "Microsoft Visual Studio"),
])
def test_a_host_compiler_newer_than_nvcc_names_the_compiler(line: str, compiler: str) -> None:
    finding = explain_log(line, None)[0]
    assert (finding.code, finding.params["compiler"]) == ("cuda_version_mismatch", compiler)
    for lang in ("en", "zh_CN"):
        assert compiler in render(message(finding.code, finding.params), lang)
        assert compiler in render_fix_summary(finding.code, finding.params, lang)


@pytest.mark.parametrize(("line", "file"), [
    ("/usr/bin/ld: cannot find -lcuda", "libcuda.so"),
    ("/usr/bin/ld: cannot find -lcudart", "libcudart.so"),
])
def test_a_linker_that_cannot_find_a_cuda_library_names_its_file(line: str, file: str) -> None:
    finding = explain_log(line, "linux")[0]
    assert (finding.code, finding.params["file"]) == ("cuda_lib_other_missing", file)


@pytest.mark.parametrize("line", [
    "  Specify CUDA_TOOLKIT_ROOT_DIR",
    "  Could NOT find CUDA (missing: CUDA_TOOLKIT_ROOT_DIR CUDA_NVCC_EXECUTABLE CUDA_INCLUDE_DIRS)",
    "  Could NOT find CUDAToolkit (missing: CUDAToolkit_INCLUDE_DIR CUDA_CUDART)",
])
def test_cmake_finding_no_toolkit_ranks_none_installed_then_off_path(line: str) -> None:
    findings = explain_log("CMake Error at FindCUDA.cmake:859 (message):\n" + line, "linux")
    assert [f.code for f in findings[:2]] == ["cuda_not_installed", "cuda_not_on_path"]
    assert not decisive(findings)


def test_one_undecided_candidate_is_not_called_the_candidates() -> None:
    from wizard.core.explain import findings_text
    one = explain_log(XFORMERS_OPERATORS, "linux")
    assert len(one) == 1 and not decisive(one)
    assert findings_text(one, "en").startswith("No line in this log names the cause for "
                                               "certain. The likeliest cause, and how to tell")
    assert "最可能的原因，以及如何判断是不是它" in findings_text(one, "zh_CN")
    several = explain_log("CUDA error: device kernel image is invalid", "linux")
    assert "The candidates, most likely first" in findings_text(several, "en")
