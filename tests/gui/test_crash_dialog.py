"""Never a silent crash: an unhandled exception in a worker, a Python thread or a slot on the
GUI thread goes to the log file (with traceback) and to the crash dialog, with "Copy report"."""

from __future__ import annotations

import logging
import threading
from pathlib import Path

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from wizard import __version__
from wizard.app import setup_logging
from wizard.widgets import crash_dialog
from wizard.workers.manager import WorkerManager

pytestmark = pytest.mark.qt_no_exception_capture  # the wizard's own hooks are under test


@pytest.fixture
def reporter(qapp, tmp_path, monkeypatch):
    """The wizard's logging (in a temporary user log folder) and crash hooks, removed after."""
    for name in ("XDG_STATE_HOME", "LOCALAPPDATA"):
        monkeypatch.setenv(name, str(tmp_path / "state"))
    root = logging.getLogger()
    old = [h for h in root.handlers if getattr(h, "_gpu_wizard", False)]
    for handler in old:
        root.removeHandler(handler)
    log_path = setup_logging()
    assert log_path is not None and Path(log_path).is_relative_to(tmp_path)
    logging.getLogger("wizard.test").info("a line before the crash")
    installed = crash_dialog.install(log_path, qapp)
    yield installed
    installed.uninstall()
    for widget in QApplication.topLevelWidgets():
        if widget.objectName() == "crashDialog":
            widget.close()
    for handler in [h for h in root.handlers if getattr(h, "_gpu_wizard", False)]:
        root.removeHandler(handler)
        handler.close()
    for handler in old:
        root.addHandler(handler)


def _dialog(qtbot):
    found = []

    def shown():
        found[:] = [w for w in QApplication.topLevelWidgets()
                    if w.objectName() == "crashDialog" and w.isVisible()]
        assert found

    qtbot.waitUntil(shown, timeout=5000)
    return found[0]


def _check(dialog, reporter, text: str) -> None:
    assert text in dialog.what.text()
    assert reporter.log_path in dialog.where.text()
    log = Path(reporter.log_path).read_text(encoding="utf-8")
    assert "CRITICAL" in log and "uncaught exception" in log
    assert f"RuntimeError: {text}" in log and "Traceback" in log
    report = dialog.report()
    assert f"GPU Setup Wizard {__version__}" in report and "System:" in report
    assert f"RuntimeError: {text}" in report and "Traceback" in report
    assert "a line before the crash" in report  # the last log lines
    dialog.copy_button.click()
    assert QApplication.clipboard().text() == report


def test_exception_in_a_worker_shows_the_dialog_and_logs(qtbot, reporter):
    manager = WorkerManager()

    def fails(progress, cancelled):
        raise RuntimeError("boom in a worker")

    worker = manager.start(fails)  # nobody handles sig_error: a bug, shown
    assert worker.wait(5)
    dialog = _dialog(qtbot)
    _check(dialog, reporter, "boom in a worker")
    assert manager.shutdown()


def test_handled_worker_error_shows_no_dialog(qtbot, reporter):
    manager = WorkerManager()
    errors = []

    def fails(progress, cancelled):
        raise RuntimeError("expected failure")

    worker = manager.start(fails, slots={"sig_error": errors.append})
    assert worker.wait(5)
    qtbot.waitUntil(lambda: len(errors) == 1, timeout=5000)
    qtbot.wait(50)
    assert not [w for w in QApplication.topLevelWidgets()
                if w.objectName() == "crashDialog" and w.isVisible()]
    assert manager.shutdown()


def test_exception_in_a_python_thread_shows_the_dialog(qtbot, reporter):
    def fails():
        raise RuntimeError("boom in a thread")

    thread = threading.Thread(target=fails, name="probe-thread")
    thread.start()
    thread.join(5)
    dialog = _dialog(qtbot)
    _check(dialog, reporter, "boom in a thread")
    assert "probe-thread" in dialog.what.text()


def test_exception_in_a_slot_on_the_gui_thread_shows_the_dialog(qtbot, reporter):
    def slot():
        raise RuntimeError("boom in a slot")

    QTimer.singleShot(0, slot)
    dialog = _dialog(qtbot)
    _check(dialog, reporter, "boom in a slot")
    assert threading.main_thread().name in dialog.what.text()


def test_more_crashes_go_into_the_open_dialog_and_it_speaks_chinese(qtbot, reporter):
    from wizard import i18n

    for text in ("first", "second"):
        try:
            raise RuntimeError(text)
        except RuntimeError as exc:
            reporter._sys_hook(RuntimeError, exc, exc.__traceback__)
    dialog = _dialog(qtbot)
    assert len(dialog.crashes) == 2 and "first" in dialog.what.text()
    assert dialog.more.text() and "second" in dialog.report()
    previous = i18n.current_language()
    try:
        i18n.install_language(QApplication.instance(), "zh_CN")
        qtbot.waitUntil(lambda: dialog.copy_button.text() == "复制报告", timeout=5000)
        assert "日志位于" in dialog.where.text()
    finally:
        i18n.install_language(QApplication.instance(), previous)
