"""LocalHost: the real machine this process runs on (Linux, WSL2, Windows)."""

from __future__ import annotations

import contextlib
import os
import platform as _platform
import shutil
import subprocess
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, BinaryIO, Callable, Optional

from wizard.core.host import nvml, pci, registry, windows
from wizard.core.host.base import DEFAULT_TIMEOUT, CancelledFn, CommandResult, Host, PlatformInfo
from wizard.core.host.probe_result import ProbeResult
from wizard.core.host.process import child_environment, decode_output, reset_dll_directory


def temp_name(path: str) -> str:
    """The hidden file beside ``path`` that an atomic write goes through."""
    head, tail = os.path.split(path)
    return os.path.join(head, f".{tail}.gpu-wizard-tmp")


def detect_platform() -> PlatformInfo:
    system = "windows" if sys.platform == "win32" else "linux"
    release = _platform.release() if system == "linux" else _platform.version()
    wsl: Optional[int] = None
    distro: Optional[str] = None
    if system == "linux":
        lowered = release.lower()
        if "microsoft" in lowered or os.path.exists("/proc/sys/fs/binfmt_misc/WSLInterop"):
            wsl = 2 if ("wsl2" in lowered or os.path.exists("/dev/dxg")) else 1
            if "microsoft-standard" in lowered:
                wsl = 2
        distro = _os_release_name()
    arch = _platform.machine().lower() or "x86_64"
    if arch == "amd64":
        arch = "x86_64"
    return PlatformInfo(system=system, release=release, arch=arch, wsl=wsl, distro=distro)


def _os_release_name() -> Optional[str]:
    try:
        text = Path("/etc/os-release").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    fields = dict(
        line.split("=", 1) for line in text.splitlines() if "=" in line and not line.startswith("#")
    )
    name = fields.get("NAME", "").strip('"')
    version = fields.get("VERSION_ID", "").strip('"')
    return f"{name} {version}".strip() or None


def not_on_path(program: str, env: Optional[dict[str, str]] = None) -> bool:
    """True when starting ``program`` could only fail with "not found": a bare name (POSIX) that
    no folder of the child's PATH holds. The answer ``run`` would give after a fork and a failed
    exec (``nvidia-smi`` on a machine without an NVIDIA driver), without starting a process.

    False on Windows (CreateProcess also looks in the program's and the system folders) and
    whenever something of that name exists: exec decides then (a file it may not run is a
    ``PermissionError`` with its text)."""
    if sys.platform == "win32" or os.sep in program or (os.altsep and os.altsep in program):
        return False
    folders = os.get_exec_path(child_environment() if env is None else env)
    return not any(os.path.exists(os.path.join(folder, program)) for folder in folders)


class LocalHost(Host):
    """The real machine this process runs on."""

    def __init__(self, platform: Optional[PlatformInfo] = None, registry_backend: Any = None
                 ) -> None:
        """``registry_backend``: an object with the functions of :mod:`registry` (default: the
        real registry); tests give a :class:`registry.MemoryRegistry` and a Windows
        ``platform`` to run the Windows fixes on Linux."""
        super().__init__(platform=platform or detect_platform())
        self._registry = registry_backend if registry_backend is not None else registry
        reset_dll_directory()

    @property
    def is_live(self) -> bool:
        return True

    def env(self) -> dict[str, str]:
        return dict(os.environ)

    def exists(self, path: str) -> bool:
        return os.path.lexists(path)

    def is_dir(self, path: str) -> bool:
        return os.path.isdir(path)

    def read_text(self, path: str, max_bytes: int = 1 << 20) -> Optional[str]:
        try:
            with open(path, "rb") as handle:
                data = handle.read(max_bytes)
        except OSError:
            return None
        if b"\0" in data[:8192]:
            return None
        return decode_output(data)

    def listdir(self, path: str) -> list[str]:
        try:
            return sorted(os.listdir(path))
        except OSError:
            return []

    def can_open(self, path: str) -> bool:
        return os.path.exists(path) and os.access(path, os.R_OK | os.W_OK)

    def registry_values(self, key: str) -> dict[str, tuple[str, Any]]:
        return self._registry.read_values(key)

    def registry_subkeys(self, key: str) -> list[str]:
        return self._registry.subkeys(key)

    # -- writing -------------------------------------------------------------------------------
    @property
    def can_write(self) -> bool:
        return True

    def open_binary(self, path: str) -> BinaryIO:
        return open(path, "rb")

    def write_file(self, path: str, chunks: Iterable[bytes], temp: Optional[str] = None) -> None:
        temp = temp or temp_name(path)
        try:
            with open(temp, "wb") as handle:
                for chunk in chunks:
                    handle.write(chunk)
                handle.flush()
                os.fsync(handle.fileno())
            if os.path.lexists(path) and os.path.isdir(path) and not os.path.islink(path):
                raise IsADirectoryError(21, "Is a directory", path)
            if os.path.isfile(path) and not os.path.islink(path):  # keep the file's mode
                os.chmod(temp, os.stat(path).st_mode & 0o7777)
            os.replace(temp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.remove(temp)
            raise

    def make_symlink(self, target: str, path: str, temp: Optional[str] = None) -> None:
        temp = temp or temp_name(path)
        with contextlib.suppress(FileNotFoundError):
            os.remove(temp)
        os.symlink(target, temp)
        try:
            os.replace(temp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.remove(temp)
            raise

    def make_dir(self, path: str) -> None:
        os.mkdir(path)

    def remove_file(self, path: str) -> None:
        with contextlib.suppress(FileNotFoundError):
            os.remove(path)

    def remove_dir(self, path: str) -> None:
        with contextlib.suppress(FileNotFoundError):
            os.rmdir(path)

    def is_link(self, path: str) -> bool:
        return os.path.islink(path)

    def read_link(self, path: str) -> str:
        return os.readlink(path)

    def dir_writable(self, path: str) -> bool:
        current = os.path.abspath(path)
        while not os.path.exists(current):
            parent = os.path.dirname(current)
            if parent == current:
                return False
            current = parent
        return os.path.isdir(current) and os.access(current, os.W_OK | os.X_OK)

    def set_registry_value(self, key: str, name: str, kind: str, data: Any) -> None:
        self._registry.set_value(key, name, kind, data)

    def delete_registry_value(self, key: str, name: str) -> None:
        self._registry.delete_value(key, name)

    def broadcast_environment_change(self) -> None:
        if self.is_windows:
            self._registry.broadcast_environment_change()

    def run(self, argv: list[str], timeout: float = DEFAULT_TIMEOUT) -> CommandResult:
        program = shutil.which(argv[0]) or argv[0]
        if program == argv[0] and not_on_path(program):
            return CommandResult(tuple(argv), None, not_found=True)
        kwargs: dict[str, Any] = {}
        if sys.platform == "win32":
            kwargs["creationflags"] = getattr(subprocess, "CREATE_NO_WINDOW", 0)
        try:
            completed = subprocess.run(
                [program, *argv[1:]],
                capture_output=True,
                stdin=subprocess.DEVNULL,
                timeout=timeout,
                env=child_environment(),
                check=False,
                **kwargs,
            )
        except FileNotFoundError:
            return CommandResult(tuple(argv), None, not_found=True)
        except PermissionError as exc:
            return CommandResult(tuple(argv), None, "", str(exc), not_found=True)
        except subprocess.TimeoutExpired as exc:
            return CommandResult(
                tuple(argv),
                None,
                decode_output(exc.stdout or b""),
                decode_output(exc.stderr or b""),
                timed_out=True,
            )
        except OSError as exc:
            return CommandResult(tuple(argv), None, "", str(exc), not_found=True)
        return CommandResult(
            tuple(argv),
            completed.returncode,
            decode_output(completed.stdout),
            decode_output(completed.stderr),
        )

    def run_streaming(
        self,
        argv: list[str],
        on_line: Optional[Callable[[str], None]] = None,
        cancelled: Optional[CancelledFn] = None,
        env: Optional[Mapping[str, str]] = None,
        cwd: Optional[str] = None,
        timeout: Optional[float] = None,
        elevated: bool = False,
    ) -> CommandResult:
        from wizard.core.host import stream  # with probe's process-tree code: only when used

        return stream.run_streaming(argv, on_line, cancelled, env, cwd, timeout, elevated)

    def which(self, program: str) -> Optional[str]:
        return shutil.which(program)

    def nvml(self) -> dict[str, Any]:
        return nvml.query_nvml()

    def pci_devices(self) -> list[dict[str, Any]]:
        return pci.list_display_devices(self)

    def probe_python(
        self, executable: str, timeout: float = 120.0, cancelled: Optional[CancelledFn] = None
    ) -> ProbeResult:
        # imported here: a check that finds no Python environment never needs it (nor its
        # thread pool), and the check without environments is meant to take under 0.1 s
        from wizard.core.host import probe

        fresh = (windows.registry_path_entries(self) or None) if self.is_windows else None
        return probe.run_probe(executable, timeout=timeout, cancelled=cancelled, fresh_path=fresh)
