"""Python environment discovery (through the Host) and the choice of the environment to check."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from wizard.core import envs
from wizard.core.envs import (
    REJECT_32BIT,
    REJECT_STORE_STUB,
    PythonEnv,
    choose_environment,
    discover,
    parse_launcher_list,
    pick,
)
from wizard.core.host import LocalHost, ReplayHost

U = "C:\\Users\\me"
WINDOWS_PROFILE: dict[str, Any] = {
    "format": "gpu-wizard/profile@1",
    "name": "win-envs",
    "platform": {"system": "windows", "release": "10.0.22631", "wsl": None},
    "env": {
        "USERPROFILE": U,
        "LOCALAPPDATA": U + "\\AppData\\Local",
        "Path": "C:\\Windows\\system32;" + U + "\\AppData\\Local\\Microsoft\\WindowsApps;"
        + U + "\\AppData\\Local\\Programs\\Python\\Python310\\",
        "CONDA_EXE": U + "\\miniconda3\\Scripts\\conda.exe",
    },
    "registry": {
        "HKCU\\SOFTWARE\\Python\\PythonCore\\3.10": {
            "DisplayName": ["REG_SZ", "Python 3.10 (64-bit)"],
            "SysArchitecture": ["REG_SZ", "64bit"],
            "SysVersion": ["REG_SZ", "3.10"],
        },
        "HKCU\\SOFTWARE\\Python\\PythonCore\\3.10\\InstallPath": {
            "": ["REG_SZ", U + "\\AppData\\Local\\Programs\\Python\\Python310\\"],
            "ExecutablePath": [
                "REG_SZ", U + "\\AppData\\Local\\Programs\\Python\\Python310\\python.exe"
            ],
        },
        "HKCU\\SOFTWARE\\Python\\PythonCore\\3.9-32": {
            "SysArchitecture": ["REG_SZ", "32bit"],
            "SysVersion": ["REG_SZ", "3.9"],
        },
        "HKCU\\SOFTWARE\\Python\\PythonCore\\3.9-32\\InstallPath": {
            "": ["REG_SZ", U + "\\AppData\\Local\\Programs\\Python\\Python39-32"],
        },
        "HKLM\\SOFTWARE\\Python\\ContinuumAnalytics\\Anaconda39-64\\InstallPath": {
            "ExecutablePath": ["REG_SZ", "C:\\ProgramData\\Anaconda3\\python.exe"],
        },
    },
    "files": {
        U + "\\AppData\\Local\\Programs\\Python\\Python310\\python.exe": None,
        U + "\\AppData\\Local\\Programs\\Python\\Python39-32\\python.exe": None,
        U + "\\AppData\\Local\\Microsoft\\WindowsApps\\python.exe": None,
        "C:\\ProgramData\\Anaconda3\\python.exe": None,
        "C:\\ProgramData\\Anaconda3\\conda-meta\\python-3.9.13-h6244533_2.json": "{}",
        U + "\\miniconda3\\python.exe": None,
        U + "\\miniconda3\\condabin\\conda.bat": None,
        U + "\\miniconda3\\conda-meta\\python-3.11.5-h.json": "{}",
        U + "\\miniconda3\\envs\\tf\\python.exe": None,
        U + "\\miniconda3\\envs\\tf\\conda-meta\\python-3.9.18-h.json": "{}",
        U + "\\miniconda3\\envs\\tf\\Lib\\site-packages\\tensorflow\\__init__.py": None,
        U + "\\miniconda3\\envs\\tools\\conda-meta\\git-2.40.json": "{}",
        U + "\\.conda\\environments.txt": U + "\\miniconda3\\envs\\tf\n"
        + U + "\\miniconda3\\envs\\gone\n",
        U + "\\.virtualenvs\\proj\\pyvenv.cfg": "home = C:\\Python310\nversion = 3.10.11\n",
        U + "\\.virtualenvs\\proj\\Scripts\\python.exe": None,
        U + "\\.virtualenvs\\notavenv\\readme.txt": "",
    },
    "commands": [
        {
            "argv": ["py", "-0p"],
            "returncode": 0,
            "stdout": " -V:3.10 *        " + U + "\\AppData\\Local\\Programs\\Python\\Python310\\"
            "python.exe\n -V:3.9-32        " + U + "\\AppData\\Local\\Programs\\Python\\"
            "Python39-32\\python.exe\n",
            "stderr": "",
        },
        {
            "argv": [U + "\\miniconda3\\Scripts\\conda.exe", "env", "list", "--json"],
            "returncode": 0,
            "stdout": json.dumps({"envs": [U + "\\miniconda3", U + "\\miniconda3\\envs\\tf",
                                           U + "\\miniconda3\\envs\\tools"]}),
            "stderr": "",
        },
    ],
    "nvml": {"error": "library_not_found"},
}


def by_exe(found: list[PythonEnv]) -> dict[str, PythonEnv]:
    return {env.executable.lower(): env for env in found}


def test_windows_discovery_covers_every_source_through_the_host() -> None:
    host = ReplayHost(WINDOWS_PROFILE)
    found = by_exe(discover(host))
    tf = found[(U + "\\miniconda3\\envs\\tf\\python.exe").lower()]
    assert tf.kind == "conda" and tf.name == "tf" and tf.version == "3.9.18"
    assert tf.has_tensorflow is True
    assert set(tf.sources) >= {"conda env list", "environments.txt"}
    base = found[(U + "\\miniconda3\\python.exe").lower()]
    assert base.name == "base" and base.version == "3.11.5" and base.has_tensorflow is False
    venv = found[(U + "\\.virtualenvs\\proj\\Scripts\\python.exe").lower()]
    assert venv.kind == "venv" and venv.version == "3.10.11"
    core = found[(U + "\\AppData\\Local\\Programs\\Python\\Python310\\python.exe").lower()]
    assert core.kind == "registry" and core.usable and core.version == "3.10"
    assert "py -0p" in core.sources and "PATH" in core.sources  # deduplicated, sources merged
    anaconda = found["c:\\programdata\\anaconda3\\python.exe"]
    assert anaconda.usable
    assert not any("tools" in key for key in found)  # a conda env without Python
    assert not any("gone" in key for key in found)  # a stale environments.txt line


def test_windows_32bit_and_store_stub_are_rejected_with_a_reason() -> None:
    found = by_exe(discover(ReplayHost(WINDOWS_PROFILE)))
    py32 = found[(U + "\\AppData\\Local\\Programs\\Python\\Python39-32\\python.exe").lower()]
    assert py32.rejected_reason == REJECT_32BIT
    stub = found[(U + "\\AppData\\Local\\Microsoft\\WindowsApps\\python.exe").lower()]
    assert stub.rejected_reason == REJECT_STORE_STUB
    assert "Store" in str(envs.rejected_message(stub.rejected_reason))


def test_store_python_behind_the_alias_is_not_a_stub() -> None:
    profile = json.loads(json.dumps(WINDOWS_PROFILE))
    apps = U + "\\AppData\\Local\\Microsoft\\WindowsApps"
    package = "PythonSoftwareFoundation.Python.3.11_qbz5n2kfra8p0"
    profile["files"][apps + "\\" + package + "\\python.exe"] = None
    found = by_exe(discover(ReplayHost(profile)))
    assert found[(apps + "\\python.exe").lower()].usable


def test_wow6432node_entries_are_32bit() -> None:
    profile = json.loads(json.dumps(WINDOWS_PROFILE))
    profile["registry"]["HKLM\\SOFTWARE\\WOW6432Node\\Python\\PythonCore\\3.8-32\\InstallPath"] = {
        "": ["REG_SZ", "C:\\Python38-32"]
    }
    profile["files"]["C:\\Python38-32\\python.exe"] = None
    found = by_exe(discover(ReplayHost(profile)))
    assert found["c:\\python38-32\\python.exe"].rejected_reason == REJECT_32BIT


def test_launcher_lines_old_and_new_format() -> None:
    text = (
        "Installed Pythons found by py Launcher for Windows\n"
        " -3.9-64        C:\\Python39\\python.exe *\n"
        " -V:3.12 *        C:\\Program Files\\Python312\\python.exe\n"
        " -V:ContinuumAnalytics/Anaconda39-64 C:\\Anaconda3\\python.exe\n"
    )
    entries = parse_launcher_list(text)
    assert ("3.12", "C:\\Program Files\\Python312\\python.exe") in entries
    assert ("ContinuumAnalytics/Anaconda39-64", "C:\\Anaconda3\\python.exe") in entries
    assert ("3.9-64", "C:\\Python39\\python.exe") in entries  # older launcher: default last
    assert len(entries) == 3


LINUX_PROFILE: dict[str, Any] = {
    "format": "gpu-wizard/profile@1",
    "name": "linux-envs",
    "platform": {"system": "linux", "release": "6.5.0", "wsl": None},
    "env": {"HOME": "/home/me", "PATH": "/home/me/.pyenv/shims:/home/me/venvs/tf/bin:/usr/bin"},
    "files": {
        "/home/me/.conda/environments.txt": (
            "/home/me/miniforge3\n/home/me/miniforge3/envs/tf-gpu\n"
        ),
        "/home/me/miniforge3/bin/python": None,
        "/home/me/miniforge3/conda-meta/python-3.12.1-h.json": "{}",
        "/home/me/miniforge3/envs/tf-gpu/bin/python": None,
        "/home/me/miniforge3/envs/tf-gpu/conda-meta/python-3.11.8-h.json": "{}",
        "/home/me/miniforge3/envs/tf-gpu/lib/python3.11/site-packages/tensorflow/__init__.py": "",
        "/home/me/venvs/tf/pyvenv.cfg": "home = /usr/bin\nversion_info = 3.10.12.final.0\n",
        "/home/me/venvs/tf/bin/python": None,
        "/home/me/venvs/tf/bin/python3": None,
        "/home/me/.pyenv/shims/python": "#!/usr/bin/env bash\n",
        "/home/me/.pyenv/versions/3.7.17/bin/python": None,
        "/home/me/.pyenv/versions/2.7.18/bin/python": None,
        "/usr/bin/python3": None,
        "/usr/bin/python3.10": None,
    },
    "nvml": {"error": "library_not_found"},
}


def test_linux_discovery_conda_venv_pyenv_path() -> None:
    found = by_exe(discover(ReplayHost(LINUX_PROFILE), cwd="/home/me/project"))
    tf = found["/home/me/miniforge3/envs/tf-gpu/bin/python"]
    assert tf.kind == "conda" and tf.has_tensorflow and tf.version == "3.11.8"
    venv = found["/home/me/venvs/tf/bin/python"]
    assert venv.kind == "venv" and venv.version == "3.10.12"
    assert "PATH" in venv.sources  # the PATH entry of the same venv merged into it
    assert "/home/me/venvs/tf/bin/python3" not in found
    assert found["/home/me/.pyenv/versions/3.7.17/bin/python"].kind == "pyenv"
    assert found["/home/me/.pyenv/versions/2.7.18/bin/python"].rejected_reason
    assert "/home/me/.pyenv/shims/python" not in found  # shims are not interpreters
    assert found["/usr/bin/python3.10"].version == "3.10"
    assert found["/usr/bin/python3"].kind == "path"


def test_score_prefers_tensorflow_then_named_envs() -> None:
    found = discover(ReplayHost(LINUX_PROFILE))
    best = max(found, key=envs.score)
    assert best.executable == "/home/me/miniforge3/envs/tf-gpu/bin/python"


# -- choosing --------------------------------------------------------------------------------


def probe(tf: str | None = None, gpus: int = 0, cuda: bool = True, bits: int = 64) -> dict:
    data: dict[str, Any] = {
        "probe": "gpu-wizard/env-probe@1",
        "python": {"version": "3.10.11", "bits": bits},
        "packages": {"tensorflow": tf},
        "tensorflow": None,
    }
    if tf:
        data["tensorflow"] = {
            "imported": True, "version": tf, "built_with_cuda": cuda,
            "gpus": [{"name": "/physical_device:GPU:0"}] * gpus,
        }
    return data


def test_pick_prefers_tf_that_sees_the_gpu() -> None:
    exe, chosen, reason = pick(
        [("a", probe(), 50), ("b", probe("2.10.0", gpus=0), 10), ("c", probe("2.10.0", gpus=1), 0)]
    )
    assert exe == "c" and "2.10.0" in str(reason) and chosen["tensorflow"]["gpus"]


def test_pick_without_tf_shows_the_best_environment_and_skips_failures() -> None:
    exe, chosen, reason = pick(
        [("a", {"error": "timeout", "error_kind": "timeout"}, 99), ("b", probe(), 5),
         ("c", probe(bits=32), 60)]
    )
    assert exe == "b" and "no environment has TensorFlow" in str(reason)
    assert pick([])[:2] == (None, None) and str(pick([])[2]) == "no Python environment found"
    assert pick([("a", {"error": "x"}, 1)])[0] is None


def test_pick_without_tf_prefers_a_python_the_target_supports() -> None:
    old, new, fits = probe(), probe(), probe()
    old["python"]["version"] = "3.6.15"
    new["python"]["version"] = "3.13.0"
    fits["python"]["version"] = "3.10.11"
    exe, _, _ = pick([("old", old, 0), ("new", new, 5), ("fits", fits, 0)], "3.7-3.10")
    assert exe == "fits"
    exe, _, _ = pick([("old", old, 0), ("new", new, 0)], None)
    assert exe == "new"  # nothing fits: the newest Python


def test_replay_uses_the_recorded_probes() -> None:
    profile = dict(LINUX_PROFILE)
    profile["pythons"] = [
        {"executable": "/usr/bin/python3", "probe": probe()},
        {"executable": "/home/me/venvs/tf/bin/python", "probe": probe("2.15.0", gpus=1)},
    ]
    exe, chosen, reason = choose_environment(ReplayHost(profile), None)
    assert exe == "/home/me/venvs/tf/bin/python" and chosen["packages"]["tensorflow"] == "2.15.0"


def test_replay_with_python_not_in_profile_is_an_error_result() -> None:
    exe, chosen, reason = choose_environment(ReplayHost(LINUX_PROFILE), "/opt/none/python")
    assert exe == "/opt/none/python" and chosen["error"] and str(reason) == "chosen with --python"


def test_local_python_that_does_not_exist_is_a_clear_error(tmp_path: Path) -> None:
    missing = str(tmp_path / "no such" / "python")
    exe, chosen, _ = choose_environment(LocalHost(), missing, timeout=10)
    assert exe == missing
    assert chosen["error_kind"] == "not_found" and missing in chosen["error"]


def test_local_choice_probes_discovered_envs_in_parallel(monkeypatch, tmp_path: Path) -> None:
    real = sys.executable
    fake_envs = [
        PythonEnv(real, "venv", name="tf", has_tensorflow=False),
        PythonEnv(str(tmp_path / "missing"), "path", name="gone"),
        PythonEnv("C:\\x", "path", rejected_reason=REJECT_STORE_STUB),
    ]
    monkeypatch.setattr(envs, "discover", lambda host, cwd=None: fake_envs)
    started = time.monotonic()
    exe, chosen, reason = choose_environment(LocalHost(), None, timeout=60)
    assert time.monotonic() - started < 30
    assert exe == real and chosen["probe"] == "gpu-wizard/env-probe@1"
    assert "no environment has TensorFlow" in str(reason)


def test_local_choice_with_nothing_found_is_fast(monkeypatch) -> None:
    monkeypatch.setattr(envs, "discover", lambda host, cwd=None: [])
    started = time.monotonic()
    exe, probe_, reason = choose_environment(LocalHost(), None)
    assert (exe, probe_, str(reason)) == (None, None, "no Python environment found")
    assert time.monotonic() - started < 1


def test_local_discovery_finds_this_venv(monkeypatch) -> None:
    prefix = sys.prefix
    if prefix == getattr(sys, "base_prefix", prefix):
        pytest.skip("not running in a venv")
    monkeypatch.setenv("VIRTUAL_ENV", prefix)
    found = discover(LocalHost())
    assert any(env.kind == "venv" and env.prefix == prefix for env in found)


def test_python_given_as_an_environment_folder(tmp_path: Path) -> None:
    import subprocess

    folder = tmp_path / "env"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True,
                   timeout=120)
    exe, chosen, reason = choose_environment(LocalHost(), str(folder), timeout=60)
    assert exe == str(folder / "bin" / "python") and chosen.get("error") is None
    assert str(folder) in str(reason)


def test_local_pythons_list_carries_discovery_fields_and_known_probes(monkeypatch) -> None:
    real = sys.executable
    monkeypatch.setattr(envs, "discover", lambda host, cwd=None: [
        PythonEnv(real, "venv", name="here", version="3.11.7"),
        PythonEnv("C:\\x\\python.exe", "store", rejected_reason=REJECT_STORE_STUB),
    ])
    host = LocalHost()
    probes: envs.ProbeCache = {}
    choose_environment(host, None, timeout=60, probes=probes)
    listed = {entry["executable"]: entry for entry in envs.listing(host, probes=probes)}
    assert listed[real]["probe"]["probe"] == "gpu-wizard/env-probe@1"
    assert listed[real]["kind"] == "venv" and listed[real]["version"] == "3.11.7"
    assert listed["C:\\x\\python.exe"]["probe"] is None
    assert listed["C:\\x\\python.exe"]["rejected_reason"] == REJECT_STORE_STUB
