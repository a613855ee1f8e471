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


_NVIDIA_BRAND = re.compile(
    r"\b(?:nvidia|geforce|quadro|tesla|titan|jetson|tegra|xavier|orin|dgx|nvs"
    r"|gtx|rtx|gts|gt\s?\d{3,4}m?|mx\s?\d{3}|\d{3}mx)\b",
    re.IGNORECASE)
"""Words only NVIDIA's products carry: brands and series."""
_NVIDIA_MODEL = re.compile(r"\b(?:[ahlt]\d{1,3}[a-z]?|[kmpv]\d{2,3}[a-z]?|[ab]\d{3,4}[a-z]?)\b",
                           re.IGNORECASE)
"""NVIDIA's data-centre model numbers (T4, A100, H100, L40S, K80, P100, V100, A6000, B200),
trusted only where no other vendor's word stands beside them (Intel's Arc A770)."""
_OTHER_GPU_NAME = re.compile(
    r"\b(?:amd|ati|radeon|vega|navi|firepro|instinct|rx\s?\d{3,4}\w*|intel|iris|uhd|arc"
    r"|hd\s?graphics|mesa|llvmpipe|apple|m[1-9](?:\s?(?:pro|max|ultra))?|mali|adreno"
    r"|powervr|matrox|virtualbox|vmware|svga)\b",
    re.IGNORECASE)
_NO_GPU = re.compile(r"^(?:none|no(?:\s+nvidia)?(?:\s+gpu)?|cpu(?:\s+only)?|-"
                     r"|无|没有|无显卡|没有显卡)$", re.IGNORECASE)


def is_nvidia_gpu_name(name: str) -> Optional[bool]:
    """Whether a GPU name a user gives (``explain --gpu``) is an NVIDIA GPU: True ("RTX 3060",
    "Tesla T4", "Intel UHD 620 + GeForce MX150": a hybrid laptop has one), False ("AMD Radeon
    RX 570", "Intel Iris Xe", "Apple M1", "none", "无"), None when the name says neither."""
    text = re.sub(r"\s+", " ", name.strip())
    if not text:
        return None
    if gpu_spec(text) is not None or _NVIDIA_BRAND.search(text):
        return True
    if _NO_GPU.match(text) or _OTHER_GPU_NAME.search(text):
        return False
    return True if _NVIDIA_MODEL.search(text) else None
