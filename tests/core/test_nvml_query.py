"""query_nvml against the real nvidia-ml-py binding (this machine has no NVIDIA driver, so
nvmlInit fails for real) and against monkeypatched pynvml calls for the other cases."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path
from types import SimpleNamespace

import pynvml
import pytest

from tests import standin
from wizard.core.host import NVML_ERRORS
from wizard.core.host import nvml as nvml_query
from wizard.core.host.nvml import (
    LIBRARY_NOT_FOUND,
    error_kind,
    is_laptop_name,
    nvml_library_candidates,
    query_nvml,
)


def _driver_present() -> bool:
    try:
        pynvml.nvmlInit()
    except pynvml.NVMLError:
        return False
    pynvml.nvmlShutdown()
    return True


@pytest.mark.skipif(_driver_present(), reason="this test needs a machine without an NVIDIA driver")
def test_real_binding_without_driver_maps_the_real_error() -> None:
    result = query_nvml()
    assert result["error"] in ("library_not_found", "driver_not_loaded")
    assert result["detail"]
    assert "gpus" not in result


def test_real_binding_no_timeout_path_gives_the_same_answer() -> None:
    assert query_nvml(timeout=None)["error"] == query_nvml()["error"]


@pytest.mark.parametrize(
    ("exc_name", "kind"),
    [
        ("NVMLError_LibraryNotFound", "library_not_found"),
        ("NVMLError_DriverNotLoaded", "driver_not_loaded"),
        ("NVMLError_LibRmVersionMismatch", "driver_library_mismatch"),
        ("NVMLError_NoPermission", "no_permission"),
        ("NVMLError_Unknown", "unknown"),
        ("NVMLError_GpuIsLost", "unknown"),
    ],
)
def test_init_errors_map_to_profile_kinds(monkeypatch, exc_name: str, kind: str) -> None:
    exc_class = getattr(pynvml, exc_name)

    def failing_init() -> None:
        raise exc_class()

    shutdowns = []
    monkeypatch.setattr(pynvml, "nvmlInit", failing_init)
    monkeypatch.setattr(pynvml, "nvmlShutdown", lambda: shutdowns.append(1))
    result = query_nvml()
    assert result["error"] == kind
    assert kind in NVML_ERRORS
    assert shutdowns == []  # init failed: nothing to shut down


def test_os_error_from_a_broken_library_is_unknown(monkeypatch) -> None:
    def failing_init() -> None:
        raise OSError("libnvidia-ml.so.1: invalid ELF header")

    monkeypatch.setattr(pynvml, "nvmlInit", failing_init)
    result = query_nvml()
    assert result == {"error": "unknown", "detail": "libnvidia-ml.so.1: invalid ELF header"}


def _fake_gpu(monkeypatch, *, cc_error: bool = False, lost: int | None = None) -> list[int]:
    """Patch pynvml so that two GPUs answer; returns the list that counts shutdowns."""
    shutdowns: list[int] = []
    monkeypatch.setattr(pynvml, "nvmlInit", lambda: None)
    monkeypatch.setattr(pynvml, "nvmlShutdown", lambda: shutdowns.append(1))
    monkeypatch.setattr(pynvml, "nvmlSystemGetDriverVersion", lambda: "516.94")
    monkeypatch.setattr(pynvml, "nvmlSystemGetCudaDriverVersion_v2", lambda: 11070)
    monkeypatch.setattr(pynvml, "nvmlSystemGetNVMLVersion", lambda: b"11.516.94")
    monkeypatch.setattr(pynvml, "nvmlDeviceGetCount", lambda: 2)

    def handle(index: int) -> int:
        if index == lost:
            raise pynvml.NVMLError_GpuIsLost()
        return index

    names = {0: b"NVIDIA GeForce RTX 3070 Ti Laptop GPU", 1: "NVIDIA RTX A6000"}
    monkeypatch.setattr(pynvml, "nvmlDeviceGetHandleByIndex", handle)
    monkeypatch.setattr(pynvml, "nvmlDeviceGetName", lambda h: names[h])
    monkeypatch.setattr(pynvml, "nvmlDeviceGetUUID", lambda h: f"GPU-{h}")
    monkeypatch.setattr(
        pynvml,
        "nvmlDeviceGetPciInfo",
        lambda h: SimpleNamespace(busId=b"00000000:01:00.0", pciDeviceId=0x24A010DE),
    )

    def cc(h: int) -> tuple[int, int]:
        if cc_error:
            raise pynvml.NVMLError_NotSupported()
        return (8, 6)

    monkeypatch.setattr(pynvml, "nvmlDeviceGetCudaComputeCapability", cc)
    monkeypatch.setattr(
        pynvml, "nvmlDeviceGetMemoryInfo", lambda h: SimpleNamespace(total=8589934592)
    )
    return shutdowns


def test_fake_gpu_fields_and_shutdown(monkeypatch) -> None:
    shutdowns = _fake_gpu(monkeypatch)
    result = query_nvml()
    assert result["error"] is None
    assert result["driver_version"] == "516.94"
    assert result["cuda_driver_version"] == 11070
    assert result["nvml_version"] == "11.516.94"
    first = result["gpus"][0]
    assert first == {
        "index": 0,
        "name": "NVIDIA GeForce RTX 3070 Ti Laptop GPU",
        "uuid": "GPU-0",
        "pci_bus_id": "00000000:01:00.0",
        "pci_device_id": "24a0",
        "compute_capability": [8, 6],
        "memory_total_bytes": 8589934592,
        "is_laptop": True,
    }
    assert result["gpus"][1]["is_laptop"] is False
    assert shutdowns == [1]


def test_unsupported_field_is_none_and_lost_gpu_keeps_its_index(monkeypatch) -> None:
    shutdowns = _fake_gpu(monkeypatch, cc_error=True, lost=1)
    result = query_nvml()
    assert result["error"] is None
    assert result["gpus"][0]["compute_capability"] is None
    assert result["gpus"][1]["index"] == 1
    assert result["gpus"][1]["error"].startswith("unknown")
    assert shutdowns == [1]


def test_failure_after_init_still_shuts_down(monkeypatch) -> None:
    shutdowns = _fake_gpu(monkeypatch)

    def count() -> int:
        raise pynvml.NVMLError_DriverNotLoaded()

    monkeypatch.setattr(pynvml, "nvmlDeviceGetCount", count)
    result = query_nvml()
    assert result["error"] == "driver_not_loaded"
    assert shutdowns == [1]


def test_hung_nvml_times_out_instead_of_blocking(monkeypatch) -> None:
    release = threading.Event()
    monkeypatch.setattr(pynvml, "nvmlInit", lambda: release.wait(5))
    try:
        result = query_nvml(timeout=0.2)
    finally:
        release.set()
    assert result["error"] == "unknown"
    assert "did not answer" in result["detail"]


def test_missing_binding_is_reported(monkeypatch) -> None:
    def no_binding():
        raise ImportError("No module named 'pynvml'")

    monkeypatch.setattr(nvml_query, "_import_pynvml", no_binding)
    result = query_nvml()
    assert result["error"] == "unknown"
    assert "nvidia-ml-py" in result["detail"]


def test_error_kind_uses_the_class_hierarchy() -> None:
    class Sub(pynvml.NVMLError_DriverNotLoaded):
        pass

    assert error_kind(Sub()) == "driver_not_loaded"
    assert error_kind(ValueError()) == "unknown"


@pytest.mark.parametrize(
    ("name", "laptop"),
    [
        ("NVIDIA GeForce RTX 3070 Ti Laptop GPU", True),
        ("NVIDIA GeForce GTX 1060 with Max-Q Design", True),
        ("NVIDIA GeForce GTX 980M", True),
        ("NVIDIA GA104M [GeForce RTX 3070 Ti Mobile / Max-Q]", True),
        ("NVIDIA GeForce RTX 4090", False),
        ("Tesla T4", False),
        ("NVIDIA RTX A2000 12GB", False),
    ],
)
def test_laptop_names(name: str, laptop: bool) -> None:
    assert is_laptop_name(name) is laptop


# -- the machine without an NVIDIA driver: answered by the loader, pynvml never imported --------


class _Loader:
    """ctypes.CDLL stand-in: records the names asked for; ``found`` loads, others fail."""

    def __init__(self, found: tuple[str, ...] = ()) -> None:
        self.asked: list[str] = []
        self.found = found

    def __call__(self, name: str, *args, **kwargs) -> object:
        self.asked.append(name)
        if name not in self.found:
            raise OSError(f"{name}: cannot open shared object file: No such file or directory")
        return object()


def _unimported_pynvml(monkeypatch, loader: _Loader) -> list[int]:
    """pynvml as in a fresh ``gpu-wizard`` process (not imported yet), the loader replaced;
    returns the list that counts imports of the binding."""
    import ctypes

    imports: list[int] = []

    def no_driver() -> None:
        raise pynvml.NVMLError_DriverNotLoaded()

    def counted_import():
        imports.append(1)
        return SimpleNamespace(nvmlInit=no_driver, nvmlShutdown=lambda: None)

    monkeypatch.delitem(sys.modules, "pynvml")
    monkeypatch.setattr(nvml_query, "_import_pynvml", counted_import)
    monkeypatch.setattr(ctypes, "CDLL", loader)
    return imports


@pytest.mark.parametrize("timeout", [None, 5.0])
def test_no_library_is_answered_without_importing_pynvml(monkeypatch, timeout) -> None:
    loader = _Loader()
    imports = _unimported_pynvml(monkeypatch, loader)
    threads = threading.active_count()
    assert query_nvml(timeout=timeout) == LIBRARY_NOT_FOUND
    assert imports == []  # the 330 kB binding is what made the gpu layer slow without a GPU
    assert loader.asked == nvml_library_candidates()
    assert threading.active_count() == threads  # no worker thread either


def test_a_library_the_loader_finds_goes_through_pynvml(monkeypatch) -> None:
    loader = _Loader(found=tuple(nvml_library_candidates()[-1:]))
    imports = _unimported_pynvml(monkeypatch, loader)
    result = query_nvml()
    assert imports == [1]
    assert result["error"] == "driver_not_loaded"


def test_library_names_are_the_ones_pynvml_loads() -> None:
    source = Path(pynvml.__file__).read_text(encoding="utf-8")
    if sys.platform == "win32":
        assert '"System32/nvml.dll"' in source and '"NVIDIA Corporation/NVSMI/nvml.dll"' in source
    else:
        # pynvml's own name first, then the driver folders it does not search (NixOS)
        assert nvml_library_candidates() == [
            "libnvidia-ml.so.1", "/run/opengl-driver/lib/libnvidia-ml.so.1"]
        assert 'CDLL("libnvidia-ml.so.1")' in source


def test_the_shortcut_says_what_pynvml_says() -> None:
    error = pynvml.NVMLError(pynvml.NVML_ERROR_LIBRARY_NOT_FOUND)
    assert {"error": error_kind(error), "detail": str(error)} == LIBRARY_NOT_FOUND


@pytest.mark.skipif(_driver_present(), reason="this test needs a machine without an NVIDIA driver")
def test_fresh_process_without_driver_never_imports_pynvml() -> None:
    code = (
        "import json, sys\n"
        "from wizard.core.host.nvml import query_nvml\n"
        "print(json.dumps([query_nvml(), 'pynvml' in sys.modules]))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, check=True, cwd=Path(__file__).resolve().parents[2])
    answer, imported = json.loads(done.stdout)
    assert answer == LIBRARY_NOT_FOUND
    assert imported is False


@pytest.mark.skipif(standin.compiler() is None, reason="no C compiler for the stand-in NVML")
def test_fresh_process_with_a_library_goes_through_pynvml(tmp_path) -> None:
    """The other side of the shortcut: where the loader finds a libnvidia-ml.so.1 (the stand-in,
    through LD_LIBRARY_PATH), the GPUs come from pynvml as before."""
    libdir = standin.build(tmp_path / "lib")
    config = tmp_path / "nvml.cfg"
    standin.write_config(config, "count 1\ng0.name NVIDIA GeForce RTX 4090\n"
                                 "g0.mem_total 25757220864\n")
    code = (
        "import json, sys\n"
        "from wizard.core.host.nvml import query_nvml\n"
        "print(json.dumps([query_nvml(), 'pynvml' in sys.modules]))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, env=standin.environment(libdir, config),
                          cwd=standin.REPO_ROOT)
    assert done.returncode == 0, done.stderr
    answer, imported = json.loads(done.stdout.strip().splitlines()[-1])
    assert imported is True
    assert answer["error"] is None
    assert [gpu["name"] for gpu in answer["gpus"]] == ["NVIDIA GeForce RTX 4090"]


@pytest.mark.skipif(standin.compiler() is None, reason="no C compiler for the stand-in NVML")
@pytest.mark.parametrize("where", ["query", "session"])
def test_nvml_in_a_driver_folder_off_the_loader_path_is_read(tmp_path, where: str) -> None:
    """NixOS keeps the driver's libraries in /run/opengl-driver/lib, which the loader does not
    search for a program Nix did not build: the check and the monitor still read NVML there,
    through the real binding, with no LD_LIBRARY_PATH (the folder is a stand-in here)."""
    libdir = standin.build(tmp_path / "run" / "opengl-driver" / "lib")
    config = tmp_path / "nvml.cfg"
    standin.write_config(config, "count 1\ng0.name NVIDIA GeForce RTX 3090\n"
                                 "g0.mem_total 25769803776\n")
    env = standin.environment(libdir, config)
    env.pop("LD_LIBRARY_PATH")
    read = {"query": "[gpu['name'] for gpu in nvml.query_nvml()['gpus']]",
            "session": "(lambda s: [s.sample(), [g['name'] for g in s.static()]][1])"
                       "(nvml_session.NvmlSession())"}[where]
    code = (
        "import json, sys\n"
        "from wizard.core.host import nvml, nvml_session\n"
        "print(json.dumps(nvml.query_nvml()['error']))\n"
        "nvml.DRIVER_LIBRARY_DIRS = (sys.argv[1],)\n"
        f"print(json.dumps({read}))\n"
    )
    done = subprocess.run([sys.executable, "-c", code, str(libdir)], capture_output=True,
                          text=True, timeout=60, env=env, cwd=standin.REPO_ROOT)
    assert done.returncode == 0, done.stderr
    before, names = map(json.loads, done.stdout.strip().splitlines()[-2:])
    assert before == "library_not_found"  # the loader alone does not find it
    assert names == ["NVIDIA GeForce RTX 3090"]
