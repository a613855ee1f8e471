"""Running the user's programs: their output as text, and the environment they start with."""

from __future__ import annotations

import json
import os
import sys
from typing import Optional


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


def reset_dll_directory() -> None:
    """PyInstaller calls SetDllDirectory(bundle) on Windows; children inherit it unless reset."""
    if sys.platform == "win32" and getattr(sys, "frozen", False):
        try:
            import ctypes

            ctypes.windll.kernel32.SetDllDirectoryW(None)  # type: ignore[attr-defined]
        except (ImportError, AttributeError, OSError):
            pass


def json_object(line: str) -> Optional[dict]:
    """A line of a child's output that is one JSON object, else None (a library's own output
    mixed in: probes print one JSON object per line among whatever their imports print)."""
    line = line.strip()
    if not line.startswith("{"):
        return None
    try:
        data = json.loads(line)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None
