"""``fix cudnn --download`` on Linux and WSL2: where TensorFlow loads cuDNN from its pip wheels,
the wizard names the pip command instead of copying NVIDIA's archive into a toolkit folder that
TensorFlow would not read; and a toolkit's CUDA version is read even without version.json (the
toolkits NVIDIA's pip wheels lay out have only include/cuda.h)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from wizard.core.cuda_installs import toolkit_version
from wizard.core.fixes.cuda_installer import cudnn_route
from wizard.core.host import LocalHost, ReplayHost
from wizard.core.messages import render

REPO = Path(__file__).resolve().parents[2]
PROFILES = REPO / "tests" / "profiles"


def test_a_toolkit_without_version_json_is_read_from_cuda_h(tmp_path: Path) -> None:
    (tmp_path / "include").mkdir()
    (tmp_path / "include" / "cuda.h").write_text("/* header */\n#define CUDA_VERSION 13000\n")
    assert toolkit_version(LocalHost(), str(tmp_path)) == "13.0"
    (tmp_path / "version.json").write_text('{"cuda": {"name": "CUDA SDK", "version": "12.4.1"}}')
    assert toolkit_version(LocalHost(), str(tmp_path)) == "12.4.1"


def test_linux_with_a_wheel_target_gets_the_pip_command() -> None:
    host = ReplayHost.from_file(PROFILES / "linux-tf221-and-cuda-healthy.json")
    route = cudnn_route(host, "2.21", None)
    assert route is not None and route.id == "installs.cudnn.route_pip"
    assert 'pip install "tensorflow[and-cuda]' in route.params["command"]
    assert "--cuda-dir" in render(route) and "“--cuda-dir”" in render(route, "zh_CN")


def test_a_tf_that_loads_the_system_cudnn_and_windows_keep_the_archive() -> None:
    linux = ReplayHost.from_file(PROFILES / "linux-tf221-and-cuda-healthy.json")
    assert cudnn_route(linux, "2.12", None) is None
    windows = ReplayHost.from_file(PROFILES / "win-tf210-cudnn-never-copied.json")
    assert cudnn_route(windows, "2.10", None) is None


def _fix_cudnn(fix_state: Path, *extra: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "GPU_WIZARD_STATE_DIR": str(fix_state), "LANG": "en_US.UTF-8"}
    return subprocess.run(
        [sys.executable, "-m", "wizard", "fix", "cudnn", "--download", "--dry-run", *extra],
        capture_output=True, text=True, timeout=300, check=False, env=env, cwd=str(REPO))


@pytest.mark.skipif(sys.platform == "win32", reason="the Linux route")
def test_cli_names_the_route_and_downloads_nothing(fix_state: Path) -> None:
    result = _fix_cudnn(fix_state, "--tf", "2.21")
    assert result.returncode == 2, result.stderr
    assert "loads cuDNN from its pip wheels" in result.stderr
    assert 'pip install "tensorflow[and-cuda]' in result.stderr
    assert not list(fix_state.rglob("*.part"))


@pytest.mark.skipif(sys.platform == "win32", reason="the Linux route")
def test_cli_with_a_named_toolkit_plans_the_archive(fix_state: Path, tmp_path: Path) -> None:
    toolkit = tmp_path / "cuda-12.4"
    (toolkit / "include").mkdir(parents=True)
    (toolkit / "include" / "cuda.h").write_text("#define CUDA_VERSION 12040\n")
    result = _fix_cudnn(fix_state, "--tf", "2.21", "--cuda-dir", str(toolkit))
    assert result.returncode == 0, result.stderr
    assert "cudnn-linux-x86_64-9." in result.stdout and "cuda12" in result.stdout
    assert "for CUDA 12.4" in result.stdout


def test_a_replayed_windows_machine_plans_its_own_download_folder() -> None:
    """Demo mode on another system: the plan names where the wizard would keep the file on
    that Windows machine, not the cache folder of the machine that replays it."""
    from wizard.core.fixes.cuda_installer import plan_cuda
    from wizard.core.fixes.cudnn_download import download_plan

    host = ReplayHost.from_file(PROFILES / "win-tf210-cudnn-never-copied.json")
    dest = r"C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v11.2"
    cudnn = download_plan(host, {"dest": dest, "cudnn": "8.1", "cuda": "11.2"})
    cuda = plan_cuda(ReplayHost.from_file(PROFILES / "win-cuda-not-installed.json"),
                     tensorflow="2.10")
    for plan in (cudnn, cuda):
        assert plan.path.startswith("C:\\") or plan.path.startswith("c:\\"), plan.path
        assert "\\gpu-wizard\\Cache\\downloads\\" in plan.path
        shown = "\n".join(render(m) for m in plan.messages())
        assert "gpu-wizard\\Cache\\downloads" in shown and "/.cache/" not in shown
