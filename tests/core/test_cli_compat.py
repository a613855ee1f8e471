"""``gpu-wizard compat`` through the real entry point (``python -m wizard``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def run_compat(*args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(REPO), QT_QPA_PLATFORM="offscreen")
    return subprocess.run(
        [sys.executable, "-m", "wizard", "compat", *args],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=str(REPO),
        env=env,
    )


def test_windows_2_10_json():
    result = run_compat("--tf", "2.10", "--os", "windows", "--json")
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    assert {
        "tensorflow": answer["tensorflow"],
        "os": answer["os"],
        "gpu_support": answer["gpu_support"],
        "cuda": answer["cuda"],
        "cudnn": answer["cudnn"],
        "python": answer["python"],
        "min_driver": answer["min_driver"],
        "min_driver_compat": answer["min_driver_compat"],
    } == {
        "tensorflow": "2.10.0",
        "os": "windows",
        "gpu_support": True,
        "cuda": "11.2",
        "cudnn": "8.1",
        "python": "3.7-3.10",
        "min_driver": "460.82",
        "min_driver_compat": "452.39",
    }
    assert answer["install_command"] == 'pip install "tensorflow<2.11"'
    assert answer["pip_cuda"] is False
    assert "source_windows.md" in answer["sources"]["tensorflow"]


def test_windows_2_11_has_no_gpu():
    answer = json.loads(run_compat("--tf", "2.11.0", "--os", "windows", "--json").stdout)
    assert answer["gpu_support"] is False
    assert answer["cuda"] is None and answer["cudnn"] is None
    assert answer["min_driver"] is None and answer["min_driver_compat"] is None
    assert answer["last_windows_gpu_tf"] == "2.10"


def test_wsl2_uses_linux_table_and_windows_driver_column():
    answer = json.loads(run_compat("--tf", "2.15", "--os", "wsl2", "--json").stdout)
    assert (answer["cuda"], answer["cudnn"], answer["pip_cuda"]) == ("12.2", "8.9", True)
    assert answer["min_driver"] == "536.25"  # CUDA 12.2 GA, Windows column
    assert answer["min_driver_compat"] == "527.41"
    assert answer["and_cuda_pins"]["nvidia-cudnn-cu12"] == "==8.9.4.25"


def test_cuda_only_lists_tf_builds():
    answer = json.loads(run_compat("--cuda", "11.8", "--os", "linux", "--json").stdout)
    assert answer["tensorflow"] == ["2.14.0", "2.13.0", "2.12.0"]
    assert answer["min_driver"] == "520.61.05" and answer["min_driver_compat"] == "450.80.02"
    assert answer["gpu_support"] is True


def test_no_version_gives_the_recommended_release():
    answer = json.loads(run_compat("--os", "windows", "--json").stdout)
    assert answer["tensorflow"] == "2.10.0" and answer["recommended"] is True


def test_text_output_names_sources():
    result = run_compat("--tf", "2.10", "--os", "windows")
    assert result.returncode == 0
    assert "TensorFlow 2.10.0 on native Windows" in result.stdout
    assert "Sources:" in result.stdout and "460.82" in result.stdout


def test_unknown_versions_exit_2_with_a_message():
    result = run_compat("--tf", "2.99", "--os", "linux")
    assert result.returncode == 2
    assert "TensorFlow 2.99 is not in the compatibility table" in result.stderr
    assert "gpu-wizard compat --os linux" in result.stderr
    bad_cuda = run_compat("--cuda", "99.1", "--os", "windows")
    assert bad_cuda.returncode == 2 and "CUDA 99.1" in bad_cuda.stderr
    garbage = run_compat("--tf", "latest", "--os", "linux")
    assert garbage.returncode == 2 and "not a version number" in garbage.stderr
