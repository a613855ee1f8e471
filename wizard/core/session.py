"""The state of one wizard run, without Qt: the machine, the options, the chosen environment,
the target and the per-layer results.

The GUI asks a :class:`CheckSession` for one layer at a time (each page runs its layer on a
worker thread), while the CLI runs the whole chain at once with ``diagnose.run_check``. Both go
through the same functions (``choose_environment``, ``choose_target``, ``run_layer``), so a page
shows exactly what ``gpu-wizard check`` prints for the same machine and options.

A session is used from worker threads: every public method that reads the machine takes the
session's lock, so two workers never run layers at the same time. Results are stored only when a
layer finished; a cancelled run leaves the session as it was.
"""

from __future__ import annotations

import threading
from typing import Any, Callable, Optional

from wizard.core.diagnose import (
    CheckCancelled,
    CheckOptions,
    choose_environment,
    choose_target,
    is_ready,
    run_layer,
)
from wizard.core.host import Host
from wizard.core.layers import CheckContext
from wizard.core.model import LAYERS, LayerResult, Report, Target

Progress = Callable[[float, str], None]
Cancelled = Callable[[], bool]


def _no_progress(fraction: float, text: str) -> None:
    return None


def _never() -> bool:
    return False


class CheckSession:
    """One machine, one set of options, results computed lazily layer by layer."""

    def __init__(self, host: Host, options: Optional[CheckOptions] = None) -> None:
        self.host = host
        self.options = options or CheckOptions()
        self._lock = threading.RLock()
        self._environments: Optional[list[dict[str, Any]]] = None
        self._ctx: Optional[CheckContext] = None
        self.env_reason: str = ""

    # -- what the pages read ----------------------------------------------------------------
    @property
    def os_kind(self) -> str:
        return self.host.platform.os_kind

    @property
    def demo_name(self) -> Optional[str]:
        """The profile's name when replaying a machine profile, else None."""
        name = getattr(self.host, "name", None)
        return str(name) if name and hasattr(self.host, "profile") else None

    @property
    def prepared(self) -> bool:
        return self._ctx is not None

    @property
    def target(self) -> Optional[Target]:
        return self._ctx.target if self._ctx else None

    @property
    def python(self) -> Optional[str]:
        return self._ctx.python if self._ctx else None

    @property
    def probe(self) -> Optional[dict[str, Any]]:
        return self._ctx.probe if self._ctx else None

    def result(self, layer: str) -> Optional[LayerResult]:
        return self._ctx.results.get(layer) if self._ctx else None

    def results(self) -> dict[str, LayerResult]:
        return dict(self._ctx.results) if self._ctx else {}

    @property
    def environments(self) -> Optional[list[dict[str, Any]]]:
        """The environments found by :meth:`discover_environments` (None before)."""
        return self._environments

    # -- choices that change what "right" means -----------------------------------------------
    def set_target_version(self, tensorflow: Optional[str]) -> None:
        """The TF version to aim for (None: the installed one, else the recommended one)."""
        with self._lock:
            if tensorflow != self.options.tensorflow:
                self.options.tensorflow = tensorflow
                self._ctx = None

    def select_python(self, executable: Optional[str]) -> None:
        """Check this environment from now on. The target may follow the TF installed there, so
        every result is dropped; the next :meth:`run_layer` re-runs the chain below it."""
        with self._lock:
            if executable != self.options.python:
                self.options.python = executable
                self._ctx = None

    def invalidate(self, layer: str) -> None:
        """Forget ``layer``'s result and those above it (they may read it)."""
        with self._lock:
            if self._ctx is None:
                return
            for name in LAYERS[LAYERS.index(layer) :]:
                self._ctx.results.pop(name, None)
            if layer == "tensorflow":
                self._ctx.cache.pop("extra_layers", None)

    def reprobe(self) -> None:
        """Drop the environment choice and its probe (after the user changed an environment),
        keeping the lower layers' results if the target stays the same."""
        with self._lock:
            self._environments = None
            if self._ctx is None:
                return
            old = self._ctx
            self._ctx = None
            self._prepare_locked(_no_progress, _never)
            assert self._ctx is not None
            if self._ctx.target == old.target:
                for name in LAYERS[:-1]:
                    if name in old.results:
                        self._ctx.results[name] = old.results[name]
            # the tensorflow layer is always re-run after a re-probe

    # -- work (run these on a worker thread) ---------------------------------------------------
    def discover_environments(
        self, progress: Progress = _no_progress, cancelled: Cancelled = _never
    ) -> list[dict[str, Any]]:
        """The Python environments on the machine: ``{"executable", "probe", ...}`` dicts, the
        probe being None where it was not run yet (on a real machine)."""
        with self._lock:
            if self._environments is None:
                progress(0.0, "environments")
                found = self.host.pythons()
                if cancelled():
                    raise CheckCancelled()
                self._environments = found
            return [dict(entry) for entry in self._environments]

    def prepare(self, progress: Progress = _no_progress, cancelled: Cancelled = _never) -> None:
        """Choose the environment (probing it) and the target, as ``run_check`` does."""
        with self._lock:
            self._prepare_locked(progress, cancelled)

    def _prepare_locked(self, progress: Progress, cancelled: Cancelled) -> None:
        if self._ctx is not None:
            return
        progress(0.0, "environment")
        python, probe, reason = choose_environment(self.host, self.options)
        if cancelled():
            raise CheckCancelled()
        target = choose_target(self.host, self.options, probe, python, reason)
        self.env_reason = reason
        self._ctx = CheckContext(host=self.host, target=target, python=python, probe=probe)

    def run_layer(
        self, layer: str, progress: Progress = _no_progress, cancelled: Cancelled = _never
    ) -> LayerResult:
        """The result of ``layer``, running it (and any lower layer without a result) if needed."""
        with self._lock:
            self._prepare_locked(progress, cancelled)
            ctx = self._ctx
            assert ctx is not None
            needed = [n for n in LAYERS[: LAYERS.index(layer) + 1] if n not in ctx.results]
            for index, name in enumerate(needed):
                if cancelled():
                    raise CheckCancelled()
                progress((index + 0.5) / len(needed), name)
                ctx.progress, ctx.cancelled = progress, cancelled
                try:
                    result = run_layer(name, ctx, self.options.timings)
                finally:
                    ctx.progress, ctx.cancelled = _no_progress, _never
                ctx.results[name] = result
            progress(1.0, "done")
            return ctx.results[layer]

    def recheck(
        self, layer: str, progress: Progress = _no_progress, cancelled: Cancelled = _never
    ) -> LayerResult:
        """"Check again": forget ``layer`` (and the probe, for the TF layer) and run it."""
        with self._lock:
            if layer == "tensorflow":
                self.reprobe()
            self.invalidate(layer)
            return self.run_layer(layer, progress, cancelled)

    def run_all(self, progress: Progress = _no_progress, cancelled: Cancelled = _never) -> Report:
        """Every layer that has no result yet, then the report."""
        with self._lock:
            self.run_layer(LAYERS[-1], progress, cancelled)
            return self.report()

    def report(self) -> Report:
        """The report of the layers checked so far (all five after :meth:`run_all`)."""
        with self._lock:
            ctx = self._ctx
            if ctx is None:
                raise RuntimeError("report() before any layer was checked")
            layers = [ctx.results[n] for n in LAYERS if n in ctx.results]
            extra = ctx.cache.get("extra_layers", []) if "tensorflow" in ctx.results else []
            return Report(
                platform=self.host.platform.to_dict(),
                target=ctx.target,
                layers=layers + list(extra),
                ready=is_ready(ctx) if "tensorflow" in ctx.results else False,
                python=ctx.python,
            )
