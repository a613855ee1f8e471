"""The commit step of an automatic fix ("Fix it…" on a finding card), and the offer to finish or
roll back a fix a crash interrupted.

:class:`FixDialog` shows what is needed first (the cuDNN archive, zlibwapi.dll), then the plan in
plain words with the exact files and variables (``Plan.messages()`` in the current language),
then "Make these changes": the apply runs on a worker with progress and Cancel (a cancel puts
back everything), then the result and "Undo". In demo mode (a ReplayHost) it shows the plan and
says that nothing will be changed; no button writes anything. Every text comes from
``resources/messages/fixgui.json`` and is rendered again on a language change.
"""

from __future__ import annotations

import logging
from typing import Any, Callable, Optional

from PySide6.QtCore import QEvent, Qt
from PySide6.QtWidgets import (
    QDialog,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from wizard import texts
from wizard.core.fixes import journal as journals
from wizard.core.fixes.plan import FixError, Plan, from_data
from wizard.core.fixes.registry import builder
from wizard.core.messages import Message, msg
from wizard.core.model import Finding
from wizard.workers import FunctionWorker, WorkerError, WorkerManager

log = logging.getLogger(__name__)

NEEDS_FILE = {"install_cudnn": "archive", "install_zlibwapi": "file"}
"""Actions that need a file from the user first, and the name it is given to the builder as."""

(NEED_INPUT, PLANNING, PLANNED, REFUSED, APPLYING, DONE, FAILED, UNDOING,
 UNDONE) = ("need_input", "planning", "planned", "refused", "applying", "done", "failed",
            "undoing", "undone")


def _reason(error: WorkerError) -> Any:
    exc = error.exception
    return exc.message if isinstance(exc, FixError) else error.text


class FixDialog(QDialog):
    """One fix: what is needed, the plan, confirm, progress with cancel, the result, undo."""

    def __init__(self, finding: Finding, host: Any, workers: WorkerManager,
                 on_changed: Optional[Callable[[], None]] = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.finding = finding
        self.action = finding.fix.action or ""
        self.host = host
        self.workers = workers
        self.on_changed = on_changed
        self.demo = not getattr(host, "can_write", False)
        self.given: dict[str, Any] = {}
        self.plan: Optional[Plan] = None
        self.journal: Optional[journals.Journal] = None
        self.state = NEED_INPUT if self.action in NEEDS_FILE else PLANNING
        self._status: Optional[Message] = None
        self._worker: Optional[FunctionWorker] = None
        self._outcome: dict[str, Any] = {}
        self.setObjectName("FixDialog")
        self.setModal(True)
        self.setMinimumSize(640, 460)
        self.resize(760, 540)

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
        self.choose_button = QPushButton(self)
        self.choose_button.clicked.connect(self.browse)
        file_row = QHBoxLayout()
        file_row.addWidget(self.file_label, 1)
        file_row.addWidget(self.choose_button)

        self.plan_heading = QLabel(self)
        self.plan_heading.setStyleSheet("font-weight: bold;")
        self.plan_view = QPlainTextEdit(self)
        self.plan_view.setReadOnly(True)
        self.plan_view.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)

        self.note = QLabel(self)  # demo mode, administrator rights
        self.note.setWordWrap(True)
        self.note.setStyleSheet("font-weight: bold;")
        self.progress = QProgressBar(self)
        self.progress.setRange(0, 1000)
        self.progress.setTextVisible(False)
        self.status = QLabel(self)  # progress text, the result
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        self.apply_button = QPushButton(self)
        self.apply_button.clicked.connect(self.apply)
        self.cancel_button = QPushButton(self)
        self.cancel_button.clicked.connect(self.cancel)
        self.undo_button = QPushButton(self)
        self.undo_button.clicked.connect(self.undo)
        self.close_button = QPushButton(self)
        self.close_button.clicked.connect(self.reject)
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
        layout.addWidget(self.plan_view, 1)
        layout.addWidget(self.note)
        layout.addWidget(self.progress)
        layout.addWidget(self.status)
        layout.addLayout(buttons)
        self.retranslate_ui()
        if self.state == PLANNING:
            self._start_planning()

    # -- steps --------------------------------------------------------------------------------
    def browse(self) -> None:
        """The file the fix needs, from a file dialog."""
        if self.action == "install_cudnn":
            title = texts.render_message(msg("fixgui.choose_archive_title"))
            patterns = (texts.render_message(msg("fixgui.choose_archive_filter"))
                        + " (*.zip *.tar.xz *.tar.gz *.tgz *.tar);;"
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
        if self.state not in (NEED_INPUT, PLANNED, REFUSED):
            return
        self.given[NEEDS_FILE[self.action]] = path
        self._start_planning()

    def _start_planning(self) -> None:
        self.state, self.plan, self._status = PLANNING, None, msg("fixgui.planning")
        build = builder(self.action)
        if build is None:  # the card offers "Fix it" only for registered actions
            self.state, self._status = REFUSED, msg("fixgui.refused", reason=self.action)
            self._show()
            return
        params, given = dict(self.finding.fix.action_params), dict(self.given)
        self._worker = self.workers.start(
            lambda progress, cancelled: build(self.host, params, given),
            slots={"sig_result": self._on_planned, "sig_error": self._on_plan_error})
        self._show()

    def _on_planned(self, plan: Plan) -> None:
        if not self._current():
            return
        self._worker, self.plan, self.state = None, plan, PLANNED
        self._status = msg("fixgui.demo") if self.demo else None
        self._show()

    def _on_plan_error(self, error: WorkerError) -> None:
        if not self._current():
            return
        self._worker = None
        self.state, self._status = REFUSED, msg("fixgui.refused", reason=_reason(error))
        self._show()

    def apply(self) -> None:
        """Make the changes (never in demo mode)."""
        if (self.state != PLANNED or self.plan is None or self.demo or self.plan.empty
                or self.needs_sudo()):
            return
        plan, host = self.plan, self.host
        self.state, self._status = APPLYING, msg("fixgui.applying", item="…")
        self.progress.setValue(0)
        self._outcome = outcome = {}
        self._worker = self.workers.start(
            lambda progress, cancelled: _apply(host, plan, progress, cancelled, outcome),
            slots={"sig_progress": self._on_progress, "sig_result": self._on_applied,
                   "sig_error": self._on_apply_error, "sig_cancelled": self._on_cancelled})
        self._show()

    def cancel(self) -> None:
        """Cancel a running apply (everything done so far is put back), else close."""
        if self.state == APPLYING and self._worker is not None:
            self._worker.cancel()
            self._status = msg("fixgui.cancelling")
            self.cancel_button.setEnabled(False)
            self._show_status()
            return
        self.reject()

    def _on_progress(self, fraction: float, item: str) -> None:
        if self._current() and self.state == APPLYING and not self._worker.is_cancelled():
            self.progress.setValue(int(fraction * 1000))
            self._status = msg("fixgui.applying", item=item or "…")
            self._show_status()

    def _on_applied(self, outcome: tuple) -> None:
        if not self._current():
            return
        self._worker = None
        self.journal, ok, seen = outcome
        self.state = DONE
        self._status = [msg("fixgui.done", id=self.journal.id if self.journal else "?"), seen,
                        msg("fixgui.rechecking")]
        self.progress.setValue(1000)
        self._show()
        self._changed()

    def _on_apply_error(self, error: WorkerError) -> None:
        if not self._current():
            return
        self._worker = None
        self.state, self._status = FAILED, msg("fixgui.failed", reason=_reason(error))
        self._show()

    def _on_cancelled(self) -> None:
        if not self._current():
            return
        if "result" in self._outcome:  # the cancel came after the last change: it is done
            self._on_applied(self._outcome["result"])
            return
        self._worker = None
        self.state, self._status = FAILED, msg("fix.cancelled")
        self.progress.setValue(0)
        self._show()

    def undo(self) -> None:
        """Put back the state from before this fix."""
        if self.state != DONE or self.journal is None or self.demo:
            return
        host, journal = self.host, self.journal
        self.state, self._status = UNDOING, msg("fixgui.undoing")
        self._worker = self.workers.start(
            lambda progress, cancelled: _undo(host, journal),
            slots={"sig_result": self._on_undone, "sig_error": self._on_undo_error})
        self._show()

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
        self._worker = None
        self.state, self._status = DONE, msg("fixgui.undo_failed", reason=_reason(error))
        self._show()

    def needs_sudo(self) -> bool:
        """A root-owned destination on Linux: the wizard does not run as root, so the dialog
        says what to run instead and offers no button."""
        return bool(self.plan is not None and self.plan.needs_admin
                    and not self.host.is_windows)

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
        """Closing (Esc, the close button) while changes run cancels them first; the dialog
        stays until the rollback is done."""
        if self.state == APPLYING:
            self.cancel()
            return
        if self.state == UNDOING:
            return
        if self._worker is not None:
            self._worker.cancel()
            self._worker = None
        super().reject()

    # -- showing ------------------------------------------------------------------------------
    def _show(self) -> None:
        state, plan = self.state, self.plan
        needs = self.action in NEEDS_FILE
        chosen = self.given.get(NEEDS_FILE.get(self.action, ""), "")
        self.needs_label.setVisible(needs)
        self.file_label.setVisible(needs)
        self.choose_button.setVisible(needs)
        self.choose_button.setEnabled(state in (NEED_INPUT, PLANNED, REFUSED))
        self.file_label.setText(chosen or texts.render_message(msg("fixgui.none_chosen")))
        lines = [texts.render_message(m) for m in plan.messages()] if plan else []
        self.plan_view.setPlainText("\n".join(f"• {line}" if i else line
                                              for i, line in enumerate(lines)))
        self.plan_heading.setVisible(plan is not None)
        self.plan_view.setVisible(plan is not None)
        note = None  # demo mode says so at the top
        if not self.demo and plan is not None and plan.needs_admin and state == PLANNED:
            note = msg("fixgui.admin") if self.host.is_windows else self._linux_admin_hint()
        self.note.setText(texts.render_message(note) if note else "")
        self.note.setVisible(note is not None)
        self.progress.setVisible(state in (APPLYING, DONE, UNDOING, PLANNING))
        if state in (PLANNING, UNDOING):
            self.progress.setRange(0, 0)  # busy
        else:
            self.progress.setRange(0, 1000)
        can_apply = (state == PLANNED and plan is not None and not plan.empty
                     and not self.demo and not self.needs_sudo())
        self.apply_button.setVisible(not self.demo and state in (PLANNED, APPLYING))
        self.apply_button.setEnabled(can_apply)
        self.cancel_button.setVisible(state == APPLYING)
        self.cancel_button.setEnabled(state == APPLYING and self._worker is not None
                                      and not self._worker.is_cancelled())
        self.undo_button.setVisible(not self.demo and state in (DONE, UNDOING))
        self.undo_button.setEnabled(state == DONE and self.journal is not None
                                    and self.journal.status == journals.DONE)
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
        return self.plan_view.toPlainText() if self.plan is not None else ""

    def retranslate_ui(self) -> None:
        title = texts.finding_title(self.finding.code)
        self.setWindowTitle(texts.render_message(msg("fixgui.window_title", title=title)))
        self.heading.setText(title)
        self.intro.setText(texts.render_message(
            msg("fixgui.demo") if self.demo else msg("fixgui.intro")))
        self.needs_label.setText(texts.render_message(
            msg("fixgui.needs.archive" if self.action == "install_cudnn"
                else "fixgui.needs.zlibwapi")))
        self.choose_button.setText(texts.render_message(msg("fixgui.choose")))
        self.plan_heading.setText(texts.render_message(msg("fixgui.plan_heading")))
        self.apply_button.setText(texts.render_message(msg("fixgui.apply")))
        self.cancel_button.setText(texts.render_message(msg("fixgui.cancel")))
        self.undo_button.setText(texts.render_message(msg("fixgui.undo")))
        self.close_button.setText(texts.render_message(msg("fixgui.close")))
        self._show()

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt override
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate_ui()
        super().changeEvent(event)


def _apply(host: Any, plan: Plan, progress: Any, cancelled: Any,
           outcome: dict[str, Any]) -> tuple:
    """On the worker: apply (elevated where the plan needs it), then look again. ``outcome``
    keeps the result even when a cancel arrives after the last change (too late to stop it)."""
    from wizard.core.fixes.verify import verify

    if plan.needs_admin:
        from wizard.core.fixes.elevate import run_elevated

        result = run_elevated(plan)
        if not result.get("ok"):
            raise FixError(from_data(result.get("message")) or msg("fix.refuse.elevation_declined"))
        journal = journals.last_undoable()
    else:
        journal = journals.apply(host, plan, progress, cancelled)
    outcome["result"] = (journal, True, msg("fixgui.rechecking"))
    ok, seen = verify(host, plan)
    outcome["result"] = (journal, ok, seen)
    return outcome["result"]


def _undo(host: Any, journal: journals.Journal) -> bool:
    if journal.plan.needs_admin:
        from wizard.core.fixes.elevate import undo_elevated

        undo_elevated(journal.id)
        return journals.Journal.load(journal.folder).status == journals.UNDONE
    return journals.undo(host, journal)


class FixController:
    """Opens the commit step for a card's "Fix it…", and re-checks the page afterwards. The
    wizard is attached after it is built (its pages get :meth:`handlers` when they are)."""

    def __init__(self, session: Any) -> None:
        self.session = session
        self.wizard: Any = None
        self.dialog: Optional[FixDialog] = None

    def handlers(self) -> dict[str, Callable[[Finding], None]]:
        from wizard.core.fixes.registry import ACTIONS

        return {action: self.open for action in ACTIONS}

    def attach(self, wizard: Any) -> None:
        self.wizard = wizard
        wizard.fix_controller = self

    def open(self, finding: Finding) -> FixDialog:
        """Show the commit step for ``finding`` (non-blocking: ``open()``, not ``exec()``)."""
        page = self._page_of(finding)
        dialog = FixDialog(finding, self.session.host, self.wizard.workers,
                           on_changed=lambda: self._recheck(page), parent=self.wizard)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
        self.dialog = dialog
        dialog.open()
        return dialog

    def _page_of(self, finding: Finding) -> Any:
        for page in self.wizard.layer_pages.values():
            if any(card.finding is finding for card in page.cards):
                return page
        return self.wizard.currentPage()

    def _recheck(self, page: Any) -> None:
        """The fixed layer again (the session forgets it and every layer above it)."""
        if page is not None and hasattr(page, "start_check"):
            page.start_check(recheck=True)


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
