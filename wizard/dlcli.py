"""``gpu-wizard download URL -o FILE``: wizard.core.downloads on the command line.

Exit status: 0 saved (or already there and verified), 2 refused or failed (one line says why;
nothing is left under FILE; a ``FILE.part`` kept for a later resume is fine). Ctrl-C cancels the
same way."""

from __future__ import annotations

import argparse
import re
import sys
import time
from typing import Any, Callable

EXIT_OK, EXIT_FAILED = 0, 2


def add_parser(sub: Any, languages: tuple[str, ...], lang_help: str) -> None:
    parser = sub.add_parser("download", help="download a file from NVIDIA (HTTPS, resumable, "
                                             "checksum verified before it is saved)")
    parser.add_argument("url", metavar="URL")
    parser.add_argument("-o", "--output", metavar="FILE", required=True,
                        help="where to save it (a FILE.part beside it while downloading; a "
                             "folder keeps the URL's file name)")
    parser.add_argument("--sha256", metavar="HEX", help="the file's sha256: checked before "
                                                        "the file is saved under FILE")
    parser.add_argument("--allow-host", metavar="HOST", action="append", default=[],
                        help="also allow this host (HTTPS; plain HTTP only for 127.0.0.1)")
    parser.add_argument("--lang", choices=languages, default=argparse.SUPPRESS, help=lang_help)


def progress_printer(lang: str, stream: Any = None) -> Callable[[Any], None]:
    """A progress line on a terminal (stderr by default), at most a few times a second."""
    from wizard.core.downloads import describe_progress
    from wizard.core.messages import render

    stream = stream or sys.stderr
    last = [0.0]

    def show(progress: Any) -> None:
        now = time.monotonic()
        finished = progress.total is not None and progress.done >= progress.total
        if not stream.isatty() or (now - last[0] < 0.25 and not finished):
            return
        last[0] = now
        line = render(describe_progress(progress), lang)
        print(f"\r{line:70}", end="\n" if finished else "", file=stream, flush=True)

    return show


def clear_line(stream: Any = None) -> None:
    stream = stream or sys.stderr
    if stream.isatty():
        print("\r" + " " * 70 + "\r", end="", file=stream, flush=True)


def cmd_download(args: argparse.Namespace, lang: str) -> int:
    import os

    from wizard.core import downloads
    from wizard.core.messages import msg, render

    def fail(message: Any) -> int:
        clear_line()
        print(render(message, lang), file=sys.stderr)
        return EXIT_FAILED

    if args.sha256 and not re.fullmatch(r"[0-9a-fA-F]{64}", args.sha256):
        return fail(msg("download.cli.bad_sha256", value=args.sha256))
    output = os.path.abspath(args.output)
    if os.path.isdir(output):  # -o FOLDER: the file keeps the name the URL gives it
        try:
            output = os.path.join(output, downloads.file_name(args.url))
        except downloads.DownloadError as exc:
            return fail(exc.message)
    request = downloads.Request(args.url, output, sha256=args.sha256)
    options = downloads.Options(allow_hosts=tuple(h.lower() for h in args.allow_host))
    try:
        result = downloads.download(request, progress_printer(lang), options=options)
    except downloads.DownloadError as exc:
        return fail(exc.message)
    except KeyboardInterrupt:
        return fail(msg("download.cancelled", url=request.url, file=request.dest,
                        part=downloads.part_path(request.dest)))
    clear_line()
    if not result.fetched:
        print(render(msg("download.cli.cached", file=result.path), lang))
    else:
        if result.resumed:
            print(render(msg("download.cli.resumed"), lang))
        print(render(msg("download.cli.saved", file=result.path,
                         size=downloads.human_size(result.size), sha256=result.sha256), lang))
    if not args.sha256:
        print(render(msg("download.cli.unverified"), lang))
    return EXIT_OK


def fetch_cudnn_archive(host: Any, args: argparse.Namespace, lang: str) -> Any:
    """``fix cudnn --download``: show what is downloaded, ask, fetch into the cache and set
    ``args.archive`` to it. None to go on to the install plan; an exit status to stop."""
    import os

    from wizard import fixcli
    from wizard.core.fixes import cuda_installer, cudnn_download
    from wizard.core.fixes.plan import FixError
    from wizard.core.messages import msg

    try:
        if not (args.force or args.cuda_dir or args.dest):
            route = cuda_installer.cudnn_route(host, args.tf, fixcli._abs(args.python))
            if route is not None:
                return fixcli._refuse(route, lang)
        tf, needed = fixcli._target(host, args.tf, args.python)
        dest = args.cuda_dir or args.dest or fixcli._default_cuda(host)
        if not dest:
            raise FixError(msg("fix.refuse.no_cuda_found"))
        plan = cudnn_download.download_plan(
            host, {"dest": os.path.abspath(dest), "cudnn": needed},
            {"tensorflow": tf, "toolkit": not args.dest, "force": args.force,
             "allow_hosts": [h.lower() for h in args.allow_host]})
    except FixError as exc:
        return fixcli._refuse(exc.message, lang)
    for line in plan.lines(lang):
        print(line)
    if args.dry_run and not plan.cached:
        fixcli._say(msg("fix.cli.dry_run"), lang)
        return fixcli.EXIT_OK
    if not plan.cached and not fixcli._confirm(msg("download.cli.confirm"), lang, args.yes):
        return fixcli._refuse(msg("fix.cli.declined"), lang)
    try:
        path = cudnn_download.fetch(host, plan, progress_printer(lang))
    except FixError as exc:
        return fixcli._refuse(exc.message, lang)
    except KeyboardInterrupt:
        from wizard.core import downloads

        return fixcli._refuse(msg("download.cancelled", url=plan.url, file=plan.path,
                                  part=downloads.part_path(plan.path)), lang)
    clear_line()
    fixcli._say(msg("download.cli.downloaded", path=path), lang)
    args.archive = path
    return None
