"""``gpu-wizard snapshot``: record this machine as a profile by running the check through a
RecordingHost, so that replaying the profile asks exactly the questions the live check asked."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Optional

from wizard.core.diagnose import CheckOptions, run_check
from wizard.core.host import LocalHost, RecordingHost


def record_profile(python: Optional[str] = None, name: str = "snapshot") -> dict:
    recorder = RecordingHost.wrap(LocalHost())
    run_check(recorder, CheckOptions(python=python))
    return recorder.profile(name=name, description="recorded by gpu-wizard snapshot")


def write_snapshot(output: str, python: Optional[str] = None) -> Path:
    """Write atomically: a failed write never leaves a half-written profile."""
    path = Path(output)
    profile = record_profile(python=python, name=path.stem)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".snapshot-", suffix=".json", dir=str(path.parent))
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(profile, handle, indent=2, ensure_ascii=False)
            handle.write("\n")
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path
