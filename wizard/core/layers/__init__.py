"""One module per layer of the chain. Each exposes ``check(ctx) -> LayerResult`` and gathers its
facts only through ``ctx.host``. Layers run bottom up and may read lower layers' results from
``ctx.results`` (the driver layer needs the GPU list, cuDNN needs the CUDA installs, ...)."""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from wizard.core.host import Host
from wizard.core.model import LayerResult, Target

LAYER_MODULES: dict[str, str] = {
    "gpu": "wizard.core.layers.gpu",
    "driver": "wizard.core.layers.driver",
    "cuda": "wizard.core.layers.cuda",
    "cudnn": "wizard.core.layers.cudnn",
    "tensorflow": "wizard.core.layers.tensorflow",
}


def _no_progress(fraction: float, text: str) -> None:
    return None


def _never_cancelled() -> bool:
    return False


@dataclass
class CheckContext:
    """Everything a layer may use: the machine, the target, and the layers below it."""

    host: Host
    target: Target
    python: Optional[str] = None
    """The chosen Python environment's executable (None when there is none)."""
    probe: Optional[dict[str, Any]] = None
    """The environment probe's output for ``python`` (DESIGN section 4)."""
    results: dict[str, LayerResult] = field(default_factory=dict)
    progress: Callable[[float, str], None] = _no_progress
    cancelled: Callable[[], bool] = _never_cancelled
    cache: dict[str, Any] = field(default_factory=dict)
    """Facts gathered once and shared between layers (e.g. the NVML answer)."""

    def facts(self, layer: str) -> dict[str, Any]:
        result = self.results.get(layer)
        return result.facts if result else {}

    def nvml(self) -> dict[str, Any]:
        if "nvml" not in self.cache:
            self.cache["nvml"] = self.host.nvml()
        return self.cache["nvml"]


def layer_checker(name: str) -> Callable[[CheckContext], LayerResult]:
    module = importlib.import_module(LAYER_MODULES[name])
    return module.check
