"""RecordingHost: wraps a live host and writes down what it answered; the recording is the
profile ``gpu-wizard snapshot`` saves, so a snapshot replays to the same report."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Optional

from wizard.core.host import redact
from wizard.core.host.base import (
    DEFAULT_TIMEOUT,
    PROFILE_FORMAT,
    CancelledFn,
    CommandResult,
    Host,
)
from wizard.core.host.probe_result import ProbeResult


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

    def run_streaming(self, argv: list[str], on_line: Any = None,
                      cancelled: Optional[CancelledFn] = None, env: Any = None,
                      cwd: Optional[str] = None, timeout: Optional[float] = None,
                      elevated: bool = False) -> CommandResult:
        """Passed to the live host, not recorded: a replay never runs what changes a machine."""
        return self.inner.run_streaming(argv, on_line, cancelled, env, cwd, timeout, elevated)

    def nvml(self) -> dict[str, Any]:
        if self._nvml is None:
            self._nvml = self.inner.nvml()
        return json.loads(json.dumps(self._nvml))

    def pci_devices(self) -> list[dict[str, Any]]:
        if self._pci is None:
            self._pci = self.inner.pci_devices()
        return [dict(d) for d in self._pci]

    @property
    def is_live(self) -> bool:
        return self.inner.is_live

    def probe_python(
        self, executable: str, timeout: float = 120.0, cancelled: Optional[CancelledFn] = None
    ) -> ProbeResult:
        result = self.inner.probe_python(executable, timeout, cancelled)
        entry = self._pythons.setdefault(executable, {"executable": executable})
        entry["probe"] = result
        return result

    def note_python(self, executable: str, score: Optional[int] = None) -> None:
        """Keep a discovered environment (and its score), so the replay picks the same one."""
        entry = self._pythons.setdefault(executable, {"executable": executable, "probe": None})
        if score is not None:
            entry["score"] = score

    def which(self, program: str) -> Optional[str]:
        found = self.inner.which(program)
        if found:
            self._record_existing(found)
        return found

    def profile(self, name: str = "snapshot", description: str = "") -> dict[str, Any]:
        """The recording as a machine profile: only the variables the checks read, and every
        credential in the recorded texts masked (:mod:`wizard.core.host.redact`)."""
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
