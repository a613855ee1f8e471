"""Track every running worker so that closing the wizard cancels and waits for all of them."""

from __future__ import annotations

import logging
import sys
import time
from typing import Any, Callable, Optional

from PySide6.QtCore import QObject, QThreadPool

from wizard.workers.base import FunctionWorker, WorkerError

log = logging.getLogger(__name__)


def _unhandled_error(error: WorkerError) -> None:
    exc = error.exception
    sys.excepthook(type(exc), exc, exc.__traceback__)


class WorkerManager(QObject):
    """Owns a private thread pool; :meth:`shutdown` leaves no thread behind."""

    def __init__(self, parent: QObject | None = None, max_threads: int = 4) -> None:
        super().__init__(parent)
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(max_threads)
        self._workers: set[FunctionWorker] = set()
        self._closed = False

    @property
    def pool(self) -> QThreadPool:
        return self._pool

    def start(
        self,
        fn: Callable[..., Any],
        *args: Any,
        slots: Optional[dict[str, Callable[..., Any]]] = None,
        **kwargs: Any,
    ) -> FunctionWorker:
        """Run ``fn(progress, cancelled, *args, **kwargs)`` on the pool.

        ``slots`` maps signal names (``"sig_result"``, ...) to receivers; they are connected
        *before* the work starts, because a fast job can emit its result before this call
        returns, and a signal emitted with nothing connected is lost."""
        if self._closed:
            raise RuntimeError("the wizard is closing; no new work is started")
        worker = FunctionWorker(fn, *args, **kwargs)
        for name, slot in (slots or {}).items():
            getattr(worker.signals, name).connect(slot)
        if "sig_error" not in (slots or {}):
            # nobody handles this work's failure: it is a bug; the crash dialog shows it
            worker.signals.sig_error.connect(_unhandled_error)
        worker.signals.sig_finished.connect(self._on_worker_finished)
        self._workers.add(worker)
        self._pool.start(worker)
        return worker

    def _on_worker_finished(self) -> None:
        signals = self.sender()
        for worker in list(self._workers):
            if worker.signals is signals:
                self._workers.discard(worker)

    def active(self) -> list[FunctionWorker]:
        return [w for w in self._workers if not w.is_done()]

    def running_threads(self) -> int:
        """Threads the pool is using right now (0 once everything finished)."""
        return self._pool.activeThreadCount()

    def cancel_all(self) -> None:
        for worker in list(self._workers):
            worker.cancel()

    def shutdown(self, timeout_ms: int = 10000) -> bool:
        """Cancel everything, wait for the threads to end and remove them from the pool.

        Returns False when some work did not stop in time (a child process that ignores the
        cancel); the pool is then waited for once more by the application before it exits."""
        self._closed = True
        self.cancel_all()
        started = time.monotonic()
        done = self._pool.waitForDone(timeout_ms)
        if not done:
            log.warning("workers still running after %d ms: %d", timeout_ms, len(self.active()))
        else:
            log.debug("workers stopped in %.3f s", time.monotonic() - started)
        return done

    def reopen(self) -> None:
        """Accept new work again (the wizard was shown again after a shutdown)."""
        self._closed = False
