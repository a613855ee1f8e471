"""Shared fixtures: where the repository and the machine profiles lie."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
PROFILES_DIR = REPO_ROOT / "tests" / "profiles"


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return REPO_ROOT


@pytest.fixture(scope="session")
def profiles_dir() -> Path:
    return PROFILES_DIR


@pytest.fixture
def fix_state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The fixes' journal and backups in a temporary state folder, English messages."""
    from wizard.core.fixes import journal

    folder = tmp_path / "state"
    monkeypatch.setenv(journal.STATE_ENV, str(folder))
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    return folder
