"""Shapes written from round 20 of the explain corpus: each names its cause from the message's
shape alone (library names as variables)."""

from __future__ import annotations

import pytest

from wizard.core.codes import message
from wizard.core.explain import explain_log
from wizard.core.messages import render


@pytest.mark.parametrize(("line", "os_kind", "code"), [
    ("RuntimeError: Failed to dlopen libcuda.so", "wsl2", "wsl_gpu_missing"),
    ("RuntimeError: Failed to dlopen libcuda.so.1", "linux", "no_driver_or_nvidia_smi_missing"),
    ("OSError: libtorch_cuda_cu.so: cannot open shared object file: No such file or directory",
     "linux", "cuda_version_mismatch"),
])
def test_round_20_shapes_name_their_cause(line: str, os_kind: str, code: str) -> None:
    assert explain_log(line, os_kind)[0].code == code


def test_a_split_pytorch_library_is_explained_as_the_extension_built_for_another_pytorch() -> None:
    finding = explain_log("OSError: libtorch_cuda_cu.so: cannot open shared object file: "
                          "No such file or directory", "linux")[0]
    for lang in ("en", "zh_CN"):
        text = render(message(finding.code, finding.params), lang)
        assert "libtorch_cuda_cu.so" in text and "1.8" in text
    assert "torch.version.cuda" in render(finding.params["how_to_tell"], "en")
