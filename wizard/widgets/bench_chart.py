"""The benchmark's bar charts (pyqtgraph): GPU matmul TFLOP/s per precision against the GPU's
peak (and an earlier run), and CPU against GPU FP32 GFLOP/s per size."""

from __future__ import annotations

from typing import Optional

import pyqtgraph as pg
from PySide6.QtWidgets import QHBoxLayout, QWidget

MEASURED, PEAK, EARLIER = "#1f77b4", "#c7d7ea", "#ff7f0e"
CPU_COLOUR, GPU_COLOUR = "#7f7f7f", "#2ca02c"


def _plot(parent: QWidget) -> pg.PlotWidget:
    plot = pg.PlotWidget(parent)
    plot.setMenuEnabled(False)
    plot.setMouseEnabled(x=False, y=False)
    plot.hideButtons()
    plot.showGrid(x=False, y=True, alpha=0.2)
    plot.setMinimumHeight(200)
    return plot


class BenchCharts(QWidget):
    def __init__(self, parent: Optional[QWidget] = None) -> None:
        super().__init__(parent)
        pg.setConfigOptions(antialias=True, background="w", foreground="#333")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.gpu_plot = _plot(self)
        self.cpu_plot = _plot(self)
        layout.addWidget(self.gpu_plot, 3)
        layout.addWidget(self.cpu_plot, 2)
        self.bars: dict[str, list[float]] = {}
        """What is drawn, by series (the tests read it)."""
        self._legend_names = ("measured", "peak", "earlier")
        self.gpu_legend = self.gpu_plot.addLegend(offset=(-5, 5))

    def set_titles(self, gpu_title: str, cpu_title: str, names: tuple[str, str, str]) -> None:
        self.gpu_plot.setTitle(gpu_title, size="9pt")
        self.cpu_plot.setTitle(cpu_title, size="9pt")
        self._legend_names = names

    def draw(self, gpu: list[tuple[str, float, Optional[float], Optional[float]]],
             cpu_gpu: list[tuple[str, Optional[float], Optional[float]]]) -> None:
        """``gpu``: (label, measured TFLOP/s, peak, earlier run); ``cpu_gpu``: (size label,
        CPU GFLOP/s, GPU FP32 GFLOP/s)."""
        self.gpu_plot.clear()
        self.gpu_legend.clear()
        self.cpu_plot.clear()
        xs = list(range(len(gpu)))
        peaks = [p or 0.0 for _, _, p, _ in gpu]
        measured = [m for _, m, _, _ in gpu]
        earlier = [e or 0.0 for _, _, _, e in gpu]
        self.bars = {"peak": peaks, "measured": measured, "earlier": earlier}
        if gpu:
            self.gpu_plot.addItem(pg.BarGraphItem(
                x=xs, height=peaks, width=0.8, brush=PEAK, pen=None, name=self._legend_names[1]))
            offset = 0.18 if any(earlier) else 0.0
            self.gpu_plot.addItem(pg.BarGraphItem(
                x=[x - offset for x in xs], height=measured, width=0.36 if offset else 0.5,
                brush=MEASURED, pen=None, name=self._legend_names[0]))
            if any(earlier):
                self.gpu_plot.addItem(pg.BarGraphItem(
                    x=[x + offset for x in xs], height=earlier, width=0.36, brush=EARLIER,
                    pen=None, name=self._legend_names[2]))
            # headroom above the tallest bar, where the legend sits without covering a bar
            top = max([*peaks, *(m or 0.0 for m in measured), *earlier, 1.0])
            self.gpu_plot.setYRange(0, top * 1.6, padding=0)
        self.gpu_plot.getAxis("bottom").setTicks([[(x, g[0]) for x, g in zip(xs, gpu)]])
        cx = list(range(len(cpu_gpu)))
        cpu = [c or 0.0 for _, c, _ in cpu_gpu]
        gpu32 = [g or 0.0 for _, _, g in cpu_gpu]
        self.bars.update(cpu=cpu, gpu32=gpu32)
        if cpu_gpu:
            self.cpu_plot.addItem(pg.BarGraphItem(x=[x - 0.2 for x in cx], height=cpu, width=0.4,
                                                  brush=CPU_COLOUR, pen=None))
            self.cpu_plot.addItem(pg.BarGraphItem(x=[x + 0.2 for x in cx], height=gpu32,
                                                  width=0.4, brush=GPU_COLOUR, pen=None))
            self.cpu_plot.setLogMode(x=False, y=False)
        self.cpu_plot.getAxis("bottom").setTicks([[(x, c[0]) for x, c in zip(cx, cpu_gpu)]])
