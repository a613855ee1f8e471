"""Throwaway Python environments for the fix tests: a venv made on the spot and a tiny wheel
written by hand (no setuptools, no network), so pip runs for real without the index."""

from __future__ import annotations

import base64
import hashlib
import subprocess
import sys
import zipfile
from pathlib import Path


def make_venv(folder: Path, with_pip: bool = True) -> str:
    """A new venv in ``folder``; its interpreter's path."""
    args = [sys.executable, "-m", "venv", *([] if with_pip else ["--without-pip"]), str(folder)]
    subprocess.run(args, check=True, timeout=300, capture_output=True)
    return str(folder / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python"))


def make_wheel(folder: Path, name: str = "gw_tiny", version: str = "1.0") -> Path:
    """A pure-Python wheel of ``name`` ``version`` in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}-{version}-py3-none-any.whl"
    info = f"{name}-{version}.dist-info"
    files = {
        f"{name}/__init__.py": f"VERSION = {version!r}\n",
        f"{info}/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n",
        f"{info}/WHEEL": "Wheel-Version: 1.0\nGenerator: gpu-wizard-tests\n"
                         "Root-Is-Purelib: true\nTag: py3-none-any\n",
    }
    record = []
    for member, text in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=")
        record.append(f"{member},sha256={digest.decode()},{len(text.encode())}")
    record.append(f"{info}/RECORD,,")
    files[f"{info}/RECORD"] = "\n".join(record) + "\n"
    with zipfile.ZipFile(path, "w") as archive:
        for member, text in files.items():
            archive.writestr(member, text)
    return path


def installed(venv_python: str, name: str = "gw_tiny") -> bool:
    """Whether the venv of ``venv_python`` has ``name`` installed."""
    lib = Path(venv_python).parent.parent / "lib"
    return any(lib.glob(f"python*/site-packages/{name}/__init__.py"))
