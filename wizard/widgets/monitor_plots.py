"""The monitor's live plots (pyqtgraph): one plot per quantity, one curve per GPU, redrawn from
the history's downsampled window. Drawing is skipped while the widget is hidden."""

from __future__ import annotations

from typing import Optional

import pyqtgraph as pg
from PySide6.QtWidgets import QGridLayout, QWidget

# (history field, message id of the title)
PLOTS = (
    ("util_gpu", "monitor.plot.util"),
    ("memory_used_mib", "monitor.plot.memory"),
    ("temperature", "monitor.plot.temperature"),
    ("power_w", "monitor.plot.power"),
    ("sm_clock", "monitor.plot.clocks"),
)
COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2",
           "#17becf")
MAX_POINTS = 600
"""At most this many points per curve, whatever the window (1 min to 24 h)."""


class MonitorPlots(QWidget):
    def __init__(self, parent: Optional[QWidget] = None) -> None:
        super().__init__(parent)
        pg.setConfigOptions(antialias=False, background="w", foreground="#333")
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        self.plots: dict[str, pg.PlotWidget] = {}
        self.curves: dict[str, list[pg.PlotDataItem]] = {}
        self._range: dict[str, float] = {}
        self.points_drawn = 0
        """Points handed to pyqtgraph in all (the tests read it)."""
        for position, (field, _title) in enumerate(PLOTS):
            plot = pg.PlotWidget(self)
            plot.setMenuEnabled(False)
            plot.setMouseEnabled(x=False, y=False)
            plot.hideButtons()
            # no grid: the axes repaint their grid lines over the whole plot every frame, most
            # of a repaint's cost
            plot.setMinimumHeight(120)
            if field == "util_gpu":
                plot.setYRange(0, 100, padding=0.02)
            self.plots[field] = plot
            self.curves[field] = []
            grid.addWidget(plot, position // 2, position % 2)

    def set_titles(self, titles: dict[str, str]) -> None:
        for field, plot in self.plots.items():
            plot.setTitle(titles.get(field, field), size="9pt")

    def _ensure_curves(self, gpus: int) -> None:
        for field, plot in self.plots.items():
            curves = self.curves[field]
            while len(curves) < gpus:
                pen = pg.mkPen(COLOURS[len(curves) % len(COLOURS)], width=1.5)
                curves.append(plot.plot([], [], pen=pen, connect="finite"))

    def draw(self, history, seconds: float) -> None:  # noqa: ANN001 - core's History
        """Redraw from ``history`` (wizard.core.monitor.History) over the last ``seconds``."""
        if history is None or not self.isVisible():
            return
        self._ensure_curves(history.gpus)
        for field, plot in self.plots.items():
            for gpu in range(history.gpus):
                times, values = history.series(field, gpu, seconds, points=MAX_POINTS)
                self.curves[field][gpu].setData(times, values)
                self.points_drawn += int(times.size)
            if self._range.get(field) != seconds:
                plot.setXRange(-seconds, 0, padding=0)
                self._range[field] = seconds
