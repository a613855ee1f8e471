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


def profile_text(profile: dict) -> str:
    return json.dumps(profile, indent=2, ensure_ascii=False) + "\n"


def write_snapshot(output: str, python: Optional[str] = None) -> Path:
    """Write atomically: a failed write never leaves a half-written profile. The folder must
    exist (a typo in it is an error, not a new folder tree); ``FileNotFoundError`` says so."""
    path = Path(output)
    if not path.parent.is_dir():
        raise FileNotFoundError(2, "the folder does not exist", str(path.parent))
    profile = record_profile(python=python, name=path.stem)
    fd, tmp = tempfile.mkstemp(prefix=".snapshot-", suffix=".json", dir=str(path.parent))
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(profile_text(profile))
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path
