"""The CUDA Toolkit from NVIDIA's local installer, silent, toolkit only (issue 10, item 3).

On native Windows the target's CUDA (TF 2.10: 11.2) comes from NVIDIA's local installer for
that minor version (:func:`wizard.core.knowledge.redist.cuda_installer_for`: 11.2.2, with the
sha256 a packager pins), downloaded and verified (:mod:`wizard.core.downloads`), then run
silently with only the toolkit components TensorFlow loads::

    cuda_11.2.2_461.33_win10.exe -s nvcc_11.2 cudart_11.2 cublas_11.2 cufft_11.2 curand_11.2
                                 cusolver_11.2 cusparse_11.2 cupti_11.2 nvrtc_11.2

``-s`` and the ``<component>_<major.minor>`` names are NVIDIA's silent installation (CUDA
Installation Guide for Microsoft Windows, "Install the CUDA Software"; the same names in
pytorch/builder's ``windows/internal/cuda_install.bat`` for 10.1 to 12.x). The display driver
(``Display.Driver``) is never among them: the driver the user has stays. The installer runs
elevated once (one UAC prompt, :meth:`Host.run_streaming` with ``elevated=True``); a silent
install prints nothing, so progress is the share of the components' files that have appeared
in the toolkit folder. Afterwards the files are checked (:func:`verify`) and the cuda layer
runs again (:func:`recheck`).

On Linux and WSL2 the wizard never runs a ``.run`` file: :func:`plan_cuda` raises a
:class:`~wizard.core.fixes.plan.FixError` whose message names the route for that environment
(the pip wheels of ``tensorflow[and-cuda]`` with that environment's interpreter, or NVIDIA's
``cuda-toolkit-X-Y`` distribution package for a TF that loads the system CUDA).

For the GUI::

    plan = plan_cuda(host, tensorflow=None, python=None)   # CudaPlan (FixError: why not)
    plan.lines(lang)                  # what is downloaded (size, from where, checksum), the
                                      # exact command, the components, the folder
    path = fetch(host, plan, progress=..., cancelled=...)  # downloads.Progress: done, total,
                                                           # speed, eta
    result = run_installer(host, plan, path, on_line=..., progress=..., cancelled=...)
    ok, seen = verify(host, plan); layer = recheck(host, plan)

A replayed profile (demo mode) builds the plan and refuses to fetch or run.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from wizard.core import downloads, envs, knowledge
from wizard.core.cuda_installs import TOOLKIT_SUBDIR, cudart_file_name
from wizard.core.fixes.fetch import fetch_verified
from wizard.core.fixes.packages import Command, plan_tensorflow, tf_target
from wizard.core.fixes.plan import FixError
from wizard.core.host import Host, ProbeResult
from wizard.core.host.windows import program_files
from wizard.core.knowledge import redist
from wizard.core.messages import Message, msg, render

ACTION = "install_cuda"
COMPONENTS = ("nvcc", "cudart", "cublas", "cufft", "curand", "cusolver", "cusparse", "cupti",
              "nvrtc")
"""What TensorFlow loads from the toolkit: the runtime and its math libraries, CUPTI (the
profiler), NVRTC (cuDNN 8's runtime-compiled kernels), nvcc (ptxas for XLA; it also brings
``version.json``). No ``*_dev`` headers, no samples, no Nsight, never ``Display.Driver``."""
NEVER = ("Display.Driver",)
_MARKERS: dict[str, dict[str, str]] = {
    # component -> the file in <toolkit>\bin that shows it is there (progress only; the check
    # afterwards is the cuda layer's)
    "11.2": {"cublas": "cublas64_11.dll", "cufft": "cufft64_10.dll", "curand": "curand64_10.dll",
             "cusolver": "cusolver64_11.dll", "cusparse": "cusparse64_11.dll",
             "nvrtc": "nvrtc64_112_0.dll"},
    "11.0": {"cublas": "cublas64_11.dll", "cufft": "cufft64_10.dll", "curand": "curand64_10.dll",
             "cusolver": "cusolver64_10.dll", "cusparse": "cusparse64_11.dll",
             "nvrtc": "nvrtc64_110_0.dll"},
    "10.1": {"cublas": "cublas64_10.dll", "cufft": "cufft64_10.dll", "curand": "curand64_10.dll",
             "cusolver": "cusolver64_10.dll", "cusparse": "cusparse64_10.dll",
             "nvrtc": "nvrtc64_101_0.dll"},
}
POLL_S = 1.0

LineFn = Callable[[str], None]
ProgressFn = Callable[[float, str], None]
CancelledFn = Callable[[], bool]


@dataclass
class CudaPlan:
    """What ``fix cuda --download`` would do on Windows, before anything is fetched or run."""

    cuda: str
    """The toolkit's minor version (``"11.2"``)."""
    path: str
    """Where the installer is (the download cache, or the file the user gave)."""
    dest: str
    """The toolkit folder the installer creates (``...\\CUDA\\v11.2``)."""
    installer: Optional[redist.Download] = None
    """NVIDIA's installer to download (None: the user gave a file)."""
    components: list[str] = field(default_factory=list)
    cached: bool = False
    tensorflow: Optional[str] = None
    python: Optional[str] = None
    allow_hosts: tuple[str, ...] = ()
    notes: list[Message] = field(default_factory=list)
    action: str = ACTION

    @property
    def argv(self) -> list[str]:
        return [self.path, "-s", *self.components]

    @property
    def command(self) -> str:
        return Command(tuple(self.argv), "installer").text()

    @property
    def request(self) -> downloads.Request:
        assert self.installer is not None
        return downloads.Request(self.installer.effective_url, self.path,
                                 sha256=self.installer.sha256, md5=self.installer.md5,
                                 size=self.installer.size)

    def messages(self) -> list[Message]:
        lines: list[Message] = [msg("installs.cuda.title", cuda=self.cuda, dest=self.dest)]
        lines.extend(self._download_lines())
        lines.append(msg("installs.cuda.run", command=self.command))
        lines.append(msg("installs.cuda.components", components=", ".join(self.components),
                         never=", ".join(NEVER)))
        lines.append(msg("installs.cuda.then_check", dest=self.dest))
        return lines + self.notes

    def _download_lines(self) -> list[Message]:
        a = self.installer
        if a is None:
            return [msg("installs.cuda.given", path=self.path)]
        if self.cached:
            return [msg("download.plan.cached", path=self.path)]
        size = downloads.human_size(a.size) if a.size else msg("download.plan.size_unknown")
        lines = [msg("download.plan.file", file=a.file, size=size, url=a.effective_url),
                 msg("download.plan.cache", folder=downloads.folder_of(self.path))]
        if a.sha256:
            lines.append(msg("download.plan.verify_sha256", sha256=a.sha256))
        elif a.md5:
            lines.append(msg("download.plan.verify_md5", md5=a.md5))
        return lines

    def lines(self, lang: str) -> list[str]:
        return [render(m, lang) for m in self.messages()]

    def to_dict(self) -> dict[str, Any]:
        return {"action": self.action, "cuda": self.cuda, "path": self.path, "dest": self.dest,
                "installer": self.installer.to_dict() if self.installer else None,
                "components": list(self.components), "argv": self.argv, "cached": self.cached,
                "tensorflow": self.tensorflow, "python": self.python}


def components_for(cuda: str) -> list[str]:
    """The silent-install names of :data:`COMPONENTS` for CUDA ``cuda`` (``nvcc_11.2``...)."""
    minor = knowledge.series(cuda)
    return [f"{name}_{minor}" for name in COMPONENTS]


def toolkit_dir(host: Host, cuda: str) -> str:
    """Where NVIDIA's installer puts CUDA ``cuda``: ``<Program Files>\\NVIDIA GPU Computing
    Toolkit\\CUDA\\v11.2``."""
    return host.join(program_files(host)[0], TOOLKIT_SUBDIR, f"v{knowledge.series(cuda)}")


def target_cuda(host: Host, cuda: Optional[str], tensorflow: Optional[str],
                python: Optional[str]) -> tuple[str, Optional[str], Optional[str]]:
    """(CUDA minor, TF to check for afterwards, python): ``cuda`` as given, else what the target
    TF loads (``--tf``, else the TF installed in the environment ``check`` picks; on native
    Windows 2.10 for a newer one)."""
    if cuda:
        try:
            return knowledge.series(knowledge.parse_cuda_query(cuda)), tensorflow, python
        except ValueError as exc:
            raise FixError(msg("installs.cuda.bad_version", cuda=cuda, reason=str(exc))) from None
    target, python, _ = _target(host, tensorflow, python)
    if not target.cuda:
        raise FixError(msg("installs.cuda.no_cuda", tensorflow=target.series))
    return knowledge.series(target.cuda), tensorflow or target.series, python


def _target(host: Host, tensorflow: Optional[str], python: Optional[str]) -> tuple[Any, ...]:
    """The TF target, the environment's interpreter and its probe (None when ``--tf`` names
    the TF and no environment was given)."""
    probe = None
    if python or not tensorflow:
        python, probe, _ = envs.choose_environment(host, python)
    installed = envs.tf_version(probe) if probe else None
    return tf_target(host.platform.os_kind, tensorflow, installed, python), python, probe


def plan_cuda(host: Host, cuda: Optional[str] = None, tensorflow: Optional[str] = None,
              python: Optional[str] = None, installer: Optional[str] = None,
              allow_hosts: tuple[str, ...] = ()) -> CudaPlan:
    """The silent install of the target's CUDA on Windows; FixError with the route elsewhere
    or when no installer is known."""
    if not host.is_windows:
        raise FixError(linux_route(host, tensorflow, python))
    minor, tensorflow, python = target_cuda(host, cuda, tensorflow, python)
    dest = toolkit_dir(host, minor)
    notes: list[Message] = []
    if host.is_file(host.join(dest, "bin", cudart_file_name(minor, True))):
        notes.append(msg("installs.cuda.present", dest=dest))
    if not host.is_live:
        notes.append(msg("fix.demo_mode"))
    if installer:
        return CudaPlan(minor, installer, dest, None, components_for(minor),
                        tensorflow=tensorflow, python=python, notes=notes)
    download = redist.cuda_installer_for(minor, "windows", host.platform.arch)
    if download is None:
        raise FixError(msg("installs.cuda.no_installer", cuda=minor, arch=host.platform.arch,
                           page=knowledge.cuda_download_url(minor, "windows")))
    plan = CudaPlan(knowledge.series(download.version),
                    downloads.cache_path_of(host, download.file),
                    dest, download, components_for(download.version), tensorflow=tensorflow,
                    python=python, allow_hosts=tuple(allow_hosts), notes=notes)
    plan.cached = host.is_live and downloads.already_there(plan.request)
    return plan


def linux_route(host: Host, tensorflow: Optional[str], python: Optional[str]) -> Message:
    """What replaces the CUDA installer on Linux and WSL2, with the exact command: the pip
    wheels (``tensorflow[and-cuda]``, that environment's interpreter), or for a TF that loads
    the system CUDA, NVIDIA's ``cuda-toolkit-X-Y`` package (never a driver inside WSL2)."""
    os_kind = host.platform.os_kind
    target, python, probe = _target(host, tensorflow, python)
    if target.pip_cuda:
        return msg("installs.cuda.route_pip", tensorflow=target.series,
                   command=_pip_command(host, target, tensorflow, python, probe))
    cuda = knowledge.series(target.cuda or "12")
    return msg("installs.cuda.route_distro", tensorflow=target.series, cuda=cuda,
               command="sudo apt-get install -y cuda-toolkit-" + cuda.replace(".", "-"),
               url=knowledge.cuda_download_url(cuda, os_kind),
               wsl=msg("installs.cuda.wsl_no_driver") if os_kind == "wsl2" else None)


def cudnn_route(host: Host, tensorflow: Optional[str], python: Optional[str]
                ) -> Optional[Message]:
    """On Linux and WSL2, for a TF that loads cuDNN from its pip wheels: the message that names
    the pip command instead of copying NVIDIA's archive into a toolkit folder TF would not read;
    None where the archive is the route (native Windows, a TF that loads the system cuDNN)."""
    if host.is_windows:
        return None
    target, python, probe = _target(host, tensorflow, python)
    if not target.pip_cuda:
        return None
    return msg("installs.cudnn.route_pip", tensorflow=target.series,
               command=_pip_command(host, target, tensorflow, python, probe))


def _pip_command(host: Host, target: Any, tensorflow: Optional[str], python: Optional[str],
                 probe: Optional[dict[str, Any]]) -> str:
    """The commands that install the target with its CUDA wheels into that environment (its
    own interpreter), or a generic ``python3 -m pip`` line when there is no environment."""
    command = f'python3 -m pip install "{target.requirements[0]}"'
    if python and probe is not None and not probe.get("error"):
        try:
            plan = plan_tensorflow(host, python=python, tensorflow=tensorflow,
                                   probe=ProbeResult.of(probe))
            command = " && ".join(c.text() for c in plan.commands)
        except FixError:
            pass
    return command


def fetch(host: Host, plan: CudaPlan, progress: downloads.ProgressFn = lambda _: None,
          cancelled: downloads.CancelledFn = lambda: False,
          options: Optional[downloads.Options] = None) -> str:
    """The installer, downloaded and verified (or the verified copy in the cache, or the file
    the user gave); FixError with the download's own message, FixCancelled when cancelled."""
    if not host.is_live or not host.can_write:
        raise FixError(msg("fix.demo_mode"))
    if plan.installer is None:
        if not host.is_file(plan.path):
            raise FixError(msg("installs.cuda.no_file", path=plan.path))
        return plan.path
    path = fetch_verified(plan.request, plan.allow_hosts, progress, cancelled, options)
    plan.cached = True
    return path


@dataclass
class InstallerResult:
    ok: bool
    message: Message
    returncode: Optional[int] = None
    cancelled: bool = False
    output: str = ""


def run_installer(host: Host, plan: CudaPlan, path: str, on_line: Optional[LineFn] = None,
                  progress: Optional[ProgressFn] = None,
                  cancelled: Optional[CancelledFn] = None) -> InstallerResult:
    """Run the installer silently, elevated once, through the Host; progress from the files that
    appear. Raises FixError only when nothing may run (demo mode)."""
    if not host.can_write:
        raise FixError(msg("installs.refuse.demo"))
    argv = [path, *plan.argv[1:]]
    assert not set(argv) & set(NEVER), "the display driver is never installed"
    watch = _Watcher(host, plan, progress)
    result = host.run_streaming(argv, on_line=on_line,
                                cancelled=lambda: watch.tick() or bool(cancelled and cancelled()),
                                elevated=True)
    watch.tick(force=True)
    command = Command(tuple(argv), "installer").text()
    if result.cancelled:
        return InstallerResult(False, msg("installs.cuda.cancelled", command=command),
                               cancelled=True, output=result.stdout)
    if result.not_found:
        return InstallerResult(False, msg("installs.run.not_found", program=path,
                                          reason=result.stderr or "?"), output=result.stdout)
    if not result.ok:
        return InstallerResult(False, msg("installs.cuda.failed", command=command,
                                          code=result.returncode), result.returncode,
                               output=result.stdout)
    return InstallerResult(True, msg("installs.cuda.done", cuda=plan.cuda, dest=plan.dest), 0,
                           output=result.stdout)


class _Watcher:
    """Progress of a silent install: the share of the components whose file is there."""

    def __init__(self, host: Host, plan: CudaPlan, progress: Optional[ProgressFn]) -> None:
        self.host, self.plan, self.progress = host, plan, progress
        self.last = 0.0
        self.seen = -1

    def tick(self, force: bool = False) -> bool:
        if self.progress is None or (not force and time.monotonic() - self.last < POLL_S):
            return False
        self.last = time.monotonic()
        files = expected_files(self.host, self.plan)
        there = [name for name, path in files.items() if self.host.is_file(path)]
        if len(there) != self.seen:
            self.seen = len(there)
            self.progress(len(there) / max(1, len(files)), ", ".join(there))
        return False


def expected_files(host: Host, plan: CudaPlan) -> dict[str, str]:
    """component -> a file it puts in the toolkit (those the wizard knows for this version)."""
    bin_dir = host.join(plan.dest, "bin")
    files = {"cudart": host.join(bin_dir, cudart_file_name(plan.cuda, True)),
             "nvcc": host.join(bin_dir, "nvcc.exe")}
    for name, file in _MARKERS.get(plan.cuda, {}).items():
        files[name] = host.join(bin_dir, file)
    return files


def verify(host: Host, plan: CudaPlan) -> tuple[bool, Message]:
    """Whether the toolkit's runtime and libraries are in the folder now."""
    files = expected_files(host, plan)
    missing = [host.path.basename(path) for path in files.values() if not host.is_file(path)]
    if missing:
        return False, msg("installs.cuda.verify_bad", dest=plan.dest, missing=", ".join(missing))
    return True, msg("installs.cuda.verify_ok", cuda=plan.cuda, dest=plan.dest)


def recheck(host: Host, plan: CudaPlan, cancelled: Optional[CancelledFn] = None) -> Any:
    """The cuda layer checked again (as ``check`` does: the PATH a new terminal gets)."""
    from wizard.core.fixes.verify import recheck as run_recheck

    return run_recheck(host, "cuda", tensorflow=plan.tensorflow, python=plan.python,
                       cancelled=cancelled)
