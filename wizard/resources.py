"""Where the data files in ``resources/`` live: a source checkout, an installed wheel, or a
PyInstaller bundle. Everything that reads a resource goes through :func:`resource_path`."""

from __future__ import annotations

import json
import sys
from functools import cache, lru_cache
from pathlib import Path
from typing import Any


@lru_cache(maxsize=1)
def resources_dir() -> Path:
    """The folder that holds compat data, probes, signatures and translations."""
    candidates = []
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle:  # PyInstaller one-file/one-folder build
        candidates.append(Path(bundle) / "resources")
    here = Path(__file__).resolve().parent
    candidates.append(here.parent / "resources")  # source checkout / editable install
    candidates.append(here / "_resources")  # regular wheel install (package-dir mapping)
    for candidate in candidates:
        if (candidate / "compat.json").is_file() or (candidate / "probes").is_dir():
            return candidate
    return candidates[-1]


def resource_path(*parts: str) -> Path:
    return resources_dir().joinpath(*parts)


@cache
def load_json(name: str) -> Any:
    """Load (and cache) a JSON resource such as ``compat.json``."""
    with open(resource_path(name), encoding="utf-8") as handle:
        return json.load(handle)
