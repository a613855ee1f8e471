"""Status badge: a colour, a drawn symbol and a word, so that the status never rests on colour
alone (colour-blind users, greyscale prints, high-contrast themes)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QIcon, QPainter, QPainterPath, QPen, QPixmap
from PySide6.QtWidgets import QHBoxLayout, QLabel, QSizePolicy, QWidget

from wizard import texts

RUNNING = "running"
"""A pseudo-status for a check that is still running."""

COLOURS: dict[str, str] = {
    "ok": "#1b7f3b",
    "warn": "#a35c00",
    "fail": "#c0262d",
    "unknown": "#5f6368",
    "n/a": "#52708a",
    RUNNING: "#1c5fb8",
}
SYMBOLS: dict[str, str] = {
    "ok": "check",
    "warn": "exclaim",
    "fail": "cross",
    "unknown": "question",
    "n/a": "dash",
    RUNNING: "dots",
}


def status_colour(status: str) -> QColor:
    return QColor(COLOURS.get(status, COLOURS["unknown"]))


def _paint_symbol(painter: QPainter, symbol: str, size: float) -> None:
    pen = QPen(QColor("white"), max(1.5, size / 8.0))
    pen.setCapStyle(Qt.PenCapStyle.RoundCap)
    pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
    painter.setPen(pen)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    s = size
    if symbol == "check":
        path = QPainterPath(QPointF(0.27 * s, 0.52 * s))
        path.lineTo(0.44 * s, 0.69 * s)
        path.lineTo(0.74 * s, 0.34 * s)
        painter.drawPath(path)
    elif symbol == "cross":
        painter.drawLine(QPointF(0.33 * s, 0.33 * s), QPointF(0.67 * s, 0.67 * s))
        painter.drawLine(QPointF(0.67 * s, 0.33 * s), QPointF(0.33 * s, 0.67 * s))
    elif symbol == "exclaim":
        painter.drawLine(QPointF(0.5 * s, 0.25 * s), QPointF(0.5 * s, 0.58 * s))
        painter.drawPoint(QPointF(0.5 * s, 0.75 * s))
    elif symbol == "question":
        path = QPainterPath(QPointF(0.36 * s, 0.38 * s))
        path.cubicTo(0.36 * s, 0.2 * s, 0.66 * s, 0.2 * s, 0.64 * s, 0.38 * s)
        path.cubicTo(0.62 * s, 0.5 * s, 0.5 * s, 0.5 * s, 0.5 * s, 0.6 * s)
        painter.drawPath(path)
        painter.drawPoint(QPointF(0.5 * s, 0.76 * s))
    elif symbol == "dash":
        painter.drawLine(QPointF(0.3 * s, 0.5 * s), QPointF(0.7 * s, 0.5 * s))
    elif symbol == "dots":
        for x in (0.3, 0.5, 0.7):
            painter.drawPoint(QPointF(x * s, 0.5 * s))


def status_pixmap(status: str, size: int = 16, ratio: float = 1.0) -> QPixmap:
    """A filled circle in the status colour with a white symbol, sharp at ``ratio``."""
    pixmap = QPixmap(int(round(size * ratio)), int(round(size * ratio)))
    pixmap.setDevicePixelRatio(ratio)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(status_colour(status))
    painter.drawEllipse(QRectF(0.5, 0.5, size - 1.0, size - 1.0))
    _paint_symbol(painter, SYMBOLS.get(status, "question"), float(size))
    painter.end()
    return pixmap


def status_icon(status: str, size: int = 16) -> QIcon:
    icon = QIcon()
    for ratio in (1.0, 2.0):
        icon.addPixmap(status_pixmap(status, size, ratio))
    return icon


def status_word(status: str) -> str:
    """The word that goes with the symbol ("OK", "Problem", "Checking…")."""
    if status == RUNNING:
        return QCoreApplication.translate("StatusBadge", "Checking…")
    return texts.status_text(status)


class StatusBadge(QWidget):
    """Symbol + word in the status colour, on a light tint of it."""

    def __init__(self, status: str = "unknown", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._status = status
        self._icon = QLabel(self)
        self._word = QLabel(self)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(6, 2, 8, 2)
        layout.setSpacing(5)
        layout.addWidget(self._icon)
        layout.addWidget(self._word)
        self.setSizePolicy(QSizePolicy.Policy.Maximum, QSizePolicy.Policy.Fixed)
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        self.set_status(status)

    @property
    def status(self) -> str:
        return self._status

    def word(self) -> str:
        return self._word.text()

    def set_status(self, status: str) -> None:
        self._status = status
        colour = status_colour(status)
        ratio = self.devicePixelRatioF() or 1.0
        self._icon.setPixmap(status_pixmap(status, 16, ratio))
        self._word.setText(status_word(status))
        tint = QColor(colour)
        tint.setAlpha(28)
        self.setStyleSheet(
            f"StatusBadge {{ background: rgba({tint.red()},{tint.green()},{tint.blue()},"
            f"{tint.alpha()}); border: 1px solid {colour.name()}; border-radius: 4px; }}"
            f"QLabel {{ color: {colour.name()}; font-weight: bold; background: transparent;"
            f" border: none; }}"
        )
        self.setAccessibleName(self._word.text())

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt override
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate_ui()
        super().changeEvent(event)

    def retranslate_ui(self) -> None:
        self.set_status(self._status)
