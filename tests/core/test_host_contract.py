"""One contract, three Hosts: the real machine (LocalHost), a recording of it (RecordingHost) and
the replay of that recording (ReplayHost) answer the same questions the same way, so a layer
never needs to know which one it talks to."""

from __future__ import annotations

import json
import os
import signal
import sys
from pathlib import Path
from typing import Callable

import pytest

from wizard.core.host import Host, LocalHost, RecordingHost, ReplayHost

Check = Callable[[Host, Path], None]


@pytest.fixture(scope="module")
def machine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small folder tree standing in for a CUDA install."""
    root = tmp_path_factory.mktemp("machine")
    (root / "cuda" / "bin").mkdir(parents=True)
    (root / "cuda" / "lib64").mkdir()
    (root / "cuda" / "version.json").write_text('{"cuda": {"version": "12.5.1"}}',
                                                encoding="utf-8")
    (root / "cuda" / "lib64" / "libcudart.so.12").write_bytes(b"\x7fELF\0binary")
    (root / "cuda" / "bin" / "nvcc").write_text("#!/bin/sh\n", encoding="utf-8")
    (root / "notes.txt").write_text("中文 text\n", encoding="utf-8")
    return root


def _exercise(host: Host, root: Path) -> None:
    """Every question the contract checks, asked once (what a recording must capture)."""
    for check in CHECKS.values():
        check(host, root)


def check_files(host: Host, root: Path) -> None:
    cuda = str(root / "cuda")
    assert host.exists(cuda) and host.is_dir(cuda) and not host.is_file(cuda)
    assert host.is_file(str(root / "cuda" / "version.json"))
    assert not host.exists(str(root / "cuda" / "missing.dll"))
    assert host.read_text(str(root / "cuda" / "version.json")) == (
        '{"cuda": {"version": "12.5.1"}}')
    assert host.read_text(str(root / "notes.txt")) == "中文 text\n"
    assert host.read_text(str(root / "cuda" / "lib64" / "libcudart.so.12")) is None  # binary
    assert host.read_text(str(root / "nothing.txt")) is None


def check_listing(host: Host, root: Path) -> None:
    assert host.listdir(str(root / "cuda")) == ["bin", "lib64", "version.json"]
    assert host.listdir(str(root / "no-such-folder")) == []
    assert host.glob(str(root / "cuda" / "lib64"), "libcudart.so.*") == [
        str(root / "cuda" / "lib64" / "libcudart.so.12")]


def check_environment(host: Host, root: Path) -> None:
    assert host.getenv("GPU_WIZARD_CONTRACT") == f"{root}/cuda/bin"
    assert host.path_entries("GPU_WIZARD_CONTRACT") == [f"{root}/cuda/bin"]
    assert host.getenv("GPU_WIZARD_NOT_SET") is None
    assert host.registry_values("HKLM\\SOFTWARE\\NVIDIA Corporation") == {}  # not Windows


def check_commands(host: Host, root: Path) -> None:
    result = host.run([sys.executable, "-c", "print('contract')"])
    assert result.ok and result.stdout.strip() == "contract"
    missing = host.run(["gpu-wizard-no-such-program"])
    assert missing.not_found and missing.returncode is None


def check_gpu(host: Host, root: Path) -> None:
    nvml = host.nvml()
    assert "error" in nvml and (nvml["error"] is not None or isinstance(nvml.get("gpus"), list))
    assert isinstance(host.pci_devices(), list)


def check_platform(host: Host, root: Path) -> None:
    assert host.platform.system == "linux" and not host.is_windows
    assert host.same_path(str(root / "cuda" / ".." / "cuda"), str(root / "cuda"))


CHECKS: dict[str, Check] = {
    "files": check_files,
    "listing": check_listing,
    "environment": check_environment,
    "commands": check_commands,
    "gpu": check_gpu,
    "platform": check_platform,
}


@pytest.fixture(scope="module")
def hosts(machine: Path) -> dict[str, Host]:
    patch = pytest.MonkeyPatch()
    patch.setenv("GPU_WIZARD_CONTRACT", f"{machine}/cuda/bin")
    try:
        local = LocalHost()
        recorder = RecordingHost.wrap(LocalHost())
        _exercise(recorder, machine)
        profile = json.loads(json.dumps(recorder.profile(name="contract")))
    finally:
        patch.undo()
    # the snapshot keeps only the variables the checks read: this one is the test's own
    profile["env"]["GPU_WIZARD_CONTRACT"] = f"{machine}/cuda/bin"
    return {"local": local, "recording": recorder,
            "replay": ReplayHost(profile, "contract.json")}


@pytest.mark.parametrize("kind", ["local", "recording", "replay"])
@pytest.mark.parametrize("check", sorted(CHECKS))
def test_every_host_keeps_the_contract(
    hosts: dict[str, Host], machine: Path, monkeypatch: pytest.MonkeyPatch, kind: str, check: str
) -> None:
    monkeypatch.setenv("GPU_WIZARD_CONTRACT", f"{machine}/cuda/bin")
    CHECKS[check](hosts[kind], machine)


@pytest.mark.parametrize("kind", ["local", "recording", "replay"])
def test_what_kind_of_host(hosts: dict[str, Host], kind: str) -> None:
    host = hosts[kind]
    assert host.is_live == (kind != "replay")
    assert (host.profile_name is None) == host.is_live
    # discovery is not the Host's: only a replay brings its recorded environments
    assert (host.recorded_pythons() is None) == host.is_live


def test_a_probe_answers_the_same_through_every_host(hosts: dict[str, Host]) -> None:
    recorder = hosts["recording"]
    probed = recorder.probe_python(sys.executable, timeout=120)
    assert probed.get("probe") == "gpu-wizard/env-probe@1", probed
    replay = ReplayHost(json.loads(json.dumps(recorder.profile(name="probe"))), "probe.json")
    assert replay.probe_python(sys.executable) == probed
    assert replay.probe_python("/no/such/python")["error"]


def test_probe_result_gives_typed_parts() -> None:
    from wizard.core.host import ProbeResult

    probe = ProbeResult({"probe": "gpu-wizard/env-probe@1", "python": {"version": "3.10.11",
                         "bits": 64}, "packages": {"tensorflow": "2.10.1"}, "tensorflow": None,
                         "log": "x"})
    assert probe.python_version == "3.10.11" and probe.bits == 64 and probe.error is None
    assert probe.packages == {"tensorflow": "2.10.1"} and probe.tensorflow is None
    assert probe.log == "x" and probe.torch is None
    failed = ProbeResult(error="timed out after 180 s", error_kind="timeout")
    assert failed.error and failed.error_kind == "timeout"
    assert failed.python == {} and failed.python_version is None and failed.packages == {}
    assert ProbeResult.of(None) is None and ProbeResult.of(probe) is probe
    assert json.loads(json.dumps(probe)) == dict(probe)  # recorded in profiles as it came


CHILD = """
import subprocess, sys, time
print("first", flush=True)
sys.stderr.write("to stderr\\r\\n"); sys.stderr.flush()
print("progress 10%\\rprogress 90%", flush=True)
if "--sleep" in sys.argv:
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    print("grandchild", child.pid, flush=True)
    time.sleep(60)
sys.exit(int(sys.argv[1]))
"""


@pytest.mark.parametrize("kind", ["local", "recording"])
def test_a_streaming_run_hands_on_each_line_and_the_exit_status(
    hosts: dict[str, Host], kind: str
) -> None:
    lines: list[str] = []
    result = hosts[kind].run_streaming([sys.executable, "-c", CHILD, "3"], on_line=lines.append,
                                       env={"GPU_WIZARD_STREAM": "1"})
    assert lines == ["first", "to stderr", "progress 10%", "progress 90%"]
    assert result.returncode == 3 and not result.ok and not result.cancelled
    assert result.stdout.splitlines() == lines
    missing = hosts[kind].run_streaming(["gpu-wizard-no-such-program"])
    assert missing.not_found and missing.returncode is None


def test_a_streaming_run_gets_the_extra_environment(hosts: dict[str, Host]) -> None:
    code = "import os; print(os.environ['GPU_WIZARD_STREAM'], os.environ['PYTHONUNBUFFERED'])"
    result = hosts["local"].run_streaming([sys.executable, "-c", code],
                                          env={"GPU_WIZARD_STREAM": "yes"})
    assert result.ok and result.stdout.strip() == "yes 1"


@pytest.mark.skipif(sys.platform == "win32", reason="the process group is POSIX's")
def test_cancel_kills_the_whole_process_tree(hosts: dict[str, Host], tmp_path: Path) -> None:
    import time

    started = time.monotonic()
    seen: list[str] = []
    result = hosts["local"].run_streaming(
        [sys.executable, "-c", CHILD, "0", "--sleep"], on_line=seen.append,
        cancelled=lambda: any(line.startswith("grandchild") for line in seen))
    assert result.cancelled and result.returncode is None
    assert time.monotonic() - started < 20
    grandchild = int(next(line for line in seen if line.startswith("grandchild")).split()[1])
    assert _gone(grandchild), "the child's own child survived the cancel"
    timed = hosts["local"].run_streaming([sys.executable, "-c", CHILD, "0", "--sleep"],
                                         timeout=1.0)
    assert timed.timed_out and timed.returncode is None and "first" in timed.stdout


def _gone(pid: int) -> bool:
    """The process has exited (absent, or a zombie nobody reaped yet)."""
    import time

    for _ in range(50):
        try:
            with open(f"/proc/{pid}/stat", encoding="utf-8") as handle:
                if handle.read().rsplit(")", 1)[1].split()[0] == "Z":
                    return True
        except OSError:
            return True
        time.sleep(0.1)
    return False


def test_a_replay_refuses_to_run_anything(hosts: dict[str, Host]) -> None:
    from wizard.core.host import ReadOnlyHost

    with pytest.raises(ReadOnlyHost, match="demo mode"):
        hosts["replay"].run_streaming([sys.executable, "-c", "print(1)"])


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_a_program_whose_child_keeps_the_pipe_still_ends(hosts: dict[str, Host],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    from wizard.core.host import stream

    monkeypatch.setattr(stream, "EXIT_GRACE_S", 0.5)
    code = ("import subprocess, sys; child = subprocess.Popen([sys.executable, '-c', "
            "'import time; time.sleep(30)']); print('child', child.pid)")
    started = time.monotonic()
    result = hosts["local"].run_streaming([sys.executable, "-c", code])
    assert result.ok and result.stdout.startswith("child ")
    assert time.monotonic() - started < 20
    os.kill(int(result.stdout.split()[1]), signal.SIGTERM)
