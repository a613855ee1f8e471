"""The Host: the only way core code touches the machine (DESIGN sections 2 and 3).

* :class:`LocalHost` reads the real machine (Linux, WSL2, Windows).
* :class:`ReplayHost` answers from a machine profile, so that a Windows laptop with a
  half-copied cuDNN can be replayed on Linux, in tests and in demo mode.
* :class:`RecordingHost` wraps a LocalHost and writes down what was asked and answered; the
  recording is the profile ``gpu-wizard snapshot`` saves, so a snapshot replays to the same report.

Paths are strings in the host's own syntax (``host.path`` is ``ntpath`` or ``posixpath``).
"""

from __future__ import annotations

import fnmatch
import json
import ntpath
import os
import platform as _platform
import posixpath
import re
import shutil
import subprocess
import sys
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Optional

from wizard.core import redact, schema
from wizard.core.schema import NVML_ERRORS  # noqa: F401 - part of this module's interface

PROFILE_FORMAT = "gpu-wizard/profile@1"
DEFAULT_TIMEOUT = 15.0


class HostError(Exception):
    """A problem reading the machine that a layer should turn into a finding."""


class ProfileError(HostError):
    """A machine profile that cannot be used; the message names the file and the key."""


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

    # -- commands ----------------------------------------------------------------------------
    @abstractmethod
    def run(self, argv: list[str], timeout: float = DEFAULT_TIMEOUT) -> CommandResult:
        """Run a program (no shell). Never raises for a missing program or a timeout."""

    # -- GPU ---------------------------------------------------------------------------------
    @abstractmethod
    def nvml(self) -> dict[str, Any]:
        """What NVML reports, in the profile's ``nvml`` shape."""

    @abstractmethod
    def pci_devices(self) -> list[dict[str, Any]]:
        """Display-class PCI devices, in the profile's ``pci`` shape."""

    # -- Python environments -----------------------------------------------------------------
    @abstractmethod
    def pythons(self) -> list[dict[str, Any]]:
        """Known Python environments: ``[{"executable": ..., "probe": {...} or None}]``."""

    @abstractmethod
    def probe_python(
        self, executable: str, timeout: float = 120.0, cancelled: Optional[CancelledFn] = None
    ) -> dict[str, Any]:
        """Run the environment probe in ``executable``; its JSON, or ``{"error": ...}``.
        ``cancelled()`` turning true stops a running probe (the process tree is killed)."""


def norm_path(path: str, windows: bool) -> str:
    if windows:
        path = path.replace("/", "\\")
        path = ntpath.normpath(path).rstrip("\\") if len(path) > 3 else path.rstrip("\\") + "\\"
        return path.lower()
    return posixpath.normpath(path) if path else path


# ======================================================================================
# ReplayHost
# ======================================================================================


class ReplayHost(Host):
    """Answers every question from a machine profile (DESIGN section 3)."""

    def __init__(self, profile: dict[str, Any], source: str = "<profile>") -> None:
        try:
            schema.validate(profile, schema.PROFILE)
        except schema.SchemaError as exc:
            raise ProfileError(f"{source}: {exc}") from None
        self.source = source
        self.profile = profile
        self.name = str(profile.get("name", Path(source).stem))
        self.description = str(profile.get("description", ""))
        super().__init__(platform=_parse_platform(profile))
        windows = self.is_windows
        self._env = dict(profile.get("env") or {})
        self._files: dict[str, Optional[str]] = {}
        self._dirs: dict[str, set[str]] = {}
        for raw_path, content in (profile.get("files") or {}).items():
            self._add_file(raw_path, content, windows)
        self._denied = {norm_path(p, windows) for p in profile.get("denied") or []}
        self._registry = {_norm_key(k): v for k, v in (profile.get("registry") or {}).items()}
        self._commands = list(profile.get("commands") or [])
        self._nvml = profile.get("nvml") or {"error": "library_not_found"}
        self._pci = list(profile.get("pci") or [])
        self._pythons = list(profile.get("pythons") or [])
        self.monitor = profile.get("monitor")

    @classmethod
    def from_file(cls, path: str | os.PathLike[str]) -> ReplayHost:
        source = str(path)
        try:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
        except OSError as exc:
            reason = exc.strerror or exc
            raise ProfileError(f"{source}: cannot read the profile ({reason})") from exc
        except UnicodeDecodeError as exc:
            raise ProfileError(f"{source}: the profile is not UTF-8 text ({exc.reason})") from exc
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ProfileError(
                f"{source}: not valid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
            ) from exc
        if not isinstance(data, dict):
            raise ProfileError(f"{source}: a profile must be a JSON object")
        if data.get("format") != PROFILE_FORMAT:
            raise ProfileError(
                f"{source}: key 'format' is {data.get('format')!r}; expected {PROFILE_FORMAT!r}"
            )
        return cls(data, source)

    def _add_file(self, raw_path: str, content: Optional[str], windows: bool) -> None:
        key = norm_path(raw_path, windows)
        self._files[key] = content
        mod = ntpath if windows else posixpath
        child, parent = key, mod.dirname(key)
        original = raw_path.replace("/", "\\") if windows else raw_path
        name = mod.basename(original.rstrip("\\/"))
        while parent and parent != child:
            self._dirs.setdefault(parent, set()).add(name)
            child, parent = parent, mod.dirname(parent)
            original = mod.dirname(original.rstrip("\\/"))
            name = mod.basename(original.rstrip("\\/"))

    def _key(self, path: str) -> str:
        return norm_path(path, self.is_windows)

    def env(self) -> dict[str, str]:
        return dict(self._env)

    def exists(self, path: str) -> bool:
        key = self._key(path)
        return key in self._files or key in self._dirs

    def is_dir(self, path: str) -> bool:
        return self._key(path) in self._dirs

    def read_text(self, path: str, max_bytes: int = 1 << 20) -> Optional[str]:
        key = self._key(path)
        if key in self._denied:
            return None
        content = self._files.get(key)
        return content[:max_bytes] if content is not None else None

    def listdir(self, path: str) -> list[str]:
        key = self._key(path)
        if key in self._denied:
            return []
        return sorted(self._dirs.get(key, ()))

    def can_open(self, path: str) -> bool:
        key = self._key(path)
        return key in self._files and key not in self._denied

    def registry_values(self, key: str) -> dict[str, tuple[str, Any]]:
        values = self._registry.get(_norm_key(key), {})
        result = {}
        for name, value in values.items():
            if isinstance(value, list) and len(value) == 2:
                result[name] = (str(value[0]), value[1])
        return result

    def registry_subkeys(self, key: str) -> list[str]:
        prefix = _norm_key(key) + "\\"
        names = set()
        for stored in self._registry:
            if stored.startswith(prefix):
                names.add(stored[len(prefix):].split("\\", 1)[0])
        return sorted(names)

    def run(self, argv: list[str], timeout: float = DEFAULT_TIMEOUT) -> CommandResult:
        wanted = [_command_name(argv[0], self.is_windows), *argv[1:]]
        for entry in self._commands:
            recorded = entry["argv"]
            if not recorded:
                continue
            if [_command_name(recorded[0], self.is_windows), *recorded[1:]] == wanted:
                if entry.get("timed_out"):
                    return CommandResult(tuple(argv), None, "", "", timed_out=True)
                return CommandResult(
                    tuple(argv),
                    entry.get("returncode", 0),
                    str(entry.get("stdout", "")),
                    str(entry.get("stderr", "")),
                )
        return CommandResult(tuple(argv), None, not_found=True)

    def which(self, program: str) -> Optional[str]:
        found = super().which(program)
        if found:
            return found
        name = _command_name(program, self.is_windows)
        for entry in self._commands:
            if entry["argv"] and _command_name(entry["argv"][0], self.is_windows) == name:
                return entry["argv"][0]
        return None

    def nvml(self) -> dict[str, Any]:
        return json.loads(json.dumps(self._nvml))

    def pci_devices(self) -> list[dict[str, Any]]:
        return [dict(d) for d in self._pci]

    def pythons(self) -> list[dict[str, Any]]:
        return [dict(p) for p in self._pythons]

    def probe_python(
        self, executable: str, timeout: float = 120.0, cancelled: Optional[CancelledFn] = None
    ) -> dict[str, Any]:
        for entry in self._pythons:
            if self.same_path(entry["executable"], executable):
                probe = entry.get("probe")
                if isinstance(probe, dict):
                    return json.loads(json.dumps(probe))
                return {"error": "no probe recorded for this interpreter in the profile"}
        return {"error": f"{executable} is not in the profile's pythons"}


def _parse_platform(profile: dict) -> PlatformInfo:
    """The profile's platform; its shape was checked by :data:`schema.PROFILE`."""
    plat = profile["platform"]
    return PlatformInfo(
        system=plat["system"],
        release=str(plat.get("release", "")),
        arch=str(plat.get("arch", "x86_64")),
        wsl=plat.get("wsl"),
        distro=plat.get("distro"),
    )


def _norm_key(key: str) -> str:
    key = key.replace("/", "\\").strip("\\")
    for long, short in (("HKEY_LOCAL_MACHINE", "HKLM"), ("HKEY_CURRENT_USER", "HKCU")):
        if key.upper().startswith(long):
            key = short + key[len(long):]
    return key.lower()


def _command_name(program: str, windows: bool) -> str:
    name = re.split(r"[\\/]", program)[-1]
    if name.lower().endswith(".exe"):
        name = name[:-4]
    return name.lower() if windows else name


# ======================================================================================
# LocalHost
# ======================================================================================


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


def decode_output(data: bytes) -> str:
    """Command output as text: UTF-8 first, then the Windows ANSI/OEM code pages (GBK on a
    Chinese Windows), never an exception."""
    if not data:
        return ""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    for encoding in ("mbcs", "oem", "gbk"):
        try:
            return data.decode(encoding)
        except (UnicodeDecodeError, LookupError):
            continue
    return data.decode("utf-8", errors="replace")


def child_environment(base: Optional[dict[str, str]] = None) -> dict[str, str]:
    """The environment for a child process: in a frozen (PyInstaller) build, restore the library
    path the bundle changed, so the user's Python and tools load their own libraries."""
    env = dict(os.environ if base is None else base)
    if getattr(sys, "frozen", False):
        for var in ("LD_LIBRARY_PATH", "DYLD_LIBRARY_PATH"):
            original = env.pop(var + "_ORIG", None)
            if original is not None:
                env[var] = original
            else:
                env.pop(var, None)
        for var in ("TCL_LIBRARY", "TK_LIBRARY", "QT_PLUGIN_PATH", "QML2_IMPORT_PATH"):
            env.pop(var, None)
    return env


def _reset_dll_directory() -> None:
    """PyInstaller calls SetDllDirectory(bundle) on Windows; children inherit it unless reset."""
    if sys.platform == "win32" and getattr(sys, "frozen", False):
        try:
            import ctypes

            ctypes.windll.kernel32.SetDllDirectoryW(None)  # type: ignore[attr-defined]
        except (ImportError, AttributeError, OSError):
            pass


class LocalHost(Host):
    """The real machine this process runs on."""

    def __init__(self) -> None:
        super().__init__(platform=detect_platform())
        _reset_dll_directory()

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
        from wizard.core import winreg_access

        return winreg_access.read_values(key)

    def registry_subkeys(self, key: str) -> list[str]:
        from wizard.core import winreg_access

        return winreg_access.subkeys(key)

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
        from wizard.core import nvml_query

        return nvml_query.query_nvml()

    def pci_devices(self) -> list[dict[str, Any]]:
        from wizard.core import pci

        return pci.list_display_devices(self)

    def pythons(self) -> list[dict[str, Any]]:
        from wizard.core import envs

        return envs.listing(self)

    def probe_python(
        self, executable: str, timeout: float = 120.0, cancelled: Optional[CancelledFn] = None
    ) -> dict[str, Any]:
        from wizard.core import probe

        return probe.run_probe(executable, timeout=timeout, cancelled=cancelled)


# ======================================================================================
# RecordingHost
# ======================================================================================


@dataclass
class RecordingHost(Host):
    """A LocalHost that writes down what it answered, as a machine profile."""

    inner: Host = field(default=None)  # type: ignore[assignment]
    files: dict[str, Optional[str]] = field(default_factory=dict)
    registry: dict[str, dict[str, list[Any]]] = field(default_factory=dict)
    commands: list[dict[str, Any]] = field(default_factory=list)
    denied: set[str] = field(default_factory=set)
    _nvml: Optional[dict[str, Any]] = None
    _pci: Optional[list[dict[str, Any]]] = None
    _pythons: dict[str, dict[str, Any]] = field(default_factory=dict)

    @classmethod
    def wrap(cls, inner: Host) -> RecordingHost:
        return cls(platform=inner.platform, inner=inner)

    def _record_existing(self, path: str) -> None:
        """Record ``path`` so that it exists in the replay: a file as null, a directory through
        one file found below it (directories exist exactly when a file lies below)."""
        prefix = path.rstrip("\\/") + self.path.sep
        if path in self.files or any(k.startswith(prefix) for k in self.files):
            return
        if not self.inner.is_dir(path):
            self.files.setdefault(path, None)
            return
        below = _first_file_below(self.inner, path)
        if below:
            self.files.setdefault(below, None)

    def env(self) -> dict[str, str]:
        return self.inner.env()

    def exists(self, path: str) -> bool:
        found = self.inner.exists(path)
        if found:
            self._record_existing(path)
        return found

    def is_dir(self, path: str) -> bool:
        found = self.inner.is_dir(path)
        if found:
            self._record_existing(path)
        return found

    def read_text(self, path: str, max_bytes: int = 1 << 20) -> Optional[str]:
        text = self.inner.read_text(path, max_bytes)
        if text is not None:
            self.files[path] = text
        elif self.inner.exists(path):
            self._record_existing(path)
        return text

    def listdir(self, path: str) -> list[str]:
        names = self.inner.listdir(path)
        for name in names:
            self._record_existing(self.join(path, name))
        return names

    def can_open(self, path: str) -> bool:
        allowed = self.inner.can_open(path)
        if self.inner.exists(path):
            self._record_existing(path)
            if not allowed:
                self.denied.add(path)
        return allowed

    def registry_values(self, key: str) -> dict[str, tuple[str, Any]]:
        values = self.inner.registry_values(key)
        if values:
            self.registry.setdefault(key, {}).update({k: [t, d] for k, (t, d) in values.items()})
        return values

    def registry_subkeys(self, key: str) -> list[str]:
        names = self.inner.registry_subkeys(key)
        for name in names:
            self.registry.setdefault(key + "\\" + name, {})
        return names

    def run(self, argv: list[str], timeout: float = DEFAULT_TIMEOUT) -> CommandResult:
        result = self.inner.run(argv, timeout)
        if not result.not_found:
            entry: dict[str, Any] = {
                "argv": list(argv),
                "returncode": result.returncode,
                "stdout": result.stdout,
                "stderr": result.stderr,
            }
            if result.timed_out:
                entry["timed_out"] = True
            self.commands.append(entry)
        return result

    def nvml(self) -> dict[str, Any]:
        if self._nvml is None:
            self._nvml = self.inner.nvml()
        return json.loads(json.dumps(self._nvml))

    def pci_devices(self) -> list[dict[str, Any]]:
        if self._pci is None:
            self._pci = self.inner.pci_devices()
        return [dict(d) for d in self._pci]

    def pythons(self) -> list[dict[str, Any]]:
        found = self.inner.pythons()
        for entry in found:
            self._pythons.setdefault(entry["executable"], {"executable": entry["executable"],
                                                           "probe": None})
        return found

    def probe_python(
        self, executable: str, timeout: float = 120.0, cancelled: Optional[CancelledFn] = None
    ) -> dict[str, Any]:
        result = self.inner.probe_python(executable, timeout, cancelled)
        entry = self._pythons.setdefault(executable, {"executable": executable})
        entry["probe"] = result
        return result

    def note_python_score(self, executable: str, score: int) -> None:
        """Keep the discovery score of a probed environment, so the replay picks the same one."""
        entry = self._pythons.setdefault(executable, {"executable": executable, "probe": None})
        entry["score"] = score

    def which(self, program: str) -> Optional[str]:
        found = self.inner.which(program)
        if found:
            self._record_existing(found)
        return found

    def profile(self, name: str = "snapshot", description: str = "") -> dict[str, Any]:
        """The recording as a machine profile: only the variables the checks read, and every
        credential in the recorded texts masked (:mod:`wizard.core.redact`)."""
        profile: dict[str, Any] = {
            "format": PROFILE_FORMAT,
            "name": name,
            "description": description,
            "platform": self.platform.to_dict(),
            "env": redact.redact_env(self.env()),
            "files": dict(sorted(self.files.items())),
            "commands": self.commands,
            "nvml": self.nvml(),
            "pci": self.pci_devices(),
            "pythons": list(self._pythons.values()),
        }
        if self.registry:
            profile["registry"] = self.registry
        if self.denied:
            profile["denied"] = sorted(self.denied)
        return redact.mask_everywhere(profile)


def _first_file_below(host: Host, directory: str, depth: int = 6) -> Optional[str]:
    for name in host.listdir(directory)[:200]:
        candidate = host.join(directory, name)
        if not host.is_dir(candidate):
            return candidate
    if depth <= 0:
        return None
    for name in host.listdir(directory)[:50]:
        candidate = host.join(directory, name)
        if host.is_dir(candidate):
            found = _first_file_below(host, candidate, depth - 1)
            if found:
                return found
    return None


ProgressFn = Callable[[float, str], None]
CancelledFn = Callable[[], bool]
