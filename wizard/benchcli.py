"""``gpu-wizard bench``: run the benchmark in a Python environment from the terminal.

``--json`` prints one JSON object per result (each CPU/GPU matmul carries ``device``, ``n``,
``dtype``, ``gflops``, and on a GPU its label and share of the peak), one per skipped step, and
a last ``{"type": "summary", ...}`` with the judgement. Without it, progress goes to stderr and
the results and verdicts to stdout in the user's language.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

EXIT_OK, EXIT_FAILED, EXIT_ERROR = 0, 1, 2


def add_parser(sub: Any, languages: tuple[str, ...], lang_help: str) -> None:
    bench = sub.add_parser("bench", help="measure the GPU (and the CPU) in a Python environment")
    bench.add_argument("--python", metavar="EXE",
                       help="the Python environment to measure (default: the likeliest one found)")
    bench.add_argument("--quick", action="store_true", help="fewer sizes and repeats (< 1 min)")
    bench.add_argument("--json", action="store_true", help="one JSON line per result")
    bench.add_argument("--no-save", action="store_true",
                       help="do not keep the run in the history")
    bench.add_argument("--lang", choices=languages, default=argparse.SUPPRESS, help=lang_help)


def cmd_bench(args: argparse.Namespace, lang: str) -> int:
    from wizard.core import bench
    from wizard.core.messages import msg, render

    python = args.python or bench.find_bench_python()
    if not python:
        print(render(msg("bench.cli.no_python"), lang), file=sys.stderr)
        return EXIT_ERROR
    if not args.json:
        print(render(msg("bench.cli.running", python=python), lang), file=sys.stderr)

    def progress(fraction: float, step: str) -> None:
        if not args.json:
            print(f"[{100 * fraction:3.0f}%] {step}", file=sys.stderr, flush=True)

    def on_record(record: dict[str, Any]) -> None:
        if record.get("type") == "hello":
            warning = bench.precheck(record)
            if warning is not None:
                print(render(warning, lang), file=sys.stderr, flush=True)

    try:
        run = bench.run_bench(python, quick=args.quick, on_record=on_record, progress=progress)
    except KeyboardInterrupt:
        return EXIT_FAILED
    judgement = bench.judge(run)
    if args.json:
        for record in run.records:
            if record.get("type") == "result":
                print(json.dumps(bench.result_line(record, judgement), sort_keys=True))
            elif record.get("type") == "skip":
                print(json.dumps({k: v for k, v in record.items() if k != "bench"},
                                 sort_keys=True))
        summary = {"type": "summary", "outcome": run.outcome, "python": python,
                   "backend": run.hello.get("backend"), "version": run.hello.get("version"),
                   "seconds": run.seconds}
        summary.update(judgement.to_dict())
        print(json.dumps(summary, sort_keys=True), flush=True)
    else:
        for record in run.results:
            line = bench.result_line(record, judgement)
            share = line.get("percent_of_peak")
            tail = f"  ({share:.0f}%)" if share is not None else ""
            print(f"  {render(bench.describe(record), lang)}: "
                  f"{render(bench.value_text(record), lang)}{tail}")
        for skip in run.skips:
            print(f"  {skip.get('step')}: {render(bench.skip_text(skip), lang)}")
        print()
        for _severity, message in judgement.verdicts:
            print(f"- {render(message, lang)}")
    if not args.no_save and run.results:
        try:
            path = bench.save_run(run)
            if not args.json:
                print(render(msg("bench.cli.saved", path=str(path)), lang), file=sys.stderr)
        except OSError as exc:
            print(f"gpu-wizard bench: {exc}", file=sys.stderr)
    if run.outcome == "not_found":
        return EXIT_ERROR
    return EXIT_OK if run.outcome == "done" and run.results else EXIT_FAILED
