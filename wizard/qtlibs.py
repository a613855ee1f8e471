"""Before Qt loads on Linux: can its xcb platform plugin load? No Qt imported here.

PySide6's ``plugins/platforms/libqxcb.so`` (through ``libQt6XcbQpa.so.6``) needs X11 libraries
that a minimal desktop or a container often lacks (``libxcb-cursor0`` and friends). Qt then
aborts with its own message and a core dump. This module reads the ``DT_NEEDED`` entries of
the plugin and of the Qt libraries it pulls from the bundle (a small ELF reader, no
subprocess), asks the dynamic loader for each system library (``ctypes.CDLL``: the real
search order, ``LD_LIBRARY_PATH`` and ``ld.so.cache``), and names the Debian/Ubuntu packages
of the ones that do not load.

``GPU_WIZARD_XCB_PLUGIN=FILE`` checks FILE instead of PySide6's plugin (tests, packagers).
"""

from __future__ import annotations

import ctypes
import importlib.util
import os
import re
import struct
import sys
from pathlib import Path
from typing import Callable, Optional

PLUGIN_ENV = "GPU_WIZARD_XCB_PLUGIN"

# Debian/Ubuntu package per soname where the package name does not follow from the soname
# by Debian's policy (libfoo.so.N -> libfooN, libfoo1.so.N -> libfoo1-N, lower case).
PACKAGES = {
    "libxcb-cursor.so.0": "libxcb-cursor0",
    "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
    "libxkbcommon.so.0": "libxkbcommon0",
    "libxcb-icccm.so.4": "libxcb-icccm4",
    "libxcb-keysyms.so.1": "libxcb-keysyms1",
    "libxcb-image.so.0": "libxcb-image0",
    "libxcb-render-util.so.0": "libxcb-render-util0",
    "libxcb-shape.so.0": "libxcb-shape0",
    "libxcb-randr.so.0": "libxcb-randr0",
    "libxcb-xkb.so.1": "libxcb-xkb1",
    "libxcb-xinerama.so.0": "libxcb-xinerama0",
    "libX11-xcb.so.1": "libx11-xcb1",
    "libX11.so.6": "libx11-6",
    "libSM.so.6": "libsm6",
    "libICE.so.6": "libice6",
    "libglib-2.0.so.0": "libglib2.0-0",
    "libgthread-2.0.so.0": "libglib2.0-0",
    "libdbus-1.so.3": "libdbus-1-3",
    "libEGL.so.1": "libegl1",
    "libGL.so.1": "libgl1",
    "libOpenGL.so.0": "libopengl0",
    "libGLX.so.0": "libglx0",
    "libfontconfig.so.1": "libfontconfig1",
    "libfreetype.so.6": "libfreetype6",
}

_DT_NEEDED, _DT_STRTAB, _DT_RUNPATH, _DT_RPATH = 1, 5, 29, 15
_PT_LOAD, _PT_DYNAMIC = 1, 2


class ElfError(ValueError):
    """Not an ELF shared object this reader understands."""


def elf_dynamic(path: str) -> tuple[list[str], list[str]]:
    """``(needed sonames, runpath entries)`` of the ELF file at ``path``."""
    data = Path(path).read_bytes()
    if data[:4] != b"\x7fELF" or len(data) < 52:
        raise ElfError(f"{path}: not an ELF file")
    is64 = data[4] == 2
    endian = "<" if data[5] == 1 else ">"
    if is64:
        phoff, = struct.unpack_from(endian + "Q", data, 0x20)
        phentsize, phnum = struct.unpack_from(endian + "HH", data, 0x36)
        ph_fmt, dyn_fmt = endian + "IIQQQQQQ", endian + "qQ"
    else:
        phoff, = struct.unpack_from(endian + "I", data, 0x1C)
        phentsize, phnum = struct.unpack_from(endian + "HH", data, 0x2A)
        ph_fmt, dyn_fmt = endian + "IIIIIIII", endian + "iI"
    loads, dynamic = [], None
    for index in range(phnum):
        fields = struct.unpack_from(ph_fmt, data, phoff + index * phentsize)
        if is64:
            p_type, _flags, offset, vaddr, _paddr, filesz = fields[:6]
        else:
            p_type, offset, vaddr, _paddr, filesz = fields[:5]
        if p_type == _PT_LOAD:
            loads.append((vaddr, offset, filesz))
        elif p_type == _PT_DYNAMIC:
            dynamic = (offset, filesz)
    if dynamic is None:
        raise ElfError(f"{path}: no dynamic section")
    entries = []
    size = struct.calcsize(dyn_fmt)
    for pos in range(dynamic[0], dynamic[0] + dynamic[1] - size + 1, size):
        tag, value = struct.unpack_from(dyn_fmt, data, pos)
        if tag == 0:
            break
        entries.append((tag, value))
    strtab = next((v for t, v in entries if t == _DT_STRTAB), None)
    if strtab is None:
        raise ElfError(f"{path}: no string table")
    base = next((off + strtab - va for va, off, sz in loads if va <= strtab < va + sz), None)
    if base is None:
        raise ElfError(f"{path}: string table outside the file")

    def string(offset: int) -> str:
        end = data.index(b"\0", base + offset)
        return data[base + offset:end].decode("utf-8", "replace")

    needed = [string(v) for t, v in entries if t == _DT_NEEDED]
    runpath = [part for t, v in entries if t in (_DT_RUNPATH, _DT_RPATH)
               for part in string(v).split(":") if part]
    return needed, runpath


def default_plugin(environ: Optional[dict[str, str]] = None) -> Optional[str]:
    """The xcb plugin Qt would load: ``GPU_WIZARD_XCB_PLUGIN``, else PySide6's (found without
    importing it)."""
    env = os.environ if environ is None else environ
    if env.get(PLUGIN_ENV):
        return env[PLUGIN_ENV]
    try:
        spec = importlib.util.find_spec("PySide6")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        for sub in ("Qt/plugins", "plugins"):
            candidate = Path(folder, sub, "platforms", "libqxcb.so")
            if candidate.is_file():
                return str(candidate)
    return None


def _system_loads(soname: str) -> bool:
    try:
        ctypes.CDLL(soname)
    except OSError:
        return False
    return True


BUNDLED_PREFIXES = ("libQt6", "libpyside6", "libshiboken6", "libicu")


def _bundle_folders() -> list[str]:
    """Where a PyInstaller bundle keeps Qt's libraries (besides the plugin's RUNPATH)."""
    base = getattr(sys, "_MEIPASS", None)
    if not base:
        return []
    return [base, os.path.join(base, "PySide6", "Qt", "lib"), os.path.join(base, "PySide6")]


def missing_libraries(plugin: str,
                      loads: Callable[[str], bool] = _system_loads) -> list[str]:
    """The sonames the plugin needs (directly or through the Qt libraries next to it) that the
    dynamic loader cannot load, in the order found."""
    missing: list[str] = []
    seen: set[str] = set()
    queue = [str(plugin)]
    while queue:
        path = queue.pop(0)
        needed, runpath = elf_dynamic(path)
        origin = os.path.dirname(os.path.abspath(path))
        folders = [entry.replace("$ORIGIN", origin).replace("${ORIGIN}", origin)
                   for entry in runpath] + [origin] + _bundle_folders()
        for soname in needed:
            if soname in seen:
                continue
            seen.add(soname)
            bundled = next((os.path.join(f, soname) for f in folders
                            if os.path.isfile(os.path.join(f, soname))), None)
            if bundled is not None:
                queue.append(bundled)  # a Qt library of the bundle: look at what it needs
            elif soname.startswith(BUNDLED_PREFIXES):
                continue  # Qt's own, laid out in a way not seen here: let Qt load it
            elif not loads(soname):
                missing.append(soname)
    return missing


def package_for(soname: str) -> str:
    """The Debian/Ubuntu package that ships ``soname``."""
    if soname in PACKAGES:
        return PACKAGES[soname]
    match = re.match(r"^(lib[^/]+?)\.so\.(\d+)", soname)
    if not match:
        return soname
    stem, version = match.group(1).lower(), match.group(2)
    return f"{stem}-{version}" if stem[-1].isdigit() else f"{stem}{version}"


def xcb_needed(environ: Optional[dict[str, str]] = None,
               platform: Optional[str] = None) -> bool:
    """Whether Qt would load its xcb plugin: Linux, and QT_QPA_PLATFORM names xcb first, or
    is unset outside a Wayland session."""
    env = os.environ if environ is None else environ
    platform = sys.platform if platform is None else platform
    if not platform.startswith("linux"):
        return False
    requested = [p.split(":", 1)[0].strip().lower()
                 for p in env.get("QT_QPA_PLATFORM", "").split(";") if p.strip()]
    if requested:
        return requested[0] == "xcb"
    return env.get("XDG_SESSION_TYPE", "").lower() != "wayland" or not env.get("WAYLAND_DISPLAY")


def xcb_problem(environ: Optional[dict[str, str]] = None,
                platform: Optional[str] = None) -> Optional[dict[str, str]]:
    """None when Qt's xcb plugin can load (or is not going to be used); else the message
    parameters ``libraries``, ``packages`` and ``command`` for ``crash.xcb_missing``."""
    if not xcb_needed(environ, platform):
        return None
    plugin = default_plugin(environ)
    if plugin is None:
        return None  # no PySide6: the caller says that separately
    try:
        missing = missing_libraries(plugin)
    except (OSError, ElfError, struct.error):
        return None  # cannot tell: let Qt try
    if not missing:
        return None
    packages = list(dict.fromkeys(package_for(name) for name in missing))
    return {
        "libraries": ", ".join(missing),
        "packages": ", ".join(packages),
        "command": "sudo apt-get install " + " ".join(packages),
    }


def pyside_missing() -> bool:
    """Whether PySide6 (the window) is not installed: the command-line commands still work."""
    try:
        return importlib.util.find_spec("PySide6") is None
    except (ImportError, ValueError):
        return True
