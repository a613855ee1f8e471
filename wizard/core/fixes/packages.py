"""pip and conda runs in the Python environment the user chose (issue 10, item 4).

The command comes from the knowledge base and the environment, and is always addressed to that
environment's own interpreter (``"<python>" -m pip ...``; a conda environment by its prefix,
``conda install -p <prefix> ...``), never to whatever ``pip`` is first on PATH:

* TF 2.10 on native Windows in a conda environment: ``conda install -y -p <prefix> -c conda-forge
  cudatoolkit=11.2 cudnn=8.1.0`` and ``"<python>" -m pip install "tensorflow<2.11" "numpy<2"``;
  in a venv the pip line only (CUDA and cuDNN then come from the system: ``fix cuda``,
  ``fix cudnn``);
* Linux and WSL2: ``"<python>" -m pip install "tensorflow[and-cuda]"`` (CUDA from the wheels);
* an environment whose Python the target cannot run is never changed: a new conda environment
  (``conda create -y -p <conda>/envs/tf210 python=3.10``) or a venv made with a Python in range,
  then the same commands addressed to the new interpreter;
* TF distributions that would conflict (``tensorflow-intel`` of a 2.15, ``tensorflow-cpu``) are
  uninstalled first.

For the GUI::

    plan = plan_tensorflow(host, python=None, tensorflow=None)   # or plan_pip(host, python, reqs)
    plan.lines(lang)            # the plan in words: every command as it will run, the notes
    result = run_plan(host, plan, on_line=..., progress=..., cancelled=...)
    result.ok, result.message, result.go_back, result.record
    layer = recheck(host, plan)  # the tensorflow layer, checked again in that environment

``on_line(text)`` gets each output line as it comes, ``progress(fraction, text)`` the command
being run, ``cancelled()`` is polled and kills the whole process tree. A replayed profile refuses
to run (:class:`~wizard.core.fixes.plan.FixError`, demo mode): the plan is what would run.

A pip run cannot be undone exactly (files a package wrote, a package's own downgrades); the
runner records ``pip freeze --all`` before and after in the state folder (``installs/<id>``)
and gives the commands that go back to the list before (:func:`go_back_commands`); a conda
environment also gets ``conda install --revision N``, a new environment its removal.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from wizard.core import envs, knowledge
from wizard.core.fixes import journal as journals
from wizard.core.fixes.plan import FixError
from wizard.core.host import Host, ProbeResult
from wizard.core.messages import Message, msg, render, to_data

ACTION = "pip_install"
PIP_ENV = {"PIP_NO_INPUT": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1", "PIP_PROGRESS_BAR": "off"}
"""pip without questions, version nags or progress bars (the output goes to a log)."""
NUMPY_1_BEFORE_TF = "2.16"
"""TF releases before this one declare no ``numpy<2`` but were built against NumPy 1."""
CONDA_CUDNN = {"8.1": "8.1.0"}
"""conda-forge's cudnn spelling where TensorFlow's install guide names it (TF 2.10 on Windows:
``cudnn=8.1.0``, https://www.tensorflow.org/install/pip#windows-native); else the series."""
_SPECIAL = re.compile(r"[\s<>|&^()\[\]!*;,'\"$`]")

LineFn = Callable[[str], None]
ProgressFn = Callable[[float, str], None]
CancelledFn = Callable[[], bool]


# ======================================================================================
# the plan
# ======================================================================================


@dataclass(frozen=True)
class Command:
    """One program run: its exact argv, what it does (``conda_create``, ``conda_install``,
    ``venv``, ``pip_uninstall``, ``pip_install``) and the variables added to its environment."""

    argv: tuple[str, ...]
    kind: str
    env: tuple[tuple[str, str], ...] = ()

    def text(self) -> str:
        """The command as a user would type it (paths in quotes, a requirement with ``<`` or
        ``[`` quoted), the same in cmd, PowerShell and bash."""
        return " ".join(quote(arg) for arg in self.argv)

    def to_dict(self) -> dict[str, Any]:
        return {"argv": list(self.argv), "kind": self.kind, "env": dict(self.env)}


def quote(arg: str) -> str:
    """``arg`` quoted for a terminal when it needs it (always a path: it may hold a space)."""
    if '"' in arg or "$" in arg or "`" in arg:
        return shlex.quote(arg)
    if _SPECIAL.search(arg) or re.search(r"[\\/]", arg):
        return f'"{arg}"'
    return arg


@dataclass
class PackagePlan:
    """What a package fix would run, in order, and in which environment."""

    title: Message
    python: str
    """The interpreter the packages go into (for a new environment: the one it will have)."""
    commands: list[Command]
    prefix: Optional[str] = None
    conda: bool = False
    new_env: Optional[str] = None
    """The folder of the environment this plan creates (None: an existing one is changed)."""
    conda_exe: Optional[str] = None
    conda_revision: Optional[int] = None
    """The conda history revision of the environment before the run (its undo point)."""
    requirements: list[str] = field(default_factory=list)
    notes: list[Message] = field(default_factory=list)
    tensorflow: Optional[str] = None
    """The TF the check should aim for afterwards (what the user asked for; None: installed)."""
    action: str = ACTION
    verify: dict[str, Any] = field(default_factory=lambda: {"layer": "tensorflow"})

    @property
    def empty(self) -> bool:
        return not self.commands

    def messages(self) -> list[Message]:
        """The plan in words: the title, each command as it will run, the notes."""
        lines: list[Message] = [self.title]
        total = len(self.commands)
        for number, command in enumerate(self.commands, start=1):
            lines.append(msg("installs.plan.command", n=number, total=total,
                             command=command.text()))
        lines.extend(self.notes)
        return lines

    def lines(self, lang: str) -> list[str]:
        return [render(m, lang) for m in self.messages()]

    def to_dict(self) -> dict[str, Any]:
        return {"action": self.action, "title": to_data(self.title), "python": self.python,
                "prefix": self.prefix, "conda": self.conda, "new_env": self.new_env,
                "conda_exe": self.conda_exe, "conda_revision": self.conda_revision,
                "requirements": list(self.requirements), "tensorflow": self.tensorflow,
                "commands": [c.to_dict() for c in self.commands],
                "notes": to_data(self.notes), "verify": self.verify}


@dataclass(frozen=True)
class Environment:
    """The environment a plan addresses, as its probe describes it."""

    python: str
    version: Optional[str]
    prefix: Optional[str]
    conda: bool
    packages: dict[str, Optional[str]]

    @classmethod
    def of(cls, host: Host, python: str, probe: Optional[ProbeResult]) -> Environment:
        info = probe.python if probe is not None else {}
        prefix = info.get("prefix") or None
        conda = bool(info.get("conda")) or bool(
            prefix and host.is_dir(host.join(prefix, "conda-meta")))
        return cls(python, str(info.get("version") or "") or None, prefix, conda,
                   dict(probe.packages) if probe is not None else {})


def pip_command(python: str, args: list[str], env: Environment | None = None,
                host: Host | None = None) -> Command:
    """``"<python>" -m pip <args>``; a conda environment on Windows gets its activation folders
    on PATH (its Python finds the SSL DLLs in ``Library\\bin`` only so)."""
    extra = dict(PIP_ENV)
    if env is not None and env.conda and env.prefix and host is not None and host.is_windows:
        extra["PATH"] = ";".join([*_conda_activation_dirs(host, env.prefix),
                                  host.getenv("PATH") or ""])
    kind = "pip_uninstall" if args[:1] == ["uninstall"] else "pip_install"
    return Command((python, "-m", "pip", *args), kind, tuple(sorted(extra.items())))


def _conda_activation_dirs(host: Host, prefix: str) -> list[str]:
    parts = (("Library", "mingw-w64", "bin"), ("Library", "usr", "bin"), ("Library", "bin"),
             ("Scripts",), ("bin",))
    return [prefix] + [host.join(prefix, *part) for part in parts]


def plan_pip(host: Host, python: str, requirements: list[str],
             probe: Optional[ProbeResult] = None, uninstall: Optional[list[str]] = None,
             extra_args: Optional[list[str]] = None, title: Optional[Message] = None
             ) -> PackagePlan:
    """Install ``requirements`` with the pip of ``python`` (``extra_args`` such as
    ``--no-index --find-links DIR`` go before them), after uninstalling ``uninstall``."""
    env = Environment.of(host, python, probe)
    commands = []
    if uninstall:
        commands.append(pip_command(python, ["uninstall", "-y", *uninstall], env, host))
    commands.append(pip_command(python, ["install", *(extra_args or []), *requirements],
                                env, host))
    return PackagePlan(
        title=title or msg("installs.plan.title", packages=" ".join(requirements),
                           python=python),
        python=python, commands=commands, prefix=env.prefix, conda=env.conda,
        requirements=list(requirements),
        conda_exe=find_conda(host, env.prefix) if env.conda else None,
        conda_revision=conda_revision(host, env.prefix) if env.conda and env.prefix else None,
        notes=[_undo_note(host, env)])


def parse_pip_command(host: Host, command: str) -> tuple[str, list[str]]:
    """A finding's pip line (``"<python>" -m pip install ...`` or ``conda run -p "<prefix>"
    python -m pip ...``) as the interpreter it addresses and pip's arguments. ValueError when
    it is addressed to no interpreter (a bare ``pip``)."""
    argv = shlex.split(command.replace("\\", "\x00"))
    argv = [arg.replace("\x00", "\\") for arg in argv]
    if len(argv) > 4 and host.path.basename(argv[0]).lower() in ("conda", "conda.exe") and \
            argv[1] == "run" and argv[2] == "-p":
        python = envs.env_python(host, argv[3])
        argv = [python, *argv[argv.index("python") + 1:]] if "python" in argv else []
    if len(argv) < 4 or argv[1:3] != ["-m", "pip"] or not re.search(r"[\\/]", argv[0]):
        raise ValueError(f"not addressed to an interpreter: {command}")
    return argv[0], argv[3:]


def plan_command(host: Host, command: str, probe: Optional[ProbeResult] = None
                 ) -> PackagePlan:
    """Exactly the pip line a finding gives (``pip install "numpy<2"``, a PyTorch wheel from its
    index), run with that environment's interpreter."""
    try:
        python, args = parse_pip_command(host, command)
    except ValueError:
        raise FixError(msg("installs.refuse.not_addressed", command=command)) from None
    env = Environment.of(host, python, probe)
    pip = pip_command(python, args, env, host)
    packages_ = [a for a in args[1:] if not a.startswith("-")]
    return PackagePlan(
        title=msg("installs.plan.title", packages=" ".join(packages_), python=python),
        python=python, commands=[pip], prefix=env.prefix, conda=env.conda,
        requirements=packages_, notes=[_undo_note(host, env)])


# -- TensorFlow -------------------------------------------------------------------------------


@dataclass(frozen=True)
class TfTarget:
    """What to install: the TF requirement line, the Python it needs, CUDA/cuDNN from where."""

    tensorflow: str
    series: str
    requirements: tuple[str, ...]
    python_range: Optional[str]
    cuda: Optional[str]
    cudnn: Optional[str]
    pip_cuda: bool
    package: str


def tf_target(os_kind: str, requested: Optional[str], installed: Optional[str],
              where: Optional[str] = None) -> TfTarget:
    """The TF to install: ``requested`` (``--tf``), else the installed one's series, else the
    recommended one; on native Windows never one without GPU support (2.11+ becomes 2.10)."""
    try:
        target = knowledge.choose_target(os_kind, requested=requested, installed=installed,
                                         installed_where=where)
        if not target.gpu_supported and os_kind == "windows":
            target = knowledge.choose_target(os_kind, requested=knowledge.last_windows_gpu_tf())
        requirement = knowledge.tf_requirement(target.tensorflow, os_kind)
        line = knowledge.install_command(target.tensorflow, os_kind)
    except ValueError as exc:
        raise FixError(msg("fix.refuse.bad_tf", reason=str(exc))) from None
    assert requirement is not None  # choose_target answered from the same table
    requirements = [arg for arg in shlex.split(line)[2:] if not arg.startswith("-")]
    if knowledge.compare_versions(requirement.series, NUMPY_1_BEFORE_TF) < 0:
        requirements.append("numpy<2")
    return TfTarget(target.tensorflow, requirement.series, tuple(requirements), target.python,
                    requirement.cuda, requirement.cudnn, requirement.pip_cuda,
                    requirement.package)


def plan_tensorflow(host: Host, python: Optional[str] = None, tensorflow: Optional[str] = None,
                    probe: Optional[ProbeResult] = None,
                    cancelled: Optional[CancelledFn] = None) -> PackagePlan:
    """The commands that install a GPU-capable TensorFlow for this machine into ``python``
    (default: the environment ``check`` chooses), or into a new environment when its Python
    cannot run it. Raises FixError (a Message) when there is no way."""
    if probe is None or not python:
        python, probe, _ = envs.choose_environment(host, python, cancelled=cancelled)
        probe = ProbeResult.of(probe)
    if not python:
        rec = knowledge.tf_requirement(knowledge.recommended_tf(host.platform.os_kind),
                                       host.platform.os_kind)
        raise FixError(msg("installs.refuse.no_python", range=rec.python if rec else "3"))
    if probe is None or probe.error:
        raise FixError(msg("installs.refuse.probe_failed", python=python,
                           reason=(probe.error if probe is not None else None) or "?"))
    env = Environment.of(host, python, probe)
    os_kind = host.platform.os_kind
    target = tf_target(os_kind, tensorflow, envs.tf_version(probe), python)
    fits = _python_fits(env.version, target.python_range)
    if fits:
        return _into_this_env(host, env, target, tensorflow)
    return _into_new_env(host, env, target, tensorflow)


def _python_fits(version: Optional[str], python_range: Optional[str]) -> bool:
    if not version or not python_range:
        return True
    try:
        return knowledge.python_supported(version, python_range)
    except ValueError:
        return True


def _conflicts(env: Environment, target: TfTarget) -> list[str]:
    """TF distributions installed beside the target's own that would shadow or break it."""
    return sorted(name for name in envs.TF_DISTRIBUTIONS
                  if env.packages.get(name) and name != target.package)


def _conda_libraries(conda: str, prefix: str, target: TfTarget) -> Optional[Command]:
    """The CUDA toolkit and cuDNN from conda-forge into this conda environment, where the
    target loads them from the system (native Windows, and Linux TF before ``[and-cuda]``)."""
    if target.pip_cuda or not target.cuda or not target.cudnn:
        return None
    cudnn = CONDA_CUDNN.get(target.cudnn, target.cudnn)
    return Command((conda, "install", "-y", "-p", prefix, "-c", "conda-forge",
                    f"cudatoolkit={target.cuda}", f"cudnn={cudnn}"), "conda_install")


def _into_this_env(host: Host, env: Environment, target: TfTarget,
                   requested: Optional[str]) -> PackagePlan:
    commands: list[Command] = []
    notes: list[Message] = []
    conda = find_conda(host, env.prefix) if env.conda else None
    libraries = _conda_libraries(conda, env.prefix, target) if conda and env.prefix else None
    if libraries:
        commands.append(libraries)
        notes.append(msg("installs.plan.conda_libraries", cuda=target.cuda, cudnn=target.cudnn))
    conflicts = _conflicts(env, target)
    if conflicts:
        commands.append(pip_command(env.python, ["uninstall", "-y", *conflicts], env, host))
        notes.append(msg("installs.plan.conflicts", packages=", ".join(conflicts)))
    commands.append(pip_command(env.python, ["install", *target.requirements], env, host))
    notes.extend(_cuda_notes(target, libraries is not None))
    notes.append(_undo_note(host, env, conda))
    return PackagePlan(
        title=msg("installs.plan.title", packages=" ".join(target.requirements),
                  python=env.python),
        python=env.python, commands=commands, prefix=env.prefix, conda=env.conda,
        conda_exe=conda, requirements=list(target.requirements),
        conda_revision=conda_revision(host, env.prefix) if env.conda and env.prefix else None,
        notes=notes, tensorflow=requested)


def _into_new_env(host: Host, env: Environment, target: TfTarget,
                  requested: Optional[str]) -> PackagePlan:
    """This Python cannot run the target: a new conda environment (conda found), else a venv
    made with a Python in range that discovery found; never a change to this one."""
    newest = _newest_in_range(target.python_range or "")
    name = "tf" + target.series.replace(".", "")
    why = msg("installs.plan.why_new_env", python=env.python, version=env.version,
              tensorflow=target.series, range=target.python_range)
    conda = find_conda(host, env.prefix if env.conda else None)
    if conda:
        prefix = _free_folder(host, host.join(conda_root(host, conda), "envs", name))
        python = _python_in(host, prefix, conda=True)
        commands = [Command((conda, "create", "-y", "-p", prefix, "-c", "conda-forge",
                             f"python={newest}"), "conda_create")]
        libraries = _conda_libraries(conda, prefix, target)
        if libraries:
            commands.append(libraries)
        new_env = Environment(python, newest, prefix, True, {})
        undo = msg("installs.plan.undo_new_env",
                   command=Command((conda, "env", "remove", "-y", "-p", prefix), "").text())
    else:
        base = _base_python(host, target.python_range)
        if base is None:
            raise FixError(msg("installs.refuse.python_too_new", python=env.python,
                               version=env.version or "?", tensorflow=target.series,
                               range=target.python_range, newest=newest))
        home = host.getenv("USERPROFILE" if host.is_windows else "HOME") or "."
        prefix = _free_folder(host, host.join(home, name))
        python = _python_in(host, prefix, conda=False)
        commands = [Command((base, "-m", "venv", prefix), "venv")]
        libraries = None
        new_env = Environment(python, newest, prefix, False, {})
        undo = msg("installs.plan.undo_new_env_folder", folder=prefix)
    commands.append(pip_command(python, ["install", *target.requirements], new_env, host))
    notes = [why]
    if libraries:
        notes.append(msg("installs.plan.conda_libraries", cuda=target.cuda, cudnn=target.cudnn))
    notes.extend(_cuda_notes(target, libraries is not None))
    notes.append(undo)
    return PackagePlan(
        title=msg("installs.plan.title_new_env", prefix=prefix, version=newest,
                  packages=" ".join(target.requirements)),
        python=python, commands=commands, prefix=prefix, conda=bool(conda), new_env=prefix,
        conda_exe=conda, requirements=list(target.requirements), notes=notes,
        tensorflow=requested)


def _cuda_notes(target: TfTarget, from_conda: bool) -> list[Message]:
    if target.pip_cuda:
        return [msg("installs.plan.cuda_from_wheels")]
    if target.cuda and not from_conda:
        return [msg("installs.plan.system_cuda", cuda=target.cuda, cudnn=target.cudnn)]
    return []


def _undo_note(host: Host, env: Environment, conda: Optional[str] = None) -> Message:
    revision = conda_revision(host, env.prefix) if env.conda and env.prefix else None
    conda = conda or (find_conda(host, env.prefix) if env.conda else None)
    if conda and env.prefix and revision is not None:
        back = Command((conda, "install", "-y", "-p", env.prefix, "--revision", str(revision)),
                       "")
        return msg("installs.plan.undo_conda", command=back.text(), revision=revision)
    return msg("installs.plan.undo_pip")


def _newest_in_range(range_text: str) -> str:
    versions = re.findall(r"\d+\.\d+", range_text)
    return versions[-1] if versions else "3.10"


def _free_folder(host: Host, wanted: str) -> str:
    """``wanted``, or ``wanted-2``, ``-3``... when a folder of that name is there already."""
    candidate, number = wanted, 1
    while host.exists(candidate):
        number += 1
        candidate = f"{wanted}-{number}"
    return candidate


def _python_in(host: Host, prefix: str, conda: bool) -> str:
    """The interpreter a new environment at ``prefix`` will have."""
    if host.is_windows:
        return host.join(prefix, "python.exe") if conda else host.join(prefix, "Scripts",
                                                                           "python.exe")
    return host.join(prefix, "bin", "python")


def _base_python(host: Host, python_range: Optional[str]) -> Optional[str]:
    """A Python in ``python_range`` that is not itself a venv or conda env (to make a venv)."""
    found = []
    for env in envs.discover(host):
        if not env.usable or env.kind in ("venv", "conda") or not env.executable:
            continue
        if env.version and _python_fits(env.version, python_range):
            found.append(env)
    if not found:
        return None
    found.sort(key=lambda e: knowledge.try_parse_version(e.version) or (0,), reverse=True)
    return found[0].executable


# -- conda ------------------------------------------------------------------------------------


def conda_root(host: Host, conda: str) -> str:
    """The conda installation of the ``conda`` executable (``<root>/bin/conda``,
    ``<root>\\Scripts\\conda.exe``, ``<root>\\condabin\\conda.bat``)."""
    return host.path.dirname(host.path.dirname(conda))


def find_conda(host: Host, prefix: Optional[str]) -> Optional[str]:
    """The conda that manages ``prefix`` (its root's, for ``<root>/envs/<name>``), else
    ``CONDA_EXE``, else ``conda`` on PATH; None when there is none."""
    names = (("Scripts", "conda.exe"), ("condabin", "conda.bat")) if host.is_windows else (
        ("bin", "conda"), ("condabin", "conda"))
    roots = []
    if prefix:
        roots.append(prefix)
        parent = host.path.dirname(prefix.rstrip("\\/"))
        if host.path.basename(parent).lower() == "envs":
            roots.insert(0, host.path.dirname(parent))
    for root in roots:
        for parts in names:
            candidate = host.join(root, *parts)
            if host.is_file(candidate):
                return candidate
    exe = host.getenv("CONDA_EXE")
    if exe and host.is_file(exe):
        return exe
    return host.which("conda")


def conda_revision(host: Host, prefix: Optional[str]) -> Optional[int]:
    """The environment's current conda revision (``conda list --revisions``), from
    ``conda-meta/history``: one ``==> date <==`` header per revision, the first is 0."""
    if not prefix:
        return None
    text = host.read_text(host.join(prefix, "conda-meta", "history"), max_bytes=16 << 20)
    if text is None:
        return None
    count = sum(1 for line in text.splitlines() if line.startswith("==>"))
    return max(0, count - 1)


# ======================================================================================
# running it
# ======================================================================================


@dataclass
class PackageResult:
    """How a package plan ran. ``ok``: every command ended with status 0."""

    ok: bool
    message: Message
    returncode: Optional[int] = None
    cancelled: bool = False
    failed: Optional[Command] = None
    go_back: list[str] = field(default_factory=list)
    """Commands that go back to the packages before (see the module docstring)."""
    record: str = ""
    """The folder with the plan, the output, ``pip freeze`` before and after."""


def run_plan(host: Host, plan: PackagePlan, on_line: Optional[LineFn] = None,
             progress: Optional[ProgressFn] = None,
             cancelled: Optional[CancelledFn] = None) -> PackageResult:
    """Run the plan's commands in order through the Host, stopping at the first that fails or
    when cancelled. Raises FixError only when nothing may run (demo mode)."""
    if not host.can_write:
        raise FixError(msg("installs.refuse.demo"))
    record = _record_folder(plan)
    before = freeze(host, plan.python) if not plan.new_env else ""
    _write(record, "freeze-before.txt", before)
    outcome = _run_commands(host, plan, record, on_line, progress, cancelled)
    after = freeze(host, plan.python)
    _write(record, "freeze-after.txt", after)
    outcome.go_back = go_back_commands(plan, before, after, record)
    outcome.record = record
    _write(record, "result.json", json.dumps(
        {"ok": outcome.ok, "returncode": outcome.returncode, "cancelled": outcome.cancelled,
         "failed": outcome.failed.to_dict() if outcome.failed else None,
         "go_back": outcome.go_back, "message": to_data(outcome.message)}, indent=2))
    if progress is not None:
        progress(1.0, "")
    return outcome


def _run_commands(host: Host, plan: PackagePlan, record: str, on_line: Optional[LineFn],
                  progress: Optional[ProgressFn], cancelled: Optional[CancelledFn]
                  ) -> PackageResult:
    log_path = os.path.join(record, "output.log")
    total = len(plan.commands)
    with open(log_path, "a", encoding="utf-8") as log:
        def line(text: str) -> None:
            log.write(text + "\n")
            log.flush()
            if on_line is not None:
                on_line(text)

        for index, command in enumerate(plan.commands):
            if progress is not None:
                progress(index / total, command.text())
            line("$ " + command.text())
            result = host.run_streaming(list(command.argv), on_line=line, cancelled=cancelled,
                                        env=dict(command.env))
            if result.cancelled or (cancelled is not None and cancelled()):
                return PackageResult(False, msg("installs.run.cancelled",
                                                command=command.text()),
                                     cancelled=True, failed=command)
            if result.not_found:
                return PackageResult(False, msg("installs.run.not_found", program=command.argv[0],
                                                reason=result.stderr or "?"),
                                     failed=command)
            if not result.ok:
                return PackageResult(False, msg("installs.run.failed", command=command.text(),
                                                code=result.returncode, log=log_path),
                                     returncode=result.returncode, failed=command)
    return PackageResult(True, msg("installs.run.done", count=total), returncode=0)


def freeze(host: Host, python: str) -> str:
    """``pip freeze --all`` of ``python`` ("" when it cannot be asked)."""
    if not host.is_file(python):
        return ""
    result = host.run([python, "-m", "pip", "freeze", "--all", "--disable-pip-version-check"],
                      timeout=120)
    return result.stdout if result.ok else ""


_FREEZE_LINE = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:==|\s@\s)")


def parse_freeze(text: str) -> dict[str, str]:
    """``pip freeze`` lines by normalised name (``name==1.0`` or ``name @ url``); editable and
    comment lines are left out."""
    packages: dict[str, str] = {}
    for raw in text.splitlines():
        line = raw.strip()
        match = _FREEZE_LINE.match(line)
        if match:
            packages[re.sub(r"[-_.]+", "-", match.group(1)).lower()] = line
    return packages


def go_back_commands(plan: PackagePlan, before: str, after: str, record: str) -> list[str]:
    """What takes the environment back: a new environment removed; else pip uninstalls what
    was added and reinstalls what changed or went, as listed before; a conda environment
    also its revision."""
    if plan.new_env:
        if plan.conda and plan.conda_exe:
            return [Command((plan.conda_exe, "env", "remove", "-y", "-p", plan.new_env),
                            "").text()]
        return [render(msg("installs.plan.undo_new_env_folder", folder=plan.new_env))]
    old, new = parse_freeze(before), parse_freeze(after)
    commands: list[str] = []
    if plan.conda and plan.conda_exe and plan.prefix and plan.conda_revision is not None and \
            any(c.kind == "conda_install" for c in plan.commands):
        commands.append(Command((plan.conda_exe, "install", "-y", "-p", plan.prefix,
                                 "--revision", str(plan.conda_revision)), "").text())
    added = sorted(set(new) - set(old))
    if added:
        commands.append(Command((plan.python, "-m", "pip", "uninstall", "-y", *added),
                                "").text())
    changed = sorted(name for name in old if new.get(name) != old[name])
    if changed:
        wanted = os.path.join(record, "go-back-requirements.txt")
        _write(record, "go-back-requirements.txt",
               "".join(old[name] + "\n" for name in changed))
        commands.append(Command((plan.python, "-m", "pip", "install", "--no-deps", "-r", wanted),
                                "").text())
    return commands


def _record_folder(plan: PackagePlan) -> str:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    folder = os.path.join(journals.state_dir(), "installs", f"{stamp}-{os.getpid()}")
    number = 1
    base = folder
    while os.path.exists(folder):
        number += 1
        folder = f"{base}-{number}"
    os.makedirs(folder)
    _write(folder, "plan.json", json.dumps(plan.to_dict(), indent=2, ensure_ascii=False))
    return folder


def _write(folder: str, name: str, text: str) -> None:
    with open(os.path.join(folder, name), "w", encoding="utf-8") as handle:
        handle.write(text)


def recheck(host: Host, plan: PackagePlan, cancelled: Optional[CancelledFn] = None) -> Any:
    """The tensorflow layer checked again, in the environment the plan installed into."""
    from wizard.core.fixes.verify import recheck as run_recheck

    return run_recheck(host, "tensorflow", tensorflow=plan.tensorflow, python=plan.python,
                       cancelled=cancelled)
