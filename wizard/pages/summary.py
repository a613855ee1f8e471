"""The last page: the whole chain at a glance, what to fix first, and the report to export
(Markdown for a bug report, JSON to save). Any layer can be opened from here."""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Optional

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFileDialog,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSizePolicy,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from wizard import texts
from wizard.core import codes
from wizard.core.messages import Message, msg
from wizard.core.model import FAIL, OK, UNKNOWN, WARN, Finding, Report
from wizard.core.session import CheckSession
from wizard.pages.base import WizardPageBase
from wizard.widgets import fix_tasks
from wizard.widgets.explain_dialog import OPEN_SHORTCUT
from wizard.widgets.finding_card import FindingCard, copy_text
from wizard.widgets.progress import ProgressArea
from wizard.widgets.status import RUNNING, StatusBadge, status_icon
from wizard.workers import FunctionWorker, WorkerError, WorkerManager

LAYER_ROLE = Qt.ItemDataRole.UserRole


class SummaryPage(WizardPageBase):
    def __init__(
        self,
        session: CheckSession,
        workers: WorkerManager,
        open_layer: Optional[Callable[[str], None]] = None,
        parent: QWidget | None = None,
        open_monitor: Optional[Callable[[], None]] = None,
    ) -> None:
        super().__init__(session, parent)
        self.workers = workers
        self._open_layer = open_layer
        self._worker: Optional[FunctionWorker] = None
        self._report: Optional[Report] = None
        self._error: Optional[WorkerError] = None
        self.cards: list[FindingCard] = []
        self._fix_items: Optional[list[fix_tasks.Item]] = None
        """Fix everything's overall plan for the report shown (None: being worked out)."""
        self._fix_tip: Optional[Message] = None
        self._fix_items_for: Optional[str] = None
        """The report the overall plan was worked out for (its JSON): the same findings again
        (the page shown once more) reuse it instead of probing the environment again."""
        self._plan_worker: Optional[FunctionWorker] = None
        self.fix_all_dialog = None

        self.badge = StatusBadge(UNKNOWN, self)
        self.verdict = QLabel(self)
        self.verdict.setWordWrap(True)
        font = self.verdict.font()
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.15)
        self.verdict.setFont(font)
        top = QHBoxLayout()
        top.addWidget(self.badge, 0, Qt.AlignmentFlag.AlignTop)
        top.addWidget(self.verdict, 1)
        self.body.addLayout(top)
        self.target_label = QLabel(self)
        self.target_label.setWordWrap(True)
        self.target_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.body.addWidget(self.target_label)
        fix_row = QHBoxLayout()
        self.fix_all_button = QPushButton(self)
        self.fix_all_button.setObjectName("fix_everything")
        self.fix_all_button.clicked.connect(self.open_fix_everything)
        self.fix_all_button.setSizePolicy(QSizePolicy.Policy.Maximum, QSizePolicy.Policy.Fixed)
        fix_row.addWidget(self.fix_all_button, 0, Qt.AlignmentFlag.AlignLeft)
        self.fix_all_reason = QLabel(self)  # the tooltip's reason, visible while disabled
        self.fix_all_reason.setWordWrap(True)
        self.fix_all_reason.setObjectName("fix_everything_reason")
        fix_row.addWidget(self.fix_all_reason, 1)
        self.body.addLayout(fix_row)

        self.progress = ProgressArea(self)
        self.progress.sig_stop_requested.connect(self.cancel)
        self.progress.hide()
        self.body.addWidget(self.progress)

        self.chain_box = QGroupBox(self)
        chain_layout = QVBoxLayout(self.chain_box)
        self.chain = QTreeWidget(self.chain_box)
        self.chain.setColumnCount(3)
        self.chain.setRootIsDecorated(False)
        self.chain.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.chain.header().setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        self.chain.header().setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        self.chain.header().setStretchLastSection(True)
        self.chain.itemActivated.connect(lambda *_: self.open_selected_layer())
        self.chain.itemSelectionChanged.connect(self._update_buttons)
        chain_layout.addWidget(self.chain)
        chain_buttons = QHBoxLayout()
        self.open_button = QPushButton(self.chain_box)
        self.open_button.clicked.connect(self.open_selected_layer)
        chain_buttons.addStretch(1)
        chain_buttons.addWidget(self.open_button)
        chain_layout.addLayout(chain_buttons)
        self.body.addWidget(self.chain_box)

        self.first_box = QGroupBox(self)
        self.first_layout = QVBoxLayout(self.first_box)
        self.body.addWidget(self.first_box)

        self.export_box = QGroupBox(self)
        export = QHBoxLayout(self.export_box)
        self.copy_button = QPushButton(self.export_box)
        self.copy_button.clicked.connect(self.copy_markdown)
        self.save_button = QPushButton(self.export_box)
        self.save_button.clicked.connect(self._on_save_clicked)
        self.export_status = QLabel(self.export_box)
        # "Explain an error log…" (Ctrl+E, the wizard's shortcut): a log from the user's own
        # program, explained with what this check found (wizard/widgets/explain_dialog.py)
        self.explain_button = QPushButton(self.export_box)
        self.explain_button.setObjectName("explain_error_log")
        self.explain_button.clicked.connect(self.open_explain)
        self.explain_dialog = None
        export.addWidget(self.copy_button)
        export.addWidget(self.save_button)
        export.addWidget(self.explain_button)
        export.addWidget(self.export_status, 1)
        self.body.addWidget(self.export_box)

        # The monitor and the benchmark (a later issue) add their entry points here.
        self.next_steps = QVBoxLayout()
        self.body.addLayout(self.next_steps)
        self.monitor_button = QPushButton(self)
        self.monitor_button.setObjectName("open_monitor")
        self.monitor_button.clicked.connect(lambda: open_monitor() if open_monitor else None)
        self.monitor_button.setVisible(open_monitor is not None)
        monitor_row = QHBoxLayout()
        monitor_row.addWidget(self.monitor_button)
        monitor_row.addStretch(1)
        self.next_steps.addLayout(monitor_row)
        self.body.addStretch(1)
        self._show()
        self.retranslate_ui()

    @property
    def report(self) -> Optional[Report]:
        return self._report

    def is_running(self) -> bool:
        return self._worker is not None

    # -- QWizardPage -------------------------------------------------------------------------
    def initializePage(self) -> None:  # noqa: N802 - Qt override
        self.start()

    def cleanupPage(self) -> None:  # noqa: N802 - Qt override
        self.cancel()

    def isComplete(self) -> bool:  # noqa: N802 - Qt override
        return self._worker is None

    # -- work ----------------------------------------------------------------------------------
    def start(self, recheck: Optional[str] = None) -> None:
        """Put the report together (with ``recheck``: check that layer again first)."""
        self.cancel()
        self._report, self._error = None, None
        session = self.session

        def work(progress, cancelled):  # noqa: ANN001, ANN202 - the worker's signature
            if recheck:
                session.recheck(recheck, progress, cancelled)
            return session.run_all(progress, cancelled)

        self._worker = self.workers.start(
            work,
            slots={
                "sig_progress": self._on_worker_progress,
                "sig_result": self._on_worker_result,
                "sig_error": self._on_worker_error,
                "sig_cancelled": self._on_worker_cancelled,
            },
        )
        self.progress.start()
        self._show()
        self.completeChanged.emit()

    def recheck_layer(self, layer: str) -> None:
        """After a fix started from a card here: that layer again, then the whole chain (and
        Fix everything's plan afresh)."""
        self._fix_items_for = None
        self.start(recheck=layer)

    def layer_of(self, finding: Finding) -> str:
        """The layer ``finding`` was reported in (the explain engine files some elsewhere)."""
        if self._report is not None:
            for layer in self._report.layers:
                if any(f is finding for f in layer.findings):
                    return layer.layer
        return codes.layer_of(finding.code)

    def cancel(self) -> None:
        plan, self._plan_worker = self._plan_worker, None
        if plan is not None:
            plan.cancel()
        worker, self._worker = self._worker, None
        if worker is not None:
            worker.cancel()
            self.progress.hide()
            self._show()
            self.completeChanged.emit()

    def _from_current(self) -> bool:
        return self._worker is not None and self.sender() is self._worker.signals

    def _on_worker_progress(self, fraction: float, key: str) -> None:
        if self._from_current():
            self.progress.set_progress(fraction, key)

    def _on_worker_result(self, report: Report) -> None:
        if self._from_current():
            self._worker, self._report = None, report
            self._done()

    def _on_worker_error(self, error: WorkerError) -> None:
        if self._from_current():
            self._worker, self._error = None, error
            self._done()

    def _on_worker_cancelled(self) -> None:
        if self._from_current():
            self._worker = None
            self._done()

    def _done(self) -> None:
        self.progress.hide()
        self._show()
        self.completeChanged.emit()
        self._plan_fixes()

    # -- Fix everything --------------------------------------------------------------------------
    def _plan_fixes(self) -> None:
        """Work out Fix everything's overall plan for the report shown (on a worker: a pip
        plan may probe the environment)."""
        report = self._report
        key = _report_key(report)
        if key is not None and key == self._fix_items_for and self._fix_items is not None:
            self._show_fix_all()
            return
        self._fix_items, self._fix_tip, self._fix_items_for = None, None, None
        if report is None or report.ready:
            self._fix_items = []
            self._show_fix_all()
            return
        host, given = self.session.host, fix_tasks.session_given(self.session)
        self._plan_worker = self.workers.start(
            lambda progress, cancelled: fix_tasks.plan_everything(host, report, cancelled,
                                                                  given),
            slots={"sig_result": self._on_fixes_planned, "sig_error": self._on_fixes_error})
        self._show_fix_all()

    def _on_fixes_planned(self, items: list) -> None:
        if self._plan_worker is None or self.sender() is not self._plan_worker.signals:
            return
        self._plan_worker, self._fix_items = None, items
        self._fix_items_for = _report_key(self._report)
        self._show_fix_all()

    def _on_fixes_error(self, error: WorkerError) -> None:
        if self._plan_worker is None or self.sender() is not self._plan_worker.signals:
            return
        self._plan_worker, self._fix_items = None, []
        self._fix_tip = msg("fixgui.all.error", reason=error.text)
        self._show_fix_all()

    def fix_all_tip(self) -> Message:
        """Why Fix everything is (not) available now."""
        items, report = self._fix_items, self._report
        if self._fix_tip is not None:
            return self._fix_tip
        if report is not None and report.ready:
            return msg("fixgui.all.tip_ready")
        if items is None:
            return msg("fixgui.all.tip_planning")
        left = fix_tasks.left_to_user(report) if report is not None else None
        if fix_tasks.runnable(items):
            tip = msg("fixgui.all.tip", count=len(items))
            if left is not None:
                tip = msg("fixgui.all.tip_then", first=tip, title=codes.title(left[1].code))
            return tip
        if items and items[0].waits is not None:
            return msg("fixgui.all.tip_first_refused", reason=items[0].waits)
        if left is not None and fix_tasks.has_builder(left[1].fix.action):
            return msg("fixgui.all.tip_needs_you", title=codes.title(left[1].code))
        return msg("fixgui.all.tip_none")

    def _show_fix_all(self) -> None:
        report = self._report
        shown = report is not None and self._worker is None and not report.ready
        enabled = shown and self._fix_items is not None and fix_tasks.runnable(self._fix_items)
        tip = texts.render_message(self.fix_all_tip())
        self.fix_all_button.setVisible(shown)
        self.fix_all_button.setEnabled(enabled)
        self.fix_all_button.setToolTip(tip)
        self.fix_all_button.setAccessibleDescription(tip)
        self.fix_all_reason.setText("" if enabled else tip)
        self.fix_all_reason.setVisible(shown and not enabled)

    def _after_fixes(self) -> None:
        """After Fix everything: the report again, and its plan worked out afresh."""
        self._fix_items_for = None
        self.start()

    def open_fix_everything(self):  # noqa: ANN201 - the dialog, for tests
        """The overall plan and its one confirmation (non-blocking: ``open()``)."""
        items = self._fix_items
        if not items or not fix_tasks.runnable(items) or self._worker is not None:
            return None
        from PySide6.QtCore import Qt as _Qt

        from wizard.widgets.fix_all import FixAllDialog

        dialog = FixAllDialog(self.session, items, self.workers,
                              on_finished=lambda run: self._after_fixes(), parent=self)
        dialog.setAttribute(_Qt.WidgetAttribute.WA_DeleteOnClose, True)
        self.fix_all_dialog = dialog
        dialog.open()
        return dialog

    # -- the chain and the verdict ----------------------------------------------------------------
    def _show(self) -> None:
        running = self._worker is not None
        report = self._report
        self.chain_box.setVisible(report is not None)
        self.export_box.setVisible(report is not None)
        self.first_box.setVisible(False)
        self._clear_cards()
        self._show_fix_all()
        if running:
            self.badge.set_status(RUNNING)
            self.verdict.setText(self.tr("Putting the results together…"))
            self.target_label.setText("")
            return
        if self._error is not None:
            from wizard.pages.layer_page import error_finding

            self.badge.set_status(UNKNOWN)
            self.verdict.setText(self.tr("The check could not finish."))
            self._add_cards([error_finding("summary", self._error)])
            return
        if report is None:
            self.badge.set_status(UNKNOWN)
            self.verdict.setText(self.tr("The check was stopped before it finished."))
            return
        self._fill_chain(report)
        self._show_verdict(report)

    def _fill_chain(self, report: Report) -> None:
        self.chain.clear()
        for layer in report.layers:
            summary = texts.layer_summary(layer)
            item = QTreeWidgetItem(
                [texts.layer_title(layer.layer), texts.status_text(layer.status), summary]
            )
            item.setIcon(1, status_icon(layer.status))
            item.setData(0, LAYER_ROLE, layer.layer)
            item.setToolTip(2, summary)
            self.chain.addTopLevelItem(item)
        self._fit_chain()
        self._update_buttons()

    def _fit_chain(self) -> None:
        """Exactly as tall as its rows: the chain is short and should read at a glance."""
        rows = max(1, self.chain.topLevelItemCount())
        first = self.chain.topLevelItem(0)
        row_height = self.chain.visualItemRect(first).height() if first else 0
        row_height = max(row_height, self.chain.fontMetrics().height() + 6, 18)
        frame = 2 * self.chain.frameWidth() + 4
        self.chain.setFixedHeight(self.chain.header().sizeHint().height() + rows * row_height
                                  + frame)

    def _show_verdict(self, report: Report) -> None:
        blocking = report.layer(report.blocking_layer) if report.blocking_layer else None
        if report.ready:
            self.badge.set_status(OK)
            self.verdict.setText(
                self.tr("Ready: TensorFlow {tf} sees your GPU and computes on it.").format(
                    tf=report.target.tensorflow)
            )
        elif "no_nvidia_gpu" in report.codes():
            self.badge.set_status(FAIL)
            self.verdict.setText(
                self.tr("Not ready: this computer has no NVIDIA GPU, so TensorFlow can only use "
                        "the CPU here.")
            )
        elif not report.target.gpu_supported and report.blocking_layer == "tensorflow":
            self.badge.set_status(FAIL)
            self.verdict.setText(
                self.tr("Not ready: TensorFlow {tf} has no GPU support on native Windows. "
                        "See below for the two ways out.").format(tf=report.target.tensorflow)
            )
        elif blocking is not None:
            self.badge.set_status(FAIL)
            self.verdict.setText(
                self.tr("Not ready yet. Start with the {layer} layer: fix what is listed below, "
                        "then check again.").format(layer=texts.layer_title(blocking.layer))
            )
        else:
            status = WARN if any(layer.status == WARN for layer in report.layers) else UNKNOWN
            self.badge.set_status(status)
            self.verdict.setText(
                self.tr("Not ready yet: TensorFlow did not run on the GPU. See the warnings "
                        "below.")
            )
        target = report.target
        env = report.python or self.tr("no Python environment with TensorFlow")
        chosen = self.session.options.tensorflow
        if chosen and chosen == _recommended_series(self.session.os_kind):
            reason = self.tr("the recommended version, preselected on the first page")
        elif chosen:
            reason = self.tr("chosen on the first page")
        else:
            reason = texts.render_message(target.reason)
        self.target_label.setText(
            self.tr("Target: TensorFlow {tf} ({reason}). Checked environment: {env}").format(
                tf=target.tensorflow, reason=reason, env=env)
        )
        if blocking is not None:
            findings = [f for f in blocking.findings if f.severity == "fail"] or blocking.findings
        else:
            findings = [f for layer in report.layers for f in layer.findings
                        if f.severity in ("fail", "warn")]
        if findings:
            self.first_box.setVisible(True)
            self._add_cards(findings)

    def _clear_cards(self) -> None:
        for card in self.cards:
            self.first_layout.removeWidget(card)
            card.deleteLater()
        self.cards = []

    def _add_cards(self, findings: list[Finding]) -> None:
        self.first_box.setVisible(bool(findings))
        handlers = getattr(self.wizard(), "fix_actions", None) or {}
        for finding in findings:
            card = FindingCard(finding, handlers.get(finding.fix.action or ""), self.first_box)
            self.first_layout.addWidget(card)
            self.cards.append(card)

    # -- opening a layer, exporting ----------------------------------------------------------------
    def selected_layer(self) -> Optional[str]:
        items = self.chain.selectedItems()
        return str(items[0].data(0, LAYER_ROLE)) if items else None

    def open_selected_layer(self) -> None:
        layer = self.selected_layer()
        if layer and self._open_layer is not None and layer in texts_layers():
            self._open_layer(layer)

    def _update_buttons(self) -> None:
        layer = self.selected_layer()
        self.open_button.setEnabled(bool(layer) and layer in texts_layers())

    def markdown(self) -> str:
        from wizard.core import report as report_format

        return report_format.to_markdown(self._report) if self._report else ""

    def copy_markdown(self) -> None:
        if self._report is None:
            return
        copy_text(self.markdown())
        self.export_status.setText(self.tr("Copied as Markdown: paste it into a bug report."))

    def open_explain(self):  # noqa: ANN201 - the dialog, for tests
        """Explain an error log the user pastes, with this machine's OS, TensorFlow and facts
        preselected (non-blocking; not while the check runs: the machine's facts come from it)."""
        if self._worker is not None or not self.isVisible():
            return None
        from wizard.widgets import explain_dialog

        self.explain_dialog = explain_dialog.open_for_session(self.session, self.workers, self)
        return self.explain_dialog

    @classmethod
    def ask_save_path(cls, parent: QWidget, suggested: str) -> str:
        """The file to save the JSON report to ("" when cancelled). Tests replace this."""
        path, _filter = QFileDialog.getSaveFileName(
            parent,
            QCoreApplication.translate("SummaryPage", "Save the report"),
            suggested,
            QCoreApplication.translate("SummaryPage", "JSON report (*.json)"),
        )
        return path

    def _on_save_clicked(self) -> None:
        if self._report is None:
            return
        path = type(self).ask_save_path(self, str(Path.home() / "gpu-wizard-report.json"))
        if path:
            self.save_json(path)

    def save_json(self, path: str) -> bool:
        from wizard.core import report as report_format

        if self._report is None:
            return False
        try:
            Path(path).write_text(report_format.to_json(self._report) + "\n", encoding="utf-8")
        except OSError as exc:
            self.export_status.setText(
                self.tr("Could not save {path}: {error}").format(
                    path=path, error=exc.strerror or exc)
            )
            return False
        self.export_status.setText(self.tr("Saved {path}").format(path=path))
        return True

    def retranslate_ui(self) -> None:
        self.setTitle(self.tr("Summary"))
        self.setSubTitle(self.tr("The whole chain at a glance, and what to do first."))
        self.chain_box.setTitle(self.tr("The chain, bottom up"))
        self.chain.setHeaderLabels([self.tr("Layer"), self.tr("Status"), self.tr("Found")])
        self.chain.setAccessibleName(self.tr("Results per layer"))
        self.open_button.setText(self.tr("&Open this layer"))
        self.open_button.setAccessibleName(self.tr("Open the selected layer's page"))
        self.first_box.setTitle(self.tr("What to do first"))
        self.export_box.setTitle(self.tr("Report"))
        self.copy_button.setText(self.tr("&Copy as Markdown"))
        self.copy_button.setAccessibleName(self.tr("Copy the report as Markdown"))
        self.save_button.setText(self.tr("&Save as JSON…"))
        self.save_button.setAccessibleName(self.tr("Save the report as a JSON file"))
        self.explain_button.setText(texts.render_message(msg("explaingui.button")))
        self.explain_button.setAccessibleName(texts.render_message(msg("explaingui.button_name")))
        self.explain_button.setToolTip(texts.render_message(msg(
            "explaingui.button_tip",
            shortcut=OPEN_SHORTCUT.toString(QKeySequence.SequenceFormat.NativeText))))
        self.export_status.setText("")
        self.monitor_button.setText(texts.render_message(msg("monitor.button.open")))
        self.monitor_button.setAccessibleName(self.monitor_button.text())
        self.fix_all_button.setText(texts.render_message(msg("fixgui.all.button")))
        self.fix_all_button.setAccessibleName(
            texts.render_message(msg("fixgui.all.window_title")))
        self._show()


def _report_key(report: Optional[Report]) -> Optional[str]:
    if report is None:
        return None
    import json

    return json.dumps(report.to_dict(), sort_keys=True, default=str)


def texts_layers() -> tuple[str, ...]:
    from wizard.core.model import LAYERS

    return LAYERS


def _recommended_series(os_kind: str) -> str:
    from wizard.core import knowledge

    return knowledge.series(knowledge.recommended_tf(os_kind))
