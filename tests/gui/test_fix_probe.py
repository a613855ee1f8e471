"""Issue 10 follow-up: a pip fix planned in the GUI takes the check's own probe of the
environment (``fix_tasks.session_given`` -> ``given["probe"]`` -> ``registry.given_probe``)
instead of running the probe again (seconds on a real machine). Counted at
``wizard.core.host.probe.run_probe``, the one place a LocalHost starts it."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from helpers import WAIT_MS

from tests.core.throwaway_env import make_venv
from wizard.core.diagnose import CheckOptions
from wizard.core.fixes import journal as journals
from wizard.core.fixes import registry
from wizard.core.host import LocalHost, ProbeResult
from wizard.core.host import probe as probe_module
from wizard.core.model import FAIL, Finding, Fix, LayerResult
from wizard.core.session import CheckSession
from wizard.widgets import fix_dialog, fix_tasks


@pytest.fixture(autouse=True)
def state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(journals.STATE_ENV, str(tmp_path / "state"))


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory) -> str:
    return make_venv(tmp_path_factory.mktemp("venv") / "env", with_pip=False)


@pytest.fixture
def probes(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The interpreters the probe was started in, in order."""
    started: list[str] = []
    real = probe_module.run_probe

    def counted(executable: str, *args: Any, **kwargs: Any) -> Any:
        started.append(executable)
        return real(executable, *args, **kwargs)

    monkeypatch.setattr(probe_module, "run_probe", counted)
    return started


def _session(venv: str) -> CheckSession:
    session = CheckSession(LocalHost(), CheckOptions(python=venv, tensorflow="2.21"))
    session.prepare()
    assert session.python == venv and session.probe is not None
    assert not ProbeResult.of(session.probe).error, session.probe
    return session


def _tf_finding(venv: str) -> Finding:
    return Finding("tensorflow_not_installed", severity="fail",
                   fix=Fix(action="pip_install",
                           action_params={"python": venv, "tensorflow": "2.21",
                                          "command": f'"{venv}" -m pip install tensorflow'}))


def _planned(qtbot, workers, finding: Finding, session: Any) -> fix_dialog.FixDialog:
    dialog = fix_dialog.FixDialog(finding, LocalHost(), workers, session=session)
    qtbot.addWidget(dialog)
    qtbot.waitUntil(lambda: dialog.state in (fix_dialog.PLANNED, fix_dialog.REFUSED),
                    timeout=WAIT_MS * 4)
    assert dialog.state == fix_dialog.PLANNED, dialog.status_text()
    return dialog


@pytest.mark.timeout(300)
def test_a_pip_fix_planned_in_the_gui_takes_the_sessions_probe(qtbot, workers, venv: str,
                                                                probes: list[str]) -> None:
    session = _session(venv)
    checked = len(probes)
    assert checked >= 1 and all(p == venv for p in probes)
    dialog = _planned(qtbot, workers, _tf_finding(venv), session)
    assert len(probes) == checked, probes  # planned from the check's probe
    plan = dialog.prepared.plan
    assert plan.python == venv and any("tensorflow" in c.text() for c in plan.commands)
    # without the session (as before), planning starts the probe again: the count can move
    _planned(qtbot, workers, _tf_finding(venv), None)
    assert len(probes) == checked + 1 and probes[-1] == venv


@pytest.mark.timeout(300)
def test_fix_everything_plans_from_the_sessions_probe(venv: str, probes: list[str]) -> None:
    session = _session(venv)
    checked = len(probes)
    report = session.run_all()
    assert len(probes) == checked  # the check itself reuses its probe
    # this machine may have no GPU (the gpu layer would block): the TF layer's failure alone
    failing = LayerResult("tensorflow", FAIL, "", findings=[_tf_finding(venv)])
    report = replace(report, layers=[failing], ready=False)
    items = fix_tasks.plan_everything(session.host, report,
                                      given=fix_tasks.session_given(session))
    planned = [i for i in items if i.prepared is not None and i.prepared.kind == fix_tasks.RUN]
    assert planned, [(i.finding.code, i.waits) for i in items]
    assert len(probes) == checked, probes


def test_another_environments_or_a_failed_probe_is_not_taken() -> None:
    host = LocalHost()
    good = {"python": {"version": "3.11.7"}, "packages": {}}
    given = {"probe": good, "probe_python": "/envs/a/bin/python"}
    assert registry.given_probe(host, given, "/envs/a/bin/python") is not None
    assert registry.given_probe(host, given, "/envs/a/bin/../bin/python") is not None
    assert registry.given_probe(host, given, "/envs/b/bin/python") is None
    assert registry.given_probe(host, {"probe": {"error": "timeout"},
                                       "probe_python": "/envs/a/bin/python"},
                                "/envs/a/bin/python") is None
    assert registry.given_probe(host, {}, "/envs/a/bin/python") is None
    assert fix_tasks.session_given(None) == {}
