"""The benchmark page: is the framework really using the GPU, and is it as fast as it should
be? Start/cancel, live progress, the results against the GPU's peak, earlier runs to compare
with, export. In demo mode a recorded run is replayed instead of running anything."""

from __future__ import annotations

import contextlib
import threading
from pathlib import Path
from typing import Any, Optional

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QProgressBar,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QWidget,
)

from wizard import texts
from wizard.core import bench
from wizard.core.messages import msg
from wizard.core.session import CheckSession
from wizard.pages.base import WizardPageBase
from wizard.widgets.bench_chart import BenchCharts
from wizard.workers import FunctionWorker, WorkerError, WorkerManager

REFRESH_MS = 250
SEVERITY_COLOURS = {"ok": "#1e7e34", "warn": "#b26a00", "fail": "#b00020", "info": "#333333"}


def _t(message_id: str, **params: Any) -> str:
    return texts.render_message(msg(message_id, **params))


class BenchmarkPage(WizardPageBase):
    def __init__(self, session: CheckSession, workers: WorkerManager,
                 parent: Optional[QWidget] = None, history_folder: Optional[Path] = None,
                 demo_delay: float = 0.03) -> None:
        super().__init__(session, parent)
        self.workers = workers
        self.history_folder = history_folder
        self.demo_delay = demo_delay
        self._worker: Optional[FunctionWorker] = None
        self._records: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        self._progress: tuple[float, str] = (0.0, "")
        self.run: Optional[bench.BenchRun] = None
        self.python: Optional[str] = None
        self.history: list[tuple[Path, bench.BenchRun]] = []
        self.early_warning = None

        self.intro = QLabel(self)
        self.intro.setWordWrap(True)
        self.body.addWidget(self.intro)
        self.python_label = QLabel(self)
        self.python_label.setWordWrap(True)
        self.python_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.body.addWidget(self.python_label)

        controls = QHBoxLayout()
        self.start_button = QPushButton(self)
        self.start_button.setObjectName("bench_start")
        self.start_button.clicked.connect(self.start)
        self.quick_box = QCheckBox(self)
        self.quick_box.setChecked(True)
        self.cancel_button = QPushButton(self)
        self.cancel_button.setObjectName("bench_cancel")
        self.cancel_button.clicked.connect(self.cancel)
        self.cancel_button.setEnabled(False)
        self.bar = QProgressBar(self)
        self.bar.setRange(0, 1000)
        self.bar.setTextVisible(False)
        self.bar.setMaximumHeight(12)
        self.bar.hide()  # shown while a run goes on (a visible bar starts Qt helper threads)
        controls.addWidget(self.start_button)
        controls.addWidget(self.quick_box)
        controls.addWidget(self.cancel_button)
        controls.addWidget(self.bar, 1)
        self.body.addLayout(controls)
        self.step_label = QLabel(self)
        self.body.addWidget(self.step_label)

        self.verdicts = QLabel(self)
        self.verdicts.setWordWrap(True)
        self.verdicts.setTextFormat(Qt.TextFormat.RichText)
        self.verdicts.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.body.addWidget(self.verdicts)

        self.charts: Optional[BenchCharts] = None
        """Made when the page is first shown (pyqtgraph does nothing for the other pages)."""
        self._charts_at = self.body.count()

        history_row = QHBoxLayout()
        self.history_label = QLabel(self)
        self.history_box = QComboBox(self)
        self.history_box.currentIndexChanged.connect(lambda _i: self.refresh())
        history_row.addWidget(self.history_label)
        history_row.addWidget(self.history_box, 1)
        self.body.addLayout(history_row)

        self.table = QTreeWidget(self)
        self.table.setColumnCount(4)
        self.table.setRootIsDecorated(False)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.table.header().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.table.setMinimumHeight(180)
        self.body.addWidget(self.table, 1)

        exports = QHBoxLayout()
        self.json_button = QPushButton(self)
        self.json_button.clicked.connect(lambda: self.export("json"))
        self.markdown_button = QPushButton(self)
        self.markdown_button.clicked.connect(lambda: self.export("markdown"))
        self.export_status = QLabel(self)
        self.export_status.setWordWrap(True)
        exports.addWidget(self.json_button)
        exports.addWidget(self.markdown_button)
        exports.addWidget(self.export_status, 1)
        self.body.addLayout(exports)

        self.timer = QTimer(self)
        self.timer.setInterval(REFRESH_MS)
        self.timer.timeout.connect(self.refresh)
        self.load_history()
        self.retranslate_ui()

    # -- QWizardPage ----------------------------------------------------------------------------
    def initializePage(self) -> None:  # noqa: N802 - Qt override
        if self.python is None and not self.session.demo_name:
            self.python = self.session.python
        self.ensure_charts()
        self.retranslate_ui()

    def ensure_charts(self) -> BenchCharts:
        if self.charts is None:
            self.charts = BenchCharts(self)
            self.body.insertWidget(self._charts_at, self.charts)
            self._set_chart_titles()
        return self.charts

    def nextId(self) -> int:  # noqa: N802 - Qt override
        return -1

    # -- running --------------------------------------------------------------------------------
    @property
    def running(self) -> bool:
        return self._worker is not None and not self._worker.is_done()

    def start(self) -> None:
        if self.running:
            return
        with self._lock:
            self._records = []
        self.run = None
        self.early_warning = None
        self._progress = (0.0, "")
        self.export_status.setText("")
        self.bar.setRange(0, 0)
        self.bar.show()
        self._worker = self.workers.start(
            self._work, self.quick_box.isChecked(),
            slots={"sig_result": self._on_done, "sig_error": self._on_error,
                   "sig_cancelled": self._on_cancelled, "sig_progress": self._on_progress})
        self.start_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self.timer.start()
        self.refresh()

    def _work(self, progress, cancelled, quick: bool) -> bench.BenchRun:  # noqa: ANN001
        def on_record(record: dict[str, Any]) -> None:
            with self._lock:
                self._records.append(record)

        if self.session.demo_name:
            return bench.replay_run(bench.demo_recording(), on_record, progress, cancelled,
                                    delay=self.demo_delay, python=_t("bench.page.demo_python"))
        python = self.python or self.session.python or bench.find_bench_python()
        self.python = python
        if not python:
            return bench.BenchRun(outcome="not_found")
        return bench.run_bench(python, quick=quick, on_record=on_record, progress=progress,
                               cancelled=cancelled)

    def cancel(self) -> None:
        if self._worker is not None:
            self._worker.cancel()

    def _on_progress(self, fraction: float, step: str) -> None:
        self._progress = (fraction, step)
        if fraction > 0:
            self.bar.setRange(0, 1000)
            self.bar.setValue(int(max(0.0, min(1.0, fraction)) * 1000))

    def _finish(self, run: Optional[bench.BenchRun]) -> None:
        self.timer.stop()
        self.start_button.setEnabled(True)
        self.cancel_button.setEnabled(False)
        self.bar.setRange(0, 1000)
        self.bar.setValue(1000 if run is not None and run.outcome == "done" else 0)
        self.bar.hide()
        self.run = run
        if run is not None and run.results and not self.session.demo_name:
            with contextlib.suppress(OSError):
                bench.save_run(run, self._history_dir())
            self.load_history()
        self.refresh()

    def _on_done(self, run: bench.BenchRun) -> None:
        self._finish(run)

    def _on_cancelled(self) -> None:
        with self._lock:
            records = list(self._records)
        self._finish(bench.BenchRun(records=records, outcome="cancelled", python=self.python))

    def _on_error(self, error: WorkerError) -> None:
        self._finish(None)
        self.verdicts.setText(error.text)

    def shutdown(self) -> None:
        self.cancel()

    # -- history --------------------------------------------------------------------------------
    def _history_dir(self) -> Path:
        return self.history_folder or bench.history_dir()

    def load_history(self) -> None:
        self.history = bench.load_history(self._history_dir())
        self._fill_history()

    def _fill_history(self) -> None:
        current = self.history_box.currentIndex()
        self.history_box.blockSignals(True)
        self.history_box.clear()
        self.history_box.addItem(_t("bench.page.history_none"))
        for _path, run in self.history:
            self.history_box.addItem(_t("bench.page.history_entry", started=run.started or "?",
                                        gpu=run.gpu_name or "CPU"))
        self.history_box.setCurrentIndex(max(0, min(current, self.history_box.count() - 1)))
        self.history_box.blockSignals(False)

    def earlier_run(self) -> Optional[bench.BenchRun]:
        index = self.history_box.currentIndex()
        return self.history[index - 1][1] if index >= 1 else None

    # -- showing --------------------------------------------------------------------------------
    def current_run(self) -> Optional[bench.BenchRun]:
        if self.run is not None:
            return self.run
        with self._lock:
            records = list(self._records)
        if not records:
            return None
        return bench.BenchRun(records=records, python=self.python, outcome="running")

    def refresh(self) -> None:
        run = self.current_run()
        step = self._progress[1]
        if self.running:
            self.step_label.setText(_t("bench.page.running", step=texts.render_message(
                bench.step_message(step) if step else msg("bench.step.starting"))))
        elif run is None:
            self.step_label.setText(_t("bench.page.idle"))
        else:
            self.step_label.setText("")
        if run is not None and self.early_warning is None and run.hello:
            self.early_warning = bench.precheck(run.hello) or False
        self._show_verdicts(run)
        self._show_results(run)
        self.json_button.setEnabled(self.run is not None)
        self.markdown_button.setEnabled(self.run is not None)

    def _show_verdicts(self, run: Optional[bench.BenchRun]) -> None:
        if run is None:
            self.verdicts.setText("")
            return
        items = []
        if self.early_warning:
            items.append(("fail", self.early_warning))
        if run.outcome != "running":
            items = bench.judge(run).verdicts
        html = "".join(
            f'<p style="color:{SEVERITY_COLOURS.get(severity, "#333")}">'
            f"{_escape(texts.render_message(message))}</p>" for severity, message in items)
        self.verdicts.setText(html)

    def _show_results(self, run: Optional[bench.BenchRun]) -> None:
        self.table.clear()
        earlier = self.earlier_run()
        earlier_values = {}
        if earlier is not None:
            for result in earlier.results:
                earlier_values[_key(result)] = texts.render_message(bench.value_text(result))
        gpu_rows: list[tuple[str, float, Optional[float], Optional[float]]] = []
        sizes: dict[int, list[Optional[float]]] = {}
        if run is not None:
            j = bench.judge(run) if run.outcome != "running" else None
            for result in run.results:
                line = bench.result_line(result, j)
                share = line.get("percent_of_peak")
                item = QTreeWidgetItem([
                    texts.render_message(bench.describe(result)),
                    texts.render_message(bench.value_text(result)),
                    "" if share is None else f"{share:.0f}%",
                    earlier_values.get(_key(result), ""),
                ])
                self.table.addTopLevelItem(item)
                if result.get("kind") == "matmul" and result.get("step", "matmul") == "matmul":
                    n = int(result.get("n") or 0)
                    if result.get("device") == "cpu":
                        sizes.setdefault(n, [None, None])[0] = result.get("gflops")
                    elif line.get("label") == "fp32":
                        sizes.setdefault(n, [None, None])[1] = result.get("gflops")
            for skip in run.skips:
                self.table.addTopLevelItem(QTreeWidgetItem(
                    [str(skip.get("step") or ""), texts.render_message(bench.skip_text(skip)),
                     "", ""]))
            gpu_rows = _gpu_bars(run, j, earlier)
        if run is not None or self.charts is not None:
            self.ensure_charts().draw(
                gpu_rows, [(f"n={n}", v[0], v[1]) for n, v in sorted(sizes.items())])

    # -- export ---------------------------------------------------------------------------------
    def export(self, kind: str, path: Optional[str] = None) -> Optional[str]:
        if self.run is None:
            return None
        if path is None:
            suffix = "json" if kind == "json" else "md"
            path, _ = QFileDialog.getSaveFileName(self, "", f"gpu-benchmark.{suffix}")
            if not path:
                return None
        text = bench.to_json(self.run) if kind == "json" else bench.to_markdown(self.run, _lang())
        try:
            tmp = Path(path + ".tmp")
            tmp.write_text(text, encoding="utf-8")
            tmp.replace(path)
        except OSError as exc:
            self.export_status.setText(_t("bench.page.export_failed", path=path, error=str(exc)))
            return None
        self.export_status.setText(_t("bench.page.saved", path=path))
        return path

    # -- language -------------------------------------------------------------------------------
    def _set_chart_titles(self) -> None:
        if self.charts is not None:
            self.charts.set_titles(
                _t("bench.page.chart_title"), _t("bench.page.chart_cpu_title"),
                (_t("bench.page.chart_measured"), _t("bench.page.chart_peak"),
                 _t("bench.page.chart_earlier")))

    def retranslate_ui(self) -> None:
        self.setTitle(_t("bench.page.title"))
        self.intro.setText(_t("bench.page.subtitle"))
        if self.session.demo_name:
            self.python_label.setText(_t("bench.page.python", python=_t(
                "bench.page.demo_python")))
        elif self.python or self.session.python:
            self.python_label.setText(_t("bench.page.python",
                                         python=self.python or self.session.python))
        else:
            self.python_label.setText("")
        self.start_button.setText(_t("bench.page.start"))
        self.quick_box.setText(_t("bench.page.quick"))
        self.cancel_button.setText(_t("bench.page.cancel"))
        self.json_button.setText(_t("bench.page.export_json"))
        self.markdown_button.setText(_t("bench.page.export_markdown"))
        self.history_label.setText(_t("bench.page.history"))
        for widget, name in ((self.start_button, "bench.page.start"),
                             (self.quick_box, "bench.page.quick"),
                             (self.cancel_button, "bench.page.cancel"),
                             (self.json_button, "bench.page.export_json"),
                             (self.markdown_button, "bench.page.export_markdown"),
                             (self.history_box, "bench.page.history"),
                             (self.table, "bench.page.results"),
                             (self.bar, "bench.page.title")):
            widget.setAccessibleName(_t(name).rstrip(":：…"))
        self.table.setHeaderLabels([_t("bench.page.col_step"), _t("bench.page.col_value"),
                                    _t("bench.page.col_peak"), _t("bench.page.col_earlier")])
        self._set_chart_titles()
        self._fill_history()
        self.refresh()


def _lang() -> str:
    from wizard import i18n

    return i18n.current_language()


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _key(result: dict[str, Any]) -> tuple:
    return (result.get("kind"), result.get("device"), result.get("n"), result.get("dtype"),
            result.get("tf32"), result.get("xla"), result.get("step"),
            result.get("mixed_precision"), result.get("prefetch"))


def _gpu_bars(run: bench.BenchRun, j: Optional[bench.Judgement],
              earlier: Optional[bench.BenchRun]
              ) -> list[tuple[str, float, Optional[float], Optional[float]]]:
    """One bar group per precision at the largest size measured."""
    if j is None:
        j = bench.Judgement(None, None, [], None, None, None, None, None, [], None, [])
        figures = []
        for result in run.matmuls("gpu"):
            if result.get("gflops"):
                figures.append(bench.Figure(bench.label_of(result), int(result.get("n") or 0),
                                            result["gflops"] / 1000.0))
    else:
        figures = j.figures
    earlier_best: dict[str, float] = {}
    if earlier is not None:
        for figure in bench.judge(earlier).figures:
            earlier_best[figure.label] = max(earlier_best.get(figure.label, 0.0), figure.tflops)
    rows = []
    for label in ("fp32", "tf32", "fp16", "bf16"):
        candidates = [f for f in figures if f.label == label]
        if not candidates:
            continue
        best = max(candidates, key=lambda f: f.n)
        rows.append((label.upper(), best.tflops, best.peak_tflops, earlier_best.get(label)))
    return rows
