"""``gpu-wizard snapshot``: this machine, recorded, replays to the report of the live check, and
the recording holds no secrets."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from wizard.core import snapshot
from wizard.core.diagnose import run_check
from wizard.core.host import LocalHost, RecordingHost, ReplayHost, redact_env

REPO_ROOT = Path(__file__).resolve().parents[2]

SECRETS = {
    "GPU_WIZARD_TEST_TOKEN": "tok-3f9a1c2e7b",
    "GPU_WIZARD_TEST_API_KEY": "key-8d2b6e4f10",
    "GPU_WIZARD_TEST_SECRET": "sec-5a7c9e1b3d",
    "GPU_WIZARD_TEST_PASSWORD": "pw-hunter2-6f8a",
    "gpu_wizard_test_db_password": "pw-lower-2c4e",
}
VOLATILE = ("seconds", "elapsed", "duration")


def stable(value: Any) -> Any:
    """A report dict without timings, which differ between two runs of the same check."""
    if isinstance(value, dict):
        return {k: stable(v) for k, v in value.items() if not any(w in k for w in VOLATILE)}
    if isinstance(value, list):
        return [stable(v) for v in value]
    return value


def differences(a: Any, b: Any, path: str = "") -> list[str]:
    """Where two report dicts differ, as readable paths (for the assertion message)."""
    if type(a) is not type(b):
        return [f"{path}: {a!r:.200} != {b!r:.200}"]
    if isinstance(a, dict):
        return [d for k in sorted(set(a) | set(b), key=str)
                for d in differences(a.get(k), b.get(k), f"{path}.{k}")]
    if isinstance(a, list):
        if len(a) != len(b):
            return [f"{path}: {len(a)} items != {len(b)} items"]
        return [d for i, (x, y) in enumerate(zip(a, b)) for d in differences(x, y, f"{path}[{i}]")]
    return [] if a == b else [f"{path}: {a!r:.200} != {b!r:.200}"]


def assert_same_report(replayed: dict, live: dict) -> None:
    diff = differences(stable(live), stable(replayed))
    assert not diff, "replay differs from the live check:\n" + "\n".join(diff[:20])


def assert_no_secrets(text: str) -> None:
    for name, value in SECRETS.items():
        assert name not in text, f"{name} leaked into the snapshot"
        assert value not in text, f"the value of {name} leaked into the snapshot"


@pytest.fixture
def secret_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> dict[str, str]:
    for name, value in SECRETS.items():
        monkeypatch.setenv(name, value)
    monkeypatch.chdir(tmp_path)  # environment discovery looks at the working directory
    return dict(os.environ)


def test_snapshot_replays_to_the_live_report(secret_env: dict[str, str]) -> None:
    live = run_check(LocalHost()).to_dict()
    profile = snapshot.record_profile(name="this-machine")
    text = json.dumps(profile, ensure_ascii=False)
    assert_no_secrets(text)
    replayed = run_check(ReplayHost(json.loads(text), "this-machine.json")).to_dict()
    assert_same_report(replayed, live)


def test_recording_replays_exactly() -> None:
    """The recording run and the replay of what it recorded agree, timings included."""
    recorder = RecordingHost.wrap(LocalHost())
    recorded = run_check(recorder).to_dict()
    profile = json.loads(json.dumps(recorder.profile(name="exact")))
    replayed = run_check(ReplayHost(profile, "exact.json")).to_dict()
    assert not differences(recorded, replayed), differences(recorded, replayed)


def test_cli_snapshot_round_trip(secret_env: dict[str, str], tmp_path: Path) -> None:
    out = tmp_path / "nested" / "me.json"
    env = dict(secret_env, PYTHONPATH=str(REPO_ROOT))

    def cli(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "wizard", *args], capture_output=True, text=True,
            encoding="utf-8", timeout=600, check=False, cwd=str(tmp_path), env=env,
        )

    made = cli("snapshot", "-o", str(out))
    assert made.returncode == 0, made.stderr
    assert str(out) in made.stdout
    text = out.read_text(encoding="utf-8")
    assert_no_secrets(text)
    data = json.loads(text)
    assert data["format"] == "gpu-wizard/profile@1" and data["name"] == "me"
    assert "PATH" in data["env"], "ordinary variables stay"
    ReplayHost.from_file(out)  # a valid profile
    assert not list(out.parent.glob(".snapshot-*")), "no temporary file left behind"

    live = cli("check", "--json")
    replayed = cli("check", "--profile", str(out), "--json")
    assert live.returncode in (0, 1), live.stderr
    assert replayed.returncode == live.returncode, replayed.stderr
    assert_same_report(json.loads(replayed.stdout), json.loads(live.stdout))


def test_snapshot_to_an_unwritable_place_exits_2(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("", encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "wizard", "snapshot", "-o", str(blocker / "x.json")],
        capture_output=True, text=True, timeout=600, check=False, cwd=str(REPO_ROOT),
    )
    assert result.returncode == 2
    assert "Traceback" not in result.stderr and str(blocker / "x.json") in result.stderr


def test_redact_env() -> None:
    env = {"PATH": "/usr/bin", "CUDA_PATH": "/usr/local/cuda", "HF_TOKEN": "x",
           "AWS_SECRET_ACCESS_KEY": "y", "PGPASSWORD": "z", "ssh_key_file": "w",
           "GITHUB_TOKEN": "t"}
    assert redact_env(env) == {"CUDA_PATH": "/usr/local/cuda", "PATH": "/usr/bin"}


def test_recording_keeps_timeouts_files_and_listings(tmp_path: Path) -> None:
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "libcudart.so.12").write_bytes(b"\x7fELF" + bytes(16))
    (tmp_path / "version.json").write_text('{"cuda": {"version": "12.5.1"}}', encoding="utf-8")
    recorder = RecordingHost.wrap(LocalHost())
    assert recorder.run(["sleep", "5"], timeout=0.3).timed_out
    assert recorder.read_text(str(tmp_path / "version.json")).startswith('{"cuda"')
    assert recorder.read_text(str(tmp_path / "lib" / "libcudart.so.12")) is None  # binary
    assert recorder.listdir(str(tmp_path)) == ["lib", "version.json"]
    assert recorder.is_dir(str(tmp_path / "lib"))

    replay = ReplayHost(json.loads(json.dumps(recorder.profile())), "rec.json")
    assert replay.run(["sleep", "5"]).timed_out
    assert replay.read_text(str(tmp_path / "version.json")) == '{"cuda": {"version": "12.5.1"}}'
    assert replay.exists(str(tmp_path / "lib" / "libcudart.so.12"))
    assert replay.read_text(str(tmp_path / "lib" / "libcudart.so.12")) is None
    assert replay.listdir(str(tmp_path)) == ["lib", "version.json"]
    assert replay.is_dir(str(tmp_path / "lib"))
