"""The Host interface: what core code may ask of a machine (DESIGN sections 2 and 3).

Paths are strings in the host's own syntax (``host.path`` is ``ntpath`` or ``posixpath``).
"""

from __future__ import annotations

import fnmatch
import ntpath
import posixpath
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, BinaryIO, Callable, Optional

from wizard.core.host.probe_result import ProbeResult

PROFILE_FORMAT = "gpu-wizard/profile@1"
DEFAULT_TIMEOUT = 15.0


class HostError(Exception):
    """A problem reading the machine that a layer should turn into a finding."""


class ProfileError(HostError):
    """A machine profile that cannot be used; the message names the file and the key."""


class ReadOnlyHost(HostError):
    """A write asked of a host that changes nothing (a replayed profile: demo mode)."""


@dataclass(frozen=True)
class PlatformInfo:
    system: str  # "windows" | "linux"
    release: str = ""
    arch: str = "x86_64"
    wsl: Optional[int] = None  # None, 1 or 2
    distro: Optional[str] = None

    @property
    def os_kind(self) -> str:
        """``windows``, ``wsl2`` or ``linux``: the three paths the wizard knows."""
        if self.system == "windows":
            return "windows"
        return "wsl2" if self.wsl else "linux"

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "system": self.system,
            "release": self.release,
            "arch": self.arch,
            "wsl": self.wsl,
        }
        if self.distro:
            data["distro"] = self.distro
        return data


@dataclass(frozen=True)
class CommandResult:
    argv: tuple[str, ...]
    returncode: Optional[int]
    """None when the program was not found or timed out."""
    stdout: str = ""
    stderr: str = ""
    not_found: bool = False
    timed_out: bool = False
    cancelled: bool = False
    """A streaming run stopped by its ``cancelled()`` (the process tree was killed)."""

    @property
    def ok(self) -> bool:
        return self.returncode == 0


@dataclass
class Host(ABC):
    """What the layers may ask of a machine. Subclasses answer from the real one or a profile."""

    platform: PlatformInfo

    # -- paths -------------------------------------------------------------------------------
    @property
    def is_windows(self) -> bool:
        return self.platform.system == "windows"

    @property
    def path(self):  # noqa: ANN201 - a module
        """``ntpath`` on Windows, ``posixpath`` elsewhere."""
        return ntpath if self.is_windows else posixpath

    @property
    def pathsep(self) -> str:
        return ";" if self.is_windows else ":"

    def join(self, *parts: str) -> str:
        return self.path.join(*parts)

    def same_path(self, a: str, b: str) -> bool:
        return norm_path(a, self.is_windows) == norm_path(b, self.is_windows)

    # -- environment -------------------------------------------------------------------------
    @abstractmethod
    def env(self) -> dict[str, str]:
        """A copy of the process environment (names as the machine spells them)."""

    def getenv(self, name: str, default: Optional[str] = None) -> Optional[str]:
        env = self.env()
        if name in env:
            return env[name]
        if self.is_windows:
            upper = name.upper()
            for key, value in env.items():
                if key.upper() == upper:
                    return value
        return default

    def path_entries(self, variable: str = "PATH") -> list[str]:
        value = self.getenv(variable) or ""
        return [entry.strip().strip('"') for entry in value.split(self.pathsep) if entry.strip()]

    # -- files -------------------------------------------------------------------------------
    @abstractmethod
    def exists(self, path: str) -> bool: ...

    @abstractmethod
    def is_dir(self, path: str) -> bool: ...

    def is_file(self, path: str) -> bool:
        return self.exists(path) and not self.is_dir(path)

    @abstractmethod
    def read_text(self, path: str, max_bytes: int = 1 << 20) -> Optional[str]:
        """The file's text, or None when it is absent, unreadable or binary/not recorded."""

    @abstractmethod
    def listdir(self, path: str) -> list[str]:
        """Entry names in a directory; [] when it is absent or unreadable."""

    @abstractmethod
    def can_open(self, path: str) -> bool:
        """True when the file exists and this user may open it for reading and writing."""

    def glob(self, directory: str, pattern: str) -> list[str]:
        """Full paths of the entries of ``directory`` whose name matches ``pattern``."""
        names = self.listdir(directory)
        if self.is_windows:
            matches = [n for n in names if fnmatch.fnmatch(n.lower(), pattern.lower())]
        else:
            matches = fnmatch.filter(names, pattern)
        return [self.join(directory, name) for name in sorted(matches)]

    def which(self, program: str) -> Optional[str]:
        """Where PATH would find ``program`` (``.exe`` added on Windows)."""
        names = [program]
        if self.is_windows and not program.lower().endswith(".exe"):
            names = [program + ".exe", program]
        for directory in self.path_entries():
            for name in names:
                candidate = self.join(directory, name)
                if self.is_file(candidate):
                    return candidate
        return None

    # -- registry (Windows) ------------------------------------------------------------------
    def registry_values(self, key: str) -> dict[str, tuple[str, Any]]:
        """Values of a registry key as ``{name: (type, data)}``; {} when absent or not Windows."""
        return {}

    def registry_subkeys(self, key: str) -> list[str]:
        """Names (not paths) of the key's sub-keys; [] when absent or not Windows."""
        return []

    # -- writing (the fixes) -------------------------------------------------------------------
    @property
    def can_write(self) -> bool:
        """False where nothing may be changed (a replayed profile: demo mode)."""
        return False

    def _refuse(self, what: str) -> None:
        raise ReadOnlyHost(f"{what}: this host changes nothing (demo mode)")

    def open_binary(self, path: str) -> BinaryIO:
        """The file opened for reading bytes (a fix reads its sources and its backups)."""
        self._refuse(f"open {path}")
        raise AssertionError  # unreachable

    def write_file(self, path: str, chunks: Iterable[bytes], temp: Optional[str] = None) -> None:
        """Write ``chunks`` to ``path`` atomically: into ``temp`` (default: a hidden file beside
        ``path``), flushed to disk, then renamed over ``path``. A failure leaves ``path`` as it
        was and removes the temporary file."""
        self._refuse(f"write {path}")

    def make_symlink(self, target: str, path: str, temp: Optional[str] = None) -> None:
        """Make ``path`` a symbolic link to ``target`` (atomically replacing what is there)."""
        self._refuse(f"link {path}")

    def make_dir(self, path: str) -> None:
        """Create one directory (its parent exists)."""
        self._refuse(f"create {path}")

    def remove_file(self, path: str) -> None:
        """Remove a file or a link; nothing when it is absent."""
        self._refuse(f"remove {path}")

    def remove_dir(self, path: str) -> None:
        """Remove an empty directory; nothing when it is absent."""
        self._refuse(f"remove {path}")

    def is_link(self, path: str) -> bool:
        return False

    def read_link(self, path: str) -> str:
        """Where the symbolic link ``path`` points."""
        self._refuse(f"read {path}")
        raise AssertionError  # unreachable

    def dir_writable(self, path: str) -> bool:
        """Whether this user may create files in ``path`` (or, when it does not exist yet, in
        the nearest folder above it that does)."""
        return False

    def set_registry_value(self, key: str, name: str, kind: str, data: Any) -> None:
        """Set a registry value with its type (``REG_EXPAND_SZ`` stays ``REG_EXPAND_SZ``)."""
        self._refuse(f"set {key}\\{name}")

    def delete_registry_value(self, key: str, name: str) -> None:
        """Delete a registry value; nothing when it is absent."""
        self._refuse(f"delete {key}\\{name}")

    def broadcast_environment_change(self) -> None:
        """Tell running programs (Explorer) that the environment changed (Windows:
        ``WM_SETTINGCHANGE`` with ``"Environment"``); nothing elsewhere."""
        return None

    # -- commands ----------------------------------------------------------------------------
    @abstractmethod
    def run(self, argv: list[str], timeout: float = DEFAULT_TIMEOUT) -> CommandResult:
        """Run a program (no shell). Never raises for a missing program or a timeout."""

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
        """Run a program that changes the machine (pip, conda, an installer) to its end: each
        output line to ``on_line`` as it comes, the whole process tree killed when
        ``cancelled()`` turns true or ``timeout`` passes (``cancelled`` / ``timed_out`` in the
        result), ``env`` added to the user's environment, ``elevated`` through the UAC prompt
        on Windows (see :mod:`wizard.core.host.stream`). A replayed profile refuses
        (:class:`ReadOnlyHost`): demo mode shows what would run, never runs it."""
        self._refuse("run " + " ".join(argv))
        raise AssertionError  # unreachable

    # -- GPU ---------------------------------------------------------------------------------
    @abstractmethod
    def nvml(self) -> dict[str, Any]:
        """What NVML reports, in the profile's ``nvml`` shape."""

    @abstractmethod
    def pci_devices(self) -> list[dict[str, Any]]:
        """Display-class PCI devices, in the profile's ``pci`` shape."""

    # -- what kind of host --------------------------------------------------------------------
    @property
    @abstractmethod
    def is_live(self) -> bool:
        """True when the answers come from the machine this process runs on (LocalHost, and a
        RecordingHost around it); False for a replayed profile."""

    @property
    def profile_name(self) -> Optional[str]:
        """The replayed profile's name (demo mode); None on a live machine."""
        return None

    # -- Python environments -----------------------------------------------------------------
    def recorded_pythons(self) -> Optional[list[dict[str, Any]]]:
        """The Python environments a profile recorded: ``[{"executable", "probe", "score"?}]``;
        None on a live machine, where :mod:`wizard.core.envs` discovers them."""
        return None

    def note_python(self, executable: str, score: Optional[int] = None) -> None:
        """Discovery found ``executable`` (with its discovery score): a RecordingHost keeps it,
        so the replay offers and picks the same environments. Others ignore it."""
        return None

    @abstractmethod
    def probe_python(
        self, executable: str, timeout: float = 120.0, cancelled: Optional[CancelledFn] = None
    ) -> ProbeResult:
        """Run the environment probe in ``executable``; its JSON, or ``{"error": ...}``.
        ``cancelled()`` turning true stops a running probe (the process tree is killed)."""


def norm_path(path: str, windows: bool) -> str:
    if windows:
        path = path.replace("/", "\\")
        path = ntpath.normpath(path).rstrip("\\") if len(path) > 3 else path.rstrip("\\") + "\\"
        return path.lower()
    return posixpath.normpath(path) if path else path


ProgressFn = Callable[[float, str], None]
CancelledFn = Callable[[], bool]
