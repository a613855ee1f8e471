"""What the pages say must be true, and the same in both languages: a failed convolution is not
"runs on the GPU", a not-needed CUDA row does not point at a system folder, the details tree
speaks words (no ``library_not_found``, no "item(s)"), Linux pages do not list a Windows DLL, and
a warning badge never sits beside a line that says there is nothing to fix."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from conftest import own_profile

sys.path.insert(0, str(Path(__file__).parent))
from helpers import walk_to_summary  # noqa: E402

from wizard import (
    i18n,  # noqa: E402
    texts,  # noqa: E402
)
from wizard.core.diagnose import run_check  # noqa: E402
from wizard.core.host import ReplayHost  # noqa: E402
from wizard.pages.ids import PageId  # noqa: E402
from wizard.pages.summary import LAYER_ROLE  # noqa: E402
from wizard.widgets.facts import FactsView  # noqa: E402

PROFILES = sorted((Path(__file__).resolve().parents[1] / "profiles").glob("*.json"))
GPU_DEVICE = "/job:localhost/replica:0/task:0/device:GPU:0"
RAW_VALUES = {
    "library_not_found", "driver_not_loaded", "driver_library_mismatch", "no_permission",
    "not_found", "timed_out", "conda_env", "cuda_folder", "rpath", "version_source",
}


@pytest.fixture(params=["en", "zh_CN"])
def language(request, qapp):
    assert i18n.install_language(qapp, request.param)
    yield request.param
    i18n.install_language(qapp, "en")


@pytest.fixture()
def chinese(qapp):
    assert i18n.install_language(qapp, "zh_CN")
    yield
    i18n.install_language(qapp, "en")


def _report(name: str):
    return run_check(ReplayHost.from_file(PROFILES[0].parent / f"{name}.json"))


# -- summaries ----------------------------------------------------------------------------------


def test_zh_tensorflow_summary_of_a_profile_whose_convolution_failed(chinese):
    tf = _report("win-cudnn89-no-zlibwapi").layer("tensorflow")
    assert tf.facts["matmul"]["ok"] and not tf.facts["conv"]["ok"]
    assert "computation failed" in str(tf.summary)  # the English
    text = texts.layer_summary(tf)
    assert "上运行" not in text and "失败" in text, text  # not "runs on": "failed"
    ready = texts.layer_summary(_report("win-tf210-healthy").layer("tensorflow"))
    assert "上运行" in ready, ready


def test_zh_summary_of_a_not_needed_cuda_does_not_name_a_system_copy(chinese):
    """Linux with tensorflow[and-cuda]: English says no system toolkit is needed; Chinese too,
    without naming a system folder."""
    cuda = _report("linux-tf221-and-cuda-healthy").layer("cuda")
    assert cuda.status == "n/a" and "no system CUDA Toolkit needed" in str(cuda.summary)
    text = texts.layer_summary(cuda)
    assert "/usr/local" not in text and "不需要" in text, text


# -- the details tree ---------------------------------------------------------------------------


def _tree_texts(view: FactsView) -> list[tuple[str, str]]:
    rows = []

    def walk(item):
        for index in range(item.childCount()):
            child = item.child(index)
            rows.append((child.text(0), child.text(1)))
            walk(child)

    walk(view.invisibleRootItem())
    return rows


@pytest.mark.parametrize("path", PROFILES, ids=lambda p: p.stem)
def test_details_tree_shows_words_not_identifiers(qtbot, path, language):
    host = ReplayHost.from_file(path)
    report = run_check(host)
    view = FactsView()
    qtbot.addWidget(view)
    for layer in report.layers:
        view.set_facts(texts.shown_facts(layer.facts, host.platform.os_kind))
        for label, value in _tree_texts(view):
            assert "item(s)" not in value and "(s)" not in value, (layer.layer, label, value)
            assert value not in RAW_VALUES, (layer.layer, label, value)
            if host.platform.os_kind != "windows":
                assert "zlibwapi" not in label, (layer.layer, label, value)


def test_count_rows_read_naturally(qtbot):
    view = FactsView()
    qtbot.addWidget(view)
    view.set_facts({"installs": [{"version": "11.2"}], "gpus": [{"a": 1}, {"b": 2}]})
    values = dict(_tree_texts(view))
    assert values[texts.fact_label("installs")] == "1 entry"
    assert values[texts.fact_label("gpus")] == "2 entries"


def test_nvml_error_is_said_in_words(qtbot, language):
    view = FactsView()
    qtbot.addWidget(view)
    view.set_facts({"nvml_error": "library_not_found", "source": "pci"})
    values = [value for _label, value in _tree_texts(view)]
    assert "library_not_found" not in values and "pci" not in values
    if language == "zh_CN":
        assert all(any("\u4e00" <= ch <= "\u9fff" for ch in v) for v in values), values


# -- pages ---------------------------------------------------------------------------------------


def _page_tree(page) -> list[tuple[str, str]]:
    return _tree_texts(page.facts)


def test_linux_cudnn_page_does_not_list_zlibwapi(qtbot, make_wizard):
    wiz = make_wizard(own_profile("gui-linux-pip-ready"))
    wiz.show()
    walk_to_summary(qtbot, wiz)
    page = wiz.layer_pages["cudnn"]
    wiz.show_layer("cudnn")
    qtbot.waitUntil(page.isComplete, timeout=10000)
    assert page.result is not None
    assert "zlibwapi" in str(page.result.facts)  # core records it; the page leaves it out
    assert not [row for row in _page_tree(page) if "zlibwapi" in row[0]]


def test_windows_cudnn_page_still_lists_zlibwapi(qtbot, make_wizard):
    wiz = make_wizard(own_profile("gui-win-ready"))
    wiz.show()
    walk_to_summary(qtbot, wiz)
    page = wiz.layer_pages["cudnn"]
    wiz.show_layer("cudnn")
    qtbot.waitUntil(page.isComplete, timeout=10000)
    assert [row for row in _page_tree(page) if "zlibwapi" in row[0]]


NOTHING_TO_FIX = (
    "Nothing specific to fix was found; the details below show what was seen.",
    "No problems found on this layer.",
)


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
@pytest.mark.parametrize("profile", ["gui-win-cudnn-missing", "gui-linux-no-gpu"])
def test_no_warning_badge_beside_nothing_to_fix(qtbot, qapp, make_wizard, profile, lang):
    from PySide6.QtCore import QCoreApplication

    assert i18n.install_language(qapp, lang)
    try:
        calm = {QCoreApplication.translate("LayerPage", text) for text in NOTHING_TO_FIX}
        wiz = make_wizard(own_profile(profile))
        wiz.show()
        walk_to_summary(qtbot, wiz)
        checked = 0
        for layer in wiz.session.results():
            page = wiz.layer_pages.get(layer)
            if page is None:
                continue
            wiz.show_layer(layer)
            qtbot.waitUntil(page.isComplete, timeout=10000)
            if page.badge.status in ("warn", "fail", "unknown") and not page.cards:
                checked += 1
                assert page.no_findings.isVisibleTo(page)
                assert page.no_findings.text() not in calm, (layer, page.no_findings.text())
        if profile == "gui-win-cudnn-missing":
            assert checked, "the TF page (warn, no card) was not seen"
            tf = wiz.layer_pages["tensorflow"]
            assert texts.layer_title("cudnn") in tf.no_findings.text()
        assert wiz.currentId() != PageId.INTRO
    finally:
        i18n.install_language(qapp, "en")


@pytest.mark.parametrize(
    ("profile", "layer"),
    [("win-tf210-cudnn-never-copied", "cudnn"), ("linux-intel-only", None)],
)
def test_zh_tensorflow_summary_names_the_lower_layer_as_english_does(chinese, profile, layer):
    """English: "TensorFlow 2.10.1 (CUDA build) sees no GPU; fix the cudnn layer first (...)";
    Chinese says the same, not only "sees no GPU"."""
    tf = _report(profile).layer("tensorflow")
    text = texts.layer_summary(tf)
    if layer is not None:
        assert f"fix the {layer} layer first" in str(tf.summary)
        assert texts.layer_title(layer) in text, text
    else:
        assert "this machine has none" in str(tf.summary)
        assert "这台电脑没有" in text, text


def test_summary_page_tensorflow_row_names_the_lower_layer(qtbot, qapp, make_wizard):
    assert i18n.install_language(qapp, "zh_CN")
    try:
        wiz = make_wizard(own_profile("gui-win-cudnn-missing"))
        wiz.show()
        walk_to_summary(qtbot, wiz)
        qtbot.waitUntil(lambda: wiz.summary.report is not None, timeout=10000)
        chain = wiz.summary.chain
        rows = {chain.topLevelItem(i).data(0, LAYER_ROLE): chain.topLevelItem(i).text(2)
                for i in range(chain.topLevelItemCount())}
        assert "cuDNN" in rows["tensorflow"], rows["tensorflow"]
        wiz.back()
        tf = wiz.layer_pages["tensorflow"]
        assert "cuDNN" in tf.summary.text(), tf.summary.text()
    finally:
        i18n.install_language(qapp, "en")
