"""PATH and CUDA_PATH for new terminals: the Windows registry (a MemoryRegistry behind a
LocalHost) and the Linux shell profile block."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from wizard import cli
from wizard.core.fixes import env, journal, registry
from wizard.core.fixes.verify import verify
from wizard.core.host import LocalHost, PlatformInfo
from wizard.core.host.registry import MemoryRegistry
from wizard.core.host.windows import SYSTEM_ENV_KEY, USER_ENV_KEY, registry_path_entries

CUDA_10 = r"C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v10.0\bin"
CUDA_11 = r"C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v11.2\bin"


@pytest.fixture(autouse=True)
def state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(journal.STATE_ENV, str(tmp_path / "state"))
    monkeypatch.setenv("SystemRoot", r"C:\Windows")


def long_path() -> str:
    entries = [r"%SystemRoot%\system32", r"%SystemRoot%", r"%SystemRoot%\System32\Wbem",
               r"%USERPROFILE%\AppData\Local\Microsoft\WindowsApps", CUDA_10]
    number = 0
    while len(";".join(entries)) < 3000:
        entries.insert(3, rf"C:\Tools\some-long-tool-folder-{number:03d}\bin")
        number += 1
    return ";".join(entries) + ";"


def windows_host(path_value: str, kind: str = "REG_EXPAND_SZ") -> tuple[LocalHost,
                                                                         MemoryRegistry]:
    backend = MemoryRegistry({
        USER_ENV_KEY: {"Path": (kind, path_value), "TEMP": ("REG_EXPAND_SZ", r"%USERPROFILE%")},
        SYSTEM_ENV_KEY: {"Path": ("REG_EXPAND_SZ", r"%SystemRoot%\system32")},
    }, denied=(SYSTEM_ENV_KEY,))
    return LocalHost(platform=PlatformInfo("windows"), registry_backend=backend), backend


def test_a_3000_character_path_survives_add_and_undo() -> None:
    original = long_path()
    assert len(original) >= 3000
    host, backend = windows_host(original)
    plan = env.plan_path(host, CUDA_11)
    assert plan.ops[0].new[0] == "REG_EXPAND_SZ"
    applied = journal.apply(host, plan)
    kind, value = backend.read_values(USER_ENV_KEY)["Path"]
    assert kind == "REG_EXPAND_SZ"
    # the same value with one entry more, ahead of the older CUDA; %SystemRoot% unexpanded
    assert value == original.replace(CUDA_10, CUDA_11 + ";" + CUDA_10)
    assert backend.broadcasts == 1
    assert CUDA_11 in registry_path_entries(host)
    assert verify(host, plan)[0]

    again = env.plan_path(host, CUDA_11)  # adding twice adds once
    assert again.empty and again.notes[0].id == "fix.plan.already"

    assert journal.undo(host, applied)
    assert backend.read_values(USER_ENV_KEY)["Path"] == ("REG_EXPAND_SZ", original)
    assert not journal.undo(host, applied)  # second undo: a no-op
    assert backend.read_values(USER_ENV_KEY)["Path"] == ("REG_EXPAND_SZ", original)


def test_an_entry_written_with_a_variable_counts_as_there() -> None:
    host, _ = windows_host(r"%SystemRoot%\system32;C:\x")
    assert env.plan_path(host, r"C:\Windows\System32").empty


def test_a_plain_folder_goes_last_and_a_reg_sz_stays_reg_sz() -> None:
    host, backend = windows_host(r"C:\a;C:\b", kind="REG_SZ")
    journal.apply(host, env.plan_path(host, r"D:\tools"))
    assert backend.read_values(USER_ENV_KEY)["Path"] == ("REG_SZ", r"C:\a;C:\b;D:\tools")


def test_cuda_path_sets_the_variable_and_the_bin_folder(tmp_path: Path) -> None:
    host, backend = windows_host(CUDA_10)
    cuda = tmp_path / "NVIDIA GPU Computing Toolkit" / "CUDA" / "v11.2"
    cuda.mkdir(parents=True)
    plan = env.plan_cuda_path(host, str(cuda))
    lines = "\n".join(plan.lines("en"))
    assert "CUDA_PATH" in lines and "(not set)" in lines
    journal.apply(host, plan)
    values = backend.read_values(USER_ENV_KEY)
    assert values["CUDA_PATH"] == ("REG_SZ", str(cuda))
    assert values["Path"][1].startswith(host.join(str(cuda), "bin") + ";")


def test_the_system_scope_needs_an_administrator() -> None:
    host, backend = windows_host("C:\\a")
    plan = env.plan_path(host, r"D:\x", system=True)
    assert plan.needs_admin
    with pytest.raises(journal.FixError) as denied:
        journal.apply(host, plan)
    assert denied.value.message.id == "fix.failed.denied"
    assert backend.read_values(SYSTEM_ENV_KEY)["Path"] == ("REG_EXPAND_SZ",
                                                           r"%SystemRoot%\system32")


def test_the_registry_of_actions_builds_plans() -> None:
    host, _ = windows_host("C:\\a")
    assert set(registry.ACTIONS) == {"install_cudnn", "install_zlibwapi", "set_env"}
    plan = registry.builder("set_env")(host, {"name": "PATH", "prepend": r"D:\x"}, {})
    assert plan.action == "set_env" and plan.ops
    assert registry.builder("nothing") is None
    with pytest.raises(journal.FixError):
        registry.builder("install_cudnn")(host, {"dest": "C:\\cuda"}, {})


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_linux_profile_block_add_twice_verify_undo(tmp_path: Path, monkeypatch,
                                                   capsys) -> None:
    home = tmp_path / "home"
    home.mkdir()
    bashrc = home / ".bashrc"
    bashrc.write_text("# my settings\nalias ll='ls -l'\n")
    before = bashrc.read_bytes()
    monkeypatch.setenv("HOME", str(home))
    folder = tmp_path / "cuda" / "bin"
    folder.mkdir(parents=True)
    assert cli.main(["fix", "path", "--add", str(folder), "--yes"]) == 0
    out = capsys.readouterr().out
    assert "a new terminal finds" in out
    text = bashrc.read_text()
    assert text.startswith("# my settings\nalias ll='ls -l'\n" + env.BEGIN)
    assert f'export PATH="{folder}${{PATH:+:$PATH}}"' in text
    assert cli.main(["fix", "path", "--add", str(folder), "--yes"]) == 0  # adds once
    assert bashrc.read_text() == text
    assert "already in PATH" in capsys.readouterr().out
    lib = tmp_path / "cudnn" / "lib64"
    lib.mkdir(parents=True)
    assert cli.main(["fix", "path", "--var", "LD_LIBRARY_PATH", "--add", str(lib), "--yes"]) == 0
    assert bashrc.read_text().count(env.BEGIN) == 1
    assert cli.main(["undo", "--yes"]) == 0
    assert bashrc.read_text() == text
    assert cli.main(["undo", "--yes"]) == 0
    assert bashrc.read_bytes() == before


def test_linux_conda_activate_script(tmp_path: Path) -> None:
    host = LocalHost()
    if host.is_windows:
        pytest.skip("Linux layout")
    prefix = tmp_path / "envs" / "tf"
    prefix.mkdir(parents=True)
    plan = env.plan_path(host, "/opt/cuda/lib64", "LD_LIBRARY_PATH", conda_env=str(prefix))
    applied = journal.apply(host, plan)
    script = prefix / "etc" / "conda" / "activate.d" / "gpu-wizard.sh"
    assert "LD_LIBRARY_PATH" in script.read_text()
    journal.undo(host, applied)
    assert not (prefix / "etc").exists()


def test_undo_keeps_a_path_edited_since_unless_forced() -> None:
    host, backend = windows_host(r"C:\a")
    applied = journal.apply(host, env.plan_path(host, r"D:\x"))
    backend.set_value(USER_ENV_KEY, "Path", "REG_EXPAND_SZ", r"C:\a;D:\x;E:\mine")
    with pytest.raises(journal.FixError) as refused:
        journal.undo(host, applied)
    assert refused.value.message.id == "fix.refuse.changed_since"
    assert backend.read_values(USER_ENV_KEY)["Path"][1].endswith(r"E:\mine")
    assert journal.undo(host, applied, force=True)
    assert backend.read_values(USER_ENV_KEY)["Path"] == ("REG_EXPAND_SZ", r"C:\a")
