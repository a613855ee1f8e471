"""The monitor's live plots (pyqtgraph): one plot per quantity, one curve per GPU, redrawn from
the history's window downsampled to at most ``MAX_POINTS`` points.

The page leaves this open for hours, so a redraw must cost almost nothing (goal: the whole page
under 1% of a core at 1 Hz, ``benchmarks/monitor_cost.py``). What keeps it cheap:

- buckets aligned to the clock: a completed bucket never changes, so a window whose bucket is
  longer than a second (15 min and longer) is redrawn when a bucket completes, not every
  tick; nothing is drawn when no new sample came, nor while hidden or minimized;
- one read of the history window for all plots and GPUs, bucket means for all of them at once;
- bare ``PlotCurveItem``\\ s (no ``PlotDataItem`` layer, no finite check where there is no gap);
- no auto-range: X is fixed at ``[-window, 0]`` and Y at a known scale (0-100 %, the memory
  size, the power limit), widened to a round number only when a value goes above it, so the
  axes are laid out once and not again every tick;
- the axes cached as pixmaps; 1 px lines beyond 4 GPUs (the rasteriser's fast path).
"""

from __future__ import annotations

import math
from typing import Any, Optional

import numpy as np
import pyqtgraph as pg
from PySide6.QtWidgets import QGraphicsItem, QGridLayout, QWidget

from wizard.core.monitor import HISTORY_FIELDS

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
ROWS = [HISTORY_FIELDS.index(field) for field, _title in PLOTS]
FIXED_TOP = {"util_gpu": 100.0}
"""Y scales that never change; the others start at the GPU's limit (or 100) and widen."""


class MonitorPlots(QWidget):
    def __init__(self, parent: Optional[QWidget] = None) -> None:
        super().__init__(parent)
        pg.setConfigOptions(antialias=False, background="w", foreground="#333")
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        self.plots: dict[str, pg.PlotWidget] = {}
        self.curves: dict[str, list[pg.PlotCurveItem]] = {}
        self._seconds = 0.0
        self._top: dict[str, float] = {}
        self._drawn_key: Optional[tuple[Any, ...]] = None
        self.points_drawn = 0
        """Points handed to pyqtgraph in all (the tests read it)."""
        self.redraws = 0
        """Redraws done (a redraw skipped because nothing changed is not counted)."""
        for position, (field, _title) in enumerate(PLOTS):
            plot = pg.PlotWidget(self)
            plot.setMenuEnabled(False)
            plot.setMouseEnabled(x=False, y=False)
            plot.hideButtons()
            plot.getViewBox().disableAutoRange()
            for name in ("left", "bottom"):
                # a curve's update repaints the axes beside it: from a pixmap, not by drawing
                # the tick labels' text again (they change only with the scale)
                plot.getAxis(name).setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
            # no grid: the axes repaint their grid lines over the whole plot every frame, most
            # of a repaint's cost
            plot.setMinimumHeight(120)
            self.plots[field] = plot
            self.curves[field] = []
            grid.addWidget(plot, position // 2, position % 2)
        self._set_x_range(300.0)
        for field in self.plots:
            self._set_top(field, FIXED_TOP.get(field, 100.0))

    def set_titles(self, titles: dict[str, str]) -> None:
        for field, plot in self.plots.items():
            plot.setTitle(titles.get(field, field), size="9pt")

    def _ensure_curves(self, gpus: int) -> None:
        if all(len(curves) >= gpus for curves in self.curves.values()):
            return
        width = pen_width(gpus)
        for field, plot in self.plots.items():
            curves = self.curves[field]
            while len(curves) < gpus:
                curve = pg.PlotCurveItem(connect="finite", antialias=False)
                plot.addItem(curve)
                curves.append(curve)
            for index, curve in enumerate(curves):
                curve.setPen(pg.mkPen(COLOURS[index % len(COLOURS)], width=width))

    def draw(self, history: Any, seconds: float,
             limits: Optional[dict[str, float]] = None) -> bool:
        """Redraw from ``history`` (wizard.core.monitor.History) over the last ``seconds``.
        ``limits`` are known tops of the Y scales (``memory_used_mib``: the memory size,
        ``power_w``: the power limit). False when nothing was drawn: hidden, minimized, or no
        bucket changed since the last redraw."""
        if history is None or not self.isVisible() or self.window().isMinimized():
            return False
        if seconds != self._seconds:
            self._set_x_range(seconds)
        step = bucket_seconds(seconds)
        newest = float(history.times[(history.count - 1) % history.capacity]) \
            if history.count else 0.0
        # a window of raw ticks changes with every tick; a bucketed one when a bucket
        # completes (the unfinished bucket is drawn as it was then: less than a point behind)
        key = (id(history), seconds, history.gpus,
               history.count if step <= 1.0 else math.floor(newest / step))
        if key == self._drawn_key:
            return False
        self._drawn_key = key
        self._ensure_curves(history.gpus)
        times, values = window_points(history, seconds, step)
        for column, (field, _title) in enumerate(PLOTS):
            self._scale(field, values[column], (limits or {}).get(field))
            for gpu, curve in enumerate(self.curves[field][: history.gpus]):
                ys = values[column, gpu]
                curve.setData(times, ys, skipFiniteCheck=bool(np.isfinite(ys).all()))
                self.points_drawn += int(times.size)
        self.redraws += 1
        return True

    def _set_x_range(self, seconds: float) -> None:
        self._seconds = seconds
        self._drawn_key = None
        for plot in self.plots.values():
            plot.setXRange(-seconds, 0, padding=0)

    def _scale(self, field: str, values: np.ndarray, limit: Optional[float]) -> None:
        """The Y scale's top: the GPU's limit where one is known (the memory size, the power
        limit), else a round number above the highest value; widened when a value goes above
        it, so the axes are laid out again only when the scale really changes."""
        if field in FIXED_TOP:
            return
        current = self._top.get(field, 0.0)
        highest = float(np.nanmax(values)) if np.isfinite(values).any() else 0.0
        top = limit if limit and limit > 0 else current
        if highest > top:
            top = nice_ceiling(highest)
        if top != current and (top > current or limit):
            self._set_top(field, top)

    def _set_top(self, field: str, top: float) -> None:
        self._top[field] = top
        self.plots[field].setYRange(0, top, padding=0.02)


def pen_width(gpus: int) -> float:
    """2 px lines for up to 4 GPUs (1.5 px lines come out 1 or 2 px wide by where they fall, as
    the rasteriser rounds them); thinner beyond, where 8 curves share a plot (a 1 px line
    is also the rasteriser's fast path: 8 GPUs cost a quarter less to draw)."""
    return 2.0 if gpus <= 4 else 1.0


def bucket_seconds(seconds: float) -> float:
    """The bucket length for a window: ``MAX_POINTS`` buckets span it."""
    return seconds / MAX_POINTS


def window_points(history: Any, seconds: float, step: float
                  ) -> tuple[np.ndarray, np.ndarray]:
    """(times, values[plot, gpu, point]) of the plotted fields over the last ``seconds``;
    times are seconds before the newest tick.

    Raw ticks while they are no more than ``MAX_POINTS`` and a bucket is not longer than a
    second (1 and 5 min at 1 Hz); otherwise the NaN-aware mean of each ``step``-second bucket,
    aligned to the clock so that a completed bucket's mean never changes, placed at the
    bucket's end (the newest, unfinished bucket at the newest tick)."""
    times, data = history.window(seconds)
    data = data[ROWS]
    if not times.size:
        return np.empty(0), data
    newest = times[-1]
    if step <= 1.0 and times.size <= MAX_POINTS:
        return times - newest, data
    buckets = np.floor(times / step)
    starts = np.flatnonzero(np.r_[True, buckets[1:] != buckets[:-1]])
    valid = ~np.isnan(data)
    sums = np.add.reduceat(np.where(valid, data, 0.0), starts, axis=2)
    counts = np.add.reduceat(valid, starts, axis=2)
    with np.errstate(invalid="ignore", divide="ignore"):
        means = np.where(counts > 0, sums / np.maximum(counts, 1), np.nan).astype(np.float32)
    ends = np.minimum((buckets[starts] + 1) * step, newest)
    return ends - newest, means


def nice_ceiling(value: float) -> float:
    """The smallest round number (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6 or 8 times a power of ten)
    that is at least ``value``."""
    power = 10.0 ** math.floor(math.log10(value))
    for factor in (1.0, 1.2, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0):
        if factor * power >= value:
            return factor * power
    return 10.0 * power
