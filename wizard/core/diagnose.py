"""The chain: pick the environment and the target, run every layer bottom up, build the Report.

Every layer is checked even when a lower one fails; a layer that raises (a bug, or a machine no
rule foresaw) becomes ``fail`` with a ``check_failed`` finding naming the exception and where it
was raised, rather than ending the check, and a report with such a layer is never ready.
"""

from __future__ import annotations

import copy
import logging
import os
import sysconfig
import time
import traceback
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Optional, Union

from wizard.core import envs, knowledge
from wizard.core.host import Host
from wizard.core.layers import CheckContext, layer_checker, optional_layers
from wizard.core.layers import tensorflow as tensorflow_layer
from wizard.core.messages import Message, msg
from wizard.core.model import (
    FAIL,
    LAYERS,
    WARN,
    Finding,
    LayerResult,
    Report,
    Target,
)

log = logging.getLogger(__name__)


class CheckCancelled(Exception):
    """Raised between layers when the caller's ``cancelled()`` turns true."""


@dataclass
class CheckOptions:
    python: Optional[str] = None
    """The interpreter to check (``--python``); else the best discovered environment."""
    tensorflow: Optional[str] = None
    """The TF version to aim for (``--tf``); else the installed one, else the recommended one."""
    probe_timeout: float = 180.0
    layers: tuple[str, ...] = LAYERS
    timings: dict[str, float] = field(default_factory=dict)
    """Filled with seconds per step, for benchmarks."""


def run_check(
    host: Host,
    options: Optional[CheckOptions] = None,
    progress: Callable[[float, str], None] = lambda fraction, text: None,
    cancelled: Callable[[], bool] = lambda: False,
) -> Report:
    """Diagnose the whole chain on ``host``."""
    options = options or CheckOptions()
    started = time.perf_counter()
    progress(0.0, "environment")
    python, probe, env_reason = choose_environment(host, options)
    options.timings["environment"] = time.perf_counter() - started
    if cancelled():
        raise CheckCancelled()
    target = choose_target(host, options, probe, python, env_reason)
    ctx = CheckContext(
        host=host, target=target, python=python, probe=probe, progress=progress, cancelled=cancelled
    )
    for index, name in enumerate(options.layers):
        if cancelled():
            raise CheckCancelled()
        progress((index + 1) / (len(options.layers) + 1), name)
        ctx.results[name] = run_layer(name, ctx, options.timings)
    # the optional layers (PyTorch) read the environment the TF layer checked
    extra = optional_layers(ctx) if "tensorflow" in options.layers else []
    for name in extra:
        if cancelled():
            raise CheckCancelled()
        ctx.results[name] = run_layer(name, ctx, options.timings)
    reconcile(ctx)
    progress(1.0, "done")
    layers = [ctx.results[name] for name in options.layers]
    return Report(
        platform=host.platform.to_dict(),
        target=target,
        layers=layers + [ctx.results[name] for name in extra],
        ready=is_ready(ctx),
        python=python,
    )


def reconcile(ctx: CheckContext) -> None:
    """The one reconcile pass after the chain: the probe's log filed in the layers its causes
    belong to (:func:`wizard.core.layers.tensorflow.reconcile`). Reading a log never ends the
    check: a failure here is logged, and the layers keep their own findings."""
    if "tensorflow" not in ctx.results:
        return
    keep_pristine(ctx)
    try:
        tensorflow_layer.reconcile(ctx)
    except Exception:
        log.exception("reconciling the probe's log with the layers failed")
    settle(ctx)


def keep_pristine(ctx: CheckContext) -> None:
    """Copy each lower layer's result before the probe's log and verdict change it (once per
    result object), so that another probe can be judged against what the layers found."""
    for name in LAYERS[:-1]:
        live = ctx.results.get(name)
        if live is not None and (name not in ctx.pristine or ctx.pristine[name][0] is not live):
            ctx.pristine[name] = (live, copy.deepcopy(live))


def pristine_results(ctx: CheckContext) -> dict[str, LayerResult]:
    """The lower layers' results as their checks returned them (fresh copies)."""
    found = {}
    for name in LAYERS[:-1]:
        live = ctx.results.get(name)
        if live is None:
            continue
        kept = ctx.pristine.get(name)
        found[name] = copy.deepcopy(kept[1]) if kept and kept[0] is live else live
    return found


def settle(ctx: CheckContext) -> None:
    """Make the report agree with itself: ready <=> no layer of the chain fails; not ready =>
    the blocking layer has a ``fail`` finding that says why.

    1. Proof from above beats inference from below: a matmul TF ran on the GPU proves the
       driver and the CUDA runtime load, a convolution cuDNN; what the layers below concluded
       from file listings can then at most warn (:func:`downgrade_proven`).
    2. Root cause first: a wrong TF package where CUDA comes from its wheels; the cuda and cudnn
       layers defer to its fix (``tensorflow.defer_to_package``).
    3. Not ready and nothing fails: the TF layer says why (``tensorflow.explain_not_ready``).
    A layer whose check raised is left as it is: it fails, and such a report is never ready."""
    chain = [ctx.results[name] for name in LAYERS if name in ctx.results]
    if "tensorflow" not in ctx.results or any(unchecked(result) for result in chain):
        return
    downgrade_proven(ctx)
    tensorflow_layer.defer_to_package(ctx)
    if not is_ready(ctx) and not any(result.status == FAIL for result in chain):
        tensorflow_layer.explain_not_ready(ctx)


def gpu_proof(ctx: CheckContext) -> tuple[tuple[str, ...], Optional[Message]]:
    """The layers the probe's computations prove to work, and the proof in words."""
    tf = ctx.probe.tensorflow if ctx.probe is not None else None
    if not tf or not tf.get("gpus") or not ran_on_gpu(tf.get("matmul")):
        return (), None
    device = str(tf["matmul"].get("device") or "GPU").rsplit("device:", 1)[-1]
    if not ran_on_gpu(tf.get("conv")):
        return ("gpu", "driver", "cuda"), msg("diagnose.phrase.proof.matmul", device=device)
    return LAYERS, msg("diagnose.phrase.proof.conv", device=device)


def downgrade_proven(ctx: CheckContext) -> None:
    """Every ``fail`` of a layer the probe proved to work becomes a warning that says so."""
    proven, proof = gpu_proof(ctx)
    for name in proven:
        result = ctx.results.get(name)
        if result is None or result.status != FAIL:
            continue
        result.findings = [_proven(f, proof) if f.severity == "fail" else f
                           for f in result.findings]
        result.status = WARN


def _proven(finding: Finding, proof: Optional[Message]) -> Finding:
    evidence = msg("diagnose.evidence.proved", evidence=finding.evidence, proof=proof)
    return replace(finding, severity="warn", evidence=evidence)


def run_layer(
    name: str, ctx: CheckContext, timings: Optional[dict[str, float]] = None
) -> LayerResult:
    """Run one layer; an exception in it becomes an ``unknown`` result with its error."""
    started = time.perf_counter()
    try:
        result = layer_checker(name)(ctx)
    except CheckCancelled:
        raise
    except Exception as exc:  # a bug or an unexpected machine: report it, keep going
        log.exception("layer %s failed", name)
        result = check_failed_result(name, exc)
    if timings is not None:
        timings[name] = time.perf_counter() - started
    return result


def check_failed_result(layer: str, exc: BaseException) -> LayerResult:
    """The result of a layer that raised: ``fail``, so it blocks any "ready" verdict, with the
    exception and the place it was raised (the bug to report) in its finding."""
    error = f"{type(exc).__name__}: {exc}"
    where = raised_at(exc)
    return LayerResult(
        layer=layer,
        status=FAIL,
        summary=msg("diagnose.summary.check_failed", exception=error, where=where),
        findings=[
            Finding(
                "check_failed",
                severity="fail",
                params={"error": msg("diagnose.phrase.raised_at", exception=error, where=where),
                        "layer": layer},
                evidence="".join(traceback.format_exception_only(type(exc), exc)).strip(),
            )
        ],
    )


def raised_at(exc: BaseException) -> Union[str, Message]:
    """``wizard/core/layers/driver.py:60``: the innermost frame outside the standard library and
    installed packages (where the bug is, rather than the library call it made)."""
    frames = traceback.extract_tb(exc.__traceback__)
    library = (sysconfig.get_paths()["stdlib"], "site-packages", "dist-packages")
    ours = [f for f in frames if not any(part in f.filename for part in library)] or frames
    if not ours:
        return msg("diagnose.phrase.unknown_place")
    frame = ours[-1]
    parts = frame.filename.replace(os.sep, "/").split("/")
    start = len(parts) - 1 - parts[::-1].index("wizard") if "wizard" in parts else len(parts) - 2
    return f"{'/'.join(parts[max(start, 0):])}:{frame.lineno}"


def choose_environment(
    host: Host,
    options: CheckOptions,
    cancelled: Optional[Callable[[], bool]] = None,
    probes: Optional[envs.ProbeCache] = None,
) -> tuple[Optional[str], Optional[dict[str, Any]], Message]:
    """The Python environment to check, its probe output, and why it was chosen.
    ``cancelled`` lets a caller (the GUI closing) stop running probes; ``probes`` collects
    the probes run (the GUI's environment list shows them)."""
    return envs.choose_environment(
        host, options.python, timeout=options.probe_timeout, cancelled=cancelled, probes=probes
    )


def choose_target(
    host: Host,
    options: CheckOptions,
    probe: Optional[dict[str, Any]],
    python: Optional[str],
    env_reason: Message,
) -> Target:
    installed = envs.tf_version(probe)
    return knowledge.choose_target(
        host.platform.os_kind,
        requested=options.tensorflow,
        installed=installed,
        installed_where=python,
    )


def is_ready(ctx: CheckContext) -> bool:
    """Ready: every layer of the chain was checked (none raised), and TF in the chosen
    environment lists the GPU and ran the matmul and the convolution on it."""
    if any(unchecked(result) for result in ctx.results.values()):
        return False
    if any(ctx.results[name].status == FAIL for name in LAYERS if name in ctx.results):
        return False  # a failing layer blocks (settle() leaves none where TF proved it works)
    tf = ctx.probe.tensorflow if ctx.probe is not None else None
    if tf is None or not tf.get("gpus"):
        return False
    return all(ran_on_gpu(tf.get(step)) for step in ("matmul", "conv"))


def unchecked(result: LayerResult) -> bool:
    """True for a layer whose check raised (its verdict is not known)."""
    return any(finding.code == "check_failed" for finding in result.findings)


def ran_on_gpu(run: Any) -> bool:
    """A probe's ``matmul``/``conv`` entry that ran, and ran on a GPU."""
    return isinstance(run, dict) and bool(run.get("ok")) and "GPU" in str(run.get("device") or "")
