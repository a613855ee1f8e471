"""pip and conda runs in the chosen environment (wizard.core.fixes.packages): the exact commands
for each kind of environment (replayed machines), and real runs in a throwaway venv with a wheel
built here (no network): live output, exit status, cancel killing the tree, pip freeze before
and after and the way back."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Optional

import pytest

from tests.core.throwaway_env import make_venv, make_wheel
from wizard.core.fixes import packages
from wizard.core.fixes.packages import Command, PackagePlan, plan_pip, plan_tensorflow, run_plan
from wizard.core.fixes.plan import FixError
from wizard.core.host import LocalHost, ReplayHost
from wizard.core.messages import msg, render

U = "C:\\Users\\me"
CONDA = U + "\\miniconda3"


def probe(version: str, prefix: str, executable: str, conda: bool = False,
          packages_: Optional[dict[str, Optional[str]]] = None) -> dict[str, Any]:
    return {"probe": "gpu-wizard/env-probe@1",
            "python": {"version": version, "bits": 64, "executable": executable,
                       "prefix": prefix, "conda": conda, "venv": not conda},
            "packages": packages_ or {"tensorflow": None}, "tensorflow": None, "torch": None,
            "log": ""}


def windows_host(pythons: list[dict[str, Any]], files: Optional[dict[str, Any]] = None,
                 env: Optional[dict[str, str]] = None) -> ReplayHost:
    base_files = {
        CONDA + "\\python.exe": None,
        CONDA + "\\Scripts\\conda.exe": None,
        CONDA + "\\condabin\\conda.bat": None,
        CONDA + "\\conda-meta\\python-3.12.1-h.json": "{}",
    }
    return ReplayHost({
        "format": "gpu-wizard/profile@1", "name": "win-installs",
        "platform": {"system": "windows", "release": "10.0.22631", "wsl": None},
        "env": {"USERPROFILE": U, "Path": "C:\\Windows\\system32", **(env or {})},
        "files": {**base_files, **(files or {})},
        "pythons": pythons, "nvml": {"error": "library_not_found"},
    })


def linux_host(pythons: list[dict[str, Any]], files: Optional[dict[str, Any]] = None,
               wsl: Optional[int] = None) -> ReplayHost:
    return ReplayHost({
        "format": "gpu-wizard/profile@1", "name": "linux-installs",
        "platform": {"system": "linux", "release": "6.5.0", "wsl": wsl},
        "env": {"HOME": "/home/me", "PATH": "/usr/bin"}, "files": files or {},
        "pythons": pythons, "nvml": {"error": "library_not_found"},
    })


def texts(plan: PackagePlan) -> list[str]:
    return [command.text() for command in plan.commands]


# -- the commands ------------------------------------------------------------------------------


def test_tf210_in_a_windows_conda_env_gets_conda_cuda_and_the_env_own_pip() -> None:
    env = CONDA + "\\envs\\tf"
    python = env + "\\python.exe"
    host = windows_host(
        [{"executable": python, "probe": probe("3.10.13", env, python, conda=True)}],
        {python: None, env + "\\conda-meta\\history": "==> 2024-01-01 <==\n+python\n"
                                                     "==> 2024-01-02 <==\n+numpy\n"})
    plan = plan_tensorflow(host, python=python)
    assert texts(plan) == [
        f'"{CONDA}\\Scripts\\conda.exe" install -y -p "{env}" -c conda-forge '
        "cudatoolkit=11.2 cudnn=8.1.0",
        f'"{python}" -m pip install "tensorflow<2.11" "numpy<2"',
    ]
    assert plan.python == python and plan.new_env is None and plan.conda_revision == 1
    pip = plan.commands[-1]
    assert pip.argv[0] == python and dict(pip.env)["PIP_NO_INPUT"] == "1"
    assert dict(pip.env)["PATH"].startswith(f"{env};{env}\\Library\\mingw-w64\\bin;")
    words = "\n".join(plan.lines("en"))
    assert "revision 1" in words and "--revision 1" in words
    assert "conda-forge into this conda environment only" in words
    assert all(line for line in plan.lines("zh_CN"))


def test_a_windows_conda_env_too_new_gets_a_new_conda_env_with_python_310() -> None:
    env = CONDA + "\\envs\\ml"
    python = env + "\\python.exe"
    host = windows_host(
        [{"executable": python, "probe": probe("3.12.1", env, python, conda=True)}],
        {python: None, env + "\\conda-meta\\python-3.12.1-h.json": "{}",
         CONDA + "\\envs\\tf210\\python.exe": None})  # taken: the next free name is used
    plan = plan_tensorflow(host, python=python)
    new = CONDA + "\\envs\\tf210-2"
    assert plan.new_env == new and plan.python == new + "\\python.exe"
    assert texts(plan) == [
        f'"{CONDA}\\Scripts\\conda.exe" create -y -p "{new}" -c conda-forge python=3.10',
        f'"{CONDA}\\Scripts\\conda.exe" install -y -p "{new}" -c conda-forge '
        "cudatoolkit=11.2 cudnn=8.1.0",
        f'"{new}\\python.exe" -m pip install "tensorflow<2.11" "numpy<2"',
    ]
    assert not any(python in c.argv for c in plan.commands), "the old env is never changed"
    words = "\n".join(plan.lines("en"))
    assert "needs Python 3.7-3.10" in words and "env remove -y -p" in words


def test_tf215_in_a_windows_venv_is_replaced_by_210_and_its_conflicts_go_first() -> None:
    env = U + "\\.virtualenvs\\proj"
    python = env + "\\Scripts\\python.exe"
    installed = {"tensorflow": "2.15.0", "tensorflow-intel": "2.15.0", "numpy": "1.26.4"}
    host = windows_host(
        [{"executable": python, "probe": probe("3.10.11", env, python, packages_=installed)}],
        {python: None, env + "\\pyvenv.cfg": "version = 3.10.11\n"})
    plan = plan_tensorflow(host, python=python)
    assert texts(plan) == [
        f'"{python}" -m pip uninstall -y tensorflow-intel',
        f'"{python}" -m pip install "tensorflow<2.11" "numpy<2"',
    ]
    words = "\n".join(plan.lines("en"))
    assert "loads CUDA 11.2 and cuDNN 8.1 from the system" in words
    assert "cannot be undone exactly" in words


def test_a_venv_whose_python_is_too_new_and_no_other_python_is_refused() -> None:
    env = U + "\\venv312"
    python = env + "\\Scripts\\python.exe"
    with pytest.raises(FixError) as caught:  # no conda and no other Python on this machine
        plan_tensorflow(ReplayHost(_profile_without_conda(python, env)), python=python)
    assert caught.value.message.id == "installs.refuse.python_too_new"
    assert "Install Python 3.10" in render(caught.value.message)


def _profile_without_conda(python: str, env: str) -> dict[str, Any]:
    return {"format": "gpu-wizard/profile@1", "name": "no-conda",
            "platform": {"system": "windows", "release": "10", "wsl": None},
            "env": {"USERPROFILE": U, "Path": "C:\\Windows\\system32"},
            "files": {python: None, env + "\\pyvenv.cfg": "version = 3.12.1\n"},
            "pythons": [{"executable": python, "probe": probe("3.12.1", env, python)}],
            "nvml": {"error": "library_not_found"}}


@pytest.mark.parametrize("wsl", [None, 2])
def test_linux_and_wsl2_get_tensorflow_and_cuda_from_the_env_own_pip(wsl: Optional[int]) -> None:
    python = "/home/me/venvs/tf/bin/python"
    host = linux_host([{"executable": python, "probe": probe("3.11.7", "/home/me/venvs/tf",
                                                             python)}], {python: None}, wsl)
    plan = plan_tensorflow(host, python=python)
    assert texts(plan) == [f'"{python}" -m pip install "tensorflow[and-cuda]"']
    assert "PATH" not in dict(plan.commands[0].env)
    assert any(m.id == "installs.plan.cuda_from_wheels" for m in plan.notes)


def test_a_linux_python_too_new_gets_a_venv_from_a_python_in_range() -> None:
    python = "/home/me/venvs/new/bin/python"
    files = {python: None, "/home/me/venvs/new/pyvenv.cfg": "version = 3.14.0\n",
             "/usr/bin/python3.12": None}
    host = ReplayHost({
        "format": "gpu-wizard/profile@1", "name": "linux",
        "platform": {"system": "linux", "release": "6.5.0", "wsl": None},
        "env": {"HOME": "/home/me", "PATH": "/usr/bin"}, "files": files,
        "commands": [{"argv": ["/usr/bin/python3.12", "--version"], "returncode": 0,
                      "stdout": "Python 3.12.3\n", "stderr": ""}],
        "pythons": [{"executable": python, "probe": probe("3.14.0", "/home/me/venvs/new",
                                                          python)}],
        "nvml": {"error": "library_not_found"}})
    target = packages.tf_target("linux", None, None)
    assert not packages._python_fits("3.14.0", target.python_range), target.python_range
    plan = plan_tensorflow(host, python=python)
    assert plan.new_env == "/home/me/tf" + target.series.replace(".", "")
    assert plan.python == plan.new_env + "/bin/python"
    assert texts(plan) == [f'"/usr/bin/python3.12" -m venv "{plan.new_env}"',
                           f'"{plan.python}" -m pip install "tensorflow[and-cuda]"']
    assert "delete the folder" in "\n".join(plan.lines("en"))


def test_the_plan_names_a_requested_older_tf_and_the_system_cuda_it_needs() -> None:
    python = "/opt/env/bin/python"
    host = linux_host([{"executable": python, "probe": probe("3.9.18", "/opt/env", python)}],
                      {python: None})
    plan = plan_tensorflow(host, python=python, tensorflow="2.12")
    assert texts(plan) == [f'"{python}" -m pip install "tensorflow==2.12.*" "numpy<2"']
    assert plan.tensorflow == "2.12"
    assert any(m.id == "installs.plan.system_cuda" for m in plan.notes)


def test_a_failed_probe_and_no_environment_are_refused_with_the_next_step() -> None:
    python = "/opt/env/bin/python"
    host = linux_host([{"executable": python, "probe": {"error": "timed out"}}], {python: None})
    with pytest.raises(FixError) as caught:
        plan_tensorflow(host, python=python)
    assert caught.value.message.id == "installs.refuse.probe_failed"
    with pytest.raises(FixError) as caught:
        plan_tensorflow(linux_host([]))
    assert caught.value.message.id == "installs.refuse.no_python"


def test_demo_mode_shows_the_plan_and_runs_nothing() -> None:
    python = "/opt/env/bin/python"
    host = linux_host([{"executable": python, "probe": probe("3.11.7", "/opt/env", python)}],
                      {python: None})
    plan = plan_tensorflow(host, python=python)
    with pytest.raises(FixError) as caught:
        run_plan(host, plan)
    assert caught.value.message == msg("installs.refuse.demo")


def test_commands_are_quoted_for_every_shell() -> None:
    command = Command(("C:\\Program Files\\Python310\\python.exe", "-m", "pip", "install",
                       "tensorflow<2.11", "tensorflow[and-cuda]", "six==1.16.0", "a$b"), "")
    assert command.text() == ('"C:\\Program Files\\Python310\\python.exe" -m pip install '
                              "\"tensorflow<2.11\" \"tensorflow[and-cuda]\" six==1.16.0 'a$b'")


def test_freeze_lines_and_the_way_back(tmp_path: Path) -> None:
    before = "six==1.16.0\npip==23.2.1\nlocal @ file:///tmp/local-1.0.whl\n-e git+x#egg=y\n"
    after = "six==1.17.0\npip==23.2.1\nGW_Tiny==1.0\n"
    assert set(packages.parse_freeze(before)) == {"six", "pip", "local"}
    plan = PackagePlan(msg("installs.plan.undo_pip"), "/v/bin/python", [])
    back = packages.go_back_commands(plan, before, after, str(tmp_path))
    assert back[0] == '"/v/bin/python" -m pip uninstall -y gw-tiny'
    wanted = tmp_path / "go-back-requirements.txt"
    assert back[1] == f'"/v/bin/python" -m pip install --no-deps -r "{wanted}"'
    assert (tmp_path / "go-back-requirements.txt").read_text().splitlines() == [
        "local @ file:///tmp/local-1.0.whl", "six==1.16.0"]


# -- real runs in a throwaway venv -------------------------------------------------------------


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory) -> str:
    return make_venv(tmp_path_factory.mktemp("venv") / "env")


@pytest.fixture(scope="module")
def wheels(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("wheels")
    make_wheel(folder)
    return folder


def _import_version(python: str) -> Optional[str]:
    result = subprocess.run([python, "-c", "import gw_tiny; print(gw_tiny.VERSION)"],
                            capture_output=True, text=True, timeout=60, check=False)
    return result.stdout.strip() if result.returncode == 0 else None


def test_pip_installs_into_the_chosen_venv_with_live_output_and_a_way_back(
    fix_state: Path, venv: str, wheels: Path
) -> None:
    host = LocalHost()
    plan = plan_pip(host, venv, ["gw_tiny==1.0"],
                    extra_args=["--no-index", "--find-links", str(wheels)])
    assert all(c.argv[0] == venv for c in plan.commands)
    lines: list[str] = []
    steps: list[float] = []
    result = run_plan(host, plan, on_line=lines.append,
                      progress=lambda fraction, text: steps.append(fraction))
    assert result.ok, (render(result.message), lines)
    assert result.returncode == 0 and steps[0] == 0.0 and steps[-1] == 1.0
    assert lines[0] == "$ " + plan.commands[0].text()
    assert any("Successfully installed gw_tiny-1.0" in line or
               "Successfully installed gw-tiny-1.0" in line for line in lines), lines
    assert _import_version(venv) == "1.0"
    assert _import_version(sys.executable) is None, "only that environment was changed"
    record = Path(result.record)
    assert record.parent == fix_state / "installs"
    assert "gw_tiny" not in (record / "freeze-before.txt").read_text().replace("-", "_")
    assert "gw_tiny==1.0" in (record / "freeze-after.txt").read_text().replace("-", "_")
    assert (record / "output.log").read_text().count("Successfully installed") == 1
    assert result.go_back == [f'"{venv}" -m pip uninstall -y gw-tiny']
    # the way back works: the package list is as it was before
    subprocess.run([venv, "-m", "pip", "uninstall", "-y", "gw-tiny"], check=True,
                   capture_output=True, timeout=120)
    assert _import_version(venv) is None


def test_a_failing_pip_gives_its_exit_status_and_log(fix_state: Path, venv: str,
                                                     wheels: Path) -> None:
    host = LocalHost()
    plan = plan_pip(host, venv, ["gw_tiny==9.9"],
                    extra_args=["--no-index", "--find-links", str(wheels)])
    lines: list[str] = []
    result = run_plan(host, plan, on_line=lines.append)
    assert not result.ok and result.returncode == 1 and result.failed == plan.commands[0]
    assert result.message.id == "installs.run.failed"
    assert any("No matching distribution" in line for line in lines), lines
    assert Path(result.message.params["log"]).is_file()


def test_cancel_stops_the_command_and_everything_it_started(fix_state: Path, venv: str
                                                            ) -> None:
    script = ("import subprocess, sys, time\n"
              "child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])\n"
              "print('grandchild', child.pid, flush=True)\n"
              "time.sleep(60)\n")
    plan = PackagePlan(msg("installs.plan.undo_pip"), venv,
                       [Command((venv, "-c", script), "pip_install"),
                        Command((venv, "-c", "print('never')"), "pip_install")])
    lines: list[str] = []
    result = run_plan(LocalHost(), plan, on_line=lines.append,
                      cancelled=lambda: any(line.startswith("grandchild") for line in lines))
    assert result.cancelled and not result.ok and result.message.id == "installs.run.cancelled"
    assert "never" not in lines
    pid = int(next(line for line in lines if line.startswith("grandchild")).split()[1])
    if sys.platform != "win32":
        from test_host_contract import _gone

        assert _gone(pid)


def test_a_missing_interpreter_is_one_line(fix_state: Path, tmp_path: Path) -> None:
    missing = str(tmp_path / "gone" / "bin" / "python")
    plan = plan_pip(LocalHost(), missing, ["six"])
    result = run_plan(LocalHost(), plan)
    assert not result.ok and result.message.id == "installs.run.not_found"
    assert missing in render(result.message)


# -- gpu-wizard fix tensorflow -----------------------------------------------------------------


def _cli(*args: str, state: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "GPU_WIZARD_STATE_DIR": str(state), "LANG": "en_US.UTF-8"}
    return subprocess.run([sys.executable, "-m", "wizard", "fix", "tensorflow", *args],
                          capture_output=True, text=True, timeout=300, check=False, env=env,
                          cwd=str(Path(__file__).resolve().parents[2]))


def test_cli_dry_run_shows_the_commands_for_that_environment(fix_state: Path, venv: str) -> None:
    result = _cli("--python", venv, "--dry-run", state=fix_state)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == f"Install tensorflow[and-cuda] into the Python environment {venv}"
    assert lines[1] == f'Run (1 of 1): "{venv}" -m pip install "tensorflow[and-cuda]"'
    assert lines[-1] == render(msg("fix.cli.dry_run"))
    assert not (fix_state / "installs").exists(), "a dry run runs nothing"


def test_cli_refuses_an_environment_it_cannot_ask_in_one_line(fix_state: Path,
                                                              tmp_path: Path) -> None:
    result = _cli("--python", str(tmp_path / "no" / "python"), "--yes", state=fix_state)
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "--python" in result.stderr and "Traceback" not in result.stderr


# -- every pip_install finding has a runnable plan ---------------------------------------------

PROFILES = sorted((Path(__file__).resolve().parents[2] / "tests" / "profiles").glob("*.json"))


def _pip_install_plans(host: ReplayHost) -> list[tuple[str, Any]]:
    """(finding code, plan or FixError) for every pip_install finding a check of ``host`` has."""
    from wizard.core.diagnose import run_check
    from wizard.core.fixes.registry import run_builder

    found: list[tuple[str, Any]] = []
    for layer in run_check(host).layers:
        for finding in layer.findings:
            if finding.fix is None or finding.fix.action != "pip_install":
                continue
            build = run_builder(finding.fix.action)
            assert build is not None
            try:
                plan = build(host, dict(finding.fix.action_params), {})
            except FixError as exc:
                found.append((finding.code, exc))
                continue
            for command in plan.commands:
                if command.kind.startswith("pip"):
                    assert command.argv[0] == plan.python, (finding.code, command.text())
            wanted = finding.fix.action_params.get("python")
            if wanted and not plan.new_env:
                assert host.same_path(plan.python, wanted), (plan.python, wanted)
            assert plan.lines("zh_CN") and plan.lines("en")
            with pytest.raises(FixError):  # demo mode: shown, never run
                run_plan(host, plan)
            found.append((finding.code, plan))
    return found


def test_every_pip_install_finding_builds_a_plan_addressed_to_its_environment() -> None:
    env = CONDA + "\\envs\\tf"
    python = env + "\\python.exe"
    conda_no_tf = windows_host(
        [{"executable": python, "probe": probe("3.10.13", env, python, conda=True)}],
        {python: None, env + "\\conda-meta\\python-3.10.13-h.json": "{}"})
    linux = "/home/me/venvs/tf/bin/python"
    numpy2 = probe("3.11.7", "/home/me/venvs/tf", linux,
                   packages_={"tensorflow": "2.15.0", "numpy": "2.1.0"})
    numpy2["tensorflow"] = {"imported": True, "version": "2.15.0", "built_with_cuda": True,
                            "gpus": [], "error": None}
    linux_numpy2 = linux_host([{"executable": linux, "probe": numpy2}], {linux: None})
    seen: dict[str, list[tuple[str, Any]]] = {
        path.stem: _pip_install_plans(ReplayHost.from_file(path)) for path in PROFILES}
    seen["conda-no-tf"] = _pip_install_plans(conda_no_tf)
    seen["numpy2"] = _pip_install_plans(linux_numpy2)
    for name, plans in seen.items():
        for code, outcome in plans:
            if isinstance(outcome, FixError):  # a refusal says why, in a catalogued message
                assert outcome.message.id.startswith(("installs.refuse.", "fix.refuse.")), (
                    name, code, outcome.message)
    (code, plan), = seen["conda-no-tf"]
    assert code == "tensorflow_not_installed" and texts(plan)[0].endswith(
        "cudatoolkit=11.2 cudnn=8.1.0")
    assert texts(plan)[-1] == f'"{python}" -m pip install "tensorflow<2.11" "numpy<2"'
    numpy_plans = [plan for code, plan in seen["numpy2"] if code == "numpy_abi_mismatch"]
    assert [texts(plan) for plan in numpy_plans] == [[f'"{linux}" -m pip install "numpy<2"']]


@pytest.mark.parametrize(("status", "wanted", "requirement"),
                         [("ok", 0, "gw_tiny==1.0"), ("fail", 1, "gw_tiny==1.0"),
                          ("ok", 2, "gw_tiny==9.9")])
def test_cli_exit_status_after_a_real_run(
    fix_state: Path, venv: str, wheels: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str], status: str, wanted: int, requirement: str
) -> None:
    """0: installed and the tensorflow layer is ok now; 1: installed, the layer still sees a
    problem; 2: the run failed (the layer is not checked)."""
    import argparse

    from wizard import fixcli
    from wizard.core.model import LayerResult

    monkeypatch.setattr(packages, "plan_tensorflow", lambda host, python, tensorflow: plan_pip(
        host, python, [requirement], extra_args=["--no-index", "--find-links", str(wheels)]))
    rechecked: list[str] = []

    def recheck(host: Any, plan: PackagePlan) -> LayerResult:
        rechecked.append(plan.python)
        return LayerResult("tensorflow", status, msg("installs.plan.undo_pip"))

    monkeypatch.setattr(packages, "recheck", recheck)
    args = argparse.Namespace(fix_command="tensorflow", python=venv, tf=None, dry_run=False,
                              yes=True, no_recheck=False)
    try:
        assert fixcli.cmd_packages(args, "en") == wanted
        out = capsys.readouterr()
        assert f'$ "{venv}" -m pip install' in out.out
        assert rechecked == ([venv] if wanted != 2 else [])
        if wanted != 2:
            assert "To go back to the packages as they were:" in out.out
            assert f'"{venv}" -m pip uninstall -y gw-tiny' in out.out
        else:
            assert "ended with exit status 1" in out.err
    finally:
        subprocess.run([venv, "-m", "pip", "uninstall", "-y", "gw-tiny"], capture_output=True,
                       timeout=120, check=False)
