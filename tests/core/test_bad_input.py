"""Bad input: broken profiles, unreadable files, hanging commands, GBK output, NVML failures.

A broken profile is a ProfileError that names the file and the key, and ``gpu-wizard check``
turns it into exit status 2 with one line on stderr. A broken machine is never a crash: every
layer still reports, with a finding that says what is wrong.
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable

import pytest

from wizard.core.codes import CODES
from wizard.core.diagnose import run_check
from wizard.core.host import (
    NVML_ERRORS,
    LocalHost,
    ProfileError,
    ReplayHost,
    decode_output,
)
from wizard.core.model import LAYERS, STATUSES

REPO_ROOT = Path(__file__).resolve().parents[2]
PROFILES = REPO_ROOT / "tests" / "profiles"


def base_profile(name: str = "linux-tf221-and-cuda-healthy") -> dict[str, Any]:
    return json.loads((PROFILES / f"{name}.json").read_text(encoding="utf-8"))


def write(tmp_path: Path, data: Any, name: str = "bad.json") -> Path:
    path = tmp_path / name
    text = data if isinstance(data, str) else json.dumps(data)
    path.write_text(text, encoding="utf-8")
    return path


# -- broken profiles ----------------------------------------------------------------------------


def test_malformed_json_names_file_and_position(tmp_path: Path) -> None:
    path = write(tmp_path, '{"format": "gpu-wizard/profile@1",\n "platform": {"system": "linux",}}')
    with pytest.raises(ProfileError) as info:
        ReplayHost.from_file(path)
    message = str(info.value)
    assert str(path) in message and "line 2" in message


def test_truncated_profile(tmp_path: Path) -> None:
    text = (PROFILES / "win-tf210-healthy.json").read_text(encoding="utf-8")
    path = write(tmp_path, text[: len(text) // 2])
    with pytest.raises(ProfileError, match="not valid JSON") as info:
        ReplayHost.from_file(path)
    assert str(path) in str(info.value)


def test_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "gbk.json"
    path.write_bytes('{"format": "gpu-wizard/profile@1", "name": "张伟"}'.encode("gbk"))
    with pytest.raises(ProfileError, match="UTF-8") as info:
        ReplayHost.from_file(path)
    assert str(path) in str(info.value)


def test_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "nope.json"
    with pytest.raises(ProfileError, match="cannot read") as info:
        ReplayHost.from_file(path)
    assert str(path) in str(info.value)


def mutate(change: Callable[[dict], None]) -> dict:
    data = copy.deepcopy(base_profile())
    change(data)
    return data


BROKEN = {
    "wrong-format": (lambda d: d.update(format="gpu-wizard/profile@9"), "'format'"),
    "not-an-object": (None, "JSON object"),
    "platform-missing": (lambda d: d.pop("platform"), "'platform'"),
    "platform-system": (lambda d: d["platform"].update(system="darwin"), "platform.system"),
    "platform-wsl": (lambda d: d["platform"].update(wsl=3), "platform.wsl"),
    "files-list": (lambda d: d.update(files=["/etc/os-release"]), "'files'"),
    "files-value": (
        lambda d: d["files"].update({"/etc/os-release": 42}), "files['/etc/os-release']"
    ),
    "commands-dict": (lambda d: d.update(commands={"argv": ["nvidia-smi"]}), "'commands'"),
    "commands-argv": (lambda d: d["commands"].insert(0, {"args": "nvidia-smi"}), "commands[0]"),
    "nvml-list": (lambda d: d.update(nvml=[]), "'nvml'"),
    "nvml-error": (lambda d: d.update(nvml={"error": "on_fire"}), "nvml.error"),
    "nvml-gpus": (lambda d: d["nvml"].update(gpus={"0": {}}), "nvml.gpus"),
    "env-list": (lambda d: d.update(env=["PATH=/usr/bin"]), "'env'"),
    "registry-values": (lambda d: d.update(registry={"HKCU\\Environment": "x"}), "registry["),
    "pythons-entry": (lambda d: d.update(pythons=[{"exe": "/usr/bin/python3"}]), "pythons[0]"),
    "denied-dict": (lambda d: d.update(denied={"/dev/nvidia0": True}), "'denied'"),
    "probe-not-an-object": (
        lambda d: d.update(pythons=[{"executable": "/usr/bin/python3", "probe": "Traceback"}]),
        "'pythons[0].probe'",
    ),
    "driver-cuda-as-text": (
        lambda d: d.update(nvml={"error": None, "cuda_driver_version": "12.7"}),
        "'nvml.cuda_driver_version'",
    ),
    "gpu-without-index": (lambda d: d.update(nvml={"error": None, "gpus": [{}]}),
                          "'nvml.gpus[0].index'"),
    "pci-not-objects": (lambda d: d.update(pci=[1, None]), "'pci[0]'"),
    "env-value-number": (lambda d: d.update(env={"PATH": 5}), "env['PATH']"),
    "probe-python-text": (
        lambda d: d.update(pythons=[{"executable": "/p", "probe": {"python": "x"}}]),
        "'pythons[0].probe.python'",
    ),
    "probe-packages-list": (
        lambda d: d.update(pythons=[{"executable": "/p", "probe": {"packages": ["tf"]}}]),
        "'pythons[0].probe.packages'",
    ),
    "probe-gpus-text": (
        lambda d: d.update(pythons=[{"executable": "/p",
                                     "probe": {"tensorflow": {"gpus": ["x"]}}}]),
        "'pythons[0].probe.tensorflow.gpus[0]'",
    ),
    "probe-matmul-text": (
        lambda d: d.update(pythons=[{"executable": "/p",
                                     "probe": {"tensorflow": {"matmul": "x"}}}]),
        "'pythons[0].probe.tensorflow.matmul'",
    ),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_broken_profile_names_file_and_key(tmp_path: Path, case: str) -> None:
    change, key = BROKEN[case]
    data: Any = [1, 2] if change is None else mutate(change)
    path = write(tmp_path, data)
    with pytest.raises(ProfileError) as info:
        ReplayHost.from_file(path)
    message = str(info.value)
    assert message.startswith(str(path) + ":"), message
    assert key in message, message


@pytest.mark.parametrize("case", ["wrong-format", "platform-missing", "files-list", "nvml-error"])
def test_cli_exits_2_with_one_line(tmp_path: Path, case: str) -> None:
    change, key = BROKEN[case]
    path = write(tmp_path, mutate(change))
    result = subprocess.run(
        [sys.executable, "-m", "wizard", "check", "--profile", str(path)],
        capture_output=True, text=True, timeout=60, check=False, cwd=str(REPO_ROOT),
    )
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert str(path) in lines[0] and key in lines[0]


def test_cli_exits_2_for_malformed_json(tmp_path: Path) -> None:
    path = write(tmp_path, "{not json")
    result = subprocess.run(
        [sys.executable, "-m", "wizard", "check", "--profile", str(path), "--json"],
        capture_output=True, text=True, timeout=60, check=False, cwd=str(REPO_ROOT),
    )
    assert result.returncode == 2 and result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1 and str(path) in result.stderr


# -- unreadable files ---------------------------------------------------------------------------


def test_denied_files_exist_but_cannot_be_read(tmp_path: Path) -> None:
    data = base_profile()
    data["files"]["/etc/secret.conf"] = "password=hunter2\n"
    data["denied"] = ["/etc/secret.conf", "/dev/nvidia0"]
    host = ReplayHost.from_file(write(tmp_path, data))
    assert host.exists("/etc/secret.conf") and host.exists("/dev/nvidia0")
    assert host.read_text("/etc/secret.conf") is None
    assert not host.can_open("/dev/nvidia0")
    assert host.can_open("/dev/nvidiactl")


def test_local_unreadable_file(tmp_path: Path) -> None:
    path = tmp_path / "locked.txt"
    path.write_text("secret", encoding="utf-8")
    path.chmod(0)
    try:
        if os.access(path, os.R_OK):
            pytest.skip("running as root: chmod 000 does not deny reading")
        host = LocalHost()
        assert host.exists(str(path))
        assert host.read_text(str(path)) is None
        assert not host.can_open(str(path))
    finally:
        path.chmod(0o600)


def test_local_read_text_of_a_directory_and_a_binary(tmp_path: Path) -> None:
    host = LocalHost()
    assert host.read_text(str(tmp_path)) is None
    binary = tmp_path / "lib.so"
    binary.write_bytes(b"\x7fELF\x02\x01\x01\x00" + bytes(64))
    assert host.read_text(str(binary)) is None
    assert host.read_text(str(tmp_path / "absent")) is None


# -- commands -----------------------------------------------------------------------------------


def test_hanging_command_times_out_quickly() -> None:
    started = time.monotonic()
    result = LocalHost().run(["sleep", "30"], timeout=0.5)
    elapsed = time.monotonic() - started
    assert result.timed_out and result.returncode is None and not result.ok
    assert elapsed < 5, elapsed


def test_missing_program_is_not_found() -> None:
    result = LocalHost().run(["gpu-wizard-no-such-program-xyz", "--version"], timeout=5)
    assert result.not_found and result.returncode is None


def test_replayed_timeout() -> None:
    host = ReplayHost.from_file(PROFILES / "linux-nvidia-smi-hangs.json")
    result = host.run(["nvidia-smi"])
    assert result.timed_out and result.returncode is None
    assert host.run(["nvidia-smi", "--version"]).not_found


# -- output encodings ---------------------------------------------------------------------------

CHINESE_SMI = (
    "NVIDIA-SMI 已失败，因为它无法与 NVIDIA 驱动程序通信。"
    "请确保已安装并运行最新的 NVIDIA 驱动程序。\n"
    "|    0   N/A  N/A      9132    C+G   C:\\Program Files\\腾讯\\QQ\\Bin\\QQ.exe    N/A |\n"
)


def test_decode_gbk_output() -> None:
    assert decode_output(CHINESE_SMI.encode("gbk")) == CHINESE_SMI


def test_decode_utf8_and_garbage() -> None:
    assert decode_output(CHINESE_SMI.encode("utf-8")) == CHINESE_SMI
    assert decode_output(b"") == ""
    assert isinstance(decode_output(b"\xff\xfe\x00\xd8garbage\x81"), str)


def test_local_run_decodes_gbk_bytes() -> None:
    script = "import sys; sys.stdout.buffer.write(sys.argv[1].encode('gbk'))"
    result = LocalHost().run([sys.executable, "-c", script, CHINESE_SMI], timeout=30)
    assert result.ok
    assert result.stdout == CHINESE_SMI


# -- NVML failures ------------------------------------------------------------------------------

NVML_BASES = ["linux-tf221-and-cuda-healthy", "win-tf210-healthy", "wsl2-healthy"]
SMI_NO_DRIVER = ("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. "
                 "Make sure that the latest NVIDIA driver is installed and running.\n")
SMI_ANSWERS: dict[str, tuple[str, Any]] = {
    "library_not_found": (SMI_NO_DRIVER, 9),
    "driver_not_loaded": (SMI_NO_DRIVER, 9),
    "driver_library_mismatch": ("Failed to initialize NVML: Driver/library version mismatch\n", 18),
    "no_permission": ("Failed to initialize NVML: Insufficient Permissions\n", 4),
    "unknown": ("", None),  # hangs
}


@pytest.mark.parametrize("base", NVML_BASES)
@pytest.mark.parametrize("kind", NVML_ERRORS)
def test_nvml_error_still_covers_every_layer(tmp_path: Path, base: str, kind: str) -> None:
    data = base_profile(base)
    data["nvml"] = {"error": kind, "detail": f"simulated {kind}"}
    # nvidia-smi is built on NVML: it fails the same way
    smi_text, smi_rc = SMI_ANSWERS[kind]
    data["commands"] = [
        dict(entry, stdout=smi_text, stderr="", returncode=smi_rc, timed_out=smi_rc is None)
        if Path(entry["argv"][0].replace("\\", "/")).stem.lower() == "nvidia-smi" else entry
        for entry in data["commands"]
    ]
    report = run_check(ReplayHost.from_file(write(tmp_path, data)))
    assert [layer.layer for layer in report.layers[:5]] == list(LAYERS)
    for layer in report.layers:
        assert layer.status in STATUSES and layer.summary, layer
    codes = report.codes()
    assert "check_failed" not in codes, [layer.summary for layer in report.layers]
    driver = report.layer("driver")
    assert driver.status != "ok", f"NVML {kind} must not pass silently: {driver.summary}"
    assert driver.findings or report.layer("gpu").findings, "a finding names the problem"
    for finding in driver.findings:
        assert finding.code in CODES
        message = finding.message()
        assert message and "?" not in message and "{" not in message, message


BROKEN_MACHINE = {
    "gpu-without-fields": lambda d: d["nvml"].update(gpus=[{"index": 0}]),
    "probe-empty": lambda d: d["pythons"][0].update(probe={}),
    "probe-error": lambda d: d["pythons"][0].update(probe={"error": "timed out after 180 s"}),
    "command-without-output": lambda d: d.update(commands=[{"argv": ["nvidia-smi"]}]),
    "binary-version-file": lambda d: d["files"].update(
        {k: None for k in d["files"] if k.endswith(("version.json", "cudnn_version.h"))}),
    "no-pythons": lambda d: d.update(pythons=[]),
}


@pytest.mark.parametrize("base", ["win-tf210-healthy", "linux-cuda112-ld-library-path-missing"])
@pytest.mark.parametrize("case", sorted(BROKEN_MACHINE))
def test_odd_machine_never_crashes_a_layer(tmp_path: Path, base: str, case: str) -> None:
    data = base_profile(base)
    BROKEN_MACHINE[case](data)
    report = run_check(ReplayHost.from_file(write(tmp_path, data)))
    assert [layer.layer for layer in report.layers[:5]] == list(LAYERS)
    crashed = [layer.summary for layer in report.layers if any(
        f.code == "check_failed" for f in layer.findings)]
    assert not crashed, crashed
    json.dumps(report.to_dict())  # the report stays serialisable
