"""Without a display the GUI says so and points to the headless check."""

from __future__ import annotations

import os
import socket
import subprocess
import sys

import pytest

from wizard.app import NO_DISPLAY_MESSAGE, display_answers, has_display


@pytest.mark.parametrize(
    ("env", "platform", "expected"),
    [
        ({}, "linux", False),
        ({"DISPLAY": ":0"}, "linux", True),
        ({"WAYLAND_DISPLAY": "wayland-0"}, "linux", True),
        ({"QT_QPA_PLATFORM": "offscreen"}, "linux", True),
        ({"QT_QPA_PLATFORM": "vnc:size=800x600"}, "linux", True),
        ({"QT_QPA_PLATFORM": "xcb"}, "linux", False),
        ({}, "win32", True),
        ({}, "darwin", True),
    ],
)
def test_has_display(env, platform, expected):
    """Which variables count (every named server answers here; see below for one that does
    not)."""

    def answers(kind, environ):
        return bool(environ.get("DISPLAY" if kind == "x11" else "WAYLAND_DISPLAY"))

    assert has_display(env, platform, answers) is expected


def _headless_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "WAYLAND_SOCKET", "QT_QPA_PLATFORM")}
    env.update(extra)
    return env


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="display detection is Linux's")
def test_gui_script_without_display_exits_2_with_a_hint():
    """gpu-wizard-gui (wizard.app.main) cannot do anything without a display: it says so."""
    argv = ["-c", "import sys; from wizard.app import main; sys.exit(main())"]
    done = subprocess.run(
        [sys.executable, *argv], env=_headless_env(), capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert NO_DISPLAY_MESSAGE in done.stderr
    assert "gpu-wizard check" in done.stderr


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="display detection is Linux's")
def test_gpu_wizard_without_display_gives_the_headless_report(profiles_dir):
    """`gpu-wizard` over SSH: the note, then the same report as `gpu-wizard check`."""
    profile = str(profiles_dir / "win-tf210-cudnn-never-copied.json")
    done = subprocess.run(
        [sys.executable, "-m", "wizard", "--profile", profile],
        env=_headless_env(), capture_output=True, text=True, timeout=60,
    )
    check = subprocess.run(
        [sys.executable, "-m", "wizard", "check", "--profile", profile],
        env=_headless_env(), capture_output=True, text=True, timeout=60,
    )
    assert "No display found" in done.stderr and "gpu-wizard check" in done.stderr
    assert done.returncode == check.returncode == 1
    assert done.stdout == check.stdout


def test_bad_profile_is_reported(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    done = subprocess.run(
        [sys.executable, "-m", "wizard", "--profile", str(bad)],
        env=env, capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 2
    assert "bad.json" in done.stderr and "not valid JSON" in done.stderr


# -- a DISPLAY / WAYLAND_DISPLAY with no server behind it -------------------------------------

linux_only = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="display detection is Linux's"
)


def _stale_x_display() -> str:
    """A display number no X server serves on this machine (":99" unless that one is live)."""
    for number in range(99, 140):
        if not display_answers("x11", {"DISPLAY": f":{number}"}):
            return f":{number}"
    pytest.skip("every display number from :99 up is served")


@linux_only
def test_stale_x11_display_is_no_display():
    display = _stale_x_display()
    assert has_display({"DISPLAY": display}, "linux") is False
    assert has_display({"DISPLAY": display, "QT_QPA_PLATFORM": "xcb"}, "linux") is False
    assert has_display({"DISPLAY": "localhost" + display + ".0"}, "linux") is False
    assert has_display({"DISPLAY": "garbage"}, "linux") is False


@linux_only
def test_stale_wayland_display_is_no_display(tmp_path):
    env = {"WAYLAND_DISPLAY": "wayland-stale", "XDG_RUNTIME_DIR": str(tmp_path)}
    assert has_display(env, "linux") is False
    # a socket file left behind by a compositor that is gone
    left = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    left.bind(str(tmp_path / "wayland-stale"))
    left.close()
    assert (tmp_path / "wayland-stale").exists()
    assert has_display(env, "linux") is False
    assert has_display({"WAYLAND_DISPLAY": "wayland-0"}, "linux") is False  # no runtime dir


@linux_only
def test_live_wayland_socket_is_a_display(tmp_path):
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as server:
        server.bind(str(tmp_path / "wayland-9"))
        server.listen(1)
        env = {"WAYLAND_DISPLAY": "wayland-9", "XDG_RUNTIME_DIR": str(tmp_path)}
        assert has_display(env, "linux") is True
        assert has_display(dict(env, DISPLAY=_stale_x_display()), "linux") is True
        assert has_display(dict(env, QT_QPA_PLATFORM="xcb"), "linux") is False


@linux_only
def test_live_x11_sockets_are_a_display():
    display = _stale_x_display()
    number = display[1:]
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as server:
        server.bind(f"\0/tmp/.X11-unix/X{number}")  # the abstract socket Xorg also listens on
        server.listen(1)
        assert has_display({"DISPLAY": display}, "linux") is True
        assert has_display({"DISPLAY": f"unix{display}.0"}, "linux") is True
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as server:
        for tcp_number in range(150, 400):
            try:
                server.bind(("127.0.0.1", 6000 + tcp_number))
                break
            except OSError:
                continue
        else:
            pytest.skip("no free port from 6150 up")
        server.listen(1)
        assert has_display({"DISPLAY": f"127.0.0.1:{tcp_number}.0"}, "linux") is True


@linux_only
def test_gpu_wizard_with_a_stale_display_gives_the_headless_report(profiles_dir):
    """A DISPLAY left over from another session: `gpu-wizard` says there is no display and
    prints the headless check instead of letting Qt abort (exit 134, an xcb message)."""
    profile = str(profiles_dir / "win-tf210-cudnn-never-copied.json")
    env = _headless_env(DISPLAY=_stale_x_display())
    done = subprocess.run(
        [sys.executable, "-m", "wizard", "--profile", profile],
        env=env, capture_output=True, text=True, timeout=60,
    )
    check = subprocess.run(
        [sys.executable, "-m", "wizard", "check", "--profile", profile],
        env=env, capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == check.returncode == 1, done.stderr
    assert "No display found" in done.stderr and "gpu-wizard check" in done.stderr
    assert "xcb" not in done.stderr
    assert done.stdout == check.stdout


@linux_only
def test_gui_script_with_a_stale_display_exits_2_with_a_hint():
    argv = ["-c", "import sys; from wizard.app import main; sys.exit(main())"]
    done = subprocess.run(
        [sys.executable, *argv], env=_headless_env(DISPLAY=_stale_x_display()),
        capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 2, done.stderr
    assert NO_DISPLAY_MESSAGE in done.stderr
