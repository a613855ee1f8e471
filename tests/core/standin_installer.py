"""A stand-in for NVIDIA's CUDA installer, run through a Windows-platform LocalHost: a script
that records its arguments, prints a line and writes the toolkit's files, for the installer
fix's tests (core and GUI)."""

from __future__ import annotations

import json
import stat
import sys
from pathlib import Path

import pytest

from wizard.core.fixes import cuda_installer
from wizard.core.host import LocalHost
from wizard.core.host.base import PlatformInfo
from wizard.core.host.registry import MemoryRegistry

STANDIN = """#!{python}
import json, os, subprocess, sys, time
with open(os.environ["GW_STANDIN_RECORD"], "w") as handle:
    json.dump(sys.argv[1:], handle)
print("stand-in installer", flush=True)
if os.environ.get("GW_STANDIN_HANG"):
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    print("grandchild", child.pid, flush=True)
    time.sleep(60)
for path in json.loads(os.environ.get("GW_STANDIN_FILES", "[]")):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as handle:
        handle.write("x")
    time.sleep(0.15)
sys.exit(int(os.environ.get("GW_STANDIN_EXIT", "0")))
"""


def windows_host(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> LocalHost:
    """A Windows-platform LocalHost whose Program Files is a temporary folder."""
    if sys.platform == "win32":
        pytest.skip("the stand-in installer is a script; on Windows the run asks for UAC")
    monkeypatch.setenv("ProgramFiles", str(tmp_path / "pf"))
    monkeypatch.delenv("ProgramW6432", raising=False)
    monkeypatch.setattr(cuda_installer, "POLL_S", 0.05)
    (tmp_path / "pf").mkdir()
    return LocalHost(platform=PlatformInfo("windows", "10.0.22631"),
                     registry_backend=MemoryRegistry())


def make_standin(folder: Path, monkeypatch: pytest.MonkeyPatch, files: list[str],
                 exit_code: int = 0) -> tuple[Path, Path]:
    """The stand-in installer in ``folder`` (it writes ``files``, exits ``exit_code``) and the
    file where it records its arguments."""
    path = folder / "cuda_11.2.2_461.33_win10.exe"
    path.write_text(STANDIN.format(python=sys.executable), encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    record = folder / "args.json"
    monkeypatch.setenv("GW_STANDIN_RECORD", str(record))
    monkeypatch.setenv("GW_STANDIN_FILES", json.dumps(files))
    monkeypatch.setenv("GW_STANDIN_EXIT", str(exit_code))
    return path, record
