"""Python environment discovery and choice. (Interim: the full discovery is issue 3.)"""

from __future__ import annotations

from typing import Any, Optional

from wizard.core.host import Host


def choose_environment(
    host: Host, python: Optional[str], timeout: float = 180.0
) -> tuple[Optional[str], Optional[dict[str, Any]], str]:
    """The environment to check, its probe, and why: the user's ``--python``, else the first
    known environment whose recorded probe has TensorFlow."""
    if python:
        return python, host.probe_python(python, timeout=timeout), "chosen with --python"
    for entry in host.pythons():
        probe = entry.get("probe")
        if isinstance(probe, dict) and (probe.get("packages") or {}).get("tensorflow"):
            return entry["executable"], probe, "has TensorFlow installed"
    return None, None, "no Python environment with TensorFlow found"
