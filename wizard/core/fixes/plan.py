"""A fix before it runs: the operations it would do, and their description in words."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Optional

from wizard.core.messages import Message, msg, render, to_data

PLAN_FORMAT = "gpu-wizard/fix-plan@1"


class FixError(Exception):
    """A fix that is refused or failed; ``message`` says why in the user's language."""

    def __init__(self, message: Message) -> None:
        super().__init__(str(message))
        self.message = message


class FixCancelled(FixError):
    def __init__(self) -> None:
        super().__init__(msg("fix.cancelled"))


@dataclass
class Op:
    """One change. ``kind``:

    * ``mkdir``: create the folder ``path``;
    * ``file``: write ``path`` from ``source`` (``{"archive": file, "member": name}``,
      ``{"file": path}`` or ``{"text": content}``), ``size`` bytes; ``replaces`` when a file is
      there now;
    * ``link``: make ``path`` a symbolic link to ``source["target"]``;
    * ``registry``: set ``name`` under ``key`` from ``old`` to ``new`` (``[type, data]``; None:
      absent).
    """

    kind: str
    path: str = ""
    source: dict[str, Any] = field(default_factory=dict)
    size: int = 0
    replaces: bool = False
    key: str = ""
    name: str = ""
    old: Optional[list[Any]] = None
    new: Optional[list[Any]] = None

    def to_dict(self) -> dict[str, Any]:
        data = {"kind": self.kind, "path": self.path, "source": self.source, "size": self.size,
                "replaces": self.replaces}
        if self.kind == "registry":
            data.update(key=self.key, name=self.name, old=self.old, new=self.new)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Op:
        return cls(kind=data["kind"], path=data.get("path", ""), source=data.get("source") or {},
                   size=int(data.get("size") or 0), replaces=bool(data.get("replaces")),
                   key=data.get("key", ""), name=data.get("name", ""), old=data.get("old"),
                   new=data.get("new"))


@dataclass
class Plan:
    """What a fix would do. ``changes`` are the variable changes in words (name, old, new);
    ``verify`` says how to check the result (``{"layer": "cudnn"}``, ``{"path_entry": dir,
    "variable": "PATH", "file": profile}``)."""

    action: str
    title: Message
    ops: list[Op] = field(default_factory=list)
    notes: list[Message] = field(default_factory=list)
    changes: list[dict[str, Any]] = field(default_factory=list)
    verify: dict[str, Any] = field(default_factory=dict)
    needs_admin: bool = False

    @property
    def empty(self) -> bool:
        return not self.ops

    @property
    def total_bytes(self) -> int:
        return sum(op.size for op in self.ops if op.kind == "file")

    def to_dict(self) -> dict[str, Any]:
        return {"format": PLAN_FORMAT, "action": self.action, "title": to_data(self.title),
                "ops": [op.to_dict() for op in self.ops], "notes": to_data(self.notes),
                "changes": self.changes, "verify": self.verify, "needs_admin": self.needs_admin}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Plan:
        if not isinstance(data, dict) or data.get("format") != PLAN_FORMAT:
            raise ValueError(f"not a {PLAN_FORMAT} plan")
        return cls(action=data["action"], title=from_data(data["title"]),
                   ops=[Op.from_dict(o) for o in data["ops"]],
                   notes=[from_data(n) for n in data.get("notes") or []],
                   changes=list(data.get("changes") or []), verify=dict(data.get("verify") or {}),
                   needs_admin=bool(data.get("needs_admin")))

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2, ensure_ascii=False)

    def messages(self) -> list[Message]:
        """The plan in words: the title, each change, each folder, file and link, the notes."""
        lines: list[Message] = [self.title]
        if self.empty:
            lines.append(msg("fix.plan.nothing"))
        for change in self.changes:
            lines.append(msg("fix.plan.variable", name=change["name"], scope=change.get("where"),
                             old=change.get("old") if change.get("old") is not None else
                             msg("fix.plan.unset"), new=change["new"]))
        for op in self.ops:
            if op.kind == "mkdir":
                lines.append(msg("fix.plan.mkdir", path=op.path))
            elif op.kind == "file":
                lines.append(msg("fix.plan.replace" if op.replaces else "fix.plan.write",
                                 path=op.path, size=_size(op.size)))
            elif op.kind == "link":
                lines.append(msg("fix.plan.link", path=op.path, target=op.source.get("target")))
            elif op.kind == "registry":
                lines.append(msg("fix.plan.registry", key=op.key, name=op.name,
                                 type=(op.new or op.old or ["?"])[0]))
        lines.extend(self.notes)
        return lines

    def lines(self, lang: str) -> list[str]:
        return [render(m, lang) for m in self.messages()]


def _size(size: int) -> str:
    if size >= 1 << 20:
        return f"{size / (1 << 20):.1f} MiB"
    if size >= 1 << 10:
        return f"{size / (1 << 10):.1f} KiB"
    return f"{size} B"


def from_data(value: Any) -> Any:
    """The inverse of :func:`wizard.core.messages.to_data`."""
    if isinstance(value, dict) and set(value) == {"id", "params"}:
        return Message(value["id"], {k: from_data(v) for k, v in value["params"].items()})
    if isinstance(value, list):
        return [from_data(v) for v in value]
    return value
