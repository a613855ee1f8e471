"""Downloads the wizard makes itself: NVIDIA's cuDNN archives and CUDA installers, nothing else
unless the user says so.

The API (used by ``gpu-wizard download``, ``fix cudnn --download``, ``fix cuda --download`` and
the GUI's fix dialog)::

    result = download(Request(url, dest, sha256=..., md5=..., size=...),
                      progress=lambda p: ..., cancelled=lambda: False,
                      allow_hosts=("mirror.example.org",))
    result.path, result.size, result.sha256, result.fetched, result.resumed

* ``progress(p)`` gets a :class:`Progress`: ``p.done`` and ``p.total`` bytes (total None when
  the server does not say), ``p.fraction`` (0..1 or None), ``p.speed`` (bytes/s, averaged over
  the last seconds), ``p.eta`` (seconds or None). A worker forwards it as it is (it is a frozen
  dataclass of numbers); :func:`describe_progress` renders it as a Message.
* ``cancelled()`` is polled between chunks and during back-off: the download stops with
  :class:`DownloadCancelled`; nothing appears under the final name and the ``.part`` file next
  to it is kept, so the next call resumes.
* Every failure is a :class:`DownloadError` whose ``message`` (en + zh_CN in
  ``resources/messages/downloads.json``) names the URL, the file and the next step.

What it guarantees: HTTPS only, to :data:`DEFAULT_HOSTS` (NVIDIA's download hosts and the Python
package index) plus ``allow_hosts``; plain HTTP only to a loopback host named in ``allow_hosts``
(tests). Redirects are followed by hand, each hop checked against the same rule. The body streams
into ``<dest>.part`` (beside it a small ``.part.json`` with the URL and the server's ETag /
Last-Modified); after a dropped connection the next attempt asks for the rest with ``Range`` and
``If-Range``; a server that answers 200 instead of 206 restarts the file cleanly. Retries with
exponential back-off; connect and read timeouts. The size and the checksum (sha256, or md5
where NVIDIA gives only md5) are verified before the file is renamed (atomically) to ``dest``;
a mismatch deletes the ``.part``. A ``dest`` that already exists and matches the checksum is not
fetched again. Proxies come from the environment (``HTTPS_PROXY``, ``NO_PROXY``; requests'
``trust_env``).

:func:`cache_dir` is the download cache (``GPU_WIZARD_CACHE_DIR`` overrides platformdirs'
``user_cache_dir``); :func:`cached_path` the place a URL's file lands there.
"""

from __future__ import annotations

import contextlib
import hashlib
import ipaddress
import json
import logging
import os
import posixpath
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Optional
from urllib.parse import unquote, urljoin, urlsplit

from wizard.core.messages import Message, msg

log = logging.getLogger(__name__)

CACHE_ENV = "GPU_WIZARD_CACHE_DIR"
DEFAULT_HOSTS: tuple[str, ...] = (
    "developer.download.nvidia.com",  # CUDA installers, cuDNN redistributables, manifests
    "developer.download.nvidia.cn",  # NVIDIA's mirror of the same tree for users in China
    "developer.nvidia.com",
    "pypi.org",
    "files.pythonhosted.org",
    "pypi.nvidia.com",
)
"""Hosts a download may reach (and be redirected to) without ``--allow-host``."""
LOOPBACK_NAMES = ("localhost",)
MAX_REDIRECTS = 10
CHUNK = 1 << 16
USER_AGENT = "gpu-wizard-download"


class DownloadError(Exception):
    """A download refused or failed; ``message`` says why, in any language."""

    def __init__(self, message: Message) -> None:
        super().__init__(str(message))
        self.message = message


class DownloadCancelled(DownloadError):
    pass


@dataclass(frozen=True)
class Progress:
    """Where a download stands: bytes done and total (None: unknown), speed in bytes/s, the
    seconds left (None: unknown)."""

    done: int
    total: Optional[int]
    speed: float = 0.0
    eta: Optional[float] = None

    @property
    def fraction(self) -> Optional[float]:
        if not self.total:
            return None
        return min(self.done / self.total, 1.0)


ProgressFn = Callable[[Progress], None]
CancelledFn = Callable[[], bool]


@dataclass
class Request:
    """What to fetch and how to know it arrived whole. ``md5`` only where NVIDIA publishes no
    sha256; ``size`` alone is the weakest check (the plan says so)."""

    url: str
    dest: str
    sha256: Optional[str] = None
    md5: Optional[str] = None
    size: Optional[int] = None

    @property
    def verified_by(self) -> str:
        """``sha256``, ``md5``, ``size`` or ``none``: what the file is checked against."""
        if self.sha256:
            return "sha256"
        if self.md5:
            return "md5"
        return "size" if self.size else "none"


@dataclass
class Result:
    path: str
    size: int
    sha256: str
    fetched: bool
    """False when a verified copy was already there."""
    resumed: bool = False
    attempts: int = 1


@dataclass
class Options:
    """Timeouts (seconds), retries and back-off; tests shorten them."""

    connect_timeout: float = 20.0
    read_timeout: float = 60.0
    retries: int = 5
    backoff: float = 1.0
    backoff_max: float = 30.0
    allow_hosts: tuple[str, ...] = ()
    sleep: Callable[[float], None] = field(default=time.sleep, repr=False)


# --- the cache -------------------------------------------------------------------------------

def cache_dir() -> Path:
    """The download cache: ``$GPU_WIZARD_CACHE_DIR`` or the user's cache folder."""
    override = os.environ.get(CACHE_ENV)
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_cache_dir("gpu-wizard", appauthor=False)) / "downloads"


def cache_path_of(host: Any, file: str) -> str:
    """Where the download cache keeps ``file`` on ``host``: in :func:`cache_dir` on this
    machine; on a replayed one (demo mode) where the wizard would keep it there, so a Windows
    profile's plan shows a Windows folder, not the folder of the machine that replays it."""
    if host.is_live:
        return str(cache_dir() / file)
    if host.is_windows:
        local = host.getenv("LOCALAPPDATA") or host.join(
            host.getenv("USERPROFILE") or r"C:\Users\user", "AppData", "Local")
        return host.join(local, "gpu-wizard", "Cache", "downloads", file)
    cache = host.getenv("XDG_CACHE_HOME") or host.join(host.getenv("HOME") or "~", ".cache")
    return host.join(cache, "gpu-wizard", "downloads", file)


def folder_of(path: str) -> str:
    """The folder part of a path of either system (a Windows profile's path on Linux)."""
    cut = max(path.rfind("/"), path.rfind("\\"))
    return path[:cut] if cut > 0 else path


def file_name(url: str) -> str:
    """The file name a URL ends in (``cudnn-11.2-windows-x64-v8.1.1.33.zip``)."""
    name = posixpath.basename(unquote(urlsplit(url).path))
    if not name or name in (".", ".."):
        raise DownloadError(msg("download.error.no_name", url=url))
    return name


def cached_path(url: str) -> Path:
    return cache_dir() / file_name(url)


def part_path(dest: str) -> str:
    return dest + ".part"


# --- which URLs are allowed ------------------------------------------------------------------

def is_loopback(host: str) -> bool:
    if host.lower() in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_url(url: str, allow_hosts: tuple[str, ...] = (), redirected_from: str = "") -> None:
    """Refuse (:class:`DownloadError`) a URL the wizard must not fetch from."""
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    allowed = {h.lower() for h in allow_hosts}
    origin = redirected_from or url
    if parts.scheme == "https" and host and (host in DEFAULT_HOSTS or host in allowed):
        return
    if parts.scheme == "http" and host in allowed and is_loopback(host):
        return
    if parts.scheme not in ("http", "https") or not host:
        raise DownloadError(msg("download.error.scheme", url=url))
    if redirected_from:
        raise DownloadError(msg("download.error.redirect_host", url=origin, target=url,
                                host=host))
    if parts.scheme == "http" and not is_loopback(host):
        raise DownloadError(msg("download.error.scheme", url=url))
    raise DownloadError(msg("download.error.host", url=url, host=host))


# --- verification ----------------------------------------------------------------------------

def file_digest(path: str, algorithm: str = "sha256",
                cancelled: Optional[CancelledFn] = None) -> str:
    digest = hashlib.new(algorithm)
    with open(path, "rb") as handle:
        while True:
            block = handle.read(1 << 20)
            if not block:
                return digest.hexdigest()
            if cancelled and cancelled():
                raise DownloadCancelled(msg("download.cancelled.verify", file=path))
            digest.update(block)


def verify(request: Request, path: str, cancelled: Optional[CancelledFn] = None
           ) -> Optional[Message]:
    """None when ``path`` is what the request describes; else the reason (a Message)."""
    size = os.path.getsize(path)
    if request.size is not None and size != request.size:
        return msg("download.error.size", url=request.url, file=request.dest,
                   expected=request.size, actual=size)
    for algorithm in ("sha256", "md5"):
        expected = getattr(request, algorithm)
        if not expected:
            continue
        actual = file_digest(path, algorithm, cancelled)
        if actual.lower() != expected.lower():
            return msg("download.error.checksum", url=request.url, file=request.dest,
                       algorithm=algorithm, expected=expected.lower(), actual=actual)
        return None
    return None


def already_there(request: Request, cancelled: Optional[CancelledFn] = None) -> bool:
    """``dest`` exists and matches a checksum (a size alone is not enough to skip)."""
    if not (request.sha256 or request.md5) or not os.path.isfile(request.dest):
        return False
    return verify(request, request.dest, cancelled) is None


# --- the download ----------------------------------------------------------------------------

class _Retry(Exception):
    """A failure worth another attempt (network, timeout, 5xx); ``reason`` for the last one."""

    def __init__(self, reason: str, timeout: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.timeout = timeout


class _Meter:
    """Speed over a sliding window of a few seconds, and the time left."""

    def __init__(self, window: float = 5.0) -> None:
        self.window = window
        self.samples: deque[tuple[float, int]] = deque()

    def progress(self, done: int, total: Optional[int]) -> Progress:
        now = time.monotonic()
        self.samples.append((now, done))
        while len(self.samples) > 2 and now - self.samples[0][0] > self.window:
            self.samples.popleft()
        first_time, first_done = self.samples[0]
        elapsed = now - first_time
        speed = (done - first_done) / elapsed if elapsed > 0 else 0.0
        eta = (total - done) / speed if total and speed > 0 else None
        return Progress(done, total, speed, eta)


def _no_progress(_: Progress) -> None:
    return None


def _not_cancelled() -> bool:
    return False


def download(request: Request, progress: ProgressFn = _no_progress,
             cancelled: CancelledFn = _not_cancelled, options: Optional[Options] = None,
             session: Any = None) -> Result:
    """Fetch ``request.url`` to ``request.dest`` (see the module's docstring)."""
    options = options or Options()
    check_url(request.url, options.allow_hosts)
    if already_there(request, cancelled):
        size = os.path.getsize(request.dest)
        progress(Progress(size, size))
        return Result(request.dest, size, file_digest(request.dest), fetched=False)
    folder = os.path.dirname(os.path.abspath(request.dest))
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as exc:
        raise DownloadError(msg("download.error.write", file=request.dest,
                                reason=exc.strerror or str(exc))) from None
    import requests

    own = session is None
    session = session or requests.Session()
    session.trust_env = True  # HTTPS_PROXY / NO_PROXY / REQUESTS_CA_BUNDLE from the environment
    try:
        return _download(session, request, progress, cancelled, options)
    finally:
        if own:
            session.close()


def _download(session: Any, request: Request, progress: ProgressFn, cancelled: CancelledFn,
              options: Options) -> Result:
    part = part_path(request.dest)
    meter = _Meter()
    attempt, failures, resumed = 0, 0, False
    while True:
        attempt += 1
        if cancelled():
            raise _cancelled(request)
        before = _part_size(part)
        try:
            resumed |= _attempt(session, request, part, progress, cancelled, options, meter)
            break
        except _Retry as exc:
            failures = 0 if _part_size(part) > before else failures + 1
            if failures > options.retries:
                key = "download.error.timeout" if exc.timeout else "download.error.network"
                raise DownloadError(msg(key, url=request.url, file=request.dest,
                                        attempts=attempt, reason=exc.reason,
                                        part=part)) from None
            log.info("download %s: %s; retrying", request.url, exc.reason)
            _wait(min(options.backoff * 2 ** max(failures - 1, 0), options.backoff_max),
                  options, cancelled, request)
    problem = verify(request, part, cancelled)
    if problem is not None:
        _remove(part)
        _remove(_meta_path(part))
        raise DownloadError(problem)
    try:
        os.replace(part, request.dest)
    except OSError as exc:
        raise DownloadError(msg("download.error.write", file=request.dest,
                                reason=exc.strerror or str(exc))) from None
    _remove(_meta_path(part))
    size = os.path.getsize(request.dest)
    return Result(request.dest, size, file_digest(request.dest), fetched=True, resumed=resumed,
                  attempts=attempt)


def _wait(seconds: float, options: Options, cancelled: CancelledFn, request: Request) -> None:
    left = seconds
    while True:
        if cancelled():
            raise _cancelled(request)
        if left <= 0:
            return
        step = min(left, 0.2)  # short steps: a cancel is noticed within 0.2 s
        options.sleep(step)
        left -= step


def _cancelled(request: Request) -> DownloadCancelled:
    return DownloadCancelled(msg("download.cancelled", url=request.url, file=request.dest,
                                 part=part_path(request.dest)))


def _part_size(part: str) -> int:
    try:
        return os.path.getsize(part)
    except OSError:
        return 0


def _meta_path(part: str) -> str:
    return part + ".json"


def _read_meta(part: str) -> dict[str, Any]:
    try:
        with open(_meta_path(part), encoding="utf-8") as handle:
            data = json.load(handle)
        return data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}


def _write_meta(part: str, data: dict[str, Any]) -> None:
    try:
        with open(_meta_path(part), "w", encoding="utf-8") as handle:
            json.dump(data, handle)
    except OSError:  # without it the next attempt restarts instead of resuming
        pass


def _remove(path: str) -> None:
    with contextlib.suppress(OSError):
        os.remove(path)


def _resume_point(request: Request, part: str) -> tuple[int, dict[str, Any]]:
    """How much of an earlier ``.part`` can be kept (0: start again) and what the server said
    about it then."""
    meta = _read_meta(part)
    offset = _part_size(part)
    if offset and meta.get("url") == request.url and (request.size is None
                                                        or offset <= request.size):
        return offset, meta
    _remove(part)
    return 0, {}


def _attempt(session: Any, request: Request, part: str, progress: ProgressFn,
             cancelled: CancelledFn, options: Options, meter: _Meter) -> bool:
    """One GET: append the rest to ``part``. True when it resumed an earlier part."""
    import requests

    offset, meta = _resume_point(request, part)
    if offset and offset == meta.get("total"):
        return True  # the whole body arrived before; only the verification was left
    headers = {"User-Agent": USER_AGENT, "Accept-Encoding": "identity"}
    if offset:
        headers["Range"] = f"bytes={offset}-"
        validator = meta.get("etag") if not str(meta.get("etag", "")).startswith("W/") \
            else None
        validator = validator or meta.get("last_modified")
        if validator:
            headers["If-Range"] = validator
    try:
        response = _get(session, request.url, headers, options)
    except requests.exceptions.Timeout as exc:
        raise _Retry(_reason(exc), timeout=True) from None
    except requests.exceptions.RequestException as exc:
        raise _Retry(_reason(exc)) from None
    with response:
        return _receive(response, request, part, offset, progress, cancelled, meter)


def _get(session: Any, url: str, headers: dict[str, str], options: Options) -> Any:
    """GET without requests' own redirect handling: every hop is checked first."""
    current = url
    for _ in range(MAX_REDIRECTS + 1):
        response = session.get(current, headers=headers, stream=True, allow_redirects=False,
                               timeout=(options.connect_timeout, options.read_timeout))
        if response.status_code not in (301, 302, 303, 307, 308):
            return response
        location = response.headers.get("Location")
        response.close()
        if not location:
            raise DownloadError(msg("download.error.http", url=url, status=response.status_code,
                                    reason="redirect without Location"))
        current = urljoin(current, location)
        check_url(current, options.allow_hosts, redirected_from=url)
    raise DownloadError(msg("download.error.redirects", url=url, count=MAX_REDIRECTS))


def _is_timeout(exc: BaseException) -> bool:
    """requests turns a read timeout in the body into a ConnectionError around urllib3's
    ReadTimeoutError: look through the arguments and causes."""
    import socket

    import requests
    from urllib3.exceptions import TimeoutError as Urllib3Timeout

    seen: list[BaseException] = [exc]
    while seen:
        current = seen.pop()
        if isinstance(current, (requests.exceptions.Timeout, Urllib3Timeout, socket.timeout)):
            return True
        seen.extend(a for a in current.args if isinstance(a, BaseException))
        if current.__cause__ is not None:
            seen.append(current.__cause__)
    return False


def _reason(exc: BaseException) -> str:
    text = str(exc)
    return f"{type(exc).__name__}: {text[:200]}" if text else type(exc).__name__


def _receive(response: Any, request: Request, part: str, offset: int, progress: ProgressFn,
             cancelled: CancelledFn, meter: _Meter) -> bool:
    import requests

    status = response.status_code
    if status == 416 and offset:  # the part is already whole (or the server changed): again
        _remove(part)
        raise _Retry("416 Range Not Satisfiable")
    if status in (408, 425, 429) or status >= 500:
        raise _Retry(f"HTTP {status} {response.reason or ''}".strip())
    if status == 404 or status == 410:
        raise DownloadError(msg("download.error.not_found", url=request.url, status=status))
    if status not in (200, 206):
        raise DownloadError(msg("download.error.http", url=request.url, status=status,
                                reason=response.reason or ""))
    resumed = status == 206 and offset > 0
    start = _range_start(response.headers.get("Content-Range")) if status == 206 else 0
    if status == 206 and start != offset:
        _remove(part)  # not the range asked for: throw the part away and start over
        raise _Retry(f"server sent range from {start}, not {offset}")
    if not resumed:
        offset = 0  # 200: the server ignored Range (or the file changed): start clean
    length = response.headers.get("Content-Length")
    total = offset + int(length) if length and length.isdigit() else request.size
    _write_meta(part, {"url": request.url, "etag": response.headers.get("ETag"),
                       "last_modified": response.headers.get("Last-Modified"), "total": total})
    done = offset
    try:
        with open(part, "ab" if resumed else "wb") as handle:
            progress(meter.progress(done, total))
            for chunk in response.iter_content(CHUNK):
                if cancelled():
                    raise _cancelled(request)
                if not chunk:
                    continue
                handle.write(chunk)
                done += len(chunk)
                progress(meter.progress(done, total))
            handle.flush()
            os.fsync(handle.fileno())
    except (requests.exceptions.RequestException, ConnectionError) as exc:
        raise _Retry(_reason(exc), timeout=_is_timeout(exc)) from None
    except OSError as exc:
        raise DownloadError(msg("download.error.write", file=part,
                                reason=exc.strerror or str(exc))) from None
    if total is not None and length and done < total:
        raise _Retry(f"connection closed after {done} of {total} bytes")
    return resumed


def _range_start(content_range: Optional[str]) -> Optional[int]:
    """``bytes 100-199/200`` -> 100."""
    if not content_range or not content_range.startswith("bytes "):
        return None
    first = content_range[6:].split("-", 1)[0].strip()
    return int(first) if first.isdigit() else None


# --- words -----------------------------------------------------------------------------------

def human_size(size: Optional[float]) -> str:
    if size is None:
        return "?"
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if size >= scale:
            return f"{size / scale:.1f} {unit}"
    return f"{int(size)} B"


def human_time(seconds: Optional[float]) -> str:
    if seconds is None:
        return "?"
    seconds = int(round(seconds))
    if seconds >= 3600:
        return f"{seconds // 3600}:{seconds % 3600 // 60:02d}:{seconds % 60:02d}"
    return f"{seconds // 60}:{seconds % 60:02d}"


def describe_progress(p: Progress) -> Message:
    """``42% 420.0 MiB of 1.0 GiB, 12.3 MiB/s, 0:49 left`` in the user's language."""
    if p.fraction is None:
        return msg("download.progress.unknown", done=human_size(p.done),
                   speed=human_size(p.speed))
    return msg("download.progress", percent=int(p.fraction * 100), done=human_size(p.done),
               total=human_size(p.total), speed=human_size(p.speed), eta=human_time(p.eta))
