#!/usr/bin/env python3
"""Screenshots of "Explain an error log…" (wizard/widgets/explain_dialog.py), offscreen, in
English and Chinese (and English at 200 %), one process per language and scale:

    docs/screenshots/explain-<lang>-0-summary.png   the summary with the new button
    docs/screenshots/explain-<lang>-1-answer.png    a real log explained: ranked causes
    docs/screenshots/explain-<lang>-2-refused.png   a TensorFlow version and a file refused
    docs/screenshots/explain-<lang>-3-question.png  candidates and the question that settles them
    docs/screenshots/explain-<lang>-4-lead.png      no known line: a lead from similar reports
    docs/screenshots/explain-en-200pct-1-answer.png the answer at 200 % (QT_SCALE_FACTOR=2)

The machine is replayed from tests/profiles/win-tf210-cudnn-never-copied.json (Windows, TF 2.10
checked: both preselected); the logs are real ones from public threads
(DeepLabCut/DeepLabCut#1398, data/explain-corpus/tf2.jsonl; tensorflow/tensorflow#39989,
data/explain-corpus/cudnn_oom.jsonl; stevezau/media_preview_generator#260,
data/explain-corpus/drivers.jsonl, from Linux: a log from another computer).

Usage: python scripts/explain_screenshots.py [--langs en zh_CN] [--out DIR] [--no-hidpi]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT_DIR = ROOT / "docs" / "screenshots"
PROFILE = ROOT / "tests" / "profiles" / "win-tf210-cudnn-never-copied.json"
LOG_SOURCE = ("data/explain-corpus/tf2.jsonl", "DeepLabCut/DeepLabCut#1398")
QUESTION_LOG_SOURCE = ("data/explain-corpus/cudnn_oom.jsonl", "tensorflow/tensorflow#39989")
LEAD_LOG_SOURCE = ("data/explain-corpus/drivers.jsonl", "stevezau/media_preview_generator#260")


def real_log(where: tuple[str, str] = LOG_SOURCE) -> str:
    corpus, source = where
    with open(ROOT / corpus, encoding="utf-8") as handle:
        for line in handle:
            item = json.loads(line)
            if item.get("source") == source:
                return item["log"]
    raise SystemExit(f"explain_screenshots: {source} is not in {corpus}")


def render(lang: str, scale: int, out_dir: Path) -> int:
    sys.path.insert(0, str(ROOT))
    from _per_language import language_installed, screenshot_app

    from wizard import app as wizard_app
    from wizard.core.host import ReplayHost
    from wizard.widgets import explain_dialog

    app = screenshot_app()
    if not language_installed("explain_screenshots", app, lang):
        return 2
    out_dir.mkdir(parents=True, exist_ok=True)
    tag = lang if scale == 1 else f"{lang}-{scale * 100}pct"

    def wait(condition, seconds: float = 30.0) -> bool:
        deadline = time.monotonic() + seconds
        while not condition() and time.monotonic() < deadline:
            app.processEvents()
            time.sleep(0.01)
        for _ in range(10):
            app.processEvents()
        return condition()

    def shot(widget, name: str) -> None:
        target = out_dir / f"explain-{tag}-{name}.png"
        widget.repaint()
        app.processEvents()
        if not widget.grab().save(str(target)):
            raise SystemExit(f"explain_screenshots: cannot write {target}")
        print(target)

    status = 0
    wiz = wizard_app.build_wizard(ReplayHost.from_file(PROFILE), app=app, language=lang)
    wiz.resize(900, 760)
    wiz.show()
    wiz.show_summary()
    summary = wiz.summary
    status |= not wait(lambda: summary.report is not None)
    summary.scroll.ensureWidgetVisible(summary.explain_button)
    if scale == 1:
        shot(wiz, "0-summary")
    dialog = summary.open_explain()
    if dialog is None:
        print("explain_screenshots: the summary did not open the dialog", file=sys.stderr)
        return 1
    dialog.resize(960, 900)
    dialog.log.setPlainText(real_log())
    dialog.explain()
    status |= not wait(lambda: dialog.state == explain_dialog.DONE)
    wait(lambda: all(card.isVisible() for card in dialog.cards))
    shot(dialog, "1-answer")
    if scale == 1:
        dialog.tf_edit.setText("2.10.5")
        with tempfile.TemporaryDirectory(prefix="gpu-wizard-shots-") as folder:
            binary = Path(folder) / "model.h5"
            binary.write_bytes(bytes(range(256)) * 16)
            dialog.load_file(str(binary))
            dialog.explain()
            wait(lambda: False, 0.2)
            shot(dialog, "2-refused")
        dialog.tf_edit.setText("")
        dialog.log.setPlainText(real_log(QUESTION_LOG_SOURCE))
        dialog.explain()
        status |= not wait(lambda: dialog.state == explain_dialog.DONE)
        wait(lambda: all(card.isVisible() for card in dialog.cards))
        status |= not dialog.question.isVisible()
        shot(dialog, "3-question")
        dialog.set_os("linux")
        dialog.log.setPlainText(real_log(LEAD_LOG_SOURCE))
        dialog.explain()
        status |= not wait(lambda: dialog.state == explain_dialog.DONE)
        wait(lambda: all(card.isVisible() for card in dialog.cards))
        lead = dialog.findings[0].params.get("source") if dialog.findings else None
        status |= lead != "similar_reports"
        shot(dialog, "4-lead")
    dialog.close()
    wiz.shutdown(10000)
    return int(bool(status))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--langs", nargs="+", default=["en", "zh_CN"])
    parser.add_argument("--out", type=Path, default=OUT_DIR)
    parser.add_argument("--no-hidpi", action="store_true", help="skip the 200 %% rendering")
    parser.add_argument("--one", help=argparse.SUPPRESS)
    parser.add_argument("--scale", type=int, default=1, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:
        return render(args.one, args.scale, args.out)
    runs = [(lang, 1) for lang in args.langs]
    if not args.no_hidpi and "en" in args.langs:
        runs.append(("en", 2))
    status = 0
    for lang, scale in runs:
        env = dict(os.environ, QT_SCALE_FACTOR=str(scale))
        env.pop("QT_AUTO_SCREEN_SCALE_FACTOR", None)
        done = subprocess.run([sys.executable, __file__, "--one", lang, "--scale", str(scale),
                               "--out", str(args.out)], env=env, check=False)
        status = status or done.returncode
    return status


if __name__ == "__main__":
    sys.exit(main())
