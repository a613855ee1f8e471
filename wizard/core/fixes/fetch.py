"""A fix's download: :func:`wizard.core.downloads.download` with the hosts the plan allows,
its errors as the fixes' own (:class:`FixError` with the download's message,
:class:`FixCancelled`). Shared by ``fix cudnn --download`` and ``fix cuda --download``."""

from __future__ import annotations

from typing import Optional

from wizard.core import downloads
from wizard.core.fixes.plan import FixCancelled, FixError


def fetch_verified(request: downloads.Request, allow_hosts: tuple[str, ...],
                   progress: downloads.ProgressFn, cancelled: downloads.CancelledFn,
                   options: Optional[downloads.Options] = None) -> str:
    """Download (or reuse the verified cached copy of) ``request``; the file's path."""
    options = options or downloads.Options()
    if allow_hosts:
        options.allow_hosts = tuple({*options.allow_hosts, *allow_hosts})
    try:
        return downloads.download(request, progress, cancelled, options).path
    except downloads.DownloadCancelled:
        raise FixCancelled() from None
    except downloads.DownloadError as exc:
        raise FixError(exc.message) from None
