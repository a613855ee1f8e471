"""The live GPU monitor: the page users leave open while they train.

Sampling runs on the sampler's own thread (``wizard.workers.monitor``); each sample is filed in
the history here, on the GUI thread, and a coarse paint timer calls :meth:`MonitorPage.refresh`,
which redraws only what changed: nothing without a new sample, nothing but the mini view while
the page is hidden or minimized, the plots at their bucket rate
(``wizard.widgets.monitor_plots``), the process table and the advice every few seconds, a label
only when its text changed. The page stays under 1% of a core at 1 Hz
(``benchmarks/monitor_cost.py``). In demo mode the page plays the profile's recorded ticks.
Every text comes from the message catalogue (``resources/messages/monitor.json``) and is
rendered again on a language change.
"""

from __future__ import annotations

import time
from typing import Any, Callable, Optional

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from wizard import texts
from wizard.core.messages import msg
from wizard.core.monitor import DAY_S, Monitor, Source, error_message, gpu_values, open_source
from wizard.core.session import CheckSession
from wizard.pages.base import WizardPageBase
from wizard.widgets.monitor_plots import PLOTS, MonitorPlots
from wizard.workers.monitor import MonitorSampler

WINDOWS = (("1m", 60), ("5m", 300), ("15m", 900), ("1h", 3600), ("6h", 6 * 3600),
           ("24h", DAY_S))
PAINT_MS = 1000
PROCESSES_S = 3.0
"""The process table is refreshed at most this often."""
ADVICE_S = 5.0
"""The advice looks at the last 30 samples; judging them again every 5 s is soon enough."""


def _t(message_id: str, **params: Any) -> str:
    return texts.render_message(msg(message_id, **params))


class MiniView(QWidget):
    """A small always-on-top window: one line per GPU."""

    def __init__(self) -> None:
        super().__init__(None, Qt.WindowType.Tool | Qt.WindowType.WindowStaysOnTopHint)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 4)
        self.label = QLabel(self)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.label)

    def set_lines(self, lines: list[str]) -> None:
        text = "\n".join(lines)
        if text != self.label.text():
            self.label.setText(text)
            self.adjustSize()


class MonitorPage(WizardPageBase):
    def __init__(self, session: CheckSession,
                 source_factory: Optional[Callable[[], Source]] = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(session, parent)
        self._source_factory = source_factory or (lambda: open_source(session.host))
        self.monitor: Optional[Monitor] = None
        self.sampler: Optional[MonitorSampler] = None
        self.paused = False
        self.window_s = 300
        self.mini: Optional[MiniView] = None
        self._record_error = ""
        self._refreshed_count = -1
        self._processes_at = self._advice_at = -1e9
        self._process_rows: list[list[str]] = []

        self.demo_label = QLabel(self)
        self.demo_label.setWordWrap(True)
        self.body.addWidget(self.demo_label)
        self.gpu_lines = QLabel(self)
        self.gpu_lines.setWordWrap(True)
        self.gpu_lines.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.body.addWidget(self.gpu_lines)

        controls = QHBoxLayout()
        self.window_label = QLabel(self)
        self.window_box = QComboBox(self)
        self.window_box.currentIndexChanged.connect(self._on_window)
        self.pause_button = QPushButton(self)
        self.pause_button.clicked.connect(self.toggle_pause)
        self.record_button = QPushButton(self)
        self.record_button.clicked.connect(self._on_record_clicked)
        self.mini_button = QPushButton(self)
        self.mini_button.clicked.connect(self.toggle_mini)
        controls.addWidget(self.window_label)
        controls.addWidget(self.window_box)
        controls.addStretch(1)
        controls.addWidget(self.pause_button)
        controls.addWidget(self.record_button)
        controls.addWidget(self.mini_button)
        self.body.addLayout(controls)
        self.record_status = QLabel(self)
        self.record_status.setWordWrap(True)
        self.body.addWidget(self.record_status)

        self.plots = MonitorPlots(self)
        self.body.addWidget(self.plots, 1)

        self.advice_box = QGroupBox(self)
        advice_layout = QVBoxLayout(self.advice_box)
        self.advice_label = QLabel(self.advice_box)
        self.advice_label.setWordWrap(True)
        self.advice_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        advice_layout.addWidget(self.advice_label)
        self.body.addWidget(self.advice_box)

        self.process_box = QGroupBox(self)
        process_layout = QVBoxLayout(self.process_box)
        self.processes = QTreeWidget(self.process_box)
        self.processes.setColumnCount(5)
        self.processes.setRootIsDecorated(False)
        for column in range(4):
            self.processes.header().setSectionResizeMode(
                column, QHeaderView.ResizeMode.ResizeToContents)
        self.processes.header().setStretchLastSection(True)
        self.processes.setMinimumHeight(90)
        process_layout.addWidget(self.processes)
        self.body.addWidget(self.process_box)

        self.paint_timer = QTimer(self)
        self.paint_timer.setTimerType(Qt.TimerType.CoarseTimer)
        self.paint_timer.setInterval(PAINT_MS)
        self.paint_timer.timeout.connect(self.refresh)
        self.retranslate_ui()

    # -- QWizardPage --------------------------------------------------------------------------
    def initializePage(self) -> None:  # noqa: N802 - Qt override
        self.start()

    def cleanupPage(self) -> None:  # noqa: N802 - Qt override
        self.stop()

    def nextId(self) -> int:  # noqa: N802 - Qt override
        return -1

    # -- sampling -----------------------------------------------------------------------------
    def start(self) -> None:
        if self.sampler is not None:
            return
        source = self._source_factory()
        self.monitor = Monitor(source)
        self.sampler = MonitorSampler(source, source.interval_s, self)
        self.sampler.sig_sample.connect(self._on_sample)
        self.sampler.start()
        self.paint_timer.start()

    def stop(self, timeout_ms: int = 5000) -> bool:
        """Stop the sampler thread, the recording and the NVML session."""
        self.paint_timer.stop()
        done = True
        sampler, self.sampler = self.sampler, None
        if sampler is not None:
            done = sampler.stop(timeout_ms)
        if self.monitor is not None:
            self.monitor.stop_recording()
        if self.mini is not None:
            self.mini.close()
        return done

    def is_sampling(self) -> bool:
        return self.sampler is not None and self.sampler.is_running()

    def _on_sample(self, sample: dict[str, Any]) -> None:
        if self.monitor is not None and self.sampler is not None:
            try:
                self.monitor.add(sample)
            except OSError as exc:  # the CSV file became unwritable (disk full)
                self._record_failed(exc)

    # -- painting -------------------------------------------------------------------------------
    def paint(self) -> None:
        """Redraw everything visible now (a language, window or pause change; the tests)."""
        self._refreshed_count = -1
        self._processes_at = self._advice_at = -1e9
        self.refresh()

    def refresh(self) -> None:
        """What the paint timer calls: redraw only what changed since the last refresh."""
        if self.monitor is None or self.paused or self.monitor.history is None:
            return
        count = self.monitor.history.count
        if count == self._refreshed_count:
            return  # no new sample
        latest = self.monitor.latest
        lines = self._gpu_lines(latest)
        if self.mini is not None and self.mini.isVisible():
            self.mini.set_lines(lines)
        if not self.isVisible() or self.window().isMinimized():
            return
        self._refreshed_count = count
        _set_text(self.gpu_lines, "\n".join(lines))
        self.plots.draw(self.monitor.history, self.window_s, _limits(latest))
        now = time.monotonic()
        if now - self._processes_at >= PROCESSES_S:
            self._processes_at = now
            self._fill_processes(latest)
        if now - self._advice_at >= ADVICE_S:
            self._advice_at = now
            self._fill_advice()
        self._show_recording()

    def _gpu_lines(self, latest: Optional[dict[str, Any]]) -> list[str]:
        if latest is None:
            return []
        if latest.get("error"):
            return [texts.render_message(error_message(latest["error"],
                                                       latest.get("detail") or ""))]
        lang_na = _t("monitor.value.na")
        lines = []
        for gpu in latest.get("gpus") or []:
            if gpu.get("error"):
                lines.append(_t("monitor.gpu.lost", index=gpu.get("index"),
                                name=gpu.get("name") or lang_na))
                lines.append(texts.render_message(error_message(gpu["error"],
                                                                gpu.get("detail") or "")))
                continue
            values = gpu_values(gpu, _lang())
            lines.append(_t("monitor.gpu.status", index=gpu.get("index"),
                            name=gpu.get("name") or lang_na, **values))
        return lines

    def _fill_processes(self, latest: Optional[dict[str, Any]]) -> None:
        rows = []
        for gpu in (latest or {}).get("gpus") or []:
            for proc in gpu.get("processes") or []:
                used = proc.get("memory_used")
                rows.append([str(gpu.get("index")), str(proc.get("pid")),
                             proc.get("name") or "",
                             _t("monitor.value.na") if used is None
                             else f"{used / 1048576:.0f} MiB", proc.get("command") or ""])
        if rows == self._process_rows and self.processes.topLevelItemCount() == len(rows):
            return
        self._process_rows = rows
        self.processes.clear()
        for row in rows:
            item = QTreeWidgetItem(row)
            item.setToolTip(4, row[4])
            self.processes.addTopLevelItem(item)

    def _fill_advice(self) -> None:
        assert self.monitor is not None
        advice = self.monitor.advice()
        if not advice:
            _set_text(self.advice_label, _t("monitor.advice.none"))
            return
        _set_text(self.advice_label, "\n\n".join(
            "• " + texts.render_message(item.message) for item in advice))

    # -- controls -----------------------------------------------------------------------------
    def _on_window(self, index: int) -> None:
        if 0 <= index < len(WINDOWS):
            self.window_s = WINDOWS[index][1]
            self.paint()

    def toggle_pause(self) -> None:
        self.paused = not self.paused
        self._retranslate_controls()
        if not self.paused:
            self.paint()

    def toggle_mini(self) -> None:
        if self.mini is None:
            self.mini = MiniView()
        if self.mini.isVisible():
            self.mini.hide()
        else:
            self.mini.setWindowTitle(_t("monitor.page.title"))
            self.mini.set_lines(self._gpu_lines(self.monitor.latest if self.monitor else None))
            self.mini.show()

    def _on_record_clicked(self) -> None:
        if self.monitor is not None and self.monitor.recorder is not None:
            self.stop_recording()
            return
        name = time.strftime("gpu-monitor-%Y%m%d-%H%M%S.csv")
        path, _filter = QFileDialog.getSaveFileName(
            self, _t("monitor.record.dialog"), name, "CSV (*.csv)")
        if path:
            self.start_recording(path)

    def start_recording(self, path: str) -> bool:
        if self.monitor is None:
            return False
        try:
            self.monitor.start_recording(path)
        except OSError as exc:
            self._record_failed(exc, path)
            return False
        self._record_error = ""
        self._retranslate_controls()
        self._show_recording()
        return True

    def stop_recording(self) -> None:
        if self.monitor is not None:
            self.monitor.stop_recording()
        self._retranslate_controls()
        self._show_recording()

    def _record_failed(self, exc: OSError, path: str = "") -> None:
        if self.monitor is not None:
            path = path or (self.monitor.recorder.path if self.monitor.recorder else "")
            self.monitor.stop_recording()
        self._record_error = _t("monitor.record.failed", path=path,
                                detail=exc.strerror or str(exc))
        self._retranslate_controls()
        self._show_recording()

    def _show_recording(self) -> None:
        recorder = self.monitor.recorder if self.monitor is not None else None
        if recorder is not None:
            text = _t("monitor.record.status", path=recorder.path, rows=recorder.rows)
        elif self.paused:
            text = _t("monitor.paused")
        else:
            text = self._record_error
        _set_text(self.record_status, text)
        if self.record_status.isHidden() == bool(text):
            self.record_status.setVisible(bool(text))

    # -- language -----------------------------------------------------------------------------
    def retranslate_ui(self) -> None:
        self.setTitle(_t("monitor.page.title"))
        self.setSubTitle(_t("monitor.page.subtitle"))
        self.demo_label.setText(_t("monitor.page.demo", profile=self.session.demo_name)
                                if self.session.demo_name else "")
        self.demo_label.setVisible(bool(self.session.demo_name))
        self.window_label.setText(_t("monitor.window.label"))
        index = max(0, self.window_box.currentIndex())
        self.window_box.blockSignals(True)
        self.window_box.clear()
        for key, _seconds in WINDOWS:
            self.window_box.addItem(_t(f"monitor.window.{key}"))
        self.window_box.setCurrentIndex(
            index if self.window_box.count() and index else
            [s for _k, s in WINDOWS].index(self.window_s))
        self.window_box.blockSignals(False)
        self.plots.set_titles({field: _t(title) for field, title in PLOTS})
        self.advice_box.setTitle(_t("monitor.advice.title"))
        self.process_box.setTitle(_t("monitor.processes.title"))
        self.processes.setHeaderLabels([
            _t("monitor.processes.gpu"), _t("monitor.processes.pid"),
            _t("monitor.processes.name"), _t("monitor.processes.memory"),
            _t("monitor.processes.command")])
        self.window_box.setAccessibleName(_t("monitor.window.label"))
        self.processes.setAccessibleName(_t("monitor.processes.title"))
        self._retranslate_controls()
        self.processes.clear()
        if self.monitor is not None:
            self.paint()

    def _retranslate_controls(self) -> None:
        self.pause_button.setText(_t("monitor.button.resume" if self.paused
                                     else "monitor.button.pause"))
        recording = self.monitor is not None and self.monitor.recorder is not None
        self.record_button.setText(_t("monitor.button.stop_record" if recording
                                      else "monitor.button.record"))
        self.mini_button.setText(_t("monitor.button.mini"))
        for button in (self.pause_button, self.record_button, self.mini_button):
            button.setAccessibleName(button.text())

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt override
        self.stop()
        super().closeEvent(event)


def _set_text(label: QLabel, text: str) -> None:
    """Only a changed text: setting a word-wrapped label's text lays the page out again."""
    if label.text() != text:
        label.setText(text)


def _limits(latest: Optional[dict[str, Any]]) -> dict[str, float]:
    """The known tops of the plots' Y scales: the largest memory size and power limit."""
    gpus = [g for g in (latest or {}).get("gpus") or [] if not g.get("error")]
    memory = [g["memory_total"] / 1048576 for g in gpus if g.get("memory_total")]
    power = [g["power_limit_w"] for g in gpus if g.get("power_limit_w")]
    return {"memory_used_mib": max(memory, default=0.0), "power_w": max(power, default=0.0)}


def _lang() -> str:
    from wizard import i18n

    return i18n.current_language()
