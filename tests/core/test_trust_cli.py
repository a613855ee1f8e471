"""The command line says what it does: a profile given before the command is replayed, a bug is
one line instead of a traceback, and a snapshot of a venv replays that venv."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from wizard.core.diagnose import run_check
from wizard.core.host import ReplayHost

REPO_ROOT = Path(__file__).resolve().parents[2]
PROFILES = REPO_ROOT / "tests" / "profiles"


def cli(*args: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "wizard", *args], capture_output=True,
                          text=True, encoding="utf-8", timeout=300, check=False,
                          cwd=str(REPO_ROOT), **kwargs)


def test_profile_before_the_command_is_replayed() -> None:
    profile = str(PROFILES / "win-tf210-cudnn-never-copied.json")
    before = cli("--profile", profile, "check", "--json")
    after = cli("check", "--profile", profile, "--json")
    assert before.returncode == after.returncode == 1, before.stderr
    assert json.loads(before.stdout)["platform"]["system"] == "windows"  # not this Linux box
    assert json.loads(before.stdout) == json.loads(after.stdout)


def test_profile_with_a_command_that_cannot_replay_is_refused() -> None:
    result = cli("--profile", str(PROFILES / "wsl2-healthy.json"), "compat", "--os", "linux",
                 "--tf", "2.15")
    assert result.returncode == 2
    assert "--profile" in result.stderr and "compat" in result.stderr


def test_an_unexpected_exception_is_one_line_not_a_traceback(tmp_path: Path) -> None:
    script = ("import sys, wizard.core.diagnose as d, wizard.cli as cli\n"
              "def boom(*a, **k): raise RuntimeError('simulated')\n"
              "d.choose_environment = boom\n"
              "sys.exit(cli.main(sys.argv[1:]))\n")
    result = subprocess.run(
        [sys.executable, "-c", script, "check", "--profile", str(PROFILES / "wsl2-healthy.json")],
        capture_output=True, text=True, timeout=120, check=False, cwd=str(REPO_ROOT),
        env={**os.environ, "XDG_STATE_HOME": str(tmp_path)})  # the log goes there, not home
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert "internal error: RuntimeError: simulated" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def _two_equal_venvs(active: str) -> dict:
    data = json.loads((PROFILES / "linux-dual-4090-healthy.json").read_text(encoding="utf-8"))
    first = data["pythons"][0]
    second = copy.deepcopy(first)
    second["executable"] = "/home/me/venvs/other/bin/python"
    second["probe"]["python"].update(executable=second["executable"],
                                     prefix="/home/me/venvs/other")
    first["score"] = second["score"] = 110
    data["pythons"] = [first, second]
    data["env"]["VIRTUAL_ENV"] = active
    return data


@pytest.mark.parametrize("active", ["/home/me/venvs/tf", "/home/me/venvs/other"])
def test_the_activated_venv_wins_a_tie(active: str) -> None:
    """A snapshot taken in one venv replays that venv, not another of equal score."""
    report = run_check(ReplayHost(_two_equal_venvs(active), "two.json"))
    assert report.python == f"{active}/bin/python"
