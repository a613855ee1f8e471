"""Pieces every page shares: the demo banner, a scrolling body, and the language hook."""

from __future__ import annotations

from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QFrame, QScrollArea, QVBoxLayout, QWidget, QWizardPage

from wizard.core.session import CheckSession
from wizard.widgets.banner import DemoBanner


class WizardPageBase(QWizardPage):
    """A page with an optional demo banner above a scroll area; subclasses fill ``self.body``."""

    def __init__(self, session: CheckSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        self.banner = None
        if session.demo_name:
            self.banner = DemoBanner(session.demo_name, self)
            outer.addWidget(self.banner)
        self.scroll = QScrollArea(self)
        self.scroll.setWidgetResizable(True)
        self.scroll.setFrameShape(QFrame.Shape.NoFrame)
        content = QWidget(self.scroll)
        self.body = QVBoxLayout(content)
        self.body.setContentsMargins(2, 4, 8, 4)
        self.scroll.setWidget(content)
        outer.addWidget(self.scroll, 1)

    def retranslate_ui(self) -> None:  # pragma: no cover - every page overrides it
        raise NotImplementedError

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt override
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate_ui()
        super().changeEvent(event)
