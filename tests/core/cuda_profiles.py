"""Small machine-profile builders for the cuda and cudnn layer tests (inline profiles, replayed
through ReplayHost; the full machine library lives in tests/profiles/)."""

from __future__ import annotations

import json
from typing import Any, Optional

from wizard.core import knowledge
from wizard.core.cudnn_installs import LINUX_FILES, WINDOWS_FILES
from wizard.core.host import ReplayHost
from wizard.core.layers import CheckContext, cuda, cudnn
from wizard.core.model import LayerResult, Target

PF = "C:\\Program Files"
TOOLKITS = PF + "\\NVIDIA GPU Computing Toolkit\\CUDA"
SYSTEM_ENV = "HKLM\\SYSTEM\\CurrentControlSet\\Control\\Session Manager\\Environment"
USER_ENV = "HKCU\\Environment"
CUDA_REG = "HKLM\\SOFTWARE\\NVIDIA Corporation\\GPU Computing Toolkit\\CUDA"
WIN_BASE_PATH = ["C:\\Windows\\system32", "C:\\Windows", "C:\\Windows\\System32\\Wbem"]


def cudnn_header(version: str) -> str:
    major, minor, patch = (version.split(".") + ["0", "0"])[:3]
    return (
        "/* cudnn_version.h */\n#ifndef CUDNN_VERSION_H_\n"
        f"#define CUDNN_MAJOR {major}\n#define CUDNN_MINOR {minor}\n"
        f"#define CUDNN_PATCHLEVEL {patch}\n\n"
        "#define CUDNN_VERSION (CUDNN_MAJOR * 1000 + CUDNN_MINOR * 100 + CUDNN_PATCHLEVEL)\n"
        "#endif\n"
    )


class Machine:
    """A profile under construction."""

    def __init__(self, system: str = "windows", wsl: Optional[int] = None) -> None:
        self.system = system
        self.wsl = wsl
        self.files: dict[str, Optional[str]] = {}
        self.env: dict[str, str] = {}
        self.registry: dict[str, dict[str, list[Any]]] = {}
        self.pythons: list[dict[str, Any]] = []
        self.commands: list[dict[str, Any]] = []
        if system == "windows":
            self.env.update({"SystemRoot": "C:\\Windows", "ProgramFiles": PF,
                             "ProgramW6432": PF})
            self.files["C:\\Windows\\System32\\kernel32.dll"] = None

    @property
    def windows(self) -> bool:
        return self.system == "windows"

    def sep(self) -> str:
        return "\\" if self.windows else "/"

    def join(self, *parts: str) -> str:
        return self.sep().join(parts)

    # -- CUDA ------------------------------------------------------------------------------
    def win_toolkit(self, version: str, full: Optional[str] = None, *, root: Optional[str] = None,
                    version_file: str = "json", registry: bool = True, env: bool = True) -> str:
        path = root or f"{TOOLKITS}\\v{version}"
        major = int(version.split(".")[0])
        cudart = f"cudart64_{major}.dll" if major >= 12 else (
            "cudart64_110.dll" if major == 11 else f"cudart64_{version.replace('.', '')}.dll")
        bin_dir = path + ("\\bin\\x64" if major >= 13 else "\\bin")
        self.files[f"{bin_dir}\\{cudart}"] = None
        self.files[f"{path}\\bin\\nvcc.exe"] = None
        self.files[f"{path}\\include\\cuda.h"] = None
        full = full or f"{version}.0"
        if version_file == "json":
            self.files[f"{path}\\version.json"] = json.dumps(
                {"cuda": {"name": "CUDA SDK", "version": full}})
        elif version_file == "txt":
            self.files[f"{path}\\version.txt"] = f"CUDA Version {full}\n"
        if env:
            self.env["CUDA_PATH"] = path
            self.env[f"CUDA_PATH_V{version.replace('.', '_')}"] = path
        if registry:
            self.registry[f"{CUDA_REG}\\v{version}"] = {"InstallDir": ["REG_SZ", path],
                                                        "64BitInstalled": ["REG_DWORD", 1]}
        return path

    def linux_toolkit(self, version: str, full: Optional[str] = None, *,
                      root: Optional[str] = None) -> str:
        path = root or f"/usr/local/cuda-{version}"
        full = full or f"{version}.0"
        major = int(version.split(".")[0])
        self.files[f"{path}/version.json"] = json.dumps({"cuda": {"version": full}})
        self.files[f"{path}/bin/nvcc"] = None
        self.files[f"{path}/lib64/libcudart.so.{full}"] = None
        self.files[f"{path}/lib64/libcudart.so.{major}" + (".0" if major == 11 else "")] = None
        return path

    # -- cuDNN -----------------------------------------------------------------------------
    def cudnn_into(self, root: str, version: str, *, only: Optional[list[str]] = None,
                   header: bool = True, lib_dir: Optional[str] = None,
                   include_dir: Optional[str] = None) -> None:
        """cuDNN files copied into ``root`` (its bin/lib64 and include), all of them unless
        ``only`` names the library files present."""
        major = int(version.split(".")[0])
        if self.windows:
            names = only if only is not None else list(WINDOWS_FILES[major])
            lib_dir = lib_dir or root + "\\bin"
            for name in names:
                self.files[f"{lib_dir}\\{name}"] = None
            if header:
                inc = include_dir or root + "\\include"
                self.files[f"{inc}\\cudnn_version.h"] = cudnn_header(version)
                self.files[f"{inc}\\cudnn.h"] = "#include \"cudnn_version.h\"\n"
        else:
            lib_dir = lib_dir or root + "/lib64"
            if only is not None:
                names = only
            else:
                names = []
                for soname in LINUX_FILES[major]:
                    names.extend([soname, f"{soname}.{version.split('.', 1)[1]}"])
            for name in names:
                self.files[f"{lib_dir}/{name}"] = None
            if header:
                inc = include_dir or root + "/include"
                self.files[f"{inc}/cudnn_version.h"] = cudnn_header(version)

    # -- environment -----------------------------------------------------------------------
    def path(self, *entries: str) -> None:
        """The process's PATH (Windows: after the system folders)."""
        if self.windows:
            self.env["Path"] = ";".join(WIN_BASE_PATH + list(entries))
        else:
            self.env["PATH"] = ":".join(list(entries) + ["/usr/local/bin", "/usr/bin", "/bin"])

    def registry_path(self, *entries: str, user: tuple[str, ...] = ()) -> None:
        """The saved PATH a new terminal gets (system entries, then the user's)."""
        system = ["%SystemRoot%\\system32", "%SystemRoot%", "%SystemRoot%\\System32\\Wbem"]
        values = self.registry.setdefault(SYSTEM_ENV, {})
        values["Path"] = ["REG_EXPAND_SZ", ";".join(system + list(entries))]
        if "CUDA_PATH" in self.env:
            values["CUDA_PATH"] = ["REG_SZ", self.env["CUDA_PATH"]]
        self.registry.setdefault(USER_ENV, {})["Path"] = ["REG_EXPAND_SZ", ";".join(user)]

    def python(self, executable: str, prefix: str, *, version: str = "3.9.13",
               packages: Optional[dict[str, Optional[str]]] = None, conda: bool = False,
               tf: Optional[str] = None) -> str:
        packages = dict(packages or {})
        if tf:
            packages.setdefault("tensorflow", tf)
        probe = {
            "probe": "gpu-wizard/env-probe@1",
            "python": {"version": version, "bits": 64, "executable": executable,
                       "prefix": prefix, "conda": conda, "venv": not conda},
            "packages": packages,
            "tensorflow": {"imported": True, "version": tf, "gpus": []} if tf else None,
        }
        self.files[executable] = None
        if conda:
            self.files[self.join(prefix, "conda-meta", "history")] = ""
        self.pythons.append({"executable": executable, "probe": probe})
        return executable

    def profile(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "format": "gpu-wizard/profile@1",
            "name": "inline",
            "platform": {"system": self.system, "wsl": self.wsl},
            "env": self.env,
            "files": self.files,
            "commands": self.commands,
            "pythons": self.pythons,
        }
        if self.registry:
            data["registry"] = self.registry
        return data

    def host(self) -> ReplayHost:
        return ReplayHost(self.profile())


def windows_tf210() -> Target:
    return knowledge.choose_target("windows")


def context(machine: Machine, target: Target, python: Optional[str] = None) -> CheckContext:
    host = machine.host()
    probe = host.probe_python(python) if python else None
    return CheckContext(host=host, target=target, python=python, probe=probe)


def run(machine: Machine, target: Target, python: Optional[str] = None
        ) -> tuple[LayerResult, LayerResult]:
    """The cuda and cudnn results for ``machine`` (cudnn after cuda, as the chain runs them)."""
    ctx = context(machine, target, python)
    cuda_result = cuda.check(ctx)
    ctx.results["cuda"] = cuda_result
    return cuda_result, cudnn.check(ctx)


def codes(result: LayerResult) -> list[str]:
    return [f.code for f in result.findings]


def finding(result: LayerResult, code: str):  # noqa: ANN201 - a Finding
    matches = [f for f in result.findings if f.code == code]
    assert matches, f"no {code} in {[(f.code, f.severity) for f in result.findings]}"
    return matches[0]
