"""wizard/texts.py renders core's messages as core does in English, and in Chinese with the
params intact once zh_CN is installed."""

from __future__ import annotations

import os
import re

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import string

import pytest

from wizard import i18n, texts
from wizard.core import codes, messages, model
from wizard.core.model import Finding, Step


def _sample_params(template: str) -> dict[str, str]:
    """A value for every placeholder of ``template``: its own name in angle brackets."""
    names = [f for _, f, _, _ in string.Formatter().parse(template) if f]
    return {name: f"<{name}>" for name in names}


def _code_params(code: str) -> dict[str, str]:
    return _sample_params(messages.template(f"finding.{code}.message")
                          + messages.template(f"finding.{code}.fix"))


@pytest.mark.parametrize("code", sorted(codes.CODES))
def test_english_equals_core(qapp, code: str) -> None:
    finding = Finding(code=code, params=_code_params(code))
    assert texts.finding_title(code) == finding.title()
    assert texts.finding_message(finding) == finding.message()
    assert texts.finding_fix(finding) == finding.fix_summary()


def test_unknown_codes_do_not_crash(qapp) -> None:
    finding = Finding(code="no_such_code", params={"x": 1})
    assert texts.finding_title("no_such_code") == "no_such_code"
    assert texts.finding_message(finding) == "no_such_code"
    assert texts.finding_fix(finding) == ""
    assert texts.layer_title("quantum") == "quantum"
    assert texts.status_text("weird") == "weird"


def test_layers_and_statuses_english(qapp) -> None:
    assert [texts.layer_title(layer) for layer in model.LAYERS] == [
        "GPU",
        "Driver",
        "CUDA Toolkit",
        "cuDNN",
        "TensorFlow",
    ]
    assert [texts.status_text(s) for s in model.STATUSES] == [
        "OK",
        "Warning",
        "Problem",
        "Unknown",
        "Not needed",
    ]


@pytest.fixture
def chinese(qapp):
    assert i18n.install_language(qapp, "zh_CN")
    yield qapp
    i18n.install_language(qapp, "en")


def test_chinese_rendering_keeps_the_values(chinese) -> None:
    finding = Finding(
        code="cudnn_missing",
        params={"cudnn": "8.1", "cuda": "11.2", "file_note": " (cudnn64_8.dll)"},
    )
    message = texts.finding_message(finding)
    fix = texts.finding_fix(finding)
    assert "8.1" in message and "cudnn64_8.dll" in message and "没有找到" in message
    assert "11.2" in fix and "复制" in fix
    assert texts.finding_title("driver_too_old") == "驱动版本过旧"
    assert texts.layer_title("cuda") == "CUDA 工具包"
    assert texts.status_text("ok") == "正常"
    assert texts.step_text(Step("run", {"command": "pip install x"})) == "运行：pip install x"


def _has_words(template: str) -> bool:
    """Whether a template has own text besides its placeholders."""
    return any(ch.isalpha() for ch in re.sub(r"\{\w*\}", "", template))


@pytest.mark.parametrize("code", sorted(codes.CODES))
def test_every_code_renders_in_chinese(chinese, code: str) -> None:
    params = _code_params(code)
    finding = Finding(code=code, params=params)
    for text in (texts.finding_title(code), texts.finding_message(finding),
                 texts.finding_fix(finding)):
        if text:
            assert any("\u4e00" <= ch <= "\u9fff" for ch in text) or text.startswith("<"), (
                f"{code}: {text!r}")
    for value in params.values():
        assert value in texts.finding_message(finding) + texts.finding_fix(finding)


NAME_LABELS = {"nvidia-smi", "nvcc", "LD_LIBRARY_PATH", "CUDA_VISIBLE_DEVICES", "zlibwapi.dll"}
NAME_LABELS |= {"Python", "UUID", "CUDA", "cuDNN"}
SUMMARY_PROFILES = ("win-tf210-cudnn-never-copied", "wsl2-healthy", "win-intel-igpu-only")


@pytest.mark.parametrize("profile", SUMMARY_PROFILES)
def test_layer_summaries_and_fact_labels_in_chinese(chinese, profile: str) -> None:
    """Every layer's summary line and every fact label the layers report come out Chinese
    (fails when a layer changes its facts so that the Chinese summary falls back to English)."""
    from pathlib import Path

    from wizard.core.diagnose import run_check
    from wizard.core.host import ReplayHost

    path = Path(__file__).resolve().parents[1] / "profiles" / f"{profile}.json"
    if not path.is_file():
        pytest.skip(f"profile {path.name} is not in tests/profiles")
    report = run_check(ReplayHost.from_file(path))
    for result in report.layers:
        summary = texts.layer_summary(result)
        assert any("\u4e00" <= ch <= "\u9fff" for ch in summary), (result.layer, summary)
        for key in result.facts:
            label = texts.fact_label(key)
            assert label in NAME_LABELS or any("\u4e00" <= ch <= "\u9fff" for ch in label), (
                f"fact {key!r} of the {result.layer} layer has no label: add it to _fact_labels() "
                "in wizard/texts.py, run scripts/update_translations.py and translate it"
            )


def test_layer_summary_in_english_is_cores(qapp) -> None:
    result = model.LayerResult("gpu", "ok", "NVIDIA X, compute 8.6", facts={"gpus": []})
    assert texts.layer_summary(result) == "NVIDIA X, compute 8.6"
    assert texts.fact_label("driver_version") == "Driver version"
    assert texts.fact_label("nvidia-cudnn-cu12") == "nvidia-cudnn-cu12"
    assert texts.fact_label("some_new_key") == "Some new key"
