""""Fix everything": the overall plan first, one confirmation, the fixes of the failing layers
lowest layer first, each planned from a fresh check (not the stale findings), a re-check after
each, a stop at the first fix that fails, cancel, and demo mode showing the plan only.

The live runs use a machine the test owns: a CUDA tree without cuDNN (cuDNN downloaded from a
local server standing in for NVIDIA) and a throwaway venv without the package a pip fix
installs from a local wheel (no index)."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import SHARED_PROFILES
from helpers import WAIT_MS

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fixgui_support as support  # noqa: E402

from wizard.core.fixes import journal as journals  # noqa: E402
from wizard.core.host import LocalHost  # noqa: E402
from wizard.widgets import fix_all, fix_tasks  # noqa: E402

pytestmark = pytest.mark.usefixtures("fix_gui_state")


@pytest.fixture(scope="module")
def wheels(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("wheels")
    support.make_wheel(folder)
    return folder


@pytest.fixture(scope="module")
def venv_path(tmp_path_factory: pytest.TempPathFactory) -> str:
    return support.make_venv(tmp_path_factory.mktemp("venv") / "env")


@pytest.fixture
def venv(venv_path: str):
    """The throwaway venv, without gw_tiny before and after each test."""
    yield venv_path
    subprocess.run([venv_path, "-m", "pip", "uninstall", "-y", "gw_tiny"], capture_output=True,
                   timeout=120)


def machine(tmp_path: Path, venv: str, wheels: Path) -> support.DiskSession:
    """cuDNN missing from the CUDA tree, gw_tiny missing from the venv. Until cuDNN is in, the
    tensorflow finding asks for a gw_tiny version no wheel has: only a fix planned from the
    check after the cuDNN fix asks for the right one."""
    cuda = support.fa.cuda_tree(tmp_path / "cuda-11.2")

    def requirement() -> str:
        ready = (cuda / "lib64" / "libcudnn.so.8").exists()
        return "gw_tiny==1.0" if ready else "gw_tiny==9.9"

    return support.DiskSession(LocalHost(), cuda, venv, wheels, requirement)


def test_everything_runs_lowest_layer_first_each_planned_afresh(tmp_path: Path, server,
                                                                monkeypatch, venv, wheels):
    path = support.serve_cudnn(server, tmp_path, monkeypatch)
    session = machine(tmp_path, venv, wheels)
    report = session.run_all()
    assert report.blocking_layer == "cudnn"
    items = fix_tasks.plan_everything(session.host, report)
    assert [i.finding.code for i in items] == ["cudnn_missing", "tensorflow_not_installed"]
    assert fix_tasks.runnable(items)
    assert "gw_tiny==9.9" in "\n".join(str(m) for m in items[1].prepared.messages())  # stale
    assert server.hits(path) == [] and not support.installed(venv)  # planning changes nothing

    events = fix_tasks.Events()
    run = fix_tasks.fix_everything(session, items, events)
    assert run.ok, [str(s.error) for s in run.steps]
    assert [s.finding.code for s in run.steps] == ["cudnn_missing", "tensorflow_not_installed"]
    assert (session.cuda / "lib64" / "libcudnn.so.8").exists() and support.installed(venv)
    assert session.rechecked == ["cudnn", "tensorflow"]  # a re-check after each fix
    assert run.report is not None and run.report.ready
    drained = events.drain()
    lines = [e[1] for e in drained if e[0] == "line"]
    assert any("gw_tiny==1.0" in line for line in lines)  # the fresh plan ran
    assert not any("9.9" in line for line in lines)
    assert any(e[0] == "download" for e in drained)
    assert run.steps[0].outcome.journal is not None  # the cuDNN copy can be undone
    assert journals.undo(session.host, run.steps[0].outcome.journal)


def test_everything_stops_at_the_first_fix_that_fails(tmp_path: Path, server, monkeypatch,
                                                      venv, wheels):
    support.serve_cudnn(server, tmp_path, monkeypatch, wrong_sha=True)
    session = machine(tmp_path, venv, wheels)
    before = support.tree_hash(session.cuda)
    items = fix_tasks.plan_everything(session.host, session.run_all())
    run = fix_tasks.fix_everything(session, items)
    assert not run.ok and len(run.steps) == 1
    assert run.steps[0].finding.code == "cudnn_missing" and run.steps[0].error is not None
    assert "sha256" in str(run.steps[0].error)
    assert run.stopped is not None and run.stopped.id == "fixgui.all.stopped_failed"
    assert support.tree_hash(session.cuda) == before
    assert not support.installed(venv)  # the pip fix after it never ran
    assert session.rechecked == []  # nothing changed, nothing to check again


def test_a_fix_that_does_not_take_stops_the_run(tmp_path: Path, monkeypatch, venv, wheels):
    """pip succeeds but the check still finds the problem: the run stops there."""
    session = machine(tmp_path, venv, wheels)
    (session.cuda / "lib64" / "libcudnn.so.8").write_bytes(b"")  # cuDNN is there
    items = fix_tasks.plan_everything(session.host, session.run_all())
    assert [i.finding.code for i in items] == ["tensorflow_not_installed"]
    monkeypatch.setattr(support, "installed", lambda python, name="gw_tiny": False)
    run = fix_tasks.fix_everything(session, items)
    assert not run.ok and run.steps[0].outcome is not None and run.steps[0].outcome.ok
    assert run.steps[0].error is not None and run.steps[0].error.id == "fixgui.all.still_there"
    assert session.rechecked == ["tensorflow"]


def test_the_dialog_shows_the_plan_runs_it_on_one_confirmation(qtbot, tmp_path: Path, server,
                                                              monkeypatch, venv, wheels,
                                                              workers):
    support.serve_cudnn(server, tmp_path, monkeypatch)
    session = machine(tmp_path, venv, wheels)
    items = fix_tasks.plan_everything(session.host, session.run_all())
    finished: list = []
    dialog = fix_all.FixAllDialog(session, items, workers, on_finished=finished.append)
    qtbot.addWidget(dialog)
    dialog.show()
    plan = dialog.plan_text()
    assert plan.startswith("1. cuDNN") and "\n2. " in plan and "sha256" in plan
    assert "-m pip install" in plan
    assert dialog.run_button.isVisible() and dialog.run_button.isDefault()
    assert not support.installed(venv)
    dialog.run_button.click()
    assert dialog.cancel_button.isVisible() and not dialog.close_button.isEnabled()
    qtbot.waitUntil(lambda: dialog.state == fix_all.FINISHED, timeout=120000)
    status = dialog.status_text()
    assert "Fix 1 worked" in status and "Fix 2 worked" in status
    assert "check now finds TensorFlow ready" in status
    assert "gw_tiny==1.0" in dialog.output_text()
    assert finished and finished[0] is dialog.run and dialog.run.ok
    assert dialog.close_button.isEnabled() and not dialog.run_button.isVisible()


def test_cancel_stops_the_run_and_starts_no_further_fix(qtbot, tmp_path: Path, server,
                                                        monkeypatch, venv, wheels, workers):
    support.serve_cudnn(server, tmp_path, monkeypatch, body_extra=3_000_000)
    real = fix_tasks.Events.download

    def slow_link(self, progress):  # noqa: ANN001
        time.sleep(0.05)
        real(self, progress)

    monkeypatch.setattr(fix_tasks.Events, "download", slow_link)
    session = machine(tmp_path, venv, wheels)
    before = support.tree_hash(session.cuda)
    items = fix_tasks.plan_everything(session.host, session.run_all())
    dialog = fix_all.FixAllDialog(session, items, workers)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.start()
    qtbot.waitUntil(lambda: "Downloading:" in dialog.status_text(), timeout=WAIT_MS)
    dialog.reject()  # Esc: cancels first, the dialog stays
    assert dialog.isVisible() and "no further fix will start" in dialog.status_text()
    qtbot.waitUntil(lambda: dialog.state == fix_all.FINISHED, timeout=WAIT_MS)
    assert "Cancelled: no further fix was started" in dialog.status_text()
    assert support.tree_hash(session.cuda) == before and not support.installed(venv)


def test_summary_demo_shows_the_overall_plan_and_runs_nothing(qtbot, make_wizard, state: Path):
    from wizard.widgets.fix_dialog import FixController

    wiz = make_wizard(SHARED_PROFILES / "win-tf210-cudnn-never-copied.json")
    FixController(wiz.session).attach(wiz)
    wiz.show_summary()
    summary = wiz.summary
    qtbot.waitUntil(lambda: summary._fix_items is not None, timeout=WAIT_MS)
    assert summary.fix_all_button.isEnabled()
    dialog = summary.open_fix_everything()
    assert dialog is not None and dialog.demo
    assert "nothing will be changed" in dialog.intro.text()
    assert "https://developer.download.nvidia.com/" in dialog.plan_text()
    assert not dialog.run_button.isVisible()
    dialog.start()
    assert dialog.state == fix_all.PLANNED and not journals.journals()
    dialog.reject()


def test_summary_cards_open_fix_it_and_recheck_there(qtbot, make_wizard):
    from wizard.widgets.fix_dialog import FixController

    controller = FixController(None)
    wiz = make_wizard(SHARED_PROFILES / "win-cuda112-not-on-path.json",
                      fix_actions=controller.handlers())
    controller.session = wiz.session
    controller.attach(wiz)
    wiz.show_summary()
    summary = wiz.summary
    qtbot.waitUntil(lambda: summary.report is not None, timeout=WAIT_MS)
    card = next(c for c in summary.cards if c.finding.code == "cuda_not_on_path")
    assert card.action_button is not None
    first = summary.report
    card.action_button.click()
    dialog = wiz.fix_controller.dialog
    qtbot.waitUntil(lambda: dialog.state == "planned", timeout=WAIT_MS)
    assert "PATH" in dialog.plan_text()
    dialog.on_changed()  # what a finished fix calls: the summary checks that layer again
    qtbot.waitUntil(lambda: summary.report is not None and summary.report is not first,
                    timeout=WAIT_MS)
    dialog.reject()


def test_a_new_environment_is_checked_from_then_on():
    """TF 2.15 on native Windows in a Python 3.11 env: the fix makes a new env with Python 3.10
    and TF 2.10; the check after it must look there, not at the old env (which still fails)."""
    from wizard.core.host import ReplayHost
    from wizard.core.session import CheckSession

    session = CheckSession(ReplayHost.from_file(SHARED_PROFILES / "win-tf215-native.json"))
    report = session.run_all()
    old = session.python
    items = fix_tasks.plan_everything(session.host, report)
    prepared = items[0].prepared
    assert prepared is not None and prepared.kind == fix_tasks.RUN and prepared.plan.new_env
    assert prepared.plan.python != old
    assert fix_tasks.adopt_environment(session, prepared)
    assert session.options.python == prepared.plan.python
    in_place = fix_tasks.Prepared(fix_tasks.RUN, items[0].finding, support.packages_plan(old))
    assert not fix_tasks.adopt_environment(session, in_place)  # the same env: nothing to follow


def test_the_overall_plan_is_worked_out_once_per_report(qtbot, make_wizard, monkeypatch):
    """Opening the summary again with the same findings reuses the plan (a pip plan probes the
    environment on a real machine); a fix from a card works it out afresh."""
    calls: list[int] = []
    real = fix_tasks.plan_everything

    def counted(*args, **kwargs):  # noqa: ANN002, ANN003
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(fix_tasks, "plan_everything", counted)
    wiz = make_wizard(SHARED_PROFILES / "win-tf210-cudnn-never-copied.json")
    summary = wiz.summary
    for _ in range(2):
        wiz.show_summary()
        qtbot.waitUntil(lambda: summary.report is not None and summary._fix_items is not None,
                        timeout=WAIT_MS)
    assert len(calls) == 1 and summary.fix_all_button.isEnabled()
    summary.recheck_layer("cudnn")
    qtbot.waitUntil(lambda: summary.report is not None and summary._fix_items is not None,
                    timeout=WAIT_MS)
    assert len(calls) == 2
