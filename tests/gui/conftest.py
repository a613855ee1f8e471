"""GUI tests run offscreen with pytest-qt; every test must leave no worker thread behind."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("PYTEST_QT_API", "pyside6")

import threading  # noqa: E402
from pathlib import Path  # noqa: E402

import pytest  # noqa: E402

HERE = Path(__file__).resolve().parent
OWN_PROFILES = HERE / "profiles"
SHARED_PROFILES = HERE.parent / "profiles"


@pytest.fixture(scope="session")
def qapp_args():
    return ["gpu-wizard-test"]


@pytest.fixture(autouse=True)
def _isolated_settings(tmp_path, monkeypatch):
    """QSettings go to a temporary folder, so a test never reads or writes the user's."""
    from PySide6.QtCore import QSettings

    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path))
    yield


@pytest.fixture(autouse=True)
def _no_dangling_threads():
    """After each test: no Python thread started by it is still running."""
    before = set(threading.enumerate())
    yield
    leftover = [t for t in threading.enumerate() if t not in before and t.is_alive()]
    assert not leftover, f"threads still running after the test: {leftover}"


def own_profile(name: str) -> Path:
    return OWN_PROFILES / f"{name}.json"


@pytest.fixture
def make_wizard(qtbot):
    """Build the wizard for a profile path; it is shut down (and its threads waited for)
    at the end of the test."""
    from wizard.core.host import ReplayHost
    from wizard.core.session import CheckSession
    from wizard.pages.wizard import SetupWizard

    made = []

    def make(profile, **kwargs):
        host = ReplayHost.from_file(profile)
        wiz = SetupWizard(CheckSession(host), **kwargs)
        qtbot.addWidget(wiz)
        made.append(wiz)
        return wiz

    yield make
    for wiz in made:
        assert wiz.shutdown(10000), "worker threads did not stop within 10 s"
        assert wiz.workers.running_threads() == 0
