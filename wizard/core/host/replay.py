"""ReplayHost: answers every question from a machine profile, so that a Windows laptop with a
half-copied cuDNN can be replayed on Linux, in tests and in demo mode."""

from __future__ import annotations

import json
import ntpath
import os
import posixpath
import re
from pathlib import Path
from typing import Any, Optional

from wizard.core.host import schema
from wizard.core.host.base import (
    DEFAULT_TIMEOUT,
    PROFILE_FORMAT,
    CancelledFn,
    CommandResult,
    Host,
    PlatformInfo,
    ProfileError,
    norm_path,
)
from wizard.core.host.probe_result import ProbeResult


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

    @property
    def is_live(self) -> bool:
        return False

    @property
    def profile_name(self) -> Optional[str]:
        return self.name

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

    def recorded_pythons(self) -> Optional[list[dict[str, Any]]]:
        return [dict(p) for p in self._pythons]

    def probe_python(
        self, executable: str, timeout: float = 120.0, cancelled: Optional[CancelledFn] = None
    ) -> ProbeResult:
        for entry in self._pythons:
            if self.same_path(entry["executable"], executable):
                probe = entry.get("probe")
                if isinstance(probe, dict):
                    return ProbeResult(json.loads(json.dumps(probe)))
                return ProbeResult(error="no probe recorded for this interpreter in the profile")
        return ProbeResult(error=f"{executable} is not in the profile's pythons")


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
