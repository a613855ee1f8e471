"""What keeps ``gpu-wizard check`` fast (issue 13, item 6), checked by what it does rather than
by the clock: the command line's process skips the interpreter's last garbage collection, a
test calling ``main(argv)`` keeps its collector as it was. The gpu layer's own guards are in
test_nvml_query.py (no pynvml import without a library) and test_layer_gpu.py (no process)."""

from __future__ import annotations

import gc
import os
import sys
from pathlib import Path

import pytest

from wizard import cli

PROFILE = Path(__file__).resolve().parents[1] / "profiles" / "wsl2-healthy.json"


@pytest.fixture
def collector():
    gc.unfreeze()
    yield
    gc.unfreeze()


def test_the_command_line_process_spares_the_last_collection(monkeypatch, capsys,
                                                             collector) -> None:
    monkeypatch.setattr(sys, "argv", ["gpu-wizard", "check", "--profile", str(PROFILE),
                                      "--json"])
    assert cli.main() in (cli.EXIT_READY, cli.EXIT_NOT_READY)
    assert '"layers"' in capsys.readouterr().out
    assert gc.get_freeze_count() > 0  # the objects left are out of the exit's collection


def test_main_called_with_arguments_leaves_the_collector_alone(capsys, collector) -> None:
    assert cli.main(["check", "--profile", str(PROFILE), "--json"]) in (
        cli.EXIT_READY, cli.EXIT_NOT_READY)
    capsys.readouterr()
    assert gc.get_freeze_count() == 0


# Modules a check without Python environments on a machine without an NVIDIA driver has no use
# for, each of which cost milliseconds of that ~0.1 s check when it was imported anyway.
NOT_NEEDED = {
    "pynvml": "the NVML binding (330 kB) when the loader finds no NVML library (host/nvml.py)",
    "wizard.core.host.probe": "the environment probe and its thread pool (host/local.py)",
    "tarfile": "fix archives (fixes/journal.py, imported to look for interrupted fixes)",
    "zipfile": "fix archives (fixes/journal.py, imported to look for interrupted fixes)",
}


@pytest.mark.skipif(sys.platform == "win32", reason="a Linux machine without a driver")
def test_a_check_without_environments_imports_nothing_it_does_not_use(tmp_path) -> None:
    import json
    import subprocess

    code = (
        "import json, sys\n"
        "from wizard import cli\n"
        "from wizard.core import diagnose\n"
        "from wizard.core.messages import msg\n"
        "diagnose.choose_environment = lambda *a, **k: (None, None, "
        "msg('target.env.none_found'))\n"
        "import ctypes\n"
        "def no_library(name, *a, **k):\n"
        "    raise OSError(name + ': cannot open shared object file')\n"
        "ctypes.CDLL = no_library\n"
        "status = cli.main(['check', '--json'])\n"
        "print(json.dumps(sorted(set(sys.modules) & set(json.loads(sys.argv[1])))))\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "GPU_WIZARD_DEBUG"}
    env.update(PATH=str(tmp_path), GPU_WIZARD_STATE_DIR=str(tmp_path / "state"))
    done = subprocess.run([sys.executable, "-c", code, json.dumps(sorted(NOT_NEEDED))],
                          capture_output=True, text=True, timeout=120, env=env,
                          cwd=Path(__file__).resolve().parents[2])
    assert done.returncode in (cli.EXIT_READY, cli.EXIT_NOT_READY), done.stderr
    imported = json.loads(done.stdout.strip().splitlines()[-1])
    assert imported == [], [f"{name}: {NOT_NEEDED[name]}" for name in imported]
