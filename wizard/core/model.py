"""The value objects the engine hands around: findings, layer results, the target, the report.

They serialise to the report contract of DESIGN section 5. Core never builds sentences: a
finding carries its ``code`` and ``params``, a step its key, a summary is a
:class:`~wizard.core.messages.Message`; every text is rendered from the message catalogue, in
English for the JSON report and in the user's language for the CLI and the GUI.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Optional, Union

from wizard.core import codes
from wizard.core.messages import DEFAULT_LANGUAGE, Message, render

Text = Union[Message, str]
"""A text for the user: a Message, or (for values such as a path) a plain string."""

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
    """One step of a fix: the catalogue's ``step.<key>`` and its values (``run`` steps carry a
    shell line the user can copy)."""

    key: str
    params: dict[str, Any] = field(default_factory=dict)

    @property
    def message(self) -> Message:
        return codes.step(self.key, self.params)

    def text(self, lang: str = DEFAULT_LANGUAGE) -> str:
        return render(self.message, lang)


@dataclass(frozen=True)
class Link:
    title: Text
    url: str

    def title_text(self, lang: str = DEFAULT_LANGUAGE) -> str:
        return render(self.title, lang)


@dataclass(frozen=True)
class Fix:
    steps: tuple[Step, ...] = ()
    links: tuple[Link, ...] = ()
    commands: tuple[str, ...] = ()
    """Shell lines the user can copy or the wizard can run, in order."""
    action: Optional[str] = None
    """Name of an automatic fix the wizard offers (``install_cudnn``, ``set_env``, ...)."""
    action_params: dict[str, Any] = field(default_factory=dict)
    manual_reason: Optional[Message] = None
    """Why the wizard cannot run a fix for this finding (``nofix.*``: it does not install
    drivers, software cannot add a GPU, ...); set on failures that carry no ``action``."""

    def cli_command(self) -> Optional[str]:
        """The ``gpu-wizard fix ...`` line that runs this fix; None when no subcommand does
        (a plain pip line is shown as it is, ready to copy)."""
        return fix_cli_command(self.action, self.action_params)

    def own_steps(self) -> tuple[Step, ...]:
        """The steps without those that only say "Run: <one of the commands>": a view that
        shows the commands on their own (ready to copy) need not list them twice."""
        listed = set(self.commands)
        return tuple(
            step for step in self.steps
            if not (step.key == "run" and step.params.get("command") in listed)
        )


def _quoted(value: Any) -> str:
    return f'"{value}"'


def _tf_install(params: dict[str, Any]) -> bool:
    """Whether a ``pip_install`` fix installs TensorFlow (what ``fix tensorflow`` plans)."""
    if params.get("tensorflow"):
        return True
    command = str(params.get("command") or "")
    return bool(re.search(r"\s-m\s+pip\s+install\b.*[\s\"'](tensorflow|tf-nightly)", command))


def fix_cli_command(action: Optional[str], params: dict[str, Any]) -> Optional[str]:
    """``gpu-wizard fix ...`` for an action and its params (what ``check`` prints under the
    finding); None where no subcommand runs it."""
    if action == "install_cudnn" and params.get("dest"):
        return f"gpu-wizard fix cudnn --download --cuda-dir {_quoted(params['dest'])}"
    if action == "install_zlibwapi" and params.get("dest"):
        return f"gpu-wizard fix zlibwapi --file FILE --dest {_quoted(params['dest'])}"
    if action == "install_cuda" and params.get("cuda"):
        return f"gpu-wizard fix cuda --download --cuda {params['cuda']}"
    if action == "pip_install" and params.get("python") and _tf_install(params):
        line = f"gpu-wizard fix tensorflow --python {_quoted(params['python'])}"
        return line + (f" --tf {params['tensorflow']}" if params.get("tensorflow") else "")
    if action == "set_env":
        return _set_env_command(params)
    return None


def _set_env_command(params: dict[str, Any]) -> Optional[str]:
    name = params.get("name", "PATH")
    if name == "CUDA_PATH" and params.get("value"):
        return f"gpu-wizard fix cuda-path --cuda-dir {_quoted(params['value'])}"
    directory = params.get("prepend") or params.get("append")
    if name not in ("PATH", "LD_LIBRARY_PATH") or not directory:
        return None
    var = "" if name == "PATH" else f" --var {name}"
    return f"gpu-wizard fix path{var} --add {_quoted(directory)}"


@dataclass(frozen=True)
class Finding:
    code: str
    severity: str = "fail"
    params: dict[str, Any] = field(default_factory=dict)
    """Values the message and fix texts are built from (versions, paths, file names)."""
    evidence: Optional[Text] = None
    """What was seen: a log line, a file path, a command's output (as values), or a Message
    saying what was looked for and not found."""
    fix: Fix = field(default_factory=Fix)

    @property
    def layer(self) -> str:
        return codes.layer_of(self.code)

    def title(self, lang: str = DEFAULT_LANGUAGE) -> str:
        return codes.render_title(self.code, lang)

    def message(self, lang: str = DEFAULT_LANGUAGE) -> str:
        return codes.render_message(self.code, self.params, lang)

    def fix_summary(self, lang: str = DEFAULT_LANGUAGE) -> str:
        return codes.render_fix_summary(self.code, self.params, lang)

    def messages(self) -> list[Message]:
        """Every message this finding shows (for the catalogue tests)."""
        found: list[Message] = [codes.title(self.code)]
        if self.code in codes.CODES:
            found += [codes.message(self.code, self.params),
                      codes.fix_summary(self.code, self.params)]
        found += [step.message for step in self.fix.steps]
        found += [link.title for link in self.fix.links if isinstance(link.title, Message)]
        if self.fix.manual_reason is not None:
            found.append(self.fix.manual_reason)
        return found

    def to_dict(self, lang: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
        """The report's finding (DESIGN section 5); texts in ``lang`` (English in the JSON)."""
        return {
            "code": self.code,
            "severity": self.severity,
            "message": self.message(lang),
            "evidence": render(self.evidence, lang) if self.evidence is not None else None,
            "fix": {
                "summary": self.fix_summary(lang),
                "steps": [step.text(lang) for step in self.fix.steps],
                "links": [{"title": link.title_text(lang), "url": link.url}
                          for link in self.fix.links],
                "action": self.fix.action,
                "commands": list(self.fix.commands),
                "action_params": _jsonable(self.fix.action_params),
                "manual_reason": (render(self.fix.manual_reason, lang)
                                  if self.fix.manual_reason is not None else None),
                "cli_command": self.fix.cli_command(),
            },
            "params": _jsonable(self.params),
        }


@dataclass
class LayerResult:
    layer: str
    status: str
    summary: Text
    """A one-liner, e.g. "NVIDIA GeForce RTX 3070 Ti Laptop GPU, compute 8.6"."""
    facts: dict[str, Any] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)

    def summary_text(self, lang: str = DEFAULT_LANGUAGE) -> str:
        return render(self.summary, lang)

    def to_dict(self, lang: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
        return {
            "layer": self.layer,
            "status": self.status,
            "summary": self.summary_text(lang),
            "facts": _jsonable(self.facts),
            "findings": [finding.to_dict(lang) for finding in sorted_findings(self.findings)],
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
    reason: Text
    os: str
    """``windows``, ``linux`` or ``wsl2``: the platform the target was chosen for."""
    pip_cuda: bool = False
    """True when the CUDA libraries come from pip wheels (``tensorflow[and-cuda]``), so no system
    CUDA Toolkit or cuDNN is needed."""
    gpu_supported: bool = True
    """False for TF >= 2.11 on native Windows: there is no GPU build at all."""

    def to_dict(self, lang: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
        return {
            "tensorflow": self.tensorflow,
            "cuda": self.cuda,
            "cudnn": self.cudnn,
            "python": self.python,
            "reason": render(self.reason, lang),
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
        """The lowest layer of the chain that fails. An optional layer (PyTorch) is outside the
        chain: it never blocks TensorFlow's verdict."""
        for layer in self.layers:
            if layer.status == FAIL and layer.layer in LAYERS:
                return layer.layer
        return None

    def layer(self, name: str) -> Optional[LayerResult]:
        return next((layer for layer in self.layers if layer.layer == name), None)

    def codes(self) -> list[str]:
        return [f.code for layer in self.layers for f in layer.findings]

    def to_dict(self, lang: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
        """The report contract (DESIGN section 5) with English texts; another ``lang`` gives the
        same shape with the texts in that language (the CLI's text and Markdown output)."""
        return {
            "format": "gpu-wizard/report@1",
            "platform": _jsonable(self.platform),
            "target": self.target.to_dict(lang),
            "python": self.python,
            "layers": [layer.to_dict(lang) for layer in self.layers],
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
    if isinstance(value, Message):
        return render(value)
    return str(value)
