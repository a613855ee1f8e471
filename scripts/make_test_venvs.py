"""Build the real TensorFlow/PyTorch virtual environments the slow integration tests probe.

Each environment is keyed by a spec string (base Python + pip requirements). It is built once
into a cache folder (``$GPU_WIZARD_VENV_CACHE``, default ``~/.cache/gpu-wizard/test-venvs``) and
reused on later runs. A build happens in a temporary folder that is renamed into place only when
pip has finished and the interpreter imports what it should, so an interrupted or failed build
is never reused. A file lock keeps two builders (e.g. this script in the background and a pytest
run) from building the same environment twice.

Usage::

    python scripts/make_test_venvs.py            # build all, one after the other
    python scripts/make_test_venvs.py tf-cpu     # build some
    python scripts/make_test_venvs.py --list     # show where each one is and whether it is built
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import glob
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

DEFAULT_CACHE = Path.home() / ".cache" / "gpu-wizard" / "test-venvs"
MARKER = "gpu-wizard-venv.json"
TORCH_CPU_INDEX = "https://download.pytorch.org/whl/cpu"


@dataclass(frozen=True)
class VenvSpec:
    name: str
    python: str
    """The base Python's major.minor ("3.11")."""
    requirements: tuple[str, ...]
    check: str
    """A statement the finished environment must run without error."""
    extra_pip_args: tuple[str, ...] = ()

    @property
    def key(self) -> str:
        text = json.dumps([self.python, list(self.requirements), list(self.extra_pip_args)])
        return f"{self.name}-py{self.python}-{hashlib.sha1(text.encode()).hexdigest()[:10]}"


_HAS = "import importlib.metadata as m; "
SPECS: dict[str, VenvSpec] = {
    spec.name: spec
    for spec in (
        VenvSpec("tf-cpu", "3.11", ("tensorflow-cpu",), _HAS + "m.version('tensorflow-cpu')"),
        VenvSpec("tf-cuda", "3.11", ("tensorflow",), _HAS + "m.version('tensorflow')"),
        VenvSpec(
            "tf210-np1",
            "3.10",
            ("tensorflow==2.10.1", "numpy<2"),
            "import numpy; assert numpy.__version__.startswith('1.')",
        ),
        VenvSpec(
            "tf210-np2",
            "3.10",
            ("tensorflow==2.10.1", "numpy>=2"),
            "import numpy; assert numpy.__version__.startswith('2.')",
        ),
        VenvSpec(
            "torch-cpu",
            "3.11",
            # numpy: the benchmark's CPU matmul is checked against NumPy in the same env
            ("torch==2.13.0+cpu", "numpy"),
            "import importlib.metadata as m, numpy; assert '+cpu' in m.version('torch')",
        ),
    )
}


def cache_dir() -> Path:
    return Path(os.environ.get("GPU_WIZARD_VENV_CACHE") or DEFAULT_CACHE).expanduser()


def find_python(version: str) -> Optional[str]:
    """A base interpreter for ``version`` ("3.10"): pyenv's, else ``python3.10`` on PATH."""
    env_name = "GPU_WIZARD_PYTHON" + version.replace(".", "")
    if os.environ.get(env_name):
        return os.environ[env_name]
    roots = [os.environ.get("PYENV_ROOT", ""), str(Path.home() / ".pyenv"), "/root/.pyenv"]
    for root in roots:
        if not root:
            continue
        found = sorted(glob.glob(os.path.join(root, "versions", version + ".*", "bin", "python")))
        found = [p for p in found if os.access(p, os.X_OK)]
        if found:
            return found[-1]
    if sys.version_info[:2] == tuple(int(x) for x in version.split(".")):
        return sys.executable
    return shutil.which("python" + version)


def venv_python(path: Path) -> Path:
    return path / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def built_path(spec: VenvSpec) -> Optional[Path]:
    """The finished environment for ``spec``, or None when it has not been built."""
    path = cache_dir() / spec.key
    if (path / MARKER).is_file() and venv_python(path).exists():
        return path
    return None


@contextlib.contextmanager
def _locked(name: str) -> Iterator[None]:
    cache = cache_dir()
    cache.mkdir(parents=True, exist_ok=True)
    with open(cache / f".{name}.lock", "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _run(argv: list[str], log) -> None:  # noqa: ANN001 - a text file
    log.write("$ " + " ".join(argv) + "\n")
    log.flush()
    subprocess.run(argv, check=True, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)


def build(spec: VenvSpec, log=None) -> Path:  # noqa: ANN001
    """Build ``spec`` (or return the cached build). Raises RuntimeError naming the log."""
    found = built_path(spec)
    if found:
        return found
    with _locked(spec.key):
        found = built_path(spec)
        if found:
            return found
        base = find_python(spec.python)
        if not base:
            raise RuntimeError(
                f"{spec.name}: no Python {spec.python} found (set GPU_WIZARD_PYTHON"
                f"{spec.python.replace('.', '')} or install it with pyenv)"
            )
        cache = cache_dir()
        final = cache / spec.key
        tmp = cache / f".tmp-{spec.key}-{os.getpid()}"
        shutil.rmtree(tmp, ignore_errors=True)
        shutil.rmtree(final, ignore_errors=True)  # an unfinished leftover without a marker
        log_path = cache / f"{spec.key}.log"
        started = time.monotonic()
        with open(log_path, "w", encoding="utf-8") as own_log:
            out = log or own_log
            try:
                _run([base, "-m", "venv", str(tmp)], out)
                py = str(venv_python(tmp))
                pip = [py, "-m", "pip", "install", "--disable-pip-version-check", "--no-input"]
                try:
                    _run([*pip, *spec.extra_pip_args, *spec.requirements], out)
                except subprocess.CalledProcessError:
                    if not any("+cpu" in r for r in spec.requirements):
                        raise
                    _run([*pip, "--extra-index-url", TORCH_CPU_INDEX, *spec.requirements], out)
                _run([py, "-c", spec.check], out)
            except (subprocess.CalledProcessError, OSError) as exc:
                shutil.rmtree(tmp, ignore_errors=True)
                raise RuntimeError(
                    f"{spec.name}: building the venv failed ({exc}); see {log_path}"
                ) from exc
        seconds = time.monotonic() - started
        (tmp / MARKER).write_text(
            json.dumps({"spec": spec.name, "key": spec.key, "base": base,
                        "requirements": list(spec.requirements),
                        "build_seconds": round(seconds, 1)}),
            encoding="utf-8",
        )
        os.rename(tmp, final)
        return final


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help=f"which ones (default all: {', '.join(SPECS)})")
    parser.add_argument("--list", action="store_true", help="show the cache state and exit")
    args = parser.parse_args(argv)
    names = args.names or list(SPECS)
    unknown = [n for n in names if n not in SPECS]
    if unknown:
        parser.error(f"unknown venv(s): {', '.join(unknown)}; known: {', '.join(SPECS)}")
    failed = 0
    for name in names:
        spec = SPECS[name]
        if args.list:
            path = built_path(spec)
            print(f"{name:10} {path or 'not built'} ({cache_dir() / spec.key})")
            continue
        started = time.monotonic()
        try:
            path = build(spec)
        except RuntimeError as exc:
            print(f"FAILED {exc}", flush=True)
            failed += 1
            continue
        print(f"{name:10} ready in {time.monotonic() - started:6.1f}s: {path}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
