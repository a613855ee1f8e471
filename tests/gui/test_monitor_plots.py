"""The monitor's plots draw little: clock-aligned bucket means, a redraw only when a bucket
changed, nothing while hidden, Y scales fixed at known limits (no auto-range every tick)."""

from __future__ import annotations

import numpy as np
import pytest

from wizard.core.monitor import History
from wizard.widgets.monitor_plots import (
    MAX_POINTS,
    MonitorPlots,
    bucket_seconds,
    nice_ceiling,
    window_points,
)


def history(ticks: int, gpus: int = 2, start: float = 1_000_000.0,
            util=lambda t: t % 100) -> History:  # noqa: ANN001
    hist = History(gpus=gpus, capacity=ticks + 10)
    for t in range(ticks):
        hist.append({"time": start + t,
                     "gpus": [{"index": g, "util_gpu": util(t), "temperature": 50 + g,
                               "memory_used": 2**30 * (g + 1), "power_w": None}
                              for g in range(gpus)]})
    return hist


def add_tick(hist: History, t: float, util: float = 1.0) -> None:
    hist.append({"time": t, "gpus": [{"index": g, "util_gpu": util}
                                     for g in range(hist.gpus)]})


@pytest.fixture
def plots(qtbot):
    widget = MonitorPlots()
    qtbot.addWidget(widget)
    widget.resize(800, 600)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def test_short_windows_draw_the_raw_ticks():
    hist = history(400)
    times, values = window_points(hist, 300, bucket_seconds(300))
    assert times.size == 301 and times[-1] == 0 and times[0] == -300
    assert values.shape == (5, 2, 301)
    assert values[0, 0, -1] == 399 % 100
    assert np.isnan(values[3]).all()  # power not available: NaN, never 0
    assert np.all(values[2, 1] == 51)


def test_long_windows_draw_clock_aligned_bucket_means():
    start = 1_200_000.0  # a multiple of 6 s: the pattern below is aligned to the buckets
    hist = history(7300, start=start, util=lambda t: 10.0 * (t // 6 % 2))  # 0, 10 by 6 s
    step = bucket_seconds(3600)
    assert step == 6.0
    times, values = window_points(hist, 3600, step)
    assert times.size <= MAX_POINTS + 1
    assert times[-1] == 0
    # each completed bucket holds six ticks of one value: the means are exact, not blurred
    complete = values[0, 0, 1:-1]
    assert set(np.unique(complete)) <= {0.0, 10.0}
    # a completed bucket's mean and place (in clock time) do not move when a tick is added
    before = dict(zip(times[1:-1] + start + 7299, complete))
    add_tick(hist, start + 7300, util=10.0 * (7300 // 6 % 2))
    times2, values2 = window_points(hist, 3600, step)
    after = dict(zip(times2[1:-1] + start + 7300, values2[0, 0, 1:-1]))
    common = set(before) & set(after)
    assert len(common) >= MAX_POINTS - 3
    assert all(before[end] == after[end] for end in common)


def test_a_gap_stays_a_gap_in_the_bucket_means():
    hist = history(1200)
    for slot in range(600, 700):  # GPU 1 did not answer for 100 s
        hist.data[:, 1, slot] = np.nan
    times, values = window_points(hist, 1200, 2.0)
    assert np.isnan(values[0, 1]).any() and not np.isnan(values[0, 0]).any()


def test_nice_ceiling():
    assert [nice_ceiling(v) for v in (1, 3, 24564, 450, 2.1, 2600, 104, 7000)] == \
        [1, 3, 25000, 500, 2.5, 3000, 120, 8000]


def test_a_redraw_only_when_something_changed(plots):
    hist = history(4000)
    assert plots.draw(hist, 300)
    assert not plots.draw(hist, 300)  # no new sample: nothing drawn
    add_tick(hist, 1_000_000.0 + 4000)
    assert plots.draw(hist, 300)
    # an hour's window: a 6 s bucket; ticks within one bucket change nothing drawn
    assert plots.draw(hist, 3600)
    redraws = plots.redraws
    t = 1_000_000.0 + 4001
    drawn = []
    for _ in range(12):
        add_tick(hist, t)
        drawn.append(plots.draw(hist, 3600))
        t += 1
    assert 2 <= sum(drawn) <= 3 and plots.redraws == redraws + sum(drawn)


def test_nothing_is_drawn_while_hidden(plots):
    hist = history(100)
    plots.hide()
    assert not plots.draw(hist, 60)
    assert plots.points_drawn == 0
    plots.show()
    assert plots.draw(hist, 60) and plots.points_drawn > 0


def test_the_y_scales_are_fixed_at_the_limits_and_widen_only_when_exceeded(plots):
    hist = history(100)
    view = {field: plot.getViewBox() for field, plot in plots.plots.items()}
    assert not any(v.autoRangeEnabled()[1] for v in view.values())
    plots.draw(hist, 60, {"memory_used_mib": 24564.0, "power_w": 450.0})
    assert view["memory_used_mib"].viewRange()[1][1] == pytest.approx(24564 * 1.02, rel=0.001)
    assert view["power_w"].viewRange()[1][1] == pytest.approx(450 * 1.02, rel=0.001)
    assert view["util_gpu"].viewRange()[1][1] == pytest.approx(102, rel=0.01)
    assert view["temperature"].viewRange()[1][1] == pytest.approx(102, rel=0.01)
    assert view["util_gpu"].viewRange()[0] == pytest.approx([-60, 0])
    hist.append({"time": 1_000_100.0, "gpus": [{"index": 0, "temperature": 104}]})
    plots.draw(hist, 60, {"memory_used_mib": 24564.0, "power_w": 450.0})
    assert view["temperature"].viewRange()[1][1] == pytest.approx(120 * 1.02, rel=0.01)
    hist.append({"time": 1_000_101.0, "gpus": [{"index": 0, "power_w": 470.0}]})
    plots.draw(hist, 60, {"memory_used_mib": 24564.0, "power_w": 450.0})
    assert view["power_w"].viewRange()[1][1] == pytest.approx(500 * 1.02, rel=0.01)


def test_each_gpu_has_its_colour_and_many_gpus_get_thinner_lines(plots):
    plots.draw(history(10, gpus=2), 60)
    pens = [curve.opts["pen"] for curve in plots.curves["util_gpu"]]
    assert [p.color().name() for p in pens] == ["#1f77b4", "#d62728"]
    assert {p.widthF() for p in pens} == {2.0}
    plots.draw(history(10, gpus=8), 60)
    pens = [curve.opts["pen"] for curve in plots.curves["power_w"]]
    assert len({p.color().name() for p in pens}) == 8 and {p.widthF() for p in pens} == {1.0}
