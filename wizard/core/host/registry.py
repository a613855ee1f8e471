"""Access to the Windows registry, for :class:`wizard.core.host.LocalHost`.

Keys are written with an abbreviated or full hive, ``"HKLM\\SOFTWARE\\NVIDIA Corporation\\..."``
or ``"HKEY_CURRENT_USER\\Environment"``. Values come back as ``{name: (type_name, data)}`` with
type names such as ``"REG_SZ"`` and ``"REG_EXPAND_SZ"``, the shape of a machine profile's
``registry`` section. ``REG_EXPAND_SZ`` data is returned unexpanded (the caller decides against
which environment to expand it), and binary data as a hex string, so that a recording stays JSON.

Writes (:func:`set_value`, :func:`delete_value`) are for the fixes: they keep the value's type,
and :func:`broadcast_environment_change` tells Explorer that the environment changed.
:class:`MemoryRegistry` is the same interface over a dict, for tests and for the fixes' tests on
Linux.

``winreg`` is imported only inside a guarded function: on Linux (and in any Python without it)
every call answers ``{}`` / ``[]``, and nothing here raises for a missing key or a denied one.
"""

from __future__ import annotations

import contextlib
from typing import Any, Optional

HIVES: dict[str, str] = {
    "HKLM": "HKEY_LOCAL_MACHINE",
    "HKEY_LOCAL_MACHINE": "HKEY_LOCAL_MACHINE",
    "HKCU": "HKEY_CURRENT_USER",
    "HKEY_CURRENT_USER": "HKEY_CURRENT_USER",
    "HKCR": "HKEY_CLASSES_ROOT",
    "HKEY_CLASSES_ROOT": "HKEY_CLASSES_ROOT",
    "HKU": "HKEY_USERS",
    "HKEY_USERS": "HKEY_USERS",
}

TYPE_NAMES: dict[int, str] = {
    0: "REG_NONE",
    1: "REG_SZ",
    2: "REG_EXPAND_SZ",
    3: "REG_BINARY",
    4: "REG_DWORD",
    5: "REG_DWORD_BIG_ENDIAN",
    6: "REG_LINK",
    7: "REG_MULTI_SZ",
    8: "REG_RESOURCE_LIST",
    9: "REG_FULL_RESOURCE_DESCRIPTOR",
    10: "REG_RESOURCE_REQUIREMENTS_LIST",
    11: "REG_QWORD",
}

_MAX_ENTRIES = 10000
"""A guard against a corrupt key that never stops enumerating."""


def _winreg() -> Any:
    """The ``winreg`` module, or None where there is none (Linux, WSL)."""
    try:
        import winreg  # Windows only, deliberately guarded
    except ImportError:
        return None
    return winreg


def split_key(key: str) -> Optional[tuple[str, str]]:
    """``"HKLM\\SOFTWARE\\X"`` -> ``("HKEY_LOCAL_MACHINE", "SOFTWARE\\X")``; None for an unknown
    hive. Forward slashes are accepted as separators."""
    parts = key.replace("/", "\\").strip("\\").split("\\", 1)
    hive = HIVES.get(parts[0].upper())
    if hive is None:
        return None
    return hive, parts[1] if len(parts) > 1 else ""


def type_name(type_id: int) -> str:
    return TYPE_NAMES.get(type_id, f"REG_TYPE_{type_id}")


def _plain(data: Any) -> Any:
    """Registry data as a JSON-ready value (bytes become a hex string)."""
    if isinstance(data, (bytes, bytearray, memoryview)):
        return bytes(data).hex()
    if isinstance(data, (list, tuple)):
        return [str(item) for item in data]
    return data


def _open(winreg: Any, key: str) -> Any:
    """An open handle for ``key`` (64-bit view, so a 32-bit Python sees the real keys), or None."""
    parsed = split_key(key)
    if parsed is None:
        return None
    hive_name, sub = parsed
    hive = getattr(winreg, hive_name, None)
    if hive is None:
        return None
    access = getattr(winreg, "KEY_READ", 0x20019) | getattr(winreg, "KEY_WOW64_64KEY", 0x0100)
    try:
        return winreg.OpenKey(hive, sub, 0, access)
    except OSError:
        return None


def read_values(key: str) -> dict[str, tuple[str, Any]]:
    """Every value of ``key`` as ``{name: (type_name, data)}``; {} when the key is absent, denied,
    or this is not Windows. The default value is listed under the name ``""``."""
    winreg = _winreg()
    if winreg is None:
        return {}
    handle = _open(winreg, key)
    if handle is None:
        return {}
    values: dict[str, tuple[str, Any]] = {}
    try:
        for index in range(_MAX_ENTRIES):
            try:
                name, data, type_id = winreg.EnumValue(handle, index)
            except OSError:  # ERROR_NO_MORE_ITEMS ends the enumeration
                break
            values[name] = (type_name(type_id), _plain(data))
    finally:
        _close(winreg, handle)
    return values


def subkeys(key: str) -> list[str]:
    """The names (not paths) of ``key``'s sub-keys; [] when absent, denied, or not Windows."""
    winreg = _winreg()
    if winreg is None:
        return []
    handle = _open(winreg, key)
    if handle is None:
        return []
    names: list[str] = []
    try:
        for index in range(_MAX_ENTRIES):
            try:
                names.append(winreg.EnumKey(handle, index))
            except OSError:
                break
    finally:
        _close(winreg, handle)
    return names


def _close(winreg: Any, handle: Any) -> None:
    with contextlib.suppress(OSError, AttributeError):
        winreg.CloseKey(handle)


TYPE_IDS: dict[str, int] = {name: number for number, name in TYPE_NAMES.items()}


def _writable(key: str) -> tuple[Any, Any, str, int]:
    """``(winreg, hive, path, access)`` for writing under ``key`` (the 64-bit view). Raises
    OSError where there is no registry or the hive is unknown."""
    winreg = _winreg()
    if winreg is None:
        raise OSError("the Windows registry is not available here")
    parsed = split_key(key)
    if parsed is None:
        raise OSError(f"unknown registry hive in {key}")
    access = winreg.KEY_SET_VALUE | getattr(winreg, "KEY_WOW64_64KEY", 0x0100)
    return winreg, getattr(winreg, parsed[0]), parsed[1], access


def set_value(key: str, name: str, kind: str, data: Any) -> None:
    """Set ``name`` under ``key`` with the type ``kind`` (``"REG_EXPAND_SZ"``...), creating the
    key when needed. Raises OSError (denied, not Windows)."""
    winreg, hive, path, access = _writable(key)
    handle = winreg.CreateKeyEx(hive, path, 0, access)
    try:
        winreg.SetValueEx(handle, name, 0, TYPE_IDS[kind], data)
    finally:
        _close(winreg, handle)


def delete_value(key: str, name: str) -> None:
    """Delete ``name`` under ``key``; nothing when it is absent. Raises OSError (denied)."""
    winreg, hive, path, access = _writable(key)
    try:
        handle = winreg.OpenKey(hive, path, 0, access)
    except FileNotFoundError:
        return
    try:
        winreg.DeleteValue(handle, name)
    except FileNotFoundError:
        pass
    finally:
        _close(winreg, handle)


def broadcast_environment_change() -> None:
    """``WM_SETTINGCHANGE`` with ``"Environment"`` to every top-level window (2 s limit each), so
    that terminals started from Explorer see the new variables. Nothing where there is no
    ``ctypes.windll``."""
    try:
        import ctypes

        windll = ctypes.windll  # type: ignore[attr-defined]  # Windows only
    except (ImportError, AttributeError):
        return
    hwnd_broadcast, wm_settingchange, smto_abortifhung = 0xFFFF, 0x001A, 0x0002
    result = ctypes.c_ulong()
    windll.user32.SendMessageTimeoutW(hwnd_broadcast, wm_settingchange, 0, "Environment",
                                      smto_abortifhung, 2000, ctypes.byref(result))


class MemoryRegistry:
    """The registry functions of this module over a dict: ``{key: {name: (type, data)}}``.
    Keys are compared without regard to case or to the hive's spelling (HKCU, HKEY_CURRENT_USER).
    ``denied`` keys refuse writes as Windows does for a user writing HKLM."""

    def __init__(self, keys: Optional[dict[str, dict[str, tuple[str, Any]]]] = None,
                 denied: tuple[str, ...] = ()) -> None:
        self.keys: dict[str, dict[str, tuple[str, Any]]] = {}
        for key, values in (keys or {}).items():
            self.keys[self._norm(key)] = dict(values)
        self.denied = {self._norm(k) for k in denied}
        self.broadcasts = 0

    @staticmethod
    def _norm(key: str) -> str:
        parsed = split_key(key)
        return (f"{parsed[0]}\\{parsed[1]}" if parsed else key).lower()

    def read_values(self, key: str) -> dict[str, tuple[str, Any]]:
        return dict(self.keys.get(self._norm(key), {}))

    def subkeys(self, key: str) -> list[str]:
        prefix = self._norm(key) + "\\"
        return sorted({k[len(prefix):].split("\\")[0] for k in self.keys if k.startswith(prefix)})

    def set_value(self, key: str, name: str, kind: str, data: Any) -> None:
        if self._norm(key) in self.denied:
            raise PermissionError(13, "Access is denied", key)
        if kind not in TYPE_IDS:
            raise OSError(f"unknown registry type {kind}")
        self.keys.setdefault(self._norm(key), {})[name] = (kind, data)

    def delete_value(self, key: str, name: str) -> None:
        if self._norm(key) in self.denied:
            raise PermissionError(13, "Access is denied", key)
        self.keys.get(self._norm(key), {}).pop(name, None)

    def broadcast_environment_change(self) -> None:
        self.broadcasts += 1
