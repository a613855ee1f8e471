"""The benchmark's parsing and judging on recorded runs, its history and exports, the NVML
sampler on a stand-in binding, and cancel of a real child process tree (no TensorFlow here:
the real runs are in tests/integration/test_bench_real.py)."""

from __future__ import annotations

import importlib.util
import json
import os
import sys
import textwrap
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from wizard.core import bench
from wizard.core.host.clock_sampler import ClockSampler, reason_names
from wizard.core.knowledge.gpus import gpu_spec
from wizard.core.messages import render

DATA = Path(__file__).parent / "data" / "bench"
REPO = Path(__file__).resolve().parents[2]


def recorded(name: str) -> bench.BenchRun:
    with open(DATA / name, encoding="utf-8") as handle:
        return bench.parse_lines(handle)


def ids(judgement: bench.Judgement) -> list[str]:
    return [message.id for _, message in judgement.verdicts]


def probe_module():
    spec = importlib.util.spec_from_file_location("bench_probe", REPO / "resources" / "probes"
                                                  / "bench.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_laptop_that_throttles_is_held_back_by_the_power_limit() -> None:
    run = recorded("laptop-3070ti-power-capped.jsonl")
    j = bench.judge(run)
    assert j.spec["name"] == "GeForce RTX 3070 Ti Laptop" and j.spec["sm_count"] == 46
    assert j.clock_mhz == pytest.approx(1095, abs=15)
    assert j.reasons == ["sw_power_cap"]
    fp16 = bench.headline(j.figures)
    assert (fp16.label, fp16.n) == ("fp16", 4096)
    # 22.1 of the laptop range's top (35.0 TFLOP/s at 1485 MHz); at 1095 MHz the peak is 25.8
    assert fp16.percent_of_peak == pytest.approx(100 * 22.1 / 35.0)
    assert fp16.clock_peak_tflops == pytest.approx(35.0 * 1095 / 1485, rel=0.02)
    assert fp16.percent_of_clock_peak > 80
    severity, message = j.verdicts[0]
    assert (severity, message.id) == ("warn", "bench.verdict.power_limited")
    english = render(message, "en")
    assert "held back by the power limit" in english and "1095 MHz" in english
    assert "功耗上限" in render(message, "zh_CN")
    assert j.speedup == pytest.approx(8100 / 610)
    assert "bench.verdict.mixed_speedup" in ids(j)
    assert "bench.verdict.data_starves" in ids(j)


def test_the_same_laptop_without_throttling_is_about_what_it_should_do() -> None:
    run = recorded("laptop-3070ti-power-capped.jsonl")
    for sample in run.samples:
        sample["reasons"] = 0
        sample["sm_clock_mhz"] = 1485
    for result in run.results:
        if result.get("kind") == "matmul" and result["device"] == "gpu":
            result["gflops"] *= 1485 / 1095
    j = bench.judge(run)
    assert j.verdicts[0][1].id == "bench.verdict.as_expected"


def test_low_clock_without_a_reason_and_slow_gpu_are_told_apart() -> None:
    run = recorded("laptop-3070ti-power-capped.jsonl")
    for sample in run.samples:
        sample["reasons"] = 0
    assert bench.judge(run).verdicts[0][1].id == "bench.verdict.clock_low"
    for result in run.results:
        if result.get("kind") == "matmul" and result["device"] == "gpu":
            result["gflops"] /= 3
    assert bench.judge(run).verdicts[0][1].id == "bench.verdict.slower"


def test_gpu_too_new_for_the_build_is_a_clear_message() -> None:
    run = recorded("laptop-5080-too-new-for-tf.jsonl")
    j = bench.judge(run)
    severity, message = j.verdicts[0]
    assert (severity, message.id) == ("fail", "bench.verdict.gpu_unsupported_tf")
    text = render(message, "en")
    assert "cannot run on the NVIDIA GeForce RTX 5080 Laptop GPU (compute capability 12.0)" in text
    assert "CUDA_ERROR_INVALID_HANDLE" in text and "sm_89" in text
    assert "无法在" in render(message, "zh_CN")
    assert j.figures == [] and j.speedup is None
    assert [r["device"] for r in run.results] == ["cpu", "cpu"]


def test_precheck_warns_before_anything_runs() -> None:
    hello = {"backend": "torch", "version": "2.3.0+cu121",
             "gpus": [{"name": "NVIDIA GeForce RTX 5090", "compute_capability": [12, 0]}],
             "gpu_support": {"ok": False, "arch_list": ["sm_80", "sm_86", "sm_90"]}}
    message = bench.precheck(hello)
    assert message is not None and message.id == "bench.verdict.gpu_unsupported_torch"
    assert "sm_80, sm_86, sm_90" in render(message, "en")
    hello["gpu_support"]["ok"] = True
    assert bench.precheck(hello) is None


@pytest.mark.parametrize("cc, archs, expected", [
    ([8, 6], ["sm_80", "compute_90"], True),        # sm_80 SASS runs on 8.6
    ([8, 9], ["sm_80", "sm_86", "sm_90"], True),
    ([9, 0], ["sm_80", "sm_86"], False),             # no SASS for 9.x, no PTX
    ([12, 0], ["sm_80", "sm_90"], False),
    ([12, 0], ["sm_80", "compute_90"], None),        # PTX JIT: the tiny op decides
    ([7, 5], ["sm_75"], True),
    ([6, 1], ["sm_70", "sm_80"], False),
])
def test_the_probe_tells_which_builds_run_on_which_gpu(cc, archs, expected) -> None:
    assert probe_module().arch_supported(cc, archs)[0] is expected


def test_healthy_datacenter_gpu_and_tf32_peak() -> None:
    j = bench.judge(recorded("h200-torch-healthy.jsonl"))
    assert j.verdicts[0][1].id == "bench.verdict.as_expected"
    tf32 = next(f for f in j.figures if f.label == "tf32" and f.n == 4096)
    assert tf32.peak_tflops == pytest.approx(989 / 2)
    assert j.speedup == pytest.approx(51300 / 1100)


def test_a_figure_above_the_peak_is_a_measurement_error() -> None:
    run = recorded("h200-torch-healthy.jsonl")
    for result in run.results:
        if result.get("dtype") == "float16":
            result["gflops"] = 2.0e6
    assert bench.judge(run).verdicts[0][1].id == "bench.verdict.suspect"


def test_unknown_gpu_reports_the_figure_without_a_peak() -> None:
    run = recorded("h200-torch-healthy.jsonl")
    run.nvml_name = "NVIDIA Imaginary 9000"
    run.records[0]["gpus"][0]["name"] = "NVIDIA Imaginary 9000"
    assert bench.judge(run).verdicts[0][1].id == "bench.verdict.unknown_gpu"


def test_real_cpu_only_run_is_measured_and_says_so() -> None:
    run = recorded("tf-cpu-quick.jsonl")
    assert run.hello["backend"] == "tensorflow"
    j = bench.judge(run)
    assert ids(j)[0] == "bench.verdict.cpu_only_build"
    for result in run.matmuls("cpu"):
        n = result["n"]
        assert result["gflops"] == pytest.approx(2 * n**3 / result["median_s"] / 1e9)
        assert len(result["samples_s"]) == result["repeats"] >= 3
        assert result["median_s"] == pytest.approx(sorted(result["samples_s"])[1])


@pytest.mark.parametrize("name", ["NVIDIA GeForce RTX 3070 Ti Laptop GPU",
                                  "GeForce RTX 3070 Ti Laptop GPU",
                                  "nvidia geforce rtx 3070 ti laptop gpu"])
def test_laptop_names_match_the_laptop_row(name: str) -> None:
    spec = gpu_spec(name)
    assert spec["segment"] == "laptop" and spec["sm_count"] == 46
    assert bench.spec_peak(spec, "fp16") == (35.0, 1485.0)
    assert gpu_spec("NVIDIA GeForce RTX 3070 Ti")["segment"] == "desktop"


def test_result_lines_carry_device_n_dtype_gflops() -> None:
    run = recorded("laptop-3070ti-power-capped.jsonl")
    j = bench.judge(run)
    lines = [bench.result_line(r, j) for r in run.results if r["kind"] == "matmul"]
    for line in lines:
        assert {"device", "n", "dtype", "gflops"} <= set(line)
        json.dumps(line)
    gpu = next(line for line in lines if line["device"] == "gpu" and line["label"] == "fp16"
               and line["n"] == 4096 and line["step"] == "matmul")
    assert gpu["percent_of_peak"] == pytest.approx(63.1, abs=0.1)


def test_history_and_exports(tmp_path: Path) -> None:
    run = recorded("laptop-3070ti-power-capped.jsonl")
    first = bench.save_run(run, tmp_path)
    second = bench.save_run(recorded("tf-cpu-quick.jsonl"), tmp_path)
    (tmp_path / "bench-broken.json").write_text("{", encoding="utf-8")
    history = bench.load_history(tmp_path)
    assert [path for path, _ in history] == [second, first]
    assert not list(tmp_path.glob("*.tmp"))
    again = history[1][1]
    assert again.records == run.records and again.samples == run.samples
    data = json.loads(bench.to_json(again))
    assert data["judgement"]["verdicts"][0]["id"] == "bench.verdict.power_limited"
    assert bench.parse_lines(bench.recording_lines(run)).records == run.records
    for lang, words in (("en", "held back by the power limit"), ("zh_CN", "受功耗上限限制")):
        text = bench.to_markdown(run, lang)
        assert words in text and "| 22.10 TFLOP/s | 63% |" in text


def test_parse_ignores_foreign_lines() -> None:
    run = bench.parse_lines(["WARNING: something", "{not json", '{"bench": "other"}',
                             '{"bench": "gpu-wizard/bench@1", "type": "done", "seconds": 1}'])
    assert [r["type"] for r in run.records] == ["done"] and run.seconds == 1


class FakeNvml:
    NVML_CLOCK_SM = 1

    def __init__(self) -> None:
        self.shut = False

    def nvmlInit(self) -> None: ...
    def nvmlShutdown(self) -> None: self.shut = True  # noqa: E704
    def nvmlDeviceGetHandleByIndex(self, index: int) -> str: return "h"  # noqa: E704
    def nvmlDeviceGetName(self, handle: str) -> bytes: return b"NVIDIA GeForce RTX 3070 Ti Laptop GPU"  # noqa: E501,E704
    def nvmlDeviceGetMemoryInfo(self, handle: str): return SimpleNamespace(total=8 << 30)  # noqa: E704
    def nvmlDeviceGetClockInfo(self, handle: str, which: int) -> int: return 1095  # noqa: E704
    def nvmlDeviceGetMaxClockInfo(self, handle: str, which: int) -> int: return 1485  # noqa: E704
    def nvmlDeviceGetPowerUsage(self, handle: str) -> int: return 104_800  # noqa: E704
    def nvmlDeviceGetEnforcedPowerLimit(self, handle: str) -> int: return 105_000  # noqa: E704
    def nvmlDeviceGetUtilizationRates(self, handle: str): return SimpleNamespace(gpu=99)  # noqa: E704,E501
    def nvmlDeviceGetCurrentClocksEventReasons(self, handle: str) -> int: return 0x4 | 0x20  # noqa: E704,E501


def test_clock_sampler_reads_clock_power_and_reasons() -> None:
    fake = FakeNvml()
    sampler = ClockSampler(interval=0.01, module=fake).start()
    time.sleep(0.2)
    samples = sampler.stop()
    assert sampler.error is None and fake.shut
    assert sampler.name == "NVIDIA GeForce RTX 3070 Ti Laptop GPU"
    assert len(samples) >= 3
    sample = samples[0]
    assert (sample["sm_clock_mhz"], sample["power_w"], sample["utilization"]) == (1095, 104.8, 99)
    assert sample["temperature_c"] is None  # the binding lacks it: None, not a failure
    assert reason_names(sample["reasons"]) == ["sw_power_cap", "sw_thermal"]


def test_clock_sampler_without_a_driver_says_why() -> None:
    class Broken(FakeNvml):
        def nvmlInit(self) -> None:
            raise OSError("libnvidia-ml.so.1: cannot open shared object file")

    sampler = ClockSampler(interval=0.01, module=Broken()).start()
    assert sampler.stop() == [] and "libnvidia-ml" in sampler.error


FAKE_BENCH = textwrap.dedent("""
    import json, os, subprocess, sys, time
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
    print(json.dumps({"bench": "gpu-wizard/bench@1", "type": "hello", "backend": "torch",
                      "gpus": [], "cpu": {"pid": os.getpid(), "child": child.pid}}), flush=True)
    print(json.dumps({"bench": "gpu-wizard/bench@1", "type": "progress", "fraction": 0.5,
                      "step": "matmul cpu n=512"}), flush=True)
    time.sleep(120)
""")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except OSError:
        return False
    try:  # a zombie is dead for our purpose
        with open(f"/proc/{pid}/stat", encoding="utf-8") as handle:
            return handle.read().split()[2] != "Z"
    except OSError:
        return True


@pytest.mark.skipif(sys.platform == "win32", reason="reads /proc")
def test_cancel_kills_the_whole_process_tree(tmp_path: Path) -> None:
    script = tmp_path / "fake_bench.py"
    script.write_text(FAKE_BENCH, encoding="utf-8")
    seen: list[dict] = []
    progress: list[tuple[float, str]] = []
    started = time.monotonic()
    run = bench.run_bench(sys.executable, script=str(script), on_record=seen.append,
                          progress=lambda f, t: progress.append((f, t)),
                          cancelled=lambda: any(r["type"] == "progress" for r in seen),
                          sample_nvml=False, timeout=60)
    assert time.monotonic() - started < 20
    assert run.outcome == "cancelled"
    assert progress == [(0.5, "matmul cpu n=512")]
    cpu = run.hello["cpu"]
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and (_alive(cpu["pid"]) or _alive(cpu["child"])):
        time.sleep(0.05)
    assert not _alive(cpu["pid"]) and not _alive(cpu["child"])
    assert bench.judge(run).verdicts[0][1].id == "bench.verdict.cancelled"


def test_a_missing_interpreter_is_not_found(tmp_path: Path) -> None:
    run = bench.run_bench(str(tmp_path / "nope" / "python"), sample_nvml=False)
    assert run.outcome == "not_found"
    assert bench.judge(run).verdicts[0][1].id == "bench.verdict.not_found"


def test_a_child_that_dies_is_crashed(tmp_path: Path) -> None:
    script = tmp_path / "dies.py"
    script.write_text("import sys; sys.exit(3)\n", encoding="utf-8")
    run = bench.run_bench(sys.executable, script=str(script), sample_nvml=False, timeout=30)
    assert run.outcome == "crashed"
    assert bench.judge(run).verdicts[0][1].id == "bench.verdict.crashed"
