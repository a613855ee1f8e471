"""GUI tests run offscreen with pytest-qt; every test must leave no worker thread behind."""

from __future__ import annotations

import os
import sys

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("PYTEST_QT_API", "pyside6")

import threading  # noqa: E402
import time  # noqa: E402
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


def os_thread_count() -> int:
    """Threads of this process as the OS sees them (Qt's pool threads included)."""
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:  # not Linux: count Python's view only
        return threading.active_count()


def _thread_names() -> list[str]:
    names = []
    try:
        for tid in os.listdir("/proc/self/task"):
            with open(f"/proc/self/task/{tid}/comm", encoding="utf-8") as handle:
                names.append(handle.read().strip())
    except OSError:
        pass
    return names


@pytest.fixture(scope="session")
def _qt_warm(qapp):
    """Let Qt start its own long-lived helper threads (platform, fonts) before any count."""
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QLabel, QProgressBar, QWizard, QWizardPage

    wiz = QWizard()
    page = QWizardPage()
    page.setTitle("warm")
    wiz.addPage(page)
    label = QLabel("warm 你好", page)
    bar = QProgressBar()  # showing a progress bar starts two Qt-internal pooled threads for good
    bar.setRange(0, 0)
    bar.show()
    wiz.show()
    QTest.qWait(100)
    label.grab()
    wiz.close()
    bar.close()
    wiz.deleteLater()
    bar.deleteLater()
    QTest.qWait(50)
    # numpy (under pyqtgraph, the monitor's plots) starts its BLAS thread pool on import; it
    # lives as long as the process, like Qt's own helpers
    import numpy  # noqa: F401
    import pyqtgraph  # noqa: F401

    return os_thread_count()


@pytest.fixture(autouse=True)
def _no_dangling_threads(_qt_warm):
    """After each test: no thread started by it is still running (the QApplication and its own
    threads exist before the count starts). Python's own view misses
    Qt's pool threads (they appear as never-ending ``_DummyThread``), so count OS threads.

    Qt's own helpers, started once by the warm-up, can end during a long run and start again
    in whichever test next shows a progress bar (a full run here saw that test blamed for
    "Thread (pooled)" twice, while it passed alone): the count allowed after a test is never
    below the one after the warm-up."""
    before_python = {t for t in threading.enumerate() if not isinstance(t, threading._DummyThread)}
    before = max(os_thread_count(), _qt_warm)
    yield
    leftover = [
        t for t in threading.enumerate()
        if t not in before_python and t.is_alive() and not isinstance(t, threading._DummyThread)
    ]
    assert not leftover, f"Python threads still running after the test: {leftover}"
    # Qt's *global* pool (not ours: the wizard has its own) keeps idle threads for 30 s after
    # Qt itself used them (icon and font loading); retire them before counting.
    from PySide6.QtCore import QThreadPool

    QThreadPool.globalInstance().waitForDone(2000)
    deadline = time.monotonic() + 2.0
    while os_thread_count() > before and time.monotonic() < deadline:
        time.sleep(0.01)  # a thread that just returned may take a moment to be reaped
    assert os_thread_count() <= before, "a thread outlived the test: " + ", ".join(
        _thread_names())


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


# -- the fixes' dialogs (tests/gui/test_fix_*.py) ----------------------------------------------


@pytest.fixture
def fix_gui_state(tmp_path, monkeypatch):
    """The fixes' journal and backups in a temporary state folder."""
    from wizard.core.fixes import journal

    folder = tmp_path / "state"
    monkeypatch.setenv(journal.STATE_ENV, str(folder))
    return folder


@pytest.fixture
def state(fix_gui_state):
    return fix_gui_state


@pytest.fixture
def workers():
    """A worker manager that must have stopped every worker by the end of the test."""
    from wizard.workers import WorkerManager

    manager = WorkerManager()
    yield manager
    assert manager.shutdown(20000)


@pytest.fixture
def server(monkeypatch):
    """A local HTTP server standing in for NVIDIA's download host (tests/gui/fixgui_support)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import fixgui_support

    served, stop = fixgui_support.start_server(monkeypatch)
    yield served
    stop()
