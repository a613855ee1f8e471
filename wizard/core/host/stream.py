"""Run a long command with live output and cancel: what ``LocalHost.run_streaming`` does.

Used by the fixes that run the user's own tools (pip, conda, NVIDIA's CUDA installer). The child
gets the user's environment (:func:`~wizard.core.host.process.child_environment`, plus the
caller's overrides), its own process group (session on POSIX, a new process group and no console
window on Windows), stdin closed, stdout and stderr merged. Each output line (split at ``\\n``
and at ``\\r``, the progress bars' carriage returns) goes to ``on_line`` on the caller's thread
as it arrives. ``cancelled()`` is polled every ``POLL_S``; when it turns true, or the time limit
passes, the whole process tree is killed (``kill_tree``: ``taskkill /T`` on Windows, the process
group elsewhere).

``elevated=True`` on Windows starts the program through the UAC prompt (``ShellExecuteEx`` with
the ``runas`` verb): one prompt, no output lines (an elevated child's pipes cannot be read), the
exit status only. Elsewhere there is no such prompt and the program runs with this user's rights.
"""

from __future__ import annotations

import contextlib
import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Mapping
from typing import Callable, Optional

from wizard.core.host.base import CancelledFn, CommandResult
from wizard.core.host.probe import kill_tree, popen_kwargs
from wizard.core.host.process import child_environment, decode_output, reset_dll_directory

POLL_S = 0.1
EXIT_GRACE_S = 5.0
"""How long output is still read after the program exited (a child it left may hold the pipe)."""
KEEP_CHARS = 64 * 1024
"""How much of the output the result keeps (its end); every line went to ``on_line``."""
LineFn = Callable[[str], None]


def stream_environment(overrides: Optional[Mapping[str, str]] = None) -> dict[str, str]:
    """The child's environment: the user's (not a frozen bundle's), unbuffered Python output,
    UTF-8 for Python children, then ``overrides``."""
    env = child_environment()
    env["PYTHONUNBUFFERED"] = "1"
    env.setdefault("PYTHONIOENCODING", "utf-8")
    env.update(overrides or {})
    return env


def run_streaming(
    argv: list[str],
    on_line: Optional[LineFn] = None,
    cancelled: Optional[CancelledFn] = None,
    env: Optional[Mapping[str, str]] = None,
    cwd: Optional[str] = None,
    timeout: Optional[float] = None,
    elevated: bool = False,
) -> CommandResult:
    """Run ``argv`` (no shell) to its end; see the module docstring. Never raises for a missing
    program, a timeout or a cancel: the result says (``not_found``, ``timed_out``,
    ``cancelled``; ``returncode`` None then)."""
    if elevated and sys.platform == "win32":  # pragma: no cover - Windows
        return run_elevated_windows(argv, cancelled, cwd)
    reset_dll_directory()
    try:
        process = subprocess.Popen(
            argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            env=stream_environment(env), cwd=cwd, **popen_kwargs())
    except OSError as exc:
        return CommandResult(tuple(argv), None, "", exc.strerror or str(exc), not_found=True)
    lines: queue.Queue[Optional[str]] = queue.Queue()
    reader = threading.Thread(target=_read_lines, args=(process, lines), daemon=True,
                              name="stream-reader")
    reader.start()
    kept = _Tail()
    try:
        stop = _wait(process, lines, kept, on_line, cancelled, timeout)
    except BaseException:  # Ctrl-C, or on_line raised: never leave the tree running
        kill_tree(process)
        raise
    if stop:
        kill_tree(process)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=10)
    reader.join(timeout=2)  # a grandchild outside the group may still hold the pipe
    _drain(lines, kept, on_line)
    returncode = None if stop else process.returncode
    return CommandResult(tuple(argv), returncode, kept.text(), "",
                         timed_out=stop == "timeout", cancelled=stop == "cancelled")


def _wait(process: subprocess.Popen, lines: queue.Queue[Optional[str]], kept: _Tail,
          on_line: Optional[LineFn], cancelled: Optional[CancelledFn],
          timeout: Optional[float]) -> Optional[str]:
    """Hand on lines until the output ends and the process exits; "cancelled" or "timeout"
    when it has to be stopped first."""
    deadline = None if timeout is None else time.monotonic() + timeout
    ended = False
    exited_at: Optional[float] = None
    while True:
        try:
            line = lines.get(timeout=POLL_S)
        except queue.Empty:
            line = ""
        else:
            if line is None:
                ended = True
            else:
                kept.add(line)
                if on_line is not None:
                    on_line(line)
        if process.poll() is not None:
            if ended:
                return None
            exited_at = exited_at or time.monotonic()
            if time.monotonic() - exited_at > EXIT_GRACE_S:
                return None  # a grandchild left running holds the pipe: the program is done
        if cancelled is not None and cancelled():
            return "cancelled"
        if deadline is not None and time.monotonic() >= deadline:
            return "timeout"


def _read_lines(process: subprocess.Popen, lines: queue.Queue[Optional[str]]) -> None:
    """The reader thread: the child's output cut into lines; None when it ends."""
    stream = process.stdout
    assert stream is not None
    pending = b""
    try:
        while True:
            chunk = stream.read1(65536) if hasattr(stream, "read1") else stream.read(4096)
            if not chunk:
                break
            pending += chunk
            pending = _split(pending, lines)
    except (OSError, ValueError):
        pass
    finally:
        if pending.strip():
            lines.put(decode_output(pending).rstrip("\r\n"))
        lines.put(None)
        with contextlib.suppress(OSError):
            stream.close()


def _split(data: bytes, lines: queue.Queue[Optional[str]]) -> bytes:
    """Put every complete line of ``data`` (ended by ``\\n`` or ``\\r``) on the queue; return
    the rest. Empty lines (``\\r\\n`` pairs) are dropped."""
    start = 0
    for index, byte in enumerate(data):
        if byte in (10, 13):
            piece = data[start:index]
            if piece.strip():
                lines.put(decode_output(piece))
            start = index + 1
    return data[start:]


def _drain(lines: queue.Queue[Optional[str]], kept: _Tail, on_line: Optional[LineFn]) -> None:
    while True:
        try:
            line = lines.get_nowait()
        except queue.Empty:
            return
        if line is not None:
            kept.add(line)
            if on_line is not None:
                on_line(line)


class _Tail:
    """The last ``KEEP_CHARS`` characters of the output."""

    def __init__(self) -> None:
        self._parts: list[str] = []
        self._size = 0

    def add(self, line: str) -> None:
        self._parts.append(line)
        self._size += len(line) + 1
        while self._size > KEEP_CHARS and len(self._parts) > 1:
            self._size -= len(self._parts.pop(0)) + 1

    def text(self) -> str:
        return "\n".join(self._parts) + ("\n" if self._parts else "")


def run_elevated_windows(argv: list[str], cancelled: Optional[CancelledFn],
                          cwd: Optional[str]) -> CommandResult:  # pragma: no cover - Windows
    """``argv`` through the UAC prompt; waits, polling ``cancelled``; the exit status."""
    import ctypes
    from ctypes import wintypes

    class ShellExecuteInfo(ctypes.Structure):
        _fields_ = [("cbSize", wintypes.DWORD), ("fMask", ctypes.c_ulong),
                    ("hwnd", wintypes.HWND), ("lpVerb", wintypes.LPCWSTR),
                    ("lpFile", wintypes.LPCWSTR), ("lpParameters", wintypes.LPCWSTR),
                    ("lpDirectory", wintypes.LPCWSTR), ("nShow", ctypes.c_int),
                    ("hInstApp", wintypes.HINSTANCE), ("lpIDList", ctypes.c_void_p),
                    ("lpClass", wintypes.LPCWSTR), ("hkeyClass", wintypes.HKEY),
                    ("dwHotKey", wintypes.DWORD), ("hIconOrMonitor", wintypes.HANDLE),
                    ("hProcess", wintypes.HANDLE)]

    info = ShellExecuteInfo()
    info.cbSize = ctypes.sizeof(info)
    info.fMask = 0x00000040  # SEE_MASK_NOCLOSEPROCESS
    info.lpVerb, info.lpFile = "runas", argv[0]
    info.lpParameters = subprocess.list2cmdline(argv[1:])
    info.lpDirectory = cwd or os.path.dirname(argv[0]) or None
    info.nShow = 0
    windll = ctypes.windll  # type: ignore[attr-defined]
    if not windll.shell32.ShellExecuteExW(ctypes.byref(info)) or not info.hProcess:
        # 1223: the user declined the prompt
        return CommandResult(tuple(argv), None, "", "elevation declined", not_found=True)
    stopped = False
    try:
        while windll.kernel32.WaitForSingleObject(info.hProcess, int(POLL_S * 1000)) == 0x102:
            if cancelled is not None and cancelled():
                windll.kernel32.TerminateProcess(info.hProcess, 1)
                stopped = True
                break
        code = wintypes.DWORD()
        windll.kernel32.GetExitCodeProcess(info.hProcess, ctypes.byref(code))
    finally:
        windll.kernel32.CloseHandle(info.hProcess)
    if stopped:
        return CommandResult(tuple(argv), None, cancelled=True)
    return CommandResult(tuple(argv), int(code.value))
