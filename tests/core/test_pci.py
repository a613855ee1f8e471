"""Display-device discovery: Linux sysfs parsing on a fake tree, pci.ids names, and the Windows
device manager's JSON (PowerShell ConvertTo-Json)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from wizard.core.host import LocalHost, ReplayHost, pci

PCI_IDS = """\
# comment
10de  NVIDIA Corporation
\t1c82  GP107 [GeForce GTX 1050 Ti]
\t24a0  GA104M [GeForce RTX 3070 Ti Mobile / Max-Q]
\t\t1043 16c2  ROG laptop variant (subsystem line, ignored)
8086  Intel Corporation
\t9a49  TigerLake-LP GT2 [Iris Xe Graphics]
C 03  Display controller
\t00  VGA compatible controller
"""


def _device(root: Path, slot: str, cls: str, vendor: str, device: str, driver: str | None) -> None:
    directory = root / "sys/bus/pci/devices" / slot
    directory.mkdir(parents=True)
    (directory / "class").write_text(cls + "\n")
    (directory / "vendor").write_text(vendor + "\n")
    (directory / "device").write_text(device + "\n")
    if driver:
        target = root / "sys/bus/pci/drivers" / driver
        target.mkdir(parents=True, exist_ok=True)
        os.symlink(os.path.relpath(target, directory), directory / "driver")


@pytest.fixture
def sysfs(tmp_path: Path) -> Path:
    _device(tmp_path, "0000:00:02.0", "0x030000", "0x8086", "0x9a49", "i915")
    _device(tmp_path, "0000:01:00.0", "0x030200", "0x10de", "0x24a0", "nvidia")
    _device(tmp_path, "0000:01:00.1", "0x040300", "0x10de", "0x228b", "snd_hda_intel")  # audio
    _device(tmp_path, "0000:02:00.0", "0x030000", "0x10de", "0x1c82", None)  # no driver bound
    _device(tmp_path, "0000:00:1f.0", "0x060100", "0x8086", "0xa082", None)
    return tmp_path


def _local() -> LocalHost:
    return LocalHost()


def test_linux_sysfs_without_pci_ids_uses_fallback_names(sysfs: Path) -> None:
    devices = pci.list_display_devices(_local(), root=str(sysfs))
    assert [d["slot"] for d in devices] == ["0000:00:02.0", "0000:01:00.0", "0000:02:00.0"]
    intel, nvidia, bare = devices
    assert intel["vendor_id"] == "8086" and intel["driver"] == "i915"
    assert nvidia == {
        "vendor_id": "10de",
        "device_id": "24a0",
        "name": "NVIDIA device 10de:24a0",
        "driver": "nvidia",
        "problem": None,
        "slot": "0000:01:00.0",
        "class": "030200",
    }
    assert bare["driver"] is None
    assert bare["name"] == "NVIDIA device 10de:1c82"


def test_linux_sysfs_names_from_pci_ids(sysfs: Path) -> None:
    ids = sysfs / "usr/share/hwdata/pci.ids"
    ids.parent.mkdir(parents=True)
    ids.write_text(PCI_IDS)
    devices = pci.list_display_devices(_local(), root=str(sysfs))
    names = [d["name"] for d in devices]
    assert names == [
        "Intel TigerLake-LP GT2 [Iris Xe Graphics]",
        "NVIDIA GA104M [GeForce RTX 3070 Ti Mobile / Max-Q]",
        "NVIDIA GP107 [GeForce GTX 1050 Ti]",
    ]


@pytest.mark.skipif(os.name == "nt", reason="reads this Linux machine's sysfs")
def test_real_machine_sysfs_is_read_without_error() -> None:
    devices = LocalHost().pci_devices()
    assert all(d["class"].startswith("03") for d in devices)


def test_missing_sysfs_gives_no_devices(tmp_path: Path) -> None:
    assert pci.list_display_devices(_local(), root=str(tmp_path)) == []


def test_parse_pci_ids_ignores_subsystems_and_classes() -> None:
    names = pci.parse_pci_ids(PCI_IDS, {("10de", "24a0"), ("10de", "1043")})
    assert names == {("10de", "24a0"): "NVIDIA GA104M [GeForce RTX 3070 Ti Mobile / Max-Q]"}


def test_link_name_of_a_plain_file_is_none(tmp_path: Path) -> None:
    (tmp_path / "driver").write_text("")
    assert pci.link_name(str(tmp_path / "driver")) is None
    assert pci.link_name(str(tmp_path / "absent")) is None


WINDOWS_JSON_LIST = (
    "\ufeff["
    '{"Name":"Intel(R) UHD Graphics","PNPDeviceID":"PCI\\\\VEN_8086&DEV_9A60&SUBSYS_16C21043'
    '&REV_01\\\\3&11583659&0&10","PNPClass":"Display","Service":"iigd_dch",'
    '"ConfigManagerErrorCode":0,"Status":"OK"},'
    '{"Name":"Microsoft Basic Display Adapter","PNPDeviceID":"PCI\\\\VEN_10DE&DEV_24A0&SUBSYS_'
    '16C21043&REV_A1\\\\4&2B3C6B2&0&0008","PNPClass":"Display","Service":"BasicDisplay",'
    '"ConfigManagerErrorCode":0,"Status":"OK"},'
    '{"Name":"Microsoft Remote Display Adapter","PNPDeviceID":"SWD\\\\REMOTEDISPLAYENUM\\\\'
    'RDPIDD_INDIRECTDISPLAY&SESSIONID_0001","PNPClass":"Display","Service":"RdpIdd_IndirectDisplay",'
    '"ConfigManagerErrorCode":0,"Status":"OK"}'
    "]"
)

WINDOWS_JSON_CODE_28 = (
    '{"Name":"Video Controller","PNPDeviceID":"PCI\\\\VEN_10DE&DEV_2684&SUBSYS_16F110DE&REV_A1'
    '\\\\4&1","PNPClass":null,"Service":null,"ConfigManagerErrorCode":28,"Status":"Error"}'
)


def _windows_host(stdout: str | None, timed_out: bool = False) -> ReplayHost:
    commands = []
    if stdout is not None:
        entry = {"argv": pci.WINDOWS_PNP_ARGV, "returncode": 0, "stdout": stdout, "stderr": ""}
        if timed_out:
            entry["timed_out"] = True
        commands.append(entry)
    return ReplayHost({"platform": {"system": "windows"}, "commands": commands})


def test_windows_device_manager_list() -> None:
    devices = pci.list_display_devices(_windows_host(WINDOWS_JSON_LIST))
    assert len(devices) == 2  # the remote display adapter is not a PCI device
    intel, nvidia = devices
    assert intel["name"] == "Intel(R) UHD Graphics" and intel["driver"] == "iigd_dch"
    assert nvidia["vendor_id"] == "10de" and nvidia["device_id"] == "24a0"
    assert nvidia["name"] == "NVIDIA device 10de:24a0"
    assert nvidia["label"] == "Microsoft Basic Display Adapter"
    assert nvidia["driver"] == "BasicDisplay"
    assert nvidia["problem"] is None


def test_windows_single_object_with_code_28() -> None:
    (device,) = pci.list_display_devices(_windows_host(WINDOWS_JSON_CODE_28))
    assert device["device_id"] == "2684"
    assert device["problem"] == "code 28: drivers not installed"
    assert device["driver"] is None


@pytest.mark.parametrize(
    "stdout", ["", "garbage", "Get-CimInstance : Access denied", "[{broken"]
)
def test_windows_bad_output_gives_no_devices(stdout: str) -> None:
    assert pci.list_display_devices(_windows_host(stdout)) == []


def test_windows_powershell_missing_or_hung() -> None:
    assert pci.list_display_devices(_windows_host(None)) == []
    assert pci.list_display_devices(_windows_host(WINDOWS_JSON_LIST, timed_out=True)) == []


@pytest.mark.parametrize(
    ("code", "text"), [(0, None), (None, None), (43, "code 43"), (99, "code 99"), ("x", None)]
)
def test_windows_problem_codes(code, text) -> None:
    problem = pci.windows_problem(code)
    assert problem == text if text is None else problem.startswith(text)


@pytest.mark.parametrize("number", sorted(pci.WINDOWS_PROBLEMS))
def test_every_windows_problem_has_a_message_in_the_same_english(number: int) -> None:
    """A profile keeps Device Manager's problem as raw English text; where a layer shows it, the
    catalogue's ``driver.device_problem.code_<N>`` says the same in every language."""
    from wizard.core import messages

    message_id = f"driver.device_problem.code_{number}"
    assert messages.template(message_id) == pci.windows_problem(number)
    assert messages.template(message_id, "zh_CN") != messages.template(message_id)


def _line_by_line(text: str, wanted: set[tuple[str, str]]) -> dict[tuple[str, str], str]:
    """The reading parse_pci_ids replaced (every line in turn), as the oracle."""
    vendors = {v for v, _ in wanted}
    names: dict[tuple[str, str], str] = {}
    vendor, label = None, ""
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        if line.startswith("C "):
            break
        if not line.startswith("\t"):
            vendor, label = line[:4].lower(), pci.VENDOR_NAMES.get(line[:4].lower(),
                                                                  line[4:].strip())
            continue
        if vendor in vendors and not line.startswith("\t\t") and (vendor, line[1:5].lower()) \
                in wanted:
            names[(vendor, line[1:5].lower())] = f"{label} {line[5:].strip()}"
    return names


def _generated_pci_ids(seed: int) -> tuple[str, list[tuple[str, str]]]:
    import random

    rng = random.Random(seed)
    lines, pairs = ["# pci.ids, generated", ""], []
    for vendor in sorted(rng.sample(range(0x10000), 60)):
        v = f"{vendor:04x}"
        lines.append(f"{v}  Vendor {v}")
        for device in sorted(rng.sample(range(0x10000), rng.randint(0, 8))):
            d = f"{device:04x}"
            pairs.append((v, d))
            lines.append(f"\t{d}  Device {d} of {v}")
            if rng.random() < 0.3:
                lines.append(f"\t\t{v} {d}  subsystem (ignored)")
            if rng.random() < 0.1:
                lines.append(rng.choice(["# a comment inside a block", ""]))
    lines += ["C 03  Display controller", "\t00  VGA compatible controller",
              "\t\t00  VGA controller", "C 04  Multimedia controller"]
    return "\n".join(lines) + "\n", pairs


@pytest.mark.parametrize("seed", range(5))
def test_parse_pci_ids_reads_the_wanted_blocks_as_a_line_by_line_reading_would(seed) -> None:
    import random

    text, pairs = _generated_pci_ids(seed)
    rng = random.Random(seed)
    for _ in range(40):
        wanted = set(rng.sample(pairs, rng.randint(1, 4)))
        wanted.add((f"{rng.randrange(0x10000):04x}", f"{rng.randrange(0x10000):04x}"))
        wanted.add(("10de", "24a0"))  # a known vendor (its short name)
        names = pci.parse_pci_ids(text, wanted)
        assert names == _line_by_line(text, wanted)
        assert names.keys() <= wanted
    every = set(pairs)
    assert pci.parse_pci_ids(text, every) == _line_by_line(text, every)
    assert len(pci.parse_pci_ids(text, every)) == len(every)


@pytest.mark.parametrize("text", [
    PCI_IDS.replace("\n", "\r\n"),
    "C 03  Display controller\n10de  NVIDIA Corporation\n\t24a0  after the classes\n",
    "10de  NVIDIA Corporation\n\t24a0  GA104M [no final newline]",
    "10DE  NVIDIA Corporation\n\t24A0  GA104M [upper case]\n",
    "",
])
def test_parse_pci_ids_edge_cases_match_a_line_by_line_reading(text: str) -> None:
    wanted = {("10de", "24a0"), ("8086", "9a49")}
    assert pci.parse_pci_ids(text, wanted) == _line_by_line(text, wanted)
