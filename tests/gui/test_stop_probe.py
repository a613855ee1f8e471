"""Stop on the TensorFlow page while the environment probe (a child process) runs: the child
dies, the page returns to its idle look (no progress bar, no Stop, Next usable) and nothing
starts again by itself."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from conftest import own_profile

sys.path.insert(0, str(Path(__file__).parent))
from helpers import next_button, walk_to_summary  # noqa: E402

from wizard.core.host import probe as probe_module  # noqa: E402
from wizard.pages.ids import PageId  # noqa: E402

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="the fake interpreter is sh")


class FakeInterpreter:
    """A "python" that records its pid and then hangs, as a probe stuck importing TF does."""

    def __init__(self, folder: Path) -> None:
        self.pids = folder / "pids"
        self.exe = folder / "python"
        self.exe.write_text(f"#!/bin/sh\necho $$ >> '{self.pids}'\nexec sleep 60\n")
        self.exe.chmod(0o755)

    def started(self) -> list[int]:
        if not self.pids.exists():
            return []
        return [int(line) for line in self.pids.read_text().split()]

    def probe(self, _executable, timeout=120.0, cancelled=None):  # noqa: ANN001 - host's API
        return probe_module.run_probe(str(self.exe), timeout=timeout, cancelled=cancelled)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # pragma: no cover - someone else's process reused the pid
        return True
    try:  # a zombie is dead for our purpose
        with open(f"/proc/{pid}/stat", encoding="ascii") as handle:
            return handle.read().split(") ", 1)[1][:1] != "Z"
    except OSError:
        return False


def _tf_page(qtbot, wiz):
    wiz.show()
    walk_to_summary(qtbot, wiz)
    wiz.back()
    assert wiz.currentId() == PageId.TENSORFLOW
    page = wiz.currentPage()
    qtbot.waitUntil(page.isComplete, timeout=10000)
    return page


def _assert_idle_after_stop(qtbot, wiz, page, fake: FakeInterpreter) -> None:
    pids = fake.started()
    assert len(pids) == 1, pids
    page.progress.stop_button.click()
    # the page looks idle at once
    assert not page.is_running()
    assert page.state in ("stopped", "done")
    assert page.progress.isHidden()
    assert not page.progress.stop_button.isVisible()
    assert not page.progress.bar.isVisible()
    assert next_button(wiz).isEnabled()
    assert page.recheck_button.isEnabled()
    # the child really dies, and the worker ends
    qtbot.waitUntil(lambda: not _alive(pids[0]), timeout=5000)
    qtbot.waitUntil(lambda: not wiz.workers.active(), timeout=5000)
    # nothing starts again by itself
    qtbot.wait(700)
    assert fake.started() == pids, "a new probe started after Stop"
    assert not wiz.workers.active()
    assert not page.is_running()
    assert page.progress.isHidden()
    assert next_button(wiz).isEnabled()


def test_stop_while_probing_a_chosen_environment(qtbot, make_wizard, tmp_path):
    wiz = make_wizard(own_profile("gui-win-ready"))
    page = _tf_page(qtbot, wiz)
    fake = FakeInterpreter(tmp_path)
    wiz.session.host.probe_python = fake.probe
    page.env_list.setCurrentItem(page.env_list.topLevelItem(1))
    assert page.use_button.isEnabled()
    page.use_button.click()
    qtbot.waitUntil(lambda: bool(fake.started()), timeout=5000)
    assert page.is_running() and page.progress.isVisible()
    assert not next_button(wiz).isEnabled()
    _assert_idle_after_stop(qtbot, wiz, page, fake)
    assert page.state == "stopped"  # the old result was for another environment
    assert "stopped" in page.summary.text()


def test_stop_while_checking_again(qtbot, make_wizard, monkeypatch, tmp_path):
    from wizard.core import session as session_module

    wiz = make_wizard(own_profile("gui-win-ready"))
    page = _tf_page(qtbot, wiz)
    fake = FakeInterpreter(tmp_path)

    def choose(host, options, cancelled=None, probes=None):  # noqa: ANN001 - core API
        found = fake.probe(str(fake.exe), cancelled=cancelled)
        return str(fake.exe), found, "test"

    monkeypatch.setattr(session_module, "choose_environment", choose)
    page.recheck_button.click()
    qtbot.waitUntil(lambda: bool(fake.started()), timeout=5000)
    assert page.is_running() and page.progress.isVisible()
    _assert_idle_after_stop(qtbot, wiz, page, fake)


def test_a_second_stop_is_harmless(qtbot, make_wizard, tmp_path):
    wiz = make_wizard(own_profile("gui-win-ready"))
    page = _tf_page(qtbot, wiz)
    fake = FakeInterpreter(tmp_path)
    wiz.session.host.probe_python = fake.probe
    page.env_list.setCurrentItem(page.env_list.topLevelItem(1))
    page.use_selected_environment()
    qtbot.waitUntil(lambda: bool(fake.started()), timeout=5000)
    page.stop_check()
    page.stop_check()
    qtbot.waitUntil(lambda: not wiz.workers.active(), timeout=5000)
    assert page.state == "stopped" and page.progress.isHidden()
    assert len(fake.started()) == 1
