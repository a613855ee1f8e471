"""`gpu-wizard check --python` against real TensorFlow/PyTorch installs (slow: real venvs).

This machine has no NVIDIA GPU and no driver, so each real log must lead to the gpu/driver
layers or to the exact package problem, never to "TensorFlow is broken".
"""

from __future__ import annotations

import pytest

from wizard.core.host.probe import run_probe

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]


def layer(report: dict, name: str) -> dict:
    return next(entry for entry in report["layers"] if entry["layer"] == name)


def layer_codes(report: dict, name: str) -> list[str]:
    return [finding["code"] for finding in layer(report, name)["findings"]]


def no_gpu_here(report: dict) -> bool:
    return "no_nvidia_gpu" in layer_codes(report, "gpu")


def test_tensorflow_cpu_is_a_cpu_only_package(venv_python, check_json) -> None:
    rc, report = check_json(venv_python("tf-cpu"))
    assert rc == 1 and report["ready"] is False
    assert "gpu_not_listed_cpu_only_package" in layer_codes(report, "tensorflow")
    tf = layer(report, "tensorflow")
    assert tf["status"] == "fail"
    assert tf["facts"]["built_with_cuda"] is False
    assert tf["facts"]["packages"]["tensorflow-cpu"]


def test_tensorflow_cuda_build_without_a_driver_points_at_gpu_or_driver(
    venv_python, check_json
) -> None:
    rc, report = check_json(venv_python("tf-cuda"))
    tf = layer(report, "tensorflow")
    assert tf["facts"]["imported"] is True and tf["facts"]["built_with_cuda"] is True
    assert tf["facts"]["gpus"] == []
    # TF itself is not blamed: no CPU-only, import or probe finding on the tensorflow layer
    assert tf["status"] != "fail", tf
    assert not {"gpu_not_listed_cpu_only_package", "probe_failed", "tf_conflicting_packages"} & set(
        layer_codes(report, "tensorflow")
    )
    if no_gpu_here(report):
        assert report["blocking_layer"] in ("gpu", "driver")
        assert "sees no GPU: this machine has none" in tf["summary"]


def test_tensorflow_2_10_cuda_11_log_names_libcudart(venv_python, check_json) -> None:
    rc, report = check_json(venv_python("tf210-np1"))
    tf = layer(report, "tensorflow")
    assert tf["facts"]["tensorflow_version"] == "2.10.1"
    assert tf["facts"]["imported"] is True
    log = tf["facts"]["log"]
    assert "Could not load dynamic library 'libcudart.so.11.0'" in log
    assert "libcuda.so.1" in log
    assert "numpy_abi_mismatch" not in layer_codes(report, "tensorflow")
    cuda = layer(report, "cuda")
    # the log line is a cudart_missing finding of its own, or (where the cuda layer already
    # found the cause itself, or there is no GPU here) evidence of the layer's own finding
    named = [f for f in cuda["findings"]
             if "libcudart.so.11.0" in f["message"] + (f["evidence"] or "")]
    assert named, cuda["findings"]
    assert tf["status"] != "fail"
    if no_gpu_here(report):
        assert report["blocking_layer"] in ("gpu", "driver")


def test_tensorflow_2_10_with_numpy_2_is_a_numpy_abi_mismatch(venv_python, check_json) -> None:
    rc, report = check_json(venv_python("tf210-np2"))
    tf = layer(report, "tensorflow")
    assert tf["facts"]["imported"] is False
    assert "numpy_abi_mismatch" in layer_codes(report, "tensorflow")
    numpy = next(f for f in tf["findings"] if f["code"] == "numpy_abi_mismatch")
    assert numpy["params"]["numpy"].startswith("2.")
    assert 'numpy<2' in numpy["params"]["command"]


def test_torch_cpu_build_is_reported_in_a_pytorch_entry(venv_python, check_json) -> None:
    rc, report = check_json(venv_python("torch-cpu"))
    assert report["layers"][-1]["layer"] == "pytorch"
    torch = layer(report, "pytorch")
    assert "gpu_not_listed_cpu_only_package" in layer_codes(report, "pytorch")
    assert torch["facts"]["version"].endswith("+cpu")
    assert "tensorflow_not_installed" in layer_codes(report, "tensorflow")


@pytest.mark.parametrize("version", ["3.7", "3.13"])
def test_probe_runs_on_the_oldest_and_newest_python(version: str, venv_builder) -> None:
    python = venv_builder.find_python(version)
    if not python:
        pytest.skip(f"no Python {version} on this machine (pyenv install {version})")
    result = run_probe(python, timeout=120)
    assert result.get("error") is None, result
    assert result["python"]["version"].startswith(version + ".")
    assert result["tensorflow"] is None and result["errors"] == {}


def test_discovery_finds_and_prefers_a_cuda_build(venv_python, venv_builder, check_json) -> None:
    """Without --python, the check discovers the cached venvs (as WORKON_HOME) and picks one
    with a CUDA build of TensorFlow."""
    wanted = {venv_python("tf-cuda"), venv_python("tf210-np1")}
    for name in ("tf-cpu", "tf210-np2"):
        venv_python(name)
    rc, report = check_json(None, WORKON_HOME=str(venv_builder.cache_dir()))
    assert report["python"] in wanted, report["python"]
    assert layer(report, "tensorflow")["facts"]["built_with_cuda"] is True
