"""Progress of a running check: what it is doing, a bar, and a Stop button."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QPushButton, QWidget

from wizard import texts


def step_label(key: str) -> str:
    """Core reports progress with short keys ("environment", a layer name, "done")."""
    if key == "environment":
        return QCoreApplication.translate(
            "ProgressArea", "Finding the Python environment and asking it about TensorFlow…"
        )
    if key == "environments":
        return QCoreApplication.translate("ProgressArea", "Looking for Python environments…")
    if key == "done":
        return QCoreApplication.translate("ProgressArea", "Done")
    if key in ("gpu", "driver", "cuda", "cudnn", "tensorflow", "pytorch"):
        return QCoreApplication.translate("ProgressArea", "Checking: {layer}…").format(
            layer=texts.layer_title(key)
        )
    return QCoreApplication.translate("ProgressArea", "Working…")


class ProgressArea(QWidget):
    sig_stop_requested = Signal()
    """The user pressed Stop."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._key = ""
        self.label = QLabel(self)
        self.bar = QProgressBar(self)
        self.bar.setRange(0, 1000)
        self.bar.setTextVisible(False)
        self.bar.setMaximumHeight(12)
        self.stop_button = QPushButton(self)
        self.stop_button.clicked.connect(self.sig_stop_requested)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.label, 2)
        layout.addWidget(self.bar, 1)
        layout.addWidget(self.stop_button)
        self.retranslate_ui()

    def start(self) -> None:
        self.set_progress(0.0, "")
        self.bar.setRange(0, 0)  # busy until the first real fraction arrives
        self.show()

    def set_progress(self, fraction: float, key: str) -> None:
        self._key = key
        if fraction > 0:
            self.bar.setRange(0, 1000)
            self.bar.setValue(int(max(0.0, min(1.0, fraction)) * 1000))
        self.label.setText(step_label(key) if key else step_label("working"))

    def retranslate_ui(self) -> None:
        self.label.setText(step_label(self._key) if self._key else step_label("working"))
        self.stop_button.setText(QCoreApplication.translate("ProgressArea", "Stop"))
        self.stop_button.setAccessibleName(
            QCoreApplication.translate("ProgressArea", "Stop the running check")
        )
        self.bar.setAccessibleName(QCoreApplication.translate("ProgressArea", "Progress"))

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt override
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate_ui()
        super().changeEvent(event)
