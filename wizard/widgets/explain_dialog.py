""""Explain an error log…": the answer of ``gpu-wizard explain`` inside the wizard.

A user pastes what their own program printed (or opens a ``.log``/``.txt``), says which OS,
which TensorFlow and which Python printed it (preselected from the machine and the environment
the wizard checked), and gets the ranked findings as cards: the most likely cause first, each
with the log line it was read from, how to tell it from the others and the fix. The engine is
:func:`wizard.core.explain.explain_log`; it runs on a worker (a 5 MB paste takes a moment), and
closing the dialog meanwhile drops its answer. "Copy as text" copies exactly what the CLI prints
(:func:`wizard.core.explain.findings_text`).

When no line decides and one fact the user knows would (:mod:`wizard.core.deciding_question`:
a container? a 64-bit Python?), the answer area asks it with Yes and No
(:class:`wizard.widgets.question_bar.QuestionBar`); an answer explains again with it, as
``explain --answer`` does, and the answers hold until the log changes or they are cleared.

The machine's own facts (:func:`wizard.core.explain.machine_facts`: an NVIDIA GPU listed, a
driver loaded) narrow the candidates while the log is said to come from this computer. The
``checked`` fact is never passed: it hides the guesses from a log's silence that the layers
answer for the probe's own log, and a log pasted from another program has no layer behind it.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Callable, Optional

from PySide6.QtCore import QEvent, QMimeData, Qt, QTimer, Signal
from PySide6.QtGui import QFontDatabase, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from wizard import i18n, texts
from wizard.core import deciding_question, explain
from wizard.core.deciding_question import Question
from wizard.core.messages import Message, msg
from wizard.core.model import Finding
from wizard.widgets.finding_card import FindingCard, copy_text
from wizard.widgets.question_bar import QuestionBar
from wizard.workers import FunctionWorker, WorkerError, WorkerManager

OS_CHOICES = ("windows", "linux", "wsl2", "macos", "")
"""The OS box's values in order; "" lets the log decide (:func:`explain.explain_log`)."""
EXPLAIN_SHORTCUT = QKeySequence("Ctrl+Return")
OPEN_SHORTCUT = QKeySequence("Ctrl+E")
"""Opens the dialog from the summary page."""
_TF_FORM = re.compile(r"^\s*(\d+)\.(\d+)(?:\.\S*)?\s*$")

# states of the answer area
IDLE, RUNNING, DONE = "idle", "running", "done"
EMPTY, INVALID, FAILED = "empty", "invalid", "failed"


def say(message: Message | str) -> str:
    return texts.render_message(message)


# -- what the dialog asks of core (no widgets) ---------------------------------------------------


@dataclass(frozen=True)
class TfChoice:
    """The TensorFlow field read: ``version`` for :func:`explain_log` (None: the log decides),
    ``error`` when the value is refused, ``note`` when it is answered for its series."""

    version: Optional[str] = None
    error: Optional[Message] = None
    note: Optional[Message] = None


def parse_tf(text: str, os_kind: str) -> TfChoice:
    """The TensorFlow field, validated as ``explain --tf`` is
    (:func:`wizard.core.knowledge.parse_tf_query`), with the reason as a message."""
    from wizard.core import knowledge
    from wizard.core.knowledge.compat import tf_releases

    given = text.strip()
    if not given:
        return TfChoice()
    tables = knowledge.tables_os(os_kind)
    try:
        query = knowledge.parse_tf_query(given, tables)
    except ValueError:
        return TfChoice(error=_tf_reason(given, tables, knowledge, tf_releases))
    return TfChoice(version=query.text, note=query.note)


def _tf_reason(given: str, tables: str, knowledge: Any, tf_releases: Callable) -> Message:
    known = knowledge.known_tf_versions("linux" if tables == "windows" else tables)
    newest = knowledge.recommended_tf(tables)
    bounds = {"first": known[0], "last": known[-1]} if known else {"first": "?", "last": "?"}
    form = _TF_FORM.match(given)
    if form is None:
        return msg("explaingui.tf.not_a_version", given=given,
                   series=knowledge.series(newest), release=newest, **bounds)
    series = f"{int(form.group(1))}.{int(form.group(2))}"
    try:
        knowledge.parse_tf_query(series, tables)
    except ValueError:
        return msg("explaingui.tf.unknown", given=given, **bounds)
    listed = ", ".join(tf_releases(series, tables))
    return msg("explaingui.tf.not_a_release", given=given, series=series, listed=listed)


def python_error(text: str) -> Optional[Message]:
    """Why the Python field is refused (None: empty, or a version such as 3.10 or 3.10.12), as
    ``explain --python`` refuses it."""
    return explain.version_refusal("python", text)


def cuda_error(text: str) -> Optional[Message]:
    """Why the CUDA Toolkit field is refused (None: empty, or a version such as 11.8), as
    ``explain --cuda`` refuses it."""
    return explain.version_refusal("cuda", text)


def gpu_error(text: str) -> Optional[Message]:
    """Why the GPU field is refused (None: empty, or a name that says whose GPU it is), as
    ``explain --gpu`` refuses it."""
    try:
        if text.strip():
            deciding_question.gpu_answer(text)
    except ValueError as exc:
        return exc.args[0]
    return None


def explain_work(text: str, os_kind: Optional[str], tf_version: Optional[str],
                 machine: Iterable[str], python_version: Optional[str] = None,
                 cuda_version: Optional[str] = None) -> Callable[..., list[Finding]]:
    """The worker's job: the engine over the log, with what the user said."""
    facts = [name for name in machine if name != "checked"]

    def work(progress: Callable, cancelled: Callable) -> list[Finding]:
        return explain.explain_log(text, os_kind or None, tf_version=tf_version, machine=facts,
                                   python_version=python_version or None,
                                   cuda_version=cuda_version or None)

    return work


def session_defaults(session: Any) -> tuple[str, str, list[str]]:
    """(OS, TensorFlow version, machine facts) of the machine and environment the wizard
    checked: what the dialog preselects."""
    from wizard.core.envs import tf_version

    os_kind = getattr(session, "os_kind", "") or ""
    probe = getattr(session, "probe", None)
    version = tf_version(probe) if isinstance(probe, dict) else None
    results = session.results() if hasattr(session, "results") else {}
    return os_kind, version or "", explain.machine_facts(results)


def session_python(session: Any) -> str:
    """The Python version of the environment the wizard checked ("" when none was probed)."""
    probe = getattr(session, "probe", None)
    python = probe.get("python") if isinstance(probe, dict) else None
    version = python.get("version") if isinstance(python, dict) else None
    return str(version) if version and explain.python_series(str(version)) else ""


def ask_open_path(parent: QWidget) -> str:
    """The log file to open ("" when cancelled). Tests replace this function."""
    logs = say(msg("explaingui.open_filter_logs"))
    everything = say(msg("explaingui.open_filter_all"))
    path, _filter = QFileDialog.getOpenFileName(
        parent, say(msg("explaingui.open_title")), "",
        f"{logs} (*.log *.txt *.out *.err);;{everything} (*)")
    return path


# -- widgets -------------------------------------------------------------------------------------


def _mono_font():
    return QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)


def dropped_file(mime: QMimeData) -> Optional[str]:
    """The one local file a drop or a paste carries (a log dragged from the file manager, or
    copied there and pasted); None for text, several files or a remote address."""
    urls = mime.urls() if mime.hasUrls() else []
    if len(urls) != 1 or not urls[0].isLocalFile():
        return None
    return urls[0].toLocalFile() or None


class LogEdit(QPlainTextEdit):
    """The log box: text is pasted or dropped as text; a file dropped or pasted is read (as
    "Open file…" reads it) instead of its name being typed in."""

    file_given = Signal(str)

    def canInsertFromMimeData(self, source: QMimeData) -> bool:  # noqa: N802 - Qt override
        return dropped_file(source) is not None or super().canInsertFromMimeData(source)

    def insertFromMimeData(self, source: QMimeData) -> None:  # noqa: N802 - Qt override
        path = dropped_file(source)
        if path is not None:
            self.file_given.emit(path)
        else:
            super().insertFromMimeData(source)


class ExplainCard(FindingCard):
    """A finding from a log: the summary's card plus a heading (most likely / also possible),
    the log line, notes the engine found, and how to tell it from the other candidates. A
    pasted log has no "Fix it" (its machine was not checked), so no "why not" line either."""

    def __init__(self, finding: Finding, rank: int, parent: QWidget | None = None) -> None:
        self.rank = rank
        self.ranked_heading: Optional[QLabel] = None
        super().__init__(finding, None, parent)
        # never squeezed below what its wrapped texts need: the answer area scrolls instead
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
        self.ranked_heading = QLabel(self)
        self.ranked_heading.setObjectName("explain_rank")
        font = self.ranked_heading.font()
        font.setBold(True)
        self.ranked_heading.setFont(font)
        self.notes = self._wrapped_label()
        self.log_label = QLabel(self)
        # the whole line, wrapped (a program's line is long and its end is what matters); an
        # unbreakable run is clipped rather than widening the dialog
        self.log_line = self._wrapped_label()
        self.log_line.setObjectName("explain_log_line")
        self.log_line.setFont(_mono_font())
        self.log_line.setTextFormat(Qt.TextFormat.PlainText)
        self.log_line.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        log_row = QHBoxLayout()
        log_row.addWidget(self.log_label, 0, Qt.AlignmentFlag.AlignTop)
        log_row.addWidget(self.log_line, 1)
        self.how_to_tell = self._wrapped_label()
        self.how_to_tell.setObjectName("explain_how_to_tell")
        layout = self.layout()
        layout.insertWidget(0, self.ranked_heading)
        after = layout.indexOf(self.message) + 1
        layout.insertWidget(after, self.notes)
        layout.insertLayout(after + 1, log_row)
        layout.insertWidget(after + 2, self.how_to_tell)
        self._retranslate_extras()

    def no_fix_reason(self):  # noqa: ANN201 - Optional[Message]
        return None

    def log_text(self) -> str:
        evidence = self.finding.evidence
        return say(evidence).strip() if evidence else ""

    def retranslate_ui(self) -> None:
        super().retranslate_ui()
        if self.ranked_heading is not None:
            self._retranslate_extras()

    def _retranslate_extras(self) -> None:
        finding = self.finding
        head = (msg("explain.text.most_likely") if self.rank == 1
                else msg("explain.text.also_possible", number=self.rank))
        self.ranked_heading.setText(say(head))
        notes = [say(note) for note in explain.finding_notes(finding, i18n.current_language())]
        self.notes.setText("\n".join(notes))
        self.notes.setVisible(bool(notes))
        line = self.log_text()
        self.log_label.setText(say(msg("explaingui.log_line")))
        self.log_line.setText(explain.short_line(line))
        self.log_line.setAccessibleName(say(msg("explaingui.log_line_name")))
        self.log_label.setVisible(bool(line))
        self.log_line.setVisible(bool(line))
        tell = finding.params.get("how_to_tell")
        self.how_to_tell.setText(say(msg("explain.text.how_to_tell", step=tell)) if tell else "")
        self.how_to_tell.setVisible(tell is not None)
        self.setAccessibleName(f"{self.ranked_heading.text()}: {self.title.text()}")


class ExplainDialog(QDialog):
    """Paste or open a log, say its OS, TensorFlow and Python, and read the ranked causes."""

    def __init__(self, workers: WorkerManager, os_kind: str = "", tf_version: str = "",
                 machine: Iterable[str] = (), parent: QWidget | None = None,
                 python_version: str = "") -> None:
        super().__init__(parent)
        self.setObjectName("explain_dialog")
        self.workers = workers
        self.machine_os = os_kind if os_kind in OS_CHOICES else ""
        self.machine = [name for name in machine if name != "checked"]
        self._worker: Optional[FunctionWorker] = None
        self.findings: Optional[list[Finding]] = None
        """The last answer (None: none yet)."""
        self.answers: list[tuple[Question, str]] = []
        """The user's answers to the questions that settle a cause (for the log in the box)."""
        self.state = IDLE
        self._status: Optional[Message] = None
        self._error: Optional[WorkerError] = None
        self._file_message: Optional[Message] = None
        self._invalid: Optional[QLineEdit] = None
        """The field an explanation was refused for (the version fields)."""
        self.cards: list[ExplainCard] = []
        self.setSizeGripEnabled(True)

        self.intro = QLabel(self)
        self.intro.setWordWrap(True)
        self.log_label = QLabel(self)
        self.log = LogEdit(self)
        self.log.setObjectName("explain_log")
        self.log.file_given.connect(self.load_file)
        self.log.textChanged.connect(self._on_log_changed)
        self.setAcceptDrops(True)
        self.log.setFont(_mono_font())
        self.log.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.log.setTabChangesFocus(True)
        self.log.setUndoRedoEnabled(True)
        self.log_label.setBuddy(self.log)
        self.open_button = QPushButton(self)
        self.open_button.setObjectName("explain_open_file")
        self.open_button.setAutoDefault(False)
        self.open_button.clicked.connect(self.open_file)
        self.file_status = QLabel(self)
        self.file_status.setObjectName("explain_file_status")
        self.file_status.setWordWrap(True)
        self.file_status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        file_row = QHBoxLayout()
        file_row.addWidget(self.open_button, 0, Qt.AlignmentFlag.AlignTop)
        file_row.addWidget(self.file_status, 1)

        self.os_label = QLabel(self)
        self.os_box = QComboBox(self)
        self.os_box.setObjectName("explain_os")
        self.os_box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        for value in OS_CHOICES:
            self.os_box.addItem("", value)
        self.os_box.setCurrentIndex(self.os_box.findData(self.machine_os))
        self.os_label.setBuddy(self.os_box)
        self.tf_label, self.tf_edit, self.tf_reason, tf_row = self._given_field(
            "explain_tf", tf_version)
        self.python_label, self.python_edit, self.python_reason, python_row = self._given_field(
            "explain_python", python_version)
        self.cuda_label, self.cuda_edit, self.cuda_reason, cuda_row = self._given_field(
            "explain_cuda")
        self.gpu_label, self.gpu_edit, self.gpu_reason, gpu_row = self._given_field(
            "explain_gpu", columns=36)
        self.machine_box = QCheckBox(self)
        self.machine_box.setObjectName("explain_machine")
        self.machine_box.setChecked(bool(self.machine))
        self.machine_box.setEnabled(bool(self.machine))
        self.machine_box.setVisible(bool(self.machine))
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
        form.addRow(self.os_label, self.os_box)
        form.addRow(self.tf_label, tf_row)
        form.addRow(self.python_label, python_row)
        form.addRow(self.cuda_label, cuda_row)
        form.addRow(self.gpu_label, gpu_row)
        form.addRow(self.machine_box)

        self.explain_button = QPushButton(self)
        self.explain_button.setObjectName("explain_run")
        # Enter in a field (the version, the OS) explains; never "Open file…", which QDialog
        # would otherwise make the default as the first auto-default button
        self.explain_button.setDefault(True)
        self.explain_button.clicked.connect(self.explain)
        self.copy_button = QPushButton(self)
        self.copy_button.setObjectName("explain_copy")
        self.copy_button.setAutoDefault(False)
        self.copy_button.clicked.connect(self.copy_answer)
        self.copy_status = QLabel(self)
        self.copy_status.setWordWrap(True)
        actions = QHBoxLayout()
        actions.addWidget(self.explain_button)
        actions.addWidget(self.copy_button)
        actions.addWidget(self.copy_status, 1)

        top = QWidget(self)
        top_layout = QVBoxLayout(top)
        top_layout.setContentsMargins(0, 0, 0, 0)
        top_layout.addWidget(self.intro)
        top_layout.addWidget(self.log_label)
        top_layout.addWidget(self.log, 1)
        top_layout.addLayout(file_row)
        top_layout.addLayout(form)
        top_layout.addLayout(actions)

        self.status = QLabel(self)
        self.status.setObjectName("explain_status")
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.hint = QLabel(self)
        self.hint.setObjectName("explain_hint")
        self.hint.setWordWrap(True)
        self.hint.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.answer = QScrollArea(self)
        self.answer.setObjectName("explain_answer")
        self.answer.setWidgetResizable(True)
        self.answer.setFrameShape(QFrame.Shape.StyledPanel)
        self.answer.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        content = QWidget(self.answer)
        self.answer_layout = QVBoxLayout(content)
        self.answer_layout.addWidget(self.status)
        self.answer_layout.addWidget(self.hint)
        self.question = QuestionBar(content)
        self.question.answered.connect(self.answer_question)
        self.question.cleared.connect(self.clear_answers)
        self.answer_layout.addWidget(self.question)
        self.cards_layout = QVBoxLayout()
        self.answer_layout.addLayout(self.cards_layout)
        self.answer_layout.addStretch(1)
        self.answer.setWidget(content)
        self.answer.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)

        self.splitter = QSplitter(Qt.Orientation.Vertical, self)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.addWidget(top)
        self.splitter.addWidget(self.answer)
        self.splitter.setStretchFactor(0, 2)
        self.splitter.setStretchFactor(1, 3)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        self.buttons.rejected.connect(self.reject)
        close = self.buttons.button(QDialogButtonBox.StandardButton.Close)
        close.setAutoDefault(False)
        layout = QVBoxLayout(self)
        layout.addWidget(self.splitter, 1)
        layout.addWidget(self.buttons)

        self.shortcut = QShortcut(EXPLAIN_SHORTCUT, self)
        self.shortcut.setContext(Qt.ShortcutContext.WindowShortcut)
        self.shortcut.activated.connect(self.explain)
        self.os_box.currentIndexChanged.connect(self._on_os_changed)
        self.tf_edit.textChanged.connect(lambda _text: self._show_tf())
        self.python_edit.textChanged.connect(lambda _text: self._show_python())
        self.cuda_edit.textChanged.connect(lambda _text: self._show_cuda())
        self.gpu_edit.textChanged.connect(lambda _text: self._show_gpu())
        self.setTabOrder(self.log, self.open_button)
        self.setTabOrder(self.open_button, self.os_box)
        self.setTabOrder(self.os_box, self.tf_edit)
        self.setTabOrder(self.tf_edit, self.python_edit)
        self.setTabOrder(self.python_edit, self.cuda_edit)
        self.setTabOrder(self.cuda_edit, self.gpu_edit)
        self.setTabOrder(self.gpu_edit, self.machine_box)
        self.setTabOrder(self.machine_box, self.explain_button)
        self.setTabOrder(self.explain_button, self.copy_button)
        self.setTabOrder(self.copy_button, self.answer)
        self.setTabOrder(self.answer, close)
        self._fit_to_screen()
        self.retranslate_ui()
        self.log.setFocus()

    def _given_field(self, name: str, text: str = "",
                     columns: int = 24) -> tuple[QLabel, QLineEdit, QLabel, QHBoxLayout]:
        """A label, a line edit about ``columns`` characters wide holding ``text``, and the line
        beside it saying why what it holds is refused, in a row."""
        label, edit, reason = QLabel(self), QLineEdit(text, self), QLabel(self)
        edit.setObjectName(name)
        reason.setObjectName(f"{name}_reason")
        reason.setWordWrap(True)
        reason.setStyleSheet("color: #c62828;")
        label.setBuddy(edit)
        # fixed: a refusal shown beside it never squeezes it
        edit.setFixedWidth(self.fontMetrics().averageCharWidth() * columns)
        row = QHBoxLayout()
        row.addWidget(edit)
        row.addWidget(reason, 1)
        return label, edit, reason, row

    # -- choices -----------------------------------------------------------------------------
    def os_kind(self) -> str:
        """The OS chosen ("" : the log decides)."""
        return str(self.os_box.currentData() or "")

    def set_os(self, os_kind: str) -> None:
        self.os_box.setCurrentIndex(self.os_box.findData(os_kind))

    def tf_choice(self) -> TfChoice:
        return parse_tf(self.tf_edit.text(), self.os_kind())

    def python_version(self) -> Optional[str]:
        """The Python version given (None: empty or refused, the log decides)."""
        given = self.python_edit.text().strip()
        return given if given and python_error(given) is None else None

    def cuda_version(self) -> Optional[str]:
        """The CUDA Toolkit version given (None: empty or refused, the log decides)."""
        given = self.cuda_edit.text().strip()
        return given if given and cuda_error(given) is None else None

    def gpu_answers(self) -> list[tuple[Question, str]]:
        """The answer the GPU named gives (whether it is an NVIDIA GPU; none: empty or
        refused), unless the user answered that question outright."""
        given = self.gpu_edit.text().strip()
        if not given or gpu_error(given) is not None:
            return []
        told = deciding_question.gpu_answer(given)
        return [] if any(known.id == told[0].id for known, _ in self.answers) else [told]

    def machine_facts(self) -> list[str]:
        """The machine's facts passed to the engine (none for a log from another computer)."""
        return list(self.machine) if self.machine_box.isChecked() else []

    def known_facts(self) -> list[str]:
        """The machine's facts and the user's answers (the GPU named one of them, which beats
        what the check saw of this computer's GPU): what the engine is told."""
        named = deciding_question.answers_facts(self.gpu_answers())
        machine = self.machine_facts()
        if named:
            machine = [f for f in machine if f not in deciding_question.question(
                deciding_question.GPU_QUESTION).facts()]
        return machine + named + deciding_question.answers_facts(self.answers)

    def answer_question(self, value: str) -> None:
        """The user answered the question shown: explain again with it."""
        question = self.question.question
        if question is None or self.state != DONE:
            return
        self.answers.append((question, value))
        self.explain()

    def clear_answers(self) -> None:
        self.answers = []
        self.explain()

    def _on_log_changed(self) -> None:
        """Another log: the answers and the word on the last file were about the last one."""
        if self.answers:
            self.answers = []
            self.question.show_question(None, [])
        if self._file_message is not None:
            self._file_message = None
            self._show_file_status()

    def _on_os_changed(self, _index: int) -> None:
        """Another OS than the checked machine's: the log comes from another computer, whose
        GPU and driver the check did not see (the user may tick it again)."""
        if self.machine:
            self.machine_box.setChecked(self.os_kind() == self.machine_os)
        self._show_tf()

    def _show_tf(self) -> bool:
        choice = self.tf_choice()
        shown = choice.error or choice.note
        self.tf_reason.setText(say(shown) if shown is not None else "")
        self.tf_reason.setVisible(shown is not None)
        colour = "palette(text)" if choice.error is None else "#c62828"
        self.tf_reason.setStyleSheet(f"color: {colour};")
        self._make_room_later()
        return choice.error is None

    def _show_python(self) -> bool:
        return self._show_refusal(self.python_reason, python_error(self.python_edit.text()))

    def _show_cuda(self) -> bool:
        return self._show_refusal(self.cuda_reason, cuda_error(self.cuda_edit.text()))

    def _show_gpu(self) -> bool:
        return self._show_refusal(self.gpu_reason, gpu_error(self.gpu_edit.text()))

    def _show_refusal(self, reason: QLabel, error: Optional[Message]) -> bool:
        reason.setText(say(error) if error is not None else "")
        reason.setVisible(error is not None)
        self._make_room_later()
        return error is None

    def _make_room_later(self) -> None:
        """Once the layout has placed a new text: :meth:`make_room_for_reasons`."""
        QTimer.singleShot(0, self, self.make_room_for_reasons)

    def reasons_short_of_room(self) -> int:
        """How many pixels the lines beside the fields lack: QSplitter sizes its panes from
        their minimum sizes, which leave a refusal wrapped over several lines clipped."""
        labels = (self.tf_reason, self.python_reason, self.cuda_reason, self.gpu_reason)
        return sum(max(0, label.heightForWidth(label.width()) - label.height())
                   for label in labels if label.isVisible() and label.width() > 0)

    def make_room_for_reasons(self) -> None:
        """Grow the upper pane by what the lines beside the fields lack (the answer pane
        keeps at least a third of the height)."""
        short = self.reasons_short_of_room()
        top, answer = self.splitter.sizes()
        grow = min(short, max(0, answer - (top + answer) // 3))
        if grow > 0:  # then again, once the rows have settled at their new height
            self.splitter.setSizes([top + grow, answer - grow])
            self._make_room_later()

    def resizeEvent(self, event) -> None:  # noqa: ANN001, N802 - Qt override
        super().resizeEvent(event)
        self._make_room_later()

    # -- the file ------------------------------------------------------------------------------
    def open_file(self) -> Optional[str]:
        path = ask_open_path(self)
        if path:
            self.load_file(path)
        return path or None

    def load_file(self, path: str) -> bool:
        """Put the log at ``path`` in the box (bounded and decoded as ``explain FILE`` reads it);
        a file that cannot be read or is no text gives one line naming it."""
        try:
            text = explain.read_log_file(path)
        except explain.NotTextLog:
            self._file_message = msg("explaingui.file_not_text", file=path)
        except OSError as exc:
            self._file_message = msg("explaingui.file_unreadable", file=path,
                                     reason=exc.strerror or str(exc))
        else:
            self.log.setPlainText(text)
            self._file_message = msg("explaingui.file_loaded", file=path)
            self._show_file_status()
            return True
        self._show_file_status()
        return False

    def dragEnterEvent(self, event) -> None:  # noqa: ANN001, N802 - Qt override
        """A log file dragged anywhere on the dialog (the box takes its own drops)."""
        if dropped_file(event.mimeData()) is not None:
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:  # noqa: ANN001, N802 - Qt override
        path = dropped_file(event.mimeData())
        if path is not None:
            event.acceptProposedAction()
            self.load_file(path)

    def _show_file_status(self) -> None:
        message = self._file_message
        self.file_status.setText(say(message) if message is not None else "")
        failed = message is not None and message.id != "explaingui.file_loaded"
        self.file_status.setStyleSheet("color: #c62828;" if failed else "")

    # -- work ----------------------------------------------------------------------------------
    def is_running(self) -> bool:
        return self._worker is not None

    def explain(self) -> Optional[FunctionWorker]:
        """Explain the log in the box on a worker (nothing to explain, or a TensorFlow version
        that is refused: say so instead)."""
        self._cancel()
        text = self.log.toPlainText()
        if not text.strip():
            self._set_state(EMPTY)
            self.log.setFocus()
            return None
        for show, field in ((self._show_tf, self.tf_edit), (self._show_python, self.python_edit),
                            (self._show_cuda, self.cuda_edit), (self._show_gpu, self.gpu_edit)):
            if not show():
                self._invalid = field
                self._set_state(INVALID)
                field.setFocus()
                return None
        choice = self.tf_choice()
        work = explain_work(text, self.os_kind(), choice.version, self.known_facts(),
                            self.python_version(), self.cuda_version())
        self._worker = self.workers.start(work, slots={
            "sig_result": self._on_result,
            "sig_error": self._on_error,
        })
        self._set_state(RUNNING)
        return self._worker

    def _from_current(self) -> bool:
        return self._worker is not None and self.sender() is self._worker.signals

    def _on_result(self, findings: list) -> None:
        if self._from_current():
            self._worker, self.findings = None, list(findings)
            self._set_state(DONE)

    def _on_error(self, error: WorkerError) -> None:
        if self._from_current():
            self._worker, self._error, self.findings = None, error, None
            self._set_state(FAILED)

    def _cancel(self) -> None:
        """Forget the running explanation (the engine has no stop: its answer is dropped)."""
        worker, self._worker = self._worker, None
        if worker is not None:
            worker.cancel()
            for name in ("sig_result", "sig_error"):
                with contextlib.suppress(RuntimeError, TypeError):
                    getattr(worker.signals, name).disconnect()

    def done(self, result: int) -> None:  # noqa: D401 - Qt override
        """Closing (Close, Escape, the window's button) while it runs drops the answer."""
        self._cancel()
        super().done(result)

    def closeEvent(self, event) -> None:  # noqa: ANN001, N802 - Qt override
        self._cancel()
        super().closeEvent(event)

    # -- the answer ------------------------------------------------------------------------------
    def _set_state(self, state: str) -> None:
        self.state = state
        if state != DONE:
            self.findings = None
        self.copy_status.setText("")
        self._show_answer()

    def _clear_cards(self) -> None:
        for card in self.cards:
            self.cards_layout.removeWidget(card)
            card.hide()  # at once: deleteLater waits for the event loop
            card.deleteLater()
        self.cards = []

    def _show_answer(self) -> None:
        """The status line, the hint and the cards for the current state."""
        self._clear_cards()
        status, hint = self._status_texts()
        self.status.setText(say(status) if status is not None else "")
        self.status.setVisible(status is not None)
        self.hint.setText(say(hint) if hint is not None else "")
        self.hint.setVisible(hint is not None)
        findings = self.findings if self.state == DONE else None
        for rank, finding in enumerate(findings or [], 1):
            card = ExplainCard(finding, rank, self.answer.widget())
            self.cards_layout.addWidget(card)
            self.cards.append(card)
        asked = explain.question_for(findings, self.known_facts()) if findings else None
        self.question.show_question(asked, self.answers if findings is not None else [])
        self.copy_button.setEnabled(findings is not None)
        self.explain_button.setEnabled(True)

    def _status_texts(self) -> tuple[Optional[Message], Optional[Message]]:
        state, findings = self.state, self.findings
        if state == IDLE:
            return msg("explaingui.ready", shortcut=_key_text(EXPLAIN_SHORTCUT)), None
        if state == RUNNING:
            return msg("explaingui.running"), None
        if state == EMPTY:
            return msg("explaingui.empty"), None
        if state == INVALID:
            fixes = {self.python_edit: "python", self.cuda_edit: "cuda", self.gpu_edit: "gpu"}
            if self._invalid in fixes:
                return msg(f"explaingui.fix_{fixes[self._invalid]}"), None
            return msg("explaingui.fix_tf"), None
        if state == FAILED:
            reason = self._error.text if self._error is not None else ""
            return msg("explaingui.error", reason=reason), None
        if not findings:
            return (msg("explain.text.nothing_found"),
                    msg("explain.text.nothing_found_hint", command=explain.NEXT_STEP_COMMAND))
        if len(findings) == 1 and findings[0].code == explain.HARMLESS_CODE:
            return None, msg("explain.text.harmless_hint", command=explain.NEXT_STEP_COMMAND)
        if not explain.decisive(findings):
            return msg(explain.candidates_heading(findings)), None
        return None, None

    def answer_text(self) -> str:
        """The answer as ``gpu-wizard explain`` prints it, in the language shown: with the
        answers given and the question the bar asks."""
        from wizard import i18n

        if self.findings is None:
            return ""
        return explain.findings_text(self.findings, i18n.current_language(), self.answers,
                                     self.question.question)

    def copy_answer(self) -> None:
        if self.findings is None:
            return
        copy_text(self.answer_text())
        self.copy_status.setText(say(msg("explaingui.copied")))

    # -- looks -----------------------------------------------------------------------------------
    def _fit_to_screen(self) -> None:
        """About 130 columns of text wide and 50 lines tall, never more than the screen."""
        metrics = self.fontMetrics()
        width, height = metrics.averageCharWidth() * 130, metrics.height() * 50
        screen = self.screen().availableGeometry() if self.screen() else None
        if screen is not None:
            width, height = min(width, int(screen.width() * 0.9)), min(height,
                                                                       int(screen.height() * 0.9))
        self.resize(width, height)
        self.splitter.setSizes([2 * height // 5, 3 * height // 5])

    def retranslate_ui(self) -> None:
        self.setWindowTitle(say(msg("explaingui.window_title")))
        self.intro.setText(say(msg("explaingui.intro")))
        self.log_label.setText(say(msg("explaingui.log_label")))
        self.log.setPlaceholderText(say(msg("explaingui.log_placeholder")))
        self.log.setAccessibleName(say(msg("explaingui.log_name")))
        self.open_button.setText(say(msg("explaingui.open_file")))
        self.open_button.setAccessibleName(say(msg("explaingui.open_file_name")))
        self.os_label.setText(say(msg("explaingui.os_label")))
        for index in range(self.os_box.count()):
            value = str(self.os_box.itemData(index) or "")
            name = msg(f"explaingui.os.{value or 'auto'}")
            if value and value == self.machine_os:
                name = msg("explaingui.os.this_computer", os=name)
            self.os_box.setItemText(index, say(name))
        self.os_box.setAccessibleName(say(msg("explaingui.os_name")))
        self.tf_label.setText(say(msg("explaingui.tf_label")))
        self.tf_edit.setPlaceholderText(say(msg("explaingui.tf_placeholder")))
        self.tf_edit.setToolTip(say(msg("explaingui.tf_tip")))
        self.tf_edit.setAccessibleName(say(msg("explaingui.tf_name")))
        self.python_label.setText(say(msg("explaingui.python_label")))
        self.python_edit.setPlaceholderText(say(msg("explaingui.python_placeholder")))
        self.python_edit.setToolTip(say(msg("explaingui.python_tip")))
        self.python_edit.setAccessibleName(say(msg("explaingui.python_name")))
        for field, label, edit in (("cuda", self.cuda_label, self.cuda_edit),
                                   ("gpu", self.gpu_label, self.gpu_edit)):
            label.setText(say(msg(f"explaingui.{field}_label")))
            edit.setPlaceholderText(say(msg(f"explaingui.{field}_placeholder")))
            edit.setToolTip(say(msg(f"explaingui.{field}_tip")))
            edit.setAccessibleName(say(msg(f"explaingui.{field}_name")))
        self.machine_box.setText(say(msg("explaingui.machine")))
        self.machine_box.setToolTip(say(msg("explaingui.machine_tip")))
        self.explain_button.setText(say(msg("explaingui.explain")))
        tip = say(msg("explaingui.explain_tip", shortcut=_key_text(EXPLAIN_SHORTCUT)))
        self.explain_button.setToolTip(tip)
        self.explain_button.setAccessibleName(tip)
        self.copy_button.setText(say(msg("explaingui.copy")))
        self.copy_button.setAccessibleName(say(msg("explaingui.copy_name")))
        self.copy_button.setToolTip(say(msg("explaingui.copy_name")))
        self.answer.setAccessibleName(say(msg("explaingui.answer_name")))
        self.copy_status.setText("")
        self._show_tf()
        self._show_python()
        self._show_cuda()
        self._show_gpu()
        self._show_file_status()
        self._show_answer()

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt override
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate_ui()
        super().changeEvent(event)


def _key_text(sequence: QKeySequence) -> str:
    return sequence.toString(QKeySequence.SequenceFormat.NativeText)


def open_for_session(session: Any, workers: WorkerManager,
                     parent: QWidget | None = None) -> ExplainDialog:
    """The dialog for the machine the wizard checked, shown (non-blocking: ``open()``)."""
    os_kind, tf_version, machine = session_defaults(session)
    dialog = ExplainDialog(workers, os_kind, tf_version, machine, parent,
                           python_version=session_python(session))
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
    dialog.open()
    return dialog
