"""One finding as a card: what is wrong in plain words, why (the evidence), and what to do.

The "what to do" part has the fix summary, numbered steps, command rows with a Copy button and
link buttons that open the browser. A finding whose fix names an automatic ``action`` gets a
"Fix it" button only when the page was given a handler for that action (the fix actions arrive
with a later issue); without one, nothing pretends to fix anything.
"""

from __future__ import annotations

import json
from typing import Callable, Optional

from PySide6.QtCore import QCoreApplication, QEvent, Qt, QUrl, Signal
from PySide6.QtGui import QDesktopServices, QFontDatabase, QGuiApplication
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from wizard import texts
from wizard.core.model import Finding
from wizard.widgets.status import COLOURS, status_pixmap

SEVERITY_STATUS = {"fail": "fail", "warn": "warn", "info": "n/a"}
LINKS_IN_A_ROW = 2
"""A fix's links side by side up to this many; more go one a row."""

ActionHandler = Callable[[Finding], None]


def open_url(url: str) -> bool:
    """Open ``url`` in the user's browser (tests replace this function)."""
    return QDesktopServices.openUrl(QUrl(url))


def copy_text(text: str) -> None:
    QGuiApplication.clipboard().setText(text)


def finding_texts(finding: Finding) -> tuple[str, str, str]:
    """(title, message, fix summary) in the current language."""
    return (texts.finding_title(finding.code), texts.finding_message(finding),
            texts.finding_fix(finding))


def _mono_font():
    return QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)


class CommandRow(QWidget):
    """A shell line the user can select or copy."""

    def __init__(self, command: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.command = command
        self.field = QLineEdit(command, self)
        self.field.setReadOnly(True)
        self.field.setFont(_mono_font())
        self.field.setCursorPosition(0)
        self.copy_button = QPushButton(self)
        self.copy_button.clicked.connect(self._copy)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.field, 1)
        layout.addWidget(self.copy_button)
        self.retranslate_ui()

    def _copy(self) -> None:
        copy_text(self.command)
        self.copy_button.setText(self.tr("Copied"))

    def retranslate_ui(self) -> None:
        self.copy_button.setText(self.tr("Copy"))
        self.copy_button.setAccessibleName(self.tr("Copy the command"))
        self.copy_button.setToolTip(self.tr("Copy to the clipboard: {command}").format(
            command=self.command))
        self.field.setAccessibleName(self.tr("Command"))

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt override
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate_ui()
        super().changeEvent(event)


class FindingCard(QFrame):
    """A finding, rendered for people. Rebuilds its texts on a language change."""

    sig_action_requested = Signal(object)
    """Parameters: the Finding whose "Fix it" button was pressed."""

    def __init__(
        self,
        finding: Finding,
        action_handler: Optional[ActionHandler] = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.finding = finding
        self._action_handler = action_handler
        status = SEVERITY_STATUS.get(finding.severity, "unknown")
        colour = COLOURS.get(status, COLOURS["unknown"])
        self.setObjectName("FindingCard")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setStyleSheet(
            f"#FindingCard {{ border: 1px solid palette(mid); border-left: 4px solid {colour};"
            f" border-radius: 3px; background: palette(base); }}"
        )
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)

        self.icon = QLabel(self)
        self.icon.setPixmap(status_pixmap(status, 18, self.devicePixelRatioF() or 1.0))
        self.icon.setAlignment(Qt.AlignmentFlag.AlignTop)
        self.severity = QLabel(self)
        self.severity.setStyleSheet(f"color: {colour}; font-weight: bold;")
        self.title = QLabel(self)
        self.title.setWordWrap(True)
        font = self.title.font()
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.1)
        self.title.setFont(font)
        header = QHBoxLayout()
        header.addWidget(self.icon)
        header.addWidget(self.severity)
        header.addWidget(self.title, 1)

        self.message = self._wrapped_label()
        self.fix_heading = QLabel(self)
        self.fix_heading.setStyleSheet("font-weight: bold;")
        self.fix_summary = self._wrapped_label()
        self.steps = self._wrapped_label()
        self.steps.setTextFormat(Qt.TextFormat.RichText)

        self.command_rows = [CommandRow(c, self) for c in finding.fix.commands]
        self.link_buttons: list[QPushButton] = []
        # side by side while they are few; more (similar reports besides the guides) one a
        # row, so that their titles never widen the card past its page
        links = QHBoxLayout() if len(finding.fix.links) <= LINKS_IN_A_ROW else QVBoxLayout()
        for link in finding.fix.links:
            button = QPushButton(self)
            button.setProperty("url", link.url)
            button.clicked.connect(lambda _=False, url=link.url: open_url(url))
            self.link_buttons.append(button)
            links.addWidget(button, 0, Qt.AlignmentFlag.AlignLeft)
        if isinstance(links, QHBoxLayout):
            links.addStretch(1)

        # The place for automatic fixes (cuDNN install, env edits, pip install): shown only
        # when the page passes a handler for this finding's action.
        self.action_area = QHBoxLayout()
        self.action_button: Optional[QPushButton] = None
        if finding.fix.action and action_handler is not None and _offers_fix(finding):
            self.action_button = QPushButton(self)
            self.action_button.clicked.connect(self._on_action_clicked)
            self.action_area.addWidget(self.action_button)
        self.action_area.addStretch(1)
        # A failure the wizard cannot fix says why, instead of a button (Fix.manual_reason).
        self.no_fix = self._wrapped_label()
        self.no_fix.setObjectName("no_fix_reason")
        self.no_fix.setStyleSheet("font-style: italic;")
        self.no_fix.hide()

        self.details_toggle = QToolButton(self)
        self.details_toggle.setCheckable(True)
        self.details_toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.details_toggle.setArrowType(Qt.ArrowType.RightArrow)
        self.details_toggle.toggled.connect(self._on_details_toggled)
        self.details = QPlainTextEdit(self)
        self.details.setReadOnly(True)
        self.details.setFont(_mono_font())
        self.details.setVisible(False)
        self.details.setMaximumHeight(160)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 8, 10, 10)
        layout.addLayout(header)
        layout.addWidget(self.message)
        layout.addWidget(self.fix_heading)
        layout.addWidget(self.fix_summary)
        layout.addWidget(self.steps)
        for row in self.command_rows:
            layout.addWidget(row)
        layout.addLayout(links)
        layout.addLayout(self.action_area)
        layout.addWidget(self.no_fix)
        layout.addWidget(self.details_toggle)
        layout.addWidget(self.details)
        self.retranslate_ui()

    def _wrapped_label(self) -> QLabel:
        label = QLabel(self)
        label.setWordWrap(True)
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        return label

    def _on_details_toggled(self, shown: bool) -> None:
        self.details.setVisible(shown)
        self.details_toggle.setArrowType(
            Qt.ArrowType.DownArrow if shown else Qt.ArrowType.RightArrow
        )

    def _on_action_clicked(self) -> None:
        self.sig_action_requested.emit(self.finding)
        if self._action_handler is not None:
            self._action_handler(self.finding)

    def no_fix_reason(self):  # noqa: ANN201 - Optional[Message]
        """Why a failure has no "Fix it" button (None: it has one, or it is no failure)."""
        if self.action_button is not None or self.finding.severity != "fail":
            return None
        from wizard.widgets.fix_tasks import why_no_fix

        return why_no_fix(self.finding)

    def details_text(self) -> str:
        """The evidence and the raw code and params, for the collapsible box."""
        finding = self.finding
        parts = []
        if finding.evidence:
            parts.append(texts.render_message(finding.evidence))
        params = {k: v for k, v in finding.params.items() if v not in (None, "")}
        parts.append(
            f"code: {finding.code}\nparams: "
            + json.dumps(params, ensure_ascii=False, default=texts.render_message, indent=1)
        )
        return "\n\n".join(parts)

    def retranslate_ui(self) -> None:
        finding = self.finding
        title, message, fix = finding_texts(finding)
        self.severity.setText(texts.severity_text(finding.severity))
        self.title.setText(title)
        self.message.setText(message)
        self.fix_heading.setText(
            QCoreApplication.translate("FindingCard", "What to do")
        )
        self.fix_summary.setText(fix)
        self.fix_heading.setVisible(bool(fix or finding.fix.steps or finding.fix.commands))
        self.fix_summary.setVisible(bool(fix))
        steps = [texts.step_text(step) for step in finding.fix.own_steps()]
        if steps:
            items = "".join(f"<li>{_html(s)}</li>" for s in steps)
            self.steps.setText(f"<ol style='margin-left:0'>{items}</ol>")
        self.steps.setVisible(bool(steps))
        for button, link in zip(self.link_buttons, finding.fix.links):
            button.setText(QCoreApplication.translate("FindingCard", "Open: {title}").format(
                title=texts.link_title(link)))
            button.setToolTip(link.url)
            button.setAccessibleName(
                QCoreApplication.translate("FindingCard", "Open in the browser: {title}").format(
                    title=texts.link_title(link))
            )
        if self.action_button is not None:
            self.action_button.setText(QCoreApplication.translate("FindingCard", "Fix it…"))
            self.action_button.setAccessibleName(
                QCoreApplication.translate("FindingCard", "Fix it: {title}").format(title=title)
            )
        reason = self.no_fix_reason()
        self.no_fix.setText(texts.render_message(reason) if reason is not None else "")
        self.no_fix.setVisible(reason is not None)
        self.details_toggle.setText(
            QCoreApplication.translate("FindingCard", "Why: details and evidence")
        )
        self.details_toggle.setAccessibleName(self.details_toggle.text())
        self.details.setPlainText(self.details_text())
        self.details.setAccessibleName(
            QCoreApplication.translate("FindingCard", "Evidence")
        )
        self.setAccessibleName(title)
        self.setAccessibleDescription(message)

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt override
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate_ui()
        super().changeEvent(event)


def _offers_fix(finding: Finding) -> bool:
    """The fix's builder has what it needs from the finding (a cuDNN fix its folder)."""
    from wizard.widgets.fix_tasks import offers_fix

    return offers_fix(finding)


def _html(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
