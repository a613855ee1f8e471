"""Run the environment probe (``resources/probes/env_probe.py``) in a user's Python.

The wizard never imports TensorFlow itself: it starts ``<python> -I env_probe.py`` with
``TF_CPP_MIN_LOG_LEVEL=0`` in a clean child environment (no inherited PyInstaller library paths),
with a time limit, and reads the one JSON object the probe prints (DESIGN section 4).

Failures never raise. They come back as::

    {"error": "<English sentence naming the interpreter and the next step>",
     "error_kind": "timeout" | "not_found" | "bad_output" | "crashed" | "cancelled",
     "executable": ..., "returncode": ..., "stage": <the probe's last step>,
     "stdout_tail": ..., "stderr_tail": ..., "log": <what the probe had captured so far>}

A probe's log can be megabytes (a loader that repeats itself); what is kept is capped at the
first and last ``LOG_KEEP`` characters with a marker where the middle was cut.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, Optional

from wizard.core.host import schema
from wizard.core.host.probe_result import ProbeResult
from wizard.core.host.process import (
    child_environment,
    decode_output,
    json_object,
    reset_dll_directory,
)
from wizard.resources import resource_path

log = logging.getLogger(__name__)

PROBE_FORMAT = "gpu-wizard/env-probe@1"
LOG_KEEP = 256 * 1024
TAIL_CHARS = 4000
DEFAULT_TIMEOUT = 180.0
_POLL_S = 0.2
_LOG_LINE = re.compile(r"^gpu-wizard-probe: log (.+?)\s*$", re.MULTILINE)
_STAGE_LINE = re.compile(r"^gpu-wizard-probe: stage (\S+)", re.MULTILINE)


def probe_script() -> str:
    return str(resource_path("probes", "env_probe.py"))


def cap_text(text: str, keep: int = LOG_KEEP) -> str:
    """``text`` when short; else its first and last ``keep`` characters with a marker between."""
    if len(text) <= 2 * keep:
        return text
    cut = len(text) - 2 * keep
    return f"{text[:keep]}\n[... {cut} characters cut by gpu-wizard ...]\n{text[-keep:]}"


def _tail(text: str) -> str:
    return text[-TAIL_CHARS:]


def probe_environment(
    base: Optional[dict[str, str]] = None, path_entries: Optional[list[str]] = None
) -> dict[str, str]:
    """The probe's environment: the clean child environment, TF logging at its most verbose.

    ``path_entries`` (Windows: the PATH rebuilt from the registry, what a new terminal sees)
    replaces PATH, so a check after the wizard edited PATH tests the new value, not this
    process's stale copy."""
    env = child_environment(base)
    if path_entries:
        name = next((k for k in env if k.upper() == "PATH"), "PATH")
        env[name] = ";".join(path_entries)
    env["TF_CPP_MIN_LOG_LEVEL"] = "0"
    env.setdefault("PYTHONIOENCODING", "utf-8")
    for name in ("PYTHONHOME", "PYTHONPATH", "PYTHONSTARTUP", "PYTHONINSPECT"):
        env.pop(name, None)  # -I ignores them; a Python 2 or a wrapper might not
    return env


def conda_activation_dirs(executable: str) -> list[str]:
    """What ``conda activate`` puts first on PATH on Windows for the env of ``executable``
    (its ``Library\\bin`` holds conda's CUDA/cuDNN DLLs); [] when it is not a conda env."""
    prefix = os.path.dirname(executable)
    if not os.path.isdir(os.path.join(prefix, "conda-meta")):
        return []
    parts = (("Library", "mingw-w64", "bin"), ("Library", "usr", "bin"), ("Library", "bin"),
             ("Scripts",), ("bin",))
    return [prefix] + [os.path.join(prefix, *part) for part in parts]


def _windows_path(executable: str, fresh: Optional[list[str]]) -> Optional[list[str]]:
    """Windows: the registry PATH (``fresh``, what a new terminal sees), behind the conda env's
    activation folders."""
    if sys.platform != "win32":
        return None
    conda = conda_activation_dirs(executable)
    if not conda:
        return fresh
    rest = fresh if fresh is not None else os.environ.get("PATH", "").split(";")
    return conda + [entry for entry in rest if entry]


def popen_kwargs() -> dict[str, Any]:
    """A child in its own process group (so its tree can be killed), no console window."""
    if sys.platform == "win32":
        flags = getattr(subprocess, "CREATE_NO_WINDOW", 0) | getattr(
            subprocess, "CREATE_NEW_PROCESS_GROUP", 0
        )
        return {"creationflags": flags}
    return {"start_new_session": True}


_popen_kwargs = popen_kwargs


def kill_tree(process: subprocess.Popen) -> None:
    """Stop the probe and everything it started (TF may spawn helpers)."""
    if process.poll() is not None:
        return
    try:
        if sys.platform == "win32":
            subprocess.run(
                ["taskkill", "/T", "/F", "/PID", str(process.pid)],
                capture_output=True,
                timeout=15,
                check=False,
                creationflags=getattr(subprocess, "CREATE_NO_WINDOW", 0),
            )
        else:
            os.killpg(process.pid, signal.SIGKILL)
    except (OSError, subprocess.SubprocessError):
        pass
    with contextlib.suppress(OSError):
        process.kill()


def run_probe(
    executable: str,
    timeout: float = DEFAULT_TIMEOUT,
    cancelled: Optional[Callable[[], bool]] = None,
    env: Optional[dict[str, str]] = None,
    script: Optional[str] = None,
    fresh_path: Optional[list[str]] = None,
) -> ProbeResult:
    """Probe ``executable``; the probe's JSON (plus ``probe_seconds``), or an error result.
    ``fresh_path``: on Windows, the PATH a new terminal gets (see :mod:`.windows`)."""
    started = time.monotonic()
    if not executable or not os.path.exists(executable):
        return _failure(
            executable,
            "not_found",
            f"the Python interpreter {executable!r} does not exist; check the path (on Windows "
            "it ends in python.exe, in a venv it is Scripts\\python.exe or bin/python)",
        )
    argv = [executable, "-I", script or probe_script()]
    reset_dll_directory()  # a frozen Windows build: children must not inherit its DLL folder
    try:
        process = subprocess.Popen(
            argv,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=probe_environment(
                env, None if env is not None else _windows_path(executable, fresh_path)),
            **popen_kwargs(),
        )
    except OSError as exc:
        return _failure(
            executable,
            "not_found",
            f"{executable} could not be started ({exc.strerror or exc}); check that it is a "
            "Python interpreter this user may run",
        )
    stdout, stderr, kind = _wait(process, timeout, cancelled)
    seconds = time.monotonic() - started
    out_text, err_text = decode_output(stdout), decode_output(stderr)
    log_path = _announced_log(err_text)
    if kind is None:
        data = parse_output(out_text)
        if data is not None:
            _remove(log_path)
            data["probe_seconds"] = round(seconds, 3)
            extra = _strip_progress(err_text).strip()
            if extra:
                data["stderr"] = cap_text(extra, LOG_KEEP // 4)
            if isinstance(data.get("log"), str):
                data["log"] = cap_text(data["log"])
            return data
        kind = "bad_output" if process.returncode == 0 else "crashed"
    message = _message(kind, executable, timeout, process.returncode, _stage(err_text), out_text)
    if "Unknown option: -I" in err_text:  # Python 2 (or 3.3): no isolated mode
        message = (
            f"{executable} is too old to run the environment probe (it has no -I option: Python 2"
            " or 3.3); TensorFlow 2 needs Python 3.7 or newer, so choose another environment"
        )
    result = _failure(executable, kind, message)
    result.update(
        returncode=process.returncode,
        stage=_stage(err_text),
        stdout_tail=_tail(out_text),
        stderr_tail=_tail(_strip_progress(err_text)),
        log=cap_text(_read_log(log_path)),
        probe_seconds=round(seconds, 3),
    )
    _remove(log_path)
    return result


def _wait(
    process: subprocess.Popen, timeout: float, cancelled: Optional[Callable[[], bool]]
) -> tuple[bytes, bytes, Optional[str]]:
    """Wait for the probe; kill its tree on timeout or cancel. Returns (stdout, stderr, kind)."""
    deadline = time.monotonic() + max(0.1, timeout)
    out_chunks: list[bytes] = []
    err_chunks: list[bytes] = []
    kind: Optional[str] = None
    while True:
        step = min(_POLL_S, max(0.01, deadline - time.monotonic()))
        try:
            stdout, stderr = process.communicate(timeout=step)
            return stdout or b"", stderr or b"", None
        except subprocess.TimeoutExpired:
            pass
        if cancelled is not None and cancelled():
            kind = "cancelled"
        elif time.monotonic() >= deadline:
            kind = "timeout"
        if kind:
            kill_tree(process)
            try:
                stdout, stderr = process.communicate(timeout=5)
            except subprocess.TimeoutExpired:  # a grandchild outside the group holds the pipe
                stdout, stderr = b"", b""
            out_chunks.append(stdout or b"")
            err_chunks.append(stderr or b"")
            return b"".join(out_chunks), b"".join(err_chunks), kind


def parse_output(text: str) -> Optional[ProbeResult]:
    """The probe's JSON object: the last stdout line that is one. None when there is none."""
    for line in reversed(text.splitlines()):
        data = json_object(line)
        if data is not None and data.get("probe") == PROBE_FORMAT and _fits_schema(data):
            return ProbeResult(data)
    return None


def _fits_schema(data: dict[str, Any]) -> bool:
    """The probe's JSON has the shape of DESIGN section 4 (else it is ``bad_output``: a layer
    must never meet a ``python`` that is text or a ``gpus`` list of strings)."""
    try:
        schema.validate(data, schema.PROBE)
    except schema.SchemaError as exc:
        log.warning("probe output does not fit its schema: %s", exc)
        return False
    return True


def _message(
    kind: str, executable: str, timeout: float, returncode: Optional[int], stage: str, out: str
) -> str:
    at = f" (it was at step '{stage}')" if stage else ""
    if kind == "timeout":
        return (
            f"the environment probe in {executable} did not finish within {timeout:.0f} s{at} and "
            "was stopped; a first TensorFlow import can be slow, so try again, and if it hangs "
            "again run 'python -c \"import tensorflow\"' in that environment to see where"
        )
    if kind == "cancelled":
        return f"the environment probe in {executable} was cancelled{at}"
    if kind == "crashed":
        how = _exit_text(returncode)
        return (
            f"the environment probe in {executable} {how}{at} before it could report; the log "
            "below shows the last thing it printed"
        )
    what = "printed nothing" if not out.strip() else "printed something that is not its JSON"
    return (
        f"{executable} ran the environment probe but {what} (exit status {returncode}); is it "
        "really a Python 3.7 or newer interpreter?"
    )


def _exit_text(returncode: Optional[int]) -> str:
    if returncode is None:
        return "stopped"
    if returncode < 0:
        try:
            name = signal.Signals(-returncode).name
        except ValueError:
            name = f"signal {-returncode}"
        return f"was killed by {name}"
    if returncode > 0xFFFFFF:  # Windows NTSTATUS such as 0xC0000135 (DLL not found)
        return f"crashed with status 0x{returncode & 0xFFFFFFFF:08X}"
    return f"exited with status {returncode}"


def _failure(executable: str, kind: str, message: str) -> ProbeResult:
    return ProbeResult({
        "error": message,
        "error_kind": kind,
        "executable": executable,
        "returncode": None,
        "stage": "",
        "stdout_tail": "",
        "stderr_tail": "",
        "log": "",
    })


def _announced_log(stderr: str) -> Optional[str]:
    match = _LOG_LINE.search(stderr)
    return match.group(1) if match else None


def _stage(stderr: str) -> str:
    stages = _STAGE_LINE.findall(stderr)
    return stages[-1] if stages else ""


def _strip_progress(stderr: str) -> str:
    return "\n".join(
        line for line in stderr.splitlines() if not line.startswith("gpu-wizard-probe: ")
    )


def _read_log(path: Optional[str]) -> str:
    """What a hung or crashed probe had captured in its temporary log."""
    if not path or not os.path.basename(path).startswith("gpu-wizard-probe-"):
        return ""
    try:
        with open(path, "rb") as handle:
            data = handle.read(16 * 1024 * 1024)
    except OSError:
        return ""
    return decode_output(data)


def _remove(path: Optional[str]) -> None:
    if path and os.path.basename(path).startswith("gpu-wizard-probe-"):
        with contextlib.suppress(OSError):
            os.remove(path)


def probe_many(
    executables: list[str],
    timeout: float = DEFAULT_TIMEOUT,
    max_workers: int = 4,
    cancelled: Optional[Callable[[], bool]] = None,
    progress: Optional[Callable[[float, str], None]] = None,
    runner: Optional[Callable[..., dict[str, Any]]] = None,
) -> dict[str, dict[str, Any]]:
    """Probe several interpreters at once; ``{executable: result}`` in the order given.

    ``cancelled()`` stops the running probes (each comes back with ``error_kind`` "cancelled")
    and skips those not started yet.
    """
    run = runner or run_probe
    unique = list(dict.fromkeys(executables))
    results: dict[str, dict[str, Any]] = {}
    if not unique:
        return results

    def one(exe: str) -> dict[str, Any]:
        if cancelled is not None and cancelled():
            return _failure(exe, "cancelled", f"the environment probe in {exe} was cancelled")
        return run(exe, timeout=timeout, cancelled=cancelled)

    workers = max(1, min(max_workers, len(unique)))
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="env-probe") as pool:
        futures = {exe: pool.submit(one, exe) for exe in unique}
        for done, exe in enumerate(unique, start=1):
            try:
                results[exe] = futures[exe].result()
            except Exception as exc:  # a bug in a runner must not lose the others
                results[exe] = _failure(exe, "crashed", f"probing {exe} failed: {exc}")
            if progress is not None:
                progress(done / len(unique), exe)
    return results
