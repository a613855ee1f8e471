#!/usr/bin/env python3
"""Render every wizard page for a few machine profiles, in English and Chinese, as PNG files.

Each (profile, language, scale) is rendered in its own process (a clean QApplication, and
``QT_SCALE_FACTOR`` must be set before Qt starts), offscreen, replaying the machine profile from
``tests/profiles/``. The wizard walks the pages with Next, as a user would; on every page the
script waits until the page's check has finished, then saves the window:

    docs/screenshots/<profile>-<lang>-<nn>-<page>.png          (100 %)
    docs/screenshots/<profile>-<lang>-200pct-<nn>-<page>.png   (200 %, QT_SCALE_FACTOR=2)

Usage::

    python scripts/screenshots.py                      # the default set (see DEFAULT_*)
    python scripts/screenshots.py --profiles win-laptop-cudnn-not-copied --langs zh_CN
    python scripts/screenshots.py --list               # the profiles there are

Chinese needs a CJK font (Debian: fonts-noto-cjk; scripts/ci_system_deps.sh installs it); the
script warns when fontconfig knows none.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROFILES_DIR = ROOT / "tests" / "profiles"
OUT_DIR = ROOT / "docs" / "screenshots"
LANGS = ("en", "zh_CN")
# role -> profile: a broken Windows laptop (cuDNN never copied into CUDA 11.2), a healthy WSL2,
# a Windows laptop with only an Intel GPU.
DEFAULT_PROFILES = {
    "broken-windows": "win-tf210-cudnn-never-copied",
    "healthy-wsl2": "wsl2-healthy",
    "no-gpu": "win-intel-igpu-only",
}
# The profile and language rendered again at 200 %.
DEFAULT_HIDPI = ("win-tf210-cudnn-never-copied", "zh_CN")
WINDOW_SIZE = (980, 760)
PAGE_TIMEOUT_S = 60.0


# ---------------------------------------------------------------------------------------------
# Choosing what to render (parent process)


def available_profiles() -> dict[str, Path]:
    """Profile name -> file, for every profile JSON in tests/profiles/ (recursively)."""
    found: dict[str, Path] = {}
    for path in sorted(PROFILES_DIR.rglob("*.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(data, dict) and str(data.get("format", "")).startswith("gpu-wizard/profile"):
            found[str(data.get("name") or path.stem)] = path
    return found


def pick_default_profiles(available: dict[str, Path]) -> list[str]:
    """The profile of each role in DEFAULT_PROFILES; a missing one is reported and skipped."""
    chosen = []
    for role, name in DEFAULT_PROFILES.items():
        if name in available:
            chosen.append(name)
        else:
            print(f"screenshots: no profile {name!r} ({role}) in {PROFILES_DIR}", file=sys.stderr)
    return chosen


def run_one(profile: str, path: Path, lang: str, scale: int, out_dir: Path) -> int:
    """Render one profile in one language and scale in a fresh process."""
    env = dict(os.environ)
    env["QT_QPA_PLATFORM"] = "offscreen"
    env["QT_SCALE_FACTOR"] = str(scale)
    env.pop("QT_AUTO_SCREEN_SCALE_FACTOR", None)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    argv = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--worker",
        "--profile-file",
        str(path),
        "--profile",
        profile,
        "--lang",
        lang,
        "--scale",
        str(scale),
        "--out",
        str(out_dir),
    ]
    started = time.monotonic()
    proc = subprocess.run(argv, env=env, cwd=str(ROOT), check=False)
    took = time.monotonic() - started
    print(f"  {profile} {lang} x{scale}: exit {proc.returncode} in {took:.1f}s")
    return proc.returncode


def warn_without_cjk_font() -> None:
    try:
        out = subprocess.run(
            ["fc-list", ":lang=zh", "family"], capture_output=True, text=True, check=False
        ).stdout
    except OSError:
        return
    if not out.strip():
        print(
            "screenshots: no Chinese font known to fontconfig; run scripts/ci_system_deps.sh "
            "(fonts-noto-cjk) or the zh_CN pages show empty boxes",
            file=sys.stderr,
        )


# ---------------------------------------------------------------------------------------------
# Rendering (worker process)


def build_wizard(profile_file: Path, app, lang: str):  # noqa: ANN001
    """The application's wizard over a replayed machine, as ``gpu-wizard-gui --profile`` builds
    it, in ``lang``."""
    from wizard import app as wizard_app
    from wizard.core.host import ReplayHost

    return wizard_app.build_wizard(ReplayHost.from_file(profile_file), app, language=lang)


def page_name(wizard, page_id: int) -> str:
    try:
        from wizard.pages.ids import PageId

        return PageId(page_id).name.lower().replace("_", "-")
    except (ImportError, ValueError):
        page = wizard.page(page_id)
        return (page.objectName() or f"page{page_id}").lower()


def page_busy(page) -> bool:
    for name in ("is_running", "is_busy", "busy"):
        attr = getattr(page, name, None)
        if attr is None:
            continue
        value = attr() if callable(attr) else attr
        if value:
            return True
    return False


def wait_until_settled(app, wizard, timeout: float = PAGE_TIMEOUT_S) -> bool:
    """Process events until the current page's work is done and nothing runs in the pool."""
    from PySide6.QtCore import QThreadPool

    pool = QThreadPool.globalInstance()
    deadline = time.monotonic() + timeout
    quiet_since = None
    while time.monotonic() < deadline:
        app.processEvents()
        busy = page_busy(wizard.currentPage()) or pool.activeThreadCount() > 0
        if busy:
            quiet_since = None
        elif quiet_since is None:
            quiet_since = time.monotonic()
        elif time.monotonic() - quiet_since > 0.4:
            app.processEvents()
            return True
        time.sleep(0.02)
    return False


def render(profile: str, profile_file: Path, lang: str, scale: int, out_dir: Path) -> int:
    from _per_language import screenshot_app

    from wizard import i18n

    app = screenshot_app()
    wizard = build_wizard(profile_file, app, lang)
    if i18n.current_language() != lang:
        print(f"screenshots: cannot load the {lang} catalogue", file=sys.stderr)
        return 2
    wizard.resize(*WINDOW_SIZE)
    wizard.show()
    out_dir.mkdir(parents=True, exist_ok=True)
    tag = f"{profile}-{lang}" + ("" if scale == 1 else f"-{scale * 100}pct")
    for old in out_dir.glob(f"{tag}-[0-9][0-9]-*.png"):
        old.unlink()

    seen: set[int] = set()
    number = 1
    status = 0
    while True:
        page_id = wizard.currentId()
        if page_id in seen or page_id < 0:
            break
        seen.add(page_id)
        if not wait_until_settled(app, wizard):
            print(f"screenshots: {tag} page {page_id} still busy after {PAGE_TIMEOUT_S}s")
            status = 1
        target = out_dir / f"{tag}-{number:02d}-{page_name(wizard, page_id)}.png"
        if not wizard.grab().save(str(target)):
            print(f"screenshots: could not write {target}", file=sys.stderr)
            status = 1
        number += 1
        wizard.next()
        app.processEvents()
        if wizard.currentId() == page_id:  # the last page
            break
    stop = getattr(wizard, "shutdown", None)
    if callable(stop):
        stop()
    wizard.close()
    wait_until_settled(app, wizard, timeout=10)
    return status


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--profiles", help="comma-separated profile names (default: three roles)")
    parser.add_argument("--langs", default=",".join(LANGS), help="comma-separated: en,zh_CN")
    parser.add_argument("--out", default=str(OUT_DIR), help="output folder")
    parser.add_argument("--no-hidpi", action="store_true", help="skip the 200 %% rendering")
    parser.add_argument("--list", action="store_true", help="list the profiles and exit")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--profile", help=argparse.SUPPRESS)
    parser.add_argument("--profile-file", help=argparse.SUPPRESS)
    parser.add_argument("--lang", help=argparse.SUPPRESS)
    parser.add_argument("--scale", type=int, default=1, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.worker:
        return render(
            args.profile, Path(args.profile_file), args.lang, args.scale, Path(args.out)
        )

    available = available_profiles()
    if args.list:
        for name, path in available.items():
            print(f"{name}\t{path.relative_to(ROOT)}")
        return 0
    if args.profiles:
        profiles = [p.strip() for p in args.profiles.split(",") if p.strip()]
        unknown = [p for p in profiles if p not in available]
        if unknown:
            print(f"screenshots: unknown profiles {unknown}; see --list", file=sys.stderr)
            return 2
    else:
        profiles = pick_default_profiles(available)
    if not profiles:
        print(f"screenshots: no machine profiles in {PROFILES_DIR}", file=sys.stderr)
        return 2
    langs = [lang.strip() for lang in args.langs.split(",") if lang.strip()]
    warn_without_cjk_font()
    out_dir = Path(args.out)
    failures = 0
    for profile in profiles:
        for lang in langs:
            failures += run_one(profile, available[profile], lang, 1, out_dir) != 0
    if not args.no_hidpi and not args.profiles:
        profile, lang = DEFAULT_HIDPI
        if profile in available:
            failures += run_one(profile, available[profile], lang, 2, out_dir) != 0
    print(f"screenshots in {out_dir}" + (f" ({failures} runs failed)" if failures else ""))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
