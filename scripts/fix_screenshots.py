#!/usr/bin/env python3
"""Screenshots of the commit step of "Fix it…" (wizard/widgets/fix_dialog.py), offscreen, in
English and Chinese, one process per language:

    docs/screenshots/fix-cudnn-<lang>-1-plan.png       the plan (a real archive, a CUDA tree)
    docs/screenshots/fix-cudnn-<lang>-2-progress.png   copying, with Cancel
    docs/screenshots/fix-cudnn-<lang>-3-done.png       the result and Undo
    docs/screenshots/fix-cudnn-<lang>-4-undone.png     after Undo
    docs/screenshots/fix-cudnn-<lang>-0-demo.png       demo mode (--profile): the plan, no button
    docs/screenshots/fix-cudnn-<lang>-5-download.png   cuDNN from NVIDIA: the download's plan
    docs/screenshots/fix-cudnn-<lang>-6-downloading.png  the download, speed and time left
    docs/screenshots/fix-pip-<lang>-1-output.png       pip in a throwaway venv: live output, the
                                                        exit code and the way back
    docs/screenshots/fix-all-<lang>-0-plan.png         Fix everything: the overall plan (demo)
    docs/screenshots/fix-all-<lang>-1-summary.png      the summary with "Fix everything…"

The CUDA tree and the archive (dummy payloads in NVIDIA's layout, tests/core/fix_archives.py) are
made in a temporary folder; nothing outside it is touched. The download comes from a local
server standing in for NVIDIA (tests/core/dl_server.py), pip installs a wheel written on the spot
into a venv made in the temporary folder (no index).

Usage: python scripts/fix_screenshots.py [--langs en zh_CN] [--out DIR]
"""

from __future__ import annotations

import os
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT_DIR = ROOT / "docs" / "screenshots"
PROFILE = ROOT / "tests" / "profiles" / "win-tf210-cudnn-never-copied.json"


def render(lang: str, out_dir: Path) -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "core")]
    work = Path(tempfile.mkdtemp(prefix="gpu-wizard-shots-"))
    os.environ["GPU_WIZARD_STATE_DIR"] = str(work / "state")
    import fix_archives as fa
    from _per_language import language_installed, screenshot_app

    from wizard.core.host import LocalHost, ReplayHost
    from wizard.core.model import Finding, Fix
    from wizard.widgets import fix_dialog
    from wizard.workers import WorkerManager

    app = screenshot_app()
    if not language_installed("fix_screenshots", app, lang):
        return 2
    out_dir.mkdir(parents=True, exist_ok=True)
    workers = WorkerManager()

    def wait(condition, seconds: float = 30.0) -> bool:
        deadline = time.monotonic() + seconds
        while not condition() and time.monotonic() < deadline:
            app.processEvents()
            time.sleep(0.01)
        for _ in range(5):
            app.processEvents()
        return condition()

    def shot(dialog, name: str, kind: str = "cudnn") -> Path:
        target = out_dir / f"fix-{kind}-{lang}-{name}.png"
        dialog.repaint()
        app.processEvents()
        if not dialog.grab().save(str(target)):
            raise SystemExit(f"fix_screenshots: cannot write {target}")
        print(target)
        return target

    class GatedHost(LocalHost):
        """Stops before the fourth file, so the progress screenshot shows a copy in flight."""

        def __init__(self) -> None:
            super().__init__()
            self.count, self.paused, self.go = 0, threading.Event(), threading.Event()

        def write_file(self, path, chunks, temp=None):  # noqa: ANN001
            self.count += 1
            if self.count == 4:
                self.paused.set()
                self.go.wait(60)
            return super().write_file(path, chunks, temp=temp)

    status = 0
    try:
        # demo mode: the recorded Windows machine, an archive chosen, the plan, no button
        demo_host = ReplayHost.from_file(PROFILE)
        from wizard.core.session import CheckSession

        session = CheckSession(demo_host)
        result = session.run_layer("cudnn")
        finding = next(f for f in result.findings if f.fix.action == "install_cudnn")
        zip_path = fa.windows_zip(work, "8.1.1.33", "11.2", layout="old")
        demo = fix_dialog.FixDialog(finding, demo_host, workers)
        demo.show()
        demo.choose_file(str(zip_path))
        status |= not wait(lambda: demo.state == fix_dialog.PLANNED)
        shot(demo, "0-demo")
        demo.close()

        cuda = fa.cuda_tree(work / "usr" / "local" / "cuda-11.2")
        archive = fa.linux_tar(work, "8.6.0.163", cuda=11, size=200_000)
        live = Finding("cudnn_missing", severity="fail", params={"cudnn": "8.1", "cuda": "11.2"},
                       fix=Fix(action="install_cudnn", action_params={
                           "dest": str(cuda), "cudnn": "8.1", "cuda": "11.2"}))
        host = GatedHost()
        dialog = fix_dialog.FixDialog(live, host, workers)
        dialog.show()
        dialog.choose_file(str(archive))
        status |= not wait(lambda: dialog.state == fix_dialog.PLANNED)
        shot(dialog, "1-plan")
        dialog.apply()
        status |= not wait(host.paused.is_set)
        wait(lambda: dialog.progress.value() > 0, 2)
        shot(dialog, "2-progress")
        host.go.set()
        status |= not wait(lambda: dialog.state == fix_dialog.DONE)
        shot(dialog, "3-done")
        dialog.undo()
        status |= not wait(lambda: dialog.state == fix_dialog.UNDONE)
        shot(dialog, "4-undone")
        dialog.close()
        status |= _new_fixes(lang, work, workers, wait, shot)
    finally:
        workers.shutdown(10000)
    return int(bool(status))


def _new_fixes(lang, work, workers, wait, shot) -> int:  # noqa: ANN001 - see render()
    """The issue-10 fixes: the cuDNN download (plan, progress), pip with its output, and Fix
    everything (the summary and the overall plan, demo mode)."""
    import subprocess

    import fix_archives as fa

    sys.path.insert(0, str(ROOT / "tests" / "gui"))
    import fixgui_support as support
    from PySide6.QtWidgets import QApplication

    from wizard import app as wizard_app
    from wizard.core import downloads
    from wizard.core.host import LocalHost, ReplayHost
    from wizard.core.knowledge import redist
    from wizard.widgets import fix_dialog, fix_tasks

    app = QApplication.instance()
    status = 0

    class Patch:  # what pytest's monkeypatch does, for serve_cudnn
        def setattr(self, obj, name, value):  # noqa: ANN001
            setattr(obj, name, value)

        def setenv(self, name, value):  # noqa: ANN001
            os.environ[name] = value

        def delenv(self, name, raising=True):  # noqa: ANN001
            os.environ.pop(name, None)

    server, stop = support.start_server(Patch())
    try:
        (work / "dl").mkdir()
        support.serve_cudnn(server, work / "dl", Patch(), body_extra=4_000_000)
        real = fix_tasks.Events.download

        def slow_link(self, progress):  # noqa: ANN001 - a slow line, for the picture
            time.sleep(0.03)
            real(self, progress)

        fix_tasks.Events.download = slow_link
        cuda = fa.cuda_tree(work / "dl" / "cuda-11.2")
        dialog = fix_dialog.FixDialog(support.cudnn_finding(cuda), LocalHost(), workers)
        dialog.show()
        status |= not wait(lambda: dialog.state == fix_dialog.PLANNED)
        shot(dialog, "5-download")
        dialog.apply()
        status |= not wait(lambda: "%" in dialog.status_text() and dialog.progress.value() > 250)
        shot(dialog, "6-downloading")
        dialog.cancel()
        status |= not wait(lambda: dialog.state == fix_dialog.FAILED)
        dialog.close()
        fix_tasks.Events.download = real
    finally:
        stop()
        os.environ.pop(redist.BASE_ENV, None)
        os.environ.pop(downloads.CACHE_ENV, None)

    venv = work / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, capture_output=True)
    python = str(venv / "bin" / "python") if os.name != "nt" else str(venv / "Scripts" /
                                                                        "python.exe")
    wheels = work / "wheels"
    support.make_wheel(wheels)
    dialog = fix_dialog.FixDialog(support.pip_finding(python, "gw_tiny==1.0", wheels),
                                  LocalHost(), workers)
    dialog.show()
    status |= not wait(lambda: dialog.state == fix_dialog.PLANNED)
    dialog.apply()
    status |= not wait(lambda: dialog.state in (fix_dialog.DONE, fix_dialog.FAILED), 120)
    shot(dialog, "1-output", kind="pip")
    dialog.close()

    wiz = wizard_app.build_wizard(ReplayHost.from_file(PROFILE), app=app, language=lang)
    wiz.resize(900, 760)
    wiz.show()
    wiz.show_summary()
    summary = wiz.summary
    status |= not wait(lambda: summary.report is not None and summary._fix_items is not None)
    shot(wiz, "1-summary", kind="all")
    everything = summary.open_fix_everything()
    status |= everything is None
    if everything is not None:
        wait(lambda: False, 0.2)
        shot(everything, "0-plan", kind="all")
        everything.close()
    wiz.shutdown(10000)
    return int(bool(status))


def main(argv: list[str] | None = None) -> int:
    from _per_language import main as per_language

    return per_language(__file__, __doc__.splitlines()[0], OUT_DIR, render, argv)


if __name__ == "__main__":
    sys.exit(main())
