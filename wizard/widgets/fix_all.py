""""Fix everything" (the summary page): the overall plan first, one confirmation, then the fixes
of the failing layers lowest layer first, each planned from a fresh check, stopping at the first
that fails; the result of each, and the check again after each.

The run is :func:`wizard.widgets.fix_tasks.fix_everything` on one worker; its progress (download
speed and time left, the output lines of pip, conda or an installer, which fix is running)
arrives through :class:`~wizard.widgets.fix_tasks.Events`, drained on a timer. In demo mode the
dialog shows the plan and runs nothing.
"""

from __future__ import annotations

import logging
from typing import Any, Callable, Optional

from PySide6.QtCore import QEvent, Qt, QTimer
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from wizard import texts
from wizard.core import codes
from wizard.core.messages import Message, msg
from wizard.widgets import fix_tasks
from wizard.widgets.fix_dialog import POLL_MS, append_output, output_view, show_fraction
from wizard.widgets.fix_tasks import Events, Item, Run
from wizard.workers import FunctionWorker, WorkerError, WorkerManager

log = logging.getLogger(__name__)

PLANNED, RUNNING, FINISHED = "planned", "running", "finished"


def plan_lines(items: list[Item]) -> list[Message]:
    """The overall plan in words: each fix, numbered, with what it would do (or why it is
    planned only when its turn comes)."""
    lines: list[Message] = []
    for number, item in enumerate(items, start=1):
        lines.append(msg("fixgui.all.item", n=number, title=codes.title(item.finding.code)))
        if item.prepared is not None:
            lines.extend(msg("fixgui.all.detail", line=m) for m in item.prepared.messages())
        else:
            lines.append(msg("fixgui.all.detail", line=msg("fixgui.all.waits",
                                                           reason=item.waits)))
    return lines


def result_lines(run: Run) -> list[Message]:
    """How each fix went, and why the run stopped."""
    lines: list[Message] = []
    for number, step in enumerate(run.steps, start=1):
        title = codes.title(step.finding.code)
        if step.ok:
            lines.append(msg("fixgui.all.step_ok", n=number, title=title))
        else:
            lines.append(msg("fixgui.all.step_failed", n=number, title=title))
        if step.outcome is not None:
            lines.extend(step.outcome.messages)
        if step.error is not None:
            lines.append(step.error)
    if run.stopped is not None:
        lines.append(run.stopped)
    elif run.report is not None and run.report.ready:
        lines.append(msg("fixgui.all.ready"))
    else:
        lines.append(msg("fixgui.all.finished"))
    return lines


class FixAllDialog(QDialog):
    """The overall plan, one confirmation, then every fix in order with its progress."""

    def __init__(self, session: Any, items: list[Item], workers: WorkerManager,
                 on_finished: Optional[Callable[[Optional[Run]], None]] = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.items = items
        self.workers = workers
        self.on_finished = on_finished
        self.demo = not getattr(session.host, "can_write", False)
        self.state = PLANNED
        self.run: Optional[Run] = None
        self._status: list[Message] = []
        self._worker: Optional[FunctionWorker] = None
        self._events = Events()
        self._timer = QTimer(self)
        self._timer.setInterval(POLL_MS)
        self._timer.timeout.connect(self._drain)
        self.setObjectName("FixAllDialog")
        self.setModal(True)
        self.setMinimumSize(660, 500)
        self.resize(820, 640)

        self.heading = QLabel(self)
        font = self.heading.font()
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.15)
        self.heading.setFont(font)
        self.intro = QLabel(self)
        self.intro.setWordWrap(True)
        self.plan_view = QPlainTextEdit(self)
        self.plan_view.setReadOnly(True)
        self.progress = QProgressBar(self)
        self.progress.setRange(0, 1000)
        self.progress.setTextVisible(False)
        self.status = QLabel(self)
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.output = output_view(self, "fix_all_output")
        self.run_button = QPushButton(self)
        self.run_button.setObjectName("fix_all_run")
        self.run_button.clicked.connect(self.start)
        self.cancel_button = QPushButton(self)
        self.cancel_button.setObjectName("fix_all_cancel")
        self.cancel_button.setAutoDefault(False)
        self.cancel_button.clicked.connect(self.cancel)
        self.close_button = QPushButton(self)
        self.close_button.setObjectName("fix_all_close")
        self.close_button.setAutoDefault(False)
        self.close_button.clicked.connect(self.reject)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.run_button)
        buttons.addWidget(self.cancel_button)
        buttons.addWidget(self.close_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.heading)
        layout.addWidget(self.intro)
        layout.addWidget(self.plan_view, 2)
        layout.addWidget(self.progress)
        layout.addWidget(self.status)
        layout.addWidget(self.output, 2)
        layout.addLayout(buttons)
        self.retranslate_ui()
        if self.run_button.isVisible():
            self.run_button.setDefault(True)

    # -- running ----------------------------------------------------------------------------------
    def start(self) -> None:
        """The one confirmation: run every fix of the plan, in order (never in demo mode)."""
        if self.state != PLANNED or self.demo or not fix_tasks.runnable(self.items):
            return
        session, items, events = self.session, list(self.items), Events()
        self._events, self.run = events, Run()
        run = self.run
        self.state, self._status = RUNNING, [msg("fixgui.starting")]
        self._worker = self.workers.start(
            lambda progress, cancelled: fix_tasks.fix_everything(session, items, events,
                                                                 cancelled, run),
            slots={"sig_result": self._on_result, "sig_error": self._on_error,
                   "sig_cancelled": self._on_cancelled})
        self._timer.start()
        self._show()
        self.cancel_button.setFocus()

    def cancel(self) -> None:
        """Stop the fix that runs (it is put back or ended as its own Cancel does); no further
        fix starts. Else close."""
        if self.state == RUNNING and self._worker is not None:
            self._worker.cancel()
            self._status = [msg("fixgui.all.cancelling")]
            self.cancel_button.setEnabled(False)
            self._show_status()
            return
        self.reject()

    def _drain(self) -> None:
        lines: list[str] = []
        for event in self._events.drain():
            kind = event[0]
            if kind == "line":
                lines.append(event[1])
            elif self._worker is None or self._worker.is_cancelled():
                continue
            elif kind == "step":
                self.progress.setRange(0, 0)
                self._status = [event[2]]
                if event[1] >= 0:
                    self.output.appendPlainText(texts.render_message(event[2]))
                self._show_status()
            elif kind == "progress":
                show_fraction(self.progress, event[1])
            elif kind == "download":
                from wizard.core.downloads import describe_progress

                show_fraction(self.progress, event[1].fraction)
                self._status = [*self._status[:1],
                                msg("fixgui.downloading", progress=describe_progress(event[1]))]
                self._show_status()
        append_output(self.output, lines)

    def _end(self, run: Optional[Run], status: list[Message]) -> None:
        self._timer.stop()
        self._drain()  # the last output lines (the status is the result's, set below)
        self._status = status
        self._worker = None
        self.run, self.state = run, FINISHED
        self.progress.setRange(0, 1000)
        self.progress.setValue(1000 if run is not None and run.ok else 0)
        self._show()
        if self.on_finished is not None:
            try:
                self.on_finished(run)
            except Exception:  # noqa: BLE001 - the fixes ran; a failing refresh is logged
                log.exception("refresh after Fix everything failed")

    def _on_result(self, run: Run) -> None:
        if self._current():
            self._end(run, result_lines(run))

    def _on_error(self, error: WorkerError) -> None:
        if self._current():
            self._end(None, [msg("fixgui.all.error", reason=error.text)])

    def _on_cancelled(self) -> None:
        if self._current():
            run = self.run or Run()
            if run.stopped is None:
                run.stopped = msg("fixgui.all.stopped_cancelled", n=len(run.steps))
            self._end(run, result_lines(run))

    def _current(self) -> bool:
        return self._worker is not None and self.sender() is self._worker.signals

    def reject(self) -> None:
        """Esc or Close while fixes run cancels them first; the dialog stays until they
        stopped."""
        if self.state == RUNNING:
            self.cancel()
            return
        self._timer.stop()
        super().reject()

    # -- showing ----------------------------------------------------------------------------------
    def _show(self) -> None:
        running = self.state == RUNNING
        self.run_button.setVisible(not self.demo and self.state == PLANNED)
        self.run_button.setEnabled(self.state == PLANNED and fix_tasks.runnable(self.items))
        self.cancel_button.setVisible(running)
        self.cancel_button.setEnabled(running and self._worker is not None
                                      and not self._worker.is_cancelled())
        self.close_button.setEnabled(not running)
        self.progress.setVisible(self.state != PLANNED)
        lines = [texts.render_message(m) for m in plan_lines(self.items)]
        self.plan_view.setPlainText("\n".join(lines))
        self._show_status()

    def _show_status(self) -> None:
        self.status.setText("\n".join(texts.render_message(m) for m in self._status))
        self.status.setVisible(bool(self._status))

    def status_text(self) -> str:
        return self.status.text() if not self.status.isHidden() else ""

    def plan_text(self) -> str:
        return self.plan_view.toPlainText()

    def output_text(self) -> str:
        return self.output.toPlainText()

    def retranslate_ui(self) -> None:
        self.setWindowTitle(texts.render_message(msg("fixgui.all.window_title")))
        self.heading.setText(texts.render_message(msg("fixgui.all.heading", count=len(
            [i for i in self.items if i.prepared is not None or i.waits is not None]))))
        self.intro.setText(texts.render_message(
            msg("fixgui.demo") if self.demo else msg("fixgui.all.intro")))
        self.run_button.setText(texts.render_message(msg("fixgui.all.run")))
        self.cancel_button.setText(texts.render_message(msg("fixgui.cancel")))
        self.close_button.setText(texts.render_message(msg("fixgui.close")))
        self.plan_view.setAccessibleName(texts.render_message(msg("fixgui.plan_heading")))
        self.output.setAccessibleName(texts.render_message(msg("fixgui.output_name")))
        if self.run is not None and self.state == FINISHED:
            self._status = result_lines(self.run)
        self._show()
        for button in (self.run_button, self.cancel_button, self.close_button):
            button.setAccessibleName(button.text())

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt override
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate_ui()
        super().changeEvent(event)
