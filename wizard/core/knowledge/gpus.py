"""GPU specifications (``resources/gpu_specs.json``, built from ``shared/data/gpu-specs.json``).

Rows are looked up by the name NVML reports ("NVIDIA GeForce RTX 3070 Ti Laptop GPU"), ignoring
case, spacing and the "NVIDIA " prefix. Some NVML names are shared by several rows (the desktop
and laptop GTX 1660 Ti, the 10 GB and 12 GB RTX 3080); the memory size picks between them when
given, and the answer lists the other candidates under ``alternatives``.
"""

from __future__ import annotations

import re
from typing import Any, Optional

from wizard.resources import load_json


def match_key(name: str) -> str:
    """The same normalisation as ``scripts/build_compat.py``."""
    text = re.sub(r"^\s*nvidia\s+", "", name.strip(), flags=re.IGNORECASE)
    return re.sub(r"[\s_-]+", "", text.lower())


def gpu_rows() -> list[dict[str, Any]]:
    return load_json("gpu_specs.json")["gpus"]


def gpu_spec(name: str, memory_bytes: Optional[int] = None) -> Optional[dict[str, Any]]:
    """The spec row for a GPU name (a copy; ``alternatives`` names other rows that share the
    name), or None when the GPU is not in the table."""
    if not name:
        return None
    key = match_key(name)
    candidates = [row for row in gpu_rows() if key in row["match_keys"]]
    if not candidates:
        return None
    if memory_bytes and len(candidates) > 1:
        gib = memory_bytes / 2**30
        candidates.sort(key=lambda row: abs(float(row.get("memory_gb") or 0) - gib))
    best = {k: v for k, v in candidates[0].items() if k != "match_keys"}
    best["alternatives"] = [row["name"] for row in candidates[1:]]
    return best


def peak_fp32_tflops(spec: dict[str, Any]) -> Optional[float]:
    """A single FP32 peak: the value, or the top of a laptop range."""
    if spec.get("fp32_tflops") is not None:
        return float(spec["fp32_tflops"])
    span = spec.get("fp32_tflops_range")
    return float(span[1]) if span else None


def peak_fp16_tensor_tflops(spec: dict[str, Any]) -> Optional[float]:
    """FP16 Tensor Core peak with FP32 accumulation (what mixed_float16 uses)."""
    value = spec.get("fp16_tensor_tflops_fp32acc_dense")
    if value is not None:
        return float(value)
    span = spec.get("fp16_tensor_tflops_fp32acc_dense_range")
    return float(span[1]) if span else None
