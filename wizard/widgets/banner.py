"""The demo-mode banner: says plainly that the wizard replays a profile, not this computer."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent
from PySide6.QtWidgets import QLabel, QWidget


class DemoBanner(QLabel):
    def __init__(self, profile_name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.profile_name = profile_name
        self.setWordWrap(True)
        self.setObjectName("DemoBanner")
        self.setStyleSheet(
            "#DemoBanner { background: #fff4ce; color: #5c3d00; border: 1px solid #d9a400;"
            " border-radius: 3px; padding: 4px 8px; font-weight: bold; }"
        )
        self.retranslate_ui()

    def retranslate_ui(self) -> None:
        self.setText(
            QCoreApplication.translate(
                "DemoBanner",
                "Demo: replaying {profile}. Nothing on this computer is checked or changed.",
            ).format(profile=self.profile_name)
        )
        self.setAccessibleName(self.text())

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt override
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate_ui()
        super().changeEvent(event)
