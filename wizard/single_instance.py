"""One wizard per user: a second double-click brings the running wizard to the front instead of
opening a second window (and a second monitor sampling the same GPUs).

The first wizard listens on a local socket (a named pipe on Windows, a socket file on Linux and
macOS) named after the user; a later start connects, asks it to come to the front, prints what
happened and exits 0. Needs a QCoreApplication (the socket notifiers live in its event loop).
``GPU_WIZARD_INSTANCE_NAME`` names the socket instead (tests run two wizards beside a user's)."""

from __future__ import annotations

import getpass
import hashlib
import logging
import os
import time
from typing import Any, Optional

log = logging.getLogger(__name__)

CONNECT_MS = 1000
ANSWER_MS = 3000
ACTIVATE = b"activate\n"


def server_name() -> str:
    override = os.environ.get("GPU_WIZARD_INSTANCE_NAME")
    if override:
        return override
    try:
        user = getpass.getuser()
    except (KeyError, OSError, ImportError):  # no user name: the home folder tells users apart
        user = os.path.expanduser("~")
    digest = hashlib.sha1(user.encode("utf-8", "replace")).hexdigest()[:12]
    return f"gpu-setup-wizard-{digest}"


def ask_running(name: Optional[str] = None) -> Optional[int]:
    """Ask a running wizard to come to the front: None when none listens, else its process id
    (0 when it took the connection but did not answer in time: busy, yet running)."""
    from PySide6.QtNetwork import QLocalSocket

    socket = QLocalSocket()
    socket.connectToServer(name or server_name())
    if not socket.waitForConnected(CONNECT_MS):
        return None
    socket.write(ACTIVATE)
    socket.flush()
    socket.waitForBytesWritten(ANSWER_MS)  # False when flush() wrote it all already
    answer = b""
    deadline = time.monotonic() + ANSWER_MS / 1000
    while b"\n" not in answer and time.monotonic() < deadline:
        if socket.waitForReadyRead(100):
            answer += bytes(socket.readAll().data())
    socket.disconnectFromServer()
    try:
        return int(answer.decode("ascii").split()[1]) if answer.startswith(b"ok ") else 0
    except (ValueError, IndexError):
        return 0


class InstanceServer:
    """Listens for later starts and brings this wizard's windows to the front."""

    def __init__(self, name: Optional[str] = None) -> None:
        from PySide6.QtNetwork import QLocalServer

        self.name = name or server_name()
        self.activations = 0
        self.server = QLocalServer()
        self.server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)
        self.server.newConnection.connect(self._on_connection)
        if not self.server.listen(self.name):
            # a socket file left by a wizard that crashed (Linux, macOS): nobody answered on it
            QLocalServer.removeServer(self.name)
            if not self.server.listen(self.name):
                log.warning("single-instance socket %s: %s", self.name,
                            self.server.errorString())

    @property
    def listening(self) -> bool:
        return self.server.isListening()

    def _on_connection(self) -> None:
        while self.server.hasPendingConnections():
            socket = self.server.nextPendingConnection()
            socket.readyRead.connect(lambda s=socket: self._on_message(s))
            socket.disconnected.connect(socket.deleteLater)
            if socket.bytesAvailable():  # the request came with the connection
                self._on_message(socket)

    def _on_message(self, socket: Any) -> None:
        if not bytes(socket.readAll().data()).startswith(ACTIVATE.strip()):
            return
        bring_to_front()
        self.activations += 1
        socket.write(f"ok {os.getpid()}\n".encode("ascii"))
        socket.flush()

    def close(self) -> None:
        self.server.close()


def bring_to_front() -> None:
    """Show this process's visible top-level windows normally (un-minimized) and raise them."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QApplication

    for window in QApplication.topLevelWidgets():
        if not window.isVisible() or window.parent() is not None:
            continue
        if window.windowState() & Qt.WindowState.WindowMinimized:
            window.setWindowState(window.windowState() & ~Qt.WindowState.WindowMinimized)
        window.show()
        window.raise_()
        window.activateWindow()
    log.info("a second start: brought the wizard to the front")


_server: Optional[InstanceServer] = None


def claim() -> bool:
    """True when this is the only wizard (it now listens for later starts); False when another
    one answered and came to the front (this start should exit). Call after the QApplication
    is made, before the window."""
    global _server
    from wizard.core.messages import msg, render, system_language

    if os.environ.get("GPU_WIZARD_QUIT_AFTER_MS"):
        return True  # a smoke test's window closes itself: never hand it to a user's wizard
    pid = ask_running()
    if pid is not None:
        import sys

        if sys.stderr is not None:  # the windowed exe has no console
            print(render(msg("instance.already_running", pid=pid or "?"), system_language()),
                  file=sys.stderr)
        return False
    _server = InstanceServer()
    return True
