#!/usr/bin/env python3
"""Screenshots of the benchmark page: the recorded demo run (a power-capped RTX 3070 Ti Laptop)
replayed to the end, in English and Chinese, one process per language, offscreen:

    docs/screenshots/benchmark-demo-<lang>.png

Usage: python scripts/bench_screenshots.py [--langs en zh_CN] [--out DIR]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROFILE = ROOT / "tests" / "profiles" / "linux-dual-4090-healthy.json"
OUT_DIR = ROOT / "docs" / "screenshots"
WINDOW_SIZE = (1040, 900)


def render(lang: str, out_dir: Path) -> int:
    sys.path.insert(0, str(ROOT))
    from _per_language import screenshot_app

    from wizard import app as wizard_app
    from wizard import i18n
    from wizard.core.host import ReplayHost
    from wizard.pages.ids import PageId

    app = screenshot_app()
    wizard = wizard_app.build_wizard(ReplayHost.from_file(PROFILE), app, language=lang)
    if i18n.current_language() != lang:
        print(f"bench_screenshots: cannot load the {lang} catalogue", file=sys.stderr)
        return 2
    wizard.resize(*WINDOW_SIZE)
    wizard.show()
    wizard.intro.jump_to = PageId.BENCHMARK
    wizard.restart()
    wizard.next()
    wizard.intro.jump_to = None
    page = wizard.benchmark
    page.demo_delay = 0.0
    page.start()
    deadline = time.monotonic() + 60
    while page.run is None and time.monotonic() < deadline:
        app.processEvents()
        time.sleep(0.02)
    for _ in range(20):
        app.processEvents()
        time.sleep(0.02)
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / f"benchmark-demo-{lang}.png"
    status = 0 if page.run is not None and wizard.grab().save(str(target)) else 1
    wizard.shutdown()
    wizard.close()
    print(target if status == 0 else f"bench_screenshots: {lang} failed")
    return status


def main(argv: list[str] | None = None) -> int:
    from _per_language import main as per_language

    return per_language(__file__, __doc__.splitlines()[0], OUT_DIR, render, argv)


if __name__ == "__main__":
    sys.exit(main())
