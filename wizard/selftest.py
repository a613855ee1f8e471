"""``--self-test``: the wizard against the built-in machine profiles in ``resources/selftest``
(a healthy machine and one with cuDNN never copied), offscreen, the way a user clicks it: the
headless check, every page from the intro to the summary, the monitor (the profile's recorded
ticks) and the benchmark (the recorded demo run), in English and in Chinese. Exit 0 when all is
well; otherwise 1 and one line naming the step that failed. CI runs it on the built bundle
(tests/integration/test_frozen_bundle.py, the Windows workflow); users and support can run it
to tell a broken installation from a broken machine."""

from __future__ import annotations

import os
import sys
import time
from typing import Any, Callable, Optional

from wizard.core.messages import msg, render

EXIT_OK = 0
EXIT_FAILED = 1
WAIT_S = 60.0
PROFILES = ("healthy", "broken")
MAX_DETAIL = 300


class SelfTestFailure(Exception):
    """One step of the self-test did not do what it should."""

    def __init__(self, step: str, detail: str) -> None:
        detail = " ".join(str(detail).split())  # one line, also for multi-line errors
        if len(detail) > MAX_DETAIL:  # e.g. NumPy's import advice: its end names the cause
            detail = "…" + detail[-MAX_DETAIL:]
        super().__init__(f"{step}: {detail}")
        self.step = step
        self.detail = detail


def profile_path(name: str) -> str:
    from wizard.resources import resource_path

    return str(resource_path("selftest", f"{name}.json"))


def _expect(name: str) -> dict[str, Any]:
    import json

    with open(profile_path(name), encoding="utf-8") as handle:
        return json.load(handle).get("expect") or {}


def check_headless(name: str) -> None:
    """The check ``gpu-wizard check --profile`` runs, and its report in both languages."""
    from wizard.core.diagnose import CheckOptions, run_check
    from wizard.core.host import ReplayHost
    from wizard.core.report import to_text

    step = f"check {name}"
    report = run_check(ReplayHost.from_file(profile_path(name)), CheckOptions())
    expect = _expect(name)
    if report.ready != expect.get("ready", report.ready):
        raise SelfTestFailure(step, f"ready={report.ready}, expected {expect.get('ready')}")
    if report.blocking_layer != expect.get("blocking_layer", report.blocking_layer):
        raise SelfTestFailure(step, f"blocking layer {report.blocking_layer}, expected "
                                    f"{expect.get('blocking_layer')}")
    for lang in ("en", "zh_CN"):
        if not to_text(report, lang=lang).strip():
            raise SelfTestFailure(step, f"empty {lang} report")


def _wait(app: Any, condition: Callable[[], bool], step: str, what: str,
          timeout_s: float = WAIT_S) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            raise SelfTestFailure(step, f"{what} did not happen within {timeout_s:.0f} s")
        app.processEvents()
        time.sleep(0.01)


def walk_wizard(app: Any, name: str, lang: str) -> None:
    """Intro -> layer pages -> summary; for a ready machine then the monitor and the benchmark."""
    from wizard import i18n
    from wizard.app import build_wizard
    from wizard.core.host import ReplayHost
    from wizard.pages.ids import PageId

    step = f"wizard {name} ({lang})"
    wiz = build_wizard(ReplayHost.from_file(profile_path(name)), app, language=lang)
    try:
        wiz.show()
        app.processEvents()
        if wiz.currentId() != PageId.INTRO:
            raise SelfTestFailure(step, f"opened on page {wiz.currentId()}, not the intro")
        wiz.intro.select_target(None)
        for _ in range(12):
            if wiz.currentId() == PageId.SUMMARY:
                break
            before = wiz.currentId()
            wiz.next()
            if wiz.currentId() == before:
                raise SelfTestFailure(step, f"Next did not leave page {before}")
            page = wiz.currentPage()
            _wait(app, page.isComplete, step, f"the check on page {wiz.currentId()}")
        if wiz.currentId() != PageId.SUMMARY:
            raise SelfTestFailure(step, "the summary was not reached")
        report = wiz.summary.report
        if report is None:
            raise SelfTestFailure(step, "the summary has no report")
        expect = _expect(name)
        if report.blocking_layer != expect.get("blocking_layer", report.blocking_layer):
            raise SelfTestFailure(step, f"the summary blames {report.blocking_layer}")
        if report.blocking_layer and not wiz.summary.cards:
            raise SelfTestFailure(step, "the summary shows no step to take first")
        if not wiz.windowTitle().strip():
            raise SelfTestFailure(step, "the window has no title")

        if name == "healthy":
            _monitor_and_benchmark(app, wiz, step)
    finally:
        wiz.close()
        if lang != "en":
            i18n.install_language(app, "en")
        if not wiz.shutdown(10000):
            raise SelfTestFailure(step, "worker threads did not stop within 10 s")


def _monitor_and_benchmark(app: Any, wiz: Any, step: str) -> None:
    from wizard.pages.ids import PageId

    # the monitor: the profile's recorded ticks, faster than real time
    monitor = wiz.monitor
    factory = monitor._source_factory

    def fast_source():  # noqa: ANN202 - the page's factory type
        source = factory()
        source.interval_s = 0.02
        return source

    monitor._source_factory = fast_source
    wiz.summary.monitor_button.click()
    if wiz.currentId() != PageId.MONITOR:
        raise SelfTestFailure(step, "the summary's monitor button did not open the monitor")
    _wait(app, lambda: monitor.monitor is not None and monitor.monitor.history is not None
          and monitor.monitor.history.count >= 5, step, "five monitor ticks")
    monitor.paint()
    if not monitor.gpu_lines.text().strip():
        raise SelfTestFailure(step, "the monitor shows no GPU line")

    # the benchmark: the recorded demo run
    wiz.next()
    if wiz.currentId() != PageId.BENCHMARK:
        raise SelfTestFailure(step, "Next on the monitor did not open the benchmark")
    bench = wiz.benchmark
    bench.demo_delay = 0.0
    bench.start_button.click()
    _wait(app, lambda: bench.run is not None, step, "the benchmark demo run")
    if bench.run.outcome != "done" or not bench.run.results:
        raise SelfTestFailure(step, f"the benchmark demo ended {bench.run.outcome!r} "
                                    f"with {len(bench.run.results)} results")
    if bench.table.topLevelItemCount() == 0:
        raise SelfTestFailure(step, "the benchmark table is empty")


def run() -> Optional[SelfTestFailure]:
    """All steps; the first failure, or None."""
    os.environ["QT_QPA_PLATFORM"] = "offscreen"  # never a window, also on a desktop
    try:
        for name in PROFILES:
            check_headless(name)
        from wizard.app import create_application

        app = create_application()
        for name, language in (("healthy", "en"), ("broken", "zh_CN"), ("broken", "en")):
            walk_wizard(app, name, language)
    except SelfTestFailure as failure:
        return failure
    except Exception as exc:  # a bug or a missing file in the bundle: name it in one line
        from wizard.core.diagnose import raised_at

        return SelfTestFailure("self-test", f"{type(exc).__name__}: {exc} (at {raised_at(exc)})")
    return None


def main(lang: str = "en") -> int:
    failure = run()
    if failure is None:
        print(render(msg("selftest.ok"), lang))
        return EXIT_OK
    print(render(msg("selftest.failed", step=failure.step, detail=failure.detail), lang),
          file=sys.stderr)
    return EXIT_FAILED
