"""`explain` reads the figures of an out-of-memory report: most of the GPU's memory held outside
the process that ran out means another program or a leftover process holds it (a smaller batch
cannot help), not the workload."""

from __future__ import annotations

import pytest

from wizard.core.explain import DNN_FREE_ENOUGH_GIB, ELSEWHERE_SHARE, explain_log, finding_notes

# PyTorch's three wordings (c10/cuda/CUDACachingAllocator.cpp): "reserved in total" (1.x-2.0),
# "cached" (before 1.4), "this process has ... memory in use" (2.1+)
HELD_ELSEWHERE = [
    "RuntimeError: CUDA out of memory. Tried to allocate 216.00 MiB (GPU 0; 7.92 GiB total "
    "capacity; 69.17 MiB already allocated; 24.56 MiB free; 86.00 MiB reserved in total by "
    "PyTorch)",
    "RuntimeError: CUDA out of memory. Tried to allocate 12.00 MiB (GPU 0; 10.92 GiB total "
    "capacity; 9.50 MiB already allocated; 4.44 MiB free; 512.00 KiB cached)",
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total "
    "capacity of 23.65 GiB of which 11.06 MiB is free. Process 3312 has 21.90 GiB memory in use. "
    "Including non-PyTorch memory, this process has 1.72 GiB memory in use.",
    "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 7.79 GiB total "
    "capacity; 0 bytes already allocated; 12.69 MiB free; 0 bytes reserved in total by PyTorch)",
]
WORKLOAD = [
    "RuntimeError: CUDA out of memory. Tried to allocate 146.00 MiB (GPU 0; 8.00 GiB total "
    "capacity; 7.21 GiB already allocated; 0 bytes free; 7.32 GiB reserved in total by PyTorch)",
    "RuntimeError: CUDA out of memory. Tried to allocate 512.00 MiB (GPU 0; 7.93 GiB total "
    "capacity; 6.19 GiB already allocated; 340.00 MiB free; 551.04 MiB cached)",
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total "
    "capacity of 23.65 GiB of which 1.06 GiB is free. Including non-PyTorch memory, this process "
    "has 22.58 GiB memory in use.",
]


@pytest.mark.parametrize("log", HELD_ELSEWHERE)
def test_memory_held_outside_the_process_is_others_memory(log: str) -> None:
    codes = [f.code for f in explain_log(log, "linux")]
    assert codes[:2] == ["cudnn_handle_oom", "gpu_model_oom"]


@pytest.mark.parametrize("log", WORKLOAD)
def test_memory_held_by_the_process_itself_is_the_workload(log: str) -> None:
    codes = [f.code for f in explain_log(log, "linux")]
    assert codes[0] == "gpu_model_oom"


def test_the_finding_says_how_much_is_held_elsewhere_in_both_languages() -> None:
    finding = explain_log(HELD_ELSEWHERE[0], "linux")[0]
    assert finding.params["total"] == "7.92 GiB"
    # 7.92 GiB - 24.56 MiB free - 86.00 MiB PyTorch's own = 7.81 GiB held by others
    assert finding.params["others"] == "7.81 GiB"
    for lang in ("en", "zh_CN"):
        assert "7.92 GiB" in finding.message(lang) and "7.81 GiB" in finding.message(lang)
        assert "7.81 GiB" in finding.fix_summary(lang)
        assert "TF_FORCE_GPU_ALLOW_GROWTH" not in finding.fix_summary(lang)
    assert finding.message("zh_CN") != finding.message("en")
    assert "nvidia-smi --query-compute-apps" in str(finding.fix)


def test_without_the_figures_the_words_stay_general() -> None:
    finding = explain_log("RuntimeError: CUDA error: out of memory", "linux")
    oom = next(f for f in finding if f.code == "cudnn_handle_oom")
    assert "others" not in oom.params
    assert "TF_FORCE_GPU_ALLOW_GROWTH" in oom.fix_summary("en")


def test_the_threshold_is_the_share_between_the_two_kinds() -> None:
    # just under half held elsewhere: still the workload (8 GiB: 4.4 own + 0.1 free = 3.5 others)
    log = ("RuntimeError: CUDA out of memory. Tried to allocate 1.00 GiB (GPU 0; 8.00 GiB total "
           "capacity; 4.00 GiB already allocated; 102.40 MiB free; 4.40 GiB reserved in total "
           "by PyTorch)")
    assert ELSEWHERE_SHARE > 3.5 / 8
    assert explain_log(log, "linux")[0].code == "gpu_model_oom"


def xla_cudnn_handle_failure(free: int, total: int) -> str:
    """XLA's cuda_dnn.cc (TensorFlow and JAX): the handle failure, then the memory figures."""
    return ("E external/xla/xla/stream_executor/cuda/cuda_dnn.cc:439] Could not create cudnn "
            "handle: CUDNN_STATUS_INTERNAL_ERROR\n"
            "E external/xla/xla/stream_executor/cuda/cuda_dnn.cc:443] Memory usage: "
            f"{free} bytes free, {total} bytes total.\n")


def test_a_cudnn_handle_failure_with_memory_free_is_the_cudnn_not_the_memory() -> None:
    """2.6 GB of 12.5 GB free (jax-ml/jax#22626: cuDNN 9 under a jaxlib built for 8): a handle
    needs far less, so the cuDNN loaded is the suspect, then a cuDNN missing, then memory."""
    findings = explain_log(xla_cudnn_handle_failure(2624061440, 12524191744), "linux")
    codes = [f.code for f in findings]
    assert codes[:3] == ["cudnn_version_mismatch", "cudnn_missing", "cudnn_handle_oom"], codes
    for lang in ("en", "zh_CN"):
        notes = " ".join(note.render(lang) for note in finding_notes(findings[0], lang))
        assert "2.44 GiB" in notes and "11.66 GiB" in notes, notes
        assert ("显存" in notes) == (lang == "zh_CN")
    assert "ldconfig -p | grep libcudnn" in str(findings[0].fix)


def test_a_cudnn_handle_failure_with_the_memory_gone_stays_memory_taken() -> None:
    just_under = int(DNN_FREE_ENOUGH_GIB * 2**30) - 1
    for free in (104857600, just_under):  # 100 MiB, just under the threshold
        codes = [f.code for f in explain_log(xla_cudnn_handle_failure(free, 8 * 2**30), "linux")]
        assert codes[0] == "cudnn_handle_oom", (free, codes)
        assert "cudnn_version_mismatch" not in codes
