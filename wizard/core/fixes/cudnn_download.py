"""cuDNN fetched from NVIDIA, then installed by the archive fix: ``fix cudnn --download`` and the
GUI's "Fix it" on a cuDNN finding without an archive at hand.

For the GUI (and the CLI), in three steps::

    plan = download_plan(host, finding.fix.action_params, {"tensorflow": "2.10"})
    plan.messages()    # what is downloaded, how big, from where, how it is checked, where it goes
    plan.to_dict()     # the same as data: url, file, size, sha256, verified_by, cached, dest...
    path = fetch(host, plan, progress, cancelled)   # progress(downloads.Progress): fraction,
                                                    # done, total, speed (B/s), eta (s)
    install = install_plan(host, plan, path)        # the archive fix's Plan (plan_cudnn):
                                                    # journal.apply / journal.undo as usual

``params`` are the ``install_cudnn`` finding's ``action_params`` (``dest``: the CUDA toolkit,
``cudnn``: the series the target TF loads, ``cuda``: the target's CUDA); ``given`` may add
``tensorflow``, ``dest`` (another toolkit), ``allow_hosts`` and ``force``. Which archive is
:func:`wizard.core.knowledge.redist.cudnn_for`'s choice for this OS and architecture and the
toolkit's own CUDA version (``version.json``), else the target's. On a ReplayHost (demo mode)
:func:`download_plan` works and :func:`fetch` refuses: plan only. The archive goes to the download
cache (:func:`wizard.core.downloads.cache_dir`); a verified copy there is not fetched again
(:func:`download_plan` hashes such a copy to know: seconds for 1 GB, so call it on a worker).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from wizard.core import downloads
from wizard.core.fixes.cudnn import CudnnRequest, plan_cudnn, toolkit_version
from wizard.core.fixes.fetch import fetch_verified
from wizard.core.fixes.plan import FixError, Plan
from wizard.core.host import Host
from wizard.core.knowledge import cudnn_download_url, redist
from wizard.core.messages import Message, msg


@dataclass
class DownloadPlan:
    """The cuDNN archive to fetch for a toolkit, before anything is fetched."""

    archive: redist.Download
    url: str
    path: str
    """Where the archive lands (the download cache)."""
    dest: str
    """The CUDA toolkit (or folder) it is then installed into."""
    cuda: Optional[str]
    tensorflow: Optional[str] = None
    cudnn_needed: Optional[str] = None
    cached: bool = False
    allow_hosts: tuple[str, ...] = ()
    toolkit: bool = True
    force: bool = False
    notes: list[Message] = field(default_factory=list)

    @property
    def request(self) -> downloads.Request:
        return downloads.Request(self.url, self.path, sha256=self.archive.sha256,
                                 md5=self.archive.md5, size=self.archive.size)

    def messages(self) -> list[Message]:
        a = self.archive
        lines = [msg("download.plan.title", version=a.version, cuda=self.cuda or "?",
                     dest=self.dest)]
        if self.cached:
            lines.append(msg("download.plan.cached", path=self.path))
        else:
            size = downloads.human_size(a.size) if a.size else msg("download.plan.size_unknown")
            lines.append(msg("download.plan.file", file=a.file, size=size, url=self.url))
            lines.append(msg("download.plan.cache", folder=downloads.folder_of(self.path)))
        if a.sha256:
            lines.append(msg("download.plan.verify_sha256", sha256=a.sha256))
        elif a.md5:
            lines.append(msg("download.plan.verify_md5", md5=a.md5))
        else:
            lines.append(msg("download.plan.verify_none"))
        lines.append(msg("download.plan.then_install", dest=self.dest))
        return lines + self.notes

    def lines(self, lang: str) -> list[str]:
        from wizard.core.messages import render

        return [render(m, lang) for m in self.messages()]

    def to_dict(self) -> dict[str, Any]:
        return {"archive": self.archive.to_dict(), "url": self.url, "path": self.path,
                "dest": self.dest, "cuda": self.cuda, "tensorflow": self.tensorflow,
                "cudnn": self.cudnn_needed, "cached": self.cached,
                "size": self.archive.size, "verified_by": self.archive.verified_by}


def _os_name(host: Host) -> str:
    return "windows" if host.is_windows else "linux"


def download_plan(host: Host, params: dict[str, Any], given: Optional[dict[str, Any]] = None
                  ) -> DownloadPlan:
    """What ``fix cudnn --download`` would fetch (:class:`FixError` when nothing fits)."""
    given = given or {}
    dest = given.get("dest") or params.get("dest")
    if not dest:
        raise FixError(msg("fix.refuse.no_cuda_found"))
    toolkit = bool(given.get("toolkit", True))
    if toolkit and not host.is_dir(dest):
        raise FixError(msg("fix.refuse.no_cuda_dir", dir=dest))
    cuda = (toolkit_version(host, dest) if toolkit else None) or params.get("cuda")
    needed = given.get("cudnn") or params.get("cudnn")
    os_name, arch = _os_name(host), host.platform.arch
    archive = redist.cudnn_for(needed, cuda, os_name, arch)
    if archive is None:
        raise FixError(msg("download.refuse.no_archive", cudnn=needed or "?", cuda=cuda or "?",
                           os=os_name, arch=arch,
                           page=cudnn_download_url(needed or "8")))
    url = archive.effective_url
    path = downloads.cache_path_of(host, archive.file)
    plan = DownloadPlan(archive, url, path, dest, cuda, tensorflow=given.get("tensorflow")
                        or params.get("tensorflow"), cudnn_needed=needed,
                        allow_hosts=tuple(given.get("allow_hosts") or ()), toolkit=toolkit,
                        force=bool(given.get("force")))
    plan.cached = host.is_live and downloads.already_there(plan.request)
    if not host.is_live:
        plan.notes.append(msg("fix.demo_mode"))
    return plan


def fetch(host: Host, plan: DownloadPlan,
          progress: downloads.ProgressFn = lambda _: None,
          cancelled: downloads.CancelledFn = lambda: False,
          options: Optional[downloads.Options] = None) -> str:
    """Download (or reuse) the archive; its path. :class:`FixError` with the download's own
    message when it fails, :class:`FixCancelled` when cancelled; nothing on a ReplayHost."""
    if not host.is_live:
        raise FixError(msg("fix.demo_mode"))
    path = fetch_verified(plan.request, plan.allow_hosts, progress, cancelled, options)
    plan.cached = True
    return path


def install_plan(host: Host, plan: DownloadPlan, archive: str,
                 progress: Any = None, cancelled: Any = None) -> Plan:
    """The archive fix's plan for the downloaded file (what is copied where)."""
    extra: dict[str, Any] = {}
    if progress is not None:
        extra["progress"] = progress
    if cancelled is not None:
        extra["cancelled"] = cancelled
    return plan_cudnn(host, CudnnRequest(archive=archive, dest=plan.dest, toolkit=plan.toolkit,
                                         tensorflow=plan.tensorflow,
                                         cudnn_needed=plan.cudnn_needed, force=plan.force),
                      **extra)
