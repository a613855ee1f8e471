"""Version strings as they appear in the tables, in NVML and in pip metadata.

One numeric rule serves them all: a version is the tuple of its leading numeric components, and
two versions compare component by component with missing components read as 0. That makes
``"516.94" > "452.39"`` (Windows drivers as NVML reports them), ``"525.60.13" > "525.60"`` (Linux
drivers) and ``"2.10.1" > "2.9"`` (TensorFlow) without special cases. Suffixes such as ``rc1``,
``.post1`` or ``+cpu`` are ignored: ``"2.10.0rc1"`` reads as 2.10.0.
"""

from __future__ import annotations

import re
from typing import Optional

_NUMERIC_PREFIX = re.compile(r"\s*v?(\d+(?:\.\d+)*)")


def parse_version(text: str) -> tuple[int, ...]:
    """``"2.10.1rc0"`` -> ``(2, 10, 1)``. Raises ValueError when the text has no number."""
    match = _NUMERIC_PREFIX.match(str(text))
    if not match:
        raise ValueError(f"not a version number: {text!r}")
    return tuple(int(part) for part in match.group(1).split("."))


def try_parse_version(text: Optional[str]) -> Optional[tuple[int, ...]]:
    if text is None:
        return None
    try:
        return parse_version(text)
    except ValueError:
        return None


def _padded(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    width = max(len(a), len(b))
    return a + (0,) * (width - len(a)), b + (0,) * (width - len(b))


def compare_versions(a: str, b: str) -> int:
    """-1, 0 or 1 as ``a`` is older than, equal to or newer than ``b`` (numeric per component)."""
    left, right = _padded(parse_version(a), parse_version(b))
    return (left > right) - (left < right)


def version_at_least(version: str, minimum: str) -> bool:
    return compare_versions(version, minimum) >= 0


def series(version: str, parts: int = 2) -> str:
    """The release series: ``"2.10.1"`` -> ``"2.10"``; ``"10"`` -> ``"10.0"`` (CUDA as written
    in the TF Windows table); ``"9"`` -> ``"9.0"``."""
    numbers = parse_version(version)
    numbers = numbers + (0,) * (parts - len(numbers))
    return ".".join(str(n) for n in numbers[:parts])


def same_series(a: str, b: str, parts: int = 2) -> bool:
    return series(a, parts) == series(b, parts)


def driver_cuda_version(nvml_int: int) -> str:
    """NVML's ``cuda_driver_version`` integer as ``major.minor``: 11070 -> "11.7", 12020 -> "12.2".

    NVML encodes ``1000 * major + 10 * minor`` (cudaDriverGetVersion's convention).
    """
    value = int(nvml_int)
    if value <= 0:
        raise ValueError(f"not a CUDA driver version: {nvml_int!r}")
    return f"{value // 1000}.{(value % 1000) // 10}"


def parse_python_range(range_text: str) -> list[tuple[tuple[int, ...], Optional[tuple[int, ...]]]]:
    """``"2.7, 3.3-3.6"`` -> ``[((2, 7), (2, 7)), ((3, 3), (3, 6))]``; ``">=3.9"`` -> ``[((3, 9),
    None)]`` (no upper bound). Bounds are inclusive ``major.minor`` pairs."""
    spans: list[tuple[tuple[int, ...], Optional[tuple[int, ...]]]] = []
    for part in str(range_text).split(","):
        part = part.strip()
        if not part:
            continue
        if part.startswith(">="):
            spans.append((parse_version(series(part[2:].strip())), None))
        elif "-" in part:
            low, high = (piece.strip() for piece in part.split("-", 1))
            spans.append((parse_version(series(low)), parse_version(series(high))))
        else:
            bound = parse_version(series(part))
            spans.append((bound, bound))
    if not spans:
        raise ValueError(f"not a Python version range: {range_text!r}")
    return spans


def python_supported(python_version: str, range_text: str) -> bool:
    """Whether Python ``python_version`` ("3.9.13") falls in ``range_text`` ("3.7-3.10")."""
    minor = parse_version(series(python_version))
    for low, high in parse_python_range(range_text):
        if minor >= low and (high is None or minor <= high):
            return True
    return False


def python_range_bounds(range_text: str) -> tuple[str, Optional[str]]:
    """The lowest and highest ``major.minor`` of a range (None: open-ended)."""
    spans = parse_python_range(range_text)
    low = min(span[0] for span in spans)
    highs = [span[1] for span in spans]
    high = None if any(h is None for h in highs) else max(h for h in highs if h is not None)
    return ".".join(map(str, low)), (".".join(map(str, high)) if high else None)


def nvidia_driver_from_wddm(text: str) -> Optional[str]:
    """Windows shows the NVIDIA driver as a WDDM version ("31.0.15.3623"); NVIDIA's version is
    the last five digits of the last two fields: "536.23". Returns None for other shapes;
    an NVIDIA-style version ("516.94") is returned unchanged."""
    parts = str(text).strip().split(".")
    if len(parts) == 2 and all(p.isdigit() for p in parts):
        return str(text).strip()
    if len(parts) != 4 or not all(p.isdigit() for p in parts):
        return None
    digits = (parts[2] + parts[3].zfill(4))[-5:]
    if len(digits) < 5:
        return None
    return f"{int(digits[:3])}.{digits[3:]}"
