"""Only the copy runs with administrator rights: the plan is written to a file and the wizard's
own executable applies it (``gpu-wizard fix apply-plan FILE``) through the UAC prompt. The
plan-file entry point is the same on every system (tests run it on Linux); the prompt itself
exists on Windows only."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any, Optional

from wizard.core.fixes import journal as journals
from wizard.core.fixes.plan import FixError, Plan
from wizard.core.host import Host
from wizard.core.messages import msg, to_data


def write_plan_file(plan: Plan) -> str:
    folder = os.path.join(journals.state_dir(), "plans")
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, f"{os.getpid()}-{plan.action}.json")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(plan.to_json())
    return path


def apply_plan_file(host: Host, plan_file: str, result_file: Optional[str] = None) -> int:
    """The elevated side: apply the plan in ``plan_file``; the outcome goes to ``result_file``
    (JSON: ``ok``, ``journal``, ``message``). 0 when applied, 2 when refused or failed."""
    with open(plan_file, encoding="utf-8") as handle:
        plan = Plan.from_dict(json.load(handle))
    result: dict[str, Any]
    try:
        journal = journals.apply(host, plan)
        result = {"ok": True, "journal": journal.id}
    except FixError as exc:
        result = {"ok": False, "message": to_data(exc.message)}
    if result_file:
        with open(result_file, "w", encoding="utf-8") as handle:
            json.dump(result, handle)
    return 0 if result["ok"] else 2


def own_command() -> list[str]:
    """How to start this wizard again: the frozen exe, or this Python with ``-m wizard``."""
    if getattr(sys, "frozen", False):
        return [sys.executable]
    return [sys.executable, "-m", "wizard"]


def run_elevated(plan: Plan) -> dict[str, Any]:
    """Apply ``plan`` in an elevated copy of the wizard (Windows: the UAC prompt) and wait.
    Raises FixError where there is no such prompt or the user declined it."""
    plan_file = write_plan_file(plan)
    result_file = plan_file + ".result.json"
    argv = [*own_command(), "fix", "apply-plan", plan_file, "--result", result_file,
            "--state-dir", journals.state_dir()]
    if sys.platform != "win32":
        raise FixError(msg("fix.refuse.needs_root", command="sudo " + subprocess.list2cmdline(
            argv)))
    _run_as_admin(argv)
    try:
        with open(result_file, encoding="utf-8") as handle:
            return json.load(handle)
    except OSError:
        raise FixError(msg("fix.refuse.elevation_declined")) from None


def undo_elevated(journal_id: str, force: bool = False) -> None:
    """Undo a fix that was applied with administrator rights, in an elevated copy (Windows);
    elsewhere FixError with the ``sudo`` command."""
    argv = [*own_command(), "undo", "--yes", "--id", journal_id, "--state-dir",
            journals.state_dir(), *(["--force"] if force else [])]
    if sys.platform != "win32":
        raise FixError(msg("fix.refuse.needs_root", command="sudo " + subprocess.list2cmdline(
            argv)))
    _run_as_admin(argv)


def _run_as_admin(argv: list[str]) -> None:  # pragma: no cover - Windows
    """``argv`` through the UAC prompt (the Host's one way to do it), waiting for it to end;
    FixError when the user declines the prompt."""
    from wizard.core.host.stream import run_elevated_windows

    if run_elevated_windows(argv, None, None).not_found:
        raise FixError(msg("fix.refuse.elevation_declined"))
