"""Run one core callable off the GUI thread, with progress and cooperative cancel.

The structure follows superqt's ``WorkerBase``: a :class:`FunctionWorker` (a ``QRunnable``,
which is not a QObject) keeps its signals on a companion :class:`WorkerSignals`. The wrapped
callable has the core signature ``fn(progress, cancelled, *args)`` and never sees Qt.
Exceptions become ``sig_error``; they never reach Qt's event loop. Only QtCore is used here.
"""

from __future__ import annotations

import logging
import threading
import traceback
from dataclasses import dataclass
from typing import Any, Callable

from PySide6.QtCore import QObject, QRunnable, Signal

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class WorkerError:
    """What ``sig_error`` carries: the exception and its formatted traceback."""

    exception: BaseException
    traceback: str

    @property
    def text(self) -> str:
        return f"{type(self.exception).__name__}: {self.exception}"


class WorkerSignals(QObject):
    sig_started = Signal()
    """The work began (emitted from the worker thread)."""
    sig_progress = Signal(float, str)
    """Parameters: fraction done (0..1), a short English step key from core."""
    sig_result = Signal(object)
    """Parameters: the callable's return value (not emitted after a cancel)."""
    sig_error = Signal(object)
    """Parameters: a :class:`WorkerError` (not emitted after a cancel)."""
    sig_cancelled = Signal()
    """The work stopped (or finished) after :meth:`FunctionWorker.cancel` was called."""
    sig_finished = Signal()
    """Always the last signal, whatever happened."""


class FunctionWorker(QRunnable):
    """One-shot work: ``fn(progress, cancelled, *args, **kwargs)`` on a thread-pool thread."""

    def __init__(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> None:
        super().__init__()
        self.setAutoDelete(False)  # the WorkerManager holds it until sig_finished
        self.signals = WorkerSignals()
        self._fn, self._args, self._kwargs = fn, args, kwargs
        self._cancel = threading.Event()
        self._done = threading.Event()
        self._last_progress = (-1.0, "")

    # signals by composition: ``worker.sig_result.connect(...)``
    def __getattr__(self, name: str) -> Any:
        if name.startswith("sig_"):
            return getattr(self.signals, name)
        raise AttributeError(name)

    def cancel(self) -> None:
        """Ask the work to stop at its next check of ``cancelled()``; never kills a thread."""
        self._cancel.set()

    def is_cancelled(self) -> bool:
        return self._cancel.is_set()

    def is_done(self) -> bool:
        return self._done.is_set()

    def wait(self, timeout: float) -> bool:
        """Block until the work finished (for tests and shutdown)."""
        return self._done.wait(timeout)

    def _progress(self, fraction: float, text: str) -> None:
        # throttle at the source: only a visible change is worth an event
        last_fraction, last_text = self._last_progress
        if text == last_text and abs(fraction - last_fraction) < 0.01 and fraction < 1.0:
            return
        self._last_progress = (fraction, text)
        if not self._cancel.is_set():
            self.signals.sig_progress.emit(float(fraction), str(text))

    def run(self) -> None:  # Qt calls this on a pool thread
        signals = self.signals
        try:
            signals.sig_started.emit()
            try:
                value = self._fn(self._progress, self.is_cancelled, *self._args, **self._kwargs)
            except BaseException as exc:  # noqa: BLE001 - reported, never raised into Qt
                if self._cancel.is_set():
                    signals.sig_cancelled.emit()
                else:
                    log.warning("worker %s failed: %s", getattr(self._fn, "__name__", "?"), exc)
                    signals.sig_error.emit(WorkerError(exc, traceback.format_exc()))
            else:
                if self._cancel.is_set():
                    signals.sig_cancelled.emit()
                else:
                    signals.sig_result.emit(value)
        finally:
            self._done.set()
            signals.sig_finished.emit()
