"""Walking the wizard in tests."""

from __future__ import annotations

from PySide6.QtWidgets import QWizard

from wizard.pages.ids import PageId

WAIT_MS = 20000


def next_button(wiz):
    return wiz.button(QWizard.WizardButton.NextButton)


def wait_page_done(qtbot, wiz) -> None:
    page = wiz.currentPage()
    qtbot.waitUntil(page.isComplete, timeout=WAIT_MS)


def walk_to_summary(qtbot, wiz, target="installed", seen=None):
    """Intro -> ... -> summary by pressing Next; returns the page ids visited. With ``seen`` (a
    dict), each layer page's shown state is recorded as it was when its check finished."""
    assert wiz.currentId() == PageId.INTRO
    if target == "installed":
        wiz.intro.select_target(None)
    elif target is not None:
        wiz.intro.select_target(target)
    visited = [wiz.currentId()]
    for _ in range(10):
        if wiz.currentId() == PageId.SUMMARY:
            break
        wiz.next()
        visited.append(wiz.currentId())
        wait_page_done(qtbot, wiz)
        page = wiz.currentPage()
        if seen is not None and getattr(page, "layer", None):
            result = page.result
            seen[page.layer] = {
                "badge": page.badge.status,
                "status": result.status if result else None,
                "cards": len(page.cards),
                "findings": len(result.findings) if result else None,
            }
    assert wiz.currentId() == PageId.SUMMARY, visited
    return visited
