"""The benchmark page in demo mode: a recorded run replayed (start, live results, verdicts,
charts against the peak, cancel, history comparison, export, both languages) and its place in
the wizard (after the monitor)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from wizard.core import bench
from wizard.pages.benchmark_page import BenchmarkPage
from wizard.pages.ids import PageId

PROFILE = Path(__file__).resolve().parents[1] / "profiles" / "linux-dual-4090-healthy.json"
DATA = Path(__file__).resolve().parents[1] / "core" / "data" / "bench"


@pytest.fixture
def page(make_wizard, tmp_path):
    wiz = make_wizard(PROFILE)
    old = wiz.benchmark
    page = BenchmarkPage(wiz.session, wiz.workers, history_folder=tmp_path / "history",
                         demo_delay=0.0)
    wiz.removePage(PageId.BENCHMARK)
    old.deleteLater()
    wiz.setPage(PageId.BENCHMARK, page)
    wiz.benchmark = page
    return page


def run_to_end(qtbot, page) -> None:
    page.start_button.click()
    qtbot.waitUntil(lambda: page.run is not None, timeout=20000)


def test_demo_run_shows_results_verdicts_and_charts(qtbot, page) -> None:
    assert page.session.demo_name
    assert not page.json_button.isEnabled()
    run_to_end(qtbot, page)
    assert page.run.outcome == "done"
    assert page.table.topLevelItemCount() == len(page.run.results) + len(page.run.skips)
    first = page.table.topLevelItem(0)
    assert first.text(0) == "matmul on the CPU, FP32, n=512" and first.text(1) == "410.0 GFLOP/s"
    assert "held back by the power limit" in page.verdicts.text()
    bars = page.charts.bars
    assert bars["measured"] == pytest.approx([8.1, 11.6, 22.1, 21.8])
    assert bars["peak"] == pytest.approx([17.49, 17.49, 35.0, 35.0])
    # sizes 512, 1024, 2048 (CPU) and 1024, 2048, 4096 (GPU FP32)
    assert bars["cpu"] == pytest.approx([410.0, 560.0, 610.0, 0.0])
    assert bars["gpu32"] == pytest.approx([0.0, 4455.0, 6885.0, 8100.0])
    assert page.start_button.isEnabled() and not page.cancel_button.isEnabled()


def test_language_switch_renders_the_page_in_chinese(qtbot, page, monkeypatch) -> None:
    from wizard import texts

    run_to_end(qtbot, page)
    monkeypatch.setattr(texts, "_lang", lambda: "zh_CN")
    page.retranslate_ui()
    assert "受功耗上限限制" in page.verdicts.text()
    assert page.start_button.text() == "开始"
    assert page.table.topLevelItem(0).text(0) == "CPU 矩阵乘法，FP32，n=512"


def test_cancel_stops_the_replay(qtbot, page) -> None:
    page.demo_delay = 0.2
    page.start_button.click()
    qtbot.waitUntil(lambda: page.table.topLevelItemCount() >= 1, timeout=10000)
    page.cancel_button.click()
    qtbot.waitUntil(lambda: page.run is not None, timeout=10000)
    assert page.run.outcome == "cancelled"
    assert "cancelled" in page.verdicts.text()
    assert len(page.run.results) < 20


def test_earlier_run_is_compared_and_exports_are_written(qtbot, page, tmp_path) -> None:
    with open(DATA / "h200-torch-healthy.jsonl", encoding="utf-8") as handle:
        earlier = bench.parse_lines(handle)
    earlier.started = "2026-11-01T10:00:00+00:00"
    bench.save_run(earlier, tmp_path / "history")
    page.load_history()
    assert page.history_box.count() == 2
    page.history_box.setCurrentIndex(1)
    run_to_end(qtbot, page)
    assert page.charts.bars["earlier"] == pytest.approx([51.3, 390.0, 745.0, 760.0])
    gpu_fp32 = next(page.table.topLevelItem(i) for i in range(page.table.topLevelItemCount())
                    if page.table.topLevelItem(i).text(0) == "matmul on the GPU, FP32, n=4096")
    assert gpu_fp32.text(3) == "51.30 TFLOP/s" and gpu_fp32.text(2) == "46%"
    saved = page.export("json", str(tmp_path / "run.json"))
    assert json.loads(Path(saved).read_text(encoding="utf-8"))["judgement"]["gpu"]
    markdown = page.export("markdown", str(tmp_path / "run.md"))
    assert "| matmul on the GPU, FP16, n=4096 | 22.10 TFLOP/s | 63% |" in Path(
        markdown).read_text(encoding="utf-8")
    assert not list(tmp_path.glob("*.tmp"))


def test_the_benchmark_comes_after_the_monitor(make_wizard) -> None:
    wiz = make_wizard(PROFILE)
    assert PageId.BENCHMARK == 8
    last = getattr(PageId, "MONITOR", PageId.SUMMARY)
    wiz.intro.jump_to = last
    wiz.restart()
    wiz.next()
    wiz.intro.jump_to = None
    assert wiz.currentId() == last
    assert wiz.nextId() == PageId.BENCHMARK
    wiz.next()
    assert wiz.currentId() == PageId.BENCHMARK
    assert wiz.nextId() == -1 and wiz.benchmark.isFinalPage()
