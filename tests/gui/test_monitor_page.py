"""The live GPU monitor page: over the stand-in libnvidia-ml.so.1 (the real nvidia-ml-py
binding pointed at it), and playing a profile's recorded ticks in demo mode."""

from __future__ import annotations

import ctypes
import os
import sys
from pathlib import Path

import numpy as np
import pytest
from conftest import SHARED_PROFILES

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tests import standin  # noqa: E402
from wizard.pages.ids import PageId  # noqa: E402

CONFIG = """\
count 2
g0.name Stand-in RTX 4090
g0.util 97
g0.mem_used 4294967296
g1.util 12
"""


@pytest.fixture
def standin_nvml(tmp_path, monkeypatch):
    """pynvml loads the stand-in (as it would load the driver's library); restored after."""
    if standin.compiler() is None:
        pytest.skip("no C compiler to build the stand-in libnvidia-ml.so.1")
    import pynvml

    libdir = standin.build(tmp_path / "lib")
    config = tmp_path / "nvml.cfg"
    standin.write_config(config, CONFIG + f"g0.pid {os.getpid()}\ng0.pid_mem 1073741824\n")
    monkeypatch.setenv("NVML_STANDIN_CONFIG", str(config))
    saved = pynvml.nvmlLib
    pynvml._nvmlGetFunctionPointer_cache.clear()
    pynvml.nvmlLib = ctypes.CDLL(str(libdir / "libnvidia-ml.so.1"))
    yield config
    pynvml.nvmlLib = saved
    pynvml._nvmlGetFunctionPointer_cache.clear()


def live_source():
    from wizard.core.host.nvml_session import NvmlSession
    from wizard.core.monitor import LiveSource

    source = LiveSource(NvmlSession(retry_s=0))
    source.interval_s = 0.05
    return source


def test_the_live_page_plots_samples_and_closing_stops_the_sampler(qtbot, make_wizard,
                                                                   standin_nvml):
    wiz = make_wizard(SHARED_PROFILES / "linux-dual-4090-healthy.json", start_page="monitor",
                      monitor_source=live_source)
    wiz.show()
    assert wiz.currentId() == PageId.MONITOR
    page = wiz.monitor
    qtbot.waitUntil(lambda: page.monitor.history is not None
                    and page.monitor.history.count >= 3, timeout=10000)
    page.paint()
    assert page.plots.points_drawn > 0
    xs, ys = page.plots.curves["util_gpu"][0].getData()
    assert len(ys) >= 3 and np.all(ys == 97)
    _, ys1 = page.plots.curves["util_gpu"][1].getData()
    assert np.all(ys1 == 12)
    assert "Stand-in RTX 4090" in page.gpu_lines.text()
    assert page.processes.topLevelItemCount() == 1
    assert page.processes.topLevelItem(0).text(1) == str(os.getpid())
    thread = page.sampler.thread
    assert thread.isRunning()
    wiz.close()
    assert thread.isFinished() and page.sampler is None


def test_the_live_page_survives_a_lost_gpu(qtbot, make_wizard, standin_nvml):
    wiz = make_wizard(SHARED_PROFILES / "linux-dual-4090-healthy.json", start_page="monitor",
                      monitor_source=live_source)
    wiz.show()
    page = wiz.monitor
    qtbot.waitUntil(lambda: page.monitor.latest is not None, timeout=10000)
    standin.write_config(standin_nvml, CONFIG + "lost 1\n")
    qtbot.waitUntil(lambda: page.monitor.latest["gpus"][0]["error"] == "gpu_lost",
                    timeout=10000)
    page.paint()
    assert "not answering" in page.gpu_lines.text()
    standin.write_config(standin_nvml, CONFIG)
    qtbot.waitUntil(lambda: page.monitor.latest["gpus"][0]["error"] is None, timeout=10000)
    wiz.close()


def test_the_demo_plays_the_profile_and_shows_advice_in_both_languages(qtbot, make_wizard,
                                                                      tmp_path):
    from wizard import i18n

    wiz = make_wizard(SHARED_PROFILES / "linux-dual-4090-healthy.json", start_page="monitor")
    wiz.monitor._source_factory = _fast(wiz.monitor._source_factory)
    wiz.show()
    page = wiz.monitor
    qtbot.waitUntil(lambda: page.monitor.history is not None
                    and page.monitor.history.count >= 30, timeout=20000)
    page.paint()
    assert "prefetch" in page.advice_label.text()
    assert "linux-dual-4090-healthy" in page.demo_label.text()
    path = tmp_path / "rec.csv"
    assert page.start_recording(str(path))
    qtbot.waitUntil(lambda: page.monitor.recorder.rows >= 4, timeout=10000)
    page.stop_recording()
    assert path.read_text(encoding="utf-8").startswith("time_iso,")
    from PySide6.QtWidgets import QApplication as app
    try:
        i18n.install_language(app.instance(), "zh_CN")
        page.paint()
        qtbot.waitUntil(lambda: page.pause_button.text() == "暂停", timeout=5000)
        page.paint()
        assert "训练在等待输入数据" in page.advice_label.text()
    finally:
        i18n.install_language(app.instance(), "en")
    qtbot.waitUntil(lambda: page.pause_button.text() == "Pause", timeout=5000)
    page.toggle_pause()
    assert page.paused and page.pause_button.text() == "Resume"
    page.toggle_mini()
    assert page.mini.isVisible()
    wiz.close()
    assert not page.mini.isVisible()


def test_the_summary_leads_to_the_monitor(qtbot, make_wizard):
    wiz = make_wizard(SHARED_PROFILES / "linux-dual-4090-healthy.json")
    wiz.show()
    wiz.summary.monitor_button.click()
    assert wiz.currentId() == PageId.MONITOR
    qtbot.waitUntil(lambda: wiz.monitor.is_sampling(), timeout=10000)
    wiz.close()
    assert not wiz.monitor.is_sampling()


def _fast(factory):
    def make():
        source = factory()
        source.interval_s = 0.02
        return source

    return make


def test_the_paint_timer_redraws_only_what_changed(qtbot, make_wizard):
    wiz = make_wizard(SHARED_PROFILES / "linux-dual-4090-healthy.json", start_page="monitor")
    wiz.monitor._source_factory = _fast(wiz.monitor._source_factory)
    wiz.show()
    page = wiz.monitor
    qtbot.waitUntil(lambda: page.monitor.history is not None
                    and page.monitor.history.count >= 5, timeout=20000)
    page.stop()  # no more samples
    page.paint()
    redraws, advice = page.plots.redraws, page.advice_label.text()
    page.refresh()  # the paint timer, without a new sample: nothing is drawn
    assert page.plots.redraws == redraws
    page.monitor.add(dict(page.monitor.latest, time=page.monitor.latest["time"] + 1))
    page.advice_label.setText("stale")
    page.refresh()  # a new sample: the plots follow; the advice waits for its period
    assert page.plots.redraws == redraws + 1
    assert page.advice_label.text() == "stale"
    page.paint()  # an explicit repaint redraws everything
    assert page.advice_label.text() == advice
    wiz.close()
