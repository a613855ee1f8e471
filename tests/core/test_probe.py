"""The environment probe and its runner, against real interpreters and fake ones.

A throw-away venv (no pip, a few seconds) gets a fake ``tensorflow`` package whose behaviour is
set by ``FAKE_TF_MODE``: it writes loader lines to fd 2 from "C" (os.write), lists a GPU, fails to
import with the NumPy 2 message, hangs, or prints on stdout. That drives the probe's real code
paths (fd-2 capture, stages, the GPU placement) on a machine without TensorFlow or a GPU.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from wizard.core.host import probe as probe_mod
from wizard.core.host.probe import LOG_KEEP, cap_text, parse_output, probe_many, run_probe

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="fake interpreters are sh scripts")

BASE_PYTHON = os.path.realpath(sys.executable)

FAKE_TF = textwrap.dedent(
    '''
    import os, sys, time
    mode = os.environ.get("FAKE_TF_MODE", "gpu")
    os.write(2, b"W dso_loader.cc:64] Could not load dynamic library 'libnvinfer.so.7'\\n")
    if mode == "hang":
        os.write(2, b"I cuda_driver.cc] about to call cuInit\\n")
        time.sleep(600)
    if mode == "numpy":
        os.write(2, b"A module that was compiled using NumPy 1.x cannot be run in\\n"
                    b"NumPy 2.2.6 as it may crash.\\n")
        raise ImportError("numpy.core._multiarray_umath failed to import")
    if mode == "noise":
        print("hello from tensorflow on stdout")
    if mode == "dso":
        os.write(2, b"W dso_loader.cc:64] Could not load dynamic library 'cudnn64_8.dll'; "
                    b"dlerror: cudnn64_8.dll not found\\n")
    if mode == "bigLog":
        os.write(2, b"x" * (3 * 1024 * 1024) + b"\\nEND-OF-BIG-LOG\\n")
    __version__ = "2.10.1"
    GPUS = mode in ("gpu", "noise", "bigLog")

    class _Device:
        def __init__(self, name): self.name = name

    class _Tensor:
        def __init__(self, device): self.device = device
        def numpy(self): return 0

    _current = ["/job:localhost/replica:0/task:0/device:CPU:0"]

    class device:
        def __init__(self, name): self.name = name
        def __enter__(self):
            kind = "GPU" if "GPU" in self.name else "CPU"
            _current.append("/job:localhost/replica:0/task:0/device:%s:0" % kind)
        def __exit__(self, *exc): _current.pop()

    class test:
        @staticmethod
        def is_built_with_cuda(): return mode != "cpu"

    class sysconfig:
        @staticmethod
        def get_build_info(): return {"cuda_version": "64_112", "cudnn_version": "64_8"}

    class _Experimental:
        @staticmethod
        def get_device_details(d):
            return {"device_name": "NVIDIA GeForce RTX 3070 Ti Laptop GPU",
                    "compute_capability": (8, 6)}

    class config:
        experimental = _Experimental
        @staticmethod
        def list_physical_devices(kind):
            return [_Device("/physical_device:GPU:0")] if GPUS and kind == "GPU" else []

    def ones(shape): return _Tensor(_current[-1])
    def matmul(a, b): return _Tensor(_current[-1])

    class nn:
        @staticmethod
        def conv2d(x, k, strides, padding):
            if mode == "convfail":
                raise RuntimeError("DNN library is not found.")
            return _Tensor(_current[-1])
    '''
)


@pytest.fixture(scope="module")
def fake_tf_python(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A venv whose site-packages holds the fake tensorflow package (and its dist-info)."""
    root = tmp_path_factory.mktemp("venv")
    subprocess.run(
        [BASE_PYTHON, "-m", "venv", "--without-pip", str(root / "v")], check=True, timeout=120
    )
    python = root / "v" / "bin" / "python"
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()
    pkg = Path(site) / "tensorflow"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(FAKE_TF)
    info = Path(site) / "tensorflow-2.10.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: tensorflow\nVersion: 2.10.1\n")
    return str(python)


def fake_python(tmp_path: Path, body: str, name: str = "python") -> str:
    path = tmp_path / name
    path.write_text("#!/bin/sh\n" + body + "\n")
    path.chmod(0o755)
    return str(path)


def env_with(**values: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(values)
    return env


# -- the probe itself ----------------------------------------------------------------------------


def test_probe_in_this_python_reports_interpreter_and_no_tensorflow() -> None:
    result = run_probe(BASE_PYTHON, timeout=60)
    assert result.get("error") is None, result
    assert result["probe"] == "gpu-wizard/env-probe@1"
    assert result["python"]["version"] == ".".join(map(str, sys.version_info[:3]))
    assert result["python"]["bits"] == 64
    assert result["tensorflow"] is None
    assert "tensorflow" in result["packages"] and result["packages"]["tensorflow"] is None
    assert result["env"]["TF_CPP_MIN_LOG_LEVEL"] == "0"
    assert isinstance(result["log"], str)


def test_probe_script_is_python37_syntax() -> None:
    """The probe must run on 3.7: no walrus, no f-string '=', no positional-only params."""
    import ast

    source = Path(probe_mod.probe_script()).read_text(encoding="utf-8")
    tree = ast.parse(source, feature_version=(3, 7))
    for node in ast.walk(tree):
        assert not isinstance(node, ast.NamedExpr)
        assert not isinstance(node, ast.JoinedStr), "f-strings are fine in 3.7 but keep it plain"
    assert "import tensorflow" in source


def test_fake_tf_gpu_path_places_both_computations_on_the_gpu(fake_tf_python: str) -> None:
    result = run_probe(fake_tf_python, timeout=60, env=env_with(FAKE_TF_MODE="gpu"))
    tf = result["tensorflow"]
    assert tf["imported"] is True and tf["version"] == "2.10.1"
    assert tf["built_with_cuda"] is True
    assert tf["gpus"][0]["compute_capability"] == [8, 6]
    assert tf["gpus"][0]["device_name"].startswith("NVIDIA GeForce RTX 3070")
    for step in ("matmul", "conv"):
        assert tf[step]["ok"] is True
        assert tf[step]["device"].endswith("device:GPU:0")
    assert result["packages"]["tensorflow"] == "2.10.1"
    # the loader line written with os.write(2, ...) by "C" code is kept verbatim
    assert "Could not load dynamic library 'libnvinfer.so.7'" in result["log"]


def test_fake_tf_loader_lines_are_kept_verbatim(fake_tf_python: str) -> None:
    result = run_probe(fake_tf_python, timeout=60, env=env_with(FAKE_TF_MODE="dso"))
    assert (
        "W dso_loader.cc:64] Could not load dynamic library 'cudnn64_8.dll'; dlerror: "
        "cudnn64_8.dll not found" in result["log"]
    )
    assert result["tensorflow"]["gpus"] == []
    assert result["tensorflow"]["matmul"]["device"].endswith("CPU:0")


def test_import_error_is_recorded_with_the_numpy_message(fake_tf_python: str) -> None:
    result = run_probe(fake_tf_python, timeout=60, env=env_with(FAKE_TF_MODE="numpy"))
    tf = result["tensorflow"]
    assert tf["imported"] is False
    assert "numpy.core._multiarray_umath failed to import" in tf["error"]
    assert "compiled using NumPy 1.x cannot be run in" in result["log"]
    assert "Traceback" in result["log"]


def test_library_output_on_stdout_does_not_spoil_the_json(fake_tf_python: str) -> None:
    result = run_probe(fake_tf_python, timeout=60, env=env_with(FAKE_TF_MODE="noise"))
    assert result.get("error") is None
    assert "hello from tensorflow on stdout" in result["log"]


def test_failed_convolution_is_reported_not_raised(fake_tf_python: str) -> None:
    result = run_probe(fake_tf_python, timeout=60, env=env_with(FAKE_TF_MODE="convfail"))
    conv = result["tensorflow"]["conv"]
    assert conv["ok"] is False and "DNN library is not found" in conv["error"]
    assert result["tensorflow"]["matmul"]["ok"] is True


def test_hanging_tensorflow_import_times_out_with_stage_and_partial_log(
    fake_tf_python: str,
) -> None:
    started = time.monotonic()
    result = run_probe(fake_tf_python, timeout=2.5, env=env_with(FAKE_TF_MODE="hang"))
    assert time.monotonic() - started < 15
    assert result["error_kind"] == "timeout"
    assert result["stage"] == "import_tensorflow"
    assert "about to call cuInit" in result["log"]  # read from the probe's temp log
    assert fake_tf_python in result["error"] and "within 2 s" in result["error"]


def test_multi_megabyte_log_is_capped_with_head_and_tail(fake_tf_python: str) -> None:
    result = run_probe(fake_tf_python, timeout=120, env=env_with(FAKE_TF_MODE="bigLog"))
    log = result["log"]
    assert len(log) < 2 * LOG_KEEP + 200
    assert "characters cut by gpu-wizard" in log
    assert "libnvinfer.so.7" in log  # the head
    assert "END-OF-BIG-LOG" in log  # the tail
    assert result["tensorflow"]["gpus"]


def test_interpreter_path_with_spaces_and_non_ascii(tmp_path: Path) -> None:
    folder = tmp_path / "dir with spaces" / "测试"
    folder.mkdir(parents=True)
    link = folder / "python"
    link.symlink_to(BASE_PYTHON)
    result = run_probe(str(link), timeout=60)
    assert result.get("error") is None, result
    assert result["python"]["version"] == ".".join(map(str, sys.version_info[:3]))


# -- bad interpreters ----------------------------------------------------------------------------


def test_missing_interpreter_is_not_found(tmp_path: Path) -> None:
    result = run_probe(str(tmp_path / "nope" / "python"), timeout=5)
    assert result["error_kind"] == "not_found"
    assert "does not exist" in result["error"]


def test_hanging_interpreter_is_killed_with_its_children(tmp_path: Path) -> None:
    pidfile = tmp_path / "child.pid"
    exe = fake_python(tmp_path, f"sleep 300 &\necho $! > '{pidfile}'\nsleep 300")
    started = time.monotonic()
    result = run_probe(exe, timeout=1.5)
    assert time.monotonic() - started < 10
    assert result["error_kind"] == "timeout"
    assert "did not finish within 2 s" in result["error"] or "within 1 s" in result["error"]
    child = int(pidfile.read_text())
    time.sleep(0.2)
    assert not _alive(child), "the probe's own children must be killed too"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie still answers kill(0); check its state
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split()[2]
    except OSError:
        return False
    return state != "Z"


def test_garbage_output_is_bad_output(tmp_path: Path) -> None:
    exe = fake_python(tmp_path, "echo 'Hello, I am not JSON {'; echo '{\"no\": 1}'")
    result = run_probe(exe, timeout=10)
    assert result["error_kind"] == "bad_output"
    assert "not its JSON" in result["error"]
    assert "Hello, I am not JSON" in result["stdout_tail"]


def test_silent_interpreter_is_bad_output(tmp_path: Path) -> None:
    result = run_probe(fake_python(tmp_path, "exit 0"), timeout=10)
    assert result["error_kind"] == "bad_output"
    assert "printed nothing" in result["error"]


def test_failing_interpreter_is_crashed_with_its_stderr(tmp_path: Path) -> None:
    exe = fake_python(tmp_path, "echo 'boom: cannot start' >&2; exit 1")
    result = run_probe(exe, timeout=10)
    assert result["error_kind"] == "crashed"
    assert result["returncode"] == 1
    assert "exited with status 1" in result["error"]
    assert "boom: cannot start" in result["stderr_tail"]


def test_python2_is_named_as_too_old(tmp_path: Path) -> None:
    exe = fake_python(tmp_path, "echo 'Unknown option: -I' >&2; echo 'usage: python' >&2; exit 2")
    result = run_probe(exe, timeout=10)
    assert result["error_kind"] == "crashed" and "too old" in result["error"]


def test_interpreter_killed_by_a_signal_names_it(tmp_path: Path) -> None:
    result = run_probe(fake_python(tmp_path, "kill -SEGV $$"), timeout=10)
    assert result["error_kind"] == "crashed"
    assert "SIGSEGV" in result["error"]


def test_huge_stderr_from_a_broken_interpreter_is_tailed(tmp_path: Path) -> None:
    exe = fake_python(tmp_path, "head -c 5000000 /dev/zero | tr '\\0' 'y' >&2; exit 3")
    result = run_probe(exe, timeout=30)
    assert result["error_kind"] == "crashed"
    assert len(result["stderr_tail"]) <= probe_mod.TAIL_CHARS


# -- parsing, capping, parallel runs -----------------------------------------------------------


def test_parse_output_takes_the_last_probe_object() -> None:
    good = json.dumps({"probe": "gpu-wizard/env-probe@1", "python": {"version": "3.9.1"}})
    text = "noise\n{\"probe\": \"other\"}\n" + good + "\n"
    assert parse_output(text)["python"]["version"] == "3.9.1"
    assert parse_output("{not json") is None
    assert parse_output("") is None


@pytest.mark.parametrize("odd", [
    {"python": "x"}, {"packages": ["tensorflow"]}, {"tensorflow": {"gpus": ["x"]}},
    {"tensorflow": {"matmul": "x"}}, {"python": {"bits": "64"}},
])
def test_parse_output_refuses_a_probe_of_the_wrong_shape(odd: dict) -> None:
    """Output that claims to be the probe's but has the wrong types is bad output, so no layer
    meets ``python: "x"`` (a crash in environment choice before)."""
    assert parse_output(json.dumps({"probe": "gpu-wizard/env-probe@1", **odd})) is None


def test_cap_text_keeps_short_text_and_cuts_long() -> None:
    assert cap_text("abc", 10) == "abc"
    capped = cap_text("a" * 50 + "b" * 50, 10)
    assert capped.startswith("a" * 10) and capped.endswith("b" * 10)
    assert "80 characters cut" in capped


def test_probe_many_runs_in_parallel(tmp_path: Path) -> None:
    sleepers = []
    for i in range(3):
        folder = tmp_path / str(i)
        folder.mkdir()
        sleepers.append(fake_python(folder, "sleep 1; exit 0"))
    started = time.monotonic()
    results = probe_many(sleepers, timeout=20, max_workers=3)
    assert time.monotonic() - started < 2.8
    assert list(results) == sleepers
    assert all(r["error_kind"] == "bad_output" for r in results.values())


def test_probe_many_cancel_stops_running_probes(tmp_path: Path) -> None:
    exes = []
    for i in range(4):
        folder = tmp_path / str(i)
        folder.mkdir()
        exes.append(fake_python(folder, "sleep 300"))
    deadline = time.monotonic() + 0.8
    started = time.monotonic()
    results = probe_many(
        exes, timeout=120, max_workers=2, cancelled=lambda: time.monotonic() > deadline
    )
    assert time.monotonic() - started < 10
    assert {r["error_kind"] for r in results.values()} == {"cancelled"}


def test_probe_environment_sets_log_level_and_drops_python_path(monkeypatch) -> None:
    env = probe_mod.probe_environment({"PYTHONPATH": "/x", "TF_CPP_MIN_LOG_LEVEL": "3", "A": "1"})
    assert env["TF_CPP_MIN_LOG_LEVEL"] == "0"
    assert "PYTHONPATH" not in env and env["A"] == "1"


def test_registry_path_replaces_the_stale_process_path() -> None:
    env = probe_mod.probe_environment({"Path": "C:\\old"}, ["C:\\Windows\\system32", "C:\\new"])
    assert env["Path"] == "C:\\Windows\\system32;C:\\new" and "PATH" not in env
    assert probe_mod._windows_path("/usr/bin/python3", ["C:\\x"]) is None  # not Windows here


def test_conda_activation_dirs(tmp_path: Path) -> None:
    prefix = tmp_path / "envs" / "tf"
    (prefix / "conda-meta").mkdir(parents=True)
    dirs = probe_mod.conda_activation_dirs(str(prefix / "python.exe"))
    assert dirs[0] == str(prefix) and dirs[3] == str(prefix / "Library" / "bin")
    assert probe_mod.conda_activation_dirs(str(tmp_path / "python.exe")) == []


def test_frozen_build_children_get_the_original_library_path(monkeypatch) -> None:
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    env = probe_mod.probe_environment(
        {"LD_LIBRARY_PATH": "/tmp/_MEI123", "LD_LIBRARY_PATH_ORIG": "/usr/local/cuda/lib64"}
    )
    assert env["LD_LIBRARY_PATH"] == "/usr/local/cuda/lib64"
    env = probe_mod.probe_environment({"LD_LIBRARY_PATH": "/tmp/_MEI123"})
    assert "LD_LIBRARY_PATH" not in env


def test_exit_text_for_windows_status() -> None:
    assert "0xC0000135" in probe_mod._exit_text(0xC0000135)
    assert "SIGKILL" in probe_mod._exit_text(-signal.SIGKILL)


# -- the same bad inputs through `check --python`: a clear finding each time ----------------------


@pytest.mark.parametrize(
    ("body", "kind", "words"),
    [
        ("sleep 300", "timeout", "did not finish within 2 s"),
        ("echo 'garbage {'", "bad_output", "not its JSON"),
        ("exit 0", "bad_output", "printed nothing"),
        ("echo 'Fatal Python error: init_fs_encoding' >&2; exit 1", "crashed", "status 1"),
    ],
)
def test_bad_interpreters_through_the_check(tmp_path: Path, body: str, kind: str, words: str):
    from wizard.core.diagnose import CheckOptions, run_check
    from wizard.core.host import LocalHost

    exe = fake_python(tmp_path, body)
    report = run_check(LocalHost(), CheckOptions(python=exe, probe_timeout=1.6))
    tf = report.layer("tensorflow")
    assert tf.status == "unknown"
    (finding,) = [f for f in tf.findings if f.code == "probe_failed"]
    assert finding.params["error_kind"] == kind
    assert words in finding.message() and exe in finding.message()
    assert report.ready is False


def test_big_log_through_the_check_is_trimmed_in_the_report(fake_tf_python: str, monkeypatch):
    from wizard.core.diagnose import CheckOptions, run_check
    from wizard.core.host import LocalHost

    monkeypatch.setenv("FAKE_TF_MODE", "bigLog")
    report = run_check(LocalHost(), CheckOptions(python=fake_tf_python, probe_timeout=120))
    tf = report.layer("tensorflow")
    assert tf.facts["tensorflow_version"] == "2.10.1"
    assert len(tf.facts["log"]) < 20_000 and "END-OF-BIG-LOG" in tf.facts["log"]
    assert "characters cut" in tf.facts["log"]


def test_probe_with_closed_stderr_still_prints_its_json() -> None:
    done = subprocess.run(
        f'"{BASE_PYTHON}" -I "{probe_mod.probe_script()}" 2>&-', shell=True,
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert parse_output(done.stdout) is not None, done.stdout[-500:]


def test_probe_of_a_python_given_by_path_can_be_cancelled(tmp_path) -> None:
    """--python / the GUI's "check this interpreter": closing the window must not wait for the
    probe's time limit."""
    import threading
    import time

    from wizard.core import envs
    from wizard.core.host import LocalHost

    hang = tmp_path / "python"
    hang.write_text("#!/bin/sh\nsleep 60\n")
    hang.chmod(0o755)
    stop = threading.Event()
    threading.Timer(0.5, stop.set).start()
    started = time.monotonic()
    python, probe, _ = envs.choose_environment(
        LocalHost(), str(hang), timeout=60, cancelled=stop.is_set
    )
    assert time.monotonic() - started < 15
    assert probe.get("error_kind") == "cancelled", probe
