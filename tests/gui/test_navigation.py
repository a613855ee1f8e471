"""Back after the summary's "Open this layer" returns to the summary, not to the first page."""

from __future__ import annotations

import sys
from pathlib import Path

from conftest import own_profile

sys.path.insert(0, str(Path(__file__).parent))
from helpers import walk_to_summary  # noqa: E402
from PySide6.QtWidgets import QWizard  # noqa: E402

from wizard.pages.ids import PageId  # noqa: E402
from wizard.pages.summary import LAYER_ROLE  # noqa: E402


def _open_from_summary(qtbot, wiz, layer: str):
    chain = wiz.summary.chain
    for row in range(chain.topLevelItemCount()):
        item = chain.topLevelItem(row)
        if item.data(0, LAYER_ROLE) == layer:
            chain.setCurrentItem(item)
            break
    assert wiz.summary.open_button.isEnabled()
    wiz.summary.open_button.click()
    page = wiz.currentPage()
    assert getattr(page, "layer", None) == layer
    qtbot.waitUntil(page.isComplete, timeout=10000)
    return page


def _back_button(wiz):
    return wiz.button(QWizard.WizardButton.BackButton)


def test_back_from_an_opened_layer_returns_to_the_summary(qtbot, make_wizard):
    wiz = make_wizard(own_profile("gui-win-cudnn-missing"))
    wiz.show()
    walk_to_summary(qtbot, wiz)
    _open_from_summary(qtbot, wiz, "cuda")
    assert wiz.currentId() == PageId.CUDA
    assert _back_button(wiz).isVisible() and _back_button(wiz).isEnabled()
    _back_button(wiz).click()
    assert wiz.currentId() == PageId.SUMMARY
    qtbot.waitUntil(wiz.summary.isComplete, timeout=10000)
    assert wiz.summary.report is not None
    # and once more, through the wizard's own back() as well
    _open_from_summary(qtbot, wiz, "tensorflow")
    wiz.back()
    assert wiz.currentId() == PageId.SUMMARY


def test_back_walks_down_to_the_opened_layer_then_to_the_summary(qtbot, make_wizard):
    wiz = make_wizard(own_profile("gui-win-ready"))
    wiz.show()
    walk_to_summary(qtbot, wiz)
    _open_from_summary(qtbot, wiz, "cudnn")
    wiz.next()
    assert wiz.currentId() == PageId.TENSORFLOW
    qtbot.waitUntil(wiz.currentPage().isComplete, timeout=10000)
    _back_button(wiz).click()
    assert wiz.currentId() == PageId.CUDNN
    _back_button(wiz).click()
    assert wiz.currentId() == PageId.SUMMARY


def test_back_on_a_normal_walk_is_unchanged(qtbot, make_wizard):
    wiz = make_wizard(own_profile("gui-win-ready"))
    wiz.show()
    walk_to_summary(qtbot, wiz)
    _open_from_summary(qtbot, wiz, "gpu")
    _back_button(wiz).click()
    assert wiz.currentId() == PageId.SUMMARY
    # from the summary Back goes to the first page; a fresh walk then backs up as usual
    _back_button(wiz).click()
    assert wiz.currentId() == PageId.INTRO
    wiz.next()
    qtbot.waitUntil(wiz.currentPage().isComplete, timeout=10000)
    wiz.next()
    assert wiz.currentId() == PageId.DRIVER
    _back_button(wiz).click()
    assert wiz.currentId() == PageId.GPU
    _back_button(wiz).click()
    assert wiz.currentId() == PageId.INTRO
