"""The stand-in ``libnvidia-ml.so.1`` (nvml_standin.c): built with the C compiler into a
folder, loaded by the real nvidia-ml-py binding through LD_LIBRARY_PATH in a child process."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Optional

SOURCE = Path(__file__).with_name("nvml_standin.c")
REPO_ROOT = Path(__file__).resolve().parents[2]


def compiler() -> Optional[str]:
    if not sys.platform.startswith("linux"):
        return None
    return shutil.which(os.environ.get("CC", "gcc")) or shutil.which("cc")


def build(folder: Path, old_driver: bool = False) -> Path:
    """Compile the stand-in into ``folder/libnvidia-ml.so.1``; returns the folder."""
    cc = compiler()
    if cc is None:
        raise RuntimeError("no C compiler")
    folder.mkdir(parents=True, exist_ok=True)
    # the soname the real library has: a process that loaded it by its full path finds it again
    # under that name (what NVML read from a NixOS driver folder relies on)
    argv = [cc, "-shared", "-fPIC", "-O2", "-Wl,-soname,libnvidia-ml.so.1", "-o",
            str(folder / "libnvidia-ml.so.1"), str(SOURCE)]
    if old_driver:
        argv.insert(1, "-DSTANDIN_OLD_DRIVER")
    subprocess.run(argv, check=True, capture_output=True, timeout=120)
    return folder


def environment(libdir: Path, config: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["LD_LIBRARY_PATH"] = str(libdir) + (
        os.pathsep + env["LD_LIBRARY_PATH"] if env.get("LD_LIBRARY_PATH") else "")
    env["NVML_STANDIN_CONFIG"] = str(config)
    env["PYTHONPATH"] = str(REPO_ROOT)
    return env


def write_config(path: Path, text: str) -> None:
    """Replace the config atomically (the stand-in re-reads it when the file changes)."""
    tmp = path.with_suffix(".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)
