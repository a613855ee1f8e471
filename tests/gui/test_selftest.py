"""``--self-test`` from source: both entry points (``gpu-wizard`` and ``gpu-wizard-gui``) walk the
built-in profiles offscreen and exit 0; a step that goes wrong exits 1 with one line naming it.
The built bundle runs the same self-test in tests/integration/test_frozen_bundle.py."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def _run(*code: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.run([sys.executable, *code], capture_output=True, text=True, timeout=300,
                          cwd=REPO, env=env)


@pytest.mark.parametrize("entry", [
    ["-m", "wizard", "--self-test"],
    ["-c", "import sys; from wizard.app import main; sys.exit(main(argv=['--self-test']))"],
], ids=["gpu-wizard", "gpu-wizard-gui"])
def test_self_test_passes_from_source(entry: list[str]) -> None:
    result = _run(*entry)
    assert result.returncode == 0, result.stderr[-4000:]
    assert result.stdout.strip().startswith("self-test passed"), result.stdout


def test_self_test_names_the_failed_step(tmp_path, monkeypatch, capsys) -> None:
    from wizard import selftest

    data = json.loads((REPO / "resources" / "selftest" / "broken.json").read_text("utf-8"))
    data["expect"]["blocking_layer"] = "driver"  # the machine says cudnn: a mismatch
    wrong = tmp_path / "broken.json"
    wrong.write_text(json.dumps(data), encoding="utf-8")
    real = selftest.profile_path
    monkeypatch.setattr(selftest, "profile_path",
                        lambda name: str(wrong) if name == "broken" else real(name))
    assert selftest.main("zh_CN") == 1
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0, err
    assert err.startswith("自检失败") and "check broken" in err and "cudnn" in err, err


def test_a_bundle_missing_the_profiles_fails_in_one_line(monkeypatch, tmp_path, capsys) -> None:
    from wizard import selftest

    monkeypatch.setattr(selftest, "profile_path", lambda name: str(tmp_path / f"{name}.json"))
    assert selftest.main("en") == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("self-test failed at") and "healthy.json" in err, err
    assert err.count("\n") == 0, err
