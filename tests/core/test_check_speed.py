"""What keeps ``gpu-wizard check`` fast (issue 13, item 6), checked by what it does rather than
by the clock: the command line's process skips the interpreter's last garbage collection, a
test calling ``main(argv)`` keeps its collector as it was. The gpu layer's own guards are in
test_nvml_query.py (no pynvml import without a library) and test_layer_gpu.py (no process)."""

from __future__ import annotations

import gc
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
