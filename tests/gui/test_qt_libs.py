"""Before Qt loads: a display whose X11 libraries Qt's xcb plugin lacks, and a Python without
PySide6, give a hint that names what to install, and `gpu-wizard` falls back to the headless
check instead of Qt's abort (and core dump)."""

from __future__ import annotations

import json
import os
import socket
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from wizard import qtlibs

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="xcb is Linux's")


def write_elf(path: Path, needed: list[str], runpath: str = "") -> Path:
    """A minimal 64-bit little-endian ELF shared object: one PT_LOAD over the file and a
    PT_DYNAMIC with DT_NEEDED (and DT_RUNPATH) entries; enough for the dynamic section to be
    read as the loader reads it."""
    strings = b"\0"
    offsets = []
    for name in [*needed, runpath] if runpath else needed:
        offsets.append(len(strings))
        strings += name.encode() + b"\0"
    ehsize, phentsize, phnum = 64, 56, 2
    strtab_off = ehsize + phentsize * phnum
    dyn_off = strtab_off + len(strings) + (-len(strings)) % 8
    dyn = [(1, off) for off in offsets[:len(needed)]]
    if runpath:
        dyn.append((29, offsets[-1]))
    dyn += [(5, strtab_off), (10, len(strings)), (0, 0)]
    dynamic = b"".join(struct.pack("<qQ", tag, value) for tag, value in dyn)
    total = dyn_off + len(dynamic)
    header = b"\x7fELF" + bytes([2, 1, 1, 0]) + bytes(8)
    header += struct.pack("<HHIQQQIHHHHHH", 3, 62, 1, 0, ehsize, 0, 0, ehsize, phentsize,
                          phnum, 64, 0, 0)
    load = struct.pack("<IIQQQQQQ", 1, 5, 0, 0, 0, total, total, 0x1000)
    dynamic_ph = struct.pack("<IIQQQQQQ", 2, 6, dyn_off, dyn_off, dyn_off, len(dynamic),
                             len(dynamic), 8)
    data = header + load + dynamic_ph + strings
    data += bytes(dyn_off - len(data)) + dynamic
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


MISSING = "libgpuwizard-test-missing.so.0"


@pytest.fixture
def broken_plugin(tmp_path) -> Path:
    """plugins/platforms/libqxcb.so -> (RUNPATH $ORIGIN/../../lib) libQt6XcbQpa.so.6 -> libc
    (loads) and a library no system has."""
    qt = tmp_path / "Qt"
    write_elf(qt / "lib" / "libQt6XcbQpa.so.6", ["libc.so.6", MISSING])
    return write_elf(qt / "plugins" / "platforms" / "libqxcb.so",
                     ["libQt6XcbQpa.so.6", "libc.so.6"], "$ORIGIN/../../lib")


@linux_only
def test_missing_libraries_follow_the_bundle(broken_plugin):
    assert qtlibs.elf_dynamic(str(broken_plugin)) == (
        ["libQt6XcbQpa.so.6", "libc.so.6"], ["$ORIGIN/../../lib"])
    assert qtlibs.missing_libraries(str(broken_plugin)) == [MISSING]


@linux_only
def test_the_real_pyside_plugin_is_read():
    """PySide6's own libqxcb.so: its Qt library is followed to the X11 libraries it needs."""
    plugin = qtlibs.default_plugin({})
    assert plugin and plugin.endswith("libqxcb.so")
    hidden = {"libxcb-cursor.so.0", "libxkbcommon-x11.so.0"}
    missing = qtlibs.missing_libraries(plugin, loads=lambda name: name not in hidden)
    assert sorted(missing) == sorted(hidden)


@pytest.mark.parametrize(("soname", "package"), [
    ("libxcb-cursor.so.0", "libxcb-cursor0"),
    ("libxkbcommon-x11.so.0", "libxkbcommon-x11-0"),
    ("libxcb-icccm.so.4", "libxcb-icccm4"),
    ("libxcb-util.so.1", "libxcb-util1"),
    ("libX11-xcb.so.1", "libx11-xcb1"),
    ("libglib-2.0.so.0", "libglib2.0-0"),
    ("libfoo2.so.3", "libfoo2-3"),
    (MISSING, "libgpuwizard-test-missing0"),
])
def test_package_names(soname, package):
    assert qtlibs.package_for(soname) == package


@pytest.mark.parametrize(("env", "expected"), [
    ({}, True),
    ({"QT_QPA_PLATFORM": "xcb"}, True),
    ({"QT_QPA_PLATFORM": "offscreen"}, False),
    ({"QT_QPA_PLATFORM": "wayland;xcb"}, False),
    ({"XDG_SESSION_TYPE": "wayland", "WAYLAND_DISPLAY": "wayland-0"}, False),
])
def test_xcb_needed(env, expected):
    assert qtlibs.xcb_needed(env, "linux") is expected
    assert qtlibs.xcb_needed(env, "win32") is False


@pytest.fixture
def live_display():
    """A display that answers (a listening socket where an X server's would be); Qt is never
    started against it, the check happens before."""
    for number in range(7300, 7400):
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.bind(f"\0/tmp/.X11-unix/X{number}")
        except OSError:
            sock.close()
            continue
        sock.listen(4)
        yield f":{number}"
        sock.close()
        return
    pytest.skip("no free display number")


def _env(display: str, plugin: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("WAYLAND_DISPLAY", "WAYLAND_SOCKET", "XDG_SESSION_TYPE")}
    env.update(DISPLAY=display, QT_QPA_PLATFORM="xcb", GPU_WIZARD_XCB_PLUGIN=str(plugin),
               LANGUAGE="en", LC_ALL="C.UTF-8")
    return env


@linux_only
def test_gpu_wizard_gives_the_hint_and_the_headless_check(broken_plugin, live_display,
                                                          profiles_dir):
    profile = str(profiles_dir / "win-tf210-cudnn-never-copied.json")
    env = _env(live_display, broken_plugin)
    done = subprocess.run([sys.executable, "-m", "wizard", "--profile", profile],
                          env=env, capture_output=True, text=True, timeout=60)
    check = subprocess.run([sys.executable, "-m", "wizard", "check", "--profile", profile],
                           env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == check.returncode == 1  # the check's verdict, not an abort
    assert MISSING in done.stderr
    assert "sudo apt-get install libgpuwizard-test-missing0" in done.stderr
    assert "headless check" in done.stderr
    assert done.stdout == check.stdout


@linux_only
def test_gpu_wizard_gui_exits_2_with_the_hint(broken_plugin, live_display):
    env = _env(live_display, broken_plugin)
    env["LANGUAGE"] = "zh_CN"
    done = subprocess.run(
        [sys.executable, "-c", "import sys; from wizard.app import main; sys.exit(main([]))"],
        env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "libgpuwizard-test-missing0" in done.stderr and "请用以下命令安装" in done.stderr


NO_PYSIDE = ("import sys; sys.modules['PySide6'] = None; from wizard.cli import main; "
             "sys.exit(main(sys.argv[1:]))")


def _without_pyside(*args: str, cwd=None) -> subprocess.CompletedProcess:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", LANGUAGE="en", LC_ALL="C.UTF-8")
    return subprocess.run([sys.executable, "-c", NO_PYSIDE, *args], env=env, cwd=cwd,
                          capture_output=True, text=True, timeout=120)


def test_without_pyside_the_commands_work_and_the_wizard_says_what_to_install(
        profiles_dir, tmp_path):
    profile = str(profiles_dir / "win-tf210-cudnn-never-copied.json")
    check = _without_pyside("check", "--profile", profile)
    assert check.returncode == 1 and "cuDNN" in check.stdout, check.stderr
    compat = _without_pyside("compat", "--tf", "2.10", "--os", "windows", "--json")
    assert compat.returncode == 0, compat.stderr
    log = tmp_path / "error.log"
    log.write_text("Could not load dynamic library 'cudnn64_8.dll'\n", encoding="utf-8")
    explain = _without_pyside("explain", str(log), "--os", "windows")
    assert explain.returncode == 0 and "cuDNN" in explain.stdout, explain.stderr
    snapshot = _without_pyside("snapshot", "-o", str(tmp_path / "me.json"))
    assert snapshot.returncode == 0 and (tmp_path / "me.json").is_file(), snapshot.stderr
    monitor = _without_pyside("monitor", "--json", "--count", "1", "--profile",
                              str(profiles_dir / "linux-dual-4090-healthy.json"))
    assert monitor.returncode == 0, monitor.stderr
    assert json.loads(monitor.stdout.splitlines()[0])["gpus"], monitor.stdout
    for stream in (check, compat, explain, snapshot, monitor):
        assert "Traceback" not in stream.stderr and "internal error" not in stream.stderr
    wizard = _without_pyside("--profile", profile)
    assert wizard.returncode == 1
    assert "needs PySide6" in wizard.stderr and "pip install PySide6" in wizard.stderr
    assert wizard.stdout == check.stdout


@linux_only
def test_an_unfound_qt_library_is_not_called_missing(tmp_path):
    """A Qt library outside the RUNPATH (a bundle laid out differently) is Qt's business: no
    false hint that would keep a working window closed."""
    plugin = write_elf(tmp_path / "libqxcb.so", ["libQt6XcbQpa.so.6", "libc.so.6"])
    assert qtlibs.missing_libraries(str(plugin)) == []
