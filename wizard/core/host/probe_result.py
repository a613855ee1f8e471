"""What the environment probe reports for one Python (DESIGN section 4), as one type.

A :class:`ProbeResult` is the probe's JSON object (or the failure the runner made of a probe
that could not run: ``{"error", "error_kind", ...}``), kept as the dict it came as — profiles
record it verbatim — with typed access to the parts the checks read, so no caller has to guess
whether ``python`` is an object or ``tensorflow`` may be null. Its shape was checked against
:data:`wizard.core.host.schema.PROBE` before it got here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Optional


class ProbeResult(dict):
    """The probe's output for one interpreter; ``probe.tensorflow``, ``probe.python_version``..."""

    @classmethod
    def of(cls, value: Optional[Mapping[str, Any]]) -> Optional[ProbeResult]:
        """``value`` as a ProbeResult (None stays None, a ProbeResult stays itself)."""
        if value is None or isinstance(value, cls):
            return value
        return cls(value)

    @property
    def error(self) -> Optional[str]:
        """Why the probe could not run (timeout, not found, crashed, ...), else None."""
        return str(self["error"]) if self.get("error") else None

    @property
    def error_kind(self) -> Optional[str]:
        return self.get("error_kind")

    @property
    def python(self) -> dict[str, Any]:
        """``version``, ``bits``, ``executable``, ``prefix``, ``conda``, ``venv`` ({}: unknown)."""
        value = self.get("python")
        return value if isinstance(value, dict) else {}

    @property
    def python_version(self) -> Optional[str]:
        version = self.python.get("version")
        return str(version) if version else None

    @property
    def bits(self) -> Optional[int]:
        return self.python.get("bits")

    @property
    def packages(self) -> dict[str, Optional[str]]:
        """Distribution name -> installed version (None: asked about, not installed)."""
        value = self.get("packages")
        return value if isinstance(value, dict) else {}

    @property
    def tensorflow(self) -> Optional[dict[str, Any]]:
        """TensorFlow's part (import, build, GPUs, matmul, conv); None when TF is not installed."""
        value = self.get("tensorflow")
        return value if isinstance(value, dict) else None

    @property
    def torch(self) -> Optional[dict[str, Any]]:
        value = self.get("torch")
        return value if isinstance(value, dict) else None

    @property
    def log(self) -> str:
        """Everything the import and the checks wrote to stderr."""
        return str(self.get("log") or "")
