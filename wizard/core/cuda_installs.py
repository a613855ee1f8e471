"""Where the CUDA runtime lives on a machine, and which copy the loader would pick.

Pure functions over a :class:`~wizard.core.host.Host`: the cuda and cudnn layers, the fix actions
and the GUI all call :func:`discover`. Nothing here walks a large tree recursively; only known
folders are listed (toolkit roots, PATH / library-path entries, an environment's site-packages).

Sources, as in DESIGN section 1 and doctor-anchors 2.3:

* Windows: ``<Program Files>\\NVIDIA GPU Computing Toolkit\\CUDA\\v*``, ``CUDA_PATH`` and
  ``CUDA_PATH_V11_2``-style variables, the registry key
  ``HKLM\\SOFTWARE\\NVIDIA Corporation\\GPU Computing Toolkit\\CUDA\\v*`` (``InstallDir``).
* Linux / WSL2: ``/usr/local/cuda``, ``/usr/local/cuda-*``, ``/opt/cuda*``, distro packages
  (``libcudart.so.*`` in the multiarch folder), nvcc on PATH.
* The chosen Python environment: pip ``nvidia-*`` wheels (``site-packages/nvidia/...``) and a
  conda environment's own libraries (``<prefix>/lib``, ``<prefix>\\Library\\bin``).

"Which one the loader finds first" follows the loader's search order: on Windows the DLL search
(application folder, System32, then PATH: both the process's PATH and the PATH a new terminal would
see, rebuilt from the registry); on Linux ``LD_LIBRARY_PATH``, the wheel RPATH of TF >= 2.14, the
``ld.so.conf`` folders and the default folders.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Optional

from wizard.core.envs import PythonEnv, tf_version
from wizard.core.host import Host
from wizard.core.host.windows import program_files, registry_path_entries
from wizard.core.knowledge.versions import try_parse_version

TOOLKIT_SUBDIR = "NVIDIA GPU Computing Toolkit\\CUDA"
CUDA_REGISTRY_KEYS = (
    "HKLM\\SOFTWARE\\NVIDIA Corporation\\GPU Computing Toolkit\\CUDA",
    "HKLM\\SOFTWARE\\WOW6432Node\\NVIDIA Corporation\\GPU Computing Toolkit\\CUDA",
)
LINUX_OPT_TOOLKITS = ("/opt/cuda", "/opt/nvidia/cuda")
LINUX_DEFAULT_LIB_DIRS = (
    "/lib/x86_64-linux-gnu",
    "/usr/lib/x86_64-linux-gnu",
    "/lib64",
    "/usr/lib64",
    "/lib",
    "/usr/lib",
)
LINUX_TOOLKIT_LIB_SUBDIRS = ("lib64", "lib", "targets/x86_64-linux/lib", "targets/sbsa-linux/lib")
WINDOWS_TOOLKIT_LIB_SUBDIRS = ("bin", "bin\\x64")
LINUX_SYSTEM_DIRS = LINUX_DEFAULT_LIB_DIRS + (
    "/usr/include",
    "/usr/include/x86_64-linux-gnu",
    "/usr/local/lib",
    "/usr/local/include",
    "/usr/lib/aarch64-linux-gnu",
)
"""Folders too big to list (thousands of entries): known file names are probed instead."""
CUDART_SONAMES = ("9.0", "9.1", "9.2", "10.0", "10.1", "10.2", "11.0", "12", "13")

_WIN_CUDART = re.compile(r"^cudart64_(\d+)\.dll$", re.IGNORECASE)
_LINUX_CUDART = re.compile(r"^libcudart\.so\.(\d+(?:\.\d+)*)$")
_VERSION_DIR = re.compile(r"^(?:v|cuda-?)(\d+(?:\.\d+)?)$", re.IGNORECASE)
_VERSION_TXT = re.compile(r"CUDA Version\s+(\d+(?:\.\d+)+)")
_CUDA_H = re.compile(r"^\s*#\s*define\s+CUDA_VERSION\s+(\d+)", re.MULTILINE)
_CUDART_H = re.compile(r"^\s*#\s*define\s+CUDART_VERSION\s+(\d+)", re.MULTILINE)
_NVCC = re.compile(r"release\s+(\d+\.\d+),\s*V(\d+(?:\.\d+)+)")
_CONDA_CUDA_PKG = re.compile(
    r"^(cudatoolkit|cuda-cudart|cuda-runtime|cuda-toolkit)-(\d+(?:\.\d+)*)-", re.IGNORECASE
)
_DIST_INFO = re.compile(r"^(nvidia[_-][a-z0-9_.-]+?)-(\d+(?:\.\d+)*)[^-]*\.(?:dist|egg)-info$",
                        re.IGNORECASE)


# ------------------------------------------------------------------------------------------
# Versions and file names
# ------------------------------------------------------------------------------------------


def version_tuple(version: Optional[str]) -> Optional[tuple[int, ...]]:
    """``"11.2.67"`` -> (11, 2, 67); None for None or text without a leading number."""
    return try_parse_version(version) if version else None


def major_minor(version: Optional[str]) -> Optional[str]:
    """``"11.2.67"`` -> ``"11.2"``; ``"12"`` -> None (the minor is unknown)."""
    numbers = version_tuple(version)
    if not numbers or len(numbers) < 2:
        return None
    return f"{numbers[0]}.{numbers[1]}"


def major_of(version: Optional[str]) -> Optional[int]:
    numbers = version_tuple(version)
    return numbers[0] if numbers else None


def runtime_abi(cuda: str) -> str:
    """The part of a CUDA version its runtime's file name encodes: every 11.x ships
    ``cudart64_110.dll`` / ``libcudart.so.11.0`` and every 12.x ``cudart64_12.dll`` /
    ``libcudart.so.12``, so from CUDA 11 on the ABI is the major; before, major.minor."""
    numbers = version_tuple(cuda) or (0,)
    if numbers[0] >= 11:
        return str(numbers[0])
    return f"{numbers[0]}.{numbers[1] if len(numbers) > 1 else 0}"


def cudart_file_name(cuda: str, windows: bool) -> str:
    """The runtime file TensorFlow's loader asks for: 11.2 -> ``cudart64_110.dll`` /
    ``libcudart.so.11.0``; 12.x -> ``cudart64_12.dll`` / ``libcudart.so.12``; 10.1 ->
    ``cudart64_101.dll`` / ``libcudart.so.10.1``."""
    numbers = version_tuple(cuda) or (0,)
    major, minor = numbers[0], numbers[1] if len(numbers) > 1 else 0
    if windows:
        if major >= 12:
            return f"cudart64_{major}.dll"
        return f"cudart64_{major}{minor if major < 11 else 0}.dll"
    if major >= 12:
        return f"libcudart.so.{major}"
    return f"libcudart.so.{major}.{minor if major < 11 else 0}"


def cudart_abi_of_file(name: str) -> Optional[str]:
    """``cudart64_110.dll`` -> "11", ``cudart64_101.dll`` -> "10.1", ``libcudart.so.12.5.82`` ->
    "12", ``libcudart.so.10.1.243`` -> "10.1"; None for other names (``libcudart.so``)."""
    match = _WIN_CUDART.match(name)
    if match:
        digits = match.group(1)
        if len(digits) >= 3:
            major, minor = int(digits[:-1]), int(digits[-1])
            return str(major) if major >= 11 else f"{major}.{minor}"
        return str(int(digits)) if int(digits) >= 11 else None
    match = _LINUX_CUDART.match(name)
    if match:
        return runtime_abi(match.group(1))
    return None


def version_from_cudart(names: list[str]) -> Optional[str]:
    """The most precise version the runtime file names tell: ``libcudart.so.11.2.72`` ->
    "11.2.72"; ``cudart64_101.dll`` -> "10.1"; ``cudart64_110.dll`` -> "11" (any 11.x)."""
    best: Optional[str] = None
    for name in names:
        match = _LINUX_CUDART.match(name)
        candidate: Optional[str] = None
        if match:
            text = match.group(1)
            # libcudart.so.11.0 is the soname every 11.x carries: only the major is certain.
            candidate = str(major_of(text)) if text == "11.0" else text
        else:
            abi = cudart_abi_of_file(name)
            candidate = abi
        if candidate and (best is None or len(version_tuple(candidate) or ()) >
                          len(version_tuple(best) or ())):
            best = candidate
    return best


def parse_version_json(text: Optional[str]) -> Optional[str]:
    """``version.json`` of CUDA >= 11: ``{"cuda": {"version": "11.2.2"}, ...}``."""
    if not text:
        return None
    try:
        data = json.loads(text)
    except ValueError:
        return None
    cuda = data.get("cuda") if isinstance(data, dict) else None
    version = cuda.get("version") if isinstance(cuda, dict) else None
    return str(version) if version and version_tuple(str(version)) else None


def parse_version_txt(text: Optional[str]) -> Optional[str]:
    """``version.txt`` of CUDA <= 11.0: ``CUDA Version 11.2.67``."""
    match = _VERSION_TXT.search(text or "")
    return match.group(1) if match else None


def parse_cuda_h(text: Optional[str]) -> Optional[str]:
    """``#define CUDA_VERSION 11020`` -> "11.2"."""
    match = _CUDA_H.search(text or "")
    if not match:
        return None
    value = int(match.group(1))
    return f"{value // 1000}.{(value % 1000) // 10}"


def parse_nvcc_version(text: Optional[str]) -> Optional[str]:
    """``Cuda compilation tools, release 11.2, V11.2.152`` -> "11.2.152"."""
    match = _NVCC.search(text or "")
    return match.group(2) if match else None


def version_from_dir_name(name: str) -> Optional[str]:
    """``v11.2`` / ``cuda-11.2`` / ``cuda-12`` -> the version; None for ``cuda``."""
    match = _VERSION_DIR.match(name)
    return match.group(1) if match else None


# ------------------------------------------------------------------------------------------
# Data
# ------------------------------------------------------------------------------------------


@dataclass
class CudaInstall:
    """One copy of the CUDA runtime: a toolkit, a distro package, pip wheels or a conda env."""

    path: str
    kind: str = "toolkit"
    """``toolkit`` (NVIDIA installer), ``system`` (distro package / loose copy on the library
    path), ``pip`` (``nvidia-cuda-runtime-cu1x`` wheel) or ``conda``."""
    version: Optional[str] = None
    version_source: Optional[str] = None
    sources: list[str] = field(default_factory=list)
    """Why it was found: ``folder``, ``CUDA_PATH``, ``CUDA_PATH_V11_2``, ``registry``,
    ``PATH``, ``LD_LIBRARY_PATH``, ``ld.so.conf``, ``site-packages``, ``conda-meta``, ..."""
    aliases: list[str] = field(default_factory=list)
    """Other paths naming the same install (``/usr/local/cuda`` beside ``/usr/local/cuda-11.2``)."""
    lib_dir: Optional[str] = None
    """The folder holding the runtime (``bin``, ``bin\\x64``, ``lib64``, a wheel's ``lib``)."""
    lib_dirs: list[str] = field(default_factory=list)
    """Every folder of this install that may hold its libraries (for path matching)."""
    cudart: list[str] = field(default_factory=list)
    nvcc: Optional[str] = None
    package: Optional[str] = None
    """The pip distribution or conda package that provides it."""
    exists: bool = True
    """False for a CUDA_PATH* variable or registry entry that names a missing folder."""
    on_path: Optional[bool] = None
    """Whether the loader of this process finds its runtime (PATH / library path)."""
    on_new_path: Optional[bool] = None
    """Windows: whether a newly opened terminal would (PATH rebuilt from the registry)."""

    @property
    def series(self) -> Optional[str]:
        return major_minor(self.version)

    @property
    def major(self) -> Optional[int]:
        return major_of(self.version)

    def abis(self) -> set[str]:
        return {abi for abi in (cudart_abi_of_file(n) for n in self.cudart) if abi}

    def provides(self, cuda: str) -> bool:
        """True when this install holds the runtime file a build for ``cuda`` loads."""
        return runtime_abi(cuda) in self.abis()

    def owns(self, directory: str, host: Host) -> bool:
        """True when ``directory`` is one of this install's library folders."""
        return any(host.same_path(directory, d) for d in self.lib_dirs)

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "version_source": self.version_source,
            "path": self.path,
            "kind": self.kind,
            "sources": list(self.sources),
            "aliases": list(self.aliases),
            "lib_dir": self.lib_dir,
            "cudart": list(self.cudart),
            "nvcc": self.nvcc,
            "package": self.package,
            "exists": self.exists,
            "on_path": self.on_path,
            "on_new_path": self.on_new_path,
        }


@dataclass(frozen=True)
class LoaderDir:
    """One folder in the loader's search order and why it is there."""

    path: str
    origin: str
    """``app_dir``, ``system32``, ``conda_env``, ``PATH``, ``LD_LIBRARY_PATH``, ``rpath``,
    ``ld.so.conf``, ``default``."""


@dataclass
class CudaDiscovery:
    """Everything :func:`discover` found; the cuda and cudnn layers read it."""

    host: Host
    installs: list[CudaInstall]
    env: Optional[PythonEnv]
    loader_process: list[LoaderDir]
    loader_new: Optional[list[LoaderDir]]
    """Windows: the loader order a new terminal would have (None without registry data)."""
    path_process: list[str]
    path_registry: Optional[list[str]]
    nvcc: Optional[dict[str, Any]] = None
    listing_cache: dict[str, list[str]] = field(default_factory=dict)

    @property
    def loader_effective(self) -> list[LoaderDir]:
        """The order to judge by: what a new terminal sees where the registry tells, else this
        process's (DESIGN: verify with the registry PATH, not the wizard's stale copy)."""
        return self.loader_new if self.loader_new is not None else self.loader_process

    def listdir(self, directory: str) -> list[str]:
        """The entries of ``directory`` that matter here. Big system folders (System32, the
        Windows folder, /usr/lib/x86_64-linux-gnu, /usr/include, ...) are not listed: the known
        CUDA/cuDNN file names are probed one by one instead, which keeps a snapshot of the
        machine small and the check fast."""
        key = directory.lower() if self.host.is_windows else directory
        if key not in self.listing_cache:
            if self.is_system_dir(directory):
                names = known_file_names(self.host.is_windows)
                self.listing_cache[key] = [
                    n for n in names if self.host.exists(self.host.join(directory, n))
                ]
            else:
                self.listing_cache[key] = self.host.listdir(directory)
        return self.listing_cache[key]

    def is_system_dir(self, directory: str) -> bool:
        host = self.host
        if host.is_windows:
            root = host.getenv("SystemRoot") or host.getenv("windir") or "C:\\Windows"
            return any(host.same_path(directory, d) for d in
                       (root, host.join(root, "System32"), host.join(root, "SysWOW64")))
        return any(host.same_path(directory, d) for d in LINUX_SYSTEM_DIRS)

    def toolkits(self) -> list[CudaInstall]:
        return [i for i in self.installs if i.exists]

    def loader_first(self, cuda: Optional[str] = None, new_terminal: Optional[bool] = None
                     ) -> Optional[tuple[CudaInstall, LoaderDir, str]]:
        """The install whose runtime the loader opens first: for ``cuda`` the file a build for
        that version asks for, else any ``cudart``. Returns (install, folder, file name)."""
        order = (self.loader_effective if new_terminal is None
                 else (self.loader_new or []) if new_terminal else self.loader_process)
        abi = runtime_abi(cuda) if cuda else None
        for entry in order:
            for name in cudart_files(self.listdir(entry.path), self.host.is_windows):
                if abi is not None and cudart_abi_of_file(name) != abi:
                    continue
                install = self.owner(entry.path)
                if install is not None:
                    return install, entry, name
        return None

    def owner(self, directory: str) -> Optional[CudaInstall]:
        return next((i for i in self.installs if i.exists and i.owns(directory, self.host)), None)

    def pip_runtime(self) -> Optional[CudaInstall]:
        return next((i for i in self.installs if i.kind == "pip"), None)

    def facts(self) -> dict[str, Any]:
        first = self.loader_first()
        facts: dict[str, Any] = {
            "installs": [i.to_dict() for i in self.installs],
            "loader_first": _first_dict(first),
            "env": self.env.library_facts() if self.env else None,
            "nvcc": self.nvcc,
        }
        if self.host.is_windows:
            facts["path_entries_process"] = list(self.path_process)
            facts["path_entries_registry"] = (
                list(self.path_registry) if self.path_registry is not None else None
            )
            facts["loader_first_process"] = _first_dict(self.loader_first(new_terminal=False))
            if self.loader_new is not None:
                facts["loader_first_new_terminal"] = _first_dict(
                    self.loader_first(new_terminal=True)
                )
        else:
            facts["ld_library_path"] = self.host.path_entries("LD_LIBRARY_PATH")
            facts["loader_dirs"] = [
                {"path": d.path, "origin": d.origin} for d in self.loader_process
            ]
        return facts


def _first_dict(first: Optional[tuple[CudaInstall, LoaderDir, str]]) -> Optional[dict[str, Any]]:
    if first is None:
        return None
    install, entry, name = first
    return {
        "path": install.path,
        "version": install.version,
        "dir": entry.path,
        "origin": entry.origin,
        "file": name,
    }


def known_file_names(windows: bool) -> list[str]:
    """Every CUDA runtime, cuDNN library/header and zlibwapi name the layers look for."""
    from wizard.core import cudnn_installs

    if windows:
        names = [cudart_file_name(v, True) for v in CUDART_SONAMES]
        for files in cudnn_installs.WINDOWS_FILES.values():
            names.extend(files)
        names.append(cudnn_installs.ZLIBWAPI)
        return names
    names = [f"libcudart.so.{v}" for v in CUDART_SONAMES]
    for files in cudnn_installs.LINUX_FILES.values():
        names.extend(files)
    names.extend(["cudnn.h", "cudnn_version.h", "cuda.h", "cuda_runtime_api.h"])
    for major in cudnn_installs.LINUX_FILES:
        names.extend([f"cudnn_v{major}.h", f"cudnn_version_v{major}.h"])
    return names


def cudart_files(names: list[str], windows: bool) -> list[str]:
    pattern = _WIN_CUDART if windows else _LINUX_CUDART
    return sorted(n for n in names if pattern.match(n))


# ------------------------------------------------------------------------------------------
# The Python environment
# ------------------------------------------------------------------------------------------


def python_env(host: Host, python: Optional[str], probe: Optional[dict[str, Any]]
               ) -> Optional[PythonEnv]:
    """The chosen environment's prefix, site-packages and packages, from the probe where it
    answered and from the executable's location otherwise; None without an environment."""
    info = (probe or {}).get("python") if isinstance(probe, dict) else None
    info = info if isinstance(info, dict) else {}
    executable = info.get("executable") or python
    prefix = info.get("prefix") or (_prefix_of(host, executable) if executable else None)
    if not prefix:
        return None
    version = _python_series(info.get("version"))
    if version is None and not host.is_windows:
        found = host.glob(host.join(prefix, "lib"), "python3.*")
        version = host.path.basename(found[0])[len("python"):] if found else None
    site = _site_packages(host, prefix, version, info)
    conda = bool(info.get("conda")) or host.is_dir(host.join(prefix, "conda-meta"))
    packages: dict[str, Optional[str]] = {}
    probe_packages = (probe or {}).get("packages")
    for key in ("packages", "nvidia_packages"):
        listed = (probe or {}).get(key)
        if isinstance(listed, dict):
            # (not ``version``: that is the environment's Python series, returned below)
            for name, dist_version in listed.items():
                if dist_version or str(name).lower() not in packages:
                    packages[str(name).lower()] = dist_version
    # The probe lists the nvidia-* distributions; without a probe answer, read the
    # *.dist-info folder names instead (one listing of site-packages).
    scan = [] if isinstance(probe_packages, dict) and probe_packages else site
    for directory in scan:
        for name in host.listdir(directory):
            match = _DIST_INFO.match(name)
            if match:
                dist = match.group(1).lower().replace("_", "-")
                if not packages.get(dist):
                    packages[dist] = match.group(2)
    conda_packages = _conda_packages(host, prefix) if conda else {}
    return PythonEnv(executable, prefix=prefix, version=version, site_packages=site, conda=conda,
                     packages=packages, conda_packages=conda_packages,
                     tensorflow=tf_version(probe, packages))


def _prefix_of(host: Host, executable: str) -> str:
    folder = host.path.dirname(executable)
    if host.is_windows:
        in_scripts = host.path.basename(folder).lower() == "scripts"
        return host.path.dirname(folder) if in_scripts else folder
    return host.path.dirname(folder) if host.path.basename(folder) == "bin" else folder


def _python_series(version: Any) -> Optional[str]:
    return major_minor(str(version)) if version else None


def _site_packages(host: Host, prefix: str, version: Optional[str], info: dict[str, Any]
                   ) -> list[str]:
    candidates: list[str] = []
    for key in ("site_packages", "purelib", "platlib", "user_site"):
        value = info.get(key)
        if isinstance(value, str):
            candidates.append(value)
        elif isinstance(value, list):
            candidates.extend(str(v) for v in value)
    if host.is_windows:
        candidates.append(host.join(prefix, "Lib", "site-packages"))
    elif version:
        candidates.append(host.join(prefix, "lib", f"python{version}", "site-packages"))
        if prefix in ("/usr", "/usr/local"):
            candidates.append(f"/usr/local/lib/python{version}/dist-packages")
            candidates.append("/usr/lib/python3/dist-packages")
        home = host.getenv("HOME")
        if home and not info.get("venv") and not info.get("conda"):
            candidates.append(host.join(home, ".local", "lib", f"python{version}", "site-packages"))
    result: list[str] = []
    for candidate in candidates:
        if host.is_dir(candidate) and not any(host.same_path(candidate, r) for r in result):
            result.append(candidate)
    return result


def _conda_packages(host: Host, prefix: str) -> dict[str, str]:
    """conda-meta/<name>-<version>-<build>.json -> {name: version}."""
    packages: dict[str, str] = {}
    for name in host.listdir(host.join(prefix, "conda-meta")):
        if not name.endswith(".json"):
            continue
        match = re.match(r"^(.+)-(\d[^-]*)-([^-]+)\.json$", name)
        if match:
            packages[match.group(1).lower()] = match.group(2)
    return packages


# ------------------------------------------------------------------------------------------
# Discovery
# ------------------------------------------------------------------------------------------


def discover(host: Host, python: Optional[str] = None, probe: Optional[dict[str, Any]] = None
             ) -> CudaDiscovery:
    """Every CUDA runtime on the machine and in the chosen environment, with the loader order."""
    env = python_env(host, python, probe) if (python or probe) else None
    installs = _windows_toolkits(host) if host.is_windows else _linux_toolkits(host)
    if env is not None:
        installs.extend(_env_installs(host, env))
    path_process = host.path_entries("PATH")
    path_registry = registry_path_entries(host) if host.is_windows else None
    if host.is_windows:
        loader_process = windows_loader_dirs(host, path_process, env)
        loader_new = (windows_loader_dirs(host, path_registry, env)
                      if path_registry is not None else None)
    else:
        loader_process = linux_loader_dirs(host, env, installs)
        loader_new = None
    discovery = CudaDiscovery(host, installs, env, loader_process, loader_new, path_process,
                              path_registry)
    _add_loose_runtimes(discovery)
    _mark_on_path(discovery)
    discovery.nvcc = _nvcc_info(host, installs)
    return discovery


def _merge(installs: list[CudaInstall], host: Host, path: str, source: str) -> CudaInstall:
    """The install at ``path`` (created if new), with ``source`` added."""
    for install in installs:
        if host.same_path(install.path, path):
            if source not in install.sources:
                install.sources.append(source)
            return install
    install = CudaInstall(path=path.rstrip("\\/") or path, sources=[source])
    installs.append(install)
    return install


def _windows_toolkits(host: Host) -> list[CudaInstall]:
    installs: list[CudaInstall] = []
    for root in program_files(host):
        base = host.join(root, TOOLKIT_SUBDIR)
        for name in host.listdir(base):
            if name.lower().startswith("v") and host.is_dir(host.join(base, name)):
                _merge(installs, host, host.join(base, name), "folder")
    env = host.env()
    for name in sorted(env, key=str.upper):
        upper = name.upper()
        if upper == "CUDA_PATH" or upper.startswith("CUDA_PATH_V"):
            value = env[name].strip().strip('"')
            if value:
                install = _merge(installs, host, value, upper)
                if upper.startswith("CUDA_PATH_V") and install.version is None:
                    install.version = upper[len("CUDA_PATH_V"):].replace("_", ".")
                    install.version_source = upper
    for key in CUDA_REGISTRY_KEYS:
        for sub in host.registry_subkeys(key):
            values = host.registry_values(f"{key}\\{sub}")
            install_dir = values.get("InstallDir", (None, None))[1]
            if isinstance(install_dir, str) and install_dir.strip():
                install = _merge(installs, host, install_dir.strip(), "registry")
                if install.version is None and version_from_dir_name(sub):
                    install.version, install.version_source = version_from_dir_name(sub), "registry"
    for install in installs:
        _fill_toolkit(host, install, WINDOWS_TOOLKIT_LIB_SUBDIRS, windows=True)
    return installs


def _linux_toolkits(host: Host) -> list[CudaInstall]:
    installs: list[CudaInstall] = []
    for name in host.listdir("/usr/local"):
        folder = host.join("/usr/local", name)
        if (name == "cuda" or name.startswith("cuda-")) and host.is_dir(folder):
            _merge(installs, host, folder, "folder")
    for folder in LINUX_OPT_TOOLKITS:  # /opt holds unrelated software: probe, do not list
        if host.is_dir(folder):
            _merge(installs, host, folder, "folder")
    for variable in ("CUDA_HOME", "CUDA_PATH", "CUDA_ROOT"):
        value = host.getenv(variable)
        if value and host.is_dir(value):
            _merge(installs, host, value, variable)
    for install in installs:
        _fill_toolkit(host, install, LINUX_TOOLKIT_LIB_SUBDIRS, windows=False)
    return _fold_aliases(host, installs)


def _fill_toolkit(host: Host, install: CudaInstall, lib_subdirs: tuple[str, ...], windows: bool
                  ) -> None:
    """Version, runtime files and nvcc of a toolkit folder."""
    root = install.path
    install.exists = host.is_dir(root)
    if not install.exists:
        return
    install.lib_dirs = [host.join(root, sub) for sub in lib_subdirs]
    for directory in install.lib_dirs:
        files = cudart_files(host.listdir(directory), windows)
        if files:
            install.cudart = files
            install.lib_dir = directory
            break
    if install.lib_dir is None:
        install.lib_dir = install.lib_dirs[0]
    nvcc = host.join(root, "bin", "nvcc.exe" if windows else "nvcc")
    install.nvcc = nvcc if host.is_file(nvcc) else None
    found = _toolkit_version(host, root)
    if found:
        install.version, install.version_source = found
    elif install.version is None:
        name_version = version_from_dir_name(host.path.basename(root.rstrip("\\/")))
        if name_version:
            install.version, install.version_source = name_version, "folder name"
        elif install.cudart:
            install.version, install.version_source = version_from_cudart(install.cudart), "cudart"


def toolkit_version(host: Host, root: str) -> Optional[str]:
    """The CUDA version of the toolkit at ``root`` (version.json, version.txt or cuda.h; a
    toolkit from NVIDIA's pip wheels has only cuda.h), None when none says."""
    found = _toolkit_version(host, root)
    return found[0] if found else None


def _toolkit_version(host: Host, root: str) -> Optional[tuple[str, str]]:
    version = parse_version_json(host.read_text(host.join(root, "version.json")))
    if version:
        return version, "version.json"
    version = parse_version_txt(host.read_text(host.join(root, "version.txt")))
    if version:
        return version, "version.txt"
    # cuda.h is over 1 MB; CUDA_VERSION is defined near the top.
    version = parse_cuda_h(host.read_text(host.join(root, "include", "cuda.h"), max_bytes=32768))
    if version:
        return version, "cuda.h"
    return None


def _fold_aliases(host: Host, installs: list[CudaInstall]) -> list[CudaInstall]:
    """``/usr/local/cuda`` (a symlink the profile cannot show) beside ``/usr/local/cuda-X.Y`` with
    the same version and runtime files is one install named twice."""
    result: list[CudaInstall] = []
    generic = [i for i in installs if host.path.basename(i.path) == "cuda"]
    for install in installs:
        if install in generic:
            continue
        result.append(install)
    for alias in generic:
        twin = next(
            (i for i in result if i.version and i.version == alias.version
             and i.cudart == alias.cudart and i.kind == alias.kind),
            None,
        )
        if twin is None:
            result.insert(0, alias)
            continue
        twin.aliases.append(alias.path)
        twin.lib_dirs.extend(alias.lib_dirs)
        for source in alias.sources:
            if source not in twin.sources:
                twin.sources.append(source)
    return result


def _env_installs(host: Host, env: PythonEnv) -> list[CudaInstall]:
    """pip wheels and conda libraries of the chosen environment."""
    found: list[CudaInstall] = []
    windows = host.is_windows
    for site in env.site_packages:
        nvidia = host.join(site, "nvidia")
        candidates = [host.join(nvidia, "cuda_runtime", "bin" if windows else "lib")]
        candidates.append(host.join(nvidia, "cu13", "bin", "x86_64") if windows
                          else host.join(nvidia, "cu13", "lib"))
        for directory in candidates:
            files = cudart_files(host.listdir(directory), windows)
            if not files:
                continue
            package, version = _wheel_version(env, files)
            found.append(CudaInstall(
                path=host.path.dirname(directory) if not directory.endswith("x86_64")
                else host.path.dirname(host.path.dirname(directory)),
                kind="pip", version=version or version_from_cudart(files),
                version_source="pip metadata" if version else "cudart",
                sources=["site-packages"], lib_dir=directory, lib_dirs=[directory],
                cudart=files, package=package,
            ))
            break
    if env.conda:
        directory = (host.join(env.prefix, "Library", "bin") if windows
                     else host.join(env.prefix, "lib"))
        files = cudart_files(host.listdir(directory), windows)
        if files:
            package, version = _conda_cuda_version(env)
            found.append(CudaInstall(
                path=env.prefix, kind="conda", version=version or version_from_cudart(files),
                version_source="conda-meta" if version else "cudart", sources=["conda-meta"],
                lib_dir=directory, lib_dirs=[directory], cudart=files, package=package,
            ))
    return found


def _wheel_version(env: PythonEnv, files: list[str]) -> tuple[Optional[str], Optional[str]]:
    abis = {cudart_abi_of_file(f) for f in files}
    for suffix in ("cu13", "cu12", "cu11"):
        name = f"nvidia-cuda-runtime-{suffix}"
        version = env.packages.get(name)
        if version and runtime_abi(version) in abis:
            return name, str(version)
    for suffix in ("cu13", "cu12", "cu11"):
        if suffix[2:] in abis:
            return f"nvidia-cuda-runtime-{suffix}", None
    return None, None


def _conda_cuda_version(env: PythonEnv) -> tuple[Optional[str], Optional[str]]:
    for name in ("cudatoolkit", "cuda-cudart", "cuda-runtime", "cuda-toolkit"):
        if name in env.conda_packages:
            return name, env.conda_packages[name]
    return None, None


# ------------------------------------------------------------------------------------------
# The loader's search order
# ------------------------------------------------------------------------------------------


def windows_loader_dirs(host: Host, path_entries: list[str], env: Optional[PythonEnv]
                        ) -> list[LoaderDir]:
    """LoadLibraryEx with a bare name: the application folder (the Python's own), System32,
    the Windows folder, then PATH. ``conda activate`` puts the env's ``Library\\bin`` first on
    PATH, so a conda env's libraries count as found when it is activated."""
    order: list[LoaderDir] = []
    if env is not None and env.executable:
        order.append(LoaderDir(host.path.dirname(env.executable), "app_dir"))
    system_root = host.getenv("SystemRoot") or host.getenv("windir") or "C:\\Windows"
    order.append(LoaderDir(host.join(system_root, "System32"), "system32"))
    order.append(LoaderDir(system_root, "windows"))
    if env is not None and env.conda:
        order.append(LoaderDir(host.join(env.prefix, "Library", "bin"), "conda_env"))
    order.extend(LoaderDir(entry, "PATH") for entry in path_entries)
    return _dedupe(host, order)


def linux_loader_dirs(host: Host, env: Optional[PythonEnv], installs: list[CudaInstall]
                      ) -> list[LoaderDir]:
    """ld.so: LD_LIBRARY_PATH, then the RUNPATH of the TF wheel (TF >= 2.14 points at the
    ``nvidia/*/lib`` wheel folders), then the ld.so.cache folders (from /etc/ld.so.conf and
    its includes), then the default folders."""
    order = [LoaderDir(e, "LD_LIBRARY_PATH") for e in host.path_entries("LD_LIBRARY_PATH")]
    if env is not None and env.tensorflow and (version_tuple(env.tensorflow) or (0,)) >= (2, 14):
        order.extend(LoaderDir(i.lib_dir, "rpath") for i in installs
                     if i.kind == "pip" and i.lib_dir)
        order.extend(LoaderDir(d, "rpath") for d in _wheel_lib_dirs(host, env))
    if env is not None and env.conda and "tensorflow-base" in env.conda_packages:
        order.append(LoaderDir(host.join(env.prefix, "lib"), "rpath"))
    order.extend(LoaderDir(d, "ld.so.conf") for d in ld_so_conf_dirs(host))
    order.extend(LoaderDir(d, "default") for d in LINUX_DEFAULT_LIB_DIRS)
    return _dedupe(host, order)


def _wheel_lib_dirs(host: Host, env: PythonEnv) -> list[str]:
    """The ``nvidia/<component>/lib`` folders of the wheels in the environment."""
    dirs: list[str] = []
    for site in env.site_packages:
        nvidia = host.join(site, "nvidia")
        for component in host.listdir(nvidia):
            lib = host.join(nvidia, component, "lib")
            if host.is_dir(lib):
                dirs.append(lib)
    return dirs


def ld_so_conf_dirs(host: Host, conf: str = "/etc/ld.so.conf", depth: int = 0) -> list[str]:
    """The folders listed in ld.so.conf and the files it includes, in order."""
    text = host.read_text(conf)
    if text is None or depth > 3:
        return []
    dirs: list[str] = []
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("include "):
            pattern = line[len("include "):].strip()
            if not pattern.startswith("/"):
                pattern = host.join(host.path.dirname(conf), pattern)
            for included in host.glob(host.path.dirname(pattern), host.path.basename(pattern)):
                dirs.extend(ld_so_conf_dirs(host, included, depth + 1))
        elif line.startswith("/"):
            dirs.append(line)
    return dirs


def _dedupe(host: Host, order: list[LoaderDir]) -> list[LoaderDir]:
    result: list[LoaderDir] = []
    for entry in order:
        if entry.path and not any(host.same_path(entry.path, r.path) for r in result):
            result.append(entry)
    return result


def _add_loose_runtimes(discovery: CudaDiscovery) -> None:
    """A loader folder holding a cudart that belongs to no known install (a copy somewhere on
    PATH, a distro package in /usr/lib/x86_64-linux-gnu) becomes an install of its own."""
    host = discovery.host
    seen: list[LoaderDir] = list(discovery.loader_process) + list(discovery.loader_new or [])
    for entry in seen:
        files = cudart_files(discovery.listdir(entry.path), host.is_windows)
        if not files or discovery.owner(entry.path) is not None:
            continue
        root = _root_of_lib_dir(host, entry.path)
        install = CudaInstall(path=root, kind="system", sources=[entry.origin],
                              lib_dir=entry.path, lib_dirs=[entry.path], cudart=files)
        found = _toolkit_version(host, root) if root != entry.path else None
        if found is None and not host.is_windows and discovery.is_system_dir(entry.path):
            found = _system_headers_version(host)
        if found:
            install.version, install.version_source = found
        else:
            install.version, install.version_source = version_from_cudart(files), "cudart"
        discovery.installs.append(install)


def _system_headers_version(host: Host) -> Optional[tuple[str, str]]:
    """A distro CUDA package (``nvidia-cuda-toolkit``) keeps its headers in /usr/include."""
    version = parse_cuda_h(host.read_text("/usr/include/cuda.h", max_bytes=32768))
    if version:
        return version, "cuda.h"
    text = host.read_text("/usr/include/cuda_runtime_api.h", max_bytes=32768)
    match = _CUDART_H.search(text or "")
    if match:
        value = int(match.group(1))
        return f"{value // 1000}.{(value % 1000) // 10}", "cuda_runtime_api.h"
    return None


def _root_of_lib_dir(host: Host, directory: str) -> str:
    base = host.path.basename(directory.rstrip("\\/")).lower()
    if base in ("bin", "lib64", "lib"):
        return host.path.dirname(directory.rstrip("\\/"))
    return directory


def _mark_on_path(discovery: CudaDiscovery) -> None:
    host = discovery.host
    for install in discovery.installs:
        if not install.exists or not install.cudart:
            continue
        install.on_path = any(install.owns(d.path, host) for d in discovery.loader_process)
        if discovery.loader_new is not None:
            install.on_new_path = any(install.owns(d.path, host) for d in discovery.loader_new)


def _nvcc_info(host: Host, installs: list[CudaInstall]) -> Optional[dict[str, Any]]:
    """The nvcc on PATH and its version (one short command; skipped when there is none)."""
    path = host.which("nvcc")
    if not path:
        return None
    result = host.run([path, "--version"], timeout=10.0)
    version = parse_nvcc_version(result.stdout) if result.ok else None
    for install in installs:
        vague = install.version is None or install.version_source in ("cudart", "folder name")
        if version and vague and install.nvcc and host.same_path(install.nvcc, path):
            install.version, install.version_source = version, "nvcc"
    return {"path": path, "version": version}
