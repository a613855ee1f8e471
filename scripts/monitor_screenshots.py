#!/usr/bin/env python3
"""Screenshots of the GPU monitor page in English and Chinese (offscreen Qt):

    docs/screenshots/monitor-live-<lang>.png   live, over the stand-in libnvidia-ml.so.1
    docs/screenshots/monitor-demo-<lang>.png   the laptop profile's recorded ticks, with advice

The live one needs Linux and a C compiler (tests/standin); the script re-runs itself with
LD_LIBRARY_PATH pointing at the stand-in. Usage: ``python scripts/monitor_screenshots.py``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
OUT = ROOT / "docs" / "screenshots"
SIZE = (1000, 1100)

LIVE_CONFIG = """\
count 2
g0.name NVIDIA GeForce RTX 4090
g0.util 93
g0.memutil 41
g0.mem_total 25757220864
g0.mem_used 17179869184
g0.temp 68
g0.power_mw 402000
g0.limit_mw 450000
g0.sm_clock 2610
g0.mem_clock 10501
g0.fan 55
g0.pid {pid}
g0.pid_mem 16106127360
g1.name NVIDIA GeForce RTX 4090
g1.util 0
g1.temp 36
g1.power_mw 22000
g1.sm_clock 210
g1.reasons 1
"""


def render(kind: str, lang: str, config: Path | None) -> None:
    import time

    from PySide6.QtWidgets import QApplication

    from wizard import i18n
    from wizard.core.host import ReplayHost
    from wizard.core.session import CheckSession
    from wizard.pages.wizard import SetupWizard

    app = QApplication.instance() or QApplication([])
    i18n.install_language(app, lang)
    source = None
    if kind == "live":
        from tests import standin
        from wizard.core.host.nvml_session import NvmlSession
        from wizard.core.monitor import LiveSource

        def source() -> LiveSource:
            made = LiveSource(NvmlSession(retry_s=0))
            made.interval_s = 0.1
            return made

        from wizard.core.host import LocalHost

        host = LocalHost()  # live: no demo banner; the checks do not run on this page
    else:
        host = ReplayHost.from_file(ROOT / "tests" / "profiles" / "win-tf210-healthy.json")
    wizard = SetupWizard(CheckSession(host), start_page="monitor", monitor_source=source)
    if kind != "live":
        factory = wizard.monitor._source_factory

        def fast():  # noqa: ANN202
            made = factory()
            made.interval_s = 0.02
            return made

        wizard.monitor._source_factory = fast
    wizard.resize(*SIZE)
    page = wizard.monitor
    # samples come faster than 1 Hz here; stamp them one second apart, as at 1 Hz
    start = time.time() - 100
    filed = [0]
    original = page._on_sample

    def at_one_hertz(sample: dict) -> None:
        sample = dict(sample, time=start + filed[0])
        filed[0] += 1
        original(sample)

    page._on_sample = at_one_hertz  # type: ignore[method-assign]
    wizard.show()
    step = 0
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        app.processEvents()
        time.sleep(0.01)
        count = page.monitor.history.count if page.monitor and page.monitor.history else 0
        if kind == "live" and config is not None and count and count % 10 == 0 \
                and count // 10 != step:
            step = count // 10
            from tests import standin

            util = 93 - (step % 4) * 20
            standin.write_config(config, LIVE_CONFIG.format(pid=os.getpid()).replace(
                "g0.util 93", f"g0.util {util}"))
        if count >= (100 if kind == "demo" else 80):
            break
    page.window_box.setCurrentIndex(0)
    page.paint()
    app.processEvents()
    path = OUT / f"monitor-{kind}-{lang}.png"
    wizard.grab().save(str(path))
    print(path.relative_to(ROOT))
    wizard.close()
    wizard.shutdown()


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    if len(sys.argv) == 3:  # the child: one kind, one language
        config = os.environ.get("NVML_STANDIN_CONFIG")
        render(sys.argv[1], sys.argv[2], Path(config) if config else None)
        return 0
    from tests import standin

    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    status = 0
    with tempfile.TemporaryDirectory(prefix="monitor-shots-") as tmp:
        live_env = None
        if standin.compiler() is not None:
            libdir = standin.build(Path(tmp) / "lib")
            config = Path(tmp) / "nvml.cfg"
            config.write_text(LIVE_CONFIG.format(pid=os.getpid()), encoding="utf-8")
            live_env = dict(standin.environment(libdir, config), QT_QPA_PLATFORM="offscreen")
        for lang in ("en", "zh_CN"):
            if live_env is not None:
                status |= subprocess.call([sys.executable, __file__, "live", lang], env=live_env)
            status |= subprocess.call([sys.executable, __file__, "demo", lang], env=env)
    return status


if __name__ == "__main__":
    sys.exit(main())
