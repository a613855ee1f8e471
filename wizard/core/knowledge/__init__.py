"""Version knowledge: the compatibility tables and GPU specs, loaded from ``resources/``.

``resources/compat.json`` and ``resources/gpu_specs.json`` are built from
``shared/data/compat-sources.json`` and ``gpu-specs.json`` by ``scripts/build_compat.py``; every
row keeps the source it was read from. This package only answers questions over those rows.
"""

from __future__ import annotations

from wizard.core.knowledge.answer import compat_answer, compat_text
from wizard.core.knowledge.compat import (
    TF_PIP_URL,
    DriverRequirement,
    TfRequirement,
    and_cuda_first_tf,
    and_cuda_pins,
    choose_target,
    compat_data,
    compute_capability_requirement,
    cuda_download_url,
    cuda_release_version,
    cudnn_download_url,
    cudnn_supports_cuda,
    driver_download_url,
    install_command,
    install_notes,
    known_tf_versions,
    last_windows_gpu_tf,
    max_cuda_for_driver,
    min_compute_capability,
    min_driver,
    nearest_known_tf,
    parse_cuda_query,
    parse_tf_query,
    public_text,
    recommended_tf,
    tf_requirement,
    tf_versions_for_cuda,
)
from wizard.core.knowledge.gpus import gpu_spec, peak_fp16_tensor_tflops, peak_fp32_tflops
from wizard.core.knowledge.versions import (
    compare_versions,
    driver_cuda_version,
    nvidia_driver_from_wddm,
    parse_version,
    python_supported,
    series,
    try_parse_version,
    version_at_least,
)

__all__ = [
    "TF_PIP_URL",
    "DriverRequirement",
    "TfRequirement",
    "and_cuda_first_tf",
    "and_cuda_pins",
    "choose_target",
    "compare_versions",
    "compat_answer",
    "compat_data",
    "compat_text",
    "compute_capability_requirement",
    "cuda_download_url",
    "cuda_release_version",
    "cudnn_download_url",
    "cudnn_supports_cuda",
    "driver_cuda_version",
    "driver_download_url",
    "gpu_spec",
    "install_command",
    "install_notes",
    "known_tf_versions",
    "last_windows_gpu_tf",
    "max_cuda_for_driver",
    "min_compute_capability",
    "min_driver",
    "nearest_known_tf",
    "nvidia_driver_from_wddm",
    "parse_cuda_query",
    "parse_tf_query",
    "parse_version",
    "peak_fp16_tensor_tflops",
    "peak_fp32_tflops",
    "public_text",
    "python_supported",
    "recommended_tf",
    "series",
    "try_parse_version",
    "tf_requirement",
    "tf_versions_for_cuda",
    "version_at_least",
]
