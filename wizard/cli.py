"""``gpu-wizard``: the command line, a thin shell over ``wizard.core``.

With no sub-command it opens the wizard (the GUI); ``check``, ``compat``, ``snapshot`` and
``explain`` run headless.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any, Optional

from wizard import __version__

EXIT_READY, EXIT_NOT_READY, EXIT_ERROR = 0, 1, 2
LANGUAGES = ("en", "zh_CN")
LANG_HELP = "language of the text and Markdown output (default: the system's; JSON is English)"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="gpu-wizard",
        description="Get TensorFlow onto your NVIDIA GPU. Without a command, opens the wizard.",
    )
    parser.add_argument("--version", action="version", version=f"gpu-wizard {__version__}")
    parser.add_argument(
        "--profile", metavar="FILE", help="run the wizard against a machine profile (demo mode)"
    )
    parser.add_argument("--lang", choices=LANGUAGES, help=LANG_HELP)
    parser.add_argument("--page", choices=("monitor",),
                        help="open the wizard on this page (monitor: the live GPU monitor, "
                        "without redoing the checks)")
    parser.add_argument("--self-test", action="store_true",
                        help="run the wizard offscreen against built-in machine profiles (every "
                        "page, the monitor, the benchmark, the headless check); exit 0 when all "
                        "works")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    check = sub.add_parser("check", help="diagnose GPU, driver, CUDA, cuDNN and TensorFlow")
    # SUPPRESS: without it the sub-command's default (None) would overwrite a --profile given
    # before the command (`gpu-wizard --profile FILE check`), silently checking this machine.
    check.add_argument("--profile", metavar="FILE", default=argparse.SUPPRESS,
                       help="replay a machine profile")
    check.add_argument("--python", metavar="EXE", help="the Python environment to check")
    check.add_argument("--tf", metavar="VERSION", help="the TensorFlow version to aim for")
    fmt = check.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true", help="print the report as JSON")
    fmt.add_argument("--markdown", action="store_true", help="print the report as Markdown")
    check.add_argument("--no-color", action="store_true", help="plain text without colours")
    check.add_argument("--lang", choices=LANGUAGES, default=argparse.SUPPRESS, help=LANG_HELP)

    compat = sub.add_parser("compat", help="which CUDA, cuDNN, Python and driver a TF needs")
    compat.add_argument("--tf", metavar="VERSION")
    compat.add_argument("--cuda", metavar="VERSION")
    compat.add_argument("--os", choices=("windows", "linux", "wsl2"), required=True)
    compat.add_argument("--json", action="store_true")
    compat.add_argument("--lang", choices=LANGUAGES, default=argparse.SUPPRESS, help=LANG_HELP)

    snapshot = sub.add_parser("snapshot", help="write a machine profile of this machine")
    snapshot.add_argument("-o", "--output", metavar="FILE", required=True,
                          help="where to write the profile (- for standard output)")
    snapshot.add_argument("--python", metavar="EXE", help="also probe this Python environment")

    explain = sub.add_parser("explain", help="explain an error log (FILE, or - for stdin)")
    explain.add_argument("file", metavar="FILE")
    explain.add_argument("--json", action="store_true")
    explain.add_argument("--lang", choices=LANGUAGES, default=argparse.SUPPRESS, help=LANG_HELP)
    explain.add_argument("--os", choices=("windows", "linux", "wsl2", "macos"),
                         help="the OS the log comes from (default: what the log itself shows)")
    explain.add_argument("--tf", metavar="VERSION",
                         help="the TensorFlow version that printed the log (e.g. 2.10 or 2.15.1)")
    explain.add_argument("--python", metavar="VERSION",
                         help="the Python version that ran it (e.g. 3.8 or 3.10.12)")
    explain.add_argument("--cuda", metavar="VERSION",
                         help="the CUDA Toolkit installed there, as nvcc --version says it "
                              "(e.g. 11.8)")
    explain.add_argument("--gpu", metavar="NAME",
                         help='the GPU of the computer the log comes from (e.g. "RTX 3060", '
                              '"Radeon RX 570", none): answers whether it has an NVIDIA GPU')
    explain.add_argument("--answer", metavar="QUESTION=yes|no", action="append", default=[],
                         help="answer a question explain asked to settle the cause (e.g. "
                              "container=no); may be given more than once")

    from wizard import benchcli

    benchcli.add_parser(sub, LANGUAGES, LANG_HELP)

    from wizard import fixcli

    fixcli.add_parsers(sub, LANGUAGES, LANG_HELP)

    from wizard import dlcli

    dlcli.add_parser(sub, LANGUAGES, LANG_HELP)

    monitor = sub.add_parser("monitor", help="watch the GPUs live (utilisation, memory, power…)")
    monitor.add_argument("--interval", metavar="S", type=float, default=1.0,
                         help="seconds between samples (0: as fast as possible; default 1)")
    monitor.add_argument("--count", metavar="N", type=int,
                         help="stop after N samples (default: until Ctrl+C)")
    monitor.add_argument("--csv", metavar="FILE", help="also record every sample to FILE")
    monitor.add_argument("--json", action="store_true", help="one JSON object per sample")
    monitor.add_argument("--profile", metavar="FILE", default=argparse.SUPPRESS,
                         help="play a machine profile's recorded samples")
    monitor.add_argument("--lang", choices=LANGUAGES, default=argparse.SUPPRESS, help=LANG_HELP)
    return parser


def main(argv: Optional[list[str]] = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.profile and args.command not in (None, "check", "monitor"):
        parser.error(f"--profile replays a machine for the wizard and for check, not for "
                     f"{args.command}")
    try:
        if args.self_test:
            from wizard import selftest

            return selftest.main(language(args))
        if args.command is None:
            from wizard import app

            if not app.has_display():
                # An SSH session or a WSL shell: say so, then give the headless report.
                from wizard.core.messages import msg, render

                print(render(msg("cli.headless_note"), language(args)) + "\n", file=sys.stderr)
                check_args = build_parser().parse_args(_check_argv(args.profile))
                check_args.lang = args.lang
                return cmd_check(check_args)
            hint = app.qt_problem(language(args))
            if hint:  # no PySide6, or Qt's xcb plugin cannot load: say why, then check
                from wizard.core.messages import msg, render

                print(hint + "\n" + render(msg("crash.headless_fallback"), language(args))
                      + "\n", file=sys.stderr)
                check_args = build_parser().parse_args(_check_argv(args.profile))
                check_args.lang = args.lang
                return cmd_check(check_args)
            return app.main(profile=args.profile, page=args.page)
        handler = {
            "check": cmd_check,
            "compat": cmd_compat,
            "snapshot": cmd_snapshot,
            "explain": cmd_explain,
            "bench": cmd_bench,
            "fix": cmd_fix,
            "undo": cmd_undo,
            "download": cmd_download,
            "monitor": cmd_monitor,
        }[args.command]
        status = handler(args)
        if argv is None:  # the process ends with this command (not a test calling main)
            _spare_the_last_collection()
        return status
    except KeyboardInterrupt:
        print("gpu-wizard: interrupted", file=sys.stderr)
        return EXIT_ERROR
    except BrokenPipeError:
        return EXIT_ERROR
    except Exception as exc:  # a bug: one line to report, not a traceback
        if os.environ.get("GPU_WIZARD_DEBUG"):
            raise
        return _internal_error(exc, args)


def _spare_the_last_collection() -> None:
    """At exit the interpreter runs a garbage collection over every object still alive, all of
    which the exit frees anyway: ~10 ms of the ~0.1 s a check without Python environments takes
    (benchmarks/check_speed.py). ``gc.freeze()`` takes them out of its sight; nothing the wizard
    leaves needs a collector's finalizer at exit (it cleans up its temporary files itself)."""
    import gc

    gc.freeze()


def _internal_error(exc: Exception, args: argparse.Namespace) -> int:
    """A bug: the traceback goes to the log file (user log folder), one line to the user."""
    import logging

    from wizard.app import setup_logging
    from wizard.core.diagnose import raised_at
    from wizard.core.messages import msg, render

    log_path = setup_logging()
    if log_path is None:  # already set up (the wizard ran) or not writable
        log_path = next((h.baseFilename for h in logging.getLogger().handlers
                         if getattr(h, "_gpu_wizard", False)), "-")
    logging.getLogger("wizard.crash").critical(
        "internal error in gpu-wizard %s", getattr(args, "command", None) or "", exc_info=exc)
    print(render(msg("crash.cli_internal", error=f"{type(exc).__name__}: {exc}",
                     where=raised_at(exc), log=log_path), language(args)), file=sys.stderr)
    return EXIT_ERROR


def language(args: argparse.Namespace) -> str:
    """``--lang``, else the system's language (LANGUAGE, LC_ALL, LC_MESSAGES, LANG)."""
    from wizard.core.messages import system_language

    return getattr(args, "lang", None) or system_language()


def _check_argv(profile: Optional[str]) -> list[str]:
    return ["check", "--profile", profile] if profile else ["check"]


def _load_host(profile: Optional[str]):
    from wizard.core.host import LocalHost, ReplayHost

    return ReplayHost.from_file(profile) if profile else LocalHost()


def _use_color(args: argparse.Namespace) -> bool:
    if args.no_color or os.environ.get("NO_COLOR"):
        return False
    return sys.stdout.isatty()


def cmd_check(args: argparse.Namespace) -> int:
    from wizard.core import report as report_format
    from wizard.core.diagnose import CheckOptions, run_check
    from wizard.core.host import HostError

    if not args.profile:  # a fix a crash interrupted: say so before the report
        from wizard import fixcli

        fixcli.note_unfinished(language(args))
    try:
        host = _load_host(args.profile)
        report = run_check(host, CheckOptions(python=args.python, tensorflow=args.tf))
    except HostError as exc:
        print(f"gpu-wizard check: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except ValueError as exc:  # e.g. an unknown --tf version
        print(f"gpu-wizard check: {exc}", file=sys.stderr)
        return EXIT_ERROR
    lang = language(args)
    if args.json:
        text = report_format.to_json(report) + "\n"
    elif args.markdown:
        text = report_format.to_markdown(report, lang)
    else:
        text = report_format.to_text(report, color=_use_color(args), lang=lang)
    sys.stdout.write(text)
    return EXIT_READY if report.ready else EXIT_NOT_READY


def cmd_compat(args: argparse.Namespace) -> int:
    from wizard.core import knowledge

    try:
        answer = knowledge.compat_answer(tf=args.tf, cuda=args.cuda, os_kind=args.os)
    except ValueError as exc:
        print(f"gpu-wizard compat: {exc}", file=sys.stderr)
        return EXIT_ERROR
    if args.json:
        print(json.dumps(answer, indent=2, ensure_ascii=False))
    else:
        print(knowledge.compat_text(answer, language(args)))
    return 0


def cmd_snapshot(args: argparse.Namespace) -> int:
    from wizard.core.snapshot import profile_text, record_profile, write_snapshot

    if args.output == "-":  # the profile on stdout, the note on stderr
        sys.stdout.write(profile_text(record_profile(python=args.python)))
        return 0
    try:
        path = write_snapshot(args.output, python=args.python)
    except OSError as exc:
        where = exc.filename or args.output
        print(f"gpu-wizard snapshot: cannot write {args.output}: {where}: "
              f"{exc.strerror or exc}", file=sys.stderr)
        return EXIT_ERROR
    print(f"wrote {path}")
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    from wizard import benchcli

    return benchcli.cmd_bench(args, language(args))


def cmd_explain(args: argparse.Namespace) -> int:
    from wizard.core import deciding_question, explain, knowledge

    try:
        answers = [deciding_question.parse_answer(given) for given in args.answer]
        gpu = getattr(args, "gpu", None)
        told = deciding_question.gpu_answer(gpu) if gpu is not None else None
    except ValueError as exc:
        print(f"gpu-wizard explain: {exc.args[0].render(language(args))}", file=sys.stderr)
        return EXIT_ERROR
    if told is not None and all(known.id != told[0].id for known, _value in answers):
        answers.append(told)  # an explicit --answer nvidia_gpu=... says more than a name

    tf_version = getattr(args, "tf", None)
    if tf_version is not None:
        try:  # strictly, as `check --tf`: a release or series in the tables
            tf_version = knowledge.parse_tf_query(tf_version, knowledge.tables_os(args.os)).text
        except ValueError as exc:
            print(f"gpu-wizard explain: {exc}", file=sys.stderr)
            return EXIT_ERROR
    refused = _refused_version(args)
    if refused is not None:
        print(f"gpu-wizard explain: {refused}", file=sys.stderr)
        return EXIT_ERROR
    try:
        text = explain.read_log_file(args.file, sys.stdin)
    except OSError as exc:
        print(f"gpu-wizard explain: cannot read {args.file}: {exc.strerror or exc}",
              file=sys.stderr)
        return EXIT_ERROR
    except explain.NotTextLog as exc:
        name = "the standard input" if args.file == "-" else args.file
        print(f"gpu-wizard explain: {name} is {exc}", file=sys.stderr)
        return EXIT_ERROR
    return _explain_and_ask(args, text, tf_version, answers)


def _refused_version(args: argparse.Namespace) -> Optional[str]:
    """Why ``explain --python`` or ``--cuda`` is refused, in the user's language (None: both
    are versions, or not given)."""
    from wizard.core import explain

    for option in ("python", "cuda"):
        given = getattr(args, option, None)
        refusal = explain.version_refusal(option, given) if given is not None else None
        if refusal is not None:
            return refusal.render(language(args))
    return None


def _explain_and_ask(args: argparse.Namespace, text: str, tf_version: Optional[str],
                     answers: list) -> int:
    """Explain ``text`` with the answers given; at a terminal, ask the question that would
    settle it and explain again with each answer typed (Enter stops)."""
    from wizard.core import deciding_question, explain

    lang = language(args)
    interactive = not args.json and args.file != "-" and _at_a_terminal()
    while True:
        facts = deciding_question.answers_facts(answers)
        findings = explain.explain_log(text, getattr(args, "os", None), tf_version=tf_version,
                                       machine=facts,
                                       python_version=getattr(args, "python", None),
                                       cuda_version=getattr(args, "cuda", None))
        question = explain.question_for(findings, facts)
        if args.json:
            payload = {"format": "gpu-wizard/explain@1",
                       "findings": [f.to_dict() for f in findings],
                       "decisive": explain.decisive(findings),
                       "answers": {known.id: value for known, value in answers},
                       "question": _question_dict(question)}
            print(json.dumps(payload, indent=2, ensure_ascii=False))
            return 0
        print(explain.findings_text(findings, lang, answers, question))
        value = _ask(question, lang) if interactive and question is not None else None
        if value is None:
            return 0
        answers.append((question, value))
        print()


def _at_a_terminal() -> bool:
    """A person at a terminal (both ends of it): explain may ask its question there."""
    return bool(sys.stdin and sys.stdin.isatty() and sys.stdout.isatty())


def _ask(question: Any, lang: str) -> Optional[str]:
    """The answer typed to ``question`` (already printed): ``yes``, ``no`` or None (Enter,
    anything else, end of input)."""
    from wizard.core.messages import msg, render

    try:
        typed = input(render(msg("explain.text.prompt"), lang) + " ").strip().lower()
    except (EOFError, KeyboardInterrupt):
        print()
        return None
    if typed in ("y", "yes", "是", "是的"):
        return "yes"
    if typed in ("n", "no", "否", "不是"):
        return "no"
    return None


def _question_dict(question: Any) -> Optional[dict[str, Any]]:
    """The question ``explain --json`` reports (None: none would settle it)."""
    if question is None:
        return None
    return {"id": question.id, "text": question.ask().render("en"),
            "answers": {value: question.answer(value).fact for value in ("yes", "no")}}


def cmd_monitor(args: argparse.Namespace) -> int:
    from wizard.core.host import HostError
    from wizard.core.monitor import cli_run

    if args.interval < 0 or (args.count is not None and args.count < 1):
        from wizard.core.messages import msg, render

        print(render(msg("monitor.cli.bad_args"), language(args)), file=sys.stderr)
        return EXIT_ERROR
    try:
        host = _load_host(args.profile)
    except HostError as exc:
        print(f"gpu-wizard: {exc}", file=sys.stderr)
        return EXIT_ERROR

    def write(line: str) -> None:
        print(line, flush=True)

    try:
        return cli_run(host, args.interval, args.count, args.csv, args.json, language(args),
                       write)
    except KeyboardInterrupt:
        return 0


def cmd_fix(args: argparse.Namespace) -> int:
    from wizard import fixcli

    return fixcli.cmd_fix(args, language(args))


def cmd_undo(args: argparse.Namespace) -> int:
    from wizard import fixcli

    return fixcli.cmd_undo(args, language(args))


def cmd_download(args: argparse.Namespace) -> int:
    from wizard import dlcli

    return dlcli.cmd_download(args, language(args))


if __name__ == "__main__":
    sys.exit(main())
