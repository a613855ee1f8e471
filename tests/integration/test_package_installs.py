"""A real pip run from the package index into a throwaway venv, through the wizard's runner
(slow: needs the network; skipped when the index cannot be reached)."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import pytest

from wizard.core.fixes.packages import plan_pip, run_plan
from wizard.core.host import LocalHost
from wizard.core.messages import render

pytestmark = pytest.mark.slow


def _index_reachable() -> bool:
    try:
        with socket.create_connection(("pypi.org", 443), timeout=5):
            return True
    except OSError:
        return False


def test_six_from_the_index_into_a_new_venv_and_back(tmp_path: Path, fix_state: Path) -> None:
    if not _index_reachable():
        pytest.skip("pypi.org cannot be reached from here")
    subprocess.run([sys.executable, "-m", "venv", str(tmp_path / "env")], check=True,
                   timeout=300, capture_output=True)
    python = str(tmp_path / "env" / ("Scripts/python.exe" if sys.platform == "win32"
                                     else "bin/python"))
    host = LocalHost()
    plan = plan_pip(host, python, ["six==1.16.0"])
    lines: list[str] = []
    result = run_plan(host, plan, on_line=lines.append)
    assert result.ok, (render(result.message), lines[-20:])
    assert any("Successfully installed six-1.16.0" in line for line in lines), lines[-20:]
    check = [python, "-c", "import six; print(six.__version__)"]
    assert subprocess.run(check, capture_output=True, text=True, timeout=60,
                          check=False).stdout.strip() == "1.16.0"
    assert result.go_back == [f'"{python}" -m pip uninstall -y six']
    subprocess.run([python, "-m", "pip", "uninstall", "-y", "six"], check=True,
                   capture_output=True, timeout=120)
    assert subprocess.run(check, capture_output=True, timeout=60, check=False).returncode != 0
