"""winreg_access: empty answers without winreg, correct shapes with a fake winreg module."""

from __future__ import annotations

import sys
import types

import pytest

from wizard.core.host import registry as winreg_access


def test_split_key_accepts_short_and_long_hives():
    assert winreg_access.split_key("HKLM\\SOFTWARE\\NVIDIA Corporation") == (
        "HKEY_LOCAL_MACHINE",
        "SOFTWARE\\NVIDIA Corporation",
    )
    assert winreg_access.split_key("HKEY_CURRENT_USER/Environment") == (
        "HKEY_CURRENT_USER",
        "Environment",
    )
    assert winreg_access.split_key("hkcu") == ("HKEY_CURRENT_USER", "")
    assert winreg_access.split_key("NOPE\\x") is None


@pytest.mark.skipif(sys.platform == "win32", reason="checks the behaviour without winreg")
def test_without_winreg_everything_is_empty(monkeypatch):
    monkeypatch.setitem(sys.modules, "winreg", None)  # makes `import winreg` raise ImportError
    assert winreg_access.read_values("HKLM\\SOFTWARE\\NVIDIA Corporation") == {}
    assert winreg_access.subkeys("HKLM\\SOFTWARE") == []


def _fake_winreg(tree: dict[str, dict]) -> types.ModuleType:
    """A winreg look-alike over {"HKEY_LOCAL_MACHINE\\path": {"values": [...], "keys": [...]}}."""
    module = types.ModuleType("winreg")
    module.HKEY_LOCAL_MACHINE = "HKEY_LOCAL_MACHINE"
    module.HKEY_CURRENT_USER = "HKEY_CURRENT_USER"
    module.KEY_READ = 0x20019
    module.KEY_WOW64_64KEY = 0x100
    opened: list[tuple] = []

    def open_key(hive, sub, reserved, access):
        opened.append((hive, sub, access))
        path = f"{hive}\\{sub}".lower()
        if path not in tree:
            raise FileNotFoundError(2, "not found")
        return path

    def enum_value(handle, index):
        values = tree[handle].get("values", [])
        if index >= len(values):
            raise OSError(259, "no more data")
        return values[index]

    def enum_key(handle, index):
        keys = tree[handle].get("keys", [])
        if index >= len(keys):
            raise OSError(259, "no more data")
        return keys[index]

    module.OpenKey = open_key
    module.EnumValue = enum_value
    module.EnumKey = enum_key
    module.CloseKey = lambda handle: None
    module.opened = opened
    return module


def test_read_values_and_subkeys_with_a_fake_winreg(monkeypatch):
    base = "hkey_local_machine\\software\\nvidia corporation\\gpu computing toolkit\\cuda"
    fake = _fake_winreg(
        {
            base: {"values": [("FirstVersionInstalled", "v11.2", 1)], "keys": ["v11.2", "v12.1"]},
            base + "\\v11.2": {
                "values": [
                    ("InstallDir", "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.2",
                     1),
                    ("64BitInstalled", 1, 4),
                    ("Blob", b"\x01\xff", 3),
                    ("Path", "%CUDA_PATH%\\bin", 2),
                    ("Odd", "x", 99),
                ]
            },
        }
    )
    monkeypatch.setitem(sys.modules, "winreg", fake)
    key = "HKLM\\SOFTWARE\\NVIDIA Corporation\\GPU Computing Toolkit\\CUDA"
    assert winreg_access.subkeys(key) == ["v11.2", "v12.1"]
    values = winreg_access.read_values(key + "\\v11.2")
    assert values["InstallDir"] == (
        "REG_SZ",
        "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.2",
    )
    assert values["64BitInstalled"] == ("REG_DWORD", 1)
    assert values["Blob"] == ("REG_BINARY", "01ff")
    assert values["Path"] == ("REG_EXPAND_SZ", "%CUDA_PATH%\\bin")  # never expanded here
    assert values["Odd"] == ("REG_TYPE_99", "x")
    # The 64-bit registry view is asked for, so a 32-bit Python sees the real keys.
    assert all(access & 0x100 for _, _, access in fake.opened)
    # Absent keys and unknown hives are empty, not errors.
    assert winreg_access.read_values(key + "\\v9.9") == {}
    assert winreg_access.subkeys("HKXX\\foo") == []
