"""The knowledge queries against the rows of ``data/compat-sources.json``.

The row-by-row tests read the source tables committed in ``data/``; the rest run on the built
``resources/`` alone.
"""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest

from wizard.core import knowledge as k
from wizard.core.knowledge.versions import parse_version, series

REPO = Path(__file__).resolve().parents[2]
SHARED_DATA = REPO / "data"


def _load_shared(name: str):
    path = SHARED_DATA / name
    if not path.is_file():
        pytest.fail(f"{path} not found: the source tables are part of the repository (data/)")
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


@pytest.fixture(scope="module")
def src() -> dict:
    return _load_shared("compat-sources.json")


@pytest.fixture(scope="module")
def gpu_src() -> list:
    return _load_shared("gpu-specs.json")


def _variants(tf: str) -> list[str]:
    """A table row "2.10.0" answers "2.10", "2.10.0" and "2.10.1"."""
    major, minor = parse_version(tf)[:2]
    return [tf, f"{major}.{minor}", f"{major}.{minor}.1", f"{major}.{minor}.0rc1"]


# --- TensorFlow rows --------------------------------------------------------------------------


def test_every_linux_row_answers_for_linux_and_wsl2(src):
    for row in src["tensorflow_linux"]:
        for os_kind in ("linux", "wsl2"):
            for query in _variants(row["tf"]):
                req = k.tf_requirement(query, os_kind)
                assert req is not None, (query, os_kind)
                assert (req.tf, req.cuda, req.cudnn, req.python) == (
                    row["tf"],
                    row["cuda"],
                    row["cudnn"],
                    row["python"],
                ), query
                assert req.gpu_support is True
                assert req.source.startswith(row["source"])
                assert req.pip_cuda is (parse_version(row["tf"])[:2] >= (2, 14)), query


def test_every_windows_row_answers_for_native_windows(src):
    for row in src["tensorflow_windows"]:
        for query in _variants(row["tf"]):
            req = k.tf_requirement(query, "windows")
            assert req is not None, query
            assert (req.tf, req.cuda, req.cudnn, req.python) == (
                row["tf"],
                row["cuda"],
                row["cudnn"],
                row["python"],
            )
            assert req.gpu_support is True and req.pip_cuda is False
            assert req.source == row["source"]


def test_windows_after_the_last_gpu_release_has_no_gpu(src):
    last = src["windows_native_gpu_last_tf"]
    assert k.last_windows_gpu_tf() == last == "2.10"
    newer = [r for r in src["tensorflow_linux"] if parse_version(r["tf"])[:2] > (2, 10)]
    assert newer, "the Linux table lists releases after 2.10"
    for row in newer:
        req = k.tf_requirement(row["tf"], "windows")
        assert req is not None
        assert req.gpu_support is False
        assert req.cuda is None and req.cudnn is None and req.pip_cuda is False
        assert req.python == row["python"]


def test_removed_windows_2_11_row_is_not_used(src):
    removed = [r for r in src["tensorflow_rows_removed_from_docs"] if r["tf"] == "2.11.0"]
    assert removed and removed[0]["cuda"] == "11.2"
    assert k.tf_requirement("2.11", "windows").cuda is None
    assert k.tf_requirement("2.11.0", "linux").cuda == "11.2"


def test_2_10_versus_2_10_1_and_2_1():
    assert k.tf_requirement("2.10.1", "windows").tf == "2.10.0"
    assert k.tf_requirement("2.10", "linux").cudnn == "8.1"
    assert k.tf_requirement("2.1", "linux").cuda == "10.1"  # not 2.10's 11.2
    assert k.tf_requirement("2.16.0", "linux").tf == "2.16.1"
    assert k.tf_requirement("2.99", "linux") is None
    assert k.tf_requirement("not-a-version", "linux") is None
    with pytest.raises(ValueError):
        k.tf_requirement("2.10", "macos")


def test_old_rows_with_python_2_and_cuda_written_as_9():
    req = k.tf_requirement("1.12", "linux")
    assert req.python == "2.7, 3.3-3.6" and req.cuda == "9" and req.cudnn == "7"
    assert req.package == "tensorflow-gpu" and req.table_package == "tensorflow_gpu"
    assert k.python_supported("2.7.18", req.python)
    assert k.python_supported("3.6.15", req.python)
    assert not k.python_supported("3.7.0", req.python)
    assert k.min_driver(req.cuda, "linux").toolkit == "384.81"  # "9" is CUDA 9.0


def test_recommended(src):
    win = next(r for r in src["tensorflow_windows"] if series(r["tf"]) == "2.10")
    assert k.recommended_tf("windows") == win["tf"] == "2.10.0"
    req = k.tf_requirement(k.recommended_tf("windows"), "windows")
    assert (req.cuda, req.cudnn, req.python) == ("11.2", "8.1", "3.7-3.10")
    newest = max(src["tensorflow_linux"], key=lambda r: parse_version(r["tf"]))
    assert k.recommended_tf("linux") == k.recommended_tf("wsl2") == newest["tf"]


def test_tf_versions_for_cuda(src):
    expected = [r["tf"] for r in src["tensorflow_linux"] if r["cuda"] == "11.8"]
    assert [r["tf"] for r in k.tf_versions_for_cuda("11.8", "linux")] == expected
    windows_10 = [r["tf"] for r in k.tf_versions_for_cuda("10.0", "windows")]
    assert "2.0.0" in windows_10 and "1.13.0" in windows_10  # written "10" in that table


# --- choose_target ----------------------------------------------------------------------------


def test_choose_target_precedence():
    installed = k.choose_target("linux", installed="2.12.0", installed_where="/home/me/env")
    assert installed.tensorflow == "2.12.0" and installed.cuda == "11.8"
    assert str(installed.reason) == "installed in /home/me/env" and installed.pip_cuda is False

    requested = k.choose_target("linux", requested="2.10", installed="2.12.0")
    assert requested.tensorflow == "2.10.0" and requested.cuda == "11.2"
    assert "--tf" in str(requested.reason)

    recommended = k.choose_target("windows")
    assert (recommended.tensorflow, recommended.cuda, recommended.cudnn) == (
        "2.10.0",
        "11.2",
        "8.1",
    )
    assert recommended.python == "3.7-3.10" and recommended.gpu_supported
    assert "recommended for native Windows" in str(recommended.reason)

    linux = k.choose_target("wsl2")
    assert linux.pip_cuda is True and linux.tensorflow == k.recommended_tf("wsl2")


def test_choose_target_installed_newer_than_table_and_windows_cpu_only():
    target = k.choose_target("linux", installed="2.30.1", installed_where="/env")
    assert target.tensorflow == "2.30.1"
    newest = k.tf_requirement(k.recommended_tf("linux"), "linux")
    assert target.cuda == newest.cuda
    reason = str(target.reason)
    assert "not in the compatibility table" in reason and newest.series in reason

    windows = k.choose_target("windows", installed="2.15.0", installed_where="C:\\env")
    assert windows.gpu_supported is False and windows.cuda is None
    assert "no GPU support on native Windows" in str(windows.reason)

    assert k.choose_target("linux", installed="2.10.1").tensorflow == "2.10.1"


def test_choose_target_unknown_requested_version():
    with pytest.raises(ValueError, match=r"TensorFlow 2\.99 is not in the compatibility table"):
        k.choose_target("linux", requested="2.99")


# --- Drivers ----------------------------------------------------------------------------------


def test_toolkit_minimum_is_the_ga_row_of_each_minor(src):
    for row in src["cuda_min_driver_ga_per_minor"]:
        assert k.min_driver(row["cuda"], "linux").toolkit == row["linux"], row["cuda"]
        assert k.min_driver(row["cuda"], "windows").toolkit == row["windows"], row["cuda"]
        assert k.min_driver(row["cuda"], "wsl2").toolkit == row["windows"], row["cuda"]


def test_exact_release_rows(src):
    checked = 0
    for row in src["cuda_min_driver"]:
        match = re.search(r"\((\d+\.\d+\.\d+)\)", row["release"])
        if not match:
            continue
        req = k.min_driver(match.group(1), "linux")
        assert (req.toolkit, k.min_driver(match.group(1), "windows").toolkit) == (
            row["linux"],
            row["windows"],
        ), row["release"]
        checked += 1
    assert checked >= 8


def test_minor_version_compatibility_minimums(src):
    by_major = {r["cuda_major"].split(".")[0]: r for r in src["cuda_minor_compat_min_driver"]}
    for row in src["cuda_min_driver_ga_per_minor"]:
        major = row["cuda"].split(".")[0]
        compat_row = by_major.get(major)
        for os_kind, column in (("linux", "linux"), ("windows", "windows"), ("wsl2", "windows")):
            expected = compat_row[column] if compat_row else None
            assert k.min_driver(row["cuda"], os_kind).compat == expected, (row["cuda"], os_kind)
    assert k.min_driver("11.2", "windows").compat == "452.39"
    assert k.min_driver("12.5", "linux").compat == "525.60.13"
    assert k.min_driver("10.1", "linux").compat is None


def test_windows_has_no_published_minimum_for_cuda_13():
    req = k.min_driver("13.0", "windows")
    assert req.toolkit is None and req.compat is None and req.minimum is None
    assert req.satisfied_by("580.88") is None
    assert any("N/A" in str(note) or "no Windows" in str(note) for note in req.notes)
    assert k.min_driver("13.0", "linux").toolkit == "580.65.06"


def test_driver_requirement_sources_and_unknown_cuda():
    req = k.min_driver("11.2", "linux")
    assert "Table 3" in req.source and "minor-version" in req.source
    unknown = k.min_driver("12.7", "linux")
    assert unknown.toolkit is None and unknown.compat == "525.60.13"


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ("516.94", "452.39", 1),
        ("452.39", "516.94", -1),
        ("525.60.13", "525.60", 1),
        ("525.60.13", "525.60.13", 0),
        ("525.85.12", "525.125.06", -1),
        ("460.82", "460.27.03", 1),
        ("2.10.1", "2.9", 1),
        ("2.10", "2.10.0", 0),
        ("2.10.0rc1", "2.10.0", 0),
        ("11.8", "11.10", -1),
        ("9", "9.0", 0),
    ],
)
def test_compare_versions(a, b, expected):
    assert k.compare_versions(a, b) == expected


def test_windows_driver_meets_table_minimums():
    req = k.min_driver("11.2", "windows")
    assert req.satisfied_by("516.94") is True
    assert req.satisfied_by("452.39") is False  # only the compat floor
    assert k.compare_versions("452.39", req.compat) >= 0
    assert k.max_cuda_for_driver("516.94", "windows") == "11.7"
    assert k.max_cuda_for_driver("520.06", "windows") == "11.8"
    assert k.nvidia_driver_from_wddm("31.0.15.3623") == "536.23"
    assert k.nvidia_driver_from_wddm("32.0.15.7602") == "576.02"
    assert k.nvidia_driver_from_wddm("516.94") == "516.94"


@pytest.mark.parametrize(
    ("value", "expected"),
    [(11070, "11.7"), (12020, "12.2"), (12090, "12.9"), (13000, "13.0"), (10010, "10.1")],
)
def test_driver_cuda_version(value, expected):
    assert k.driver_cuda_version(value) == expected


def test_python_supported():
    assert k.python_supported("3.9.13", "3.7-3.10")
    assert k.python_supported("3.10.11", "3.7-3.10")
    assert not k.python_supported("3.11.0", "3.7-3.10")
    assert not k.python_supported("3.6.9", "3.7-3.10")
    assert k.python_supported("3.12", ">=3.9")
    assert k.python_supported("3.5.2", "3.5")


# --- [and-cuda], compute capability, cuDNN ----------------------------------------------------


def test_and_cuda_pins_match_every_row(src):
    for row in src["tf_and_cuda_pip"]:
        assert k.and_cuda_pins(row["tf"]) == row["packages"]
        assert k.and_cuda_pins(series(row["tf"])) == row["packages"]
        assert k.tf_requirement(row["tf"], "linux").pip_cuda is True
    assert k.and_cuda_pins("2.13") is None
    assert k.and_cuda_first_tf() == "2.14"


CC_EXPECTED = {
    # TF series -> minimum compute capability, one line per row of tf_min_compute_capability
    "1.0": "3.5", "1.15": "3.5", "2.0": "3.5", "2.2": "3.5",
    "2.3": "3.5",
    "2.4": "3.5", "2.10": "3.5", "2.16": "3.5",
    "2.17": "6.0", "2.21": "6.0", "2.30": "6.0",
}  # fmt: skip


def test_min_compute_capability_rows(src):
    rows = src["tf_min_compute_capability"]
    assert [r["tf"] for r in rows] == [
        "1.x (<=1.15) and 2.0-2.2 (pip/binary packages)",
        "2.3",
        "2.4 - 2.16",
        "2.17 and later",
    ]
    for row in rows:
        written = re.match(r"\d+\.\d+", row["min_cc"]).group(0)
        covered = [
            tf for tf in CC_EXPECTED if k.compute_capability_requirement(tf)["row"] == row["tf"]
        ]
        assert covered, row["tf"]
        for tf in covered:
            assert k.min_compute_capability(tf) == written == CC_EXPECTED[tf], tf
    assert k.compute_capability_requirement("2.3")["unsupported_cc"] == ["5.0"]
    for row in src["tensorflow_linux"]:
        assert k.min_compute_capability(row["tf"]) is not None, row["tf"]


def test_effective_compute_capability_of_cuda_12_builds():
    assert k.compute_capability_requirement("2.15")["effective_min_cc"] == "5.0"
    assert k.compute_capability_requirement("2.14")["effective_min_cc"] == "3.5"
    assert k.compute_capability_requirement("2.17")["effective_min_cc"] == "6.0"


def test_cudnn_rows(src):
    for row in src["cudnn_cuda"]:
        cudnn = re.match(r"\d+(\.\d+)+", row["cudnn"]).group(0)
        for entry in row["cuda"]:
            minor = re.match(r"\d+\.(\d+|x)", entry).group(0).replace(".x", ".0")
            assert k.cudnn_supports_cuda(cudnn, minor) is True, (row["cudnn"], entry)
    assert k.cudnn_supports_cuda("8.1.0.77", "11.2") is True
    assert k.cudnn_supports_cuda("7.6.5", "11.0") is False
    assert k.cudnn_supports_cuda("8.9.7.29", "12.3") is None  # no row for 8.9.7: unknown
    assert k.cudnn_supports_cuda("9.4.0", "12.4") is None  # the row lists one build only
    assert k.cudnn_supports_cuda("8.6.0.163", "11.8") is True  # "for CUDA 11.x"
    assert k.cudnn_supports_cuda("4.0", "8.0") is None


# --- Links and install commands ---------------------------------------------------------------


def test_install_commands():
    assert k.install_command("2.10", "windows") == 'pip install "tensorflow<2.11"'
    assert k.install_command("2.10.1", "windows") == 'pip install "tensorflow<2.11"'
    assert k.install_command(k.recommended_tf("linux"), "linux") == (
        'pip install "tensorflow[and-cuda]"'
    )
    assert k.install_command("2.15", "wsl2") == 'pip install "tensorflow[and-cuda]==2.15.*"'
    assert k.install_command("2.13", "linux") == 'pip install "tensorflow==2.13.*"'
    assert k.install_command("1.15", "linux") == 'pip install "tensorflow-gpu==1.15.*"'
    assert any("tensorflow-gpu" in str(n) for n in k.install_notes("2.10", "windows"))
    with pytest.raises(ValueError):
        k.install_command("2.99", "linux")


def test_download_urls():
    assert k.cuda_download_url("11.2", "windows").startswith(
        "https://developer.nvidia.com/cuda-11-2-0-download-archive?target_os=Windows"
    )
    assert "Distribution=WSL-Ubuntu" in k.cuda_download_url("11.8", "wsl2")
    assert k.cuda_download_url("11.0", "linux").startswith(
        "https://developer.nvidia.com/cuda-11-0-2-download-archive"
    )
    assert k.cuda_download_url("11.2.2", "linux").startswith(
        "https://developer.nvidia.com/cuda-11-2-2-download-archive"
    )
    assert k.cuda_download_url("10.1", "windows") == (
        "https://developer.nvidia.com/cuda-10.1-download-archive-base"
    )
    assert k.cuda_release_version("11.2") == "11.2.0"
    assert k.cudnn_download_url("8.1", "11.2") == "https://developer.nvidia.com/rdp/cudnn-archive"
    assert k.cudnn_download_url("9.3", "12.5") == "https://developer.nvidia.com/cudnn-downloads"
    assert k.driver_download_url() == "https://www.nvidia.com/Download/index.aspx"


# --- GPU specs --------------------------------------------------------------------------------


def test_gpu_spec_every_row_by_nvml_name(gpu_src):
    for row in gpu_src:
        found = k.gpu_spec(row["nvml_name"])
        assert found is not None, row["nvml_name"]
        assert row["name"] in [found["name"], *found["alternatives"]]
        assert found["source"]
    laptop = k.gpu_spec("NVIDIA GeForce RTX 3070 Ti Laptop GPU")
    assert laptop["name"] == "GeForce RTX 3070 Ti Laptop" and laptop["compute_capability"] == "8.6"
    assert k.peak_fp32_tflops(laptop) == laptop["fp32_tflops_range"][1]
    assert k.gpu_spec("geforce rtx 3070 ti laptop gpu")["name"] == laptop["name"]
    assert k.gpu_spec("NVIDIA GeForce RTX 3080", memory_bytes=12 * 2**30)["name"] == (
        "GeForce RTX 3080 12 GB"
    )
    assert k.gpu_spec("NVIDIA Quadro Imaginary 9000") is None
    assert k.gpu_spec("") is None


# --- The generated resources ------------------------------------------------------------------


def test_resources_are_built_from_the_shared_data(src, gpu_src):
    spec = importlib.util.spec_from_file_location(
        "build_compat", REPO / "scripts" / "build_compat.py"
    )
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    committed = json.loads((REPO / "resources" / "compat.json").read_text(encoding="utf-8"))
    assert committed == json.loads(build.dump(build.build_compat(src))), (
        "resources/compat.json is stale: run python scripts/build_compat.py"
    )
    gpus = json.loads((REPO / "resources" / "gpu_specs.json").read_text(encoding="utf-8"))
    assert gpus == json.loads(build.dump(build.build_gpu_specs(gpu_src)))


def test_every_table_row_keeps_its_source():
    data = k.compat_data()
    tables = [
        *data["tensorflow"]["linux"],
        *data["tensorflow"]["windows"],
        *data["tf_and_cuda_pip"],
        *data["cuda_min_driver"],
        *data["cuda_min_driver_ga"].values(),
        *data["cuda_minor_compat"].values(),
        *data["cudnn_cuda"],
        *data["tf_min_compute_capability"],
        *data["cuda_toolkit_arch_support"],
    ]
    assert len(tables) > 150
    for row in tables:
        assert row.get("source"), row
    assert data["windows_native_gpu_last_tf"]["source"]
