"""The title bar names the product once, in the wizard's language.

Qt appends the application's display name to every window title that does not already end
with it (QPlatformWindow::formatWindowTitle, on X11, Wayland and Windows), so an English display
name next to the translated title would read "GPU 配置向导 — GPU Setup Wizard"."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PROFILE = ROOT / "tests" / "gui" / "profiles" / "gui-win-ready.json"
PRODUCT = ("GPU Setup Wizard", "GPU 配置向导")

SCRIPT = r"""
import json, sys
from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QGuiApplication
from wizard import app
from wizard.core.host import LocalHost, ReplayHost

qapp = app.create_application(["gpu-wizard"])
host = ReplayHost.from_file(sys.argv[2]) if sys.argv[2] else LocalHost()
wizard = app.build_wizard(host, qapp, language=sys.argv[1])
name = QCoreApplication.applicationName()
QCoreApplication.setApplicationName("probe-name")
# without an explicit display name, Qt falls back to the application name
display = QGuiApplication.applicationDisplayName()
explicit = display != "probe-name"
QCoreApplication.setApplicationName(name)
print(json.dumps({"title": wizard.windowTitle(), "display": display if explicit else None}))
wizard.shutdown()
"""


def shown_title(title: str, display: str | None) -> str:
    """What the title bar shows: Qt's formatWindowTitle with the " — " separator."""
    if display and not title.endswith(display):
        return f"{title} — {display}"
    return title


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
@pytest.mark.parametrize("profile", ["demo", "live"])
def test_the_title_bar_names_the_product_once(tmp_path, lang, profile):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", HOME=str(tmp_path),
               XDG_CONFIG_HOME=str(tmp_path), XDG_STATE_HOME=str(tmp_path))
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, lang, str(PROFILE) if profile == "demo" else ""],
        env=env, capture_output=True, text=True, timeout=120, cwd=str(ROOT),
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout.strip().splitlines()[-1])
    shown = shown_title(data["title"], data["display"])
    assert sum(shown.count(name) for name in PRODUCT) == 1, shown
    if lang == "zh_CN":
        assert "GPU Setup Wizard" not in shown, shown
