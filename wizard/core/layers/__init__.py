"""One module per layer of the chain. Each exposes ``check(ctx) -> LayerResult`` and gathers its
facts only through ``ctx.host``. Layers run bottom up and may read lower layers' results from
``ctx.results`` (the driver layer needs the GPU list, cuDNN needs the CUDA installs, ...).

Besides the chain (:data:`LAYER_MODULES`, in the order of ``model.LAYERS``) there are optional
layers (:data:`OPTIONAL_LAYERS`): each also exposes ``applies(ctx) -> bool`` and runs after the
chain only where it applies (the ``pytorch`` layer, where the chosen environment has PyTorch);
a report lists them after the chain.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Optional

from wizard.core.host import Host, ProbeResult
from wizard.core.model import LayerResult, Target

if TYPE_CHECKING:
    from wizard.core.cuda_installs import CudaDiscovery
    from wizard.core.cudnn_installs import CudnnDiscovery
    from wizard.core.layers.gpu import Inventory

LAYER_MODULES: dict[str, str] = {
    "gpu": "wizard.core.layers.gpu",
    "driver": "wizard.core.layers.driver",
    "cuda": "wizard.core.layers.cuda",
    "cudnn": "wizard.core.layers.cudnn",
    "tensorflow": "wizard.core.layers.tensorflow",
}

OPTIONAL_LAYERS: dict[str, str] = {
    "pytorch": "wizard.core.layers.pytorch",
}
"""Layers outside the chain, run after it (in this order) where their ``applies(ctx)`` holds."""


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
    probe: Optional[ProbeResult] = None
    """The environment probe's output for ``python`` (DESIGN section 4)."""
    results: dict[str, LayerResult] = field(default_factory=dict)
    progress: Callable[[float, str], None] = _no_progress
    cancelled: Callable[[], bool] = _never_cancelled

    # Facts gathered once and shared between layers (None until the first layer asks).
    nvml_answer: Optional[dict[str, Any]] = None
    """The host's NVML answer (:meth:`nvml`)."""
    gpu_inventory: Optional[Inventory] = None
    """The GPU layer's inventory (``layers.gpu.inventory``), shared with the driver layer."""
    cuda_discovery: Optional[CudaDiscovery] = None
    """The CUDA installs and loader order (``layers.cuda.discovery``), shared with cuDNN."""
    cudnn_discovery: Optional[CudnnDiscovery] = None
    """The cuDNN installs (``layers.cudnn.discovery``)."""
    reconciled: Optional[LayerResult] = None
    """The TensorFlow result the probe's log was last reconciled with (see
    :func:`wizard.core.layers.tensorflow.reconcile`): one pass per result."""
    pristine: dict[str, tuple[LayerResult, LayerResult]] = field(default_factory=dict)
    """Per lower layer: (its live result, a copy as its check returned it). The reconcile pass
    files the probe's log findings in the live result and ``diagnose.settle`` judges it against
    the probe; a new probe (the GUI's "check again") starts again from the copy."""

    def __post_init__(self) -> None:
        self.probe = ProbeResult.of(self.probe)  # a recorded dict becomes the typed result

    def facts(self, layer: str) -> dict[str, Any]:
        result = self.results.get(layer)
        return result.facts if result else {}

    def nvml(self) -> dict[str, Any]:
        if self.nvml_answer is None:
            self.nvml_answer = self.host.nvml()
        return self.nvml_answer


def env_pip(ctx: CheckContext, pip_line: str) -> str:
    """``pip install ...`` rewritten to run in the chosen environment: ``conda run -p <prefix>
    python -m pip ...`` for a conda env, else ``"<python>" -m pip ...``. A bare ``pip`` may
    belong to another Python (the first on PATH), so a command never says just ``pip``."""
    rest = re.sub(r"^\s*pip3?\s+", "", pip_line)
    python = ctx.python
    info = ctx.probe.python if ctx.probe else {}
    if not python:
        return f"python -m pip {rest}"
    if info.get("conda") and info.get("prefix"):
        return f'conda run -p "{info["prefix"]}" python -m pip {rest}'
    return f'"{python}" -m pip {rest}'


def env_conda_install(ctx: CheckContext, args: str) -> str:
    """``conda install -p <prefix> ...``: a conda install into the chosen environment (not
    whichever one is active in the user's terminal)."""
    info = ctx.probe.python if ctx.probe else {}
    prefix = info.get("prefix") if info.get("conda") else None
    return f'conda install -p "{prefix}" {args}' if prefix else f"conda install {args}"


def _module(name: str) -> Any:
    return importlib.import_module(LAYER_MODULES.get(name) or OPTIONAL_LAYERS[name])


def layer_checker(name: str) -> Callable[[CheckContext], LayerResult]:
    """The layer's ``check``, its failures given the fix they lead to or the reason there is
    none (:mod:`wizard.core.layers.wiring`)."""
    check = _module(name).check

    def checked(ctx: CheckContext) -> LayerResult:
        from wizard.core.layers import wiring

        return wiring.wire_result(ctx, check(ctx))

    return checked


def optional_layers(ctx: CheckContext) -> list[str]:
    """The optional layers that apply to this check, in report order."""
    return [name for name in OPTIONAL_LAYERS if _module(name).applies(ctx)]
