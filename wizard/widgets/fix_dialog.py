"""The commit step of an automatic fix ("Fix it…" on a finding card), and the offer to finish or
roll back a fix a crash interrupted.

:class:`FixDialog` works out the plan first and shows it in plain words (what is downloaded, how
big, from where and how it is checked; which files and variables change; which commands run, in
which environment). cuDNN comes from NVIDIA's download by default, with "Use an archive I have…"
as the other way; zlibwapi.dll is chosen by the user. Then the button runs it on a worker
(:mod:`wizard.widgets.fix_tasks`) with progress: speed and time left for a download, the live
output of pip, conda or an installer, Cancel (the download, or the whole process tree; file
changes are put back), the result with the exit status, Undo where there is one, and the page
checks its layer again. In demo mode (a ReplayHost) it shows the plan and says that nothing will
be changed; no button writes anything. Every text comes from ``resources/messages/fixgui.json``
(and the cores' catalogues) and is rendered again on a language change.
"""

from __future__ import annotations

import logging
from typing import Any, Callable, Optional

from PySide6.QtCore import QEvent, Qt, QTimer
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QDialog,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from wizard import texts
from wizard.core.fixes import journal as journals
from wizard.core.fixes.plan import FixError
from wizard.core.messages import Message, msg
from wizard.core.model import Finding
from wizard.widgets import fix_tasks
from wizard.widgets.fix_tasks import NEEDS_FILE, Events, Outcome, Prepared
from wizard.workers import FunctionWorker, WorkerError, WorkerManager

log = logging.getLogger(__name__)

(NEED_INPUT, PLANNING, PLANNED, REFUSED, APPLYING, DONE, FAILED, UNDOING,
 UNDONE) = ("need_input", "planning", "planned", "refused", "applying", "done", "failed",
            "undoing", "undone")
POLL_MS = 100
"""How often the dialog takes the worker's progress and output lines (fix_tasks.Events)."""
MAX_OUTPUT_LINES = 5000

NEEDS_TEXT = {"install_cudnn": "fixgui.needs.archive", "install_zlibwapi": "fixgui.needs.zlibwapi",
              "install_cuda": "fixgui.needs.installer"}
USE_OWN_TEXT = {"install_cudnn": "fixgui.use_archive", "install_cuda": "fixgui.use_installer"}
INTRO_TEXT = {fix_tasks.DOWNLOAD: "fixgui.intro_download", fix_tasks.RUN: "fixgui.intro_run",
              fix_tasks.INSTALLER: "fixgui.intro_installer"}
APPLY_TEXT = {fix_tasks.FILES: "fixgui.apply", fix_tasks.DOWNLOAD: "fixgui.apply_download",
              fix_tasks.RUN: "fixgui.apply_run", fix_tasks.INSTALLER: "fixgui.apply_installer"}


def _reason(error: WorkerError) -> Any:
    exc = error.exception
    return exc.message if isinstance(exc, FixError) else error.text


def output_view(parent: QWidget, name: str) -> QPlainTextEdit:
    """The live output of a command a fix runs: read-only, monospaced, unwrapped, the last
    MAX_OUTPUT_LINES kept; hidden until something runs."""
    view = QPlainTextEdit(parent)
    view.setObjectName(name)
    view.setReadOnly(True)
    view.setFont(mono_font())
    view.setMaximumBlockCount(MAX_OUTPUT_LINES)
    view.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
    view.hide()
    return view


def append_output(view: QPlainTextEdit, lines: list[str]) -> None:
    """Add a command's new output lines to ``view`` (shown from the first line on)."""
    if lines:
        view.show()
        view.appendPlainText("\n".join(lines))


def show_fraction(bar: QProgressBar, fraction: Optional[float]) -> None:
    """``bar`` at ``fraction`` (0..1), or busy when the total is unknown (a download whose
    server gives no size)."""
    bar.setRange(0, 0 if fraction is None else 1000)
    if fraction is not None:
        bar.setValue(int(fraction * 1000))


def mono_font():
    return QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)


class FixDialog(QDialog):
    """One fix: how to get it, the plan, confirm, progress with cancel, the result, undo."""

    def __init__(self, finding: Finding, host: Any, workers: WorkerManager,
                 on_changed: Optional[Callable[[], None]] = None,
                 parent: QWidget | None = None, session: Any = None) -> None:
        super().__init__(parent)
        self.finding = finding
        self.action = finding.fix.action or ""
        self.host = host
        self.session = session
        """The check (``CheckSession``) the finding came from: its probe spares a pip plan
        another one (``fix_tasks.session_given``); None: the builder probes."""
        self.workers = workers
        self.on_changed = on_changed
        self.demo = not getattr(host, "can_write", False)
        self.routes = fix_tasks.routes(finding)
        self.route = self.routes[0]
        self.given: dict[str, Any] = {}
        self.prepared: Optional[Prepared] = None
        self.outcome: Optional[Outcome] = None
        self.back: Optional[Prepared] = None
        """The run that goes back after a pip fix (its "Undo")."""
        self.journal: Optional[journals.Journal] = None
        self.state = NEED_INPUT if self.route == fix_tasks.ROUTE_FILE else PLANNING
        self._status: Any = None
        self._worker: Optional[FunctionWorker] = None
        self._outcome: dict[str, Any] = {}
        self._events = Events()
        self._timer = QTimer(self)
        self._timer.setInterval(POLL_MS)
        self._timer.timeout.connect(self._drain)
        self.setObjectName("FixDialog")
        self.setModal(True)
        self.setMinimumSize(640, 480)
        self.resize(780, 600)
        self._build()
        self.retranslate_ui()
        if self.state == PLANNING:
            self._start_planning()

    @property
    def plan(self) -> Any:
        """The plan being shown (a file plan, a download, the commands to run)."""
        return self.prepared.plan if self.prepared is not None else None

    @property
    def kind(self) -> str:
        return self.prepared.kind if self.prepared is not None else ""

    def _build(self) -> None:
        self.heading = QLabel(self)
        self.heading.setWordWrap(True)
        font = self.heading.font()
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.15)
        self.heading.setFont(font)
        self.intro = QLabel(self)
        self.intro.setWordWrap(True)

        self.needs_label = QLabel(self)
        self.needs_label.setWordWrap(True)
        self.file_label = QLabel(self)
        self.file_label.setWordWrap(True)
        self.file_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.choose_button = QPushButton(self)  # a file of the user's
        self.choose_button.setObjectName("fix_choose")
        self.choose_button.clicked.connect(self.browse)
        self.choose_button.setSizePolicy(QSizePolicy.Policy.Maximum, QSizePolicy.Policy.Fixed)
        self.download_button = QPushButton(self)  # back to NVIDIA's download
        self.download_button.setObjectName("fix_download_instead")
        self.download_button.clicked.connect(self.use_download)
        self.download_button.setSizePolicy(QSizePolicy.Policy.Maximum,
                                           QSizePolicy.Policy.Fixed)
        file_row = QHBoxLayout()
        file_row.addWidget(self.file_label, 1)
        file_row.addStretch(0)
        file_row.addWidget(self.download_button)
        file_row.addWidget(self.choose_button)

        self.plan_heading = QLabel(self)
        self.plan_heading.setStyleSheet("font-weight: bold;")
        self.plan_view = QPlainTextEdit(self)
        self.plan_view.setReadOnly(True)
        self.plan_view.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.plan_heading.setBuddy(self.plan_view)

        self.note = QLabel(self)  # demo mode, administrator rights
        self.note.setWordWrap(True)
        self.note.setStyleSheet("font-weight: bold;")
        self.progress = QProgressBar(self)
        self.progress.setRange(0, 1000)
        self.progress.setTextVisible(False)
        self.status = QLabel(self)  # progress text, the result
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.output = output_view(self, "fix_output")  # live output of pip, conda, installer

        self.apply_button = QPushButton(self)
        self.apply_button.setObjectName("fix_apply")
        self.apply_button.clicked.connect(self.apply)
        self.cancel_button = QPushButton(self)
        self.cancel_button.setObjectName("fix_cancel")
        self.cancel_button.clicked.connect(self.cancel)
        self.undo_button = QPushButton(self)
        self.undo_button.setObjectName("fix_undo")
        self.undo_button.clicked.connect(self.undo)
        self.close_button = QPushButton(self)
        self.close_button.setObjectName("fix_close")
        self.close_button.clicked.connect(self.reject)
        for button in (self.choose_button, self.download_button, self.undo_button,
                       self.cancel_button, self.close_button):
            button.setAutoDefault(False)
        buttons = QHBoxLayout()
        buttons.addWidget(self.undo_button)
        buttons.addStretch(1)
        buttons.addWidget(self.apply_button)
        buttons.addWidget(self.cancel_button)
        buttons.addWidget(self.close_button)

        layout = QVBoxLayout(self)
        layout.addWidget(self.heading)
        layout.addWidget(self.intro)
        layout.addWidget(self.needs_label)
        layout.addLayout(file_row)
        layout.addWidget(self.plan_heading)
        layout.addWidget(self.plan_view, 2)
        layout.addWidget(self.note)
        layout.addWidget(self.progress)
        layout.addWidget(self.status)
        layout.addWidget(self.output, 2)
        layout.addLayout(buttons)

    # -- how the fix is had ---------------------------------------------------------------------
    def browse(self) -> None:
        """The file the fix needs, from a file dialog."""
        if self.action == "install_cudnn":
            title = texts.render_message(msg("fixgui.choose_archive_title"))
            patterns = (texts.render_message(msg("fixgui.choose_archive_filter"))
                        + " (*.zip *.tar.xz *.tar.gz *.tgz *.tar);;"
                        + texts.render_message(msg("fixgui.choose_dll_filter")) + " (*)")
        elif self.action == "install_cuda":
            title = texts.render_message(msg("fixgui.choose_installer_title"))
            patterns = ("cuda_*.exe (cuda_*.exe);;"
                        + texts.render_message(msg("fixgui.choose_dll_filter")) + " (*)")
        else:
            title = texts.render_message(msg("fixgui.choose_dll_title"))
            patterns = ("zlibwapi.dll (zlibwapi.dll);;"
                        + texts.render_message(msg("fixgui.choose_dll_filter")) + " (*)")
        path, _ = QFileDialog.getOpenFileName(self, title, "", patterns)
        if path:
            self.choose_file(path)

    def choose_file(self, path: str) -> None:
        """Use ``path`` as the archive (or DLL) and work out the plan."""
        if self.state not in (NEED_INPUT, PLANNING, PLANNED, REFUSED) or \
                self.action not in NEEDS_FILE:
            return
        self.route = fix_tasks.ROUTE_FILE
        self.given[NEEDS_FILE[self.action]] = path
        self._start_planning()

    def use_download(self) -> None:
        """Back from "an archive I have" to NVIDIA's download."""
        if self.state not in (NEED_INPUT, PLANNING, PLANNED, REFUSED) or \
                fix_tasks.ROUTE_DOWNLOAD not in self.routes:
            return
        self.route = fix_tasks.ROUTE_DOWNLOAD
        self.given.pop(NEEDS_FILE.get(self.action, ""), None)
        self._start_planning()

    def _start_planning(self) -> None:
        if self._worker is not None:  # another way was chosen while the plan was worked out
            self._worker.cancel()
        self.state, self.prepared, self._status = PLANNING, None, msg("fixgui.planning")
        finding, host, route = self.finding, self.host, self.route
        given = {**fix_tasks.session_given(self.session), **self.given}
        self._worker = self.workers.start(
            lambda progress, cancelled: fix_tasks.prepare(host, finding, given, route, cancelled),
            slots={"sig_result": self._on_planned, "sig_error": self._on_plan_error})
        self._show()

    def _on_planned(self, prepared: Prepared) -> None:
        if not self._current():
            return
        self._worker, self.prepared, self.state = None, prepared, PLANNED
        self._status = msg("fixgui.demo") if self.demo else None
        self._show()
        if self.apply_button.isVisible() and self.apply_button.isEnabled():
            self.apply_button.setDefault(True)
            self.apply_button.setFocus()

    def _on_plan_error(self, error: WorkerError) -> None:
        if not self._current():
            return
        self._worker = None
        self.state, self._status = REFUSED, msg("fixgui.refused", reason=_reason(error))
        self._show()

    # -- running it -----------------------------------------------------------------------------
    def can_apply(self) -> bool:
        prepared = self.prepared
        return (self.state == PLANNED and prepared is not None and not prepared.empty
                and not self.demo and not self.needs_sudo())

    def apply(self) -> None:
        """Run the fix (never in demo mode)."""
        if not self.can_apply():
            return
        prepared, host, events = self.prepared, self.host, Events()
        assert prepared is not None
        self._events = events
        self.output.clear()
        self.output.setVisible(prepared.kind in (fix_tasks.RUN, fix_tasks.INSTALLER))
        self.state, self._status = APPLYING, msg("fixgui.starting")
        self.progress.setValue(0)
        self._outcome = outcome = {}
        self._worker = self.workers.start(
            lambda progress, cancelled: fix_tasks.execute(host, prepared, events, cancelled,
                                                          outcome, go_on=False),
            slots={"sig_result": self._on_applied, "sig_error": self._on_apply_error,
                   "sig_cancelled": self._on_cancelled})
        self._timer.start()
        self._show()
        self.cancel_button.setFocus()

    def cancel(self) -> None:
        """Cancel a running fix (file changes so far are put back; a download keeps its part
        for the next try; a program is ended with everything it started), else close."""
        if self.state == APPLYING and self._worker is not None:
            self._worker.cancel()
            self._status = msg("fixgui.cancelling_run" if self.kind in (
                fix_tasks.RUN, fix_tasks.INSTALLER) else "fixgui.cancelling_download"
                if self.kind == fix_tasks.DOWNLOAD else "fixgui.cancelling")
            self.cancel_button.setEnabled(False)
            self._show_status()
            return
        self.reject()

    def _drain(self) -> None:
        """Progress and output lines from the worker (fix_tasks.Events), on the GUI thread."""
        lines: list[str] = []
        for event in self._events.drain():
            kind = event[0]
            if kind == "line":
                lines.append(event[1])
            elif self.state != APPLYING or (self._worker and self._worker.is_cancelled()):
                continue
            elif kind == "progress":
                self.progress.setValue(int(event[1] * 1000))
                if self.kind in (fix_tasks.RUN, fix_tasks.INSTALLER):
                    self._status = msg("fixgui.running", command=event[2] or "…")
                else:
                    self._status = msg("fixgui.applying", item=event[2] or "…")
                self._show_status()
            elif kind == "download":
                from wizard.core.downloads import describe_progress

                show_fraction(self.progress, event[1].fraction)
                self._status = msg("fixgui.downloading", progress=describe_progress(event[1]))
                self._show_status()
            elif kind == "step":
                self.progress.setRange(0, 1000)
                self._status = event[2]
                self._show_status()
        append_output(self.output, lines)

    def _finish_run(self) -> None:
        self._timer.stop()
        self._drain()
        self._worker = None
        self.progress.setRange(0, 1000)

    def _on_applied(self, outcome: Outcome) -> None:
        if not self._current():
            return
        self._finish_run()
        if outcome.next is not None:  # downloaded: now what it would copy, to agree to
            self.prepared, self.state = outcome.next, PLANNED
            self._status = [*outcome.messages, msg("fixgui.download.next")]
            self.progress.setValue(1000)
            self._show()
            if self.can_apply():
                self.apply_button.setDefault(True)
                self.apply_button.setFocus()
            return
        self.outcome, self.journal = outcome, outcome.journal
        if self.prepared is not None and outcome.go_back:
            self.back = fix_tasks.go_back_plan(self.host, self.prepared, outcome)
        # a file fix that does not verify is still made (and undoable): the result says so
        self.state = DONE if outcome.ok or outcome.journal is not None else FAILED
        if outcome.ok or outcome.cancelled or outcome.journal is not None:
            self._status = [*outcome.messages, msg("fixgui.rechecking")]
        else:
            self._status = [msg("fixgui.run_failed"), *outcome.messages,
                            msg("fixgui.rechecking")]
        self.progress.setValue(1000 if self.state == DONE else 0)
        self._show_go_back(outcome)
        self._show()
        self._changed()

    def _show_go_back(self, outcome: Outcome) -> None:
        if not outcome.go_back:
            return
        self.output.show()
        self.output.appendPlainText(
            "\n" + texts.render_message(msg("fixgui.go_back")) + "\n"
            + "\n".join(outcome.go_back))

    def _on_apply_error(self, error: WorkerError) -> None:
        if not self._current():
            return
        self._finish_run()
        self.state, self._status = FAILED, msg(
            "fixgui.download.failed" if self.kind == fix_tasks.DOWNLOAD and "result"
            not in self._outcome else "fixgui.failed", reason=_reason(error))
        self.progress.setValue(0)
        self._show()

    def _on_cancelled(self) -> None:
        if not self._current():
            return
        if "result" in self._outcome:  # the cancel came after the last change: it is done
            self._on_applied(self._outcome["result"])
            return
        self._finish_run()
        self.state = FAILED
        self._status = msg("fixgui.download.cancelled" if self.kind in (
            fix_tasks.DOWNLOAD, fix_tasks.INSTALLER) else "fix.cancelled")
        self.progress.setValue(0)
        self._show()

    def undo(self) -> None:
        """Put back the state from before this fix: the journal of a file fix, or the commands
        a pip run gave to go back (run like the fix, with their output)."""
        if self.state in (DONE, FAILED) and self.back is not None and not self.demo:
            self._go_back()
            return
        if self.state != DONE or self.journal is None or self.demo:
            return
        host, journal = self.host, self.journal
        self.state, self._status = UNDOING, msg("fixgui.undoing")
        self._worker = self.workers.start(
            lambda progress, cancelled: fix_tasks.undo(host, journal),
            slots={"sig_result": self._on_undone, "sig_error": self._on_undo_error})
        self._show()

    def _go_back(self) -> None:
        back, host, events = self.back, self.host, Events()
        assert back is not None
        self._events = events
        self.output.show()
        self.output.appendPlainText("")
        self.state, self._status = UNDOING, msg("fixgui.going_back")
        self._worker = self.workers.start(
            lambda progress, cancelled: fix_tasks.execute(host, back, events, cancelled),
            slots={"sig_result": self._on_went_back, "sig_error": self._on_undo_error})
        self._timer.start()
        self._show()

    def _on_went_back(self, outcome: Outcome) -> None:
        if not self._current():
            return
        self._finish_run()
        self.back = None
        self.state = UNDONE if outcome.ok else DONE
        key = "fixgui.went_back" if outcome.ok else "fixgui.go_back_failed"
        self._status = [msg(key), *outcome.messages, msg("fixgui.rechecking")]
        self.progress.setValue(0)
        self._show()
        self._changed()

    def _on_undone(self, _changed: Any) -> None:
        if not self._current():
            return
        self._worker = None
        self.state = UNDONE
        self._status = [msg("fixgui.undone", id=self.journal.id if self.journal else "?"),
                        msg("fixgui.rechecking")]
        self.progress.setValue(0)
        self._show()
        self._changed()

    def _on_undo_error(self, error: WorkerError) -> None:
        if not self._current():
            return
        self._timer.stop()
        self._worker = None
        self.state, self._status = DONE, msg("fixgui.undo_failed", reason=_reason(error))
        self._show()

    def needs_sudo(self) -> bool:
        """A root-owned destination on Linux: the wizard does not run as root, so the dialog
        says what to run instead and offers no button."""
        return bool(self.kind == fix_tasks.FILES and self.plan is not None
                    and self.plan.needs_admin and not self.host.is_windows)

    def _linux_admin_hint(self) -> Message:
        import os
        import shlex

        plan, given = self.plan, self.given
        assert plan is not None
        dest = str(plan.verify.get("dest") or self.finding.fix.action_params.get("dest", ""))
        if self.action == "install_cudnn" and given.get("archive"):
            archive = given["archive"]
            sudo = "sudo gpu-wizard fix cudnn --archive " + shlex.quote(archive) + \
                " --cuda-dir " + shlex.quote(dest)
            user_dir = os.path.join(os.path.expanduser("~"), ".local", "cudnn")
            return msg("fix.refuse.not_writable_linux", dest=dest, archive=shlex.quote(archive),
                       user_dir=user_dir, lib=os.path.join(user_dir, "lib64"), sudo=sudo)
        if self.action == "install_zlibwapi" and given.get("file"):
            return msg("fix.refuse.needs_root", command="sudo gpu-wizard fix zlibwapi --file "
                       + shlex.quote(given["file"]) + " --dest " + shlex.quote(dest))
        return msg("fix.refuse.needs_root", command="sudo gpu-wizard fix …")

    def _changed(self) -> None:
        if self.on_changed is not None:
            try:
                self.on_changed()
            except Exception:  # noqa: BLE001 - the fix is done; a failing re-check is logged
                log.exception("re-check after a fix failed")

    def _current(self) -> bool:
        return self._worker is not None and self.sender() is self._worker.signals

    def is_busy(self) -> bool:
        return self.state in (PLANNING, APPLYING, UNDOING)

    # -- closing ------------------------------------------------------------------------------
    def reject(self) -> None:
        """Closing (Esc, the close button) while a fix runs cancels it first; the dialog stays
        until the rollback (or the end of the process tree) is done."""
        if self.state == APPLYING:
            self.cancel()
            return
        if self.state == UNDOING:
            return
        if self._worker is not None:
            self._worker.cancel()
            self._worker = None
        self._timer.stop()
        super().reject()

    # -- showing ------------------------------------------------------------------------------
    def _show(self) -> None:
        state, prepared = self.state, self.prepared
        self.intro.setText(texts.render_message(
            msg("fixgui.demo") if self.demo else msg(INTRO_TEXT.get(self.kind, "fixgui.intro"))))
        picks_file = self.action in NEEDS_FILE
        on_file = self.route == fix_tasks.ROUTE_FILE
        idle = state in (NEED_INPUT, PLANNING, PLANNED, REFUSED)
        chosen = self.given.get(NEEDS_FILE.get(self.action, ""), "")
        self.needs_label.setVisible(picks_file and on_file)
        self.file_label.setVisible(picks_file and on_file)
        self.choose_button.setText(texts.render_message(msg(
            USE_OWN_TEXT.get(self.action, "fixgui.use_archive") if not on_file
            else "fixgui.choose")))
        self.choose_button.setAccessibleName(self.choose_button.text())
        self.choose_button.setVisible(picks_file)
        self.choose_button.setEnabled(idle)
        self.download_button.setVisible(on_file and fix_tasks.ROUTE_DOWNLOAD in self.routes)
        self.download_button.setEnabled(idle)
        self.file_label.setText(chosen or texts.render_message(msg("fixgui.none_chosen")))
        lines = [texts.render_message(m) for m in prepared.messages()] if prepared else []
        self.plan_view.setPlainText("\n".join(f"• {line}" if i else line
                                              for i, line in enumerate(lines)))
        self.plan_heading.setVisible(prepared is not None)
        self.plan_view.setVisible(prepared is not None)
        note = None  # demo mode says so at the top
        if not self.demo and prepared is not None and prepared.needs_admin and state == PLANNED:
            note = msg("fixgui.admin") if self.host.is_windows else self._linux_admin_hint()
        self.note.setText(texts.render_message(note) if note else "")
        self.note.setVisible(note is not None)
        self.progress.setVisible(state in (APPLYING, DONE, UNDOING, PLANNING))
        if state in (PLANNING, UNDOING):
            self.progress.setRange(0, 0)  # busy
        elif state != APPLYING:
            self.progress.setRange(0, 1000)
        self.apply_button.setText(texts.render_message(
            msg(APPLY_TEXT.get(self.kind, "fixgui.apply"))))
        self.apply_button.setVisible(not self.demo and state in (PLANNED, APPLYING))
        self.apply_button.setEnabled(self.can_apply())
        self.cancel_button.setVisible(state == APPLYING)
        self.cancel_button.setEnabled(state == APPLYING and self._worker is not None
                                      and not self._worker.is_cancelled())
        undoable = self.journal is not None or self.back is not None
        self.undo_button.setVisible(not self.demo and undoable and (
            state in (DONE, UNDOING) or (state == FAILED and self.back is not None)))
        self.undo_button.setEnabled((state == DONE and self.journal is not None
                                     and self.journal.status == journals.DONE)
                                    or (state in (DONE, FAILED) and self.back is not None))
        self.close_button.setEnabled(state not in (APPLYING, UNDOING))
        self._show_status()

    def _show_status(self) -> None:
        status = self._status
        if status is None or (self.demo and status == msg("fixgui.demo")):
            self.status.setText("")
            self.status.hide()
            return
        items = status if isinstance(status, list) else [status]
        self.status.setText("\n".join(texts.render_message(m) for m in items))
        self.status.show()

    def status_text(self) -> str:
        return self.status.text() if not self.status.isHidden() else ""

    def plan_text(self) -> str:
        return self.plan_view.toPlainText() if self.prepared is not None else ""

    def output_text(self) -> str:
        return self.output.toPlainText()

    def retranslate_ui(self) -> None:
        title = texts.finding_title(self.finding.code)
        self.setWindowTitle(texts.render_message(msg("fixgui.window_title", title=title)))
        self.heading.setText(title)
        self.needs_label.setText(texts.render_message(msg(NEEDS_TEXT.get(
            self.action, "fixgui.needs.zlibwapi"))))
        self.download_button.setText(texts.render_message(msg("fixgui.download_instead")))
        self.plan_heading.setText(texts.render_message(msg("fixgui.plan_heading")))
        self.cancel_button.setText(texts.render_message(msg("fixgui.cancel")))
        self.undo_button.setText(texts.render_message(msg("fixgui.undo")))
        self.close_button.setText(texts.render_message(msg("fixgui.close")))
        self.output.setAccessibleName(texts.render_message(msg("fixgui.output_name")))
        self.plan_view.setAccessibleName(self.plan_heading.text())
        self._show()
        for button in (self.choose_button, self.download_button, self.apply_button,
                       self.cancel_button, self.undo_button, self.close_button):
            button.setAccessibleName(button.text())

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt override
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate_ui()
        super().changeEvent(event)


class FixController:
    """Opens the commit step for a card's "Fix it…", and re-checks the page afterwards. The
    wizard is attached after it is built (its pages get :meth:`handlers` when they are)."""

    def __init__(self, session: Any) -> None:
        self.session = session
        self.wizard: Any = None
        self.dialog: Optional[FixDialog] = None

    def handlers(self) -> dict[str, Callable[[Finding], None]]:
        """"Fix it…" for every action the wizard has a fix for (file changes and programs)."""
        from wizard.core.fixes import registry

        actions = [*registry.ACTIONS, *getattr(registry, "RUNS", {})]
        return {action: self.open for action in actions}

    def attach(self, wizard: Any) -> None:
        self.wizard = wizard
        wizard.fix_controller = self

    def open(self, finding: Finding) -> FixDialog:
        """Show the commit step for ``finding`` (non-blocking: ``open()``, not ``exec()``)."""
        page = self._page_of(finding)
        dialog = FixDialog(finding, self.session.host, self.wizard.workers,
                           on_changed=lambda: self._recheck(page, finding),
                           parent=self.wizard, session=self.session)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
        self.dialog = dialog
        dialog.open()
        return dialog

    def _page_of(self, finding: Finding) -> Any:
        pages = [*self.wizard.layer_pages.values(), getattr(self.wizard, "summary", None)]
        for page in pages:
            if page is not None and any(card.finding is finding for card in page.cards):
                return page
        return self.wizard.currentPage()

    def _recheck(self, page: Any, finding: Optional[Finding] = None) -> None:
        """The fixed layer again (the session forgets it and every layer above it); a fix
        started from the summary checks the chain again there. A pip/conda fix that made a new
        environment has the session check that one from now on."""
        dialog = self.dialog
        if dialog is not None and dialog.state == DONE:
            fix_tasks.adopt_environment(self.session, dialog.prepared)
        if page is not None and hasattr(page, "start_check"):
            page.start_check(recheck=True)
        elif page is not None and hasattr(page, "recheck_layer") and finding is not None:
            page.recheck_layer(page.layer_of(finding))


def offer_recovery(host: Any, parent: QWidget | None = None,
                   choose: Optional[Callable[[QMessageBox], Any]] = None) -> Optional[str]:
    """At start: an unfinished journal (a crash mid-apply) is offered to finish or roll back.
    Returns ``"finished"``, ``"rolled_back"``, ``"failed"``, ``"later"`` or None when there was
    nothing to do. ``choose(box)`` returns the clicked button (tests); by default the box runs."""
    if not getattr(host, "can_write", False):
        return None
    try:
        pending = journals.unfinished()
    except OSError:
        return None
    if not pending:
        return None
    journal = pending[-1]
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Warning)
    box.setWindowTitle(texts.render_message(msg("fixgui.recover.title")))
    box.setText(texts.render_message(msg("fixgui.recover.text", id=journal.id,
                                         title=journal.plan.title)))
    finish = box.addButton(texts.render_message(msg("fixgui.recover.finish")),
                           QMessageBox.ButtonRole.AcceptRole)
    rollback = box.addButton(texts.render_message(msg("fixgui.recover.rollback")),
                             QMessageBox.ButtonRole.DestructiveRole)
    box.addButton(texts.render_message(msg("fixgui.recover.later")),
                  QMessageBox.ButtonRole.RejectRole)
    box.setDefaultButton(rollback)
    box.finish_button, box.rollback_button = finish, rollback  # type: ignore[attr-defined]
    if choose is None:
        box.exec()
        clicked = box.clickedButton()
    else:
        clicked = choose(box)
    if clicked not in (finish, rollback):
        return "later"
    try:
        if clicked is finish:
            journals.finish(host, journal)
        else:
            journals.roll_back(host, journal, final=journals.ROLLED_BACK)
    except FixError as exc:
        log.warning("recovery of %s failed: %s", journal.id, exc)
        _tell(parent, msg("fixgui.recover.failed", reason=exc.message), choose)
        return "failed"
    done = journal.status == journals.DONE
    _tell(parent, msg("fixgui.recover.finished" if done else "fixgui.recover.rolled_back",
                      id=journal.id), choose)
    return "finished" if done else "rolled_back"


def _tell(parent: QWidget | None, message: Message, choose: Any) -> None:
    box = QMessageBox(parent)
    box.setWindowTitle(texts.render_message(msg("fixgui.recover.title")))
    box.setText(texts.render_message(message))
    if choose is None:
        box.exec()
    else:
        choose(box)
