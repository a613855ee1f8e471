"""A second start brings the running wizard to the front instead of opening a second window:
two real wizard processes offscreen on one (test-only) socket name."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from wizard import single_instance

REPO = Path(__file__).resolve().parents[2]
PROFILE = REPO / "resources" / "selftest" / "healthy.json"
START = ("import sys; from wizard.app import main; "
         f"sys.exit(main(argv=['--profile', {str(PROFILE)!r}]))")


@pytest.fixture
def env(tmp_path):
    name = f"gpu-wizard-test-{uuid.uuid4().hex[:10]}"
    environ = {k: v for k, v in os.environ.items() if k != "GPU_WIZARD_QUIT_AFTER_MS"}
    return {**environ, "QT_QPA_PLATFORM": "offscreen", "GPU_WIZARD_INSTANCE_NAME": name,
            "HOME": str(tmp_path), "XDG_STATE_HOME": str(tmp_path / "state"),
            "XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_CACHE_HOME": str(tmp_path / "cache"),
            "XDG_DATA_HOME": str(tmp_path / "data")}


def _listening(name: str) -> bool:
    from PySide6.QtNetwork import QLocalSocket

    socket = QLocalSocket()
    socket.connectToServer(name)
    connected = socket.waitForConnected(200)
    socket.abort()
    return connected


def test_a_second_start_brings_the_first_to_the_front(qapp, env) -> None:
    first = subprocess.Popen([sys.executable, "-c", START], cwd=REPO, env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while not _listening(env["GPU_WIZARD_INSTANCE_NAME"]):
            assert first.poll() is None, first.communicate()[1][-3000:]
            assert time.monotonic() < deadline, "the first wizard never listened"
            time.sleep(0.1)
        second = subprocess.run([sys.executable, "-c", START], cwd=REPO, env=env,
                                capture_output=True, text=True, timeout=60)
        assert second.returncode == 0, second.stderr[-3000:]
        assert f"already open (process {first.pid})" in second.stderr, second.stderr
        assert first.poll() is None, "the first wizard must keep running"
        # a smoke-test run (closes itself) never hands over: it opens beside the first
        smoke = subprocess.run([sys.executable, "-c", START], cwd=REPO, capture_output=True,
                               env={**env, "GPU_WIZARD_QUIT_AFTER_MS": "500"}, text=True,
                               timeout=60)
        assert smoke.returncode == 0, smoke.stderr[-3000:]
        assert "already open" not in smoke.stderr
    finally:
        first.terminate()
        first.communicate(timeout=30)


def test_nobody_listening_means_no_running_wizard(qapp) -> None:
    assert single_instance.ask_running(f"gpu-wizard-test-{uuid.uuid4().hex[:10]}") is None


@pytest.mark.skipif(sys.platform == "win32", reason="socket files exist on Linux and macOS")
def test_a_socket_file_left_by_a_crash_is_taken_over(qapp) -> None:
    import tempfile

    name = f"gpu-wizard-test-{uuid.uuid4().hex[:10]}"
    stale = Path(tempfile.gettempdir()) / name
    stale.write_text("", encoding="utf-8")  # what a killed wizard leaves behind
    try:
        server = single_instance.InstanceServer(name)
        assert server.listening
        assert _listening(name)
        server.close()
    finally:
        stale.unlink(missing_ok=True)


def test_the_socket_name_is_per_user(monkeypatch) -> None:
    monkeypatch.delenv("GPU_WIZARD_INSTANCE_NAME", raising=False)
    monkeypatch.setattr(single_instance.getpass, "getuser", lambda: "alice")
    alice = single_instance.server_name()
    monkeypatch.setattr(single_instance.getpass, "getuser", lambda: "bob")
    assert alice != single_instance.server_name()
    assert alice.startswith("gpu-setup-wizard-")
