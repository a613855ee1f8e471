"""Real TensorFlow/PyTorch environments for the slow tests, built once and cached.

The venvs are described and built by ``scripts/make_test_venvs.py`` (cache:
``$GPU_WIZARD_VENV_CACHE`` or ``~/.cache/gpu-wizard/test-venvs``; a build is renamed into place
only when complete, so an interrupted one is never reused). A missing venv is built on first
use; a failed build fails the test that needs it, naming the build log.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any, Callable

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]


def _load_builder() -> ModuleType:
    path = REPO_ROOT / "scripts" / "make_test_venvs.py"
    spec = importlib.util.spec_from_file_location("make_test_venvs", path)
    assert spec and spec.loader, path
    module = importlib.util.module_from_spec(spec)
    sys.modules["make_test_venvs"] = module
    spec.loader.exec_module(module)
    return module


builder = _load_builder()


@pytest.fixture(scope="session")
def venv_python() -> Callable[[str], str]:
    """``venv_python("tf-cpu")`` -> the interpreter of that cached venv (built if missing)."""
    built: dict[str, str] = {}

    def get(name: str) -> str:
        if name not in built:
            try:
                path = builder.build(builder.SPECS[name])
            except RuntimeError as exc:
                pytest.fail(f"could not build the test venv {name}: {exc}")
            built[name] = str(builder.venv_python(path))
        return built[name]

    return get


@pytest.fixture(scope="session")
def venv_builder() -> ModuleType:
    """``scripts/make_test_venvs.py`` as a module (``find_python``, ``cache_dir``, ...)."""
    return builder


@pytest.fixture(scope="session")
def check_json() -> Callable[..., tuple[int, dict[str, Any]]]:
    return run_check_json


def run_check_json(
    python: str | None, timeout: float = 600, **env: str
) -> tuple[int, dict[str, Any]]:
    """``python -m wizard check [--python X] --json`` as a user would run it."""
    argv = [sys.executable, "-m", "wizard", "check", "--json"]
    if python:
        argv += ["--python", python]
    full_env = dict(os.environ)
    full_env.update(env)
    done = subprocess.run(
        argv, cwd=REPO_ROOT, capture_output=True, text=True, timeout=timeout, env=full_env,
        check=False,
    )
    assert done.returncode in (0, 1), f"check could not run ({done.returncode}): {done.stderr}"
    return done.returncode, json.loads(done.stdout)
