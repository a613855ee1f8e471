#!/usr/bin/env python3
"""Build ``resources/redist.json`` from ``data/redist-sources.json``.

    python scripts/build_redist.py [--data DIR] [--out DIR] [--check]

The source table lists NVIDIA's cuDNN archives and CUDA local installers with the checksum of
each and where it was read (data/README.md). The build checks every row (HTTPS on NVIDIA's
download host, a well-formed sha256/md5, a source for the row and one for its checksum; a row
without a checksum must say why in ``verify_note``), sorts the rows and records for each what it
is verified by (``sha256``, ``md5``, ``size`` or ``none``). ``--check`` exits 1 when the committed
file is stale, 2 when a row is malformed (one line naming it).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any, Optional

REPO = Path(__file__).resolve().parent.parent
FORMAT = "gpu-wizard/redist@1"
HOSTS = ("developer.download.nvidia.com",)
OSES = ("windows", "linux")
ARCHES = ("x86_64", "aarch64")


class RowError(ValueError):
    pass


def _version_key(text: str) -> tuple[int, ...]:
    return tuple(int(p) for p in re.findall(r"\d+", text))


def _check_common(row: dict[str, Any], where: str) -> None:
    url = row.get("url") or ""
    match = re.match(r"https://([^/]+)/", url)
    if not match or match.group(1) not in HOSTS:
        raise RowError(f"{where}: url must be https on {', '.join(HOSTS)}: {url!r}")
    if row.get("os") not in OSES or row.get("arch") not in ARCHES:
        raise RowError(f"{where}: os/arch must be one of {OSES} / {ARCHES}")
    sha256, md5 = row.get("sha256"), row.get("md5")
    if sha256 is not None and not re.fullmatch(r"[0-9a-f]{64}", sha256):
        raise RowError(f"{where}: sha256 must be 64 lower-case hex digits")
    if md5 is not None and not re.fullmatch(r"[0-9a-f]{32}", md5):
        raise RowError(f"{where}: md5 must be 32 lower-case hex digits")
    size = row.get("size")
    if size is not None and (not isinstance(size, int) or size <= 0):
        raise RowError(f"{where}: size must be a positive integer or null")
    if not row.get("source"):
        raise RowError(f"{where}: no source")
    if (sha256 or md5) and not row.get("checksum_source"):
        raise RowError(f"{where}: a checksum without checksum_source")
    if not (sha256 or md5) and not row.get("verify_note"):
        raise RowError(f"{where}: no checksum and no verify_note saying why")


def verified_by(row: dict[str, Any]) -> str:
    if row.get("sha256"):
        return "sha256"
    if row.get("md5"):
        return "md5"
    return "size" if row.get("size") else "none"


def cudnn_rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for index, row in enumerate(rows):
        where = f"cudnn[{index}] {row.get('cudnn')} {row.get('os')}"
        _check_common(row, where)
        for key in ("cudnn", "cuda_from", "cuda_to", "cuda_label"):
            if not re.fullmatch(r"\d+(\.\d+)*", str(row.get(key) or "")):
                raise RowError(f"{where}: {key} must be a version")
        if _version_key(row["cuda_from"]) > _version_key(row["cuda_to"]):
            raise RowError(f"{where}: cuda_from after cuda_to")
        series = ".".join(row["cudnn"].split(".")[:2])
        out.append({**row, "series": series, "file": row["url"].rsplit("/", 1)[1],
                    "verified_by": verified_by(row)})
    out.sort(key=lambda r: (r["os"], r["arch"], [-v for v in _version_key(r["cudnn"])],
                            _version_key(r["cuda_from"])))
    return out


def installer_rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for index, row in enumerate(rows):
        where = f"cuda_installers[{index}] {row.get('cuda')} {row.get('os')}"
        _check_common(row, where)
        if not re.fullmatch(r"\d+\.\d+(\.\d+)?", str(row.get("cuda") or "")):
            raise RowError(f"{where}: cuda must be a version")
        minor = ".".join(row["cuda"].split(".")[:2])
        out.append({**row, "series": minor, "file": row["url"].rsplit("/", 1)[1],
                    "verified_by": verified_by(row)})
    out.sort(key=lambda r: (r["os"], r["arch"], [-v for v in _version_key(r["cuda"])]))
    return out


def build(src: dict[str, Any]) -> dict[str, Any]:
    meta = src.get("_meta") or {}
    return {
        "format": FORMAT,
        "built_from": {"file": "redist-sources.json", "generated": meta.get("generated"),
                       "sources": meta.get("sources", {})},
        "cudnn": cudnn_rows(src.get("cudnn") or []),
        "cuda_installers": installer_rows(src.get("cuda_installers") or []),
    }


def dump(data: Any) -> str:
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=str(REPO / "data"), metavar="DIR")
    parser.add_argument("--out", default=str(REPO / "resources"), metavar="DIR")
    parser.add_argument("--check", action="store_true", help="exit 1 if the output is stale")
    args = parser.parse_args(argv)
    source = Path(args.data) / "redist-sources.json"
    try:
        data = build(json.loads(source.read_text(encoding="utf-8")))
    except OSError as exc:
        print(f"build_redist: cannot read {source}: {exc.strerror}", file=sys.stderr)
        return 2
    except (ValueError, KeyError) as exc:
        print(f"build_redist: {source}: {exc}", file=sys.stderr)
        return 2
    path = Path(args.out) / "redist.json"
    text = dump(data)
    current = path.read_text(encoding="utf-8") if path.is_file() else None
    if args.check:
        if current != text:
            print(f"stale: {path} (run python scripts/build_redist.py)", file=sys.stderr)
            return 1
        print(f"up to date: {path}")
        return 0
    if current != text:
        path.write_text(text, encoding="utf-8")
    print(f"{'wrote' if current != text else 'unchanged'}: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
