"""cuDNN from NVIDIA's archive (Windows zip, Linux tar.xz) into a CUDA-style folder, and
zlibwapi.dll: checks that run before anything is touched, and the plan.

Layouts: the old ``cuda/{bin,include,lib/x64}`` zip (cuDNN 7, 8.0-8.2), the
``cudnn-<os>-<arch>-<version>_cuda<major>-archive/{bin,include,lib}`` archives (8.3 on, 9), and
cuDNN 9's per-CUDA subfolders (``bin/12.6/``, ``lib/12.6/x64``, ``include/12.6``), of which the
one for the destination's CUDA major is taken.
"""

from __future__ import annotations

import os
import posixpath
import re
import stat
import tarfile
import zipfile
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from wizard.core import cudnn_installs
from wizard.core.cuda_installs import toolkit_version
from wizard.core.fixes.plan import FixCancelled, FixError, Op, Plan
from wizard.core.host import Host
from wizard.core.knowledge.versions import compare_versions, try_parse_version
from wizard.core.messages import Message, msg

_VARIANT = re.compile(r"^(\d+)\.(\d+|x)$", re.IGNORECASE)
_NAME_CUDA = re.compile(r"_cuda(\d+)(?:\.\d+)?-archive|^cudnn-(\d+)\.\d+-", re.IGNORECASE)
_KINDS = ("bin", "include", "lib", "lib64")
ProgressFn = Callable[[float, str], None]
CancelledFn = Callable[[], bool]


def _no_progress(fraction: float, text: str) -> None:
    return None


def _not_cancelled() -> bool:
    return False


@dataclass
class Member:
    name: str
    kind: str  # file | dir | link
    size: int = 0
    target: str = ""


@dataclass
class ArchiveInfo:
    path: str
    members: list[Member]
    os: Optional[str]  # windows | linux
    arch: Optional[str]
    cuda_majors: list[int]
    version: Optional[str]
    header: Optional[str] = None
    copies: list[tuple[Member, list[str]]] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)

    @property
    def major(self) -> Optional[int]:
        parsed = try_parse_version(self.version)
        return parsed[0] if parsed else None


def _refuse(message: Message) -> FixError:
    return FixError(message)


def read_archive(path: str, progress: ProgressFn = _no_progress,
                 cancelled: CancelledFn = _not_cancelled) -> list[Member]:
    """Every member, after reading the whole archive once: a truncated or corrupt archive, an
    absolute path, a ``..`` or a link pointing out of the archive raises :class:`FixError`.
    ``progress`` gets the fraction of the archive read; ``cancelled()`` stops the reading
    (:class:`FixCancelled`)."""
    name = posixpath.basename(path.replace("\\", "/"))
    try:
        if zipfile.is_zipfile(path):
            members = _zip_members(path, progress, cancelled)
        elif tarfile.is_tarfile(path):
            members = _tar_members(path, progress, cancelled)
        else:
            raise _refuse(msg("fix.refuse.not_archive", file=name))
    except FixError:  # FixCancelled included
        raise
    except FileNotFoundError:
        raise _refuse(msg("fix.refuse.no_file", file=path)) from None
    except (OSError, EOFError, zipfile.BadZipFile, tarfile.TarError, Exception) as exc:
        raise _refuse(msg("fix.refuse.corrupt", file=name, reason=f"{type(exc).__name__}: {exc}")
                      ) from exc
    for member in members:
        _check_member(member)
    return members


def _zip_members(path: str, progress: ProgressFn, cancelled: CancelledFn) -> list[Member]:
    members: list[Member] = []
    with zipfile.ZipFile(path) as archive:
        infos = archive.infolist()
        total = max(sum(i.compress_size for i in infos), 1)
        done = 0
        for info in infos:  # read every member: its CRC is checked at the end
            if info.is_dir():
                continue
            with archive.open(info) as handle:
                while handle.read(1 << 20):
                    if cancelled():
                        raise FixCancelled()
            done += info.compress_size
            progress(done / total, info.filename)
        for info in infos:
            mode = info.external_attr >> 16
            if stat.S_ISLNK(mode):
                target = archive.read(info).decode("utf-8", "replace")
                members.append(Member(info.filename, "link", 0, target))
            elif info.is_dir():
                members.append(Member(info.filename, "dir"))
            else:
                members.append(Member(info.filename, "file", info.file_size))
    return members


def _tar_members(path: str, progress: ProgressFn, cancelled: CancelledFn) -> list[Member]:
    members: list[Member] = []
    total = max(os.path.getsize(path), 1)
    with open(path, "rb") as raw, tarfile.open(fileobj=raw, mode="r:*") as archive:
        for info in archive:
            if cancelled():
                raise FixCancelled()
            progress(min(raw.tell() / total, 1.0), info.name)
            if info.issym():
                members.append(Member(info.name, "link", 0, info.linkname))
            elif info.islnk():
                # a hard link names another member: same check as a link relative to the root
                members.append(Member(info.name, "link", 0,
                                      "/" + info.linkname if info.linkname.startswith("/")
                                      else _relative_to(info.name, info.linkname)))
            elif info.isdir():
                members.append(Member(info.name, "dir"))
            elif info.isfile():
                extracted = archive.extractfile(info)
                assert extracted is not None
                while extracted.read(1 << 20):  # the whole payload: truncation shows here
                    if cancelled():
                        raise FixCancelled()
                members.append(Member(info.name, "file", info.size))
            else:
                raise tarfile.TarError(f"{info.name} is a device or a pipe")
    return members


def _relative_to(member: str, other: str) -> str:
    return posixpath.relpath(other, posixpath.dirname(member) or ".")


def _check_member(member: Member) -> None:
    name = member.name.replace("\\", "/")
    if name.startswith("/") or re.match(r"^[A-Za-z]:", name):
        raise _refuse(msg("fix.refuse.absolute", member=member.name))
    if ".." in name.split("/"):
        raise _refuse(msg("fix.refuse.traversal", member=member.name))
    if member.kind == "link":
        target = member.target.replace("\\", "/")
        resolved = posixpath.normpath(posixpath.join(posixpath.dirname(name), target))
        if target.startswith("/") or re.match(r"^[A-Za-z]:", target) or resolved == ".." \
                or resolved.startswith("../"):
            raise _refuse(msg("fix.refuse.link_out", member=member.name, target=member.target))


def inspect(path: str, cuda_major: Optional[int] = None, progress: ProgressFn = _no_progress,
            cancelled: CancelledFn = _not_cancelled) -> ArchiveInfo:
    """What the archive holds and where each file goes (relative parts under the root)."""
    members = read_archive(path, progress, cancelled)
    base = posixpath.basename(path.replace("\\", "/"))
    names = [posixpath.basename(m.name.rstrip("/")) for m in members if m.kind != "dir"]
    lowered = base.lower()
    os_name = ("windows" if any(n.lower().endswith(".dll") for n in names) or "windows" in lowered
               else "linux" if any(".so" in n for n in names) or "linux" in lowered else None)
    arch = None
    for word, value in (("x86_64", "x86_64"), ("x64", "x86_64"), ("amd64", "x86_64"),
                        ("sbsa", "aarch64"), ("aarch64", "aarch64"), ("ppc64le", "ppc64le")):
        if word in lowered:
            arch = value
            break
    variants = sorted({int(_VARIANT.match(p).group(1)) for m in members
                       for p in _parts(m.name)[1:] if _VARIANT.match(p)}) if members else []
    name_cuda = _NAME_CUDA.search(base) or next(
        (found for found in (_NAME_CUDA.search(_parts(m.name)[0]) for m in members[:1]) if found),
        None)
    majors = variants or ([int(name_cuda.group(1) or name_cuda.group(2))] if name_cuda else [])
    chosen = cuda_major if cuda_major in majors else (majors[-1] if majors else None)
    windows = os_name == "windows"
    copies: list[tuple[Member, list[str]]] = []
    header: Optional[str] = None
    for member in members:
        if member.kind == "dir":
            continue
        dest = _dest(_parts(member.name), windows, chosen if variants else None)
        if dest is None:
            continue
        copies.append((member, dest))
        if dest[-1] in ("cudnn_version.h", "cudnn.h") and member.kind == "file" and (
                header is None or dest[-1] == "cudnn_version.h"):
            header = member.name
    version = None
    if header:
        version = cudnn_installs.parse_cudnn_header(_read_member(path, header))
    if version is None:
        found = re.findall(r"(?:^|[-_v])(\d+\.\d+\.\d+(?:\.\d+)?)", base)
        version = next((v for v in found if int(v.split(".")[0]) >= 5), None)
    info = ArchiveInfo(path, members, os_name, arch, [chosen] if chosen else [], version, header,
                       copies)
    libraries = cudnn_installs.cudnn_files([d[-1] for _, d in copies], windows)
    if info.major is not None:
        info.missing = [n for n in cudnn_installs.expected_files(info.major, windows)
                        if not cudnn_installs.has_file(libraries, n, windows)]
    return info


def _parts(name: str) -> list[str]:
    return [p for p in name.replace("\\", "/").split("/") if p and p != "."]


def _dest(parts: list[str], windows: bool, variant: Optional[int]) -> Optional[list[str]]:
    for index, part in enumerate(parts[:-1]):
        kind = part.lower()
        if kind not in _KINDS:
            continue
        rest = parts[index + 1:]
        matched = _VARIANT.match(rest[0]) if len(rest) > 1 else None
        if matched:
            if variant is not None and int(matched.group(1)) != variant:
                return None
            rest = rest[1:]
        if kind in ("bin", "include"):
            return [kind, *rest]
        if windows:
            return ["lib", "x64", *(rest[1:] if rest[0].lower() == "x64" and len(rest) > 1
                                    else rest)]
        return ["lib64", *rest]
    return None


def _read_member(path: str, name: str) -> Optional[str]:
    try:
        if zipfile.is_zipfile(path):
            with zipfile.ZipFile(path) as archive:
                return archive.read(name)[:1 << 20].decode("utf-8", "replace")
        with tarfile.open(path, "r:*") as archive:
            handle = archive.extractfile(name)
            return handle.read(1 << 20).decode("utf-8", "replace") if handle else None
    except (OSError, KeyError, tarfile.TarError, zipfile.BadZipFile):
        return None


@dataclass
class CudnnRequest:
    archive: str
    dest: str
    toolkit: bool = True
    """``dest`` is a CUDA toolkit (``--cuda-dir``): its CUDA version must match."""
    tensorflow: Optional[str] = None
    cudnn_needed: Optional[str] = None
    """The cuDNN the target TF loads (``"8.1"``), None when unknown."""
    force: bool = False
    zlibwapi: Optional[str] = None


def plan_cudnn(host: Host, request: CudnnRequest, progress: ProgressFn = _no_progress,
               cancelled: CancelledFn = _not_cancelled) -> Plan:
    """The plan to copy the archive's files under ``request.dest``; :class:`FixError` when the
    archive is unsafe, damaged, or (without ``force``) not for this machine. Reading the whole
    archive takes a while for a 1 GB cuDNN: ``progress``/``cancelled`` as everywhere."""
    cuda_version = toolkit_version(host, request.dest) if request.toolkit else None
    if request.toolkit and not host.is_dir(request.dest):
        raise _refuse(msg("fix.refuse.no_cuda_dir", dir=request.dest))
    cuda_major = try_parse_version(cuda_version)[0] if try_parse_version(cuda_version) else None
    info = inspect(request.archive, cuda_major, progress, cancelled)
    base = posixpath.basename(request.archive.replace("\\", "/"))
    if not info.copies or info.major is None:
        raise _refuse(msg("fix.refuse.not_cudnn", file=base))
    if info.missing:
        raise _refuse(msg("fix.refuse.incomplete", file=base, missing=info.missing))
    host_os = "windows" if host.is_windows else "linux"
    reasons: list[Message] = []
    if info.os and info.os != host_os:
        reasons.append(msg("fix.refuse.wrong_os", file=base, found=info.os, os=host_os))
    if info.arch and info.arch != host.platform.arch:
        reasons.append(msg("fix.refuse.wrong_arch", file=base, found=info.arch,
                           arch=host.platform.arch))
    if cuda_major is not None and info.cuda_majors and cuda_major not in info.cuda_majors:
        reasons.append(msg("fix.refuse.wrong_cuda", file=base, found=info.cuda_majors[0],
                           cuda=cuda_version, major=cuda_major, dir=request.dest))
    if request.cudnn_needed and info.version and not _loads(request.cudnn_needed, info.version):
        reasons.append(msg("fix.refuse.tf_cannot_load", cudnn=info.version,
                           tensorflow=request.tensorflow or "?", needed=request.cudnn_needed))
    if reasons and not request.force:
        raise _refuse(reasons[0])
    windows = info.os == "windows" if info.os else host.is_windows
    plan = Plan(action="install_cudnn",
                title=msg("fix.title.cudnn", version=info.version, dest=request.dest),
                verify={"layer": "cudnn", "dest": request.dest, "windows": windows,
                        "version": info.version})
    plan.notes.extend(msg("fix.plan.forced", reason=r) for r in reasons)
    made: set[str] = set()
    for member, dest in info.copies:
        path = host.join(request.dest, *dest)
        _mkdirs(host, plan, request.dest, dest[:-1], made)
        if member.kind == "link":
            plan.ops.append(Op("link", path, {"target": member.target},
                               replaces=host.exists(path)))
        else:
            plan.ops.append(Op("file", path, {"archive": request.archive, "member": member.name},
                               size=member.size, replaces=host.exists(path)))
    if cudnn_installs.needs_zlibwapi(info.version, windows):
        if request.zlibwapi:
            plan.ops.extend(plan_zlibwapi(host, request.zlibwapi, host.join(request.dest, "bin"))
                            .ops)
        else:
            plan.notes.append(msg("fix.plan.zlibwapi_needed", version=info.version))
    _check_writable(host, plan, request.dest)
    return plan


def _loads(needed: str, found: str) -> bool:
    """A TF built for cuDNN ``needed`` (``"8.1"``) loads ``found``: same major, not older."""
    want, have = try_parse_version(needed), try_parse_version(found)
    if not want or not have:
        return True
    return want[0] == have[0] and compare_versions(found, needed) >= 0


def _mkdirs(host: Host, plan: Plan, root: str, parts: list[str], made: set[str]) -> None:
    for depth in range(1, len(parts) + 1):
        folder = host.join(root, *parts[:depth])
        if folder not in made and not host.is_dir(folder):
            plan.ops.append(Op("mkdir", folder))
        made.add(folder)


def _check_writable(host: Host, plan: Plan, dest: str) -> None:
    if host.dir_writable(dest) and all(
            host.dir_writable(host.path.dirname(op.path)) or any(
                o.kind == "mkdir" and o.path == host.path.dirname(op.path) for o in plan.ops)
            for op in plan.ops if op.kind in ("file", "link")):
        return
    plan.needs_admin = True


def plan_zlibwapi(host: Host, source: str, dest_dir: str) -> Plan:
    """Copy ``zlibwapi.dll`` (a 64-bit Windows DLL) into ``dest_dir``."""
    try:
        with open(source, "rb") as handle:
            head = handle.read(2)
            handle.seek(0, 2)
            size = handle.tell()
    except OSError as exc:
        raise _refuse(msg("fix.refuse.no_file", file=f"{source} ({exc.strerror})")) from exc
    if head != b"MZ":
        raise _refuse(msg("fix.refuse.not_dll", file=source))
    path = host.join(dest_dir, cudnn_installs.ZLIBWAPI)
    plan = Plan(action="install_zlibwapi", title=msg("fix.title.zlibwapi", dest=dest_dir),
                ops=[Op("file", path, {"file": source}, size=size, replaces=host.exists(path))],
                verify={"file": path})
    if not host.dir_writable(dest_dir):
        plan.needs_admin = True
    return plan


def installed_version(host: Host, dest: str) -> Optional[str]:
    """The cuDNN version the headers under ``dest`` now say (for the verification)."""
    for name in ("cudnn_version.h", "cudnn.h"):
        version = cudnn_installs.parse_cudnn_header(host.read_text(host.join(dest, "include",
                                                                              name)))
        if version:
            return version
    return None


def describe(info: ArchiveInfo) -> dict[str, Any]:
    return {"version": info.version, "os": info.os, "arch": info.arch,
            "cuda": info.cuda_majors, "files": len(info.copies)}
