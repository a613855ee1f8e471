"""What a "Fix it" does, whichever kind of fix it is, without Qt (it runs on a worker).

Four kinds, one shape (:func:`prepare` gives a :class:`Prepared`, :func:`execute` runs it and
gives an :class:`Outcome`):

* ``files``: a journaled :class:`~wizard.core.fixes.plan.Plan` (PATH, CUDA_PATH, cuDNN from an
  archive the user has, zlibwapi.dll): applied with its journal, elevated where it must be,
  verified, undoable;
* ``download``: cuDNN fetched from NVIDIA (:mod:`wizard.core.fixes.cudnn_download`), then
  installed as an archive fix (journal and undo as above);
* ``run``: pip or conda in the chosen environment (:mod:`wizard.core.fixes.packages`): live
  output, cancel of the whole process tree, the exit status, the commands that go back;
* ``installer``: NVIDIA's CUDA installer, run silently (``wizard.core.fixes.cuda_installer``).

Progress reaches the GUI through an :class:`Events` queue the dialog drains on a timer, so a
chatty pip or a fast download never floods the GUI thread with signals.

:func:`why_no_fix` is the other half of the contract a card keeps: a blocking finding either has
a fix the wizard can run or says why it cannot have one (core's ``Fix.manual_reason``).
:func:`plan_everything` and :func:`fix_everything` are "Fix everything" on the summary page.
"""

from __future__ import annotations

import queue
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from wizard.core import codes
from wizard.core.fixes.plan import FixCancelled, FixError, Plan, from_data
from wizard.core.messages import Message, has, msg
from wizard.core.model import FAIL, LAYERS, Finding, Report

FILES, DOWNLOAD, RUN, INSTALLER = "files", "download", "run", "installer"
ROUTE_DOWNLOAD, ROUTE_FILE, ROUTE_AUTO = "download", "file", "auto"
NEEDS_FILE = {"install_cudnn": "archive", "install_zlibwapi": "file", "install_cuda": "installer"}
"""Actions that can take a file from the user, and the name the builder knows it by."""
DOWNLOADS = ("install_cudnn", "install_cuda")
"""Actions whose file the wizard can download itself (the default; the user's file the
other way)."""
ALLOW_HOSTS: tuple[str, ...] = ()
"""Hosts a download may come from besides NVIDIA's and the package hosts (tests: the loopback
server; ``--allow-host`` on the command line)."""
MAX_STEPS = 8
"""Fix everything stops after this many fixes (a fix that keeps coming back is not retried)."""

Cancelled = Callable[[], bool]


def _never() -> bool:
    return False


class Events:
    """Thread-safe progress from a worker to the GUI: ``("progress", fraction, text)``,
    ``("download", downloads.Progress)``, ``("line", text)``, ``("step", index, Message)``."""

    def __init__(self) -> None:
        self._queue: queue.SimpleQueue = queue.SimpleQueue()

    def progress(self, fraction: float, text: str = "") -> None:
        self._queue.put(("progress", float(fraction), text))

    def download(self, progress: Any) -> None:
        self._queue.put(("download", progress))

    def line(self, text: str) -> None:
        self._queue.put(("line", text))

    def step(self, index: int, message: Message) -> None:
        self._queue.put(("step", index, message))

    def drain(self, limit: int = 2000) -> list[tuple]:
        items = []
        while len(items) < limit:
            try:
                items.append(self._queue.get_nowait())
            except queue.Empty:
                break
        return items


# -- what a finding offers ----------------------------------------------------------------------

def has_builder(action: Optional[str]) -> bool:
    """Whether the wizard has a fix for ``action`` (a journaled plan or a program to run)."""
    return _files_builder(action) is not None or _run_builder(action) is not None


REQUIRED_PARAMS = {"install_cudnn": ("dest",), "install_zlibwapi": ("dest",)}
"""What a builder cannot do without: a finding that carries the action but not these (one the
explain engine filed from a log, where no folder was seen) has no fix to offer."""


def offers_fix(finding: Finding) -> bool:
    """Whether the card shows "Fix it…": the wizard has a builder for the finding's action and
    the finding says enough for it to plan."""
    action = finding.fix.action
    if not has_builder(action):
        return False
    return all(finding.fix.action_params.get(p) for p in REQUIRED_PARAMS.get(action or "", ()))


def routes(finding: Finding) -> tuple[str, ...]:
    """How the fix can be had: cuDNN from NVIDIA's download or from an archive the user has,
    zlibwapi.dll from a file the user has, else at once."""
    action = finding.fix.action or ""
    if action == "install_cudnn" and _download_module() is None:
        return (ROUTE_FILE,)
    if action in DOWNLOADS:
        return (ROUTE_DOWNLOAD, ROUTE_FILE)
    if action in NEEDS_FILE:
        return (ROUTE_FILE,)
    return (ROUTE_AUTO,)


def runs_unattended(finding: Finding) -> bool:
    """Whether Fix everything can run this finding's fix without asking for a file."""
    return offers_fix(finding) and routes(finding)[0] != ROUTE_FILE


def why_no_fix(finding: Finding) -> Optional[Message]:
    """Why this finding has no fix the wizard runs (shown on its card instead of a button):
    core's ``Fix.manual_reason`` (``nofix.*``, set by ``layers.wiring``), or, for an action
    that came without what its builder needs, ``fixgui.no_fix.<action>_without_params``. None
    when it has a fix, or when nothing says why (the walk test catches that)."""
    if offers_fix(finding):
        return None
    given = getattr(finding.fix, "manual_reason", None)  # core's own reason, where it has one
    if given is not None:
        return given
    if has_builder(finding.fix.action):  # the action without what it needs (REQUIRED_PARAMS)
        key = f"fixgui.no_fix.{finding.fix.action}_without_params"
        return msg(key) if has(key) else None
    return None


# -- preparing -----------------------------------------------------------------------------------

def session_given(session: Any) -> dict[str, Any]:
    """What the check already knows that a builder would otherwise find out again: the probe of
    the checked environment (``probe``, ``probe_python``), so a pip plan does not start the
    probe again (``registry.given_probe`` uses it only for that interpreter). Empty without a
    session or before its environment was probed."""
    probe = getattr(session, "probe", None) if session is not None else None
    python = getattr(session, "python", None) if session is not None else None
    if probe is None or not python:
        return {}
    return {"probe": probe, "probe_python": python}


@dataclass
class Prepared:
    """A fix worked out and not yet run: its kind and its plan (what :meth:`messages` says)."""

    kind: str
    finding: Finding
    plan: Any
    route: str = ROUTE_AUTO

    def messages(self) -> list[Message]:
        return list(self.plan.messages())

    @property
    def empty(self) -> bool:
        return bool(getattr(self.plan, "empty", False))

    @property
    def needs_admin(self) -> bool:
        return bool(getattr(self.plan, "needs_admin", False))


def prepare(host: Any, finding: Finding, given: Optional[dict[str, Any]] = None,
            route: Optional[str] = None, cancelled: Cancelled = _never) -> Prepared:
    """The plan of ``finding``'s fix on ``host`` (FixError says why there is none)."""
    action = finding.fix.action or ""
    params = dict(finding.fix.action_params)
    given = dict(given or {})
    route = route or routes(finding)[0]
    given.setdefault("allow_hosts", ALLOW_HOSTS)
    if route == ROUTE_DOWNLOAD:
        given.pop(NEEDS_FILE.get(action, ""), None)
    if action == "install_cudnn" and route == ROUTE_DOWNLOAD:
        module = _download_module()
        assert module is not None
        return Prepared(DOWNLOAD, finding, module.download_plan(host, params, given), route)
    if route == ROUTE_FILE and action in NEEDS_FILE and not given.get(NEEDS_FILE[action]):
        raise FixError(msg("fixgui.none_chosen"))
    build = _files_builder(action)
    if build is not None:
        plan = build(host, params, given)
        kind = DOWNLOAD if type(plan).__name__ == "DownloadPlan" else FILES
        return Prepared(kind, finding, plan, route)
    run = _run_builder(action)
    if run is not None:
        given.setdefault("cancelled", cancelled)
        plan = run(host, params, given)
        kind = INSTALLER if getattr(plan, "action", "") == "install_cuda" else RUN
        return Prepared(kind, finding, plan, route)
    raise FixError(why_no_fix(finding) or msg("fixgui.no_builder", action=action or "?"))


# -- running -------------------------------------------------------------------------------------

@dataclass
class Outcome:
    """How a fix ran: ``ok`` (changed and verified as far as it can be), what to say, the
    journal to undo (file fixes), the exit status and the way back (programs)."""

    ok: bool
    messages: list[Message] = field(default_factory=list)
    journal: Any = None
    returncode: Optional[int] = None
    go_back: list[str] = field(default_factory=list)
    record: str = ""
    cancelled: bool = False
    next: Optional[Prepared] = None
    """A download stops at the install plan of the file it fetched, to be shown and agreed to
    (the dialog) unless ``execute`` was told to go on (Fix everything)."""


def execute(host: Any, prepared: Prepared, events: Optional[Events] = None,
            cancelled: Cancelled = _never, outcome: Optional[dict[str, Any]] = None,
            go_on: bool = True) -> Outcome:
    """Run ``prepared`` (on a worker). A refusal, a failed copy or a cancel raises FixError
    (FixCancelled) after putting everything back; a program that fails returns ``ok=False``
    with its exit status. ``outcome["result"]`` keeps a file fix's result as soon as the
    changes are made, even when a cancel arrives after the last one. ``go_on=False``: a
    download ends with the install plan in ``Outcome.next`` instead of installing."""
    events = events or Events()
    outcome = outcome if outcome is not None else {}
    if prepared.kind == FILES:
        return _apply_files(host, prepared.plan, events, cancelled, outcome)
    if prepared.kind == DOWNLOAD:
        return _download_and_install(host, prepared, events, cancelled, outcome, go_on)
    if prepared.kind == RUN:
        result = _run_packages(host, prepared.plan, events, cancelled)
    else:
        result = _run_installer(host, prepared.plan, events, cancelled)
    outcome["result"] = result  # kept when a cancel makes the worker drop the return value
    return result


def _apply_files(host: Any, plan: Plan, events: Events, cancelled: Cancelled,
                 outcome: dict[str, Any], done: Optional[list[Message]] = None) -> Outcome:
    from wizard.core.fixes import journal as journals
    from wizard.core.fixes.verify import verify

    if plan.needs_admin and not host.is_windows:
        raise FixError(msg("fix.refuse.needs_root", command="sudo gpu-wizard fix …"))
    if plan.needs_admin:
        from wizard.core.fixes.elevate import run_elevated

        events.progress(0.0, "")
        result = run_elevated(plan)
        if not result.get("ok"):
            raise FixError(from_data(result.get("message"))
                           or msg("fix.refuse.elevation_declined"))
        journal = journals.last_undoable()
    else:
        journal = journals.apply(host, plan, events.progress, cancelled)
    before = list(done or [])
    outcome["result"] = Outcome(True, [*before, msg("fixgui.done", id=journal.id if journal
                                                     else "?")], journal)
    ok, seen = verify(host, plan)
    result = Outcome(ok, [*before, msg("fixgui.done", id=journal.id if journal else "?"), seen],
                     journal)
    outcome["result"] = result
    return result


def _download_and_install(host: Any, prepared: Prepared, events: Events, cancelled: Cancelled,
                          outcome: dict[str, Any], go_on: bool) -> Outcome:
    module = _download_module()
    assert module is not None
    plan = prepared.plan
    was_cached = bool(plan.cached)
    path = module.fetch(host, plan, events.download, cancelled)
    if cancelled():
        raise FixCancelled()
    fetched = msg("fixgui.download.cached" if was_cached else "fixgui.download.done",
                  file=plan.archive.file, path=path)
    events.step(-1, msg("fixgui.download.installing", dest=plan.dest))
    install = module.install_plan(host, plan, path)
    if install.needs_admin and not host.is_windows:
        import shlex

        raise FixError(msg("fix.refuse.needs_root", command="sudo gpu-wizard fix cudnn --archive "
                           + shlex.quote(path) + " --cuda-dir " + shlex.quote(plan.dest)))
    if not go_on:
        return Outcome(True, [fetched], next=Prepared(FILES, prepared.finding, install,
                                                      ROUTE_FILE))
    return _apply_files(host, install, events, cancelled, outcome, done=[fetched])


def _run_packages(host: Any, plan: Any, events: Events, cancelled: Cancelled) -> Outcome:
    from wizard.core.fixes import packages

    result = packages.run_plan(host, plan, on_line=events.line, progress=events.progress,
                               cancelled=cancelled)
    messages = [result.message]
    if result.returncode is not None and not result.cancelled:
        messages.append(msg("fixgui.exit_code", code=result.returncode))
    return Outcome(result.ok, messages, returncode=result.returncode,
                   go_back=list(result.go_back), record=result.record,
                   cancelled=bool(result.cancelled))


def _run_installer(host: Any, plan: Any, events: Events, cancelled: Cancelled) -> Outcome:
    """NVIDIA's CUDA installer: downloaded and verified (or the user's file), run silently and
    elevated with the toolkit components only, then the toolkit's files checked."""
    from wizard.core.fixes import cuda_installer

    path = cuda_installer.fetch(host, plan, events.download, cancelled)
    if cancelled():
        raise FixCancelled()
    events.step(-1, msg("fixgui.installer.running", command=plan.command))
    result = cuda_installer.run_installer(host, plan, path, on_line=events.line,
                                          progress=events.progress, cancelled=cancelled)
    messages = [result.message]
    if result.returncode is not None and not result.cancelled:
        messages.append(msg("fixgui.exit_code", code=result.returncode))
    ok = result.ok
    if ok:
        ok, seen = cuda_installer.verify(host, plan)
        messages.append(seen)
    return Outcome(ok, messages, returncode=result.returncode, cancelled=result.cancelled)


def go_back_plan(host: Any, prepared: Prepared, outcome: Outcome) -> Optional[Prepared]:
    """The commands a pip run gave to go back (uninstall what it added, reinstall what it
    changed), as a run of their own; None when one of them is not a pip line addressed to an
    interpreter (a conda revision, a folder to delete): those are shown, not run."""
    from wizard.core.fixes import packages

    if prepared.kind != RUN or not outcome.go_back:
        return None
    commands = []
    for text in outcome.go_back:
        try:
            python, args = packages.parse_pip_command(host, text)
        except ValueError:
            return None
        commands.append(packages.pip_command(python, args))
    plan = packages.PackagePlan(msg("fixgui.go_back_title", python=prepared.plan.python),
                                prepared.plan.python, commands, prefix=prepared.plan.prefix,
                                conda=prepared.plan.conda,
                                tensorflow=getattr(prepared.plan, "tensorflow", None))
    return Prepared(RUN, prepared.finding, plan)


def undo(host: Any, journal: Any) -> bool:
    """Put back what a file fix changed (elevated where its plan was)."""
    from wizard.core.fixes import journal as journals

    if journal.plan.needs_admin:
        from wizard.core.fixes.elevate import undo_elevated

        undo_elevated(journal.id)
        return journals.Journal.load(journal.folder).status == journals.UNDONE
    return journals.undo(host, journal)


# -- Fix everything ------------------------------------------------------------------------------

@dataclass
class Item:
    """One line of the overall plan: the finding and its layer, and either the fix worked out
    now or why it waits (it is planned afresh when its turn comes)."""

    layer: str
    finding: Finding
    prepared: Optional[Prepared] = None
    waits: Optional[Message] = None


def candidates(report: Report, skip: frozenset = frozenset()) -> list[tuple[str, Finding]]:
    """The failures of the failing layers, lowest layer first, whose fix runs unattended; one
    per action and parameters (two findings the same PATH entry fixes are one fix). It stops
    after the first failing layer that keeps a failure only the user can fix (see
    :func:`left_to_user`): the layers above it would be fixed on a broken base."""
    seen: set[tuple] = set()
    found: list[tuple[str, Finding]] = []
    for result in _failing(report):
        for finding in _failures(result):
            key = _key(finding)
            if not runs_unattended(finding) or key in seen or finding.code in skip:
                continue
            seen.add(key)
            found.append((result.layer, finding))
        if any(not runs_unattended(f) for f in _failures(result)):
            break
    return found


def left_to_user(report: Report) -> Optional[tuple[str, Finding]]:
    """The lowest failure Fix everything cannot fix by itself (it needs a file from the user,
    or the wizard has no fix for it), with its layer; None when there is none."""
    for result in _failing(report):
        for finding in _failures(result):
            if not runs_unattended(finding):
                return result.layer, finding
    return None


def _failing(report: Report) -> list[Any]:
    return [r for r in report.layers if r.layer in LAYERS and r.status == FAIL]


def _failures(result: Any) -> list[Finding]:
    return [f for f in result.findings if f.severity == FAIL]


def _key(finding: Finding) -> tuple:
    params = tuple(sorted((k, repr(v)) for k, v in finding.fix.action_params.items()))
    return (finding.fix.action, params)


def plan_everything(host: Any, report: Report, cancelled: Cancelled = _never,
                    given: Optional[dict[str, Any]] = None) -> list[Item]:
    """The overall plan shown before Fix everything runs. A fix that cannot be planned yet
    (cuDNN before the CUDA it goes into is installed) waits for the ones before it; the first
    one cannot wait for anything, so its refusal is the answer. ``given``: what the check
    already knows (:func:`session_given`)."""
    items: list[Item] = []
    for layer, finding in candidates(report):
        if cancelled():
            raise FixCancelled()
        try:
            items.append(Item(layer, finding, prepare(host, finding, given,
                                                      cancelled=cancelled)))
        except FixCancelled:
            raise
        except FixError as exc:
            items.append(Item(layer, finding, waits=exc.message))
    return items


def runnable(items: list[Item]) -> bool:
    """Whether Fix everything has anything to run: its first fix could be planned."""
    return bool(items) and items[0].prepared is not None and not items[0].prepared.empty


@dataclass
class Step:
    """One fix Fix everything ran, and how it went."""

    layer: str
    finding: Finding
    outcome: Optional[Outcome] = None
    error: Optional[Message] = None
    prepared: Optional[Prepared] = None

    @property
    def ok(self) -> bool:
        return self.error is None and self.outcome is not None and self.outcome.ok


@dataclass
class Run:
    """The fixes run, the reason it stopped (None: every confirmed fix ran) and the report after
    the last re-check."""

    steps: list[Step] = field(default_factory=list)
    stopped: Optional[Message] = None
    report: Optional[Report] = None

    @property
    def ok(self) -> bool:
        return self.stopped is None and all(step.ok for step in self.steps)


def fix_everything(session: Any, confirmed: list[Item], events: Optional[Events] = None,
                   cancelled: Cancelled = _never, run: Optional[Run] = None) -> Run:
    """Run the confirmed fixes lowest layer first, each planned from the findings of a fresh
    check, re-checking its layer after each, stopping at the first that fails (or does not
    take). Only findings the user confirmed are fixed; one that comes back is not retried.
    ``run`` is filled as it goes (the caller keeps it when a cancel discards the return)."""
    events = events or Events()
    wanted = {item.finding.code for item in confirmed}
    done: set[str] = set()
    run = run if run is not None else Run()
    report = session.run_all(events.progress, cancelled)
    for _ in range(MAX_STEPS):
        todo = [(layer, f) for layer, f in candidates(report, frozenset(done))
                if f.code in wanted]
        if not todo:
            break
        layer, finding = todo[0]
        done.add(finding.code)
        step = Step(layer, finding)
        run.steps.append(step)
        number = len(run.steps)
        events.step(number - 1, msg("fixgui.all.step", n=number,
                                    title=codes.title(finding.code)))
        _run_step(session, step, events, cancelled)
        if step.outcome is not None:  # something may have changed: look again, even after a stop
            events.step(number - 1, msg("fixgui.all.rechecking", n=number))
            adopt_environment(session, step.prepared)
            session.recheck(layer, events.progress, _never)
            report = session.run_all(events.progress, _never)
            run.report = report
        if step.error is None and step.outcome is not None and step.outcome.ok:
            still = report.layer(layer)
            if still is not None and any(f.code == finding.code and f.severity == FAIL
                                         for f in still.findings):
                step.error = msg("fixgui.all.still_there")
        if not step.ok:
            cancelled_now = step.outcome is not None and step.outcome.cancelled
            run.stopped = msg("fixgui.all.stopped_cancelled" if cancelled_now or
                              step.error == msg("fix.cancelled") else "fixgui.all.stopped_failed",
                              n=number)
            break
    run.report = report
    return run


def adopt_environment(session: Any, prepared: Optional[Prepared]) -> bool:
    """After a package fix that installed into another environment (a new one made because
    this one's Python was too new), check that environment from now on, for the TF the plan
    aimed at. True when the session's choice changed."""
    if prepared is None or prepared.kind != RUN:
        return False
    python = getattr(prepared.plan, "python", None)
    if not python or getattr(session, "python", None) == python or \
            not getattr(prepared.plan, "new_env", None):
        return False
    session.select_python(python)
    tensorflow = getattr(prepared.plan, "tensorflow", None)
    if tensorflow:
        session.set_target_version(tensorflow)
    return True


def _run_step(session: Any, step: Step, events: Events, cancelled: Cancelled) -> None:
    """Plan one fix from the fresh finding and run it; a refusal or a failure is kept on the
    step (``error``) instead of raised."""
    try:
        step.prepared = prepare(session.host, step.finding, session_given(session),
                                cancelled=cancelled)
        step.outcome = execute(session.host, step.prepared, events, cancelled)
    except FixCancelled:
        step.error = msg("fix.cancelled")
    except FixError as exc:
        step.error = exc.message


# -- the cores, looked up where they are ---------------------------------------------------------

def _files_builder(action: Optional[str]) -> Any:
    from wizard.core.fixes.registry import builder

    return builder(action)


def _run_builder(action: Optional[str]) -> Any:
    from wizard.core.fixes import registry

    find = getattr(registry, "run_builder", None)
    return find(action) if find is not None else None


def _download_module() -> Any:
    try:
        from wizard.core.fixes import cudnn_download
    except ImportError:
        return None
    return cudnn_download
