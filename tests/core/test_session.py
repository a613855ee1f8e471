"""CheckSession (the GUI's Qt-free state) gives the same answers as run_check."""

from __future__ import annotations

from pathlib import Path

import pytest

from wizard.core.diagnose import CheckCancelled, CheckOptions, run_check
from wizard.core.host import ReplayHost
from wizard.core.model import LAYERS
from wizard.core.session import CheckSession

PROFILES = sorted((Path(__file__).parents[1] / "gui" / "profiles").glob("*.json"))


@pytest.mark.parametrize("profile", PROFILES, ids=lambda p: p.stem)
def test_layer_by_layer_equals_run_check(profile):
    session = CheckSession(ReplayHost.from_file(profile))
    for layer in LAYERS:
        assert session.run_layer(layer).layer == layer
    expected = run_check(ReplayHost.from_file(profile), CheckOptions())
    assert session.report().to_dict() == expected.to_dict()


def test_a_higher_layer_runs_the_lower_ones_first():
    session = CheckSession(ReplayHost.from_file(PROFILES[0]))
    seen = []
    session.run_layer("cuda", progress=lambda f, key: seen.append(key))
    assert [k for k in seen if k in LAYERS] == ["gpu", "driver", "cuda"]
    assert set(session.results()) == {"gpu", "driver", "cuda"}


def test_cancel_stores_nothing():
    session = CheckSession(ReplayHost.from_file(PROFILES[0]))
    with pytest.raises(CheckCancelled):
        session.run_layer("tensorflow", cancelled=lambda: True)
    assert session.results() == {}


def test_target_and_environment_choices_reset_results():
    profile = next(p for p in PROFILES if p.stem == "gui-win-ready")
    session = CheckSession(ReplayHost.from_file(profile))
    session.run_all()
    session.set_target_version("2.9")
    assert session.results() == {}
    session.run_layer("gpu")
    assert session.target.tensorflow.startswith("2.9")
    session.select_python("C:\\Python312\\python.exe")
    assert not session.prepared
    result = session.recheck("tensorflow")
    assert session.python == "C:\\Python312\\python.exe"
    assert "tensorflow_not_installed" in [f.code for f in result.findings]
    envs = session.discover_environments()
    assert len(envs) == 2


def test_a_stopped_recheck_keeps_the_earlier_results():
    """Stop during the TF page's "Check again": the page still has what it showed before."""
    session = CheckSession(ReplayHost.from_file(PROFILES[0]))
    session.run_all()
    before = {name: result.to_dict() for name, result in session.results().items()}
    with pytest.raises(CheckCancelled):
        session.recheck("tensorflow", cancelled=lambda: True)
    assert {name: result.to_dict() for name, result in session.results().items()} == before
    assert session.report().to_dict()["layers"]
