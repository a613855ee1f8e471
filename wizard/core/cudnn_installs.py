"""Where cuDNN lives on a machine, which copy the loader would open first, and what is missing.

Pure functions over a :class:`~wizard.core.host.Host` and a
:class:`~wizard.core.cuda_installs.CudaDiscovery` (for the toolkit folders, the chosen
environment and the loader order). Sources (doctor-anchors 2.4):

* a cuDNN zip/tar copied into a CUDA toolkit (``<cuda>\\bin\\cudnn64_8.dll``,
  ``<cuda>/lib64/libcudnn.so.8``, headers in ``<cuda>/include``);
* NVIDIA's own Windows folders: ``C:\\Program Files\\NVIDIA\\CUDNN\\v8.x\\bin`` (8.x installer)
  and ``...\\v9.x\\bin\\<cuda major.minor>[\\x64]`` (cuDNN 9);
* Linux packages: ``/usr/include[/x86_64-linux-gnu]/cudnn_version[_v8].h`` and
  ``/usr/lib/x86_64-linux-gnu/libcudnn*.so.*``;
* the chosen environment: the ``nvidia-cudnn-cu1x`` wheel (``site-packages/nvidia/cudnn``) and a
  conda env's ``cudnn`` package;
* any folder on the loader's path that holds cuDNN files.

The version comes from the header's ``#define CUDNN_MAJOR/MINOR/PATCHLEVEL`` (``cudnn_version.h``
for cuDNN >= 8, ``cudnn.h`` before), else the package metadata, else the library file name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Optional

from wizard.core.cuda_installs import (
    CudaDiscovery,
    LoaderDir,
    major_minor,
    major_of,
    version_tuple,
)
from wizard.core.host import Host
from wizard.core.host.windows import program_files

WINDOWS_FILES: dict[int, tuple[str, ...]] = {
    7: ("cudnn64_7.dll",),
    8: (
        "cudnn64_8.dll",
        "cudnn_ops_infer64_8.dll",
        "cudnn_ops_train64_8.dll",
        "cudnn_cnn_infer64_8.dll",
        "cudnn_cnn_train64_8.dll",
        "cudnn_adv_infer64_8.dll",
        "cudnn_adv_train64_8.dll",
    ),
    9: (
        "cudnn64_9.dll",
        "cudnn_ops64_9.dll",
        "cudnn_cnn64_9.dll",
        "cudnn_adv64_9.dll",
        "cudnn_graph64_9.dll",
        "cudnn_engines_precompiled64_9.dll",
        "cudnn_engines_runtime_compiled64_9.dll",
        "cudnn_heuristic64_9.dll",
    ),
}
"""The DLLs a cuDNN major ships and loads (the 8.1 zip's bin holds exactly the seven 8.x ones)."""

LINUX_FILES: dict[int, tuple[str, ...]] = {
    7: ("libcudnn.so.7",),
    8: (
        "libcudnn.so.8",
        "libcudnn_ops_infer.so.8",
        "libcudnn_ops_train.so.8",
        "libcudnn_cnn_infer.so.8",
        "libcudnn_cnn_train.so.8",
        "libcudnn_adv_infer.so.8",
        "libcudnn_adv_train.so.8",
    ),
    9: (
        "libcudnn.so.9",
        "libcudnn_ops.so.9",
        "libcudnn_cnn.so.9",
        "libcudnn_adv.so.9",
        "libcudnn_graph.so.9",
        "libcudnn_engines_precompiled.so.9",
        "libcudnn_engines_runtime_compiled.so.9",
        "libcudnn_heuristic.so.9",
    ),
}

ZLIBWAPI = "zlibwapi.dll"
CUDNN_WINDOWS_SUBDIR = "NVIDIA\\CUDNN"
LINUX_SYSTEM_INCLUDES = ("/usr/include", "/usr/include/x86_64-linux-gnu", "/usr/local/include")
LINUX_SYSTEM_LIBS = ("/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/lib", "/usr/local/lib")

HEADER_NAMES = (
    "cudnn_version.h",
    "cudnn_version_v9.h",
    "cudnn_version_v8.h",
    "cudnn.h",
    "cudnn_v8.h",
    "cudnn_v7.h",
)
"""cuDNN headers that carry the version defines (Debian packages add the ``_vN`` names)."""

_WIN_CUDNN = re.compile(r"^cudnn[a-z_]*64_(\d+)\.dll$", re.IGNORECASE)
_LINUX_CUDNN = re.compile(r"^libcudnn[a-z_]*\.so\.(\d+)(?:\.\d+)*$")
_LINUX_FRONT = re.compile(r"^libcudnn\.so\.(\d+(?:\.\d+)*)$")
_DEFINE = re.compile(r"^\s*#\s*define\s+CUDNN_(MAJOR|MINOR|PATCHLEVEL)\s+(\d+)", re.MULTILINE)
_HEADER_NAME = re.compile(r"^cudnn_version(?:_v(\d+))?\.h$|^cudnn(?:_v(\d+))?\.h$")


def parse_cudnn_header(text: Optional[str]) -> Optional[str]:
    """``#define CUDNN_MAJOR 8`` ... -> "8.1.1". The ``#define`` anchor keeps the
    ``CUDNN_VERSION (CUDNN_MAJOR * 1000 + ...)`` line from matching."""
    values = dict(_DEFINE.findall(text or ""))
    if "MAJOR" not in values:
        return None
    parts = [values["MAJOR"], values.get("MINOR", "0")]
    if "PATCHLEVEL" in values:
        parts.append(values["PATCHLEVEL"])
    return ".".join(parts)


def cudnn_files(names: list[str], windows: bool) -> list[str]:
    pattern = _WIN_CUDNN if windows else _LINUX_CUDNN
    return sorted(n for n in names if pattern.match(n))


def file_major(name: str) -> Optional[int]:
    match = _WIN_CUDNN.match(name) or _LINUX_CUDNN.match(name)
    return int(match.group(1)) if match else None


def front_file(major: int, windows: bool) -> str:
    """The file a build for cuDNN ``major`` asks the loader for."""
    return f"cudnn64_{major}.dll" if windows else f"libcudnn.so.{major}"


def expected_files(major: int, windows: bool) -> tuple[str, ...]:
    table = WINDOWS_FILES if windows else LINUX_FILES
    return table.get(major, (front_file(major, windows),))


def has_file(files: list[str], wanted: str, windows: bool) -> bool:
    """Windows: the exact name (any case). Linux: the soname or a versioned file below it
    (``libcudnn.so.8.1.1`` provides ``libcudnn.so.8``)."""
    if windows:
        return any(f.lower() == wanted.lower() for f in files)
    return any(f == wanted or f.startswith(wanted + ".") for f in files)


def needs_zlibwapi(version: Optional[str], windows: bool) -> bool:
    """cuDNN 8.3 to 8.9 on Windows load zlibwapi.dll (8.1/8.2 and 9.x do not)."""
    numbers = version_tuple(version)
    return bool(windows and numbers and len(numbers) >= 2 and numbers[0] == 8 and numbers[1] >= 3)


@dataclass
class CudnnInstall:
    """One cuDNN copy of one major version."""

    path: str
    """The root: the CUDA folder it was copied into, the cuDNN folder, the wheel, the env."""
    source: str
    """``cuda_folder``, ``cudnn_folder``, ``system``, ``pip``, ``conda`` or ``loader_path``."""
    major: Optional[int] = None
    version: Optional[str] = None
    version_source: Optional[str] = None
    header: Optional[str] = None
    lib_dir: Optional[str] = None
    files: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    cuda: Optional[str] = None
    """The CUDA it was built for, where the layout says (cuDNN 9 sub-folder, wheel suffix)."""
    package: Optional[str] = None
    on_path: Optional[bool] = None
    on_new_path: Optional[bool] = None

    @property
    def series(self) -> Optional[str]:
        return major_minor(self.version)

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "version_source": self.version_source,
            "major": self.major,
            "path": self.path,
            "source": self.source,
            "header": self.header,
            "lib_dir": self.lib_dir,
            "files": list(self.files),
            "missing": list(self.missing),
            "cuda": self.cuda,
            "package": self.package,
            "on_path": self.on_path,
            "on_new_path": self.on_new_path,
        }


@dataclass
class CudnnDiscovery:
    host: Host
    cuda: CudaDiscovery
    installs: list[CudnnInstall]
    zlibwapi: list[str] = field(default_factory=list)
    """Where zlibwapi.dll was found (Windows): loader folders and cuDNN/CUDA bins."""
    zlibwapi_on_path: bool = False

    def loader_hits(self, major: int, new_terminal: Optional[bool] = None
                    ) -> list[tuple[CudnnInstall, LoaderDir]]:
        """Every install whose front library the loader would reach, in search order."""
        order = (self.cuda.loader_effective if new_terminal is None
                 else (self.cuda.loader_new or []) if new_terminal else self.cuda.loader_process)
        windows = self.host.is_windows
        wanted = front_file(major, windows)
        hits: list[tuple[CudnnInstall, LoaderDir]] = []
        for entry in order:
            if not has_file(self.cuda.listdir(entry.path), wanted, windows):
                continue
            for install in self.installs:
                if (install.major == major and install.lib_dir
                        and self.host.same_path(install.lib_dir, entry.path)):
                    hits.append((install, entry))
                    break
        return hits

    def loader_first(self, major: int, new_terminal: Optional[bool] = None
                     ) -> Optional[tuple[CudnnInstall, LoaderDir]]:
        hits = self.loader_hits(major, new_terminal)
        return hits[0] if hits else None

    def pip_wheel(self) -> Optional[CudnnInstall]:
        return next((i for i in self.installs if i.source == "pip"), None)

    def facts(self, major: Optional[int]) -> dict[str, Any]:
        facts: dict[str, Any] = {"installs": [i.to_dict() for i in self.installs]}
        first = self.loader_first(major) if major is not None else None
        facts["loader_first"] = _first_dict(first)
        if self.host.is_windows:
            if major is not None:
                facts["loader_first_process"] = _first_dict(self.loader_first(major, False))
                if self.cuda.loader_new is not None:
                    facts["loader_first_new_terminal"] = _first_dict(self.loader_first(major, True))
            facts["zlibwapi"] = list(self.zlibwapi)
        return facts


def _first_dict(first: Optional[tuple[CudnnInstall, LoaderDir]]) -> Optional[dict[str, Any]]:
    if first is None:
        return None
    install, entry = first
    return {"path": install.path, "version": install.version, "dir": entry.path,
            "origin": entry.origin, "source": install.source}


# ------------------------------------------------------------------------------------------
# Discovery
# ------------------------------------------------------------------------------------------


def discover(host: Host, cuda: CudaDiscovery) -> CudnnDiscovery:
    windows = host.is_windows
    installs: list[CudnnInstall] = []
    for toolkit in cuda.installs:
        if toolkit.exists and toolkit.kind == "toolkit":
            include = [host.join(toolkit.path, "include")]
            if not windows:
                include.append(host.join(toolkit.path, "targets", "x86_64-linux", "include"))
            libs = toolkit.lib_dirs or ([toolkit.lib_dir] if toolkit.lib_dir else [])
            # A cuDNN copied into a toolkit was, as a rule, the build for that toolkit's CUDA.
            installs.extend(_scan(host, cuda, toolkit.path, "cuda_folder", include, libs,
                                  toolkit.series))
    if windows:
        installs.extend(_windows_cudnn_folders(host, cuda))
    else:
        installs.extend(_linux_system(host, cuda))
    if cuda.env is not None:
        installs.extend(_env_cudnn(host, cuda))
    _add_loader_path_copies(host, cuda, installs)
    for install in installs:
        _finish(host, install)
    discovery = CudnnDiscovery(host, cuda, installs)
    _mark_on_path(discovery)
    if windows:
        _find_zlibwapi(discovery)
    return discovery


def _scan(host: Host, cuda: CudaDiscovery, root: str, source: str, include_dirs: list[str],
          lib_dirs: list[str], cuda_version: Optional[str] = None) -> list[CudnnInstall]:
    """cuDNN under one root: one install per major found in its library folders, or a
    header-only one (a partial copy)."""
    windows = host.is_windows
    headers = _headers(host, cuda, include_dirs)
    by_major: dict[int, tuple[str, list[str]]] = {}
    for directory in lib_dirs:
        files = cudnn_files(cuda.listdir(directory), windows)
        for major in sorted({m for m in (file_major(f) for f in files) if m is not None}):
            if major not in by_major:
                by_major[major] = (directory, [f for f in files if file_major(f) == major])
    installs: list[CudnnInstall] = []
    for major, (directory, files) in sorted(by_major.items()):
        install = CudnnInstall(path=root, source=source, major=major, lib_dir=directory,
                               files=files, cuda=cuda_version)
        header = headers.get(major)
        if header:
            install.header, install.version = header
            install.version_source = "header"
        installs.append(install)
    for major, (path, version) in sorted(headers.items()):
        if major not in by_major and major in (WINDOWS_FILES if windows else LINUX_FILES):
            installs.append(CudnnInstall(
                path=root, source=source, major=major, version=version, version_source="header",
                header=path, lib_dir=lib_dirs[0] if lib_dirs else None, cuda=cuda_version,
            ))
    return installs


def _headers(host: Host, cuda: CudaDiscovery, include_dirs: list[str]
             ) -> dict[int, tuple[str, str]]:
    """major -> (header path, version) for the cuDNN headers in these folders."""
    found: dict[int, tuple[str, str]] = {}
    for directory in include_dirs:
        # Probed by name, not listed: a toolkit's include folder holds hundreds of headers.
        # cudnn_version*.h first (cuDNN >= 8 keeps the defines there), then cudnn*.h (<= 7).
        for name in HEADER_NAMES:
            path = host.join(directory, name)
            text = host.read_text(path, max_bytes=64 * 1024)
            if text is None:
                continue
            version = parse_cudnn_header(text)
            major = version_tuple(version)[0] if version else None
            if major is not None and major not in found:
                found[major] = (path, version)
    return found


def _windows_cudnn_folders(host: Host, cuda: CudaDiscovery) -> list[CudnnInstall]:
    """``<Program Files>\\NVIDIA\\CUDNN\\v*``: 8.x installers put DLLs in ``bin``; cuDNN 9 in
    ``bin\\<cuda>\\[x64]``, headers in ``include\\<cuda>``."""

    installs: list[CudnnInstall] = []
    for root in program_files(host):
        base = host.join(root, CUDNN_WINDOWS_SUBDIR)
        for name in cuda.listdir(base):
            folder = host.join(base, name)
            if not name.lower().startswith("v") or not host.is_dir(folder):
                continue
            bin_dir = host.join(folder, "bin")
            entries = cuda.listdir(bin_dir)
            if cudnn_files(entries, True):
                installs.extend(_scan(host, cuda, folder, "cudnn_folder",
                                      [host.join(folder, "include")], [bin_dir]))
            for sub in entries:
                if not re.match(r"^\d+(\.\d+)?$", sub):
                    continue
                sub_bin = host.join(bin_dir, sub)
                libs = [host.join(sub_bin, "x64"), sub_bin]
                include = [host.join(folder, "include", sub), host.join(folder, "include")]
                installs.extend(_scan(host, cuda, folder, "cudnn_folder", include, libs, sub))
    return installs


def _linux_system(host: Host, cuda: CudaDiscovery) -> list[CudnnInstall]:
    """Distro/NVIDIA packages: headers in /usr/include[/x86_64-linux-gnu], libraries in the
    multiarch folder."""
    libs = [d for d in LINUX_SYSTEM_LIBS if cudnn_files(cuda.listdir(d), False)]
    headers = [d for d in LINUX_SYSTEM_INCLUDES if any(_HEADER_NAME.match(n)
                                                         for n in cuda.listdir(d))]
    if not libs and not headers:
        return []
    installs: list[CudnnInstall] = []
    for lib in libs or [LINUX_SYSTEM_LIBS[0]]:
        installs.extend(_scan(host, cuda, lib if libs else "/usr", "system", headers, [lib]))
    return installs


def _env_cudnn(host: Host, cuda: CudaDiscovery) -> list[CudnnInstall]:
    env = cuda.env
    assert env is not None
    windows = host.is_windows
    installs: list[CudnnInstall] = []
    for site in env.site_packages:
        root = host.join(site, "nvidia", "cudnn")
        if not host.is_dir(root):
            continue
        libs = [host.join(root, "bin" if windows else "lib")]
        for install in _scan(host, cuda, root, "pip", [host.join(root, "include")], libs):
            install.package, version, install.cuda = _wheel(env.packages, install.major)
            if version:
                install.version, install.version_source = version, "pip metadata"
            installs.append(install)
        break
    if env.conda:
        prefix = env.prefix
        include = [host.join(prefix, "Library", "include") if windows
                   else host.join(prefix, "include")]
        libs = [host.join(prefix, "Library", "bin") if windows else host.join(prefix, "lib")]
        for install in _scan(host, cuda, prefix, "conda", include, libs):
            version = env.conda_packages.get("cudnn")
            if version and major_of(version) == install.major:
                install.package = "cudnn"
                install.version, install.version_source = version, "conda-meta"
            installs.append(install)
    return installs


def _wheel(packages: dict[str, Optional[str]], major: Optional[int]
           ) -> tuple[Optional[str], Optional[str], Optional[str]]:
    """(distribution, version, CUDA major) of the installed nvidia-cudnn-cu1x wheel."""
    for suffix in ("cu13", "cu12", "cu11"):
        name = f"nvidia-cudnn-{suffix}"
        version = packages.get(name)
        if version and (major is None or major_of(str(version)) == major):
            return name, str(version), suffix[2:]
    return None, None, None


def _add_loader_path_copies(host: Host, cuda: CudaDiscovery, installs: list[CudnnInstall]
                            ) -> None:
    """A folder on the loader's path with cuDNN files that no other source covers (a copy in
    some tools folder, a DLL dropped next to python.exe)."""
    windows = host.is_windows
    entries = list(cuda.loader_process) + list(cuda.loader_new or [])
    for entry in entries:
        files = cudnn_files(cuda.listdir(entry.path), windows)
        if not files:
            continue
        if any(i.lib_dir and host.same_path(i.lib_dir, entry.path) for i in installs):
            continue
        parent = host.path.dirname(entry.path.rstrip("\\/"))
        include = [host.join(parent, "include")]
        installs.extend(_scan(host, cuda, entry.path, "loader_path", include, [entry.path]))


def _finish(host: Host, install: CudnnInstall) -> None:
    """Version from the file name where no header told, and the missing files."""
    windows = host.is_windows
    if install.version is None and not windows:
        for name in install.files:
            match = _LINUX_FRONT.match(name)
            if match and "." in match.group(1):
                install.version, install.version_source = match.group(1), "file name"
                break
    if install.version is None and install.major is not None:
        install.version, install.version_source = str(install.major), "file name"
    if install.major is None:
        return
    install.missing = [name for name in expected_files(install.major, windows)
                       if not has_file(install.files, name, windows)]


def _mark_on_path(discovery: CudnnDiscovery) -> None:
    host = discovery.host
    cuda = discovery.cuda
    for install in discovery.installs:
        if not install.lib_dir or not install.files:
            continue
        install.on_path = any(host.same_path(install.lib_dir, d.path) for d in cuda.loader_process)
        if cuda.loader_new is not None:
            install.on_new_path = any(host.same_path(install.lib_dir, d.path)
                                      for d in cuda.loader_new)


def _find_zlibwapi(discovery: CudnnDiscovery) -> None:
    """zlibwapi.dll where the loader looks (effective order) and beside cuDNN/CUDA DLLs."""
    host = discovery.host
    cuda = discovery.cuda
    places: list[str] = [d.path for d in cuda.loader_effective]
    on_path_count = len(places)
    places += [i.lib_dir for i in discovery.installs if i.lib_dir]
    places += [t.lib_dir for t in cuda.installs if t.lib_dir]
    for index, directory in enumerate(places):
        if any(n.lower() == ZLIBWAPI for n in cuda.listdir(directory)):
            path = host.join(directory, ZLIBWAPI)
            if not any(host.same_path(path, p) for p in discovery.zlibwapi):
                discovery.zlibwapi.append(path)
            if index < on_path_count:
                discovery.zlibwapi_on_path = True


# ------------------------------------------------------------------------------------------
# A cuDNN archive (zip / tar) before it is installed: for the install_cudnn fix action
# ------------------------------------------------------------------------------------------

_ARCHIVE_VERSION = re.compile(r"(?:^|[-_v])(\d+\.\d+\.\d+(?:\.\d+)?)(?=[-_.]|$)")
_ARCHIVE_CUDA = re.compile(r"(?:_cuda(\d+(?:\.\d+)?)-archive|^cudnn-(\d+\.\d+)-)", re.IGNORECASE)


@dataclass
class CudnnArchive:
    """What a cuDNN archive holds and where each file goes under a CUDA-style root."""

    version: Optional[str]
    major: Optional[int]
    cuda: Optional[str]
    """The CUDA the archive was built for, from its name (``_cuda11-archive`` -> "11",
    ``cudnn-11.2-windows-x64-v8.1.1.33.zip`` -> "11.2")."""
    copies: list[tuple[str, str]]
    """(member path in the archive, destination relative to the root: ``bin\\cudnn64_8.dll``,
    ``include/cudnn.h``, ``lib\\x64\\cudnn.lib``, ``lib64/libcudnn.so.8``)."""
    libraries: list[str]
    missing: list[str]
    """Libraries of that major the archive lacks (a broken or wrong download)."""
    needs_zlibwapi: bool

    @property
    def usable(self) -> bool:
        return self.major is not None and not self.missing


def inspect_archive(members: list[str], windows: bool, header_text: Optional[str] = None,
                    archive_name: str = "") -> CudnnArchive:
    """Plan the copy of a cuDNN archive from its member list (``zipfile.namelist()`` /
    ``tarfile.getnames()``). ``header_text`` is the archive's ``cudnn_version.h`` (or
    ``cudnn.h``) if the caller read it; else the version comes from the archive's name. Works
    for the 8.1 zip (``cuda/bin/...``) and the later ``cudnn-<os>-<arch>-<ver>_cudaNN-archive/``
    layout."""
    sep = "\\" if windows else "/"
    copies: list[tuple[str, str]] = []
    for member in members:
        parts = [p for p in member.replace("\\", "/").split("/") if p]
        if len(parts) < 2 or member.endswith("/"):
            continue
        dest = _archive_dest(parts, windows)
        if dest is not None:
            copies.append((member, sep.join(dest)))
    names = [dest.split(sep)[-1] for _, dest in copies]
    libraries = cudnn_files(names, windows)
    version = parse_cudnn_header(header_text) if header_text else None
    base = archive_name.replace("\\", "/").split("/")[-1]
    if version is None:
        found = _ARCHIVE_VERSION.findall(base) or [
            m for member in members[:1] for m in _ARCHIVE_VERSION.findall(member.split("/")[0])
        ]
        version = next((v for v in found if int(v.split(".")[0]) >= 5), None)
    majors = {m for m in (file_major(n) for n in libraries) if m is not None}
    major = major_of(version) if version else (max(majors) if majors else None)
    cuda_match = _ARCHIVE_CUDA.search(base) or next(
        (m for m in (_ARCHIVE_CUDA.search(member) for member in members[:1]) if m), None)
    cuda = (cuda_match.group(1) or cuda_match.group(2)) if cuda_match else None
    missing = ([n for n in expected_files(major, windows) if not has_file(libraries, n, windows)]
               if major is not None else [])
    return CudnnArchive(version, major, cuda, copies, libraries, missing,
                        needs_zlibwapi(version, windows))


def _archive_dest(parts: list[str], windows: bool) -> Optional[list[str]]:
    """``[root, "bin", "x.dll"]`` -> ``["bin", "x.dll"]``; lib files go to ``lib\\x64`` on
    Windows and ``lib64`` on Linux; anything else (LICENSE, docs) is not copied."""
    for index, part in enumerate(parts[:-1]):
        kind = part.lower()
        rest = parts[index + 1:]
        if kind == "bin":
            return ["bin", *rest]
        if kind == "include":
            return ["include", *rest]
        if kind in ("lib", "lib64"):
            if windows:
                return ["lib", "x64", *(rest[1:] if rest[0].lower() == "x64" else rest)]
            return ["lib64", *rest]
    return None
