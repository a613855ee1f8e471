"""The test-venv builder: a failed or interrupted build is never reused."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "make_test_venvs.py"


@pytest.fixture()
def builder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    spec = importlib.util.spec_from_file_location("make_test_venvs_under_test", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    monkeypatch.setenv("GPU_WIZARD_VENV_CACHE", str(tmp_path / "cache"))
    return module


def fake_run(fail_on: str | None):
    def run(argv: list[str], log) -> None:
        if argv[1:3] == ["-m", "venv"]:
            target = Path(argv[3])
            (target / "bin").mkdir(parents=True)
            (target / "bin" / "python").write_text("")
        if fail_on and fail_on in " ".join(argv):
            raise subprocess.CalledProcessError(1, argv)
    return run


def test_failed_build_leaves_nothing_behind_and_a_later_build_succeeds(builder, monkeypatch):
    spec = builder.VenvSpec("demo", f"{sys.version_info[0]}.{sys.version_info[1]}", ("pkg",), "x")
    monkeypatch.setattr(builder, "_run", fake_run("pip install"))
    with pytest.raises(RuntimeError, match="building the venv failed"):
        builder.build(spec)
    cache = builder.cache_dir()
    assert builder.built_path(spec) is None
    assert not [p for p in cache.iterdir() if p.is_dir()], list(cache.iterdir())
    monkeypatch.setattr(builder, "_run", fake_run(None))
    path = builder.build(spec)
    assert path == cache / spec.key and (path / builder.MARKER).is_file()
    assert builder.build(spec) == path  # cached: no second build


def test_unfinished_folder_without_marker_is_rebuilt(builder, monkeypatch):
    spec = builder.VenvSpec("demo", f"{sys.version_info[0]}.{sys.version_info[1]}", ("pkg",), "x")
    stale = builder.cache_dir() / spec.key
    (stale / "bin").mkdir(parents=True)
    (stale / "bin" / "python").write_text("")
    assert builder.built_path(spec) is None
    monkeypatch.setattr(builder, "_run", fake_run(None))
    assert (builder.build(spec) / builder.MARKER).is_file()


def test_keys_change_with_the_spec(builder):
    a = builder.VenvSpec("x", "3.10", ("tensorflow==2.10.1", "numpy<2"), "")
    b = builder.VenvSpec("x", "3.10", ("tensorflow==2.10.1", "numpy>=2"), "")
    assert a.key != b.key and a.key.startswith("x-py3.10-")
