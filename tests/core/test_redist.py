"""resources/redist.json (built from data/redist-sources.json) and its queries."""

from __future__ import annotations

import copy
import importlib.util
import json
from pathlib import Path

import pytest

from wizard.core.knowledge import compat_data, redist
from wizard.core.knowledge.versions import try_parse_version

REPO = Path(__file__).resolve().parents[2]
SPEC = importlib.util.spec_from_file_location("build_redist", REPO / "scripts" / "build_redist.py")
build_redist = importlib.util.module_from_spec(SPEC)
assert SPEC.loader is not None
SPEC.loader.exec_module(build_redist)
SOURCES = json.loads((REPO / "data" / "redist-sources.json").read_text(encoding="utf-8"))


def test_the_committed_file_is_up_to_date() -> None:
    assert build_redist.main(["--check"]) == 0


def test_every_row_is_https_on_nvidia_and_says_how_it_is_verified() -> None:
    rows = redist.cudnn_archives() + redist.cuda_installers()
    assert len(rows) >= 15
    for row in rows:
        assert row.url.startswith("https://developer.download.nvidia.com/compute/"), row.url
        assert row.url.endswith(row.file) and row.source
        if row.sha256 or row.md5:
            assert row.checksum_source, row.file
        else:
            assert row.verified_by in ("size", "none") and row.verify_note, row.file


def _tf_rows(os_name: str) -> list[dict]:
    return [r for r in compat_data()["tensorflow"][os_name]
            if try_parse_version(r["tf"]) >= (2, 4)]


@pytest.mark.parametrize("os_name", ["windows", "linux"])
def test_every_tf_row_from_2_4_has_a_cudnn_archive(os_name: str) -> None:
    missing = []
    for row in _tf_rows(os_name):
        found = redist.cudnn_for(row["cudnn"], row["cuda"], os_name, "x86_64")
        if found is None:
            missing.append(f"TF {row['tf']}: cuDNN {row['cudnn']} for CUDA {row['cuda']}")
            continue
        assert found.version.split(".")[0] == row["cudnn"].split(".")[0]
        assert found.sha256, f"TF {row['tf']} on {os_name}: {found.file} has no sha256"
    assert not missing, missing


def test_every_windows_tf_row_from_2_4_has_a_cuda_installer() -> None:
    for row in _tf_rows("windows"):
        found = redist.cuda_installer_for(row["cuda"], "windows", "x86_64")
        assert found is not None, row["tf"]
        assert found.file.endswith(".exe") and found.sha256
        assert found.series == ".".join(row["cuda"].split(".")[:2])


def test_tf_2_10_on_windows_gets_cudnn_8_1_for_cuda_11_2() -> None:
    found = redist.cudnn_for("8.1", "11.2", "windows", "x86_64")
    assert found is not None
    assert found.series == "8.1" and found.file.startswith("cudnn-11.2-windows-x64-v8.1.")
    # 8.1.1.33 has no published checksum; the checked 8.1.0.77 comes first
    assert found.version == "8.1.0.77" and found.verified_by == "sha256"
    unchecked = [r for r in redist.cudnn_archives("windows") if r.version == "8.1.1.33"]
    assert unchecked and unchecked[0].verified_by == "none"


def test_no_archive_for_an_unknown_combination() -> None:
    assert redist.cudnn_for("8.1", "11.2", "linux", "aarch64") is None
    assert redist.cudnn_for("9.3", "11.2", "windows", "x86_64") is None
    assert redist.cuda_installer_for("13.9", "windows", "x86_64") is None


def test_the_base_override(monkeypatch: pytest.MonkeyPatch) -> None:
    found = redist.cudnn_for("8.1", "11.2", "windows", "x86_64")
    assert found is not None
    monkeypatch.setenv(redist.BASE_ENV, "http://127.0.0.1:9/")
    assert found.effective_url == "http://127.0.0.1:9/compute/redist/cudnn/v8.1.0/" + found.file
    assert found.to_dict()["url"] == found.effective_url


@pytest.mark.parametrize("change,words", [
    (lambda r: r.update(url="http://developer.download.nvidia.com/x.zip"), "https"),
    (lambda r: r.update(url="https://example.com/x.zip"), "https"),
    (lambda r: r.update(sha256="ABC"), "sha256"),
    (lambda r: r.update(sha256=None, verify_note=None), "verify_note"),
    (lambda r: r.update(checksum_source=None), "checksum_source"),
    (lambda r: r.update(cuda_from="12.0"), "cuda_from after"),
])
def test_malformed_rows_are_refused(change, words: str) -> None:
    src = copy.deepcopy(SOURCES)
    row = next(r for r in src["cudnn"] if r.get("sha256"))
    change(row)
    with pytest.raises(build_redist.RowError, match=words):
        build_redist.build(src)
