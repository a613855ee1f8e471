"""``gpu-wizard fix ...`` and ``gpu-wizard undo``: the command line of wizard.core.fixes.

Every plan is printed first in the user's language; ``--dry-run`` stops there, ``--yes`` skips
the question. Exit status: 0 applied (and verified), 1 applied but the check afterwards still
sees the problem, 2 refused or failed (one line says why; the machine is as it was)."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any, Callable, Optional

EXIT_OK, EXIT_UNVERIFIED, EXIT_REFUSED = 0, 1, 2


def add_parsers(sub: Any, languages: tuple[str, ...], lang_help: str) -> None:
    fix = sub.add_parser("fix", help="fix what check found: cuDNN from an archive, PATH, "
                                     "CUDA_PATH (shown first, journaled, undoable); TensorFlow "
                                     "with the environment's pip or conda")
    fix.add_argument("--lang", choices=languages, default=argparse.SUPPRESS, help=lang_help)
    kinds = fix.add_subparsers(dest="fix_command", metavar="WHAT", required=True)

    def common(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--dry-run", action="store_true", help="show the plan, change nothing")
        parser.add_argument("--yes", action="store_true", help="do not ask before changing")
        parser.add_argument("--lang", choices=languages, default=argparse.SUPPRESS,
                            help=lang_help)

    cudnn = kinds.add_parser("cudnn", help="install cuDNN from NVIDIA's zip or tar.xz")
    source = cudnn.add_mutually_exclusive_group(required=True)
    source.add_argument("--archive", metavar="FILE")
    source.add_argument("--download", action="store_true",
                        help="download the archive the target needs from NVIDIA (verified)")
    cudnn.add_argument("--allow-host", metavar="HOST", action="append", default=[],
                       help="with --download: also allow this download host")
    where = cudnn.add_mutually_exclusive_group()
    where.add_argument("--cuda-dir", metavar="DIR", help="the CUDA toolkit to copy into")
    where.add_argument("--dest", metavar="DIR", help="any folder (bin, include, lib below it)")
    cudnn.add_argument("--tf", metavar="VERSION", help="the TensorFlow that must load it")
    cudnn.add_argument("--zlibwapi", metavar="FILE", help="zlibwapi.dll to copy with it")
    cudnn.add_argument("--python", metavar="EXE",
                       help="the Python environment whose TensorFlow must load it (as check)")
    cudnn.add_argument("--no-recheck", action="store_true",
                       help="do not run the check up to the cuDNN layer afterwards")
    cudnn.add_argument("--force", action="store_true",
                       help="install even for another CUDA, OS, architecture or TensorFlow")
    common(cudnn)

    zlib = kinds.add_parser("zlibwapi", help="copy zlibwapi.dll next to cuDNN (Windows)")
    zlib.add_argument("--file", metavar="FILE", required=True)
    zlib.add_argument("--dest", metavar="DIR", help="default: the CUDA toolkit's bin")
    common(zlib)

    path = kinds.add_parser("path", help="add a folder to PATH (or --var) for new terminals")
    path.add_argument("--add", metavar="DIR", required=True)
    path.add_argument("--var", default="PATH", choices=("PATH", "LD_LIBRARY_PATH"))
    scope = path.add_mutually_exclusive_group()
    scope.add_argument("--user", action="store_true", help="this user (default)")
    scope.add_argument("--system", action="store_true", help="every user (administrator)")
    path.add_argument("--conda-env", metavar="PREFIX",
                      help="Linux: set it in this conda environment's activate.d instead")
    common(path)

    cuda_path = kinds.add_parser("cuda-path", help="set CUDA_PATH and put its bin on PATH")
    cuda_path.add_argument("--cuda-dir", metavar="DIR")
    scope = cuda_path.add_mutually_exclusive_group()
    scope.add_argument("--user", action="store_true", help="this user (default)")
    scope.add_argument("--system", action="store_true", help="every user (administrator)")
    cuda_path.add_argument("--conda-env", metavar="PREFIX")
    common(cuda_path)

    tensorflow = kinds.add_parser(
        "tensorflow", help="install a GPU-capable TensorFlow with the chosen environment's own "
                           "pip (conda: CUDA and cuDNN from conda-forge; a new environment when "
                           "its Python is too new)")
    tensorflow.add_argument("--python", metavar="EXE",
                            help="the environment's interpreter (default: the one check picks)")
    tensorflow.add_argument("--tf", metavar="VERSION", help="the TensorFlow to install")
    tensorflow.add_argument("--no-recheck", action="store_true",
                            help="do not check the TensorFlow layer again afterwards")
    common(tensorflow)

    cuda = kinds.add_parser(
        "cuda", help="install the CUDA Toolkit the target needs with NVIDIA's local installer: "
                     "silent, toolkit components only, never the display driver (Windows); on "
                     "Linux and WSL2 it names the route (pip wheels or the distribution package)")
    cuda.add_argument("--download", action="store_true",
                      help="download NVIDIA's installer (checked against its sha256; cached)")
    cuda.add_argument("--installer", metavar="FILE", help="use this installer, download nothing")
    cuda.add_argument("--cuda", metavar="X.Y", help="the CUDA version (default: the target's)")
    cuda.add_argument("--tf", metavar="VERSION", help="the TensorFlow that must load it")
    cuda.add_argument("--python", metavar="EXE",
                      help="the Python environment whose TensorFlow must load it (as check)")
    cuda.add_argument("--allow-host", action="append", default=[], metavar="HOST",
                      help="also allow downloads from HOST (a mirror)")
    cuda.add_argument("--no-recheck", action="store_true",
                      help="do not check the CUDA layer again afterwards")
    common(cuda)

    apply_plan = kinds.add_parser("apply-plan", help="apply a saved plan (what the elevated "
                                                     "copy of the wizard runs)")
    apply_plan.add_argument("plan_file", metavar="FILE")
    apply_plan.add_argument("--result", metavar="FILE")
    apply_plan.add_argument("--state-dir", metavar="DIR")

    undo = sub.add_parser("undo", help="undo the last fix (exactly the state before it)")
    undo.add_argument("--list", action="store_true", help="list the fixes and their state")
    undo.add_argument("--yes", action="store_true", help="do not ask")
    undo.add_argument("--force", action="store_true",
                      help="undo even what was changed since the fix")
    undo.add_argument("--recover", choices=("finish", "rollback"),
                      help="finish or roll back a fix a crash interrupted")
    undo.add_argument("--lang", choices=languages, default=argparse.SUPPRESS, help=lang_help)
    undo.add_argument("--id", metavar="FIX", help="undo this fix (see --list), not the last one")
    undo.add_argument("--state-dir", metavar="DIR", help=argparse.SUPPRESS)


def _say(message: Any, lang: str, stream: Any = None) -> None:
    from wizard.core.messages import render

    print(render(message, lang), file=stream or sys.stdout)


def _refuse(message: Any, lang: str) -> int:
    from wizard.core.messages import msg

    if sys.stderr.isatty():  # clear a progress line
        print("\r" + " " * 66 + "\r", end="", file=sys.stderr)
    _say(msg("fix.cli.refused", reason=message), lang, sys.stderr)
    return EXIT_REFUSED


def _confirm(question: Any, lang: str, yes: bool) -> bool:
    from wizard.core.messages import render

    if yes:
        return True
    if not sys.stdin or not sys.stdin.isatty():
        return False
    try:
        answer = input(render(question, lang) + " ")
    except EOFError:
        return False
    return answer.strip().lower() in ("y", "yes", "是", "好")


def _progress(lang: str) -> Callable[[float, str], None]:
    """A percentage on the terminal (stderr, only when it is one), cleared at 100%."""
    shown = [-1]

    def report(fraction: float, text: str) -> None:
        percent = int(fraction * 100)
        if percent != shown[0] and sys.stderr.isatty():
            end = "\r" + " " * 66 + "\r" if percent >= 100 else ""
            print(f"\r{percent:3d}% {os.path.basename(text)[:60]:60}{end}", end="",
                  file=sys.stderr, flush=True)
        shown[0] = percent

    return report


def cmd_fix(args: argparse.Namespace, lang: str) -> int:
    from wizard.core.fixes import journal as journals
    from wizard.core.fixes.plan import FixError
    from wizard.core.host import LocalHost

    if args.fix_command == "apply-plan":
        from wizard.core.fixes.elevate import apply_plan_file

        if args.state_dir:
            os.environ[journals.STATE_ENV] = args.state_dir
        return apply_plan_file(LocalHost(), args.plan_file, args.result)
    status = recovery(lang, interactive=not args.yes)
    if status is not None:
        return status
    if args.fix_command == "tensorflow":
        return cmd_packages(args, lang)
    if args.fix_command == "cuda":
        return cmd_cuda(args, lang)
    host = LocalHost()
    if args.fix_command == "cudnn" and args.download:
        from wizard import dlcli

        status = dlcli.fetch_cudnn_archive(host, args, lang)
        if status is not None:
            return status
    try:
        plan = _build(host, args)
    except FixError as exc:
        return _refuse(exc.message, lang)
    return run_plan(host, plan, args, lang)


def _build(host: Any, args: argparse.Namespace) -> Any:
    from wizard.core.fixes import cudnn, env
    from wizard.core.fixes.plan import FixError
    from wizard.core.messages import msg

    if args.fix_command == "cudnn":
        tf, needed = _target(host, args.tf, args.python)
        dest = args.cuda_dir or args.dest or _default_cuda(host)
        if not dest:
            raise FixError(msg("fix.refuse.no_cuda_found"))
        return cudnn.plan_cudnn(host, cudnn.CudnnRequest(
            archive=args.archive, dest=os.path.abspath(dest), toolkit=not args.dest,
            tensorflow=tf, cudnn_needed=needed, force=args.force, zlibwapi=args.zlibwapi),
            progress=_progress("reading"))
    if args.fix_command == "zlibwapi":
        dest = args.dest or (_default_cuda(host) and os.path.join(_default_cuda(host), "bin"))
        if not dest:
            raise FixError(msg("fix.refuse.no_cuda_found"))
        return cudnn.plan_zlibwapi(host, args.file, os.path.abspath(dest))
    if args.fix_command == "path":
        directory = args.add if host.is_windows else os.path.abspath(args.add)
        return env.plan_path(host, directory, args.var, system=args.system,
                             conda_env=args.conda_env)
    cuda_dir = args.cuda_dir or _default_cuda(host)
    if not cuda_dir:
        raise FixError(msg("fix.refuse.no_cuda_found"))
    return env.plan_cuda_path(host, cuda_dir, system=args.system, conda_env=args.conda_env)


def cmd_packages(args: argparse.Namespace, lang: str) -> int:
    """``fix tensorflow``: the pip/conda commands for the chosen environment, shown, run with
    live output (Ctrl-C stops the whole process tree), then the tensorflow layer checked
    again. 0: installed and the layer is ok; 1: installed, the layer still sees a problem; 2:
    refused, failed or cancelled."""
    from wizard.core.fixes import packages
    from wizard.core.fixes.plan import FixError
    from wizard.core.host import LocalHost
    from wizard.core.messages import msg

    host = LocalHost()
    try:
        plan = packages.plan_tensorflow(host, python=_abs(args.python), tensorflow=args.tf)
    except FixError as exc:
        return _refuse(exc.message, lang)
    for line in plan.lines(lang):
        print(line)
    if args.dry_run:
        _say(msg("fix.cli.dry_run"), lang)
        return EXIT_OK
    if not _confirm(msg("fix.cli.confirm"), lang, args.yes):
        return _refuse(msg("fix.cli.declined"), lang)
    try:
        result = packages.run_plan(host, plan, on_line=lambda text: print(text, flush=True))
    except FixError as exc:
        return _refuse(exc.message, lang)
    except KeyboardInterrupt:
        return _refuse(msg("installs.run.cancelled", command=plan.commands[0].text()), lang)
    _say(result.message, lang, None if result.ok else sys.stderr)
    if result.go_back:
        _say(msg("installs.cli.go_back"), lang)
        for command in result.go_back:
            print("  " + command)
    _say(msg("installs.cli.record", folder=result.record), lang)
    if not result.ok:
        return EXIT_REFUSED
    if args.no_recheck:
        return EXIT_OK
    return _recheck_layer(lambda: packages.recheck(host, plan), "tensorflow", lang)


def cmd_cuda(args: argparse.Namespace, lang: str) -> int:
    """``fix cuda --download``: NVIDIA's installer fetched and verified, run silently with the
    toolkit components only (one UAC prompt), the files checked, the cuda layer checked again.
    0: installed and the layer is ok; 1: installed, not verified; 2: refused, failed or
    cancelled (on Linux and WSL2: the route to take instead, nothing run)."""
    from wizard.core.fixes import cuda_installer
    from wizard.core.fixes.plan import FixError
    from wizard.core.host import LocalHost
    from wizard.core.messages import msg

    host = LocalHost()
    try:
        plan = cuda_installer.plan_cuda(
            host, cuda=args.cuda, tensorflow=args.tf, python=_abs(args.python),
            installer=os.path.abspath(args.installer) if args.installer else None,
            allow_hosts=tuple(args.allow_host))
    except FixError as exc:
        return _refuse(exc.message, lang)
    for line in plan.lines(lang):
        print(line)
    if args.dry_run:
        _say(msg("fix.cli.dry_run"), lang)
        return EXIT_OK
    if not (args.download or args.installer):
        return _refuse(msg("installs.cuda.needs_download"), lang)
    if not _confirm(msg("fix.cli.confirm_admin"), lang, args.yes):
        return _refuse(msg("fix.cli.declined"), lang)
    try:
        path = cuda_installer.fetch(host, plan, progress=_download_progress(lang))
        result = cuda_installer.run_installer(host, plan, path,
                                              on_line=lambda text: print(text, flush=True),
                                              progress=_progress(lang))
    except FixError as exc:
        return _refuse(exc.message, lang)
    except KeyboardInterrupt:
        return _refuse(msg("installs.cuda.cancelled", command=plan.command), lang)
    _say(result.message, lang, None if result.ok else sys.stderr)
    if not result.ok:
        return EXIT_REFUSED
    ok, seen = cuda_installer.verify(host, plan)
    _say(seen, lang)
    if args.no_recheck:
        return EXIT_OK if ok else EXIT_UNVERIFIED
    status = _recheck_layer(lambda: cuda_installer.recheck(host, plan), "cuda", lang)
    return status if ok else EXIT_UNVERIFIED


def _abs(path: Optional[str]) -> Optional[str]:
    """A path given on the command line, absolute (the plan names the interpreter it runs)."""
    return os.path.abspath(path) if path and os.path.exists(path) else path


def _download_progress(lang: str) -> Callable[[Any], None]:
    """A download's percentage, speed and time left on the terminal (stderr, only a tty)."""
    from wizard.core.downloads import describe_progress
    from wizard.core.messages import render

    def report(progress: Any) -> None:
        if sys.stderr.isatty():
            print("\r" + render(describe_progress(progress), lang)[:70].ljust(70), end="",
                  file=sys.stderr, flush=True)

    return report


def _recheck_layer(run: Callable[[], Any], layer: str, lang: str) -> int:
    """A layer checked again after a fix that ran a program: 0 when it is ok now, else 1."""
    from wizard.core import report
    from wizard.core.messages import msg

    try:
        result = run()
    except Exception as exc:  # the run is done; a failing re-check must not hide that
        _say(msg("fix.cli.recheck_failed", reason=f"{type(exc).__name__}: {exc}"), lang)
        return EXIT_UNVERIFIED
    _say(msg("fix.cli.recheck", layer=report.layer_name(layer, lang),
             status=report.status_word(result.status, lang),
             summary=result.summary_text(lang)), lang)
    return EXIT_OK if result.status == "ok" else EXIT_UNVERIFIED


def _default_cuda(host: Any) -> Optional[str]:
    value = host.getenv("CUDA_PATH")
    if value and host.is_dir(value):
        return value
    if not host.is_windows and host.is_dir("/usr/local/cuda"):
        return "/usr/local/cuda"
    return None


def _target(host: Any, tf: Optional[str], python: Optional[str] = None
            ) -> tuple[Optional[str], Optional[str]]:
    """The TF the cuDNN must suit and the cuDNN it loads: ``--tf``, else as ``check`` chooses."""
    from wizard.core import knowledge
    from wizard.core.fixes.plan import FixError
    from wizard.core.messages import msg

    os_kind = host.platform.os_kind
    if tf:
        try:
            target = knowledge.choose_target(os_kind, requested=tf)
        except ValueError as exc:
            raise FixError(msg("fix.refuse.bad_tf", reason=str(exc))) from None
        return target.tensorflow, target.cudnn
    from wizard.core.diagnose import CheckOptions, choose_environment, choose_target

    options = CheckOptions(python=python)
    python, probe, reason = choose_environment(host, options)
    target = choose_target(host, options, probe, python, reason)
    return target.tensorflow, target.cudnn


def run_plan(host: Any, plan: Any, args: argparse.Namespace, lang: str) -> int:
    from wizard.core.fixes import journal as journals
    from wizard.core.fixes.elevate import run_elevated
    from wizard.core.fixes.plan import FixError
    from wizard.core.fixes.verify import verify
    from wizard.core.messages import msg

    for line in plan.lines(lang):
        print(line)
    if plan.empty or args.dry_run:
        if args.dry_run and not plan.empty:
            _say(msg("fix.cli.dry_run"), lang)
        return EXIT_OK
    if plan.needs_admin:
        if not host.is_windows:
            return _refuse(_linux_admin_hint(plan, args), lang)
        if not _confirm(msg("fix.cli.confirm_admin"), lang, args.yes):
            return _refuse(msg("fix.cli.declined"), lang)
        try:
            result = run_elevated(plan)
        except FixError as exc:
            return _refuse(exc.message, lang)
        if not result.get("ok"):
            from wizard.core.fixes.plan import from_data

            return _refuse(from_data(result.get("message")), lang)
    else:
        if not _confirm(msg("fix.cli.confirm"), lang, args.yes):
            return _refuse(msg("fix.cli.declined"), lang)
        try:
            journal = journals.apply(host, plan, _progress(lang))
        except FixError as exc:
            return _refuse(exc.message, lang)
        _say(msg("fix.cli.applied", id=journal.id), lang)
    ok, seen = verify(host, plan)
    _say(seen, lang)
    if plan.verify.get("layer") and not getattr(args, "no_recheck", True):
        _recheck(host, plan.verify["layer"], args, lang)
    return EXIT_OK if ok else EXIT_UNVERIFIED


def _recheck(host: Any, layer: str, args: argparse.Namespace, lang: str) -> None:
    """The layer the fix was for, checked again as ``check`` checks it."""
    from wizard.core import report
    from wizard.core.fixes.verify import recheck
    from wizard.core.messages import msg

    try:
        result = recheck(host, layer, tensorflow=args.tf, python=args.python)
    except Exception as exc:  # the fix is done; a failing re-check must not hide that
        _say(msg("fix.cli.recheck_failed", reason=f"{type(exc).__name__}: {exc}"), lang)
        return
    _say(msg("fix.cli.recheck", layer=report.layer_name(layer, lang),
             status=report.status_word(result.status, lang),
             summary=result.summary_text(lang)), lang)


def _linux_admin_hint(plan: Any, args: argparse.Namespace) -> Any:
    """A root-owned destination on Linux: a user folder plus the library path, or sudo."""
    from wizard.core.messages import msg

    argv = [a for a in sys.argv[1:]] or ["fix", args.fix_command]
    sudo = "sudo " + " ".join(["gpu-wizard", *argv])
    if plan.action == "install_cudnn":
        user_dir = os.path.join(os.path.expanduser("~"), ".local", "cudnn")
        return msg("fix.refuse.not_writable_linux", dest=plan.verify.get("dest"),
                   user_dir=user_dir, archive=getattr(args, "archive", "?"),
                   lib=os.path.join(user_dir, "lib64"), sudo=sudo)
    return msg("fix.refuse.needs_root", command=sudo)


def recovery(lang: str, interactive: bool = True) -> Optional[int]:
    """An unfinished fix (a crash mid-apply): offer to finish or roll it back. None to go on;
    an exit status when the user must decide first."""
    from wizard.core.fixes import journal as journals
    from wizard.core.messages import msg

    pending = journals.unfinished()
    if not pending:
        return None
    journal = pending[-1]
    _say(msg("fix.cli.unfinished", id=journal.id, title=journal.plan.title), lang, sys.stderr)
    if interactive and sys.stdin and sys.stdin.isatty():
        if _confirm(msg("fix.cli.ask_finish"), lang, False):
            return _recover(journal, "finish", lang)
        if _confirm(msg("fix.cli.ask_rollback"), lang, False):
            return _recover(journal, "rollback", lang)
    _say(msg("fix.cli.recover_hint"), lang, sys.stderr)
    return EXIT_REFUSED


def _recover(journal: Any, how: str, lang: str) -> int:
    from wizard.core.fixes import journal as journals
    from wizard.core.fixes.plan import FixError
    from wizard.core.host import LocalHost
    from wizard.core.messages import msg

    host = LocalHost()
    try:
        if how == "finish":
            journals.finish(host, journal)
        else:
            journals.roll_back(host, journal, final=journals.ROLLED_BACK)
    except FixError as exc:
        return _refuse(exc.message, lang)
    _say(msg("fix.cli.finished" if journal.status == journals.DONE else "fix.cli.rolled_back",
             id=journal.id), lang)
    return EXIT_OK


def _running_as_admin(host: Any) -> bool:
    if not host.is_windows:
        return hasattr(os, "geteuid") and os.geteuid() == 0
    try:
        import ctypes

        return bool(ctypes.windll.shell32.IsUserAnAdmin())  # type: ignore[attr-defined]
    except (ImportError, AttributeError, OSError):
        return False


def note_unfinished(lang: str) -> None:
    """At the start of any other command: one line on stderr when a fix was interrupted."""
    from wizard.core.fixes import journal as journals
    from wizard.core.messages import msg

    try:
        pending = journals.unfinished()
    except OSError:
        return
    if pending:
        _say(msg("fix.cli.unfinished", id=pending[-1].id, title=pending[-1].plan.title), lang,
             sys.stderr)
        _say(msg("fix.cli.recover_hint"), lang, sys.stderr)


def cmd_undo(args: argparse.Namespace, lang: str) -> int:
    from wizard.core.fixes import journal as journals
    from wizard.core.fixes.plan import FixError
    from wizard.core.host import LocalHost
    from wizard.core.messages import msg, render

    if args.state_dir:
        os.environ[journals.STATE_ENV] = args.state_dir
    if args.recover:
        pending = journals.unfinished()
        if not pending:
            _say(msg("fix.cli.nothing_unfinished"), lang)
            return EXIT_OK
        return _recover(pending[-1], args.recover, lang)
    if args.list:
        every = journals.journals()
        if not every:
            _say(msg("fix.cli.no_fixes"), lang)
        for journal in every:
            status = render(msg(f"fix.status.{journal.status}"), lang)
            print(f"{journal.id}  {status}  {render(journal.plan.title, lang)}")
        return EXIT_OK
    status = recovery(lang, interactive=not args.yes)
    if status is not None:
        return status
    journal = journals.last_undoable()
    if args.id:
        journal = next((j for j in journals.journals() if j.id == args.id), None)
        if journal is None:
            return _refuse(msg("fix.cli.no_such_fix", id=args.id), lang)
    if journal is None:
        _say(msg("fix.cli.no_fixes"), lang)
        return EXIT_OK
    if journal.status != journals.DONE:
        _say(msg("fix.cli.already_undone", id=journal.id), lang)
        return EXIT_OK
    _say(msg("fix.cli.undo_what", id=journal.id, title=journal.plan.title), lang)
    if not _confirm(msg("fix.cli.confirm_undo"), lang, args.yes):
        return _refuse(msg("fix.cli.declined"), lang)
    host = LocalHost()
    try:
        if journal.plan.needs_admin and not _running_as_admin(host):
            from wizard.core.fixes.elevate import undo_elevated

            changed = [] if args.force else journals.changed_since(host, journal)
            if changed:
                return _refuse(msg("fix.refuse.changed_since", id=journal.id, paths=changed),
                               lang)
            undo_elevated(journal.id, args.force)
            journal = journals.Journal.load(journal.folder)
            if journal.status != journals.UNDONE:
                return _refuse(msg("fix.refuse.elevation_declined"), lang)
        else:
            journals.undo(host, journal, force=args.force)
    except FixError as exc:
        return _refuse(exc.message, lang)
    _say(msg("fix.cli.undone", id=journal.id), lang)
    return EXIT_OK
