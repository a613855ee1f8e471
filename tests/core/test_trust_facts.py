"""Issue 7 ("Trust"), wrong facts: what the wizard tells a user must be true of their machine
and their input (the Python series in the cuda layer's facts, strict ``compat`` versions,
OS-consistent ``explain`` steps, no maintainer notes in user text, steps that do not install TF
into a Python that cannot run it, and logs in every encoding a Windows shell writes)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Optional

import pytest

from wizard.core.diagnose import run_check
from wizard.core.host import ReplayHost
from wizard.core.knowledge.versions import series

PROFILES = sorted((Path(__file__).resolve().parents[1] / "profiles").glob("*.json"))


def _report(path: Path):
    return run_check(ReplayHost.from_file(str(path))).to_dict()


def _layer(report: dict, name: str) -> dict:
    return next(layer for layer in report["layers"] if layer["layer"] == name)


# -- the cuda layer's env.python is the environment's Python series -----------------------------

@pytest.mark.parametrize("path", PROFILES, ids=lambda p: p.stem)
def test_cuda_env_python_is_the_python_series(path: Path) -> None:
    profile = json.loads(path.read_text(encoding="utf-8"))
    env = _layer(_report(path), "cuda")["facts"].get("env")
    if not env:
        return
    versions = [((p.get("probe") or {}).get("python") or {}).get("version")
                for p in profile.get("pythons", [])]
    versions = [series(v) for v in versions if v]
    assert env["python"] is None or env["python"] in versions, env
    assert env["python"] is None or env["python"].count(".") == 1, env


# -- compat and --tf: a version that is not one is an error (exit 2), never a guess -------------

def _cli(capsys, *argv: str) -> tuple[int, str, str]:
    from wizard import cli

    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    "argv, named, hint",
    [
        (["--cuda", "11.x"], "'11.x'", "11.2"),
        (["--cuda", "12.abc"], "'12.abc'", "12.5"),
        (["--cuda", ""], "''", "11.2"),
        (["--cuda", "12"], "'12'", "12.0, 12.1"),
        (["--tf", "2.10", "--cuda", "11.x"], "'11.x'", "11.2"),
        (["--tf", "2.x"], "'2.x'", "known series: 1.0 ... 2.21"),
        (["--tf", ""], "''", "known series"),
        (["--tf", "2.10.5"], "2.10.5", "2.10.0, 2.10.1"),
        (["--tf", "2.16.0"], "2.16.0", "2.16.1, 2.16.2"),
        (["--tf", "2.30"], "2.30", "known: 1.0 ... 2.21"),
        (["--tf", "v2.10"], "'v2.10'", "2.21"),
    ],
)
def test_compat_rejects_what_is_not_a_version(capsys, argv, named, hint) -> None:
    code, out, err = _cli(capsys, "compat", *argv, "--os", "linux")
    assert code == 2, out
    assert out == ""
    assert named in err and hint in err, err


def test_compat_known_patch_release_is_shown_as_asked(capsys) -> None:
    code, out, _ = _cli(capsys, "compat", "--tf", "2.10.1", "--os", "windows", "--json")
    assert code == 0
    answer = json.loads(out)
    assert answer["tensorflow"] == "2.10.1" and answer["cuda"] == "11.2"
    code, out, _ = _cli(capsys, "compat", "--tf", "2.15.0.post1", "--os", "linux", "--json")
    assert code == 0 and json.loads(out)["series"] == "2.15"


def test_compat_release_candidate_says_which_releases_answer(capsys) -> None:
    code, out, _ = _cli(capsys, "compat", "--tf", "2.16.0rc0", "--os", "linux", "--json")
    assert code == 0
    answer = json.loads(out)
    assert answer["tensorflow"] == "2.16.0rc0"  # not silently "2.16.1"
    assert "pre-release" in answer["notes"][0] and "2.16.1, 2.16.2" in answer["notes"][0]


@pytest.mark.parametrize("tf", ["2.x", "", "2.10.5", "2.16.0", "12.abc"])
def test_check_tf_is_as_strict_as_compat(capsys, tf) -> None:
    profile = str(PROFILES[0].parent / "wsl2-healthy.json")
    code, out, err = _cli(capsys, "check", "--profile", profile, "--tf", tf)
    assert code == 2 and out == ""
    assert repr(tf) in err or tf in err


def test_choose_target_strict_and_lenient_where_it_should_be() -> None:
    from wizard.core import knowledge

    with pytest.raises(ValueError, match="2.10.0, 2.10.1"):
        knowledge.choose_target("windows", requested="2.10.5")
    with pytest.raises(ValueError, match="not a version"):
        knowledge.choose_target("linux", requested="")
    assert knowledge.choose_target("windows", requested="2.10.1").tensorflow == "2.10.1"
    assert knowledge.choose_target("windows", requested="2.10").tensorflow == "2.10.0"
    # What pip installed is a fact, not a request: it maps to its series as before.
    target = knowledge.choose_target("linux", installed="2.16.0rc0")
    assert target.tensorflow == "2.16.0rc0" and target.cuda == "12.3"


# -- notes meant for the data's maintainers never reach users -----------------------------------

MAINTAINER_PHRASES = re.compile(
    r"crawl id|see uncertain|\(inference|never updated|not read in a source", re.IGNORECASE
)


def _all_compat_answers():
    from wizard.core import knowledge

    data = knowledge.compat_data()
    for os_kind in ("windows", "linux", "wsl2"):
        yield knowledge.compat_answer(os_kind=os_kind)
        for tf in knowledge.known_tf_versions("linux"):
            yield knowledge.compat_answer(tf=tf, os_kind=os_kind)
            yield knowledge.compat_answer(tf=tf, cuda="11.2", os_kind=os_kind)
        for cuda in data["cuda_min_driver_ga"]:
            yield knowledge.compat_answer(cuda=cuda, os_kind=os_kind)


def test_no_maintainer_notes_in_any_compat_answer() -> None:
    from wizard.core import knowledge

    count = 0
    for answer in _all_compat_answers():
        count += 1
        for text in (json.dumps(answer, ensure_ascii=False), knowledge.compat_text(answer)):
            found = MAINTAINER_PHRASES.search(text)
            assert not found, (answer["query"], text[max(0, found.start() - 120):found.end()])
    assert count > 150


@pytest.mark.parametrize("path", PROFILES, ids=lambda p: p.stem)
def test_no_maintainer_notes_in_reports(path: Path) -> None:
    from wizard.core import report as report_format

    report = run_check(ReplayHost.from_file(str(path)))
    for text in (report_format.to_json(report), report_format.to_markdown(report),
                 report_format.to_text(report)):
        found = MAINTAINER_PHRASES.search(text)
        assert not found, text[max(0, found.start() - 120):found.end()]


def test_maintainer_notes_stay_in_the_data() -> None:
    from wizard.core import knowledge

    raw = json.dumps(knowledge.compat_data())
    assert "crawl id" in raw and "see uncertain" in raw


# -- explain reads logs in every encoding a shell writes, and refuses binary data quickly -------

CUDNN_LOG = (
    "2023-01-01 I tensorflow/stream_executor/platform/default/dso_loader.cc:53] Successfully "
    "opened dynamic library cudart64_110.dll\n"
    "2023-01-01 W tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could not load "
    "dynamic library 'cudnn64_8.dll'; dlerror: cudnn64_8.dll not found\n"
)
ZH_LOG = (
    "Traceback (most recent call last):\n"
    '  File "C:\\Users\\me\\train.py", line 1, in <module>\n'
    "ImportError: DLL load failed while importing _pywrap_tensorflow_internal: 找不到指定的模块。\n"
)


def _read(tmp_path: Path, data: bytes) -> str:
    from wizard.core import explain

    path = tmp_path / "log.txt"
    path.write_bytes(data)
    return explain.read_log_file(str(path))


@pytest.mark.parametrize(
    "data",
    [
        CUDNN_LOG.encode("utf-8"),
        b"\xef\xbb\xbf" + CUDNN_LOG.encode("utf-8"),
        b"\xff\xfe" + CUDNN_LOG.replace("\n", "\r\n").encode("utf-16-le"),  # PowerShell 5.1 `>`
        b"\xfe\xff" + CUDNN_LOG.encode("utf-16-be"),
        CUDNN_LOG.encode("utf-16-le"),
        CUDNN_LOG.encode("utf-16-be"),
    ],
    ids=["utf8", "utf8-bom", "utf16le-bom", "utf16be-bom", "utf16le", "utf16be"],
)
def test_explain_reads_every_encoding(tmp_path: Path, data: bytes) -> None:
    from wizard.core import explain

    text = _read(tmp_path, data)
    assert text.replace("\r\n", "\n") == CUDNN_LOG
    findings = explain.explain_log(text)
    assert findings and findings[0].code == "cudnn_missing"


@pytest.mark.parametrize("encoding", ["gbk", "utf-8", "utf-16"])
def test_chinese_lines_are_quoted_as_written(tmp_path: Path, encoding: str) -> None:
    from wizard.core import explain

    text = _read(tmp_path, ZH_LOG.encode(encoding))
    assert "找不到指定的模块。" in text
    evidence = "\n".join(f.evidence or "" for f in explain.explain_log(text))
    assert "找不到指定的模块。" in evidence


def test_explain_stdin_utf16(capsys, monkeypatch) -> None:
    import io
    import sys

    raw = io.BytesIO(b"\xff\xfe" + CUDNN_LOG.encode("utf-16-le"))
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(raw, encoding="utf-8"))
    code, out, _ = _cli(capsys, "explain", "-", "--json")
    assert code == 0
    assert json.loads(out)["findings"][0]["code"] == "cudnn_missing"


def test_binary_input_is_refused_fast(tmp_path: Path, capsys) -> None:
    import random
    import time

    path = tmp_path / "random.bin"
    path.write_bytes(random.Random(7).randbytes(50 * 1024 * 1024))
    started = time.monotonic()
    code, out, err = _cli(capsys, "explain", str(path))
    assert time.monotonic() - started < 10  # generous: it takes well under a second
    assert code == 2 and out == ""
    assert "not a text log" in err


def test_long_log_keeps_head_and_tail(tmp_path: Path) -> None:
    from wizard.core import explain

    head, tail = CUDNN_LOG.splitlines(keepends=True)
    noise = "Epoch 1/10 120/1875 [>.....] - ETA: 1:23 - loss: 2.3 - accuracy: 0.1 é\n"
    data = (head + noise * (40 * 1024 * 1024 // len(noise)) + tail).encode("utf-16")
    text = _read(tmp_path, data)
    assert len(text) < 10 * 1024 * 1024  # bounded: head and tail, not 40 MB of progress bars
    assert "were not read" in text
    assert text.startswith(head) and text.endswith(tail)
    assert explain.explain_log(text)[0].code == "cudnn_missing"


# -- a Python that cannot run the target TF is never told to install or import TF itself -------

def _with_python(source: str, version: str, conda: bool) -> dict:
    profile = json.loads((PROFILES[0].parent / source).read_text(encoding="utf-8"))
    entry = profile["pythons"][0]
    probe = entry["probe"]
    probe["python"].update(version=version, conda=conda)
    probe["packages"] = {name: None for name in probe["packages"]}
    probe["tensorflow"] = None
    probe["log"] = ""
    profile["pythons"] = [entry]
    return profile


def _tf_layer(tmp_path: Path, profile: dict, python: Optional[str] = None) -> dict:
    from wizard.core.diagnose import CheckOptions

    path = tmp_path / "profile.json"
    path.write_text(json.dumps(profile), encoding="utf-8")
    report = run_check(ReplayHost.from_file(str(path)), CheckOptions(python=python)).to_dict()
    return _layer(report, "tensorflow")


@pytest.mark.parametrize(
    "source, conda, create",
    [
        ("linux-tf221-and-cuda-healthy.json", False, "python3.13 -m venv ~/tf-py313"),
        ("win-tf210-healthy.json", True, "conda create -y -n tf-py310 python=3.10"),
        ("win-tf210-healthy.json", False, "py -3.10 -m venv tf-py310"),
    ],
)
def test_too_old_python_gets_a_new_environment(tmp_path, source, conda, create) -> None:
    profile = _with_python(source, "3.6.9", conda)
    info = profile["pythons"][0]["probe"]["python"]
    layer = _tf_layer(tmp_path, profile)
    codes = [f["code"] for f in layer["findings"]]
    assert "python_version_unsupported" in codes
    for finding in layer["findings"]:
        fix = finding["fix"]
        texts = [fix["summary"], *fix["steps"], *fix["commands"]]
        for text in texts:
            # nothing runs in the environment whose Python cannot run TensorFlow
            assert info["executable"] not in text and info["prefix"] not in text, text
            assert not text.lstrip("$ ").startswith("pip install"), text
        installs = [c for c in fix["commands"] if "pip install" in c]
        if installs:
            assert fix["commands"][0] == create, fix["commands"]
            _never_into_this_env(tmp_path, fix, info["executable"])
    not_installed = next(f for f in layer["findings"] if f["code"] == "tensorflow_not_installed")
    assert create in not_installed["fix"]["commands"]


def _never_into_this_env(tmp_path: Path, fix: dict, executable: str) -> None:
    """The one-click install (issue 10) of a finding about a Python TF cannot run goes into a
    new environment, or is refused; never into this one."""
    from wizard.core.fixes.plan import FixError
    from wizard.core.fixes.registry import run_builder

    if fix["action"] is None:
        return
    assert fix["action"] == "pip_install"
    host = ReplayHost.from_file(str(tmp_path / "profile.json"))
    try:
        plan = run_builder("pip_install")(host, fix["action_params"], {})
    except FixError:
        return
    assert plan.new_env and plan.python != executable, plan.python
    assert all(command.argv[0] != executable for command in plan.commands)


def test_python2_probe_failure_does_not_say_import_tensorflow(tmp_path) -> None:
    profile = _with_python("linux-tf221-and-cuda-healthy.json", "3.11.0", False)
    executable = "/usr/bin/python2.7"
    profile["pythons"][0] = {"executable": executable, "probe": {
        "error": f"{executable} is too old to run the environment probe (it has no -I option: "
                 "Python 2 or 3.3); TensorFlow 2 needs Python 3.7 or newer, so choose another "
                 "environment",
        "error_kind": "crashed", "executable": executable, "returncode": 2, "stage": "",
        "stdout_tail": "", "stderr_tail": "Unknown option: -I\nusage: python2.7 [option] ...",
        "log": ""}}
    layer = _tf_layer(tmp_path, profile, python=executable)
    finding = next(f for f in layer["findings"] if f["code"] == "probe_failed")
    summary = finding["fix"]["summary"]
    assert "import tensorflow" not in summary
    assert "Python 3.10-3.13" in summary and "conda create -n tf-py313 python=3.13" in summary


# -- explain: the OS comes from the log's own evidence, and every step fits it ------------------

WINDOWS_MARKS = re.compile(r"[A-Z]:\\|\.dll\b|%\w+%|(?:^|Run: )where |(?:^|Run: |& )set \w+=|"
                           r"os\.add_dll_directory|\bbin, include and lib (?:files|folders)")
LINUX_MARKS = re.compile(r"LD_LIBRARY_PATH|ldconfig|\bexport\b|/usr/|\$\w+|\.so\b|modprobe|apt-get")


def _logs() -> list[str]:
    here = Path(__file__).resolve().parent
    logs = [json.loads(line)["log"]
            for line in (here / "explain_variants.jsonl").read_text(encoding="utf-8").splitlines()
            if line.strip()]
    samples = here.parents[1] / "data" / "error-samples.jsonl"
    if samples.is_file():
        logs += [json.loads(line)["log"] for line in samples.read_text(encoding="utf-8")
                 .splitlines() if line.strip()]
    # logs that name no OS: a library without its extension, a generic TF line
    logs += [
        "Could not load cudnn library\ncuDNN version mismatch: loaded runtime CuDNN library: "
        "8.1.0 but source was compiled with: 8.6.0",
        "W tensorflow/core/common_runtime/gpu/gpu_device.cc:1850] Cannot load the CUDA runtime",
        "2023 W dso_loader.cc:64] Could not load dynamic library 'cudart64_110'",
        "Could not load dynamic library 'libcudnn'",
        "CUDA error: out of memory\nResourceExhaustedError: OOM when allocating tensor",
    ]
    return logs


@pytest.mark.parametrize(
    "log, os_kind",
    [
        ("Could not load dynamic library 'cudart64_110'; dlerror: cudart64_110 not found",
         "windows"),
        ("Could not load dynamic library 'cudnn_ops_infer64_8'", "windows"),
        ("Could not load library libcudnn_cnn_infer. Error: cannot open shared object", "linux"),
        ("Could not load dynamic library 'libcudart.so.11.0'", "linux"),
        ("W Could not load dynamic library 'libcuda.so.1'; LD_LIBRARY_PATH: /usr/lib/wsl/lib",
         "wsl2"),
        ('File "C:\\Users\\me\\train.py", line 3', "windows"),
        ('File "/home/me/train.py", line 3', "linux"),
    ],
)
def test_os_is_inferred_from_the_log(log: str, os_kind: str) -> None:
    from wizard.core import explain

    assert explain.infer_os(log) == os_kind


def _fix_lines(finding) -> list[str]:
    return [finding.fix_summary(), *(s.text() for s in finding.fix.steps), *finding.fix.commands]


@pytest.mark.parametrize("os_kind", [None, "windows", "linux", "wsl2"])
def test_explain_steps_fit_one_os(os_kind) -> None:
    from wizard.core import explain

    checked = 0
    for log in _logs():
        inferred = explain.infer_os(log)
        if os_kind and inferred and os_kind != inferred:
            continue  # --os said otherwise than the log: the user's word counts
        shown = os_kind or inferred
        for finding in explain.explain_log(log, os_kind):
            if shown == "windows":
                lines = [s.text() for s in finding.fix.steps] + list(finding.fix.commands)
                bad = [line for line in lines if LINUX_MARKS.search(line)]
            elif shown in ("linux", "wsl2"):
                bad = [line for line in _fix_lines(finding) if WINDOWS_MARKS.search(line)]
            else:
                bad = _mixed_sections(finding)
            assert not bad, (log[:200], shown, finding.code, bad)
            checked += 1
    assert checked > 40


def _mixed_sections(finding) -> list[str]:
    """With no OS known, Windows and Linux steps may only appear under their own heading."""
    section = "common"
    bad = []
    for step in finding.fix.steps:
        text = step.text()
        if step.key.startswith(("explain.on_", "explain.in_")):  # an OS heading
            section = text
            continue
        if WINDOWS_MARKS.search(text) and section != "On Windows:":
            bad.append(text)
        if LINUX_MARKS.search(text) and section == "On Windows:":
            bad.append(text)
    for command in finding.fix.commands:  # commands outside any section must fit every OS
        if WINDOWS_MARKS.search(command) or LINUX_MARKS.search(command):
            bad.append(command)
    return bad


def test_linux_cudnn_log_is_not_told_to_copy_a_bin_folder(capsys) -> None:
    from wizard.core import explain

    log = ("W dso_loader.cc:64] Could not load dynamic library 'libcudart.so.11.0'\n"
           "W dso_loader.cc:64] Could not load dynamic library 'libcudnn.so.8'; dlerror: "
           "libcudnn.so.8: cannot open shared object file: No such file or directory\n")
    findings = explain.explain_log(log)
    cudnn = next(f for f in findings if f.code == "cudnn_missing")
    text = " ".join(_fix_lines(cudnn))
    assert "bin" not in text.split() and "bin," not in text and "%CUDA_PATH%" not in text
    assert "/usr/local/cuda/lib64" in text
    windows = explain.explain_log(log.replace("libcudnn.so.8", "cudnn64_8.dll"), "windows")
    assert "bin, include and lib" in next(
        f for f in windows if f.code == "cudnn_missing").fix_summary()
