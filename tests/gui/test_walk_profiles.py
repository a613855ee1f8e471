"""The wizard walks machine profiles from intro to summary; Next and routing follow the results,
and the summary's report is the one ``gpu-wizard check`` gives for the same machine."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from conftest import OWN_PROFILES, SHARED_PROFILES, own_profile

sys.path.insert(0, str(Path(__file__).parent))
from helpers import next_button, walk_to_summary  # noqa: E402

from wizard.core.diagnose import CheckOptions, run_check  # noqa: E402
from wizard.core.host import ReplayHost  # noqa: E402
from wizard.core.model import LAYERS  # noqa: E402
from wizard.pages.ids import LAYER_PAGES, PageId  # noqa: E402

PROFILES = sorted(OWN_PROFILES.glob("*.json")) + sorted(SHARED_PROFILES.glob("*.json"))


@pytest.mark.parametrize("profile", PROFILES, ids=lambda p: p.stem)
def test_walk_profile(qtbot, make_wizard, profile: Path):
    wiz = make_wizard(profile)
    wiz.show()
    seen: dict[str, dict] = {}
    visited = walk_to_summary(qtbot, wiz, target="installed", seen=seen)

    expected = run_check(ReplayHost.from_file(profile), CheckOptions())
    gpu_codes = [f.code for f in expected.layer("gpu").findings]
    if "no_nvidia_gpu" in gpu_codes:
        assert visited == [PageId.INTRO, PageId.GPU, PageId.SUMMARY]
    else:
        assert visited == [PageId.INTRO] + [LAYER_PAGES[layer] for layer in LAYERS] + [
            PageId.SUMMARY
        ]

    summary = wiz.summary
    report = summary.report
    assert report is not None, "the summary has no report"
    assert report.to_dict() == expected.to_dict()

    # every layer page showed its result's status and one card per finding
    for layer, shown in seen.items():
        assert shown["badge"] == shown["status"], layer
        assert shown["cards"] == shown["findings"], layer
    # the TensorFlow layer may add what the loader's log says to lower layers: going back to
    # such a page shows the updated result
    if PageId.TENSORFLOW in visited:
        wiz.back()
        wiz.back()
        page = wiz.currentPage()
        assert page.layer == "cudnn"
        assert page.badge.status == report.layer("cudnn").status
        assert len(page.cards) == len(report.layer("cudnn").findings)
        wiz.next()
        wiz.next()
        qtbot.waitUntil(wiz.currentPage().isComplete, timeout=20000)
        assert wiz.summary.report.to_dict() == expected.to_dict()

    assert summary.chain.topLevelItemCount() == len(report.layers)
    if report.blocking_layer:
        assert summary.cards, "a blocking layer must come with what to do first"

    data = json.loads(profile.read_text(encoding="utf-8"))
    expect = data.get("expect")
    if expect:
        assert report.blocking_layer == expect.get("blocking_layer", report.blocking_layer)
        assert report.ready == expect.get("ready", report.ready)
        for layer, status in (expect.get("statuses") or {}).items():
            assert report.layer(layer).status == status, layer


def test_next_is_disabled_while_checking_and_follows_the_result(qtbot, make_wizard, monkeypatch):
    import threading

    from wizard.core import diagnose

    gate = threading.Event()
    real = diagnose.layer_checker

    def gated(name):
        check = real(name)

        def run(ctx):
            gate.wait(10)
            return check(ctx)

        return run

    monkeypatch.setattr(diagnose, "layer_checker", gated)
    wiz = make_wizard(own_profile("gui-linux-no-gpu"))
    wiz.show()
    wiz.next()
    page = wiz.currentPage()
    assert page.is_running()
    assert not next_button(wiz).isEnabled()
    assert page.badge.word()  # "Checking…" with its symbol
    gate.set()
    qtbot.waitUntil(page.isComplete, timeout=10000)
    assert next_button(wiz).isEnabled()
    assert page.nextId() == PageId.SUMMARY  # no NVIDIA GPU: straight to the summary


def test_gpu_present_routes_to_driver(qtbot, make_wizard):
    wiz = make_wizard(own_profile("gui-win-ready"))
    wiz.show()
    wiz.next()
    qtbot.waitUntil(wiz.currentPage().isComplete, timeout=10000)
    assert wiz.currentPage().nextId() == PageId.DRIVER


def test_window_is_marked_as_demo(qtbot, make_wizard):
    wiz = make_wizard(own_profile("gui-win-ready"))
    assert "Demo" in wiz.windowTitle() and "gui-win-ready" in wiz.windowTitle()
    assert wiz.intro.banner is not None and "gui-win-ready" in wiz.intro.banner.text()
    assert wiz.minimumWidth() >= 640 and wiz.minimumHeight() >= 480


def test_summary_opens_a_later_layer(qtbot, make_wizard):
    wiz = make_wizard(own_profile("gui-linux-no-gpu"))
    wiz.show()
    walk_to_summary(qtbot, wiz)
    wiz.show_layer("cudnn")
    assert wiz.currentId() == PageId.CUDNN
    page = wiz.currentPage()
    qtbot.waitUntil(page.isComplete, timeout=10000)
    assert page.result is not None and page.result.layer == "cudnn"
    assert page.nextId() == PageId.TENSORFLOW


def test_intro_target_is_passed_to_the_check(qtbot, make_wizard):
    wiz = make_wizard(own_profile("gui-win-ready"))
    wiz.show()
    assert wiz.intro.chosen_target() == "2.10"  # the recommended one is preselected
    walk_to_summary(qtbot, wiz, target=None)
    assert wiz.session.options.tensorflow == "2.10"
    assert wiz.summary.report.target.tensorflow.startswith("2.10")


def test_tensorflow_page_lists_environments_and_switches(qtbot, make_wizard):
    wiz = make_wizard(own_profile("gui-win-ready"))
    wiz.show()
    walk_to_summary(qtbot, wiz)
    wiz.back()
    page = wiz.currentPage()
    assert page.layer == "tensorflow"
    assert page.env_list.topLevelItemCount() == 2
    other = "C:\\Python312\\python.exe"
    for i in range(2):
        item = page.env_list.topLevelItem(i)
        if item.data(0, 256) == other:
            page.env_list.setCurrentItem(item)
    assert page.use_button.isEnabled()
    page.use_selected_environment()
    qtbot.waitUntil(page.isComplete, timeout=10000)
    assert wiz.session.python == other
    assert "tensorflow_not_installed" in [f.code for f in page.result.findings]


def test_summary_exports(qtbot, make_wizard, tmp_path):
    from PySide6.QtGui import QGuiApplication

    wiz = make_wizard(own_profile("gui-win-cudnn-missing"))
    wiz.show()
    walk_to_summary(qtbot, wiz)
    wiz.summary.copy_markdown()
    assert QGuiApplication.clipboard().text().startswith("# GPU Setup Wizard report")
    target = tmp_path / "report.json"
    type(wiz.summary).ask_save_path = classmethod(lambda cls, parent, suggested: str(target))
    try:
        wiz.summary.save_button.click()
    finally:
        del type(wiz.summary).ask_save_path
    data = json.loads(target.read_text(encoding="utf-8"))
    assert data["format"] == "gpu-wizard/report@1"
    assert [layer["layer"] for layer in data["layers"]][:5] == list(LAYERS)


def test_finding_card_copy_and_links(qtbot, monkeypatch):
    from PySide6.QtGui import QGuiApplication

    from wizard.core.model import Finding, Fix, Link
    from wizard.widgets import finding_card

    opened = []
    monkeypatch.setattr(finding_card, "open_url", lambda url: opened.append(url) or True)
    finding = Finding(
        "cudnn_missing",
        params={"cudnn": "8.1", "cuda": "11.2", "file": "cudnn64_8.dll"},
        evidence="Could not load dynamic library 'cudnn64_8.dll'",
        fix=Fix(
            links=(Link("cuDNN archive", "https://developer.nvidia.com/rdp/cudnn-archive"),),
            commands=('pip install "tensorflow<2.11"',),
            action="install_cudnn",
            action_params={"dest": "C:\\CUDA\\v11.2"},  # without it the fix cannot plan
        ),
    )
    card = finding_card.FindingCard(finding)
    qtbot.addWidget(card)
    assert card.action_button is None  # no handler for install_cudnn yet: no fake "Fix it"
    card.command_rows[0].copy_button.click()
    assert QGuiApplication.clipboard().text() == 'pip install "tensorflow<2.11"'
    card.link_buttons[0].click()
    assert opened == ["https://developer.nvidia.com/rdp/cudnn-archive"]
    assert "cudnn64_8.dll" in card.details.toPlainText()
    for widget in [*card.link_buttons, card.command_rows[0].copy_button, card.details_toggle]:
        assert widget.accessibleName()

    handled = []
    card2 = finding_card.FindingCard(finding, action_handler=handled.append)
    qtbot.addWidget(card2)
    card2.action_button.click()
    assert handled == [finding]


def test_language_switch_retranslates_without_errors(qtbot, make_wizard):
    from PySide6.QtWidgets import QApplication

    from wizard import i18n

    switched = []
    wiz = make_wizard(
        own_profile("gui-win-cudnn-missing"),
        languages=i18n.available_languages(),
        on_language=lambda code: switched.append(code) or i18n.install_language(
            QApplication.instance(), code),
    )
    wiz.show()
    walk_to_summary(qtbot, wiz)
    index = wiz.intro.language.findData("zh_CN")
    try:
        wiz.intro.language.setCurrentIndex(index)
        qtbot.wait(50)
        assert switched == ["zh_CN"]
        assert wiz.summary.chain.topLevelItemCount() == 5
    finally:
        i18n.install_language(QApplication.instance(), "en")
    qtbot.wait(50)
    assert wiz.summary.title() == "Summary"


def test_every_control_has_an_accessible_name_and_takes_focus(qtbot, make_wizard):
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import (
        QAbstractButton,
        QAbstractItemView,
        QComboBox,
        QHeaderView,
        QLineEdit,
    )

    wiz = make_wizard(SHARED_PROFILES / "win-cudnn-partial-copy.json"
                      if (SHARED_PROFILES / "win-cudnn-partial-copy.json").exists()
                      else own_profile("gui-win-cudnn-missing"))
    wiz.show()
    walk_to_summary(qtbot, wiz)
    from PySide6.QtWidgets import QWizard

    own_buttons = {wiz.button(b) for b in QWizard.WizardButton if b.value < 10}
    missing = []
    for page_id in wiz.pageIds():
        page = wiz.page(page_id)
        for kind in (QAbstractButton, QComboBox, QLineEdit, QAbstractItemView):
            for widget in page.findChildren(kind):
                if widget in own_buttons or widget.parent() is None:
                    continue
                if widget.window() is not wiz or isinstance(widget, QHeaderView):
                    continue  # a combo's own popup view, a tree's header
                if not widget.accessibleName():
                    missing.append(f"{type(page).__name__}/{type(widget).__name__}")
                assert widget.focusPolicy() & Qt.FocusPolicy.TabFocus or isinstance(
                    widget, QLineEdit
                ), widget
    assert not missing, missing


def test_tensorflow_page_opened_from_the_summary_lists_environments(qtbot, make_wizard):
    """No GPU skips the TF page; opening it from the summary still lists the environments."""
    wiz = make_wizard(own_profile("gui-linux-no-gpu"))
    wiz.show()
    visited = walk_to_summary(qtbot, wiz)
    assert PageId.TENSORFLOW not in visited
    wiz.show_layer("tensorflow")
    page = wiz.currentPage()
    qtbot.waitUntil(page.isComplete, timeout=10000)
    assert page.env_list.topLevelItemCount() == len(wiz.session.host.recorded_pythons()) == 1
    assert page.result is wiz.session.result("tensorflow")
