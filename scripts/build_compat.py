#!/usr/bin/env python3
"""Build ``resources/compat.json`` and ``resources/gpu_specs.json`` from the source tables.

    python scripts/build_compat.py [--data DIR] [--check]

``DIR`` (default ``data/`` in the repository) holds ``compat-sources.json`` and
``gpu-specs.json``, every row with its source (data/README.md). The output is normalised for
fast queries (each TF row knows its release series, the text ranges of the compute-capability
table are parsed, the GA driver row of each CUDA minor is indexed) and every row keeps the
``source`` it was read from. The generated files are committed: the packaged exe reads them, not
the source tables. ``--check`` rebuilds in memory and exits 1 when the committed files are stale.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any, Optional

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from wizard.core.knowledge.versions import parse_version, series  # noqa: E402

FORMAT = "gpu-wizard/compat@1"
GPU_FORMAT = "gpu-wizard/gpu-specs@1"

# NVIDIA's download-archive pages for toolkits before 11.0 follow older slugs; from 11.0 on the
# slug is cuda-<major>-<minor>-<patch>-download-archive. Only slugs seen in use are listed; other
# old releases link to the archive index.
LEGACY_CUDA_PAGES = {
    "10.2": "https://developer.nvidia.com/cuda-10.2-download-archive",
    "10.1": "https://developer.nvidia.com/cuda-10.1-download-archive-base",
    "10.0": "https://developer.nvidia.com/cuda-10.0-download-archive",
    "9.0": "https://developer.nvidia.com/cuda-90-download-archive",
}
CUDA_ARCHIVE_INDEX = "https://developer.nvidia.com/cuda-toolkit-archive"
CUDA_PAGES_SOURCE = (
    "NVIDIA CUDA Toolkit Archive (https://developer.nvidia.com/cuda-toolkit-archive): pages "
    "cuda-<major>-<minor>-<patch>-download-archive from 11.0 on; older slugs as linked from there"
)


# The TensorFlow releases published on PyPI (tensorflow and tensorflow-gpu; the same version
# numbers), so that a version someone types can be checked against what exists: 2.10.1 is a
# release, 2.10.5 and 2.16.0 are not (2.16's first release is 2.16.1). Pre-releases (rc) are
# left out on purpose. Not in shared/data: read with pip's own client, see TF_RELEASES_SOURCE.
TF_RELEASES = [
    "0.12.0", "0.12.1", "1.0.0", "1.0.1", "1.1.0", "1.2.0", "1.2.1", "1.3.0", "1.4.0", "1.4.1",
    "1.5.0", "1.5.1", "1.6.0", "1.7.0", "1.7.1", "1.8.0", "1.9.0", "1.10.0", "1.10.1",
    "1.11.0", "1.12.0", "1.12.2", "1.12.3", "1.13.1", "1.13.2", "1.14.0", "1.15.0", "1.15.2",
    "1.15.3", "1.15.4", "1.15.5", "2.0.0", "2.0.1", "2.0.2", "2.0.3", "2.0.4", "2.1.0",
    "2.1.1", "2.1.2", "2.1.3", "2.1.4", "2.2.0", "2.2.1", "2.2.2", "2.2.3", "2.3.0", "2.3.1",
    "2.3.2", "2.3.3", "2.3.4", "2.4.0", "2.4.1", "2.4.2", "2.4.3", "2.4.4", "2.5.0", "2.5.1",
    "2.5.2", "2.5.3", "2.6.0", "2.6.1", "2.6.2", "2.6.3", "2.6.4", "2.6.5", "2.7.0", "2.7.1",
    "2.7.2", "2.7.3", "2.7.4", "2.8.0", "2.8.1", "2.8.2", "2.8.3", "2.8.4", "2.9.0", "2.9.1",
    "2.9.2", "2.9.3", "2.10.0", "2.10.1", "2.11.0", "2.11.1", "2.12.0", "2.12.1", "2.13.0",
    "2.13.1", "2.14.0", "2.14.1", "2.15.0", "2.15.0.post1", "2.15.1", "2.16.1", "2.16.2",
    "2.17.0", "2.17.1", "2.18.0", "2.18.1", "2.19.0", "2.19.1", "2.20.0", "2.21.0",
]
TF_RELEASES_SOURCE = (
    "PyPI release history of tensorflow and tensorflow-gpu, read 2026-11-30 with "
    "pip index versions (wheels for Python 2.7-3.13, manylinux and win_amd64)"
)

# --- Text for users -------------------------------------------------------------------------
#
# The research rows carry notes meant for whoever maintains the data ("(crawl id ...)",
# "(inference, see uncertain)", "The docs sentence was never updated."). They stay in the rows
# (``caveat``, ``windows_note``, ``source``), and the text the wizard shows users comes from the
# ``user_*`` fields written here. ``wizard.core.knowledge.public_text`` strips the remaining
# maintainer parentheticals from sources at run time. A caveat with maintainer wording and no user
# version below fails the build.
MAINTAINER_MARKERS = re.compile(
    r"crawl id|see uncertain|\binference\b|never updated|not read in|held-out", re.IGNORECASE
)
USER_CC_CAVEATS = {
    "2.4 - 2.16": (
        "TensorFlow's install page lists compute capability 3.5 for these releases; that holds "
        "only for the builds made with CUDA 11 (up to TF 2.14)."
    ),
    "2.17 and later": (
        "TensorFlow's install page still lists compute capability 3.5 and up; the release notes "
        "(6.0 and up) are right for the official wheels. Blackwell GPUs (compute capability "
        "10.x and 12.x) are not among the GPUs these wheels are built for, and the CUDA 12.5 "
        "libraries they use predate Blackwell: such a GPU may not work with them."
    ),
}
USER_WINDOWS_NOTES = {
    "13": (
        "NVIDIA publishes no minimum Windows driver for CUDA 13.x, only the driver branch "
        "(580 or newer)."
    ),
}


def user_text(text: Optional[str], curated: Optional[str], what: str) -> Optional[str]:
    """The user's version of a maintainer note: the curated text, else the note itself when it
    has no maintainer wording (ValueError otherwise: write one above)."""
    if curated is not None or text is None:
        return curated
    if MAINTAINER_MARKERS.search(text):
        raise ValueError(f"{what} has maintainer wording; add a user version: {text!r}")
    return text

# --- TensorFlow tables ------------------------------------------------------------------------


def tf_rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for row in rows:
        out.append(
            {
                "tf": row["tf"],
                "series": series(row["tf"]),
                "package": row["package"],
                "python": row["python"],
                "cuda": row["cuda"],
                "cudnn": row["cudnn"],
                "compiler": row.get("compiler"),
                "build_tools": row.get("build_tools"),
                "source": row["source"],
            }
        )
    out.sort(key=lambda r: parse_version(r["tf"]), reverse=True)
    return out


def and_cuda_rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = [
        {
            "tf": row["tf"],
            "series": series(row["tf"]),
            "requires_python": row.get("requires_python"),
            "packages": row["packages"],
            "source": row["source"],
        }
        for row in rows
    ]
    out.sort(key=lambda r: parse_version(r["tf"]), reverse=True)
    return out


# --- Drivers ----------------------------------------------------------------------------------


def release_patch(cuda: str, release: str) -> Optional[str]:
    """The x.y.z a release label names: "GA (11.2.0)" -> "11.2.0", "10.2.89" -> "10.2.89",
    "Update 2" -> None (no number written)."""
    match = re.search(r"\((\d+\.\d+\.\d+)\)", release) or re.match(r"(\d+\.\d+\.\d+)", release)
    if match and series(match.group(1)) == series(cuda):
        return match.group(1)
    return None


def driver_rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        {
            "cuda": row["cuda"],
            "release": row["release"],
            "release_version": release_patch(row["cuda"], row["release"]),
            "linux": row["linux"],
            "windows": row["windows"],
            "as_published": row.get("as_published"),
            "source": row["source"],
        }
        for row in rows
    ]


def ga_driver_index(
    ga_rows: list[dict[str, Any]], all_rows: list[dict[str, Any]]
) -> dict[str, dict[str, Any]]:
    """cuda minor -> the toolkit release's minimum (its GA row), with the NVIDIA table's source."""
    index = {}
    for row in ga_rows:
        minor = series(row["cuda"])
        origin = next(
            (
                r
                for r in all_rows
                if series(r["cuda"]) == minor
                and r["linux"] == row["linux"]
                and r["windows"] == row["windows"]
                and r["release"] == row.get("from_release")
            ),
            None,
        ) or next(
            (r for r in all_rows if series(r["cuda"]) == minor and r["linux"] == row["linux"]),
            None,
        )
        release = origin["release"] if origin else row.get("from_release")
        version = release_patch(row["cuda"], release or "") or f"{minor}.0"
        index[minor] = {
            "cuda": minor,
            "release": release,
            "release_version": version,
            "linux": row["linux"],
            "windows": row["windows"],
            "as_published": row.get("as_published"),
            "source": (origin["source"] if origin else row["source"]),
            "derivation": row["source"],
        }
    return index


def minor_compat_index(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    index = {}
    for row in rows:
        major = str(parse_version(row["cuda_major"])[0])
        entry = {key: value for key, value in row.items() if key != "cuda_major"}
        entry["cuda_major"] = major
        entry["user_windows_note"] = user_text(
            row.get("windows_note"), USER_WINDOWS_NOTES.get(major), f"CUDA {major}.x windows_note"
        )
        index[major] = entry
    return index


def download_pages(ga_index: dict[str, dict[str, Any]]) -> dict[str, str]:
    pages = {}
    for minor, row in ga_index.items():
        if parse_version(minor) >= (11, 0):
            patch = row["release_version"] or f"{minor}.0"
            pages[minor] = "https://developer.nvidia.com/cuda-{}-download-archive".format(
                "-".join(str(n) for n in parse_version(patch)[:3])
            )
        else:
            pages[minor] = LEGACY_CUDA_PAGES.get(minor, CUDA_ARCHIVE_INDEX)
    return pages


# --- cuDNN <-> CUDA ---------------------------------------------------------------------------


def cudnn_span(text: str) -> tuple[str, str]:
    """ "7.6.4-7.6.5" -> (7.6.4, 7.6.5); "8.1 (8.1.0.77 / 8.1.1.33)" -> (8.1, 8.1);
    "9.5.0 / 9.5.1" -> (9.5.0, 9.5.1); "8.0.0-8.0.1 Preview" -> (8.0.0, 8.0.1)."""
    head = re.sub(r"\(.*?\)", "", text).replace("Preview", "").strip()
    numbers = re.findall(r"\d+(?:\.\d+)+|\d+", head)
    if not numbers:
        raise ValueError(f"cannot read the cuDNN version {text!r}")
    return numbers[0], numbers[-1]


def cuda_entry(text: str) -> dict[str, Any]:
    """One CUDA entry of a cuDNN row: "9.0 (9.0.176)" -> minors 9.0..9.0;
    "11.0-11.8 (...)" -> 11.0..11.8; "11.x" / "12.x (list cut ...)" -> the whole family."""
    family = re.match(r"\s*(\d+)\.x", text)
    if family:
        return {"as_written": text, "family": family.group(1)}
    span = re.match(r"\s*(\d+\.\d+)\s*-\s*(\d+\.\d+)", text)
    if span:
        return {"as_written": text, "from": span.group(1), "to": span.group(2)}
    single = re.match(r"\s*(\d+\.\d+)", text)
    if not single:
        raise ValueError(f"cannot read the CUDA entry {text!r}")
    return {"as_written": text, "from": single.group(1), "to": single.group(1)}


def cudnn_rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for row in rows:
        low, high = cudnn_span(row["cudnn"])
        texts = [row["cudnn"], *row["cuda"], row.get("note", "")]
        partial = any(
            marker in text for text in texts for marker in ("cut", "partial", "non-11.8 build")
        )
        out.append(
            {
                "cudnn": row["cudnn"],
                "cudnn_from": low,
                "cudnn_to": high,
                "cuda": [cuda_entry(text) for text in row["cuda"]],
                "partial": partial,
                "drivers": row.get("drivers"),
                "source": row["source"],
            }
        )
    return out


# --- Compute capability ----------------------------------------------------------------------


def tf_spans(text: str) -> list[list[Optional[str]]]:
    """The TF releases a compute-capability row covers, as inclusive [from, to] series
    (to=None: open-ended). "1.x (<=1.15) and 2.0-2.2 (pip/binary packages)" ->
    [[1.0, 1.15], [2.0, 2.2]]; "2.3" -> [[2.3, 2.3]]; "2.17 and later" -> [[2.17, None]]."""
    cleaned = re.sub(r"\((?!\s*<=)[^)]*\)", "", text).strip()
    spans: list[list[Optional[str]]] = []
    later = re.fullmatch(r"(\d+\.\d+)\s+and\s+later", cleaned)
    if later:
        return [[later.group(1), None]]
    for piece in re.split(r"\s+and\s+", cleaned):
        piece = piece.strip()
        capped = re.fullmatch(r"(\d+)\.x\s*\(\s*<=\s*(\d+\.\d+)\s*\)", piece)
        ranged = re.fullmatch(r"(\d+\.\d+)\s*-\s*(\d+\.\d+)", piece)
        single = re.fullmatch(r"(\d+\.\d+)", piece)
        if capped:
            spans.append([f"{capped.group(1)}.0", capped.group(2)])
        elif ranged:
            spans.append([ranged.group(1), ranged.group(2)])
        elif single:
            spans.append([single.group(1), single.group(1)])
        else:
            raise ValueError(f"cannot read the TF range {text!r} (piece {piece!r})")
    return spans


def cc_rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for row in rows:
        min_cc = re.match(r"\s*(\d+\.\d+)", row["min_cc"])
        if not min_cc:
            raise ValueError(f"cannot read the minimum compute capability {row['min_cc']!r}")
        out.append(
            {
                "tf": row["tf"],
                "tf_spans": tf_spans(row["tf"]),
                "min_cc": min_cc.group(1),
                "min_cc_as_written": row["min_cc"],
                "unsupported_cc": re.findall(r"(\d+\.\d+)\s+NOT supported", row["min_cc"]),
                "listed": row.get("listed"),
                "caveat": row.get("caveat"),
                "user_caveat": user_text(
                    row.get("caveat"), USER_CC_CAVEATS.get(row["tf"]), f"TF {row['tf']} caveat"
                ),
                "source": row["source"],
            }
        )
    return out


def arch_rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        {
            "cuda": row["cuda"],
            "adds": row.get("adds", []),
            "removes": row.get("removes", []),
            "min_sm": row.get("min_sm"),
            "source": row["source"],
        }
        for row in rows
    ]


# --- Whole files ------------------------------------------------------------------------------


def build_compat(src: dict[str, Any]) -> dict[str, Any]:
    ga_index = ga_driver_index(src["cuda_min_driver_ga_per_minor"], src["cuda_min_driver"])
    pip_rows = and_cuda_rows(src["tf_and_cuda_pip"])
    last = src["windows_native_gpu_last_tf_source"]
    return {
        "format": FORMAT,
        "built_from": {
            "file": "compat-sources.json",
            "generated": src.get("_meta", {}).get("generated"),
            "main_sources": src.get("_meta", {}).get("main_sources"),
        },
        "tensorflow": {
            "linux": tf_rows(src["tensorflow_linux"]),
            "windows": tf_rows(src["tensorflow_windows"]),
        },
        "tf_releases": {
            "versions": sorted(TF_RELEASES, key=parse_version),
            "source": TF_RELEASES_SOURCE,
        },
        "tensorflow_rows_removed_from_docs": src.get("tensorflow_rows_removed_from_docs", []),
        "windows_native_gpu_last_tf": {
            "tf": src["windows_native_gpu_last_tf"],
            "quotes": last.get("quotes", []),
            "related": last.get("related"),
            "source": last["source"],
        },
        "and_cuda": {
            "first_tf": min((r["series"] for r in pip_rows), key=parse_version),
            "notes": src.get("tf_and_cuda_pip_notes", []),
            "source": src["tf_and_cuda_pip"][0]["source"].split(" of ")[0]
            + " of the tensorflow wheels; "
            + (src.get("tf_and_cuda_pip_notes") or [""])[0],
        },
        "tf_and_cuda_pip": pip_rows,
        "cuda_min_driver": driver_rows(src["cuda_min_driver"]),
        "cuda_min_driver_ga": ga_index,
        "cuda_minor_compat": minor_compat_index(src["cuda_minor_compat_min_driver"]),
        "cuda_download_pages": {"pages": download_pages(ga_index), "source": CUDA_PAGES_SOURCE},
        "cudnn_cuda": cudnn_rows(src["cudnn_cuda"]),
        "cudnn_general_rules": src.get("cudnn_general_rules", []),
        "tf_min_compute_capability": cc_rows(src["tf_min_compute_capability"]),
        "cuda_toolkit_arch_support": arch_rows(src["cuda_toolkit_arch_support"]),
        "tf_required_driver_derived": src.get("tf_required_driver_derived", []),
        "tf_docs_gpu_software_requirements_history": src.get(
            "tf_docs_gpu_software_requirements_history", []
        ),
        "pytorch_cuda": src.get("pytorch_cuda", []),
        "pytorch_cuda_arch": src.get("pytorch_cuda_arch", []),
        "platform_facts": src.get("platform_facts", []),
        "uncertain": src.get("uncertain", []),
    }


def match_key(name: str) -> str:
    """GPU names compare without case, without the "NVIDIA " prefix and without spaces."""
    text = re.sub(r"^\s*nvidia\s+", "", name.strip(), flags=re.IGNORECASE)
    return re.sub(r"[\s_-]+", "", text.lower())


def build_gpu_specs(rows: list[dict[str, Any]]) -> dict[str, Any]:
    gpus = []
    for row in rows:
        names = [row["name"], row.get("nvml_name") or "", *(row.get("nvml_name_aliases") or [])]
        entry = dict(row)
        entry["match_keys"] = sorted({match_key(n) for n in names if n})
        gpus.append(entry)
    return {"format": GPU_FORMAT, "built_from": "gpu-specs.json", "gpus": gpus}


def dump(data: Any) -> str:
    return json.dumps(data, indent=1, ensure_ascii=False, sort_keys=False) + "\n"


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=str(REPO / "data"), metavar="DIR",
                        help="the source tables (default: data/ in the repository)")
    parser.add_argument("--out", default=str(REPO / "resources"), metavar="DIR")
    parser.add_argument("--check", action="store_true", help="exit 1 if the outputs are stale")
    args = parser.parse_args(argv)
    data_dir = Path(args.data)
    try:
        with open(data_dir / "compat-sources.json", encoding="utf-8") as handle:
            compat = build_compat(json.load(handle))
        with open(data_dir / "gpu-specs.json", encoding="utf-8") as handle:
            gpus = build_gpu_specs(json.load(handle))
    except OSError as exc:
        print(f"build_compat: cannot read {exc.filename}: {exc.strerror}", file=sys.stderr)
        return 2
    outputs = {Path(args.out) / "compat.json": compat, Path(args.out) / "gpu_specs.json": gpus}
    stale = []
    for path, data in outputs.items():
        text = dump(data)
        current = path.read_text(encoding="utf-8") if path.is_file() else None
        if current != text:
            stale.append(path)
            if not args.check:
                path.write_text(text, encoding="utf-8")
    if args.check and stale:
        print("stale: " + ", ".join(str(p) for p in stale), file=sys.stderr)
        return 1
    for path in outputs:
        if args.check:
            print(f"up to date: {path}")
        else:
            print(f"{'wrote' if path in stale else 'unchanged'}: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
