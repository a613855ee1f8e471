"""Issue 7 ("Trust"), wrong facts: what the wizard tells a user must be true of their machine
and their input (the Python series in the cuda layer's facts, strict ``compat`` versions,
OS-consistent ``explain`` steps, no maintainer notes in user text, steps that do not install TF
into a Python that cannot run it, and logs in every encoding a Windows shell writes)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from wizard.core.diagnose import run_check
from wizard.core.host import ReplayHost
from wizard.core.knowledge.versions import series

PROFILES = sorted((Path(__file__).resolve().parents[1] / "profiles").glob("*.json"))


def _report(path: Path):
    return run_check(ReplayHost.from_file(str(path))).to_dict()


def _layer(report: dict, name: str) -> dict:
    return next(layer for layer in report["layers"] if layer["layer"] == name)


# -- the cuda layer's env.python is the environment's Python series -----------------------------

@pytest.mark.parametrize("path", PROFILES, ids=lambda p: p.stem)
def test_cuda_env_python_is_the_python_series(path: Path) -> None:
    profile = json.loads(path.read_text(encoding="utf-8"))
    env = _layer(_report(path), "cuda")["facts"].get("env")
    if not env:
        return
    versions = [((p.get("probe") or {}).get("python") or {}).get("version")
                for p in profile.get("pythons", [])]
    versions = [series(v) for v in versions if v]
    assert env["python"] is None or env["python"] in versions, env
    assert env["python"] is None or env["python"].count(".") == 1, env
