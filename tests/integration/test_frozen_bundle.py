"""The PyInstaller build (packaging/pyinstaller.spec) as users get it: build the one-folder
bundle for this platform once, then run its two executables the way the Windows workflow
smoke-tests the exe: the headless check on a profile, both executables' ``--self-test`` (every
page, the monitor and the benchmark, offscreen), and the size goal. Catches a spec that misses
resources, hidden imports or the GUI plugins, or that lets the bundle grow."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PROFILE = REPO / "tests" / "profiles" / "win-tf210-cudnn-never-copied.json"
SIZE_GOAL_MB = 150 if sys.platform == "win32" else 200
EXE_SUFFIX = ".exe" if sys.platform == "win32" else ""

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if shutil.which("pyinstaller") is None and not _has_module("PyInstaller"):
        pytest.skip("PyInstaller is not installed (pip install -e '.[build]')")
    work = tmp_path_factory.mktemp("pyinstaller")
    result = subprocess.run(
        [sys.executable, "-m", "PyInstaller", str(REPO / "packaging" / "pyinstaller.spec"),
         "--noconfirm", "--distpath", str(work / "dist"), "--workpath", str(work / "build")],
        cwd=REPO, capture_output=True, text=True, timeout=900,
    )
    if result.returncode != 0 and "Python library not found" in result.stderr:
        pytest.skip("this Python has no shared libpython, which PyInstaller needs (Debian: "
                    "apt install libpython3-dev; pyenv: PYTHON_CONFIGURE_OPTS=--enable-shared)")
    assert result.returncode == 0, result.stderr[-4000:]
    return work / "dist" / "GPU-Setup-Wizard"


def _has_module(name: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(name) is not None


def _run(exe: Path, *args: str, **env: str) -> subprocess.CompletedProcess:
    environment = {**os.environ, **env}
    return subprocess.run([str(exe), *args], capture_output=True, text=True, timeout=300,
                          env=environment, cwd=exe.parent)


def test_console_exe_answers(bundle: Path) -> None:
    exe = bundle / "gpu-wizard"
    assert "gpu-wizard" in _run(exe, "--version").stdout
    compat = _run(exe, "compat", "--tf", "2.10", "--os", "windows", "--json")
    assert compat.returncode == 0, compat.stderr
    assert json.loads(compat.stdout)["cuda"] == "11.2"
    replay = _run(exe, "check", "--profile", str(PROFILE), "--json")
    assert replay.returncode == 1, replay.stderr
    assert json.loads(replay.stdout)["blocking_layer"] == "cudnn"


def test_frozen_check_probes_the_users_python(bundle: Path) -> None:
    """The probe runs in a real interpreter outside the bundle, with the bundle's library
    paths removed from its environment."""
    result = _run(bundle / "gpu-wizard", "check", "--python", sys.executable, "--json")
    assert result.returncode in (0, 1), result.stderr
    report = json.loads(result.stdout)
    assert report["python"] == sys.executable
    tf_layer = next(layer for layer in report["layers"] if layer["layer"] == "tensorflow")
    assert "probe_failed" not in [f["code"] for f in tf_layer["findings"]], tf_layer


def test_bundle_has_no_ml_frameworks(bundle: Path) -> None:
    internal = bundle / "_internal"
    for name in ("tensorflow", "torch", "keras"):
        assert not (internal / name).exists(), name


def test_gui_exe_opens_and_closes(bundle: Path) -> None:
    result = _run(bundle / "GPU-Setup-Wizard", "--profile", str(PROFILE),
                  QT_QPA_PLATFORM="offscreen", GPU_WIZARD_QUIT_AFTER_MS="2000")
    assert result.returncode == 0, result.stderr[-4000:]


@pytest.mark.parametrize("name", ["gpu-wizard", "GPU-Setup-Wizard"])
def test_self_test_passes_in_the_bundle(bundle: Path, name: str) -> None:
    """Every page with the bundle's own Qt plugins, pyqtgraph and NumPy: an excluded module or
    plugin that the wizard needs fails here with the step that needed it."""
    result = _run(bundle / (name + EXE_SUFFIX), "--self-test", QT_QPA_PLATFORM="offscreen")
    assert result.returncode == 0, (result.stdout + result.stderr)[-4000:]
    assert result.stdout.startswith("self-test passed"), result.stdout


def test_bundle_is_under_the_size_goal(bundle: Path) -> None:
    files = [path for path in bundle.rglob("*") if path.is_file() and not path.is_symlink()]
    size_mb = sum(path.stat().st_size for path in files) / 2**20
    largest = sorted(files, key=lambda path: -path.stat().st_size)[:5]
    assert size_mb < SIZE_GOAL_MB, f"{size_mb:.1f} MB; largest: " + ", ".join(
        f"{path.relative_to(bundle)} {path.stat().st_size / 2**20:.1f} MB" for path in largest)


def test_bundle_has_no_dangling_links_or_unused_qt_parts(bundle: Path) -> None:
    dangling = [str(path) for path in bundle.rglob("*") if path.is_symlink() and not path.exists()]
    assert not dangling, dangling
    names = {path.name for path in bundle.rglob("*")}
    assert not [name for name in names if name.startswith(("qt_help_", "qtbase_de"))], \
        "Qt translations other than the wizard's languages"
    assert not [name for name in names if "qvnc" in name or "qeglfs" in name]
    platforms = {name for name in names if "qoffscreen" in name}
    assert platforms, "the offscreen platform plugin (--self-test, CI) is missing"


@pytest.mark.skipif(sys.platform == "win32", reason="waits for the Unix socket file")
def test_second_start_of_the_bundle_brings_the_first_forward(bundle: Path, tmp_path) -> None:
    """The windowed exe a user double-clicks twice: the second start hands over to the first
    (the bundle carries QtNetwork and its local socket) and exits 0."""
    import tempfile
    import time
    import uuid

    name = f"gpu-wizard-bundle-test-{uuid.uuid4().hex[:10]}"
    env = {k: v for k, v in os.environ.items() if k != "GPU_WIZARD_QUIT_AFTER_MS"}
    env.update(QT_QPA_PLATFORM="offscreen", GPU_WIZARD_INSTANCE_NAME=name, HOME=str(tmp_path))
    exe = bundle / "GPU-Setup-Wizard"
    first = subprocess.Popen([str(exe), "--profile", str(PROFILE)], env=env, cwd=bundle,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        socket_file = Path(tempfile.gettempdir()) / name
        deadline = time.monotonic() + 60
        while not socket_file.exists():
            assert first.poll() is None, first.communicate()[1][-3000:]
            assert time.monotonic() < deadline, "the first wizard never listened"
            time.sleep(0.1)
        second = subprocess.run([str(exe), "--profile", str(PROFILE)], env=env, cwd=bundle,
                                capture_output=True, text=True, timeout=60)
        assert second.returncode == 0, second.stderr[-3000:]
        assert f"process {first.pid}" in second.stderr, second.stderr
        assert first.poll() is None
    finally:
        first.terminate()
        first.communicate(timeout=30)
