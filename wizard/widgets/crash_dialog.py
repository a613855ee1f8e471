"""Never a silent crash: an exception nobody handled, in any thread, shows a dialog.

:func:`install` replaces ``sys.excepthook`` (the GUI thread, and exceptions escaping Qt slots
and overrides: PySide prints them through it) and ``threading.excepthook`` (Python threads);
:class:`~wizard.workers.manager.WorkerManager` hands a failed worker nobody listens to for
``sig_error`` to ``sys.excepthook``. Each goes to the log (``wizard.crash``, with traceback)
and to :class:`CrashDialog`, on the GUI thread: what happened, where the log is, and "Copy
report" (version, system, tracebacks, the last lines of the log). Texts come from the message
catalogue (``crash.*``) in the wizard's language.
"""

from __future__ import annotations

import logging
import platform
import sys
import threading
import traceback as traceback_module
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
)

from wizard import __version__
from wizard.core.messages import msg
from wizard.texts import render_message

log = logging.getLogger("wizard.crash")
LOG_LINES = 40


@dataclass(frozen=True)
class Crash:
    """One unhandled exception: its one-line text, the thread, the formatted traceback."""

    error: str
    thread: str
    traceback: str


def tail(path: Optional[str], lines: int = LOG_LINES) -> list[str]:
    """The last ``lines`` lines of the log (empty when there is none)."""
    if not path:
        return []
    try:
        with open(path, "rb") as handle:
            handle.seek(0, 2)
            size = handle.tell()
            handle.seek(max(0, size - 64 * 1024))
            text = handle.read().decode("utf-8", "replace")
    except OSError:
        return []
    return text.splitlines()[-lines:]


def report_text(crashes: list[Crash], log_path: Optional[str]) -> str:
    """The text "Copy report" puts on the clipboard (English: it goes to the developers)."""
    try:
        from PySide6 import __version__ as pyside_version
    except ImportError:  # pragma: no cover - PySide6 is what shows this
        pyside_version = "?"
    parts = [
        f"GPU Setup Wizard {__version__}",
        f"System: {platform.platform()} ({platform.machine()})",
        f"Python: {sys.version.split()[0]}, PySide6 {pyside_version}"
        + (", frozen" if getattr(sys, "frozen", False) else ""),
        f"Log: {log_path or '-'}",
        "",
    ]
    for index, crash in enumerate(crashes, 1):
        parts += [f"Error {index} in {crash.thread}: {crash.error}", crash.traceback.rstrip(), ""]
    lines = tail(log_path)
    if lines:
        parts += [f"Last {len(lines)} log lines:", *lines]
    return "\n".join(parts) + "\n"


class CrashDialog(QDialog):
    """What happened, where the log is, "Copy report", "Close". Further crashes while it is
    open are added to it (one dialog, not a storm)."""

    def __init__(self, log_path: Optional[str], parent: Any = None) -> None:
        super().__init__(parent)
        self.setObjectName("crashDialog")
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.log_path = log_path
        self.crashes: list[Crash] = []
        layout = QVBoxLayout(self)
        self.headline = QLabel()
        self.what = QLabel()
        self.where = QLabel()
        self.next_step = QLabel()
        self.more = QLabel()
        for label in (self.headline, self.what, self.where, self.next_step, self.more):
            label.setWordWrap(True)
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            layout.addWidget(label)
        self.details = QPlainTextEdit()
        self.details.setReadOnly(True)
        self.details.setObjectName("crashReport")
        layout.addWidget(self.details)
        buttons = QDialogButtonBox()
        self.copy_button = QPushButton()
        self.copy_button.setObjectName("copyReport")
        self.close_button = QPushButton()
        buttons.addButton(self.copy_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.addButton(self.close_button, QDialogButtonBox.ButtonRole.RejectRole)
        self.copy_button.clicked.connect(self.copy_report)
        self.close_button.clicked.connect(self.reject)
        layout.addWidget(buttons)
        self.resize(640, 420)
        self.retranslate()

    def add(self, crash: Crash) -> None:
        self.crashes.append(crash)
        self.retranslate()

    def report(self) -> str:
        return report_text(self.crashes, self.log_path)

    def copy_report(self) -> None:
        QApplication.clipboard().setText(self.report())
        self.copy_button.setText(render_message(msg("crash.copied")))

    def retranslate(self) -> None:
        self.setWindowTitle(render_message(msg("crash.title")))
        self.headline.setText(render_message(msg("crash.headline")))
        first = self.crashes[0] if self.crashes else Crash("?", "?", "")
        self.what.setText(render_message(msg("crash.what", error=first.error,
                                             thread=first.thread)))
        self.where.setText(render_message(
            msg("crash.log", path=self.log_path) if self.log_path else msg("crash.no_log")))
        self.next_step.setText(render_message(msg("crash.next")))
        extra = len(self.crashes) - 1
        self.more.setVisible(extra > 0)
        self.more.setText(render_message(msg("crash.more", count=extra)) if extra > 0 else "")
        self.copy_button.setText(render_message(msg("crash.copy")))
        self.close_button.setText(render_message(msg("crash.close")))
        self.details.setPlainText(self.report())

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)


class CrashReporter(QObject):
    """Takes unhandled exceptions from any thread; shows them on the GUI thread."""

    sig_crash = Signal(object)
    """Parameters: a :class:`Crash` (queued to the GUI thread when raised elsewhere)."""

    def __init__(self, log_path: Optional[str], parent: Optional[QObject] = None) -> None:
        super().__init__(parent)
        self.log_path = log_path
        self.dialog: Optional[CrashDialog] = None
        self.sig_crash.connect(self._show)
        self._previous_hooks: Optional[tuple[Any, Any]] = None

    def report(self, kind: type, value: BaseException, tb: Any, thread: str) -> None:
        """Log the exception (with traceback) and show it; callable from any thread."""
        log.critical("uncaught exception in %s", thread, exc_info=(kind, value, tb))
        text = "".join(traceback_module.format_exception(kind, value, tb))
        for handler in logging.getLogger().handlers:
            handler.flush()
        self.sig_crash.emit(Crash(f"{kind.__name__}: {value}", thread, text))

    def _show(self, crash: Crash) -> None:
        if self.dialog is None:
            app = QApplication.instance()
            parent = app.activeWindow() if app is not None else None
            self.dialog = CrashDialog(self.log_path, parent)
            self.dialog.destroyed.connect(self._forget_dialog)
            self.dialog.add(crash)
            self.dialog.show()
        else:
            self.dialog.add(crash)
            self.dialog.raise_()

    def _forget_dialog(self) -> None:
        self.dialog = None

    # hooks
    def _sys_hook(self, kind: type, value: BaseException, tb: Any) -> None:
        if issubclass(kind, KeyboardInterrupt):
            sys.__excepthook__(kind, value, tb)
            return
        try:
            self.report(kind, value, tb, threading.current_thread().name)
        except Exception:  # noqa: BLE001 - the hook must never raise itself
            log.exception("the crash dialog failed")
        if sys.stderr is not None:  # a terminal still sees it (windowed exe: no stderr)
            sys.__excepthook__(kind, value, tb)

    def _thread_hook(self, args: Any) -> None:
        if args.exc_type is SystemExit:
            return
        name = args.thread.name if args.thread is not None else "?"
        try:
            self.report(args.exc_type, args.exc_value, args.exc_traceback, name)
        except Exception:  # noqa: BLE001
            threading.__excepthook__(args)

    def install(self) -> None:
        self._previous_hooks = (sys.excepthook, threading.excepthook)
        sys.excepthook = self._sys_hook
        threading.excepthook = self._thread_hook

    def uninstall(self) -> None:
        if self._previous_hooks is not None:
            sys.excepthook, threading.excepthook = self._previous_hooks
            self._previous_hooks = None


def install(log_path: Optional[str], app: Optional[QObject] = None) -> CrashReporter:
    """Route every unhandled exception to the log and the crash dialog. ``log_path``: the
    file :func:`wizard.app.setup_logging` writes (None: no log could be written)."""
    reporter = CrashReporter(log_path, app or QApplication.instance())
    reporter.install()
    return reporter


def log_file() -> Optional[str]:
    """The log file the root logger writes to, if any (the one setup_logging added)."""
    for handler in logging.getLogger().handlers:
        name = getattr(handler, "baseFilename", None)
        if name:
            return str(Path(name))
    return None
