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
from wizard.core.host import LocalHost, RecordingHost, ReplayHost
from wizard.core.host.redact import redact_env

REPO_ROOT = Path(__file__).resolve().parents[2]

SECRETS = {
    "GPU_WIZARD_TEST_TOKEN": "tok-3f9a1c2e7b",
    "GPU_WIZARD_TEST_API_KEY": "key-8d2b6e4f10",
    "GPU_WIZARD_TEST_SECRET": "sec-5a7c9e1b3d",
    "GPU_WIZARD_TEST_PASSWORD": "pw-hunter2-6f8a",
    "gpu_wizard_test_db_password": "pw-lower-2c4e",
    # what a hostile tester found written verbatim: secrets under innocent names, and variables
    # that have nothing to do with the GPU
    "GITHUB_PAT": "ghp_4bT9xQ2mZ7rL1cV8nK3pW6yH0sD5fJ2aE9gU",
    "DATABASE_URL": "postgres://dbuser:db-pass-77c1@db.internal/x",
    "NPM_AUTH": "npm-auth-5e3d9a",
    "PS1": "prompt-of-6b2f",
    "OLDPWD": "/home/me/old-dir-4d8a",
}
# Kept variables whose values hold credentials: the variable stays, the credential goes.
MASKED = {
    "HTTPS_PROXY": ("http://proxyuser:proxy-pass-91ab@proxy:8080", "proxy-pass-91ab"),
    "PIP_INDEX_URL": ("https://piu:pip-pass-3c5e@pypi.example/simple", "pip-pass-3c5e"),
    "CONDA_CHANNEL_URL": ("https://conda.example/t/conda-tok-1234567890abcdef/main?token=qs-s3cr3t",
                          "qs-s3cr3t"),
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
    for name, (_value, secret) in MASKED.items():
        assert secret not in text, f"the credential in {name} leaked into the snapshot"


@pytest.fixture
def secret_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> dict[str, str]:
    for name, value in SECRETS.items():
        monkeypatch.setenv(name, value)
    for name, (value, _secret) in MASKED.items():
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
    out = tmp_path / "me.json"
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


def test_snapshot_output_folder_must_exist_and_dash_is_stdout(tmp_path: Path) -> None:
    missing = tmp_path / "no" / "such" / "x.json"
    result = subprocess.run(
        [sys.executable, "-m", "wizard", "snapshot", "-o", str(missing)],
        capture_output=True, text=True, timeout=600, check=False, cwd=str(tmp_path),
    )
    assert result.returncode == 2, result.stderr
    assert "does not exist" in result.stderr and str(tmp_path / "no" / "such") in result.stderr
    assert not (tmp_path / "no").exists(), "no folder is created"

    dash = subprocess.run(
        [sys.executable, "-m", "wizard", "snapshot", "-o", "-"],
        capture_output=True, text=True, timeout=600, check=False, cwd=str(tmp_path),
        env=dict(os.environ, PYTHONPATH=str(REPO_ROOT)),
    )
    assert dash.returncode == 0, dash.stderr
    assert json.loads(dash.stdout)["format"] == "gpu-wizard/profile@1"
    assert not (tmp_path / "-").exists(), "'-' means standard output, not a file"


def test_snapshot_keeps_only_the_variables_the_checks_read() -> None:
    env = {"PATH": "/usr/bin", "CUDA_VISIBLE_DEVICES": "0", "VIRTUAL_ENV": "/v", "LANG": "C",
           "LC_ALL": "C", "TF_FORCE_GPU_ALLOW_GROWTH": "true", "PYTHONPATH": "/p",
           "CONDA_PREFIX": "/c", "NVIDIA_VISIBLE_DEVICES": "all", "PS1": "$ ", "OLDPWD": "/x",
           "EDITOR": "vim", "SSH_AUTH_SOCK": "/tmp/a", "CUDA_TOKEN": "t"}
    assert sorted(redact_env(env)) == [
        "CONDA_PREFIX", "CUDA_VISIBLE_DEVICES", "LANG", "LC_ALL", "NVIDIA_VISIBLE_DEVICES",
        "PATH", "PYTHONPATH", "TF_FORCE_GPU_ALLOW_GROWTH", "VIRTUAL_ENV"]


@pytest.mark.parametrize(("text", "masked"), [
    ("https://user:pa55@proxy:8080", "https://***@proxy:8080"),
    ("postgres://u:pass@db/x", "postgres://***@db/x"),
    ("git+https://ghtoken@github.com/o/r", "git+https://***@github.com/o/r"),
    ("https://h/simple?token=abc&x=1", "https://h/simple?token=***&x=1"),
    ("export GH=ghp_4bT9xQ2mZ7rL1cV8nK3pW6yH0sD5fJ2aE9gU", "export GH=***"),
    ("Authorization: Bearer abcdefghijklmnopqrstuvwxyz", "Authorization: Bearer ***"),
    ("AKIAIOSFODNN7EXAMPLE", "***"),
])
def test_credentials_inside_values_are_masked(text: str, masked: str) -> None:
    from wizard.core.host.redact import mask_secrets

    assert mask_secrets(text) == masked


@pytest.mark.parametrize("plain", [
    "/usr/local/cuda-12.5/bin:/home/me/.local/bin",
    "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.2\\bin",
    "/nix/store/0c6q2nahd2ax3ph1f5gxgm4zcxbq0ysc-cuda-12.2/lib",
    "https://developer.download.nvidia.com/compute/cuda/repos/ubuntu2204/x86_64/",
    "user@host", "NVIDIA GeForce RTX 3070 Ti Laptop GPU",
])
def test_ordinary_values_are_not_masked(plain: str) -> None:
    from wizard.core.host.redact import mask_secrets

    assert mask_secrets(plain) == plain


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
