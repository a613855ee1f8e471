"""Back, Stop, Cancel and closing the window cancel a running check; no thread outlives the
wizard; a result that arrives after a cancel is dropped."""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

import pytest
from conftest import own_profile

sys.path.insert(0, str(Path(__file__).parent))
from helpers import next_button  # noqa: E402

from wizard.core import diagnose  # noqa: E402
from wizard.pages.ids import PageId  # noqa: E402


class SlowLayers:
    """Replace every layer's check with one that runs until cancelled (or ``limit`` seconds),
    polling ``ctx.cancelled()`` as a real layer does between steps."""

    def __init__(self, monkeypatch, cooperative: bool = True, limit: float = 5.0) -> None:
        self.started = threading.Event()
        self.stopped_early = threading.Event()
        self.cooperative = cooperative
        self.limit = limit
        real = diagnose.layer_checker

        def checker(name):
            check = real(name)

            def slow(ctx):
                self.started.set()
                end = time.monotonic() + self.limit
                while time.monotonic() < end:
                    if self.cooperative and ctx.cancelled():
                        self.stopped_early.set()
                        raise diagnose.CheckCancelled()
                    time.sleep(0.01)
                return check(ctx)

            return slow

        monkeypatch.setattr(diagnose, "layer_checker", checker)


def _start_gpu_check(qtbot, wiz, slow):
    wiz.show()
    wiz.next()
    assert wiz.currentId() == PageId.GPU
    page = wiz.currentPage()
    assert slow.started.wait(5), "the check did not start"
    assert page.is_running()
    assert not next_button(wiz).isEnabled()
    return page


def test_back_cancels_the_running_check(qtbot, make_wizard, monkeypatch):
    slow = SlowLayers(monkeypatch)
    wiz = make_wizard(own_profile("gui-win-ready"))
    page = _start_gpu_check(qtbot, wiz, slow)
    started = time.monotonic()
    wiz.back()
    assert wiz.currentId() == PageId.INTRO
    assert not page.is_running()
    qtbot.waitUntil(lambda: not wiz.workers.active(), timeout=3000)
    assert time.monotonic() - started < 3
    assert slow.stopped_early.is_set()
    assert wiz.session.result("gpu") is None  # nothing half-done is stored
    assert wiz.workers.shutdown(3000)
    assert wiz.workers.running_threads() == 0


def test_stop_button_stops_and_check_again_restarts(qtbot, make_wizard, monkeypatch):
    slow = SlowLayers(monkeypatch, limit=0.3)
    wiz = make_wizard(own_profile("gui-win-ready"))
    page = _start_gpu_check(qtbot, wiz, slow)
    page.progress.stop_button.click()
    assert page.state == "stopped"
    assert next_button(wiz).isEnabled()  # a later layer can still be inspected
    qtbot.waitUntil(lambda: not wiz.workers.active(), timeout=3000)
    assert page.badge.status == "unknown"
    page.recheck_button.click()
    assert page.is_running()
    qtbot.waitUntil(page.isComplete, timeout=10000)
    assert page.state == "done" and page.result.layer == "gpu"


@pytest.mark.parametrize("how", ["close", "cancel_button", "reject"])
def test_closing_mid_check_leaves_no_thread(qtbot, make_wizard, monkeypatch, how):
    slow = SlowLayers(monkeypatch)
    wiz = make_wizard(own_profile("gui-win-ready"))
    _start_gpu_check(qtbot, wiz, slow)
    python_threads = threading.active_count()
    started = time.monotonic()
    if how == "close":
        wiz.close()
    elif how == "cancel_button":
        from PySide6.QtWidgets import QWizard

        wiz.button(QWizard.WizardButton.CancelButton).click()
    else:
        wiz.reject()
    # shutdown ran synchronously: the worker saw the cancel and its thread is gone
    assert time.monotonic() - started < 3
    assert slow.stopped_early.is_set()
    assert not wiz.workers.active()
    assert wiz.workers.running_threads() == 0
    assert threading.active_count() <= python_threads


def test_close_waits_for_work_that_ignores_the_cancel(qtbot, make_wizard, monkeypatch):
    """A step that cannot be interrupted (a child process) is waited for, not abandoned."""
    slow = SlowLayers(monkeypatch, cooperative=False, limit=0.5)
    wiz = make_wizard(own_profile("gui-win-ready"))
    page = _start_gpu_check(qtbot, wiz, slow)
    wiz.close()
    assert not wiz.workers.active()
    assert wiz.workers.running_threads() == 0
    assert page.result is None  # the late result was dropped, not shown


def test_late_result_after_cancel_is_ignored(qtbot, make_wizard, monkeypatch):
    slow = SlowLayers(monkeypatch, cooperative=False, limit=0.3)
    wiz = make_wizard(own_profile("gui-linux-no-gpu"))
    page = _start_gpu_check(qtbot, wiz, slow)
    page.stop_check()
    qtbot.waitUntil(lambda: not wiz.workers.active(), timeout=5000)
    qtbot.wait(50)  # let any queued signal arrive
    assert page.state == "stopped"
    assert page.result is None


def test_environment_is_probed_in_the_background_and_next_never_blocks(
    qtbot, make_wizard, monkeypatch
):
    """The first page stays responsive while a slow probe runs; closing stops the probe."""
    from wizard.core import session as session_module

    real = session_module.choose_environment
    probing = threading.Event()
    stopped = threading.Event()

    def slow_probe(host, options, cancelled=None, probes=None):
        probing.set()
        end = time.monotonic() + 5
        while time.monotonic() < end:
            if cancelled is not None and cancelled():
                stopped.set()
                return None, {"error": "cancelled", "error_kind": "cancelled"}, "cancelled"
            time.sleep(0.01)
        return real(host, options, cancelled=cancelled)

    monkeypatch.setattr(session_module, "choose_environment", slow_probe)
    wiz = make_wizard(own_profile("gui-win-ready"))
    wiz.show()
    assert probing.wait(3), "the environment was not probed in the background"
    started = time.monotonic()
    wiz.intro.select_target("2.9")
    wiz.next()  # validatePage sets the target: it must not wait for the probe's lock
    assert time.monotonic() - started < 2  # the probe would hold it for 5 s
    assert wiz.currentId() == PageId.GPU and wiz.currentPage().is_running()
    wiz.close()
    assert stopped.is_set()
    assert wiz.workers.running_threads() == 0
    assert wiz.session.prepared is False  # a cancelled probe is not kept as an answer


def test_prefetched_environment_is_used(qtbot, make_wizard):
    wiz = make_wizard(own_profile("gui-win-ready"))
    qtbot.waitUntil(lambda: not wiz.workers.active(), timeout=5000)
    assert wiz.session._env is not None
    assert wiz.session._env[0].endswith("python.exe")
