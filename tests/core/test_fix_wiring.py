"""Issue 10: the findings lead to the fixes. Every blocking finding a check of a profile has
either carries an action whose builder (``registry.ACTIONS`` or ``registry.RUNS``) makes a plan
on that profile's machine (a replayed one: planned, never written), or says why the wizard cannot
fix it (``Fix.manual_reason``, a catalogued message in every language). The check's text output
names the ``gpu-wizard fix ...`` command of a fixable finding."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import pytest

from wizard.core import report as fmt
from wizard.core.diagnose import run_check
from wizard.core.fixes import registry
from wizard.core.fixes.plan import FixError
from wizard.core.host import ReplayHost
from wizard.core.layers import wiring
from wizard.core.messages import LANGUAGES, Message, has, render, template
from wizard.core.model import FAIL, Finding, Report

PROFILES_DIR = Path(__file__).resolve().parents[1] / "profiles"
SELFTEST_DIR = Path(__file__).resolve().parents[2] / "resources" / "selftest"
PROFILES = sorted(PROFILES_DIR.glob("*.json")) + sorted(SELFTEST_DIR.glob("*.json"))
"""The test profiles (the GUI's demo machines, ``--profile``) and the self-test's own."""
DRIVER_CODES = ("driver_too_old", "gpu_without_driver", "no_driver_or_nvidia_smi_missing")


@functools.cache
def checked(name: str) -> tuple[ReplayHost, Report]:
    path = PROFILES_DIR / f"{name}.json"
    host = ReplayHost.from_file(path if path.exists() else SELFTEST_DIR / f"{name}.json")
    return host, run_check(host)


def failures(report: Report, blocking_only: bool = False) -> list[Finding]:
    return [f for layer in report.layers for f in layer.findings
            if f.severity == FAIL and (not blocking_only or layer.layer == report.blocking_layer)]


def build(host: ReplayHost, finding: Finding, tmp_path: Path) -> Any:
    """The plan of ``finding``'s fix, with what a user hands a fix that needs a file."""
    action = finding.fix.action
    builder = registry.builder(action) or registry.run_builder(action)
    assert builder is not None, f"{finding.code}: no builder for {action!r}"
    given: dict[str, Any] = {}
    if action == "install_zlibwapi":
        dll = tmp_path / "zlibwapi.dll"
        dll.write_bytes(b"MZ" + bytes(200))
        given["file"] = str(dll)
    return builder(host, dict(finding.fix.action_params), given)


def plan_lines(plan: Any, lang: str) -> list[str]:
    return [render(m, lang) for m in plan.messages()]


@pytest.fixture(autouse=True)
def _cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from wizard.core import downloads

    monkeypatch.setenv(downloads.CACHE_ENV, str(tmp_path / "cache"))


# -- every finding: a fix or a reason ------------------------------------------------------------

@pytest.mark.parametrize("path", PROFILES, ids=lambda p: p.stem)
def test_every_failure_has_a_fix_or_a_reason(path: Path) -> None:
    _, report = checked(path.stem)
    for finding in failures(report):
        fix = finding.fix
        runnable = registry.builder(fix.action) or registry.run_builder(fix.action)
        if runnable is not None:
            continue
        assert fix.action is None, f"{finding.code}: action {fix.action!r} has no builder"
        reason = fix.manual_reason
        assert isinstance(reason, Message), (
            f"{path.stem}: {finding.code} has neither an action nor a manual_reason")
        assert reason.id != wiring.FALLBACK, f"{path.stem}: {finding.code} needs its own reason"
        for lang in LANGUAGES:
            assert has(reason.id) and template(reason.id, lang), (reason.id, lang)
            text = render(reason, lang)
            assert text and "{" not in text, (reason.id, lang, text)
        if finding.code in DRIVER_CODES:
            assert reason.id == "nofix.driver"
            assert any("nvidia.com" in link.url for link in fix.links), finding.code


@pytest.mark.parametrize("path", PROFILES, ids=lambda p: p.stem)
def test_every_blocking_action_plans_on_its_machine(path: Path, tmp_path: Path) -> None:
    host, report = checked(path.stem)
    for finding in failures(report, blocking_only=True):
        if finding.fix.action is None:
            continue
        try:
            plan = build(host, finding, tmp_path)
        except FixError as exc:
            pytest.fail(f"{path.stem}: {finding.code} ({finding.fix.action}) does not plan: "
                        f"{render(exc.message, 'en')}")
        for lang in LANGUAGES:
            assert plan_lines(plan, lang), (finding.code, lang)
        assert not host.is_live  # a replayed machine: planned, nothing written


def test_the_wiring_covers_the_broken_profiles() -> None:
    """Most broken profiles get a fix the wizard runs (not only reasons)."""
    fixable = set()
    for path in PROFILES:
        _, report = checked(path.stem)
        if any(f.fix.action for f in failures(report, blocking_only=True)):
            fixable.add(path.stem)
    for name in ("win-cuda-not-installed", "win-cuda12-instead-of-112", "win-cudart-dll-missing",
                 "win-tf210-cudnn-never-copied", "win-cudnn-partial-copy", "win-tf215-native",
                 "linux-cudnn805-mismatch", "linux-tf218-without-and-cuda",
                 "linux-tensorflow-cpu-no-cuda-wheels", "win-cudnn89-no-zlibwapi"):
        assert name in fixable, name


# -- the cuda layer: NVIDIA's installer ----------------------------------------------------------

def _only(report: Report, code: str) -> Finding:
    found = [f for f in failures(report) if f.code == code]
    assert len(found) == 1, [f.code for f in failures(report)]
    return found[0]


@pytest.mark.parametrize("name, code", [("win-cuda-not-installed", "cuda_not_installed"),
                                        ("win-cuda12-instead-of-112", "cuda_version_mismatch"),
                                        ("win-cudart-dll-missing", "cudart_missing")])
def test_cuda_findings_install_the_target_cuda(name: str, code: str, tmp_path: Path) -> None:
    host, report = checked(name)
    finding = _only(report, code)
    assert finding.fix.action == "install_cuda"
    assert finding.fix.action_params["cuda"] == "11.2"
    plan = build(host, finding, tmp_path)
    assert plan.cuda == "11.2" and "Display.Driver" not in plan.argv
    assert plan.dest.endswith("v11.2") and plan.installer is not None
    assert finding.fix.cli_command() == "gpu-wizard fix cuda --download --cuda 11.2"


def test_cuda_on_linux_says_why_not_an_installer() -> None:
    _, report = checked("linux-cuda112-cublas-missing")
    finding = _only(report, "cuda_lib_other_missing")
    assert finding.fix.action is None
    assert finding.fix.manual_reason is not None
    assert "sudo" in render(finding.fix.manual_reason, "en")


# -- the cudnn layer: the download route ---------------------------------------------------------

@pytest.mark.parametrize("name, code", [("win-tf210-cudnn-never-copied", "cudnn_missing"),
                                        ("win-cudnn-partial-copy", "cudnn_partial_install"),
                                        ("linux-cudnn805-mismatch", "cudnn_version_mismatch")])
def test_cudnn_findings_download_when_no_archive_is_given(name: str, code: str,
                                                          tmp_path: Path) -> None:
    from wizard.core.fixes.cudnn_download import DownloadPlan

    host, report = checked(name)
    finding = _only(report, code)
    params = finding.fix.action_params
    assert finding.fix.action == "install_cudnn"
    assert params["cudnn"] == "8.1" and params["cuda"] == "11.2" and params["dest"]
    plan = build(host, finding, tmp_path)
    assert isinstance(plan, DownloadPlan)
    assert plan.archive.version.startswith("8.1") and plan.dest == params["dest"]
    assert plan.url.startswith("https://developer.download.nvidia.com/")
    same = registry.builder("install_cudnn")(host, dict(params), {"download": True})
    assert isinstance(same, DownloadPlan) and same.url == plan.url
    command = finding.fix.cli_command()
    assert command is not None and command.startswith("gpu-wizard fix cudnn --download")
    assert params["dest"] in command


def test_cudnn_with_an_archive_still_takes_the_archive(tmp_path: Path) -> None:
    host, report = checked("win-tf210-cudnn-never-copied")
    finding = _only(report, "cudnn_missing")
    with pytest.raises(FixError):  # a file that is not there is refused, never downloaded
        registry.builder("install_cudnn")(host, dict(finding.fix.action_params),
                                          {"archive": str(tmp_path / "missing.zip")})


# -- the tensorflow layer: pip in the environment ------------------------------------------------

def test_windows_tf_2_11_plus_installs_tf_210(tmp_path: Path) -> None:
    host, report = checked("win-tf215-native")
    finding = _only(report, "windows_native_tf_2_11_plus")
    params = finding.fix.action_params
    assert finding.fix.action == "pip_install" and params["tensorflow"] == "2.10"
    assert params["python"] == report.python
    plan = build(host, finding, tmp_path)
    text = " ".join(c.text() for c in plan.commands)
    assert "tensorflow<2.11" in text, text
    assert finding.fix.cli_command() == (
        f'gpu-wizard fix tensorflow --python "{report.python}" --tf 2.10')


@pytest.mark.parametrize("name, code", [
    ("linux-tf218-without-and-cuda", "tensorflow_without_cuda_wheels"),
    ("linux-tensorflow-cpu-no-cuda-wheels", "gpu_not_listed_cpu_only_package")])
def test_linux_package_findings_install_and_cuda(name: str, code: str, tmp_path: Path) -> None:
    host, report = checked(name)
    finding = _only(report, code)
    assert finding.fix.action == "pip_install"
    plan = build(host, finding, tmp_path)
    assert any("tensorflow[and-cuda]" in c.text() for c in plan.commands)
    assert all(c.argv[0] == plan.python for c in plan.commands if c.kind.startswith("pip"))
    assert finding.fix.cli_command().startswith(
        f'gpu-wizard fix tensorflow --python "{finding.fix.action_params["python"]}"')


def test_a_plain_pip_line_has_no_fix_tensorflow_command() -> None:
    from wizard.core.model import Fix

    fix = Fix(action="pip_install", action_params={"python": "/v/bin/python",
                                                   "command": '"/v/bin/python" -m pip install '
                                                              '"numpy<2"'})
    assert fix.cli_command() is None  # the pip line itself is shown, ready to copy


# -- the report --------------------------------------------------------------------------------

def test_json_keys_are_additive() -> None:
    _, report = checked("win-tf210-cudnn-never-copied")
    data = json.loads(fmt.to_json(report))
    fixes = [f["fix"] for layer in data["layers"] for f in layer["findings"]]
    for fix in fixes:
        assert set(fix) == {"summary", "steps", "links", "action", "commands", "action_params",
                            "manual_reason", "cli_command"}
    cudnn = next(f for layer in data["layers"] for f in layer["findings"]
                 if f["code"] == "cudnn_missing")
    assert cudnn["fix"]["action_params"]["cudnn"] == "8.1"
    assert cudnn["fix"]["cli_command"].startswith("gpu-wizard fix cudnn --download")
    _, driver = checked("win-driver-451-too-old")
    data = json.loads(fmt.to_json(driver))
    old = next(f for layer in data["layers"] for f in layer["findings"]
               if f["code"] == "driver_too_old")
    assert "does not install" in old["fix"]["manual_reason"]
    assert old["fix"]["cli_command"] is None


@pytest.mark.parametrize("lang", LANGUAGES)
def test_check_text_names_the_fix_command(lang: str) -> None:
    _, report = checked("win-tf210-cudnn-never-copied")
    text = fmt.to_text(report, lang=lang, encoding="utf-8")
    finding = _only(report, "cudnn_missing")
    command = finding.fix.cli_command()
    line = render(Message("report.text.fix_command", {"command": command}), lang)
    assert line in text
    lines = text.splitlines()
    head = next(i for i, t in enumerate(lines) if "[cudnn_missing]" in t)
    assert any(line in t for t in lines[head:head + 30])
    if lang != "en":
        assert line != render(Message("report.text.fix_command", {"command": command}), "en")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_check_text_says_why_there_is_no_fix(lang: str) -> None:
    _, report = checked("win-driver-451-too-old")
    text = fmt.to_text(report, lang=lang, encoding="utf-8")
    finding = _only(report, "driver_too_old")
    reason = render(finding.fix.manual_reason, lang)
    assert render(Message("report.text.no_fix", {"reason": reason}), lang) in text


def test_a_healthy_report_gains_no_lines() -> None:
    _, report = checked("win-tf210-healthy")
    text = fmt.to_text(report, lang="en", encoding="utf-8")
    assert "gpu-wizard fix" not in text


@pytest.mark.timeout(240)
def test_mutated_profiles_keep_the_contract(tmp_path: Path) -> None:
    """Odd but valid machines (the fuzz test's mutations): every failure still has a fix or a
    reason of its own, and a blocking one's builder plans or refuses in words (FixError)."""
    import fuzz_profiles

    checked, planned, bad = 0, 0, []
    for label, host, report in fuzz_profiles.checked_mutations(seed=29, count=250):
        checked += 1
        blocking = set(map(id, failures(report, blocking_only=True)))
        for finding in failures(report):
            fix = finding.fix
            if not (registry.builder(fix.action) or registry.run_builder(fix.action)):
                reason = fix.manual_reason
                if reason is None or reason.id == wiring.FALLBACK:
                    bad.append(f"{label}: {finding.code} ({fix.action}): {reason}")
                continue
            if id(finding) not in blocking:
                continue
            try:
                build(host, finding, tmp_path)
                planned += 1
            except FixError as exc:
                assert render(exc.message, "zh_CN"), label
    assert not bad, "\n".join(bad[:10])
    assert checked > 100 and planned > 20, (checked, planned)


def test_every_printed_command_is_one_the_cli_takes() -> None:
    """Each ``cli_command`` of the profiles parses with ``gpu-wizard``'s own parser into the
    values of the finding's action."""
    import shlex

    from wizard.cli import build_parser

    parser = build_parser()
    seen = set()
    for path in PROFILES:
        _, report = checked(path.stem)
        for layer in report.layers:
            for finding in layer.findings:
                command = finding.fix.cli_command()
                if command is None:
                    continue
                argv = shlex.split(command.replace("\\", "\\\\"))
                assert argv[0] == "gpu-wizard"
                args = parser.parse_args(argv[1:])
                params = finding.fix.action_params
                seen.add(args.fix_command)
                if args.fix_command == "cudnn":
                    assert args.download and args.cuda_dir == params["dest"]
                elif args.fix_command == "cuda":
                    assert args.download and args.cuda == params["cuda"]
                elif args.fix_command == "tensorflow":
                    assert args.python == params["python"]
                elif args.fix_command == "path":
                    assert args.add == (params.get("append") or params.get("prepend"))
    assert {"cudnn", "cuda", "tensorflow", "path", "zlibwapi"} <= seen, seen


# -- every profile x every target: a runnable plan or a reason -----------------------------------

def _targets(host: ReplayHost) -> list[Any]:
    """The check's own target (None) and every TF series the knowledge base knows for this OS;
    on native Windows also the later ones (no GPU build there: the target says so)."""
    from wizard.core import knowledge

    series = knowledge.known_tf_versions(host.platform.os_kind)
    extra = [s for s in knowledge.known_tf_versions("linux") if s not in series]
    return [None, *series, *extra]


def _plans(host: ReplayHost, finding: Finding, tmp_path: Path) -> Any:
    """The plan of a blocking finding's fix: its default route, else (an action that takes the
    user's file: NVIDIA's installer for a CUDA the data has no download of) the file route."""
    try:
        return build(host, finding, tmp_path)
    except FixError:
        if finding.fix.action != "install_cuda":
            raise
        builder = registry.run_builder("install_cuda")
        return builder(host, dict(finding.fix.action_params),
                       {"installer": str(tmp_path / "cuda_installer.exe")})


@pytest.mark.timeout(120)
@pytest.mark.parametrize("path", PROFILES, ids=lambda p: p.stem)
def test_every_target_blocking_failure_plans_or_says_why(path: Path, tmp_path: Path) -> None:
    """Whatever TF is aimed for (``--tf`` / the GUI's target), no failure is left with an
    action its builder cannot plan and no reason (issue 10 follow-up: an ``install_cudnn`` the
    explain engine filed from a log named no folder, so the card had nothing to offer)."""
    from wizard.core.diagnose import CheckOptions

    host = ReplayHost.from_file(path)
    problems: list[str] = []
    for tf in _targets(host):
        report = run_check(host, CheckOptions(tensorflow=tf))
        blocking = set(map(id, failures(report, blocking_only=True)))
        for finding in failures(report):
            fix, where = finding.fix, f"{path.stem} --tf {tf}: {finding.code}"
            if not (registry.builder(fix.action) or registry.run_builder(fix.action)):
                if fix.action is not None or fix.manual_reason is None:
                    problems.append(f"{where}: action {fix.action!r}, no reason")
                elif fix.manual_reason.id == wiring.FALLBACK:
                    problems.append(f"{where}: only the fallback reason")
                elif "{" in render(fix.manual_reason, "zh_CN"):
                    problems.append(f"{where}: {fix.manual_reason.id} lacks a value")
                continue
            if fix.manual_reason is not None:
                problems.append(f"{where}: both an action and a reason")
            if id(finding) in blocking:
                try:
                    _plans(host, finding, tmp_path)
                except FixError as exc:
                    problems.append(f"{where} ({fix.action} {fix.action_params}): "
                                    f"{render(exc.message, 'en')}")
    assert not problems, "\n".join(problems[:12])


def _only_code(report: Report, code: str) -> list[Finding]:
    return [f for f in failures(report) if f.code == code]


def test_a_logged_cudnn_mismatch_under_pip_cuda_installs_the_wheels(tmp_path: Path) -> None:
    """linux-cudnn805-mismatch aimed at TF 2.21: the log's cuDNN mismatch (no folder named)
    becomes the TF install with its CUDA wheels in the checked environment."""
    from wizard.core.diagnose import CheckOptions

    host = ReplayHost.from_file(PROFILES_DIR / "linux-cudnn805-mismatch.json")
    report = run_check(host, CheckOptions(tensorflow="2.21"))
    assert report.target.pip_cuda
    found = _only_code(report, "cudnn_version_mismatch")
    assert found, [f.code for f in failures(report)]
    for finding in found:
        fix = finding.fix
        assert fix.action == "pip_install" and fix.manual_reason is None, fix
        assert fix.action_params["python"] == report.python
        assert fix.action_params["tensorflow"] == "2.21"
        plan = build(host, finding, tmp_path)
        assert any("tensorflow[and-cuda]" in c.text() for c in plan.commands)


def _ctx(name: str, tf: str) -> Any:
    from wizard.core.diagnose import CheckOptions, choose_environment, choose_target
    from wizard.core.layers import CheckContext

    host = ReplayHost.from_file(PROFILES_DIR / f"{name}.json")
    options = CheckOptions(tensorflow=tf)
    python, probe, env_reason = choose_environment(host, options)
    target = choose_target(host, options, probe, python, env_reason)
    return CheckContext(host=host, target=target, python=python, probe=probe)


def _logged_cudnn() -> Finding:
    """What the explain engine files: the action, no folder."""
    from wizard.core.model import Fix

    return Finding("cudnn_version_mismatch", FAIL, fix=Fix(action="install_cudnn"))


def test_a_logged_cudnn_finding_takes_the_system_toolkit(tmp_path: Path) -> None:
    """A TF that loads the system CUDA (2.10: CUDA 11.2, which this machine has): the toolkit's
    folder as dest, and the download plans into it."""
    ctx = _ctx("linux-cudnn805-mismatch", "2.10")
    assert not ctx.target.pip_cuda
    finding = wiring.wire(ctx, _logged_cudnn())
    params = finding.fix.action_params
    assert finding.fix.action == "install_cudnn" and finding.fix.manual_reason is None
    assert params["dest"] == "/usr/local/cuda-11.2" and params["cudnn"] == "8.1"
    plan = build(ctx.host, finding, tmp_path)
    assert plan.dest == "/usr/local/cuda-11.2"


@pytest.mark.parametrize("name, tf, reason_id", [
    ("linux-cudnn805-mismatch", "1.0", "nofix.cudnn_system"),  # CUDA 8: not installed
    ("win-tf210-cudnn-never-copied", "2.15", "nofix.target_no_gpu"),  # no GPU build
    ("win-cuda-not-installed", "2.10", "nofix.cuda_first"),  # no toolkit to put it in
])
def test_a_logged_cudnn_finding_without_a_toolkit_says_why(name: str, tf: str,
                                                           reason_id: str) -> None:
    ctx = _ctx(name, tf)
    finding = wiring.wire(ctx, _logged_cudnn())
    assert finding.fix.action is None and not finding.fix.action_params
    assert finding.fix.manual_reason is not None and finding.fix.manual_reason.id == reason_id
    for lang in LANGUAGES:
        assert "{" not in render(finding.fix.manual_reason, lang)


def test_a_layer_cudnn_fix_into_a_missing_toolkit_says_why() -> None:
    """A layer's install_cudnn naming the default folder of a CUDA that is not installed (TF
    1.0 wants CUDA 8) would only be refused by its builder: the reason instead."""
    from wizard.core.diagnose import CheckOptions

    host = ReplayHost.from_file(PROFILES_DIR / "linux-cudnn805-mismatch.json")
    report = run_check(host, CheckOptions(tensorflow="1.0"))
    for finding in _only_code(report, "cudnn_version_mismatch"):
        assert finding.fix.action is None
        assert finding.fix.manual_reason.id == "nofix.cudnn_system"
