"""Display-class PCI devices of the real machine, in the profile's ``pci`` shape (DESIGN section 3).

This is how the wizard finds an NVIDIA card that has no working driver (NVML and nvidia-smi
then know nothing): vendor ``10de`` on the PCI bus.

* Linux reads ``/sys/bus/pci/devices/*/{class,vendor,device}`` (class ``0x03xxxx``) and the name
  of the ``driver`` symlink; no ``lspci`` needed, and it works with or without the module loaded.
  Names come from ``pci.ids`` when installed.
* Windows asks the device manager through PowerShell/CIM (``Win32_PnPEntity``), which also gives
  the device problem code (28 = no driver installed).

Only :class:`wizard.core.host.LocalHost` calls this; a replay takes ``pci`` from the profile.
Every function here returns ``[]`` rather than raising.
"""

from __future__ import annotations

import json
import os
import re
from typing import TYPE_CHECKING, Any, Optional

if TYPE_CHECKING:
    from wizard.core.host.base import Host

SYSFS_PCI_DEVICES = "/sys/bus/pci/devices"
PCI_IDS_PATHS = ("/usr/share/misc/pci.ids", "/usr/share/hwdata/pci.ids", "/usr/share/pci.ids")
NVIDIA = "10de"
VENDOR_NAMES = {
    "10de": "NVIDIA",
    "8086": "Intel",
    "1002": "AMD",
    "1022": "AMD",
    "1414": "Microsoft",
    "15ad": "VMware",
    "1234": "QEMU",
    "1af4": "Red Hat (virtio)",
    "80ee": "VirtualBox",
    "102b": "Matrox",
    "1a03": "ASPEED",
    "5143": "Qualcomm",
}

# Device manager problem codes (ConfigManagerErrorCode) a user may meet on a GPU.
WINDOWS_PROBLEMS = {
    1: "code 1: device not configured correctly",
    3: "code 3: driver may be corrupted",
    10: "code 10: device cannot start",
    12: "code 12: not enough free resources",
    14: "code 14: restart needed",
    18: "code 18: drivers need to be reinstalled",
    19: "code 19: registry configuration damaged",
    21: "code 21: device is being removed",
    22: "code 22: device disabled",
    24: "code 24: device not present or not working",
    28: "code 28: drivers not installed",
    31: "code 31: driver could not be loaded",
    32: "code 32: driver service disabled",
    37: "code 37: driver failed to initialise",
    39: "code 39: driver corrupted or missing",
    43: "code 43: device reported a problem (driver stopped it)",
    45: "code 45: device not connected",
    48: "code 48: driver blocked (known compatibility problem)",
    52: "code 52: driver signature could not be verified",
}

# Display devices, plus NVIDIA devices whose PCI class is display (0x03) but that Windows files
# elsewhere when no driver is installed (no PNPClass, "Other devices").
WINDOWS_PNP_SCRIPT = (
    "$ErrorActionPreference='SilentlyContinue';"
    "[Console]::OutputEncoding=[Text.Encoding]::UTF8;"
    "Get-CimInstance -ClassName Win32_PnPEntity | Where-Object { $_.PNPClass -eq 'Display' -or "
    "($_.PNPDeviceID -like 'PCI\\VEN_10DE*' -and ($_.CompatibleID -match '^PCI\\\\CC_03')) } | "
    "Select-Object Name,PNPDeviceID,PNPClass,Service,ConfigManagerErrorCode,Status | "
    "ConvertTo-Json -Compress"
)
WINDOWS_PNP_ARGV = ["powershell", "-NoProfile", "-NonInteractive", "-Command", WINDOWS_PNP_SCRIPT]
WINDOWS_TIMEOUT = 40.0

_PNP_ID = re.compile(r"VEN_([0-9A-F]{4})&DEV_([0-9A-F]{4})", re.IGNORECASE)


def list_display_devices(host: Host, root: str = "") -> list[dict[str, Any]]:
    """Display-class PCI devices of ``host``. ``root`` prefixes every Linux path (tests point it
    at a fake sysfs tree)."""
    try:
        if host.is_windows:
            return windows_display_devices(host)
        return linux_display_devices(host, root)
    except Exception:  # a strange machine must not stop the check; no devices is "can't tell"
        return []


def fallback_name(vendor_id: str, device_id: str) -> str:
    vendor = VENDOR_NAMES.get(vendor_id.lower(), "PCI")
    return f"{vendor} device {vendor_id.lower()}:{device_id.lower()}"


# -- Linux -----------------------------------------------------------------------------------


def linux_display_devices(host: Host, root: str = "") -> list[dict[str, Any]]:
    base = root + SYSFS_PCI_DEVICES
    devices = []
    for slot in host.listdir(base):
        directory = f"{base}/{slot}"
        pci_class = _hex_id(host.read_text(f"{directory}/class", 64), 6)
        if not pci_class or not pci_class.startswith("03"):
            continue
        vendor = _hex_id(host.read_text(f"{directory}/vendor", 64), 4)
        device = _hex_id(host.read_text(f"{directory}/device", 64), 4)
        if not vendor or not device:
            continue
        devices.append(
            {
                "vendor_id": vendor,
                "device_id": device,
                "name": None,
                "driver": link_name(f"{directory}/driver"),
                "problem": None,
                "slot": slot,
                "class": pci_class,
            }
        )
    names = pci_ids_names(host, {(d["vendor_id"], d["device_id"]) for d in devices}, root)
    for d in devices:
        d["name"] = names.get((d["vendor_id"], d["device_id"])) or fallback_name(
            d["vendor_id"], d["device_id"]
        )
    return devices


def link_name(path: str) -> Optional[str]:
    """The last part of a symlink's target (``.../drivers/nvidia`` -> ``nvidia``), or None.

    The Host does not model symlinks (profiles cannot hold them), so this reads the real file
    system; it only runs for a LocalHost."""
    try:
        return os.path.basename(os.readlink(path).rstrip("/")) or None
    except OSError:
        return None


def _hex_id(text: Optional[str], width: int) -> Optional[str]:
    """``"0x10de\\n"`` -> ``"10de"``; ``"0x030000"`` -> ``"030000"``."""
    if not text:
        return None
    value = text.strip().lower()
    if value.startswith("0x"):
        value = value[2:]
    if not re.fullmatch(r"[0-9a-f]+", value):
        return None
    return value.zfill(width)[-width:]


def pci_ids_names(host: Host, wanted: set[tuple[str, str]], root: str = "") -> dict[
    tuple[str, str], str
]:
    """Names for ``(vendor, device)`` pairs from the first pci.ids found, e.g. ``("10de",
    "24a0")`` -> ``"NVIDIA GA104M [GeForce RTX 3070 Ti Mobile / Max-Q]"``."""
    if not wanted:
        return {}
    for path in PCI_IDS_PATHS:
        text = host.read_text(root + path, max_bytes=8 << 20)
        if text:
            return parse_pci_ids(text, wanted)
    return {}


def parse_pci_ids(text: str, wanted: set[tuple[str, str]]) -> dict[tuple[str, str], str]:
    """The names of ``wanted`` in a pci.ids text: only the blocks of the wanted vendors are read.

    The file has about 37,000 lines (1.3 MB); going through all of them took ~10 ms, every
    check on any Linux machine with a display device. A vendor's block starts at a line that
    begins with its id (device lines start with a tab, comments with ``#``) and ends at the next
    line that starts with neither; the device classes (``C ...``) follow the vendors."""
    names: dict[tuple[str, str], str] = {}
    classes = ("\n" + text).find("\nC ")
    end = classes if classes >= 0 else len(text)
    for vendor in sorted({v for v, _ in wanted}):
        for line_start in _vendor_lines(text, vendor, end):
            next_line = text.find("\n", line_start, end) + 1 or end
            block_end = _NOT_IN_BLOCK.search(text, next_line - 1, end) if next_line < end else None
            lines = text[line_start:block_end.start() + 1 if block_end else end].splitlines()
            vendor_label = VENDOR_NAMES.get(vendor, lines[0][4:].strip())
            for line in lines[1:]:
                if not line.startswith("\t") or line.startswith("\t\t"):
                    continue  # an empty line, a comment, a subsystem
                device = line[1:5].lower()
                if (vendor, device) in wanted:
                    names[(vendor, device)] = f"{vendor_label} {line[5:].strip()}"
    return names


_NOT_IN_BLOCK = re.compile(r"\n[^\t#\r\n]")
"""The next line that is not a device, subsystem, comment or empty line: a vendor or a class
(a literal first character, so ``re`` scans for it fast; a ``^`` pattern tries every position)."""


def _vendor_lines(text: str, vendor: str, end: int) -> list[int]:
    """Where the lines of ``vendor`` (4 lowercase hex digits; the file's are lowercase, an
    uppercase id is found too) start, before ``end``."""
    found = []
    for spelling in dict.fromkeys((vendor, vendor.upper())):
        if text.startswith(spelling):
            found.append(0)
        position = text.find("\n" + spelling, 0, end)
        while position >= 0:
            found.append(position + 1)
            position = text.find("\n" + spelling, position + 1, end)
    return sorted(found)


# -- Windows ---------------------------------------------------------------------------------


def windows_display_devices(host: Host) -> list[dict[str, Any]]:
    result = host.run(WINDOWS_PNP_ARGV, timeout=WINDOWS_TIMEOUT)
    if result.not_found or result.timed_out:
        return []
    return parse_windows_pnp_json(result.stdout)


def parse_windows_pnp_json(text: str) -> list[dict[str, Any]]:
    """Devices from PowerShell's ``ConvertTo-Json`` (one object or a list; any junk before it)."""
    start = min((i for i in (text.find("["), text.find("{")) if i >= 0), default=-1)
    if start < 0:
        return []
    try:
        data = json.loads(text[start:])
    except ValueError:
        return []
    entries = data if isinstance(data, list) else [data]
    devices = []
    seen = set()
    for entry in entries:
        if not isinstance(entry, dict):
            continue
        match = _PNP_ID.search(str(entry.get("PNPDeviceID") or ""))
        if not match:  # remote/indirect display adapters are not PCI devices
            continue
        vendor, device = match.group(1).lower(), match.group(2).lower()
        key = str(entry.get("PNPDeviceID")).upper()
        if key in seen:
            continue
        seen.add(key)
        label = str(entry.get("Name") or "").strip()
        name = label
        if vendor == NVIDIA and "nvidia" not in label.lower():
            # without the NVIDIA driver Windows calls it "Microsoft Basic Display Adapter"
            name = fallback_name(vendor, device)
        devices.append(
            {
                "vendor_id": vendor,
                "device_id": device,
                "name": name or fallback_name(vendor, device),
                "driver": (str(entry.get("Service")).strip() or None)
                if entry.get("Service")
                else None,
                "problem": windows_problem(entry.get("ConfigManagerErrorCode")),
                "label": label or None,
            }
        )
    return devices


def windows_problem(code: Any) -> Optional[str]:
    try:
        number = int(code)
    except (TypeError, ValueError):
        return None
    if number == 0:
        return None
    return WINDOWS_PROBLEMS.get(number, f"code {number}")
