"""The wizard window: the pages, the routing, the demo marking and a clean shutdown."""

from __future__ import annotations

import logging
import sys
from typing import Callable, Optional

from PySide6.QtCore import QCoreApplication, QEvent, QSize, Qt
from PySide6.QtGui import QCloseEvent, QShortcut
from PySide6.QtWidgets import QWidget, QWizard

from wizard.core.model import LAYERS, Finding
from wizard.core.session import CheckSession
from wizard.pages.benchmark_page import BenchmarkPage
from wizard.pages.ids import LAYER_PAGES, PageId
from wizard.pages.intro import IntroPage
from wizard.pages.layer_page import LayerPage
from wizard.pages.monitor_page import MonitorPage
from wizard.pages.summary import SummaryPage
from wizard.pages.tensorflow_page import TensorFlowPage
from wizard.widgets import explain_dialog
from wizard.workers import WorkerManager

log = logging.getLogger(__name__)

MIN_SIZE = QSize(720, 540)
START_SIZE = QSize(880, 680)


def _reported_later(_error: object) -> None:
    """The prefetch's failure: logged by the worker, shown by the first layer page's check."""


class SetupWizard(QWizard):
    """Intro, one page per layer, summary. Closing it (Cancel, Finish, Esc, the window's close
    button) cancels every running check and waits for the worker threads."""

    def __init__(
        self,
        session: CheckSession,
        languages: Optional[list[tuple[str, str]]] = None,
        language: str = "en",
        on_language: Optional[Callable[[str], None]] = None,
        fix_actions: Optional[dict[str, Callable[[Finding], None]]] = None,
        parent: QWidget | None = None,
        start_page: Optional[str] = None,
        monitor_source: Optional[Callable[[], object]] = None,
    ) -> None:
        super().__init__(parent)
        self.session = session
        self.workers = WorkerManager(self)
        self.fix_actions: dict[str, Callable[[Finding], None]] = dict(fix_actions or {})
        """Automatic fixes by action name (``install_cudnn``, ...): ``app.build_wizard`` passes
        ``FixController.handlers()`` (wizard/widgets/fix_dialog.py);
        finding cards show "Fix it" only for the actions listed here."""
        if sys.platform.startswith("linux"):
            self.setWizardStyle(QWizard.WizardStyle.ModernStyle)
        self.setOption(QWizard.WizardOption.NoBackButtonOnStartPage, True)
        self.setOption(QWizard.WizardOption.NoCancelButtonOnLastPage, True)
        self.setMinimumSize(MIN_SIZE)
        self.resize(START_SIZE)

        self.intro = IntroPage(
            session,
            languages or [("en", "English")],
            language,
            on_language,
            open_explain=self.open_explain,
        )
        self.setPage(PageId.INTRO, self.intro)
        self.layer_pages: dict[str, LayerPage] = {}
        for layer in LAYERS:
            if layer == "tensorflow":
                page: LayerPage = TensorFlowPage(session, self.workers, self.fix_actions)
            else:
                page = LayerPage(layer, session, self.workers, self.fix_actions)
            self.layer_pages[layer] = page
            self.setPage(LAYER_PAGES[layer], page)
        self.summary = SummaryPage(session, self.workers, open_layer=self.show_layer,
                                   open_monitor=self.show_monitor)
        self.setPage(PageId.SUMMARY, self.summary)
        self.benchmark = BenchmarkPage(session, self.workers)
        self.setPage(PageId.BENCHMARK, self.benchmark)
        self.monitor = MonitorPage(session, monitor_source)  # type: ignore[arg-type]
        self.setPage(PageId.MONITOR, self.monitor)
        # ``--page monitor``: straight to the monitor, without redoing the checks
        self.setStartId(PageId.MONITOR if start_page == "monitor" else PageId.INTRO)
        self.finished.connect(self._on_finished)
        self.currentIdChanged.connect(self._on_current_changed)
        self._from_summary = False
        """A layer page was opened from the summary: Back from it returns to the summary."""
        # QWizard's Back button calls the C++ slot directly; route it through back() below.
        back_button = self.button(QWizard.WizardButton.BackButton)
        back_button.clicked.disconnect()
        back_button.clicked.connect(self.back)
        self._shut_down = False
        # Ctrl+E on every page: explain an error log the user pastes
        self.explain_dialog: Optional[explain_dialog.ExplainDialog] = None
        self.explain_shortcut = QShortcut(explain_dialog.OPEN_SHORTCUT, self)
        self.explain_shortcut.setContext(Qt.ShortcutContext.WindowShortcut)
        self.explain_shortcut.activated.connect(self.open_explain)
        self.retranslate_ui()
        # Probing Python environments takes seconds on a real machine: start it while the user
        # reads the first page. Its errors reappear (as an error card) on the first layer page.
        if start_page != "monitor":
            self.workers.start(session.prefetch_environment,
                               slots={"sig_error": _reported_later})

    def open_explain(self) -> Optional[explain_dialog.ExplainDialog]:
        """"Explain an error log…": on the summary, its dialog (the checked machine's facts);
        elsewhere one with what has been checked so far (nothing, on the first page)."""
        if self.currentPage() is self.summary:
            return self.summary.open_explain()
        self.explain_dialog = explain_dialog.open_for_session(self.session, self.workers, self)
        return self.explain_dialog

    # -- navigation -----------------------------------------------------------------------------
    def show_layer(self, layer: str) -> None:
        """Open ``layer``'s page from the summary: restart, then Next jumps straight to it; its
        Next carries on up the chain as usual, and Back returns to the summary."""
        self._jump(LAYER_PAGES[layer])
        self._from_summary = True

    def show_summary(self) -> None:
        """Open the summary page (its results are cached: it only puts them together)."""
        self._jump(PageId.SUMMARY)

    def show_monitor(self) -> None:
        """Open the live GPU monitor (from the summary's button)."""
        self._jump(PageId.MONITOR)

    def nextId(self) -> int:  # noqa: N802 - Qt override
        """The wizard ends on the monitor, then the benchmark: Next on the monitor (on the
        summary while there is no monitor page) opens the benchmark."""
        current = self.currentId()
        monitor = getattr(PageId, "MONITOR", None)
        last_before = int(monitor) if monitor is not None else int(PageId.SUMMARY)
        if current == last_before:
            return int(PageId.BENCHMARK)
        if current == PageId.BENCHMARK:
            return -1
        return super().nextId()

    def _jump(self, page_id: PageId) -> None:
        self.intro.jump_to = page_id
        try:
            self.restart()
            self.next()
        finally:
            self.intro.jump_to = None

    def back(self) -> None:
        """Back, except on the first page opened from the summary, where it returns to the
        summary rather than to the first page (which the jump went through)."""
        visited = self.visitedIds()
        if (
            self._from_summary
            and len(visited) >= 2
            and visited[-2] == PageId.INTRO
            and self.currentId() in LAYER_PAGES.values()
        ):
            self.show_summary()
            return
        super().back()

    def _on_current_changed(self, page_id: int) -> None:
        if page_id == PageId.INTRO:
            self._from_summary = False
        page = self.page(page_id)
        if isinstance(page, LayerPage):
            page.refresh_from_session()

    # -- shutdown -----------------------------------------------------------------------------
    def shutdown(self, timeout_ms: int = 10000) -> bool:
        """Cancel running checks and wait for their threads; safe to call more than once."""
        for page in self.layer_pages.values():
            page.cancel_check()
        self.summary.cancel()
        self.benchmark.shutdown()
        monitor_done = self.monitor.stop()
        done = self.workers.shutdown(timeout_ms) and monitor_done
        self._shut_down = True
        return done

    def _on_finished(self, _result: int) -> None:
        self.shutdown()

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt override
        self.shutdown()
        super().closeEvent(event)

    # -- language -----------------------------------------------------------------------------
    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt override
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate_ui()
        super().changeEvent(event)

    def retranslate_ui(self) -> None:
        if self.session.demo_name:
            self.setWindowTitle(
                self.tr("GPU Setup Wizard — Demo: replaying {profile}").format(
                    profile=self.session.demo_name)
            )
        else:
            self.setWindowTitle(self.tr("GPU Setup Wizard"))
        self.setAccessibleName(self.windowTitle())
        self._retranslate_buttons()

    def _retranslate_buttons(self) -> None:
        """QWizard picks its button texts when it switches pages, not on a language change:
        set them again in the new language (the same texts and context as qwizard.cpp, which
        our catalogue carries too, see ``i18n._qwizard_button_texts``)."""
        style = self.wizardStyle()
        mac = style == QWizard.WizardStyle.MacStyle
        aero = style == QWizard.WizardStyle.AeroStyle

        def qt(text: str) -> str:
            return QCoreApplication.translate("QWizard", text)

        button = QWizard.WizardButton
        texts = {
            button.BackButton: qt("Go Back") if mac else qt("< &Back"),
            button.NextButton: qt("Continue") if mac else (qt("&Next") if aero else qt("&Next >")),
            button.CommitButton: qt("Commit"),
            button.FinishButton: qt("Done") if mac else qt("&Finish"),
            button.CancelButton: qt("Cancel"),
            button.HelpButton: qt("Help") if mac else qt("&Help"),
        }
        for which, text in texts.items():
            self.setButtonText(which, text)
