"""Reports that agree with themselves, on every machine profile the repository ships
(tests/profiles, the GUI's demo profiles, the self-test's profiles):

* ready <=> exit status 0 <=> no blocking layer;
* not ready => the blocking layer holds a ``fail`` finding that says why;
* proof from above beats inference from below: where TensorFlow ran its computations on the GPU,
  no layer below fails;
* every command a report offers for an environment addresses that environment's interpreter,
  never a bare ``pip``.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest

from wizard import cli
from wizard.core.host import ReplayHost

REPO_ROOT = Path(__file__).resolve().parents[2]
PROFILE_DIRS = (
    REPO_ROOT / "tests" / "profiles",
    REPO_ROOT / "tests" / "gui" / "profiles",
    REPO_ROOT / "resources" / "selftest",
)
PROFILES = sorted(p for d in PROFILE_DIRS for p in d.glob("*.json"))
CHAIN = ("gpu", "driver", "cuda", "cudnn", "tensorflow")
BARE_PIP = re.compile(r"(?<![\w./\\-])(?<!-m )pip3?(?:\.exe)?\s+(?:install|uninstall)\b")
"""``pip install`` as a command of its own, not ``python -m pip install``."""


def profile_id(path: Path) -> str:
    return f"{path.parent.name}/{path.stem}"


def test_the_library_is_all_there() -> None:
    assert len(PROFILES) >= 35
    assert {p.parent.name for p in PROFILES} == {"profiles", "selftest"}


def check_json(path: Path) -> tuple[int, dict[str, Any]]:
    """``gpu-wizard check --profile PATH --json``: its exit status and its report."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = cli.main(["check", "--profile", str(path), "--json"])
    return status, json.loads(out.getvalue())


@pytest.mark.parametrize("path", PROFILES, ids=profile_id)
def test_verdict_exit_status_and_blocking_layer_agree(path: Path) -> None:
    status, report = check_json(path)
    ready, blocking = report["ready"], report["blocking_layer"]
    layers = {layer["layer"]: layer for layer in report["layers"]}
    context = "\n".join(
        f"  {name:<10} {layer['status']:<7} "
        f"[{', '.join(f['code'] + ':' + f['severity'] for f in layer['findings'])}]"
        for name, layer in layers.items()
    )
    assert status == (0 if ready else 1), context
    assert ready is (blocking is None), f"ready={ready}, blocking={blocking}\n{context}"
    if ready:
        failing = [name for name in CHAIN if layers[name]["status"] == "fail"]
        assert not failing, f"ready, yet {failing} fail\n{context}"
        return
    assert blocking in CHAIN, context
    fails = [f for f in layers[blocking]["findings"] if f["severity"] == "fail"]
    assert fails, f"{blocking} blocks without a fail finding\n{context}"
    assert all(f["message"].strip() for f in fails), context


def _probe_tf(path: Path) -> dict[str, Any]:
    host = ReplayHost.from_file(path)
    status, report = check_json(path)
    python = report.get("python")
    for entry in host.recorded_pythons():
        if entry["executable"] == python:
            return entry["probe"].get("tensorflow") or {}
    return {}


def _on_gpu(run: Any) -> bool:
    return isinstance(run, dict) and bool(run.get("ok")) and "GPU" in str(run.get("device"))


@pytest.mark.parametrize("path", PROFILES, ids=profile_id)
def test_a_computation_on_the_gpu_beats_a_file_listing(path: Path) -> None:
    """A matmul on the GPU proves the driver and the CUDA runtime load, a convolution cuDNN:
    the layers below can at most warn."""
    tf = _probe_tf(path)
    _, report = check_json(path)
    layers = {layer["layer"]: layer for layer in report["layers"]}
    proven = []
    if _on_gpu(tf.get("matmul")):
        proven += ["gpu", "driver", "cuda"]
    if _on_gpu(tf.get("matmul")) and _on_gpu(tf.get("conv")):
        proven.append("cudnn")
    for name in proven:
        assert layers[name]["status"] != "fail", f"{name} fails though TF proved it works"


def _commands(report: dict[str, Any]) -> list[str]:
    found = []
    for layer in report["layers"]:
        for finding in layer["findings"]:
            fix = finding["fix"]
            found += fix["commands"] + fix["steps"] + [finding["message"], fix["summary"]]
    return found


@pytest.mark.parametrize("path", PROFILES, ids=profile_id)
def test_no_bare_pip_in_a_report(path: Path) -> None:
    _, report = check_json(path)
    bare = [text for text in _commands(report) if BARE_PIP.search(text)]
    assert not bare, bare


def test_the_bare_pip_pattern() -> None:
    assert BARE_PIP.search('pip install "tensorflow[and-cuda]"')
    assert BARE_PIP.search("Run: pip install tensorflow")
    assert BARE_PIP.search("x && pip uninstall -y tensorflow-cpu")
    assert not BARE_PIP.search('"/home/me/venv/bin/python" -m pip install tensorflow')
    assert not BARE_PIP.search('conda run -p "/opt/env" python -m pip install tensorflow')


@pytest.mark.timeout(180)
def test_mutated_profiles_agree_with_themselves_too() -> None:
    """Odd but valid machines (the fuzz test's mutations): every report that comes out keeps the
    invariants, also where a layer raised."""
    import fuzz_profiles

    checked = 0
    bad = []
    for label, _host, report in fuzz_profiles.checked_mutations(seed=13, count=400):
        checked += 1
        blocking = report.blocking_layer
        fails = blocking and [f for f in report.layer(blocking).findings if f.severity == "fail"]
        if report.ready is not (blocking is None) or (blocking and not fails):
            bad.append(f"{label}: ready={report.ready} blocking={blocking}")
    assert not bad, "\n".join(bad[:10])
    assert checked > 100


def test_a_log_lines_pip_fix_runs_the_environments_own_pip(tmp_path: Path) -> None:
    """A signature's fix, written for a log read without its environment, says ``pip install``;
    in a report it addresses the checked environment's interpreter."""
    profile = json.loads((REPO_ROOT / "tests" / "profiles" / "linux-tf221-and-cuda-healthy.json")
                         .read_text(encoding="utf-8"))
    probe = profile["pythons"][0]["probe"]
    probe["tensorflow"]["gpus"] = []
    probe["log"] = ("W0000 00:00:1732874535.117093 48213 cudart_stub.cc:29] Could not find cuda "
                    "drivers on your machine, GPU will not be used.\n")
    path = tmp_path / "profile.json"
    path.write_text(json.dumps(profile), encoding="utf-8")
    _, report = check_json(path)
    commands = [c for layer in report["layers"] for f in layer["findings"]
                for c in f["fix"]["commands"] if "pip" in c]
    assert commands and not [c for c in commands if BARE_PIP.search(c)], commands
    assert all(c.startswith('"/home/me/venvs/tf/bin/python" -m pip ') for c in commands)
