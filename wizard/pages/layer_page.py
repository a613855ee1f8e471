"""One wizard page per layer of the chain: runs the layer on a worker and shows its result.

The page asks the :class:`~wizard.core.session.CheckSession` for its layer's result (computing
it, and any lower layer not yet checked, on a worker thread), then shows a status badge, the
facts found and one card per finding. "Check again" re-runs the layer. Back, Stop and closing
the wizard cancel a running check; a result that arrives after a cancel is dropped.
"""

from __future__ import annotations

import logging
from typing import Callable, Optional

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from wizard import texts
from wizard.core.model import LAYERS, UNKNOWN, Finding, LayerResult
from wizard.core.session import CheckSession
from wizard.pages.base import WizardPageBase
from wizard.pages.ids import LAYER_PAGES, PageId
from wizard.widgets.facts import FactsView
from wizard.widgets.finding_card import FindingCard
from wizard.widgets.progress import ProgressArea
from wizard.widgets.status import RUNNING, StatusBadge
from wizard.workers import FunctionWorker, WorkerError, WorkerManager

log = logging.getLogger(__name__)

ActionHandlers = dict[str, Callable[[Finding], None]]

IDLE, RUNNING_STATE, DONE, ERROR, STOPPED = "idle", "running", "done", "error", "stopped"


def error_finding(layer: str, error: WorkerError) -> Finding:
    """A check that raised outside the layer (preparing the environment, a bug in the page's
    work): shown as the same ``check_failed`` card the engine uses for a layer that raised."""
    return Finding(
        "check_failed",
        severity="warn",
        params={"error": error.text, "layer": layer},
        evidence=error.traceback,
    )


class LayerPage(WizardPageBase):
    """The page of one layer (``gpu``, ``driver``, ``cuda``, ``cudnn``, ``tensorflow``)."""

    def __init__(
        self,
        layer: str,
        session: CheckSession,
        workers: WorkerManager,
        action_handlers: Optional[ActionHandlers] = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(session, parent)
        self.layer = layer
        self.workers = workers
        self.action_handlers = action_handlers if action_handlers is not None else {}
        self._worker: Optional[FunctionWorker] = None
        self._state = IDLE
        self._result: Optional[LayerResult] = None
        self._error: Optional[WorkerError] = None
        self.cards: list[FindingCard] = []
        self._shown: tuple = ()

        self.badge = StatusBadge(UNKNOWN, self)
        self.summary = QLabel(self)
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.recheck_button = QPushButton(self)
        self.recheck_button.clicked.connect(self._on_recheck_clicked)
        header = QHBoxLayout()
        header.addWidget(self.badge, 0, Qt.AlignmentFlag.AlignTop)
        header.addWidget(self.summary, 1)
        header.addWidget(self.recheck_button, 0, Qt.AlignmentFlag.AlignTop)
        self.body.addLayout(header)

        self.target_label = QLabel(self)
        self.target_label.setWordWrap(True)
        self.body.addWidget(self.target_label)

        self.progress = ProgressArea(self)
        self.progress.sig_stop_requested.connect(self.stop_check)
        self.progress.hide()
        self.body.addWidget(self.progress)

        self.extra = QVBoxLayout()  # subclasses put their own controls here (TF: environments)
        self.body.addLayout(self.extra)

        self.findings_box = QGroupBox(self)
        self.findings_layout = QVBoxLayout(self.findings_box)
        self.no_findings = QLabel(self.findings_box)
        self.no_findings.setWordWrap(True)
        self.findings_layout.addWidget(self.no_findings)
        self.body.addWidget(self.findings_box)

        self.facts_box = QGroupBox(self)
        facts_layout = QVBoxLayout(self.facts_box)
        self.facts = FactsView(self.facts_box)
        self.facts.setMinimumHeight(140)
        facts_layout.addWidget(self.facts)
        self.body.addWidget(self.facts_box)
        self.body.addStretch(1)
        self._show_state()
        self.retranslate_ui()

    # -- state the tests and the wizard read ------------------------------------------------
    @property
    def state(self) -> str:
        return self._state

    @property
    def result(self) -> Optional[LayerResult]:
        return self._result

    def is_running(self) -> bool:
        return self._state == RUNNING_STATE

    # -- QWizardPage ---------------------------------------------------------------------------
    def initializePage(self) -> None:  # noqa: N802 - Qt override
        cached = self.session.result(self.layer)
        if cached is not None:
            self._result, self._error, self._state = cached, None, DONE
            self._show_state()
        else:
            self.start_check()

    def refresh_from_session(self) -> None:
        """Catch up with results that changed while the page was not current (the TensorFlow
        layer adds what the loader's log says to lower layers; choosing another environment can
        change the target and drop every result). The wizard calls this when the page becomes
        current (Back does not call initializePage); never from a show event, which QWizard
        also sends when it merely updates its buttons."""
        if self._state == RUNNING_STATE:
            return
        cached = self.session.result(self.layer)
        if cached is None:
            if self._result is not None:
                self._result = None
                self.start_check()
            return
        if cached is not self._result or self._shown != _signature(cached):
            self._result, self._error, self._state = cached, None, DONE
            self._show_state()
            self.completeChanged.emit()

    def cleanupPage(self) -> None:  # noqa: N802 - Qt override (Back)
        self.cancel_check()

    def isComplete(self) -> bool:  # noqa: N802 - Qt override
        return self._state in (DONE, ERROR, STOPPED)

    def nextId(self) -> int:  # noqa: N802 - Qt override
        return int(route_after(self.layer, self.session.result(self.layer)))

    # -- running the check ----------------------------------------------------------------------
    def start_check(self, recheck: bool = False) -> None:
        self.cancel_check()
        self._state, self._error = RUNNING_STATE, None
        self._worker = self.workers.start(
            self.work,
            recheck,
            slots={
                "sig_progress": self._on_worker_progress,
                "sig_result": self._on_worker_result,
                "sig_error": self._on_worker_error,
                "sig_cancelled": self._on_worker_cancelled,
            },
        )
        self.progress.start()
        self._show_state()
        self.completeChanged.emit()

    def work(self, progress, cancelled, recheck: bool = False) -> LayerResult:
        """Runs on a worker thread: the session decides what must be (re)computed."""
        if recheck:
            return self.session.recheck(self.layer, progress, cancelled)
        return self.session.run_layer(self.layer, progress, cancelled)

    def cancel_check(self) -> None:
        """Cancel the running worker (if any); its late signals are ignored. The page goes back
        to its idle look: the session's current result if it still has one, else "stopped"
        (a result shown before, for another environment or target, is no longer current)."""
        worker, self._worker = self._worker, None
        if worker is not None:
            worker.cancel()
        if self._state == RUNNING_STATE:
            cached = self.session.result(self.layer)
            self._result = cached
            self._state = STOPPED if cached is None else DONE
            self.progress.hide()
            self._show_state()
            self.completeChanged.emit()

    def stop_check(self) -> None:
        """The Stop button: cancel, and say that the check was stopped."""
        self.cancel_check()

    def _from_current(self) -> bool:
        return self._worker is not None and self.sender() is self._worker.signals

    def _on_worker_progress(self, fraction: float, key: str) -> None:
        if self._from_current():
            self.progress.set_progress(fraction, key)

    def _on_worker_result(self, result: LayerResult) -> None:
        if not self._from_current():
            return
        self._worker = None
        self._result, self._state = result, DONE
        self._finish()

    def _on_worker_error(self, error: WorkerError) -> None:
        if not self._from_current():
            return
        self._worker = None
        self._error, self._state = error, ERROR
        self._finish()

    def _on_worker_cancelled(self) -> None:
        if self._from_current():
            self._worker = None
            self._result = self.session.result(self.layer)
            self._state = STOPPED if self._result is None else DONE
            self._finish()

    def _finish(self) -> None:
        self.progress.hide()
        self._show_state()
        self.completeChanged.emit()
        self.on_check_finished()

    def on_check_finished(self) -> None:
        """Hook for subclasses (the TF page refreshes its environment list)."""

    def _on_recheck_clicked(self) -> None:
        self.start_check(recheck=True)

    # -- showing -------------------------------------------------------------------------------
    def _show_state(self) -> None:
        running = self._state == RUNNING_STATE
        self.recheck_button.setEnabled(not running)
        if running:
            self.badge.set_status(RUNNING)  # says "Checking…"; the progress line says what
            self.summary.setText("")
        elif self._state == ERROR and self._error is not None:
            self.badge.set_status(UNKNOWN)
            self.summary.setText(self.tr("The check could not finish. The details are below."))
            self._set_findings([error_finding(self.layer, self._error)])
            self.facts.set_facts({})
        elif self._result is not None:
            result = self._result
            self.badge.set_status(result.status)
            self.summary.setText(texts.layer_summary(result))
            self._set_findings(list(result.findings))
            self.facts.set_facts(texts.shown_facts(result.facts, self.session.os_kind))
            self._shown = _signature(result)
        elif self._state == STOPPED:
            self.badge.set_status(UNKNOWN)
            self.summary.setText(
                self.tr("The check was stopped. Press \"Check again\" to run it.")
            )
            self._set_findings([])
        else:
            self.badge.set_status(UNKNOWN)
            self.summary.setText("")
        self.findings_box.setVisible(not running and self._state != IDLE)
        self.facts_box.setVisible(self._result is not None and not running)
        self._show_target()

    def _set_findings(self, findings: list[Finding]) -> None:
        for card in self.cards:
            self.findings_layout.removeWidget(card)
            card.deleteLater()
        self.cards = []
        from wizard.core.model import sorted_findings

        for finding in sorted_findings(findings):
            handler = self.action_handlers.get(finding.fix.action or "")
            card = FindingCard(finding, handler, self.findings_box)
            self.findings_layout.addWidget(card)
            self.cards.append(card)
        self.no_findings.setVisible(not self.cards)
        self._set_no_findings_text()

    def _set_no_findings_text(self) -> None:
        """The line shown when there is no card. Beside a warning or a failure it must not say
        that all is well: it says where the cause lies, or that none could be named."""
        status = self._result.status if self._result is not None else None
        if status in ("ok", "n/a") or status is None:
            self.no_findings.setText(self.tr("No problems found on this layer."))
            return
        lower = texts.failing_below(self.layer, self.session.results().values())
        if lower is not None:
            self.no_findings.setText(
                self.tr("This layer cannot pass while the {layer} layer fails: fix that layer "
                        "first, then check this one again.").format(
                    layer=texts.layer_title(lower.layer))
            )
        else:
            self.no_findings.setText(
                self.tr("The check did not pass, and no single cause could be named. The "
                        "details below show what was seen.")
            )

    def _show_target(self) -> None:
        target = self.session.target
        if target is None:
            self.target_label.setText("")
            self.target_label.hide()
            return
        if target.pip_cuda:
            text = self.tr(
                "Checked against TensorFlow {tf}: Python {python}; CUDA {cuda} and cuDNN {cudnn} "
                "come from pip (tensorflow[and-cuda]), no system CUDA Toolkit is needed."
            )
        else:
            text = self.tr(
                "Checked against TensorFlow {tf}: CUDA {cuda}, cuDNN {cudnn}, Python {python}."
            )
        self.target_label.setText(
            text.format(
                tf=target.tensorflow,
                cuda=target.cuda or "—",
                cudnn=target.cudnn or "—",
                python=target.python or "—",
            )
        )
        self.target_label.show()

    def retranslate_ui(self) -> None:
        self.setTitle(texts.layer_title(self.layer))
        self.setSubTitle(layer_question(self.layer))
        self.recheck_button.setText(self.tr("Check &again"))
        self.recheck_button.setAccessibleName(
            self.tr("Check {layer} again").format(layer=texts.layer_title(self.layer))
        )
        self.findings_box.setTitle(self.tr("What was found"))
        self.facts_box.setTitle(self.tr("Details"))
        self._set_no_findings_text()
        self.summary.setAccessibleName(self.tr("Result"))
        self._show_state()


def _signature(result: LayerResult) -> tuple:
    """What the page shows of a result that may grow after it was shown."""
    return (result.status, result.summary, len(result.findings))


def layer_question(layer: str) -> str:
    """The page's subtitle: what this layer's check answers."""
    from PySide6.QtCore import QCoreApplication

    questions = {
        "gpu": QCoreApplication.translate(
            "LayerPage", "Is there an NVIDIA GPU, which one, and can TensorFlow use it?"
        ),
        "driver": QCoreApplication.translate(
            "LayerPage",
            "Is the NVIDIA driver installed and running, and is it new enough for the target?",
        ),
        "cuda": QCoreApplication.translate(
            "LayerPage", "Is the CUDA version the target needs installed where TensorFlow looks?"
        ),
        "cudnn": QCoreApplication.translate(
            "LayerPage", "Is the matching cuDNN installed, complete, and found by the loader?"
        ),
        "tensorflow": QCoreApplication.translate(
            "LayerPage",
            "Which Python environments are there, and does TensorFlow in the chosen one see and "
            "use the GPU?",
        ),
    }
    return questions.get(layer, "")


def route_after(layer: str, result: Optional[LayerResult]) -> PageId:
    """Where Next goes from ``layer``'s page, given its result.

    No NVIDIA GPU at all: nothing above can work, so straight to the summary (which says why
    and still lets every later layer be opened). Otherwise the next layer up; after the last
    layer, the summary."""
    if layer == "gpu" and result is not None and any(
        f.code == "no_nvidia_gpu" for f in result.findings
    ):
        return PageId.SUMMARY
    index = LAYERS.index(layer)
    if index + 1 < len(LAYERS):
        return LAYER_PAGES[LAYERS[index + 1]]
    return PageId.SUMMARY
