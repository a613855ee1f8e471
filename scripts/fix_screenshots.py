#!/usr/bin/env python3
"""Screenshots of the commit step of "Fix it…" (wizard/widgets/fix_dialog.py), offscreen, in
English and Chinese, one process per language:

    docs/screenshots/fix-cudnn-<lang>-1-plan.png       the plan (a real archive, a CUDA tree)
    docs/screenshots/fix-cudnn-<lang>-2-progress.png   copying, with Cancel
    docs/screenshots/fix-cudnn-<lang>-3-done.png       the result and Undo
    docs/screenshots/fix-cudnn-<lang>-4-undone.png     after Undo
    docs/screenshots/fix-cudnn-<lang>-0-demo.png       demo mode (--profile): the plan, no button

The CUDA tree and the archive (dummy payloads in NVIDIA's layout, tests/core/fix_archives.py) are
made in a temporary folder; nothing outside it is touched.

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
    from PySide6.QtCore import QCoreApplication, QSettings
    from PySide6.QtWidgets import QApplication

    from wizard import i18n
    from wizard.core.host import LocalHost, ReplayHost
    from wizard.core.model import Finding, Fix
    from wizard.widgets import fix_dialog
    from wizard.workers import WorkerManager

    QCoreApplication.setOrganizationName("GPU Setup Wizard Screenshots")
    QCoreApplication.setApplicationName("screenshots")
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    app = QApplication.instance() or QApplication([sys.argv[0]])
    if not i18n.install_language(app, lang):
        print(f"fix_screenshots: cannot load the {lang} catalogue", file=sys.stderr)
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

    def shot(dialog, name: str) -> Path:
        target = out_dir / f"fix-cudnn-{lang}-{name}.png"
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
    finally:
        workers.shutdown(10000)
    return int(bool(status))


def main(argv: list[str] | None = None) -> int:
    from _per_language import main as per_language

    return per_language(__file__, __doc__.splitlines()[0], OUT_DIR, render, argv)


if __name__ == "__main__":
    sys.exit(main())
