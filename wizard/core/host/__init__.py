"""The Host: the only way core code touches the machine, and the bottom of the core.

* :class:`LocalHost` reads the real machine (Linux, WSL2, Windows);
* :class:`ReplayHost` answers from a machine profile (DESIGN section 3);
* :class:`RecordingHost` wraps a live host and writes down what was asked and answered.

The adapters they use live here too: ``nvml`` (nvidia-ml-py), ``pci`` (sysfs, the Windows
device manager), ``registry`` (winreg), ``process`` and ``probe`` (running the user's programs
and the environment probe), ``windows`` (the PATH a new terminal sees), ``schema`` (the shape of
a profile and of the probe's output) and ``redact`` (what a snapshot may keep). Nothing in this
package imports the rest of ``wizard.core``: the layers, discovery and knowledge build on it.
"""

from __future__ import annotations

from wizard.core.host.base import (
    DEFAULT_TIMEOUT,
    PROFILE_FORMAT,
    CancelledFn,
    CommandResult,
    Host,
    HostError,
    PlatformInfo,
    ProfileError,
    ProgressFn,
    ReadOnlyHost,
    norm_path,
)
from wizard.core.host.local import LocalHost, detect_platform
from wizard.core.host.probe_result import ProbeResult
from wizard.core.host.process import child_environment, decode_output
from wizard.core.host.recording import RecordingHost
from wizard.core.host.replay import ReplayHost
from wizard.core.host.schema import NVML_ERRORS

__all__ = [
    "DEFAULT_TIMEOUT",
    "NVML_ERRORS",
    "PROFILE_FORMAT",
    "CancelledFn",
    "CommandResult",
    "Host",
    "HostError",
    "LocalHost",
    "PlatformInfo",
    "ProbeResult",
    "ProfileError",
    "ProgressFn",
    "ReadOnlyHost",
    "RecordingHost",
    "ReplayHost",
    "child_environment",
    "decode_output",
    "detect_platform",
    "norm_path",
]
