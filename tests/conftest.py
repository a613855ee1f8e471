"""Shared fixtures: where the repository, the machine profiles and the shared data lie."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
PROFILES_DIR = REPO_ROOT / "tests" / "profiles"
SHARED_DIR = Path(os.environ.get("GPU_WIZARD_SHARED", REPO_ROOT / "shared"))
if not SHARED_DIR.is_dir() and Path("/work/shared").is_dir():
    SHARED_DIR = Path("/work/shared")


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return REPO_ROOT


@pytest.fixture(scope="session")
def profiles_dir() -> Path:
    return PROFILES_DIR


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """``shared/`` (design, data, research); tests that need it skip when it is absent."""
    if not SHARED_DIR.is_dir():
        pytest.skip("shared/ data not available")
    return SHARED_DIR
