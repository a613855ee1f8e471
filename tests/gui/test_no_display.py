"""Without a display the GUI says so and points to the headless check."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from wizard.app import NO_DISPLAY_MESSAGE, has_display


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
    assert has_display(env, platform) is expected


def _headless_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
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
