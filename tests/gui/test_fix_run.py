""""Fix it…" for the fixes that fetch or run something: cuDNN downloaded from a local server
standing in for NVIDIA (progress with speed and time left, the install plan shown before
anything is copied, undo), a download cancelled, pip installing into a throwaway venv from a
local wheel (live output, exit code, the way back), a failing pip, a command cancelled with its
whole process tree, and demo mode showing the plan of a pip fix and running nothing."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import SHARED_PROFILES, own_profile
from helpers import WAIT_MS

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fixgui_support as support  # noqa: E402

from tests.core.standin_installer import make_standin, windows_host  # noqa: E402
from wizard.core.fixes import journal as journals  # noqa: E402
from wizard.core.host import LocalHost, ReplayHost  # noqa: E402
from wizard.widgets import fix_dialog, fix_tasks  # noqa: E402

pytestmark = pytest.mark.usefixtures("fix_gui_state")


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory) -> str:
    return support.make_venv(tmp_path_factory.mktemp("venv") / "env")


@pytest.fixture(scope="module")
def wheels(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("wheels")
    support.make_wheel(folder)
    return folder


def wait_state(qtbot, dialog, *states, timeout: int = WAIT_MS) -> None:
    qtbot.waitUntil(lambda: dialog.state in states, timeout=timeout)


def record_statuses(dialog) -> list[str]:
    """Every status text the dialog shows while it runs."""
    seen: list[str] = []
    show = dialog._show_status

    def spy() -> None:
        show()
        seen.append(dialog.status_text())

    dialog._show_status = spy
    return seen


def test_cudnn_download_progress_plan_install_and_undo(qtbot, tmp_path: Path, server,
                                                      monkeypatch, workers):
    path = support.serve_cudnn(server, tmp_path, monkeypatch, body_extra=2_000_000,
                               drop_after=600_000)
    cuda = support.fa.cuda_tree(tmp_path / "cuda-11.2")
    before = support.tree_hash(cuda)
    changed: list[str] = []
    dialog = fix_dialog.FixDialog(support.cudnn_finding(cuda), LocalHost(), workers,
                                  on_changed=lambda: changed.append(dialog.state))
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.route == fix_tasks.ROUTE_DOWNLOAD and not dialog.needs_label.isVisible()
    assert dialog.choose_button.isVisible() and "archive I have" in dialog.choose_button.text()
    wait_state(qtbot, dialog, fix_dialog.PLANNED, fix_dialog.REFUSED)
    assert dialog.state == fix_dialog.PLANNED, dialog.status_text()
    plan = dialog.plan_text()
    assert server.url(path) in plan and "sha256" in plan and str(cuda) in plan
    assert server.hits(path) == []  # planning fetches nothing
    assert dialog.apply_button.text() == "Download and install" and dialog.apply_button.isDefault()
    seen = record_statuses(dialog)
    dialog.apply_button.click()
    assert dialog.cancel_button.isVisible() and dialog.cancel_button.isEnabled()
    wait_state(qtbot, dialog, fix_dialog.PLANNED, fix_dialog.FAILED)
    assert dialog.state == fix_dialog.PLANNED, dialog.status_text()
    downloading = [s for s in seen if s.startswith("Downloading:")]
    assert downloading and any("/s" in s and "left" in s for s in downloading), seen
    assert len(server.hits(path)) == 2 and server.hits(path)[1]["range"]  # resumed
    assert "Downloaded and verified" in dialog.status_text()
    assert "Nothing is installed until you press" in dialog.status_text()
    assert str(cuda / "lib64" / "libcudnn.so.8.1.1") in dialog.plan_text()  # what it copies
    assert support.tree_hash(cuda) == before and changed == []  # not yet installed
    assert dialog.apply_button.text() == "Make these changes"
    dialog.apply_button.click()
    wait_state(qtbot, dialog, fix_dialog.DONE, fix_dialog.FAILED)
    assert dialog.state == fix_dialog.DONE, dialog.status_text()
    assert os.readlink(cuda / "lib64" / "libcudnn.so.8") == "libcudnn.so.8.1.1"
    assert changed == [fix_dialog.DONE]  # the page checks its layer again
    assert dialog.undo_button.isVisible() and dialog.undo_button.isEnabled()
    dialog.undo_button.click()
    wait_state(qtbot, dialog, fix_dialog.UNDONE, fix_dialog.DONE)
    assert support.tree_hash(cuda) == before and changed[-1] == fix_dialog.UNDONE


def test_cancel_a_download_installs_nothing(qtbot, tmp_path: Path, server, monkeypatch,
                                            workers):
    path = support.serve_cudnn(server, tmp_path, monkeypatch, body_extra=3_000_000)
    real = fix_tasks.Events.download

    def slow_link(self, progress):  # noqa: ANN001 - 64 KiB every 50 ms, like a slow line
        time.sleep(0.05)
        real(self, progress)

    monkeypatch.setattr(fix_tasks.Events, "download", slow_link)
    cuda = support.fa.cuda_tree(tmp_path / "cuda-11.2")
    before = support.tree_hash(cuda)
    dialog = fix_dialog.FixDialog(support.cudnn_finding(cuda), LocalHost(), workers)
    qtbot.addWidget(dialog)
    dialog.show()
    wait_state(qtbot, dialog, fix_dialog.PLANNED)
    dialog.apply()
    qtbot.waitUntil(lambda: dialog.status_text().startswith("Downloading:"), timeout=WAIT_MS)
    dialog.reject()  # Esc while it runs: cancels, the dialog stays
    assert dialog.isVisible() and "Cancelling the download" in dialog.status_text()
    wait_state(qtbot, dialog, fix_dialog.FAILED, fix_dialog.PLANNED)
    assert dialog.state == fix_dialog.FAILED
    assert "Download stopped; nothing was installed" in dialog.status_text()
    assert support.tree_hash(cuda) == before and not journals.journals()
    assert not (tmp_path / "cache" / support.CUDNN_FILE).exists()
    assert len(server.hits(path)) == 1


def test_wrong_checksum_refuses_the_archive(qtbot, tmp_path: Path, server, monkeypatch,
                                            workers):
    support.serve_cudnn(server, tmp_path, monkeypatch, wrong_sha=True)
    cuda = support.fa.cuda_tree(tmp_path / "cuda-11.2")
    before = support.tree_hash(cuda)
    dialog = fix_dialog.FixDialog(support.cudnn_finding(cuda), LocalHost(), workers)
    qtbot.addWidget(dialog)
    wait_state(qtbot, dialog, fix_dialog.PLANNED)
    dialog.apply()
    wait_state(qtbot, dialog, fix_dialog.FAILED, fix_dialog.PLANNED)
    assert dialog.state == fix_dialog.FAILED
    assert "The download failed; nothing was installed" in dialog.status_text()
    assert "sha256" in dialog.status_text()
    assert support.tree_hash(cuda) == before
    assert not (tmp_path / "cache" / support.CUDNN_FILE).exists()


def test_archive_route_and_back_to_the_download(qtbot, tmp_path: Path, server, monkeypatch,
                                                workers):
    support.serve_cudnn(server, tmp_path, monkeypatch)
    cuda = support.fa.cuda_tree(tmp_path / "cuda-11.2")
    (tmp_path / "mine").mkdir()
    archive = support.fa.linux_tar(tmp_path / "mine", "8.1.1.33", cuda=11)
    dialog = fix_dialog.FixDialog(support.cudnn_finding(cuda), LocalHost(), workers)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.choose_file(str(archive))  # while the download plan is worked out
    wait_state(qtbot, dialog, fix_dialog.PLANNED, fix_dialog.REFUSED)
    assert dialog.kind == fix_tasks.FILES and dialog.route == fix_tasks.ROUTE_FILE
    assert str(archive) in dialog.file_label.text() and dialog.download_button.isVisible()
    assert dialog.choose_button.text() == "Choose…"  # another archive
    assert "Download" not in dialog.plan_text().splitlines()[0]
    dialog.download_button.click()
    wait_state(qtbot, dialog, fix_dialog.PLANNED)
    qtbot.waitUntil(lambda: dialog.kind == fix_tasks.DOWNLOAD, timeout=WAIT_MS)
    assert not dialog.download_button.isVisible() and "sha256" in dialog.plan_text()


def test_pip_into_a_throwaway_venv_with_live_output_and_the_way_back(qtbot, venv: str,
                                                                   wheels: Path, workers):
    changed: list[str] = []
    finding = support.pip_finding(venv, "gw_tiny==1.0", wheels)
    dialog = fix_dialog.FixDialog(finding, LocalHost(), workers,
                                  on_changed=lambda: changed.append(dialog.state))
    qtbot.addWidget(dialog)
    dialog.show()
    wait_state(qtbot, dialog, fix_dialog.PLANNED, fix_dialog.REFUSED)
    assert dialog.state == fix_dialog.PLANNED, dialog.status_text()
    assert dialog.kind == fix_tasks.RUN and dialog.apply_button.text() == "Run these commands"
    assert f'"{venv}" -m pip install' in dialog.plan_text() and "gw_tiny==1.0" in dialog.plan_text()
    assert not support.installed(venv)
    try:
        dialog.apply_button.click()
        assert dialog.output.isVisible()
        wait_state(qtbot, dialog, fix_dialog.DONE, fix_dialog.FAILED, timeout=120000)
        assert dialog.state == fix_dialog.DONE, dialog.status_text()
        assert support.installed(venv)
        output = dialog.output_text()
        assert output.startswith(f'$ "{venv}" -m pip install')
        assert "Successfully installed gw-tiny-1.0" in output or "gw_tiny-1.0" in output
        assert "To go back to the packages from before" in output
        assert "pip uninstall -y gw-tiny" in output
        assert "Exit code: 0" in dialog.status_text()
        assert changed == [fix_dialog.DONE]
        assert dialog.undo_button.isVisible() and dialog.undo_button.isEnabled()
        dialog.undo_button.click()  # runs the commands that go back, with their output
        wait_state(qtbot, dialog, fix_dialog.UNDONE, fix_dialog.DONE, timeout=120000)
        assert dialog.state == fix_dialog.UNDONE, dialog.status_text()
        assert "Back to the packages from before the fix" in dialog.status_text()
        assert f'$ "{venv}" -m pip uninstall -y gw-tiny' in dialog.output_text()
        assert not support.installed(venv)
        assert changed == [fix_dialog.DONE, fix_dialog.UNDONE]
        assert not dialog.undo_button.isVisible()
    finally:
        subprocess.run([venv, "-m", "pip", "uninstall", "-y", "gw_tiny"], capture_output=True,
                       timeout=120)


def test_a_failing_pip_shows_its_exit_code_and_rechecks(qtbot, venv: str, wheels: Path,
                                                       workers):
    changed: list[str] = []
    dialog = fix_dialog.FixDialog(support.pip_finding(venv, "gw_tiny==9.9", wheels),
                                  LocalHost(), workers,
                                  on_changed=lambda: changed.append(dialog.state))
    qtbot.addWidget(dialog)
    wait_state(qtbot, dialog, fix_dialog.PLANNED)
    dialog.apply()
    wait_state(qtbot, dialog, fix_dialog.DONE, fix_dialog.FAILED, timeout=120000)
    assert dialog.state == fix_dialog.FAILED
    status = dialog.status_text()
    assert "The command did not succeed" in status and "Exit code: 1" in status
    assert "gw_tiny==9.9" in dialog.output_text()
    assert changed == [fix_dialog.FAILED] and not support.installed(venv)


def test_cancel_ends_the_command_and_everything_it_started(qtbot, tmp_path: Path, venv: str,
                                                          wheels: Path, monkeypatch, workers):
    from wizard.core.fixes import packages

    pids = tmp_path / "pids"
    child = f"import os,time; open({str(pids)!r},'a').write(str(os.getpid())+'\\n'); time.sleep(60)"
    script = ("import os,subprocess,sys,time; "
              f"open({str(pids)!r},'a').write(str(os.getpid())+'\\n'); "
              f"subprocess.Popen([sys.executable,'-c',{child!r}]); "
              "print('started', flush=True); time.sleep(60)")
    finding = support.pip_finding(venv, "gw_tiny==1.0", wheels)
    plan = packages.PackagePlan(packages.msg("installs.plan.undo_pip"), venv,
                                [packages.Command((venv, "-c", script), "pip_install")])
    monkeypatch.setattr(fix_tasks, "prepare",
                        lambda *a, **k: fix_tasks.Prepared(fix_tasks.RUN, finding, plan))
    changed: list[str] = []
    dialog = fix_dialog.FixDialog(finding, LocalHost(), workers,
                                  on_changed=lambda: changed.append(dialog.state))
    qtbot.addWidget(dialog)
    dialog.show()
    wait_state(qtbot, dialog, fix_dialog.PLANNED)
    dialog.apply()
    qtbot.waitUntil(lambda: "started" in dialog.output_text(), timeout=WAIT_MS)
    qtbot.waitUntil(lambda: pids.exists() and len(pids.read_text().split()) == 2,
                    timeout=WAIT_MS)
    dialog.cancel_button.click()
    assert "ending the command and every process it started" in dialog.status_text()
    wait_state(qtbot, dialog, fix_dialog.DONE, fix_dialog.FAILED, timeout=WAIT_MS)
    assert dialog.state == fix_dialog.FAILED
    assert "everything it started were stopped" in dialog.status_text()  # pip's own words
    assert changed == [fix_dialog.FAILED]  # what it half did is checked again
    for pid in map(int, pids.read_text().split()):
        deadline = time.monotonic() + 5
        while _alive(pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _alive(pid), f"process {pid} outlived the cancel"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie waiting for its parent is gone for our purpose
        with open(f"/proc/{pid}/stat", encoding="utf-8") as handle:
            return handle.read().split()[2] != "Z"
    except OSError:
        return False


def test_demo_mode_shows_a_pip_plan_and_runs_nothing(qtbot, workers):
    from wizard.core.diagnose import CheckOptions, run_check

    host = ReplayHost.from_file(own_profile("gui-linux-no-gpu"))
    report = run_check(host, CheckOptions())
    finding = next(f for layer in report.layers for f in layer.findings
                   if f.fix.action == "pip_install")
    dialog = fix_dialog.FixDialog(finding, host, workers)
    qtbot.addWidget(dialog)
    wait_state(qtbot, dialog, fix_dialog.PLANNED, fix_dialog.REFUSED)
    assert dialog.state == fix_dialog.PLANNED, dialog.status_text()
    assert "-m pip install" in dialog.plan_text() and "tensorflow" in dialog.plan_text()
    assert dialog.apply_button.isHidden() and "nothing will be changed" in dialog.intro.text()
    dialog.apply()
    assert dialog.state == fix_dialog.PLANNED and dialog.output.isHidden()


# -- NVIDIA's CUDA installer (install_cuda) ------------------------------------------------------

def cuda_finding() -> fix_tasks.Finding:
    from wizard.core.model import Finding, Fix

    return Finding("cuda_not_installed", severity="fail", params={"cuda": "11.2"},
                   fix=Fix(action="install_cuda", action_params={"cuda": "11.2"}))


@pytest.fixture
def windows(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> LocalHost:
    return windows_host(tmp_path, monkeypatch)


@pytest.mark.parametrize("exit_code", [0, 3])
def test_cuda_installer_i_have_runs_silently_with_output_and_exit_code(
        qtbot, tmp_path: Path, monkeypatch, windows, workers, exit_code: int):
    import json

    from wizard.core.fixes import cuda_installer

    plan = cuda_installer.plan_cuda(windows, cuda="11.2", installer="/placeholder")
    files = list(cuda_installer.expected_files(windows, plan).values())
    installer, record = make_standin(tmp_path, monkeypatch, files if exit_code == 0 else [],
                                     exit_code)
    changed: list[str] = []
    dialog = fix_dialog.FixDialog(cuda_finding(), windows, workers,
                                  on_changed=lambda: changed.append(dialog.state))
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.route == fix_tasks.ROUTE_DOWNLOAD
    assert dialog.choose_button.text() == "Use an installer I have…"
    dialog.choose_file(str(installer))
    wait_state(qtbot, dialog, fix_dialog.PLANNED, fix_dialog.REFUSED)
    assert dialog.state == fix_dialog.PLANNED, dialog.status_text()
    assert dialog.kind == fix_tasks.INSTALLER and dialog.apply_button.text() == "Run the installer"
    text = dialog.plan_text()
    assert str(installer) in text and "-s nvcc_11.2 cudart_11.2" in text
    assert "Display.Driver" in text  # named as what is never installed
    dialog.apply_button.click()
    wait_state(qtbot, dialog, fix_dialog.DONE, fix_dialog.FAILED)
    args = json.loads(record.read_text())
    assert args[0] == "-s" and "cudart_11.2" in args and "Display.Driver" not in args
    assert "stand-in installer" in dialog.output_text()
    assert changed == [dialog.state]  # the cuda layer is checked again either way
    if exit_code == 0:
        assert dialog.state == fix_dialog.DONE, dialog.status_text()
        assert "Exit code: 0" in dialog.status_text()
        assert all(Path(f).exists() for f in files)
    else:
        assert dialog.state == fix_dialog.FAILED
        assert "The command did not succeed" in dialog.status_text()
        assert "Exit code: 3" in dialog.status_text()


def test_cuda_installer_demo_shows_the_download_and_the_command(qtbot, workers):
    host = ReplayHost.from_file(SHARED_PROFILES / "win-cuda-not-installed.json")
    dialog = fix_dialog.FixDialog(cuda_finding(), host, workers)
    qtbot.addWidget(dialog)
    wait_state(qtbot, dialog, fix_dialog.PLANNED, fix_dialog.REFUSED)
    assert dialog.state == fix_dialog.PLANNED, dialog.status_text()
    text = dialog.plan_text()
    assert "https://developer.download.nvidia.com/compute/cuda/11.2" in text
    assert "-s nvcc_11.2" in text and dialog.apply_button.isHidden()


def test_cuda_on_linux_says_which_route_instead(qtbot, workers):
    host = ReplayHost.from_file(SHARED_PROFILES / "linux-tf221-and-cuda-healthy.json")
    dialog = fix_dialog.FixDialog(cuda_finding(), host, workers)
    qtbot.addWidget(dialog)
    wait_state(qtbot, dialog, fix_dialog.PLANNED, fix_dialog.REFUSED)
    assert dialog.state == fix_dialog.REFUSED
    assert "This fix cannot run" in dialog.status_text() and "pip" in dialog.status_text()
