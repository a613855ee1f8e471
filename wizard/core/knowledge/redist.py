"""Which NVIDIA download a target needs: the cuDNN archive for a cuDNN series, CUDA toolkit, OS
and architecture, and the CUDA local installer for a CUDA minor version.

The rows are ``resources/redist.json`` (built from ``data/redist-sources.json`` by
``scripts/build_redist.py``); each keeps its URL, checksum, where the checksum was read, and what
the download is verified by (``sha256``, ``md5``, ``size`` or ``none``).

``GPU_WIZARD_REDIST_BASE`` (tests, mirrors) replaces ``https://developer.download.nvidia.com`` in
every URL this module hands out, e.g. ``http://127.0.0.1:8000``; the download still needs that
host allowed (``--allow-host``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Optional

from wizard.core.knowledge.versions import compare_versions, try_parse_version
from wizard.resources import load_json

FORMAT = "gpu-wizard/redist@1"
BASE_ENV = "GPU_WIZARD_REDIST_BASE"
NVIDIA_BASE = "https://developer.download.nvidia.com"
_STRENGTH = {"sha256": 3, "md5": 2, "size": 1, "none": 0}


@dataclass(frozen=True)
class Download:
    """One file NVIDIA publishes: what it is (``kind`` ``cudnn`` or ``cuda``, ``version``), for
    which CUDA toolkits (``cuda_from``..``cuda_to``), where it is, and how it is checked."""

    kind: str
    version: str
    os: str
    arch: str
    url: str
    file: str
    sha256: Optional[str]
    md5: Optional[str]
    size: Optional[int]
    verified_by: str
    source: str
    checksum_source: Optional[str]
    verify_note: Optional[str]
    cuda_from: Optional[str] = None
    cuda_to: Optional[str] = None
    cuda_label: Optional[str] = None

    @property
    def series(self) -> str:
        return ".".join(self.version.split(".")[:2])

    @property
    def effective_url(self) -> str:
        """The URL to fetch: ``url``, or the same path under ``$GPU_WIZARD_REDIST_BASE``."""
        base = os.environ.get(BASE_ENV)
        if base and self.url.startswith(NVIDIA_BASE + "/"):
            return base.rstrip("/") + self.url[len(NVIDIA_BASE):]
        return self.url

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "version": self.version, "os": self.os, "arch": self.arch,
                "url": self.effective_url, "file": self.file, "sha256": self.sha256,
                "md5": self.md5, "size": self.size, "verified_by": self.verified_by,
                "source": self.source, "checksum_source": self.checksum_source,
                "cuda_from": self.cuda_from, "cuda_to": self.cuda_to}


def redist_data() -> dict[str, Any]:
    data = load_json("redist.json")
    if data.get("format") != FORMAT:
        raise ValueError("resources/redist.json has an unknown format; rebuild it with "
                         "python scripts/build_redist.py")
    return data


def _row(kind: str, row: dict[str, Any]) -> Download:
    return Download(
        kind=kind, version=row["cudnn"] if kind == "cudnn" else row["cuda"], os=row["os"],
        arch=row["arch"], url=row["url"], file=row["file"], sha256=row.get("sha256"),
        md5=row.get("md5"), size=row.get("size"), verified_by=row["verified_by"],
        source=row["source"], checksum_source=row.get("checksum_source"),
        verify_note=row.get("verify_note"), cuda_from=row.get("cuda_from"),
        cuda_to=row.get("cuda_to"), cuda_label=row.get("cuda_label"))


def cudnn_archives(os_name: Optional[str] = None, arch: Optional[str] = None) -> list[Download]:
    """Every cuDNN archive known (newest first), for one OS and architecture if given."""
    return [_row("cudnn", r) for r in redist_data()["cudnn"]
            if (os_name is None or r["os"] == os_name) and (arch is None or r["arch"] == arch)]


def cuda_installers(os_name: Optional[str] = None, arch: Optional[str] = None
                    ) -> list[Download]:
    return [_row("cuda", r) for r in redist_data()["cuda_installers"]
            if (os_name is None or r["os"] == os_name) and (arch is None or r["arch"] == arch)]


def _minor(version: Optional[str]) -> Optional[tuple[int, int]]:
    parsed = try_parse_version(version)
    if not parsed:
        return None
    return (parsed[0], parsed[1] if len(parsed) > 1 else 0)


def _covers(row: Download, cuda: Optional[str]) -> bool:
    """The archive is built for this CUDA toolkit (``"11.2"``); a bare major (``"11"``)
    matches any archive of that major."""
    wanted = try_parse_version(cuda)
    if not wanted:
        return True
    low, high = _minor(row.cuda_from), _minor(row.cuda_to)
    if low is None or high is None:
        return False
    if len(wanted) == 1:
        return low[0] <= wanted[0] <= high[0]
    return low <= (wanted[0], wanted[1]) <= high


def _loads(needed: Optional[str], version: str) -> bool:
    """A TF built for cuDNN ``needed`` (``"8.1"``) loads ``version``: same major, not older."""
    want, have = try_parse_version(needed), try_parse_version(version)
    if not want or not have:
        return True
    return want[0] == have[0] and compare_versions(version, needed or "") >= 0


def cudnn_for(cudnn: Optional[str], cuda: Optional[str], os_name: str, arch: str
              ) -> Optional[Download]:
    """The archive to install for a TF that loads cuDNN ``cudnn`` (``"8.1"``) next to CUDA
    ``cuda`` (``"11.2"``) on ``os_name``/``arch``, or None when none is known.

    Among the archives built for that CUDA whose cuDNN the TF can load (same major, not older),
    the same series as asked is preferred (TF 2.10 on Windows: 8.1, not 8.9), then the stronger
    check (a published sha256 over none), then the newest."""
    fitting = [row for row in cudnn_archives(os_name, arch)
               if _covers(row, cuda) and _loads(cudnn, row.version)]
    if not fitting:
        return None
    wanted = _minor(cudnn)

    def rank(row: Download) -> tuple[Any, ...]:
        same_series = wanted is not None and _minor(row.version) == wanted
        return (same_series, _STRENGTH[row.verified_by],
                try_parse_version(row.version) or ())

    return max(fitting, key=rank)


def cuda_installer_for(cuda: Optional[str], os_name: str, arch: str) -> Optional[Download]:
    """The newest local installer of CUDA ``cuda``'s minor version (``"11.2"`` -> 11.2.2)."""
    wanted = _minor(cuda)
    if wanted is None:
        return None
    rows = [r for r in cuda_installers(os_name, arch) if _minor(r.version) == wanted]
    if not rows:
        return None
    return max(rows, key=lambda r: (_STRENGTH[r.verified_by], try_parse_version(r.version) or ()))
