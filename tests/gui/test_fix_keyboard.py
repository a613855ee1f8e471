"""The fix dialogs from the keyboard and in another language: every control takes focus with
Tab and has a name, the button that does the work is the default (Enter), Esc cancels a run
before it closes, and a language change renders every text again."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from conftest import SHARED_PROFILES
from helpers import WAIT_MS
from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QAbstractButton, QPlainTextEdit

sys.path.insert(0, str(Path(__file__).resolve().parent))

from wizard import i18n  # noqa: E402
from wizard.core.fixes import journal as journals  # noqa: E402
from wizard.core.host import ReplayHost  # noqa: E402
from wizard.core.session import CheckSession  # noqa: E402
from wizard.widgets import fix_all, fix_dialog, fix_tasks  # noqa: E402

PROFILE = SHARED_PROFILES / "win-tf210-cudnn-never-copied.json"


@pytest.fixture(autouse=True)
def state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(journals.STATE_ENV, str(tmp_path / "state"))
    return tmp_path / "state"


def focus_chain(dialog) -> list:
    """The widgets Tab visits, from the first one round to it again."""
    dialog.activateWindow()
    first = dialog.focusWidget() or dialog.nextInFocusChain()
    seen, widget = [first], first
    for _ in range(50):
        widget = widget.nextInFocusChain()
        if widget is first:
            break
        if widget.isVisible() and widget.isEnabled() and \
                widget.focusPolicy() & Qt.FocusPolicy.TabFocus:
            seen.append(widget)
    return seen


def controls(dialog) -> list:
    return [w for w in dialog.findChildren(QAbstractButton) + dialog.findChildren(QPlainTextEdit)
            if w.isVisible()]


def cudnn_finding():
    session = CheckSession(ReplayHost.from_file(PROFILE))
    result = session.run_layer("cudnn")
    return session.host, next(f for f in result.findings if f.fix.action == "install_cudnn")


def test_fix_dialog_is_keyboard_reachable_and_named(qtbot, workers):
    host, finding = cudnn_finding()
    dialog = fix_dialog.FixDialog(finding, host, workers)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitUntil(lambda: dialog.state == fix_dialog.PLANNED, timeout=WAIT_MS)
    for widget in controls(dialog):
        assert widget.accessibleName(), widget
        assert widget.focusPolicy() & Qt.FocusPolicy.TabFocus, widget
    chain = focus_chain(dialog)
    assert dialog.choose_button in chain and dialog.close_button in chain
    assert dialog.plan_view in chain


def test_fix_everything_dialog_keyboard_and_language(qtbot, qapp, workers):
    session = CheckSession(ReplayHost.from_file(PROFILE))
    items = fix_tasks.plan_everything(session.host, session.run_all())
    dialog = fix_all.FixAllDialog(session, items, workers)
    qtbot.addWidget(dialog)
    dialog.show()
    for widget in controls(dialog):
        assert widget.accessibleName(), widget
        assert widget.focusPolicy() & Qt.FocusPolicy.TabFocus, widget
    assert dialog.close_button in focus_chain(dialog)
    assert "Fixes to run, lowest layer first: 1" in dialog.heading.text()
    english = dialog.plan_text()
    previous = i18n.current_language()
    try:
        i18n.install_language(qapp, "zh_CN")
        QCoreApplication.processEvents()
        assert "要运行的修复" in dialog.heading.text()
        assert "找不到 cuDNN" in dialog.plan_text() and dialog.plan_text() != english
        assert "演示模式" in dialog.intro.text() and dialog.close_button.text() == "关闭"
    finally:
        i18n.install_language(qapp, previous)
        QCoreApplication.processEvents()
    assert dialog.plan_text() == english


def test_enter_runs_the_plan_and_escape_cancels_first(qtbot, tmp_path: Path, workers,
                                                      monkeypatch):
    """On a live machine the apply button is the default; Esc during a run asks it to stop and
    keeps the dialog open."""
    import threading

    from wizard.core.host import LocalHost
    from wizard.core.model import Finding, Fix

    gate = threading.Event()
    started = threading.Event()
    real = fix_tasks.execute

    def held(*args, **kwargs):  # noqa: ANN002, ANN003 - the run waits for the test
        started.set()
        gate.wait(10)
        return real(*args, **kwargs)

    monkeypatch.setattr(fix_tasks, "execute", held)
    folder = tmp_path / "bin"
    folder.mkdir()
    monkeypatch.setenv("HOME", str(tmp_path))
    (tmp_path / ".bashrc").write_text("# test\n")
    finding = Finding("cuda_not_on_path", severity="fail", params={},
                      fix=Fix(action="set_env", action_params={"name": "LD_LIBRARY_PATH",
                                                               "append": str(folder)}))
    dialog = fix_dialog.FixDialog(finding, LocalHost(), workers)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitUntil(lambda: dialog.state in (fix_dialog.PLANNED, fix_dialog.REFUSED),
                    timeout=WAIT_MS)
    assert dialog.state == fix_dialog.PLANNED, dialog.status_text()
    assert dialog.apply_button.isDefault()
    qtbot.keyClick(dialog, Qt.Key.Key_Return)
    qtbot.waitUntil(started.is_set, timeout=WAIT_MS)
    assert dialog.state == fix_dialog.APPLYING
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    assert dialog.isVisible() and not dialog.cancel_button.isEnabled()
    gate.set()
    qtbot.waitUntil(lambda: dialog.state in (fix_dialog.FAILED, fix_dialog.DONE),
                    timeout=WAIT_MS)
    assert dialog.state == fix_dialog.FAILED and "Cancelled" in dialog.status_text()
    assert (tmp_path / ".bashrc").read_text() == "# test\n"
