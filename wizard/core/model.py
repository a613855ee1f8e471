"""The value objects the engine hands around: findings, layer results, the target, the report.

They serialise to the report contract of DESIGN section 5. Core never builds translated
sentences: a finding carries its ``code`` and ``params``; the English text for the CLI and
reports is rendered from :mod:`wizard.core.codes`, the GUI renders its own ``tr()`` text.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

LAYERS: tuple[str, ...] = ("gpu", "driver", "cuda", "cudnn", "tensorflow")
"""The chain, bottom up. A ``pytorch`` entry may follow in a report."""

# Layer statuses (DESIGN section 5).
OK = "ok"
WARN = "warn"
FAIL = "fail"
UNKNOWN = "unknown"
NOT_APPLICABLE = "n/a"
STATUSES = (OK, WARN, FAIL, UNKNOWN, NOT_APPLICABLE)

# Finding severities. "info" findings explain without changing the layer's status.
SEVERITIES = ("fail", "warn", "info")
_SEVERITY_RANK = {"info": 0, "warn": 1, "fail": 2}


@dataclass(frozen=True)
class Step:
    """One step of a fix: a key into the step texts of :mod:`wizard.core.codes`, and its values.

    ``command`` steps carry a shell line the user can copy; ``text`` is the rendered English.
    """

    key: str
    params: dict[str, Any] = field(default_factory=dict)

    def text(self) -> str:
        from wizard.core.codes import render_step

        return render_step(self.key, self.params)


@dataclass(frozen=True)
class Link:
    title: str
    url: str


@dataclass(frozen=True)
class Fix:
    steps: tuple[Step, ...] = ()
    links: tuple[Link, ...] = ()
    commands: tuple[str, ...] = ()
    """Shell lines the user can copy or the wizard can run, in order."""
    action: Optional[str] = None
    """Name of an automatic fix the wizard offers (``install_cudnn``, ``set_env``, ...)."""
    action_params: dict[str, Any] = field(default_factory=dict)

    def own_steps(self) -> tuple[Step, ...]:
        """The steps without those that only say "Run: <one of the commands>": a view that
        shows the commands on their own (ready to copy) need not list them twice."""
        listed = set(self.commands)
        return tuple(
            step for step in self.steps
            if not (step.key == "run" and step.params.get("command") in listed)
        )


@dataclass(frozen=True)
class Finding:
    code: str
    severity: str = "fail"
    params: dict[str, Any] = field(default_factory=dict)
    """Values the message and fix texts are built from (versions, paths, file names)."""
    evidence: Optional[str] = None
    """What was seen: a log line, a file path, a command's output."""
    fix: Fix = field(default_factory=Fix)

    @property
    def layer(self) -> str:
        from wizard.core.codes import layer_of

        return layer_of(self.code)

    def message(self) -> str:
        from wizard.core.codes import render_message

        return render_message(self.code, self.params)

    def fix_summary(self) -> str:
        from wizard.core.codes import render_fix_summary

        return render_fix_summary(self.code, self.params)

    def to_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "severity": self.severity,
            "message": self.message(),
            "evidence": self.evidence,
            "fix": {
                "summary": self.fix_summary(),
                "steps": [step.text() for step in self.fix.steps],
                "links": [{"title": link.title, "url": link.url} for link in self.fix.links],
                "action": self.fix.action,
                "commands": list(self.fix.commands),
            },
            "params": _jsonable(self.params),
        }


@dataclass
class LayerResult:
    layer: str
    status: str
    summary: str
    """Short English one-liner for the CLI, e.g. "NVIDIA GeForce RTX 3070 Ti Laptop GPU, 8.6"."""
    facts: dict[str, Any] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "layer": self.layer,
            "status": self.status,
            "summary": self.summary,
            "facts": _jsonable(self.facts),
            "findings": [finding.to_dict() for finding in sorted_findings(self.findings)],
        }


def worst_status(findings: list[Finding], default: str = OK) -> str:
    """The status a layer gets from its findings: fail > warn > the default."""
    rank = max((_SEVERITY_RANK.get(f.severity, 0) for f in findings), default=0)
    if rank == 2:
        return FAIL
    if rank == 1:
        return WARN if default in (OK, NOT_APPLICABLE) else default
    return default


def sorted_findings(findings: list[Finding]) -> list[Finding]:
    """Most severe first; stable otherwise (the order a layer found them in)."""
    return sorted(findings, key=lambda f: -_SEVERITY_RANK.get(f.severity, 0))


@dataclass(frozen=True)
class Target:
    """What "right" means for this check (DESIGN section 1)."""

    tensorflow: str
    cuda: Optional[str]
    cudnn: Optional[str]
    python: Optional[str]
    reason: str
    os: str
    """``windows``, ``linux`` or ``wsl2``: the platform the target was chosen for."""
    pip_cuda: bool = False
    """True when the CUDA libraries come from pip wheels (``tensorflow[and-cuda]``), so no system
    CUDA Toolkit or cuDNN is needed."""
    gpu_supported: bool = True
    """False for TF >= 2.11 on native Windows: there is no GPU build at all."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "tensorflow": self.tensorflow,
            "cuda": self.cuda,
            "cudnn": self.cudnn,
            "python": self.python,
            "reason": self.reason,
            "os": self.os,
            "pip_cuda": self.pip_cuda,
            "gpu_supported": self.gpu_supported,
        }


@dataclass
class Report:
    platform: dict[str, Any]
    target: Target
    layers: list[LayerResult]
    ready: bool
    python: Optional[str] = None
    """The Python environment that was checked (its executable), if any."""

    @property
    def blocking_layer(self) -> Optional[str]:
        for layer in self.layers:
            if layer.status == FAIL:
                return layer.layer
        return None

    def layer(self, name: str) -> Optional[LayerResult]:
        return next((layer for layer in self.layers if layer.layer == name), None)

    def codes(self) -> list[str]:
        return [f.code for layer in self.layers for f in layer.findings]

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": "gpu-wizard/report@1",
            "platform": _jsonable(self.platform),
            "target": self.target.to_dict(),
            "python": self.python,
            "layers": [layer.to_dict() for layer in self.layers],
            "blocking_layer": self.blocking_layer,
            "ready": self.ready,
        }


def _jsonable(value: Any) -> Any:
    """Facts may hold tuples and other plain values; make them JSON-ready."""
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_jsonable(v) for v in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)
