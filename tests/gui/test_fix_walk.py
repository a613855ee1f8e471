"""Issue 10's check: walk the wizard on broken machine profiles and look at every blocking
finding (the failures of the layer that blocks). Each has either a fix the wizard can run ("Fix
it…" on its card, and the fix's builder produces a plan on that profile's machine) or says on its
card why it cannot have one, with somewhere to go instead (a link or steps)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from conftest import SHARED_PROFILES
from helpers import walk_to_summary

from wizard.core.model import FAIL
from wizard.widgets import fix_tasks

sys.path.insert(0, str(Path(__file__).resolve().parent))

NAMED = ("win-tf210-cudnn-never-copied", "win-cuda-not-installed", "win-cudnn89-no-zlibwapi",
         "win-tf215-native")
"""The profiles the issue names: walked page by page."""
UNATTENDED = ("win-tf210-cudnn-never-copied", "win-cuda-not-installed", "win-tf215-native")
"""Of those, the ones whose blocking fixes all run without a file from the user (issue 10's
wiring: cuDNN and CUDA from NVIDIA's downloads, TF 2.10 with pip)."""
BROKEN = sorted(p.stem for p in SHARED_PROFILES.glob("*.json")
                if p.stem not in NAMED and "healthy" not in p.stem)
DRIVER_CODES = ("driver_too_old", "gpu_without_driver", "no_driver_or_nvidia_smi_missing")


def _given(finding, tmp_path: Path) -> dict:
    """What the user would hand a fix that needs a file (a DLL that looks like one)."""
    if fix_tasks.routes(finding)[0] != fix_tasks.ROUTE_FILE:
        return {}
    dll = tmp_path / "zlibwapi.dll"
    dll.write_bytes(b"MZ" + bytes(200))
    return {fix_tasks.NEEDS_FILE[finding.fix.action]: str(dll)}


def check_blocking_cards(wiz, tmp_path: Path) -> list[str]:
    """Every blocking finding on the summary: a runnable fix or a reason; returns the codes."""
    summary = wiz.summary
    report = summary.report
    assert report is not None
    host = wiz.session.host
    blocking = report.layer(report.blocking_layer) if report.blocking_layer else None
    if blocking is None:
        return []
    failures = [f for f in blocking.findings if f.severity == FAIL]
    assert failures, f"the {blocking.layer} layer fails without a failure to show"
    cards = {id(card.finding): card for card in summary.cards}
    seen = []
    for finding in failures:
        card = cards.get(id(finding))
        assert card is not None, f"{finding.code} has no card on the summary"
        seen.append(finding.code)
        if card.action_button is not None:
            prepared = fix_tasks.prepare(host, finding, _given(finding, tmp_path))
            assert prepared.messages() and not prepared.empty, finding.code
            assert card.no_fix.isHidden(), finding.code
            continue
        reason = card.no_fix.text()
        assert reason and not card.no_fix.isHidden(), (
            f"{finding.code} ({finding.fix.action or 'no action'}) has neither a fix the wizard "
            "can run nor a reason on its card: give it a reason in layers/wiring.py (nofix.*)")
        assert card.link_buttons or card.steps.text() or card.command_rows, finding.code
        if finding.code in DRIVER_CODES:
            assert "does not install or change display drivers" in reason
            assert any("nvidia.com" in str(b.property("url")) for b in card.link_buttons)
    return seen


@pytest.mark.parametrize("name", NAMED)
def test_walk_named_broken_windows_profiles(qtbot, make_wizard, tmp_path: Path, name: str):
    wiz = make_wizard(SHARED_PROFILES / f"{name}.json", fix_actions=_handlers())
    wiz.show()
    walk_to_summary(qtbot, wiz)
    qtbot.waitUntil(lambda: wiz.summary._fix_items is not None, timeout=20000)
    seen = check_blocking_cards(wiz, tmp_path)
    assert seen, "a broken profile must have a blocking finding"
    summary = wiz.summary
    button = summary.fix_all_button
    items = summary._fix_items
    assert button.isVisible() and button.toolTip()
    assert button.isEnabled() == fix_tasks.runnable(items)
    if name in UNATTENDED:  # cuDNN / CUDA downloaded, pip run: no file to ask for
        assert button.isEnabled() and "planned now" in button.toolTip()
        assert not summary.fix_all_reason.isVisible()
        assert items[0].layer == summary.report.blocking_layer  # lowest layer first
        for item in items[1:]:  # a later fix is planned now or waits for the ones before it
            assert item.prepared is not None or item.waits is not None
    else:
        assert not button.isEnabled() and summary.fix_all_reason.text() == button.toolTip()
    if name == "win-tf210-cudnn-never-copied":
        assert items[0].prepared.kind == fix_tasks.DOWNLOAD
    if name == "win-cudnn89-no-zlibwapi":  # zlibwapi.dll comes from the user
        assert "needs something from you" in button.toolTip()


@pytest.mark.parametrize("name", BROKEN)
def test_every_blocking_finding_has_a_fix_or_a_reason(qtbot, make_wizard, tmp_path: Path,
                                                      name: str):
    wiz = make_wizard(SHARED_PROFILES / f"{name}.json", fix_actions=_handlers())
    wiz.show_summary()
    qtbot.waitUntil(lambda: wiz.summary.report is not None, timeout=20000)
    check_blocking_cards(wiz, tmp_path)
    qtbot.waitUntil(lambda: wiz.summary._fix_items is not None, timeout=20000)


def test_the_reason_follows_the_language(qtbot, qapp, make_wizard):
    from PySide6.QtCore import QCoreApplication

    from wizard import i18n

    wiz = make_wizard(SHARED_PROFILES / "win-driver-451-too-old.json", fix_actions=_handlers())
    wiz.show_summary()
    qtbot.waitUntil(lambda: wiz.summary.report is not None, timeout=20000)
    card = next(c for c in wiz.summary.cards if c.finding.code == "driver_too_old")
    assert "does not install or change display drivers" in card.no_fix.text()
    previous = i18n.current_language()
    try:
        i18n.install_language(qapp, "zh_CN")
        QCoreApplication.processEvents()
        assert "向导不会安装或更改显卡驱动" in card.no_fix.text()
        qtbot.waitUntil(lambda: wiz.summary._fix_items is not None, timeout=20000)
        assert "阻塞的问题都没有向导可以运行的修复" in wiz.summary.fix_all_button.toolTip()
    finally:
        i18n.install_language(qapp, previous)
        QCoreApplication.processEvents()


def _handlers() -> dict:
    """The "Fix it…" handlers the app gives the pages (every action with a builder)."""
    from wizard.core.fixes import registry

    return {action: (lambda finding: None) for action in [*registry.ACTIONS, *registry.RUNS]}
