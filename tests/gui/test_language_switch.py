"""Switching the language on the first page translates QWizard's buttons at once and resizes
the target box to its new texts."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from conftest import own_profile
from PySide6.QtWidgets import QComboBox, QWizard

sys.path.insert(0, str(Path(__file__).parent))

from wizard import i18n  # noqa: E402

BUTTONS = (
    QWizard.WizardButton.BackButton,
    QWizard.WizardButton.NextButton,
    QWizard.WizardButton.CommitButton,
    QWizard.WizardButton.FinishButton,
    QWizard.WizardButton.CancelButton,
    QWizard.WizardButton.HelpButton,
)


def _fresh_button_texts(style) -> dict:
    """What a QWizard made now (in the current language) says on its buttons."""
    fresh = QWizard()
    fresh.setWizardStyle(style)
    texts = {which: fresh.buttonText(which) for which in BUTTONS}
    fresh.deleteLater()
    return texts


def _fresh_size_hint(combo: QComboBox) -> int:
    """The width the combo box's current items need (a new box measures them afresh)."""
    fresh = QComboBox()
    fresh.setFont(combo.font())
    for index in range(combo.count()):
        fresh.addItem(combo.itemText(index))
    width = fresh.sizeHint().width()
    fresh.deleteLater()
    return width


@pytest.mark.parametrize("start, switch_to", [("zh_CN", "en"), ("en", "zh_CN")])
def test_switching_language_on_the_first_page(qtbot, qapp, make_wizard, start, switch_to):
    assert i18n.install_language(qapp, start)
    try:
        wiz = make_wizard(
            own_profile("gui-win-ready"),
            languages=i18n.available_languages(),
            language=start,
            on_language=lambda code: i18n.install_language(qapp, code),
        )
        wiz.show()
        qapp.processEvents()
        before = wiz.button(QWizard.WizardButton.NextButton).text()
        combo = wiz.intro.language
        combo.setCurrentIndex(combo.findData(switch_to))
        qapp.processEvents()
        assert i18n.current_language() == switch_to
        expected = _fresh_button_texts(wiz.wizardStyle())
        for which in BUTTONS:
            assert wiz.button(which).text() == expected[which], which
        assert wiz.button(QWizard.WizardButton.NextButton).text() != before
        target = wiz.intro.target
        qtbot.waitUntil(lambda: target.width() >= _fresh_size_hint(target), timeout=2000)
        assert target.sizeHint().width() <= target.width()
    finally:
        i18n.install_language(qapp, "en")

