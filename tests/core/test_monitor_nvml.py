"""The monitor's NVML session through the real nvidia-ml-py binding over the stand-in
libnvidia-ml.so.1 (tests/standin), in a child process that finds it through LD_LIBRARY_PATH."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests import standin
from wizard.core.messages import render
from wizard.core.monitor import error_message

pytestmark = pytest.mark.skipif(standin.compiler() is None,
                                reason="no C compiler to build the stand-in libnvidia-ml.so.1")


@pytest.fixture(scope="module")
def libdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return standin.build(tmp_path_factory.mktemp("standin"))


@pytest.fixture(scope="module")
def old_libdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return standin.build(tmp_path_factory.mktemp("standin-old"), old_driver=True)


def run(libdir: Path, config: Path, code: str) -> object:
    """Run ``code`` (which prints one JSON value last) against the stand-in."""
    prelude = textwrap.dedent("""
        import json, os, sys
        from tests.standin import write_config
        from pathlib import Path
        from wizard.core.host.nvml_session import NvmlSession
        CONFIG = Path(os.environ["NVML_STANDIN_CONFIG"])
    """)
    done = subprocess.run([sys.executable, "-c", prelude + textwrap.dedent(code)],
                          env=standin.environment(libdir, config), capture_output=True,
                          text=True, timeout=120, cwd=standin.REPO_ROOT)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


KNOWN = """\
count 2
g0.name NVIDIA GeForce RTX 4090
g0.util 97
g0.memutil 41
g0.mem_total 25757220864
g0.mem_used 20000000000
g0.temp 71
g0.power_mw 415123
g0.limit_mw 450000
g0.min_limit_mw 150000
g0.max_limit_mw 600000
g0.sm_clock 2520
g0.mem_clock 10501
g0.max_sm_clock 3105
g0.max_mem_clock 10501
g0.fan 63
g0.pstate 0
g0.reasons 0x24
g0.pcie_gen 4
g0.pcie_width 16
g1.name NVIDIA GeForce RTX 4060 Laptop GPU
g1.util 3
"""


def test_known_values_come_through_unchanged(libdir: Path, tmp_path: Path) -> None:
    config = tmp_path / "nvml.cfg"
    pid = __import__("os").getpid()
    standin.write_config(config, KNOWN + f"g1.pid {pid}\ng1.pid_mem 1073741824\n")
    out = run(libdir, config, """
        s = NvmlSession(retry_s=0)
        first = s.sample()
        print(json.dumps({"sample": first, "static": s.static(), "driver": s.driver_version}))
    """)
    sample = out["sample"]
    assert sample["error"] is None
    g0, g1 = sample["gpus"]
    assert g0 == {
        "index": 0, "error": None, "name": "NVIDIA GeForce RTX 4090", "util_gpu": 97,
        "util_memory": 41, "memory_used": 20000000000, "memory_total": 25757220864,
        "temperature": 71, "power_w": 415.123, "power_limit_w": 450.0, "sm_clock": 2520,
        "memory_clock": 10501, "fan": 63, "pstate": 0, "clock_reasons": 0x24, "processes": [],
    }
    assert g1["util_gpu"] == 3 and g1["name"].endswith("Laptop GPU")
    [proc] = g1["processes"]
    assert proc["pid"] == __import__("os").getpid() and proc["memory_used"] == 1073741824
    assert proc["name"] and "pytest" in proc["command"] or "python" in proc["command"]
    s0, s1 = out["static"]
    assert s0["max_sm_clock"] == 3105 and s0["max_memory_clock"] == 10501
    assert s0["power_limit_min_w"] == 150.0 and s0["power_limit_max_w"] == 600.0
    assert s0["pcie_gen"] == 4 and s0["pcie_width"] == 16 and s0["is_laptop"] is False
    assert s1["is_laptop"] is True
    assert out["driver"] == "555.42.06"


def test_unsupported_fields_are_not_available_and_not_asked_again(libdir: Path,
                                                                  tmp_path: Path) -> None:
    config = tmp_path / "nvml.cfg"
    standin.write_config(config, "unsupported fan\nunsupported power\nunsupported reasons\n"
                         "g0.util 55\n")
    out = run(libdir, config, """
        s = NvmlSession(retry_s=0)
        a = s.sample(); calls = s.calls; b = s.sample()
        print(json.dumps({"a": a, "b": b, "per_tick": [calls, s.calls - calls],
                          "unsupported": sorted(n for _, n in s.unsupported)}))
    """)
    for sample in (out["a"], out["b"]):
        gpu = sample["gpus"][0]
        assert gpu["fan"] is None and gpu["power_w"] is None and gpu["clock_reasons"] is None
        assert gpu["util_gpu"] == 55 and gpu["temperature"] == 60
    assert "nvmlDeviceGetFanSpeed" in out["unsupported"]
    first, second = out["per_tick"]
    assert second < first  # the static facts and the unsupported fields are not asked again


def test_functions_missing_from_an_older_driver_are_asked_once(old_libdir: Path,
                                                               tmp_path: Path) -> None:
    config = tmp_path / "nvml.cfg"
    standin.write_config(config, "g0.util 12\n")
    out = run(old_libdir, config, """
        import pynvml
        asked = {}
        real = pynvml._nvmlGetFunctionPointer
        def counting(name):
            asked[name] = asked.get(name, 0) + 1
            return real(name)
        pynvml._nvmlGetFunctionPointer = counting
        s = NvmlSession(retry_s=0)
        ticks = [s.sample() for _ in range(5)]
        print(json.dumps({"ticks": ticks, "missing": sorted(s.missing), "asked": asked}))
    """)
    assert all(t["gpus"][0]["fan"] is None and t["gpus"][0]["util_gpu"] == 12
               for t in out["ticks"])
    assert all(t["gpus"][0]["clock_reasons"] is None for t in out["ticks"])
    assert "nvmlDeviceGetFanSpeed" in out["missing"]
    assert out["asked"]["nvmlDeviceGetFanSpeed"] == 1
    assert out["asked"]["nvmlDeviceGetCurrentClocksEventReasons"] == 1
    assert out["asked"]["nvmlDeviceGetUtilizationRates"] == 5


def test_a_lost_gpu_is_reported_and_comes_back(libdir: Path, tmp_path: Path) -> None:
    config = tmp_path / "nvml.cfg"
    standin.write_config(config, "count 2\ng1.util 80\n")
    out = run(libdir, config, """
        s = NvmlSession(retry_s=0)
        ticks = [s.sample()]
        write_config(CONFIG, "count 2\\ng1.util 80\\nlost 2\\n")
        ticks += [s.sample() for _ in range(3)]
        write_config(CONFIG, "count 2\\ng1.util 81\\n")
        ticks += [s.sample() for _ in range(2)]
        print(json.dumps(ticks))
    """)
    states = [[g["error"] for g in t["gpus"]] for t in out]
    assert states == [[None, None]] + [[None, "gpu_lost"]] * 3 + [[None, None]] * 2
    assert out[1]["gpus"][1]["util_gpu"] is None and out[1]["gpus"][0]["util_gpu"] == 50
    assert out[-1]["gpus"][1]["util_gpu"] == 81
    assert all(t["error"] is None for t in out)


def test_nvml_failing_after_a_driver_update_is_retried_and_resumes(libdir: Path,
                                                                    tmp_path: Path) -> None:
    config = tmp_path / "nvml.cfg"
    standin.write_config(config, "g0.util 70\n")
    out = run(libdir, config, """
        s = NvmlSession(retry_s=0)
        ticks = [s.sample()]
        write_config(CONFIG, "fail 18\\ninit_error 18\\n")
        ticks += [s.sample() for _ in range(3)]
        write_config(CONFIG, "g0.util 71\\n")
        ticks += [s.sample() for _ in range(2)]
        print(json.dumps(ticks))
    """)
    assert [t["error"] for t in out] == [None] + ["driver_library_mismatch"] * 3 + [None] * 2
    assert out[-1]["gpus"][0]["util_gpu"] == 71
    assert "mismatch" in out[1]["detail"]


@pytest.mark.parametrize("code,kind", [
    (1, "uninitialized"), (2, "invalid_argument"), (4, "no_permission"), (6, "not_found"),
    (9, "driver_not_loaded"), (12, "library_not_found"), (15, "gpu_lost"),
    (17, "operating_system"), (18, "driver_library_mismatch"), (999, "unknown"),
    (42, "unknown"),
])
def test_init_failing_with_each_error_code_gives_a_clear_message(
        libdir: Path, tmp_path: Path, code: int, kind: str) -> None:
    config = tmp_path / "nvml.cfg"
    standin.write_config(config, f"init_error {code}\n")
    out = run(libdir, config, """
        s = NvmlSession(retry_s=3600)
        print(json.dumps([s.sample(), s.sample()]))
    """)
    first, second = out
    assert first["error"] == kind and first["gpus"] == []
    assert second["error"] == kind  # retried later, not on every tick
    for lang in ("en", "zh_CN"):
        text = render(error_message(first["error"], first["detail"]), lang)
        assert first["detail"] in text and "{" not in text and "?" not in text.replace(
            "？", "")
    english = render(error_message(first["error"], first["detail"]), "en")
    if kind == "driver_library_mismatch":
        assert "Restart the computer" in english
    if kind == "no_permission":
        assert "video group" in english


def test_library_not_found_when_nothing_is_installed(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    config = tmp_path / "nvml.cfg"
    config.write_text("", encoding="utf-8")
    out = run(empty, config, """
        s = NvmlSession(retry_s=0)
        print(json.dumps(s.sample()))
    """) if not _real_nvml_present() else None
    if out is None:
        pytest.skip("this machine has a real libnvidia-ml.so.1")
    assert out["error"] == "library_not_found"


def _real_nvml_present() -> bool:
    import ctypes

    try:
        ctypes.CDLL("libnvidia-ml.so.1")
    except OSError:
        return False
    return True


def test_the_cli_prints_one_json_object_per_sample(libdir: Path, tmp_path: Path) -> None:
    config = tmp_path / "nvml.cfg"
    standin.write_config(config, KNOWN)
    csv_path = tmp_path / "run.csv"
    done = subprocess.run(
        [sys.executable, "-m", "wizard", "monitor", "--interval", "0", "--count", "3",
         "--json", "--csv", str(csv_path)],
        env=standin.environment(libdir, config), capture_output=True, text=True, timeout=120,
        cwd=standin.REPO_ROOT)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert len(lines) == 3
    samples = [json.loads(line) for line in lines]
    assert [g["util_gpu"] for g in samples[0]["gpus"]] == [97, 3]
    assert samples[0]["gpus"][0]["clock_reason_names"] == ["power_cap", "sw_thermal"]
    rows = csv_path.read_text(encoding="utf-8").splitlines()
    assert len(rows) == 1 + 3 * 2  # header, one row per GPU per tick
    assert rows[1].split(",")[2:4] == ["0", "NVIDIA GeForce RTX 4090"]


def test_the_cli_text_output_in_both_languages(libdir: Path, tmp_path: Path) -> None:
    config = tmp_path / "nvml.cfg"
    standin.write_config(config, KNOWN + "unsupported fan\n")
    for lang, word in (("en", "util 97%"), ("zh_CN", "利用率 97%")):
        done = subprocess.run(
            [sys.executable, "-m", "wizard", "monitor", "--interval", "0", "--count", "1",
             "--lang", lang],
            env=standin.environment(libdir, config), capture_output=True, text=True,
            timeout=120, cwd=standin.REPO_ROOT)
        assert done.returncode == 0, done.stderr
        assert word in done.stdout
        assert ("fan n/a" if lang == "en" else "风扇 不可用") in done.stdout
