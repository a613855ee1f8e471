"""Applying a plan with a journal, undoing it, and finishing or rolling back after a crash.

The journal of each fix is a folder in the user state folder (``GPU_WIZARD_STATE_DIR``, else
platformdirs' ``user_state_dir("gpu-wizard")``): ``fixes/<id>/journal.json`` and ``backup/``.
Before an operation touches the machine, what it would destroy is copied to ``backup/`` and the
operation is marked ``started``; after it, ``done``. The journal file itself is replaced
atomically. So whatever moment the process dies at, the journal says which operations may have
happened, and rolling back (restore the backups, remove what was new, delete the temporary file
of a write in flight) gives back the exact state from before.
"""

from __future__ import annotations

import contextlib
import datetime
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Callable, Optional

from wizard.core.fixes.plan import FixCancelled, FixError, Op, Plan
from wizard.core.host import Host, HostError
from wizard.core.messages import msg

# hashlib, secrets, tarfile and zipfile are imported where a fix is applied or checked: every
# `gpu-wizard check` imports this module only to ask whether a fix was interrupted
# (fixcli.note_unfinished), and they were ~5 ms of a ~0.1 s check.

JOURNAL_FORMAT = "gpu-wizard/fix-journal@1"
STATE_ENV = "GPU_WIZARD_STATE_DIR"
CHUNK = 1 << 20
APPLYING, DONE, ROLLED_BACK, UNDOING, UNDONE = (
    "applying", "done", "rolled_back", "undoing", "undone")

ProgressFn = Callable[[float, str], None]
CancelledFn = Callable[[], bool]


def state_dir() -> str:
    """Where journals and backups live."""
    override = os.environ.get(STATE_ENV)
    if override:
        return override
    import platformdirs

    return platformdirs.user_state_dir("gpu-wizard", appauthor=False)


def fixes_dir() -> str:
    return os.path.join(state_dir(), "fixes")


def temp_of(host: Host, path: str) -> str:
    """The hidden file an atomic write to ``path`` goes through (known to the journal, so a
    crash mid-write leaves nothing behind after the rollback)."""
    return host.join(host.path.dirname(path), f".{host.path.basename(path)}.gpu-wizard-tmp")


@dataclass
class Journal:
    folder: str
    data: dict[str, Any]

    @property
    def id(self) -> str:
        return self.data["id"]

    @property
    def status(self) -> str:
        return self.data["status"]

    @property
    def plan(self) -> Plan:
        return Plan.from_dict(self.data["plan"])

    @property
    def entries(self) -> list[dict[str, Any]]:
        return self.data["entries"]

    def save(self) -> None:
        path = os.path.join(self.folder, "journal.json")
        temp = path + ".tmp"
        with open(temp, "w", encoding="utf-8") as handle:
            json.dump(self.data, handle, indent=1, ensure_ascii=False)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, path)

    def set_status(self, status: str) -> None:
        self.data["status"] = status
        self.data["updated"] = _now()
        self.save()

    @classmethod
    def create(cls, plan: Plan) -> Journal:
        import secrets

        stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%d-%H%M%S-%f")
        fix_id = f"{stamp}-{plan.action}-{secrets.token_hex(3)}"
        folder = os.path.join(fixes_dir(), fix_id)
        os.makedirs(os.path.join(folder, "backup"), exist_ok=True)
        journal = cls(folder, {
            "format": JOURNAL_FORMAT, "id": fix_id, "action": plan.action, "status": APPLYING,
            "created": _now(), "updated": _now(), "plan": plan.to_dict(),
            "entries": [{"state": "pending", "backup": None, "existed": None}
                        for _ in plan.ops],
        })
        journal.save()
        return journal

    @classmethod
    def load(cls, folder: str) -> Journal:
        with open(os.path.join(folder, "journal.json"), encoding="utf-8") as handle:
            data = json.load(handle)
        if data.get("format") != JOURNAL_FORMAT:
            raise ValueError(f"{folder}: not a fix journal")
        return cls(folder, data)


def _now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


def journals() -> list[Journal]:
    """Every journal, oldest first (unreadable ones are skipped)."""
    root = fixes_dir()
    found: list[Journal] = []
    for name in sorted(os.listdir(root)) if os.path.isdir(root) else []:
        with contextlib.suppress(OSError, ValueError, KeyError):
            found.append(Journal.load(os.path.join(root, name)))
    return found


def unfinished() -> list[Journal]:
    """Fixes a crash or power loss interrupted (applying or undoing)."""
    return [j for j in journals() if j.status in (APPLYING, UNDOING)]


def last_undoable() -> Optional[Journal]:
    """The newest fix that is applied, or the newest of all when none is (to say it was undone)."""
    every = journals()
    done = [j for j in every if j.status == DONE]
    return done[-1] if done else (every[-1] if every else None)


# ---------------------------------------------------------------------------------------------
# apply


def apply(host: Host, plan: Plan, progress: ProgressFn = lambda f, t: None,
          cancelled: CancelledFn = lambda: False) -> Journal:
    """Run ``plan`` on ``host`` with a journal. On any failure or cancel everything done so far
    is rolled back and :class:`FixError` (or :class:`FixCancelled`) says why."""
    if not host.can_write:
        raise FixError(msg("fix.demo_mode"))
    journal = Journal.create(plan)
    try:
        _run(host, journal, progress, cancelled)
    except BaseException as exc:
        roll_back(host, journal, final=ROLLED_BACK)
        if isinstance(exc, FixError):
            raise
        if isinstance(exc, (OSError, HostError)):
            raise FixError(_os_message(exc)) from exc
        raise
    journal.set_status(DONE)
    if any(op.kind == "registry" for op in plan.ops):
        host.broadcast_environment_change()
    progress(1.0, "")
    return journal


def finish(host: Host, journal: Journal, progress: ProgressFn = lambda f, t: None) -> None:
    """Complete an interrupted apply (an interrupted undo is completed as an undo)."""
    if journal.status == UNDOING:
        roll_back(host, journal, final=UNDONE)
        return
    try:
        _run(host, journal, progress, lambda: False)
    except BaseException as exc:
        roll_back(host, journal, final=ROLLED_BACK)
        if isinstance(exc, (OSError, HostError)):
            raise FixError(_os_message(exc)) from exc
        raise
    journal.set_status(DONE)


def _os_message(exc: BaseException) -> Any:
    if isinstance(exc, OSError):
        import errno

        where = exc.filename or "?"
        if exc.errno == errno.ENOSPC:
            return msg("fix.failed.disk_full", path=where)
        if isinstance(exc, PermissionError):
            return msg("fix.failed.denied", path=where)
        return msg("fix.failed.os", path=where, reason=exc.strerror or str(exc))
    return msg("fix.failed.os", path="?", reason=str(exc))


def _run(host: Host, journal: Journal, progress: ProgressFn, cancelled: CancelledFn) -> None:
    plan = journal.plan
    total = max(plan.total_bytes, 1)
    done_bytes = 0
    sources = _Sources()
    try:
        for index, op in enumerate(plan.ops):
            entry = journal.entries[index]
            if entry["state"] == "done":
                done_bytes += op.size if op.kind == "file" else 0
                continue
            if cancelled():
                raise FixCancelled()
            if entry["state"] == "pending":
                _prepare(host, journal, index, op)
            progress(done_bytes / total, op.path or op.name)

            def tick(count: int, base: int = done_bytes, name: str = op.path) -> None:
                progress(min((base + count) / total, 1.0), name)

            entry["written"] = _perform(host, op, sources, cancelled, tick)
            done_bytes += op.size if op.kind == "file" else 0
            entry["state"] = "done"
            journal.save()
    finally:
        sources.close()


def _prepare(host: Host, journal: Journal, index: int, op: Op) -> None:
    """Back up what ``op`` would destroy, then mark it started."""
    entry = journal.entries[index]
    if op.kind in ("file", "link"):
        existed = host.exists(op.path)
        entry["existed"] = existed
        if existed:
            if host.is_dir(op.path) and not host.is_link(op.path):
                raise FixError(msg("fix.failed.is_dir", path=op.path))
            entry["backup"] = _backup(host, journal, index, op.path)
    elif op.kind == "mkdir":
        entry["existed"] = host.is_dir(op.path)
    elif op.kind == "registry":
        values = host.registry_values(op.key)
        current = next(([t, d] for n, (t, d) in values.items() if n.upper() == op.name.upper()),
                       None)
        entry["existed"] = current is not None
        entry["backup"] = current  # the value as it really was, whatever the plan thought
    entry["state"] = "started"
    journal.save()


def _backup(host: Host, journal: Journal, index: int, path: str) -> dict[str, Any]:
    if host.is_link(path):
        return {"link": host.read_link(path)}
    target = os.path.join(journal.folder, "backup", str(index))
    temp = target + ".tmp"
    with host.open_binary(path) as source, open(temp, "wb") as handle:
        while True:
            chunk = source.read(CHUNK)
            if not chunk:
                break
            handle.write(chunk)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temp, target)
    return {"file": target}


def _perform(host: Host, op: Op, sources: _Sources, cancelled: CancelledFn,
             tick: Callable[[int], None]) -> Optional[str]:
    """Do ``op``; what was written (a file's SHA-256), so that undo can tell a later change."""
    if op.kind == "mkdir":
        if not host.is_dir(op.path):
            host.make_dir(op.path)
    elif op.kind == "file":
        import hashlib

        digest = hashlib.sha256()
        host.write_file(op.path, _chunks(sources.open(op.source), cancelled, tick, digest),
                        temp=temp_of(host, op.path))
        return digest.hexdigest()
    elif op.kind == "link":
        host.make_symlink(op.source["target"], op.path, temp=temp_of(host, op.path))
    elif op.kind == "registry":
        if op.new is None:
            host.delete_registry_value(op.key, op.name)
        else:
            host.set_registry_value(op.key, op.name, op.new[0], op.new[1])
    else:
        raise ValueError(f"unknown operation {op.kind}")
    return None


def _chunks(handle: Any, cancelled: CancelledFn, tick: Callable[[int], None],
            digest: Any = None) -> Iterator[bytes]:
    count = 0
    with handle:
        while True:
            if cancelled():
                raise FixCancelled()
            chunk = handle.read(CHUNK)
            if not chunk:
                return
            count += len(chunk)
            tick(count)
            if digest is not None:
                digest.update(chunk)
            yield chunk


class _Sources:
    """Opens what a file operation copies from; an archive stays open for all its members."""

    def __init__(self) -> None:
        self._archives: dict[str, Any] = {}

    def open(self, source: dict[str, Any]) -> Any:
        import io
        import tarfile
        import zipfile

        if "text" in source:
            return io.BytesIO(source["text"].encode("utf-8"))
        if "file" in source:
            return open(source["file"], "rb")
        archive = source["archive"]
        if archive not in self._archives:
            if zipfile.is_zipfile(archive):
                self._archives[archive] = zipfile.ZipFile(archive)
            else:
                self._archives[archive] = tarfile.open(archive, "r:*")  # noqa: SIM115
        opened = self._archives[archive]
        if isinstance(opened, zipfile.ZipFile):
            return opened.open(source["member"])
        extracted = opened.extractfile(source["member"])
        if extracted is None:
            raise OSError(f"{source['member']} is not a file in {archive}")
        return extracted

    def close(self) -> None:
        for opened in self._archives.values():
            with contextlib.suppress(Exception):
                opened.close()


# ---------------------------------------------------------------------------------------------
# undo and roll back


def changed_since(host: Host, journal: Journal) -> list[str]:
    """What someone changed after the fix (a file it wrote, a link, a registry value): undoing
    would throw that change away."""
    changed: list[str] = []
    for op, entry in zip(journal.plan.ops, journal.entries):
        if entry["state"] != "done":
            continue
        if op.kind == "file" and entry.get("written"):
            if _file_hash(host, op.path) != entry["written"]:
                changed.append(op.path)
        elif op.kind == "link":
            if not host.is_link(op.path) or host.read_link(op.path) != op.source["target"]:
                changed.append(op.path)
        elif op.kind == "registry":
            current = next(([t, d] for n, (t, d) in host.registry_values(op.key).items()
                            if n.upper() == op.name.upper()), None)
            if current != op.new:
                changed.append(f"{op.key}\\{op.name}")
    return changed


def _file_hash(host: Host, path: str) -> Optional[str]:
    if not host.is_file(path) or host.is_link(path):
        return None
    import hashlib

    digest = hashlib.sha256()
    with host.open_binary(path) as handle:
        for chunk in iter(lambda: handle.read(CHUNK), b""):
            digest.update(chunk)
    return digest.hexdigest()


def undo(host: Host, journal: Journal, force: bool = False) -> bool:
    """Put back the state from before ``journal``'s fix. False when it was already undone (or
    rolled back): a second undo changes nothing. What was changed since the fix is not thrown
    away unless ``force``."""
    if journal.status in (UNDONE, ROLLED_BACK):
        return False
    if not host.can_write:
        raise FixError(msg("fix.demo_mode"))
    later = blocking_fix(journal)
    if later is not None:
        raise FixError(msg("fix.refuse.undo_later_first", id=journal.id, later=later.id))
    changed = [] if force else changed_since(host, journal)
    if changed:
        raise FixError(msg("fix.refuse.changed_since", id=journal.id, paths=changed))
    journal.set_status(UNDOING)
    roll_back(host, journal, final=UNDONE)
    if any(op.kind == "registry" for op in journal.plan.ops):
        host.broadcast_environment_change()
    return True


def _touches(journal: Journal) -> set[str]:
    return {(op.path if op.kind != "registry" else f"{op.key}\\{op.name}").lower()
            for op in journal.plan.ops if op.kind != "mkdir"}


def blocking_fix(journal: Journal) -> Optional[Journal]:
    """A later fix, still applied, that changed something this one changed: it must be undone
    first, or undoing this one would throw its changes away."""
    mine = _touches(journal)
    every = journals()
    position = next((i for i, j in enumerate(every) if j.id == journal.id), len(every))
    for later in every[position + 1:]:
        if later.status == DONE and mine & _touches(later):
            return later
    return None


def roll_back(host: Host, journal: Journal, final: str) -> None:
    """Undo every operation that was started, newest first; idempotent, so an interrupted
    rollback is finished by running it again."""
    plan = journal.plan
    problems: list[str] = []
    for index in reversed(range(len(plan.ops))):
        op, entry = plan.ops[index], journal.entries[index]
        if entry["state"] == "pending":
            continue
        try:
            _revert(host, op, entry)
        except (OSError, HostError) as exc:
            problems.append(f"{op.path or op.name}: {exc}")
            continue
        entry["state"] = "pending"
        journal.save()
    if problems:
        journal.data["problems"] = problems
        journal.save()
        raise FixError(msg("fix.failed.rollback", problems="; ".join(problems),
                           folder=journal.folder))
    journal.set_status(final)


def _revert(host: Host, op: Op, entry: dict[str, Any]) -> None:
    if op.kind in ("file", "link"):
        host.remove_file(temp_of(host, op.path))
        backup = entry.get("backup")
        if backup and "link" in backup:
            host.make_symlink(backup["link"], op.path, temp=temp_of(host, op.path))
        elif backup:
            with open(backup["file"], "rb") as handle:
                host.write_file(op.path, iter(lambda: handle.read(CHUNK), b""),
                                temp=temp_of(host, op.path))
        elif entry.get("existed") is False:
            host.remove_file(op.path)
    elif op.kind == "mkdir":
        if entry.get("existed") is False and host.is_dir(op.path):
            host.remove_dir(op.path)
    elif op.kind == "registry":
        old = entry.get("backup") if entry.get("existed") is not None else op.old
        current = next(([t, d] for n, (t, d) in host.registry_values(op.key).items()
                        if n.upper() == op.name.upper()), None)
        if current == (list(old) if old is not None else None):
            return  # never changed (the write was refused), or already put back
        if old is None:
            host.delete_registry_value(op.key, op.name)
        else:
            host.set_registry_value(op.key, op.name, old[0], old[1])
