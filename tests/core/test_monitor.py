"""The monitor's core without NVML: history, CSV, advice, replayed profile ticks."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import pytest

from wizard.core.host import ReplayHost
from wizard.core.messages import render
from wizard.core.monitor import (
    CSV_COLUMNS,
    DAY_S,
    History,
    Monitor,
    ReplaySource,
    advise,
    open_source,
    reason_names,
    sample_json,
)

PROFILES = Path(__file__).resolve().parents[1] / "profiles"


def sample(t: float, util: int | None = 50, **gpu: object) -> dict:
    entry = {"index": 0, "error": None, "name": "G", "util_gpu": util, "memory_used": 2**30,
             "memory_total": 8 * 2**30, "temperature": 60, "processes": []}
    entry.update(gpu)
    return {"time": t, "error": None, "gpus": [entry]}


def test_history_is_bounded_and_keeps_the_newest() -> None:
    history = History(gpus=2, capacity=100)
    for t in range(250):
        history.append({"time": float(t), "gpus": [{"index": 0, "util_gpu": t},
                                                    {"index": 1, "util_gpu": None}]})
    times, values = history.series("util_gpu", 0, seconds=10)
    assert list(values) == list(range(239, 250)) and times[-1] == 0 and times[0] == -11 + 1
    _, missing = history.series("util_gpu", 1, seconds=10)
    assert np.isnan(missing).all()  # not available stays not available, never 0
    assert history.size == 100


def test_24_hours_of_two_gpus_fit_in_under_50_mb() -> None:
    history = History(gpus=2, capacity=DAY_S)
    assert history.nbytes() < 50 * 2**20
    for t in range(DAY_S + 500):
        history.times[t % DAY_S] = t  # fill quickly; append is measured in the benchmark
    history.count = DAY_S + 500
    times, _ = history.window(DAY_S)
    assert times.size == DAY_S and times[0] == 500 and times[-1] == DAY_S + 499


def test_downsampled_series_keeps_the_shape() -> None:
    history = History(gpus=1, capacity=3600)
    for t in range(3600):
        history.append(sample(float(t), util=100 if t >= 1800 else 0))
    times, values = history.series("util_gpu", 0, seconds=3600, points=600)
    assert 590 <= times.size <= 601
    assert values[0] == 0 and values[-1] == 100 and times[-1] == 0


def test_csv_has_the_documented_columns_one_row_per_gpu_per_tick(tmp_path: Path) -> None:
    source = ReplaySource(ReplayHost.from_file(PROFILES / "linux-dual-4090-healthy.json").monitor)
    monitor = Monitor(source, capacity=60)
    path = tmp_path / "run.csv"
    monitor.start_recording(path)
    for _ in range(5):
        monitor.tick()
    monitor.stop_recording()
    rows = list(csv.reader(path.open(encoding="utf-8")))
    assert tuple(rows[0]) == CSV_COLUMNS
    assert len(rows) == 1 + 5 * 2
    first = dict(zip(rows[0], rows[1]))
    assert first["gpu"] == "0" and first["util_gpu_pct"] == "96"
    assert first["processes"].startswith("48211:python3:")
    assert dict(zip(rows[0], rows[2]))["clock_reasons"] == "idle"


def test_not_available_is_empty_in_csv_and_null_in_json(tmp_path: Path) -> None:
    monitor = Monitor(ReplaySource({"ticks": [{"gpus": [{"index": 0, "fan": None}]}]}))
    path = tmp_path / "x.csv"
    monitor.start_recording(path)
    tick = monitor.tick()
    monitor.close()
    row = dict(zip(*list(csv.reader(path.open(encoding="utf-8")))))
    assert row["fan_pct"] == "" and row["power_w"] == ""
    assert json.loads(sample_json(tick))["gpus"][0]["fan"] is None


def test_the_starving_input_pipeline_is_named_with_tf_data() -> None:
    host = ReplayHost.from_file(PROFILES / "linux-dual-4090-healthy.json")
    monitor = Monitor(open_source(host), capacity=120)
    for _ in range(30):
        monitor.tick()
    kinds = {(a.kind, a.gpu) for a in monitor.advice()}
    assert kinds == {("starving", 0)}
    [advice] = monitor.advice()
    english, chinese = render(advice.message, "en"), render(advice.message, "zh_CN")
    assert "prefetch" in english and "num_parallel_calls" in english and "python3" in english
    assert "prefetch" in chinese and "训练在等待输入数据" in chinese


def test_the_laptop_throttles_hot_at_a_low_power_limit() -> None:
    host = ReplayHost.from_file(PROFILES / "win-tf210-healthy.json")
    monitor = Monitor(open_source(host), capacity=120)
    for _ in range(100):
        monitor.tick()
    kinds = {a.kind for a in monitor.advice()}
    assert {"memory_full", "throttle.power_cap", "throttle.sw_thermal",
            "laptop_low_power"} <= kinds
    thermal = next(a for a in monitor.advice() if a.kind == "throttle.sw_thermal")
    assert "87 °C" in render(thermal.message, "en")


def test_no_advice_for_a_healthy_busy_gpu() -> None:
    recent = [sample(float(t), util=98, processes=[{"pid": 1, "memory_used": 2**30}])
              for t in range(30)]
    assert advise(recent) == []


def test_idle_gpu_without_a_process_is_not_starving() -> None:
    assert advise([sample(float(t), util=0) for t in range(30)]) == []


def test_reason_names() -> None:
    assert reason_names(0x24) == ["power_cap", "sw_thermal"]
    assert reason_names(None) == [] and reason_names(0) == []


def test_a_bad_tick_in_a_profile_is_one_clear_line(tmp_path: Path) -> None:
    from wizard.core.host import HostError

    data = json.loads((PROFILES / "win-tf210-healthy.json").read_text(encoding="utf-8"))
    data["monitor"]["ticks"][3]["gpus"][0]["util_gpu"] = "high"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(HostError, match=r"monitor\.ticks\[3\]\.gpus\[0\]\.util_gpu"):
        ReplayHost.from_file(path)
