"""Time from process start to the first painted wizard page, and the idle wizard's memory.

    python benchmarks/gui_startup.py [--profile FILE] [--idle SECONDS]

Run it in a fresh process (it measures imports too). Goal: first paint under a second from
source. Prints one line per measurement and a JSON line at the end.
"""

from __future__ import annotations

import time

T0 = time.perf_counter()

import argparse  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DEFAULT_PROFILE = ROOT / "tests" / "gui" / "profiles" / "gui-win-ready.json"


def rss_mib() -> float:
    try:
        import psutil

        return psutil.Process().memory_info().rss / 2**20
    except ImportError:  # Linux fallback
        with open("/proc/self/status", encoding="ascii") as handle:
            for line in handle:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    return float("nan")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--profile", default=str(DEFAULT_PROFILE),
                        help="machine profile to replay ('' for this machine)")
    parser.add_argument("--idle", type=float, default=2.0, help="seconds idle before memory")
    args = parser.parse_args()
    if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

    from PySide6.QtCore import QEvent, QObject, QTimer

    from wizard import app as wizard_app
    from wizard.core.host import LocalHost, ReplayHost

    qapp = wizard_app.create_application([sys.argv[0]])
    host = ReplayHost.from_file(args.profile) if args.profile else LocalHost()
    wiz = wizard_app.build_wizard(host, qapp)
    marks: dict[str, float] = {"wizard_built_s": time.perf_counter() - T0}

    class FirstPaint(QObject):
        def eventFilter(self, obj, event):  # noqa: N802 - Qt override
            if event.type() == QEvent.Type.Paint and "first_paint_s" not in marks:
                marks["first_paint_s"] = time.perf_counter() - T0
                QTimer.singleShot(int(args.idle * 1000), qapp.quit)
            return False

    watcher = FirstPaint()
    wiz.intro.installEventFilter(watcher)
    wiz.show()
    QTimer.singleShot(30000, qapp.quit)  # never hang
    qapp.exec()
    marks["idle_rss_mib"] = rss_mib()
    wiz.shutdown()
    print(f"time to the first painted page: {marks.get('first_paint_s', float('nan')):.3f} s")
    print(f"wizard built after:             {marks['wizard_built_s']:.3f} s")
    print(f"memory of the idle wizard:      {marks['idle_rss_mib']:.1f} MiB (RSS)")
    print(json.dumps({k: round(v, 4) for k, v in marks.items()}))
    return 0 if "first_paint_s" in marks else 1


if __name__ == "__main__":
    sys.exit(main())
