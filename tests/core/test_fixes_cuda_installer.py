"""fix cuda --download (wizard.core.fixes.cuda_installer): the exact installer and silent
components for the target (replayed Windows machines), the route on Linux and WSL2, and the real
code path run against a stand-in installer that records its arguments and writes the toolkit's
files (a Windows-platform LocalHost on this machine)."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.core import dl_server
from tests.core.standin_installer import make_standin, windows_host
from wizard.core import downloads
from wizard.core.fixes import cuda_installer
from wizard.core.fixes.cuda_installer import fetch, plan_cuda, run_installer, verify
from wizard.core.fixes.plan import FixCancelled, FixError
from wizard.core.host import LocalHost, ReplayHost
from wizard.core.knowledge import redist
from wizard.core.messages import render

REPO = Path(__file__).resolve().parents[2]
PROFILES = REPO / "tests" / "profiles"
COMPONENTS_112 = ["nvcc_11.2", "cudart_11.2", "cublas_11.2", "cufft_11.2", "curand_11.2",
                  "cusolver_11.2", "cusparse_11.2", "cupti_11.2", "nvrtc_11.2"]


# -- the plan ----------------------------------------------------------------------------------


def test_tf210_on_windows_gets_the_112_installer_with_toolkit_components_only() -> None:
    host = ReplayHost.from_file(PROFILES / "win-cuda-not-installed.json")
    plan = plan_cuda(host)
    assert plan.cuda == "11.2" and plan.installer is not None
    assert plan.installer.file == "cuda_11.2.2_461.33_win10.exe"
    assert plan.installer.sha256 == (
        "e572654ac90ea720b73cf72f14af6b175dddf4ff282af822e32c19d63f0284c4")
    assert plan.components == COMPONENTS_112
    assert plan.argv[1:] == ["-s", *COMPONENTS_112]
    assert not any("Display.Driver" in a or "driver" in a.lower() for a in plan.argv[1:])
    assert plan.dest.lower() == "c:\\program files\\nvidia gpu computing toolkit\\cuda\\v11.2"
    words = "\n".join(plan.lines("en"))
    assert plan.installer.url in words and plan.installer.sha256 in words
    assert "-s nvcc_11.2 cudart_11.2" in words and "Never the display driver" in words
    assert "Demo mode" in words
    assert all(plan.lines("zh_CN"))
    with pytest.raises(FixError):  # demo mode: the plan only
        fetch(host, plan)
    with pytest.raises(FixError):
        run_installer(host, plan, plan.path)


@pytest.mark.parametrize(("cuda", "file"), [("11.0", "cuda_11.0.3_451.82_win10.exe"),
                                            ("10.1", "cuda_10.1.243_426.00_win10.exe")])
def test_other_toolkits_by_version(cuda: str, file: str) -> None:
    host = ReplayHost.from_file(PROFILES / "win-cuda-not-installed.json")
    plan = plan_cuda(host, cuda=cuda)
    assert plan.installer is not None and plan.installer.file == file
    assert plan.components[:2] == [f"nvcc_{cuda}", f"cudart_{cuda}"]


def test_an_unknown_installer_names_the_download_page() -> None:
    host = ReplayHost.from_file(PROFILES / "win-cuda-not-installed.json")
    with pytest.raises(FixError) as caught:
        plan_cuda(host, cuda="9.0")
    assert caught.value.message.id == "installs.cuda.no_installer"
    assert "--installer FILE" in render(caught.value.message)
    with pytest.raises(FixError) as caught:
        plan_cuda(host, cuda="11.x")
    assert caught.value.message.id == "installs.cuda.bad_version"


def test_linux_gets_the_pip_route_for_its_environment_not_a_run_file() -> None:
    host = ReplayHost.from_file(PROFILES / "linux-tf221-and-cuda-healthy.json")
    with pytest.raises(FixError) as caught:
        plan_cuda(host)
    message = caught.value.message
    assert message.id == "installs.cuda.route_pip"
    command = message.params["command"]
    assert "-m pip install" in command and "tensorflow[and-cuda]" in command
    assert command.startswith('"/') and ".run" not in command


def test_wsl2_with_a_tf_that_loads_the_system_cuda_gets_the_distribution_package() -> None:
    profile = json.loads((PROFILES / "linux-tf221-and-cuda-healthy.json").read_text())
    profile["platform"]["wsl"] = 2
    host = ReplayHost(profile)
    with pytest.raises(FixError) as caught:
        plan_cuda(host, tensorflow="2.12")
    message = caught.value.message
    assert message.id == "installs.cuda.route_distro"
    assert message.params["command"] == "sudo apt-get install -y cuda-toolkit-11-8"
    assert "WSL-Ubuntu" in message.params["url"]
    assert "never install a Linux display driver" in render(message)


# -- the real code path, with a stand-in installer ---------------------------------------------

@pytest.fixture
def windows(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> LocalHost:
    return windows_host(tmp_path, monkeypatch)


def test_the_installer_runs_silently_with_the_components_and_the_files_are_checked(
    windows: LocalHost, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    plan = plan_cuda(windows, cuda="11.2", installer="/placeholder")
    files = list(cuda_installer.expected_files(windows, plan).values())
    installer, record = make_standin(tmp_path, monkeypatch, files)
    plan = plan_cuda(windows, cuda="11.2", installer=str(installer))
    assert plan.installer is None and not verify(windows, plan)[0]
    lines: list[str] = []
    steps: list[float] = []
    result = run_installer(windows, plan, fetch(windows, plan), on_line=lines.append,
                           progress=lambda fraction, text: steps.append(fraction))
    assert result.ok and result.returncode == 0, render(result.message)
    assert json.loads(record.read_text()) == ["-s", *COMPONENTS_112]
    assert lines == ["stand-in installer"]
    assert steps[-1] == 1.0 and steps == sorted(steps) and len(steps) >= 3, steps
    ok, seen = verify(windows, plan)
    assert ok and seen.id == "installs.cuda.verify_ok"


def test_a_failing_installer_gives_its_exit_status(windows: LocalHost, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    installer, _ = make_standin(tmp_path, monkeypatch, [], exit_code=3)
    plan = plan_cuda(windows, cuda="11.2", installer=str(installer))
    result = run_installer(windows, plan, str(installer))
    assert not result.ok and result.returncode == 3 and result.message.id == "installs.cuda.failed"
    ok, seen = verify(windows, plan)
    assert not ok and "cudart64_110.dll" in render(seen)


def test_cancel_stops_the_installer_and_what_it_started(windows: LocalHost, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    installer, _ = make_standin(tmp_path, monkeypatch, [])
    monkeypatch.setenv("GW_STANDIN_HANG", "1")
    plan = plan_cuda(windows, cuda="11.2", installer=str(installer))
    lines: list[str] = []
    result = run_installer(windows, plan, str(installer), on_line=lines.append,
                           cancelled=lambda: any(x.startswith("grandchild") for x in lines))
    assert result.cancelled and result.message.id == "installs.cuda.cancelled"
    from test_host_contract import _gone

    assert _gone(int(lines[-1].split()[1]))


def test_a_given_installer_that_is_not_there_is_refused(windows: LocalHost,
                                                        tmp_path: Path) -> None:
    plan = plan_cuda(windows, cuda="11.2", installer=str(tmp_path / "nothing.exe"))
    with pytest.raises(FixError) as caught:
        fetch(windows, plan)
    assert caught.value.message.id == "installs.cuda.no_file"


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch):
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY", "http_proxy",
                 "https_proxy", "all_proxy", "no_proxy"):
        monkeypatch.delenv(name, raising=False)
    state, httpd = dl_server.start()
    yield state
    httpd.shutdown()
    httpd.server_close()


def test_the_installer_is_downloaded_verified_cached_then_run(
    windows: LocalHost, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, server: Any
) -> None:
    plan = plan_cuda(windows, cuda="11.2", installer="/placeholder")
    files = list(cuda_installer.expected_files(windows, plan).values())
    (tmp_path / "src").mkdir()
    standin, record = make_standin(tmp_path / "src", monkeypatch, files)
    body = standin.read_bytes()
    real = redist.cuda_installer_for("11.2", "windows", "x86_64")
    assert real is not None
    fake = redist.Download(**{**real.__dict__, "sha256": hashlib.sha256(body).hexdigest(),
                              "size": len(body)})
    monkeypatch.setattr(redist, "cuda_installer_for", lambda *a: fake)
    server.routes["/" + real.url.split("/", 3)[3]] = dl_server.Route(body)
    monkeypatch.setenv(redist.BASE_ENV, server.url(""))
    monkeypatch.setenv(downloads.CACHE_ENV, str(tmp_path / "cache"))
    plan = plan_cuda(windows, allow_hosts=("127.0.0.1",), cuda="11.2")
    assert not plan.cached and plan.path == str(tmp_path / "cache" / real.file)
    seen: list[downloads.Progress] = []
    path = fetch(windows, plan, progress=seen.append)
    assert Path(path).read_bytes() == body and seen[-1].done == len(body)
    os.chmod(path, 0o755)  # a downloaded .exe runs as it is on Windows
    result = run_installer(windows, plan, path)
    assert result.ok and json.loads(record.read_text()) == ["-s", *COMPONENTS_112]
    again = plan_cuda(windows, allow_hosts=("127.0.0.1",), cuda="11.2")
    assert again.cached and "not downloaded again" in "\n".join(again.lines("en"))
    # a download that does not match the checksum never becomes the installer
    monkeypatch.setattr(redist, "cuda_installer_for", lambda *a: redist.Download(
        **{**fake.__dict__, "sha256": "0" * 64, "file": "other.exe"}))
    bad = plan_cuda(windows, allow_hosts=("127.0.0.1",), cuda="11.2")
    with pytest.raises(FixError) as caught:
        fetch(windows, bad)
    assert not Path(bad.path).exists() and caught.value.message.id.startswith("download.")
    with pytest.raises(FixCancelled):
        fetch(windows, bad, cancelled=lambda: True)


# -- gpu-wizard fix cuda -----------------------------------------------------------------------


def test_cli_on_linux_names_the_route_and_runs_nothing(fix_state: Path) -> None:
    if sys.platform == "win32":
        pytest.skip("on Windows this would run NVIDIA's installer")
    env = {**os.environ, "GPU_WIZARD_STATE_DIR": str(fix_state), "LANG": "en_US.UTF-8"}
    result = subprocess.run(
        [sys.executable, "-m", "wizard", "fix", "cuda", "--download", "--yes", "--tf", "2.15",
         "--python", sys.executable], capture_output=True, text=True, timeout=300, check=False,
        env=env, cwd=str(REPO))
    assert result.returncode == 2, result.stderr
    assert "runs no NVIDIA .run installer" in result.stderr
    assert f'"{sys.executable}" -m pip install "tensorflow[and-cuda]==2.15.*"' in result.stderr


def test_the_install_cuda_action_builds_the_plan_for_the_finding_cuda() -> None:
    from wizard.core.fixes.registry import run_builder

    build = run_builder("install_cuda")
    assert build is not None
    host = ReplayHost.from_file(PROFILES / "win-cuda-not-installed.json")
    plan = build(host, {"cuda": "11.2"}, {})
    assert plan.argv[1:] == ["-s", *COMPONENTS_112]
    linux = ReplayHost.from_file(PROFILES / "linux-tf221-and-cuda-healthy.json")
    with pytest.raises(FixError) as caught:
        build(linux, {"cuda": "12.5"}, {})
    assert caught.value.message.id == "installs.cuda.route_pip"


@pytest.mark.parametrize(("status", "exit_code", "wanted"),
                         [("ok", 0, 0), ("fail", 0, 1), ("ok", 3, 2)])
def test_cli_exit_status_after_the_installer(
    windows: LocalHost, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str], status: str, exit_code: int, wanted: int
) -> None:
    """0: installed and the cuda layer is ok; 1: installed, the layer still sees a problem; 2:
    the installer failed."""
    import argparse

    import wizard.core.host as hosts
    from wizard import fixcli
    from wizard.core.messages import msg
    from wizard.core.model import LayerResult

    plan = plan_cuda(windows, cuda="11.2", installer="/placeholder")
    files = list(cuda_installer.expected_files(windows, plan).values())
    installer, record = make_standin(tmp_path, monkeypatch, files, exit_code=exit_code)
    monkeypatch.setattr(hosts, "LocalHost", lambda: windows)
    monkeypatch.setattr(cuda_installer, "recheck", lambda host, plan: LayerResult(
        "cuda", status, msg("installs.cuda.done", cuda="11.2", dest=plan.dest)))
    args = argparse.Namespace(fix_command="cuda", cuda="11.2", tf=None, python=None,
                              installer=str(installer), download=False, allow_host=[],
                              dry_run=False, yes=True, no_recheck=False)
    assert fixcli.cmd_cuda(args, "en") == wanted
    out = capsys.readouterr()
    assert json.loads(record.read_text()) == ["-s", *COMPONENTS_112]
    assert "-s nvcc_11.2 cudart_11.2" in out.out
    if wanted == 2:
        assert "exit status 3" in out.err
    else:
        assert "runtime and libraries are in" in out.out
