"""The monitor's sampler: a QThread of its own that asks the source for a sample every interval
and hands it to the GUI thread as a signal. The GUI thread files it in the history and paints
on its own timer, so a slow NVML answer never freezes the window and painting never delays a
sample. Only QtCore is used here."""

from __future__ import annotations

import logging
from typing import Any, Optional

from PySide6.QtCore import QObject, QThread, QTimer, Signal, Slot

log = logging.getLogger(__name__)


class _Loop(QObject):
    """Lives on the sampler's thread: its timer fires there, and so does ``source.sample()``."""

    sig_sample = Signal(object)

    def __init__(self, source: Any, interval_ms: int) -> None:
        super().__init__()
        self.source = source
        self.interval_ms = max(1, interval_ms)
        self.timer: Optional[QTimer] = None
        self.samples = 0

    @Slot()
    def start(self) -> None:
        self.timer = QTimer(self)
        self.timer.setTimerType(self.timer.timerType().CoarseTimer)
        self.timer.timeout.connect(self.tick)
        self.timer.start(self.interval_ms)
        self.tick()

    @Slot()
    def tick(self) -> None:
        try:
            sample = self.source.sample()
        except Exception as exc:  # a source never raises; if one does, say so and go on
            log.warning("monitor source failed: %s", exc)
            return
        self.samples += 1
        self.sig_sample.emit(sample)

    @Slot()
    def stop(self) -> None:
        """On the sampler's thread: stop the timer there (Qt wants that), then end the thread."""
        if self.timer is not None:
            self.timer.stop()
        thread = QThread.currentThread()
        if thread is not None:
            thread.quit()


class MonitorSampler(QObject):
    """``sampler.sig_sample`` carries each sample (a dict) to the GUI thread. :meth:`stop`
    ends the thread and closes the source (the NVML session)."""

    sig_sample = Signal(object)
    _sig_stop = Signal()

    def __init__(self, source: Any, interval_s: float = 1.0,
                 parent: Optional[QObject] = None) -> None:
        super().__init__(parent)
        self.source = source
        self.thread = QThread()
        self.thread.setObjectName("gpu-monitor-sampler")
        self._loop = _Loop(source, int(round(interval_s * 1000)))
        self._loop.moveToThread(self.thread)
        self.thread.started.connect(self._loop.start)
        self._loop.sig_sample.connect(self.sig_sample)
        self._sig_stop.connect(self._loop.stop)  # queued: runs on the sampler's thread
        self._running = False

    def start(self) -> None:
        if not self._running:
            self._running = True
            self.thread.start()

    def is_running(self) -> bool:
        return self.thread.isRunning()

    @property
    def samples(self) -> int:
        return self._loop.samples

    def stop(self, timeout_ms: int = 5000) -> bool:
        """Stop sampling, end the thread and close the source; safe to call more than once.
        False when the thread did not end in time (an NVML call hung)."""
        if not self._running:
            return True
        self._running = False
        # the timer belongs to the sampler's thread: the loop stops it there and ends the thread
        self._sig_stop.emit()
        done = self.thread.wait(timeout_ms)
        if done:
            try:
                self.source.close()
            except Exception as exc:  # closing NVML is best effort
                log.warning("closing the monitor source failed: %s", exc)
        return bool(done)
