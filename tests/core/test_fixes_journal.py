"""The journal: a real process killed mid-copy, then the next start finds the unfinished fix and
finishes or rolls it back; the plan file an elevated copy applies; plans in both languages."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import fix_archives as fa
import pytest

from wizard import cli
from wizard.core.fixes import cudnn, journal
from wizard.core.fixes.elevate import write_plan_file
from wizard.core.fixes.plan import Plan
from wizard.core.host import LocalHost

REPO_ROOT = Path(__file__).resolve().parents[2]

CRASHING = r"""
import os, sys, time
from wizard.core.fixes import cudnn, journal
from wizard.core.host import LocalHost

class Host(LocalHost):
    count = 0
    def write_file(self, path, chunks, temp=None):
        Host.count += 1
        if Host.count == 6:  # half of the sixth file is on disk when the power goes
            with open(temp, "wb") as handle:
                handle.write(next(iter(chunks)))
            open(sys.argv[3], "w").close()
            time.sleep(600)
        return super().write_file(path, chunks, temp)

host = Host()
plan = cudnn.plan_cudnn(host, cudnn.CudnnRequest(sys.argv[1], sys.argv[2]))
journal.apply(host, plan)
"""

pytestmark = pytest.mark.usefixtures("fix_state")


def crash_mid_copy(tmp_path: Path) -> tuple[Path, str]:
    cuda = fa.cuda_tree(tmp_path / "cuda")
    archive = fa.linux_tar(tmp_path, size=50000)
    before = fa.tree_hash(cuda)
    marker = tmp_path / "mid-copy"
    env = dict(os.environ, PYTHONPATH=str(REPO_ROOT))
    process = subprocess.Popen([sys.executable, "-c", CRASHING, str(archive), str(cuda),
                                str(marker)], env=env, cwd=str(REPO_ROOT))
    try:
        deadline = time.monotonic() + 120
        while not marker.exists():
            assert process.poll() is None, "the fix ended before the crash point"
            assert time.monotonic() < deadline, "the fix never reached the crash point"
            time.sleep(0.05)
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait()
    assert fa.tree_hash(cuda) != before  # five files and half a sixth were written
    return cuda, before


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
def test_killed_mid_copy_then_rolled_back_at_the_next_start(tmp_path: Path, capsys) -> None:
    cuda, before = crash_mid_copy(tmp_path)
    [unfinished] = journal.unfinished()
    assert unfinished.status == journal.APPLYING
    # the next start finds it: a fix refuses to run on top of it and says what to do
    code = cli.main(["fix", "path", "--add", str(tmp_path), "--yes"])
    err = capsys.readouterr().err
    assert code == 2 and "was interrupted" in err and "undo --recover" in err
    assert cli.main(["undo", "--recover", "rollback"]) == 0
    assert "rolled back" in capsys.readouterr().out
    assert fa.tree_hash(cuda) == before
    assert not journal.unfinished()
    assert cli.main(["undo", "--yes"]) == 0  # nothing left to undo: a clear no-op
    assert fa.tree_hash(cuda) == before


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
def test_killed_mid_copy_then_finished(tmp_path: Path, capsys) -> None:
    cuda, before = crash_mid_copy(tmp_path)
    assert cli.main(["undo", "--recover", "finish"]) == 0
    assert "is finished" in capsys.readouterr().out
    [done] = journal.journals()
    assert done.status == journal.DONE
    assert (cuda / "lib64" / "libcudnn_adv_train.so.8.6.0").read_bytes() == fa.payload(
        "libcudnn_adv_train.so.8", 50000)
    assert os.readlink(cuda / "lib64" / "libcudnn.so.8") == "libcudnn.so.8.6.0"
    assert not list(cuda.rglob("*.gpu-wizard-tmp"))
    assert cli.main(["undo", "--yes"]) == 0
    assert fa.tree_hash(cuda) == before


def test_the_plan_file_entry_point_an_elevated_copy_runs(
    tmp_path: Path, fix_state: Path
) -> None:
    cuda = fa.cuda_tree(tmp_path / "cuda")
    archive = fa.linux_tar(tmp_path)
    plan = cudnn.plan_cudnn(LocalHost(), cudnn.CudnnRequest(str(archive), str(cuda)))
    plan_file = write_plan_file(plan)
    result = tmp_path / "result.json"
    env = dict(os.environ, PYTHONPATH=str(REPO_ROOT))
    env.pop(journal.STATE_ENV)
    completed = subprocess.run(
        [sys.executable, "-m", "wizard", "fix", "apply-plan", plan_file, "--result", str(result),
         "--state-dir", str(fix_state)], env=env, cwd=str(REPO_ROOT), capture_output=True,
        text=True, timeout=120)
    assert completed.returncode == 0, completed.stderr
    outcome = json.loads(result.read_text())
    assert outcome["ok"] and journal.journals()[-1].id == outcome["journal"]
    assert (cuda / "include" / "cudnn_version.h").exists()


def test_a_plan_round_trips_and_reads_in_both_languages(tmp_path: Path) -> None:
    cuda = fa.cuda_tree(tmp_path / "cuda")
    archive = fa.linux_tar(tmp_path)
    plan = cudnn.plan_cudnn(LocalHost(), cudnn.CudnnRequest(str(archive), str(cuda)))
    again = Plan.from_dict(json.loads(plan.to_json()))
    assert again.to_dict() == plan.to_dict()
    english, chinese = plan.lines("en"), plan.lines("zh_CN")
    assert len(english) == len(chinese) == len(plan.ops) + 1
    assert english[0].startswith("Install cuDNN 8.6.0") and chinese[0].startswith("将 cuDNN")
    assert any("Replace" in line and "cudnn.h" in line for line in english)
    assert any("链接" in line for line in chinese)


def test_undo_with_no_fixes_says_so(capsys) -> None:
    assert cli.main(["undo", "--yes"]) == 0
    assert "No fix has been made" in capsys.readouterr().out
    assert cli.main(["undo", "--list", "--lang", "zh_CN"]) == 0
    assert "还没有做过任何修复" in capsys.readouterr().out


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
def test_check_mentions_an_interrupted_fix(tmp_path: Path, capsys, profiles_dir: Path) -> None:
    crash_mid_copy(tmp_path)
    from wizard import fixcli

    fixcli.note_unfinished("zh_CN")
    err = capsys.readouterr().err
    assert "有一项修复被中断了" in err and "undo --recover" in err
    assert cli.main(["undo", "--recover", "rollback"]) == 0


def test_undo_a_chosen_fix_and_the_zlibwapi_command(tmp_path: Path, capsys) -> None:
    dest = tmp_path / "bin"
    dest.mkdir()
    dll = tmp_path / "zlibwapi.dll"
    dll.write_bytes(b"MZ" + b"\0" * 100)
    assert cli.main(["fix", "zlibwapi", "--file", str(dll), "--dest", str(dest), "--yes"]) == 0
    assert "is in place" in capsys.readouterr().out
    assert (dest / "zlibwapi.dll").read_bytes() == dll.read_bytes()
    [fix] = journal.journals()
    assert cli.main(["undo", "--id", "no-such-fix", "--yes"]) == 2
    assert "There is no fix no-such-fix" in capsys.readouterr().err
    assert cli.main(["undo", "--id", fix.id, "--yes"]) == 0
    assert not (dest / "zlibwapi.dll").exists()


def test_cuda_path_on_linux_goes_into_the_profile_block(tmp_path: Path, monkeypatch,
                                                         capsys) -> None:
    if LocalHost().is_windows:
        pytest.skip("Linux profile")
    monkeypatch.setenv("HOME", str(tmp_path))
    cuda = fa.cuda_tree(tmp_path / "cuda-12.2", version="12.2.0")
    assert cli.main(["fix", "cuda-path", "--cuda-dir", str(cuda), "--dry-run"]) == 0
    assert not (tmp_path / ".bashrc").exists()
    capsys.readouterr()
    assert cli.main(["fix", "cuda-path", "--cuda-dir", str(cuda), "--yes"]) == 0
    text = (tmp_path / ".bashrc").read_text()
    assert f'export CUDA_PATH="{cuda}"' in text and f'export PATH="{cuda}/bin' in text
    assert cli.main(["undo", "--yes"]) == 0
    assert not (tmp_path / ".bashrc").exists()
