"""A check that raises shows an error card, not a crash."""

from __future__ import annotations

import sys
from pathlib import Path

from conftest import own_profile

sys.path.insert(0, str(Path(__file__).parent))
from helpers import next_button, walk_to_summary  # noqa: E402

from wizard.core import diagnose  # noqa: E402
from wizard.pages.ids import PageId  # noqa: E402


def test_a_layer_that_raises_shows_an_error_card(qtbot, make_wizard, monkeypatch):
    real = diagnose.layer_checker

    def checker(name):
        if name == "driver":
            def broken(ctx):
                raise RuntimeError("nvml exploded")

            return broken
        return real(name)

    monkeypatch.setattr(diagnose, "layer_checker", checker)
    wiz = make_wizard(own_profile("gui-win-ready"))
    wiz.show()
    wiz.next()
    qtbot.waitUntil(wiz.currentPage().isComplete, timeout=10000)
    wiz.next()
    page = wiz.currentPage()
    assert page.layer == "driver"
    qtbot.waitUntil(page.isComplete, timeout=10000)
    assert page.badge.status == "fail"  # core: a layer that raises is 'fail' (not checked)
    assert [card.finding.code for card in page.cards] == ["check_failed"]
    card = page.cards[0]
    assert "nvml exploded" in card.message.text() + card.details.toPlainText()
    assert next_button(wiz).isEnabled()
    walk_rest = [wiz.currentId()]
    while wiz.currentId() != PageId.SUMMARY:
        wiz.next()
        walk_rest.append(wiz.currentId())
        qtbot.waitUntil(wiz.currentPage().isComplete, timeout=10000)
    assert wiz.summary.report.layer("driver").status == "fail"
    assert not wiz.summary.report.ready


def test_an_error_outside_the_layers_shows_an_error_card(qtbot, make_wizard, monkeypatch):
    """Choosing the environment raises (e.g. an unreadable profile entry): the page shows the
    error as a card, Next stays usable, and the summary says the check could not finish."""
    from wizard.core import session as session_module

    def broken(host, options, cancelled=None, probes=None):
        raise OSError("probe crashed: [Errno 13] Permission denied: 'python.exe'")

    monkeypatch.setattr(session_module, "choose_environment", broken)
    wiz = make_wizard(own_profile("gui-win-ready"))
    wiz.show()
    wiz.next()
    page = wiz.currentPage()
    qtbot.waitUntil(page.isComplete, timeout=10000)
    assert page.state == "error"
    assert page.badge.status == "unknown"
    assert len(page.cards) == 1 and page.cards[0].finding.code == "check_failed"
    assert "Permission denied" in page.cards[0].details.toPlainText()
    assert next_button(wiz).isEnabled()

    walk = wiz.currentId()
    while walk != PageId.SUMMARY:
        wiz.next()
        walk = wiz.currentId()
        qtbot.waitUntil(wiz.currentPage().isComplete, timeout=10000)
    assert wiz.summary.report is None
    assert [card.finding.code for card in wiz.summary.cards] == ["check_failed"]


def test_an_error_in_the_summary_shows_an_error_card(qtbot, make_wizard, monkeypatch):
    wiz = make_wizard(own_profile("gui-linux-no-gpu"))
    wiz.show()

    def broken(progress, cancelled):
        raise ValueError("report exploded")

    monkeypatch.setattr(wiz.session, "run_all", broken)
    walk_to_summary(qtbot, wiz)
    assert wiz.summary.report is None
    assert "report exploded" in wiz.summary.cards[0].details.toPlainText()
