"""What the fix GUI tests share: cuDNN served by a local HTTP server as if from NVIDIA, a wheel
written by hand (pip without an index), and a check session whose findings follow the disk."""

from __future__ import annotations

import copy
import hashlib
import os
import sys
from pathlib import Path
from typing import Any, Callable, Optional

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "core"))
sys.path.insert(0, str(ROOT))

import fix_archives as fa  # noqa: E402

from tests.core import dl_server  # noqa: E402
from tests.core.throwaway_env import installed, make_venv, make_wheel  # noqa: E402,F401
from wizard.core.messages import msg  # noqa: E402
from wizard.core.model import FAIL, LAYERS, OK, Finding, Fix, LayerResult, Report, Target  # noqa: E402

PROXY_VARS = ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY", "http_proxy",
              "https_proxy", "all_proxy", "no_proxy")
CUDNN_FILE = "cudnn-11.2-linux-x64-v8.1.1.33.tgz"


def start_server(monkeypatch) -> tuple[Any, Callable[[], None]]:  # noqa: ANN001
    for name in PROXY_VARS:
        monkeypatch.delenv(name, raising=False)
    state, httpd = dl_server.start()

    def stop() -> None:
        httpd.shutdown()
        httpd.server_close()

    return state, stop


def serve_cudnn(server: Any, tmp_path: Path, monkeypatch, body_extra: int = 300_000,  # noqa: ANN001
                wrong_sha: bool = False, **route: Any) -> str:
    """NVIDIA's cuDNN 8.1.1 tgz path on the local server holding a test archive (the redist
    table is told its sha256); downloads go there, into a temporary cache; the loopback host
    is allowed. Returns the served path."""
    from wizard.core import downloads
    from wizard.core.knowledge import redist
    from wizard.widgets import fix_tasks

    noise = os.urandom(body_extra)
    archive = fa.linux_tar(tmp_path, "8.1.1.33", cuda=11, extra=(
        ("cudnn-linux-x86_64-8.1.1.33_cuda11-archive/NOTICE.bin", noise, "file"),))
    body = archive.read_bytes()
    real = redist.redist_data()
    row = next(r for r in real["cudnn"] if r["file"] == CUDNN_FILE)
    table = copy.deepcopy(real)
    for r in table["cudnn"]:
        if r["file"] == CUDNN_FILE:
            r["sha256"] = "0" * 64 if wrong_sha else hashlib.sha256(body).hexdigest()
    monkeypatch.setattr(redist, "redist_data", lambda: table)
    path = row["url"][len(redist.NVIDIA_BASE):]
    server.routes[path] = dl_server.Route(body, **route)
    monkeypatch.setenv(redist.BASE_ENV, server.url(""))
    monkeypatch.setenv(downloads.CACHE_ENV, str(tmp_path / "cache"))
    monkeypatch.setattr(fix_tasks, "ALLOW_HOSTS", ("127.0.0.1",))
    return path


def cudnn_finding(dest: Path) -> Finding:
    return Finding("cudnn_missing", severity="fail", params={"cudnn": "8.1", "cuda": "11.2"},
                   fix=Fix(action="install_cudnn",
                           action_params={"dest": str(dest), "cudnn": "8.1", "cuda": "11.2"}))


def pip_finding(python: str, requirement: str, wheels: Path) -> Finding:
    command = (f'"{python}" -m pip install --no-index --find-links "{wheels}" '
               f'"{requirement}"')
    return Finding("tensorflow_not_installed", severity="fail",
                   params={"python": python},
                   fix=Fix(commands=(command,), action="pip_install",
                           action_params={"python": python, "command": command}))


class DiskSession:
    """A CheckSession stand-in for a live machine the tests own: the cudnn layer fails while the
    CUDA tree has no cuDNN, the tensorflow layer while the venv lacks ``gw_tiny``. The pip
    requirement the tensorflow finding asks for comes from ``requirement()``, read afresh on
    every check (to see that each fix is planned from a fresh check, not a stale one)."""

    def __init__(self, host: Any, cuda: Path, venv: str, wheels: Path,
                 requirement: Callable[[], str]) -> None:
        self.host, self.cuda, self.venv, self.wheels = host, cuda, venv, wheels
        self.requirement = requirement
        self.checks: list[str] = []
        self.rechecked: list[str] = []
        self.options = None

    def recheck(self, layer: str, progress: Any = None, cancelled: Any = None) -> Any:
        self.rechecked.append(layer)
        return self.run_all().layer(layer)

    def run_all(self, progress: Any = None, cancelled: Any = None) -> Report:
        self.checks.append("all")
        layers = []
        for name in LAYERS:
            findings: list[Finding] = []
            if name == "cudnn" and not (self.cuda / "lib64" / "libcudnn.so.8").exists():
                findings.append(cudnn_finding(self.cuda))
            if name == "tensorflow" and not installed(self.venv):
                findings.append(pip_finding(self.venv, self.requirement(), self.wheels))
            layers.append(LayerResult(name, FAIL if findings else OK, msg("fixgui.starting"),
                                      findings=findings))
        target = Target("2.10", "11.2", "8.1", "3.10", msg("fixgui.starting"), "linux")
        return Report({}, target, layers, ready=not any(r.findings for r in layers),
                      python=self.venv)


def packages_plan(python: str) -> Any:
    """A pip plan that installs into ``python``'s own environment (no new one)."""
    from wizard.core.fixes import packages

    return packages.PackagePlan(msg("fixgui.starting"), python, [
        packages.Command((python, "-m", "pip", "install", "gw_tiny"), "pip_install")])


def tree_hash(path: Path) -> Optional[str]:
    return fa.tree_hash(path)
