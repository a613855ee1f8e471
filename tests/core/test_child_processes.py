"""Every child process the wizard starts runs with the user's environment (not the frozen
bundle's library paths) and, on Windows, without a console window flashing up from the windowed
exe: each subprocess call in wizard/ passes env= from child_environment/probe_environment and
creationflags (CREATE_NO_WINDOW) or the probe's _popen_kwargs(). A new call that forgets either
fails here with its file and line."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

from wizard.core.host import process

PACKAGE = Path(__file__).resolve().parents[2] / "wizard"
CALLS = {"run", "Popen", "call", "check_call", "check_output"}
FORBIDDEN = {("os", "system"), ("os", "popen"), ("os", "startfile"), ("os", "spawnv"),
             ("os", "execv")}
# taskkill ends a probe's process tree: no environment to hand on, but no console either
ENV_EXEMPT = {("wizard/core/host/probe.py", "kill_tree")}


def _calls():
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        relative = path.relative_to(PACKAGE.parent).as_posix()
        for function in [n for n in ast.walk(tree)
                         if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]:
            for node in ast.walk(function):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                        and isinstance(node.func.value, ast.Name):
                    yield relative, function.name, node.func.value.id, node.func.attr, node


def test_every_child_process_gets_the_users_environment_and_no_console() -> None:
    problems = []
    found = 0
    for relative, function, module, name, node in _calls():
        where = f"{relative}:{node.lineno} ({function})"
        if (module, name) in FORBIDDEN:
            problems.append(f"{where}: {module}.{name} (use the Host's run)")
        if module != "subprocess" or name not in CALLS:
            continue
        found += 1
        keywords = {k.arg for k in node.keywords if k.arg}
        splats = [ast.unparse(k.value) for k in node.keywords if k.arg is None]
        no_window = "creationflags" in keywords or any("popen_kwargs" in s for s in splats) \
            or "kwargs" in splats
        if not no_window:
            problems.append(f"{where}: no creationflags (a console flashes on Windows)")
        if "env" not in keywords and (relative, function) not in ENV_EXEMPT:
            problems.append(f"{where}: no env= (the child inherits the bundle's library paths)")
    assert found >= 3, "the audit found too few calls: has the code moved?"
    assert not problems, "\n".join(problems)


def test_local_run_sets_no_window_on_windows() -> None:
    source = (PACKAGE / "core" / "host" / "local.py").read_text(encoding="utf-8")
    assert 'kwargs["creationflags"] = getattr(subprocess, "CREATE_NO_WINDOW", 0)' in source


def test_frozen_children_get_the_original_library_path(monkeypatch) -> None:
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    bundle = {"LD_LIBRARY_PATH": "/opt/GPU-Setup-Wizard/_internal",
              "LD_LIBRARY_PATH_ORIG": "/usr/local/cuda/lib64", "QT_PLUGIN_PATH": "/bundle",
              "PATH": "/usr/bin"}
    env = process.child_environment(bundle)
    assert env["LD_LIBRARY_PATH"] == "/usr/local/cuda/lib64"
    assert "LD_LIBRARY_PATH_ORIG" not in env and "QT_PLUGIN_PATH" not in env
    assert env["PATH"] == "/usr/bin"
    # the user had none: the child has none either (not the bundle's)
    env = process.child_environment({"LD_LIBRARY_PATH": "/opt/GPU-Setup-Wizard/_internal"})
    assert "LD_LIBRARY_PATH" not in env


def test_from_source_the_environment_is_left_alone(monkeypatch) -> None:
    monkeypatch.delattr(sys, "frozen", raising=False)
    env = process.child_environment({"LD_LIBRARY_PATH": "/usr/local/cuda/lib64"})
    assert env == {"LD_LIBRARY_PATH": "/usr/local/cuda/lib64"}

