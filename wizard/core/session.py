"""The state of one wizard run, without Qt: the machine, the options, the chosen environment,
the target and the per-layer results.

The GUI asks a :class:`CheckSession` for one layer at a time (each page runs its layer on a
worker thread), while the CLI runs the whole chain at once with ``diagnose.run_check``. Both go
through the same functions (``choose_environment``, ``choose_target``, ``run_layer``), so a page
shows exactly what ``gpu-wizard check`` prints for the same machine and options.

A session is used from worker threads: every method that reads the machine takes the session's
lock, so two workers never run layers at the same time. The GUI thread never waits for that lock:
its choices (target, environment) are plain attribute writes that the next run picks up, and
results it reads for the current choices are dictionary look-ups. Results are stored only when a
layer finished; a cancelled run leaves the session as it was.

The environment choice (which probes Python environments: seconds on a real machine) is kept
apart from the target, so :meth:`prefetch_environment` can run while the user reads the first
page, and changing the target does not probe again.
"""

from __future__ import annotations

import threading
from typing import Any, Callable, Optional

from wizard.core import envs
from wizard.core.diagnose import (
    CheckCancelled,
    CheckOptions,
    choose_environment,
    choose_target,
    is_ready,
    pristine_results,
    reconcile,
    run_layer,
)
from wizard.core.host import Host
from wizard.core.layers import OPTIONAL_LAYERS, CheckContext, optional_layers
from wizard.core.messages import Message
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
        self._env: Optional[tuple[Optional[str], Optional[dict[str, Any]], Message]] = None
        self._env_for: Optional[str] = None
        """``options.python`` when ``_env`` was chosen."""
        self._ctx: Optional[CheckContext] = None
        self._ctx_for: tuple[Optional[str], Optional[str]] = (None, None)
        """``(options.tensorflow, options.python)`` when ``_ctx`` was made."""
        self.env_reason: Optional[Message] = None
        self.probes: envs.ProbeCache = {}
        """Probes run in this session, by executable (the environment list shows them)."""

    # -- what the pages read (GUI thread; never blocks) ---------------------------------------
    @property
    def os_kind(self) -> str:
        return self.host.platform.os_kind

    @property
    def demo_name(self) -> Optional[str]:
        """The profile's name when replaying a machine profile, else None."""
        return self.host.profile_name

    def _current(self) -> Optional[CheckContext]:
        """The context, if it was made for the current choices."""
        ctx = self._ctx
        if ctx is None or self._ctx_for != (self.options.tensorflow, self.options.python):
            return None
        return ctx

    @property
    def prepared(self) -> bool:
        return self._current() is not None

    @property
    def target(self) -> Optional[Target]:
        ctx = self._current()
        return ctx.target if ctx else None

    @property
    def python(self) -> Optional[str]:
        ctx = self._current()
        return ctx.python if ctx else None

    @property
    def probe(self) -> Optional[dict[str, Any]]:
        ctx = self._current()
        return ctx.probe if ctx else None

    def result(self, layer: str) -> Optional[LayerResult]:
        ctx = self._current()
        return ctx.results.get(layer) if ctx else None

    def results(self) -> dict[str, LayerResult]:
        ctx = self._current()
        return dict(ctx.results) if ctx else {}

    @property
    def environments(self) -> Optional[list[dict[str, Any]]]:
        """The environments found by :meth:`discover_environments` (None before)."""
        return self._environments

    # -- choices (GUI thread; picked up by the next run) --------------------------------------
    def set_target_version(self, tensorflow: Optional[str]) -> None:
        """The TF version to aim for (None: the installed one, else the recommended one).
        Results for another target are no longer current; the environment is kept."""
        self.options.tensorflow = tensorflow

    def select_python(self, executable: Optional[str]) -> None:
        """Check this environment from now on. The target may follow the TF installed there, so
        no result stays current; the next :meth:`run_layer` re-runs the chain below it."""
        self.options.python = executable

    # -- work (run these on a worker thread) -------------------------------------------------
    def invalidate(self, layer: str) -> None:
        """Forget ``layer``'s result and those above it (they may read it)."""
        with self._lock:
            ctx = self._current()
            if ctx is None:
                return
            for name in (*LAYERS[LAYERS.index(layer) :], *OPTIONAL_LAYERS):
                ctx.results.pop(name, None)

    def reprobe(self, progress: Progress = _no_progress, cancelled: Cancelled = _never) -> None:
        """Choose and probe the environment afresh (the user changed one), keeping the lower
        layers' results if the target stays the same; the TF layer is always re-run."""
        with self._lock:
            old = self._current()
            saved = (self._environments, self._env, self._env_for, self._ctx, self._ctx_for)
            self._environments = None
            self._env = None
            self._ctx = None
            try:
                self._prepare_locked(progress, cancelled)
            except CheckCancelled:  # a Stop keeps what the session knew before
                (self._environments, self._env, self._env_for, self._ctx,
                 self._ctx_for) = saved
                raise
            assert self._ctx is not None
            if old is not None and self._ctx.target == old.target:
                # as the layers found them, not as the old probe's log and verdict left them
                self._ctx.results.update(pristine_results(old))

    def discover_environments(
        self, progress: Progress = _no_progress, cancelled: Cancelled = _never
    ) -> list[dict[str, Any]]:
        """The Python environments on the machine: ``{"executable", "probe", ...}`` dicts, the
        probe being None where it was not run (on a real machine only the likely ones are)."""
        with self._lock:
            if self._environments is None:
                progress(0.0, "environments")
                found = envs.listing(self.host, probes=self.probes)
                if cancelled():
                    raise CheckCancelled()
                self._environments = found
            return [dict(entry) for entry in self._environments]

    def prefetch_environment(
        self, progress: Progress = _no_progress, cancelled: Cancelled = _never
    ) -> None:
        """Choose and probe the environment now (while the user reads the first page)."""
        with self._lock:
            self._environment_locked(progress, cancelled)

    def _environment_locked(
        self, progress: Progress, cancelled: Cancelled
    ) -> tuple[Optional[str], Optional[dict[str, Any]], Message]:
        wanted = self.options.python
        if self._env is None or self._env_for != wanted:
            progress(0.0, "environment")
            env = choose_environment(self.host, self.options, cancelled=cancelled,
                                     probes=self.probes)
            if cancelled():  # a probe stopped half-way is not an answer
                raise CheckCancelled()
            self._env, self._env_for = env, wanted
        return self._env

    def prepare(self, progress: Progress = _no_progress, cancelled: Cancelled = _never) -> None:
        """Choose the environment (probing it) and the target, as ``run_check`` does."""
        with self._lock:
            self._prepare_locked(progress, cancelled)

    def _prepare_locked(self, progress: Progress, cancelled: Cancelled) -> CheckContext:
        current = self._current()
        if current is not None:
            return current
        wanted = (self.options.tensorflow, self.options.python)
        python, probe, reason = self._environment_locked(progress, cancelled)
        target = choose_target(self.host, self.options, probe, python, reason)
        self.env_reason = reason
        self._ctx = CheckContext(host=self.host, target=target, python=python, probe=probe)
        self._ctx_for = wanted
        return self._ctx

    def run_layer(
        self, layer: str, progress: Progress = _no_progress, cancelled: Cancelled = _never
    ) -> LayerResult:
        """The result of ``layer``, running it (and any lower layer without a result) if needed.
        Once the chain's last layer has a result, the optional layers that apply run too."""
        with self._lock:
            ctx = self._prepare_locked(progress, cancelled)
            chain = LAYERS[: LAYERS.index(layer) + 1] if layer in LAYERS else LAYERS
            needed = [n for n in chain if n not in ctx.results]
            if LAYERS[-1] in needed or (LAYERS[-1] in ctx.results and layer not in LAYERS):
                needed += [n for n in optional_layers(ctx) if n not in ctx.results]
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
                if name == "tensorflow":  # the log reconciled with the layers, as in run_check
                    reconcile(ctx)
            progress(1.0, "done")
            return ctx.results[layer]

    def recheck(
        self, layer: str, progress: Progress = _no_progress, cancelled: Cancelled = _never
    ) -> LayerResult:
        """"Check again": forget ``layer`` (and the probe, for the TF layer) and run it."""
        with self._lock:
            if layer == "tensorflow":
                self.reprobe(progress, cancelled)
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
            ctx = self._current()
            if ctx is None:
                raise RuntimeError("report() before any layer was checked")
            layers = [ctx.results[n] for n in LAYERS if n in ctx.results]
            if LAYERS[-1] in ctx.results:
                layers += [ctx.results[n] for n in OPTIONAL_LAYERS if n in ctx.results]
            return Report(
                platform=self.host.platform.to_dict(),
                target=ctx.target,
                layers=layers,
                ready=is_ready(ctx) if "tensorflow" in ctx.results else False,
                python=ctx.python,
            )
