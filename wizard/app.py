"""The only place that builds the QApplication: display check, High-DPI, names for QSettings,
logging to the user log folder, translators, then the wizard.

``gpu-wizard`` (no command), ``gpu-wizard-gui`` and ``python -m wizard`` end here.
``--profile FILE`` replays a machine profile (demo and test mode, marked in the window).
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from typing import Callable, Optional

APP_NAME = "GPU Setup Wizard"
ORG_NAME = "GPU Setup Wizard"
ORG_DOMAIN = "gpu-wizard.invalid"
NO_DISPLAY_MESSAGE = "No display found. Run `gpu-wizard check` for the headless report."
EXIT_OK, EXIT_ERROR = 0, 2
HEADLESS_PLATFORMS = ("offscreen", "minimal", "vnc", "eglfs", "linuxfb")

log = logging.getLogger("wizard")


def has_display(
    environ: Optional[dict[str, str]] = None,
    platform: Optional[str] = None,
    answers: Optional[Callable[[str, dict[str, str]], bool]] = None,
) -> bool:
    """False on Linux without a display server that answers, unless Qt was told to draw
    somewhere else (offscreen, vnc, ...).

    A ``DISPLAY`` or ``WAYLAND_DISPLAY`` left over from another session (an SSH login, a
    terminal multiplexer, a container) names a server that is not there; Qt would then abort
    with a misleading xcb message. So the server is asked, cheaply and before Qt loads: a
    connection to its socket (no subprocess). ``answers(kind, env)`` does that for ``"x11"``
    and ``"wayland"``; tests pass their own."""
    env = os.environ if environ is None else environ
    platform = sys.platform if platform is None else platform
    if not platform.startswith("linux"):
        return True
    answers = display_answers if answers is None else answers
    requested = [
        part.split(":", 1)[0].strip().lower()
        for part in env.get("QT_QPA_PLATFORM", "").split(";")
        if part.strip()
    ]
    if any(name in HEADLESS_PLATFORMS for name in requested):
        return True
    kinds = []
    if not requested or any(name.startswith("wayland") for name in requested):
        kinds.append("wayland")
    if not requested or "xcb" in requested:
        kinds.append("x11")
    return any(answers(kind, dict(env)) for kind in kinds)


DISPLAY_TIMEOUT_S = 0.5


def display_answers(kind: str, env: dict[str, str]) -> bool:
    """Whether the X11 (``DISPLAY``) or Wayland (``WAYLAND_DISPLAY``) server named in ``env``
    accepts a connection."""
    if kind == "wayland":
        if env.get("WAYLAND_SOCKET"):  # a socket handed over by the compositor itself
            return True
        name = env.get("WAYLAND_DISPLAY", "")
        if not name:
            return False
        runtime = env.get("XDG_RUNTIME_DIR", "")
        path = name if os.path.isabs(name) else (os.path.join(runtime, name) if runtime else "")
        return bool(path) and _unix_socket_answers([path])
    return _x11_answers(env.get("DISPLAY", ""))


def _x11_answers(display: str) -> bool:
    """``[host]:number[.screen]``: a local display is the socket /tmp/.X11-unix/X<number>
    (also in Linux's abstract namespace); ``host:number`` is TCP port 6000 + number."""
    if not display or ":" not in display:
        return False
    host, _, rest = display.rpartition(":")
    number = rest.split(".", 1)[0]
    if not number.isdigit():
        return False
    if host.startswith("/"):  # a socket path (XQuartz style)
        return _unix_socket_answers([f"{host}:{number}"])
    local = [f"\0/tmp/.X11-unix/X{number}", f"/tmp/.X11-unix/X{number}"]
    if host in ("", "unix"):
        return _unix_socket_answers(local)
    if host in ("localhost", "127.0.0.1", "::1") and _unix_socket_answers(local):
        return True
    return _tcp_answers(host.strip("[]"), 6000 + int(number))


def _unix_socket_answers(paths: list[str]) -> bool:
    import socket

    for path in paths:
        abstract = path.startswith("\0")  # Linux abstract namespace: no file to look at
        if not abstract and not os.path.exists(path):
            continue
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
                sock.settimeout(DISPLAY_TIMEOUT_S)
                sock.connect(path)
            return True
        except OSError:
            continue
    return False


def _tcp_answers(host: str, port: int) -> bool:
    import socket

    try:
        with socket.create_connection((host, port), timeout=DISPLAY_TIMEOUT_S):
            return True
    except OSError:
        return False


def setup_logging() -> Optional[str]:
    """A rotating UTF-8 log in the platform's user log folder; its path, or None."""
    from logging.handlers import RotatingFileHandler

    import platformdirs

    root = logging.getLogger()
    if any(getattr(h, "_gpu_wizard", False) for h in root.handlers):
        return None
    try:
        folder = platformdirs.user_log_path(APP_NAME, ORG_NAME, ensure_exists=True)
        handler = RotatingFileHandler(
            folder / "wizard.log", maxBytes=1_000_000, backupCount=3, encoding="utf-8"
        )
    except OSError as exc:  # a read-only home must not stop the wizard
        if sys.stderr is not None:
            print(f"gpu-wizard: cannot write the log ({exc}); continuing without",
                  file=sys.stderr)
        return None
    handler._gpu_wizard = True  # type: ignore[attr-defined]
    handler.setFormatter(
        logging.Formatter("%(asctime)s %(levelname)s %(threadName)s %(name)s: %(message)s")
    )
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    return str(handler.baseFilename)


def _install_qt_message_handler() -> None:
    from PySide6.QtCore import QtMsgType, qInstallMessageHandler

    levels = {
        QtMsgType.QtDebugMsg: logging.DEBUG,
        QtMsgType.QtInfoMsg: logging.INFO,
        QtMsgType.QtWarningMsg: logging.WARNING,
        QtMsgType.QtCriticalMsg: logging.ERROR,
        QtMsgType.QtFatalMsg: logging.CRITICAL,
    }

    def handler(kind, _context, message):  # noqa: ANN001 - Qt's signature
        logging.getLogger("qt").log(levels.get(kind, logging.INFO), "%s", message)

    qInstallMessageHandler(handler)


def qt_problem(language: Optional[str] = None) -> Optional[str]:
    """Why the window cannot open although a display answers, as a hint to print (in the
    user's language), or None: PySide6 not installed, or (Linux) libraries Qt's xcb plugin
    needs are missing. Checked before Qt loads, without a subprocess."""
    from wizard import qtlibs
    from wizard.core.messages import msg, render, system_language

    lang = language or system_language()
    if qtlibs.pyside_missing():
        return render(msg("crash.pyside_missing", python=sys.executable,
                          command=f"{sys.executable} -m pip install PySide6-Essentials"), lang)
    problem = qtlibs.xcb_problem()
    if problem:
        return render(msg("crash.xcb_missing", **problem), lang)
    return None


def create_application(argv: Optional[list[str]] = None):
    """The QApplication, created once, named for QSettings (or the existing one in tests)."""
    from PySide6.QtCore import QCoreApplication, QSettings, Qt
    from PySide6.QtGui import QGuiApplication
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    if app is None:
        # Qt 6 scales by the screen's factor; pass fractional factors (150 %) through exactly
        QGuiApplication.setHighDpiScaleFactorRoundingPolicy(
            Qt.HighDpiScaleFactorRoundingPolicy.PassThrough
        )
        QCoreApplication.setOrganizationName(ORG_NAME)
        QCoreApplication.setOrganizationDomain(ORG_DOMAIN)
        QCoreApplication.setApplicationName(APP_NAME)
        QSettings.setDefaultFormat(QSettings.Format.IniFormat)
        app = QApplication(list(argv) if argv is not None else sys.argv[:1])
        # No applicationDisplayName: Qt appends it to every window title, and the wizard's
        # title already names the product (translated).
    return app


def build_wizard(host, app=None, language: Optional[str] = None,  # noqa: ANN001
                 start_page: Optional[str] = None):
    """The wizard for ``host`` (a LocalHost or a ReplayHost) with translators installed."""
    from wizard import i18n
    from wizard.core.session import CheckSession
    from wizard.pages.wizard import SetupWizard

    app = app or create_application()
    lang = language or i18n.preferred_language()
    if not i18n.install_language(app, lang):
        log.warning("language %s is not available; using English", lang)
    session = CheckSession(host)
    from wizard.widgets.fix_dialog import FixController

    fixes = FixController(session)  # "Fix it…" on the cards: the commit step of each fix

    def switch_language(code: str) -> None:
        i18n.install_language(app, code, save=True)

    wizard = SetupWizard(
        session,
        languages=i18n.available_languages(),
        language=i18n.current_language(),
        on_language=switch_language,
        fix_actions=fixes.handlers(),
        start_page=start_page,
    )
    fixes.attach(wizard)
    return wizard


def _parse_profile(argv: list[str]) -> Optional[str]:
    parser = argparse.ArgumentParser(prog="gpu-wizard-gui", add_help=False)
    parser.add_argument("--profile", metavar="FILE")
    known, _rest = parser.parse_known_args(argv)
    return known.profile


def _parse_page(argv: list[str]) -> Optional[str]:
    parser = argparse.ArgumentParser(prog="gpu-wizard-gui", add_help=False)
    parser.add_argument("--page", choices=PAGES)
    known, _rest = parser.parse_known_args(argv)
    return known.page


PAGES = ("monitor",)
"""Pages ``--page`` can open the wizard on (skipping the checks)."""


def main(profile: Optional[str] = None, argv: Optional[list[str]] = None,
         page: Optional[str] = None) -> int:
    """Open the wizard; with ``profile`` replay that machine profile, with ``page`` start on that
    page (``monitor``). Returns the exit status."""
    if "--self-test" in (sys.argv[1:] if argv is None else argv):  # gpu-wizard-gui --self-test
        from wizard import selftest

        return selftest.main()
    if profile is None:
        profile = _parse_profile(sys.argv[1:] if argv is None else argv)
    if page is None:
        page = _parse_page(sys.argv[1:] if argv is None else argv)
    if not has_display():
        print(NO_DISPLAY_MESSAGE, file=sys.stderr)
        return EXIT_ERROR
    hint = qt_problem()
    if hint:  # before Qt loads: Qt would abort with its own message (and a core dump)
        print(hint, file=sys.stderr)
        return EXIT_ERROR
    from wizard.core.host import HostError, LocalHost, ReplayHost

    try:
        host = ReplayHost.from_file(profile) if profile else LocalHost()
    except HostError as exc:
        print(f"gpu-wizard: {exc}", file=sys.stderr)
        return EXIT_ERROR
    app = create_application()
    from wizard import single_instance

    if not single_instance.claim():  # a second double-click: the running wizard comes forward
        return EXIT_OK
    log_path = setup_logging()
    _install_qt_message_handler()
    from wizard.widgets import crash_dialog

    crash_dialog.install(log_path, app)  # any unhandled exception: the log and a dialog
    log.info("starting; profile=%s log=%s", profile, log_path)
    wizard = build_wizard(host, app, start_page=page)
    wizard.show()
    from wizard.widgets.fix_dialog import offer_recovery

    offer_recovery(host, wizard)  # a fix a crash interrupted: finish or roll back
    _schedule_smoke_quit(wizard)
    status = app.exec()
    if not wizard.shutdown():
        # A step did not stop within the shutdown grace time (a child process slow to die);
        # the window is gone, so wait for it (it has its own time limit) rather than let
        # interpreter shutdown tear a live thread down.
        log.warning("waiting for running checks to end before exiting")
        wizard.workers.pool.waitForDone(-1)
    from PySide6.QtCore import QThreadPool

    QThreadPool.globalInstance().waitForDone()
    log.info("closed with status %s", status)
    return EXIT_OK if status == 0 else EXIT_ERROR


def _schedule_smoke_quit(wizard) -> None:
    """``GPU_WIZARD_QUIT_AFTER_MS=N`` closes the window after N ms: the packaged exe's smoke test
    (CI) opens the real GUI, lets the first checks run, and expects a clean exit 0."""
    value = os.environ.get("GPU_WIZARD_QUIT_AFTER_MS", "")
    if not value.isdigit():
        return
    from PySide6.QtCore import QTimer

    QTimer.singleShot(int(value), wizard.close)


if __name__ == "__main__":
    sys.exit(main())
