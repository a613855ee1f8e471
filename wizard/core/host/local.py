"""LocalHost: the real machine this process runs on (Linux, WSL2, Windows)."""

from __future__ import annotations

import os
import platform as _platform
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, Optional

from wizard.core.host import nvml, pci, probe, registry, windows
from wizard.core.host.base import DEFAULT_TIMEOUT, CancelledFn, CommandResult, Host, PlatformInfo
from wizard.core.host.probe_result import ProbeResult
from wizard.core.host.process import child_environment, decode_output, reset_dll_directory


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


class LocalHost(Host):
    """The real machine this process runs on."""

    def __init__(self) -> None:
        super().__init__(platform=detect_platform())
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
        return registry.read_values(key)

    def registry_subkeys(self, key: str) -> list[str]:
        return registry.subkeys(key)

    def run(self, argv: list[str], timeout: float = DEFAULT_TIMEOUT) -> CommandResult:
        program = shutil.which(argv[0]) or argv[0]
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

    def which(self, program: str) -> Optional[str]:
        return shutil.which(program)

    def nvml(self) -> dict[str, Any]:
        return nvml.query_nvml()

    def pci_devices(self) -> list[dict[str, Any]]:
        return pci.list_display_devices(self)

    def probe_python(
        self, executable: str, timeout: float = 120.0, cancelled: Optional[CancelledFn] = None
    ) -> ProbeResult:
        fresh = (windows.registry_path_entries(self) or None) if self.is_windows else None
        return probe.run_probe(executable, timeout=timeout, cancelled=cancelled, fresh_path=fresh)
