"""The one question that would settle an explanation, with Yes and No, above the candidates
(:mod:`wizard.core.deciding_question`); and the answers given so far, with a way to clear them.

The explain dialog owns the answers: the bar only shows them and says what was clicked."""

from __future__ import annotations

from typing import Optional

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from wizard.core.deciding_question import NO, YES, Question
from wizard.core.messages import msg
from wizard.texts import render_message as _say


class QuestionBar(QFrame):
    """Ask :attr:`question` (hidden when there is none) and list the answers given."""

    answered = Signal(str)
    """``"yes"`` or ``"no"``: the answer to the question shown."""
    cleared = Signal()
    """The user asked to forget the answers given."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("explain_question")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.question: Optional[Question] = None
        self.answers: list[tuple[Question, str]] = []
        self.ask = QLabel(self)
        self.ask.setObjectName("explain_question_text")
        self.ask.setWordWrap(True)
        self.ask.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.yes_button = QPushButton(self)
        self.yes_button.setObjectName("explain_question_yes")
        self.yes_button.setAutoDefault(False)
        self.yes_button.clicked.connect(lambda: self.answered.emit(YES))
        self.no_button = QPushButton(self)
        self.no_button.setObjectName("explain_question_no")
        self.no_button.setAutoDefault(False)
        self.no_button.clicked.connect(lambda: self.answered.emit(NO))
        self.given = QLabel(self)
        self.given.setObjectName("explain_question_answers")
        self.given.setWordWrap(True)
        self.clear_button = QPushButton(self)
        self.clear_button.setObjectName("explain_question_clear")
        self.clear_button.setAutoDefault(False)
        self.clear_button.clicked.connect(self.cleared.emit)
        buttons = QHBoxLayout()
        buttons.addWidget(self.yes_button)
        buttons.addWidget(self.no_button)
        buttons.addStretch(1)
        given_row = QHBoxLayout()
        given_row.addWidget(self.given, 1)
        given_row.addWidget(self.clear_button, 0, Qt.AlignmentFlag.AlignTop)
        layout = QVBoxLayout(self)
        layout.addWidget(self.ask)
        layout.addLayout(buttons)
        layout.addLayout(given_row)
        self.show_question(None, [])

    def show_question(self, question: Optional[Question],
                      answers: list[tuple[Question, str]]) -> None:
        """Ask ``question`` (None: nothing to ask) below the ``answers`` given so far."""
        self.question, self.answers = question, list(answers)
        self.retranslate_ui()

    def retranslate_ui(self) -> None:
        asking = self.question is not None
        for widget in (self.ask, self.yes_button, self.no_button):
            widget.setVisible(asking)
        if asking:
            self.ask.setText(_say(msg("explain.text.question", ask=self.question.ask())))
            self.yes_button.setText(_say(msg("explaingui.question.yes")))
            self.no_button.setText(_say(msg("explaingui.question.no")))
            for button in (self.yes_button, self.no_button):
                button.setAccessibleDescription(self.ask.text())
        said = [known.said(value) for known, value in self.answers]
        self.given.setText(_say(msg("explain.text.answered", answers=said)) if said else "")
        self.given.setVisible(bool(said))
        self.clear_button.setText(_say(msg("explaingui.question.clear")))
        self.clear_button.setVisible(bool(said))
        self.setAccessibleName(_say(msg("explaingui.question.name")))
        self.setVisible(asking or bool(said))
