"""A bug in a command-line command: one line to the user naming the log file, the traceback in
the rotating log in the user log folder (platformdirs)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
PROFILE = REPO_ROOT / "tests" / "profiles" / "wsl2-healthy.json"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="XDG_STATE_HOME is Linux's")
@pytest.mark.parametrize(("lang", "words"), [("en", "Please report it with the log"),
                                             ("zh_CN", "请附上日志")])
def test_internal_error_goes_to_the_log(tmp_path, lang, words) -> None:
    script = ("import sys, wizard.core.diagnose as d, wizard.cli as cli\n"
              "def boom(*a, **k): raise RuntimeError('simulated')\n"
              "d.choose_environment = boom\n"
              "sys.exit(cli.main(sys.argv[1:]))\n")
    env = dict(os.environ, XDG_STATE_HOME=str(tmp_path / "state"))
    result = subprocess.run(
        [sys.executable, "-c", script, "check", "--profile", str(PROFILE), "--lang", lang],
        capture_output=True, text=True, timeout=120, check=False, cwd=str(REPO_ROOT), env=env)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr and words in result.stderr
    logs = list((tmp_path / "state").rglob("wizard.log"))
    assert len(logs) == 1 and str(logs[0]) in result.stderr
    text = logs[0].read_text(encoding="utf-8")
    assert "CRITICAL" in text and "Traceback" in text and "RuntimeError: simulated" in text
    assert "in boom" in text
