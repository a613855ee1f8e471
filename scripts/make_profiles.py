"""Write the machine-profile library in tests/profiles/*.json (DESIGN section 3).

Each profile is a realistic machine: real file names, PATH strings, registry keys, NVML answers,
PCI entries and recorded environment-probe outputs (DESIGN section 4), with logs taken from the
labelled samples in shared/data/error-samples.jsonl. An extra top-level ``expect`` key holds what
the check must conclude; ``tests/core/test_profiles.py`` replays every profile and compares.

``expect`` keys:
  blocking_layer   the lowest failing layer, or null
  ready            whether TF ran matmul and conv on the GPU (from the probe)
  codes            codes that must appear in the report
  absent           codes that must not appear (optional)
  one_of           lists of codes of which at least one must appear (optional; where DESIGN's
                   definitions allow two readings)
  statuses         {layer: status} where certain (optional)
  later_codes      codes of layers that have not landed yet (the tensorflow layer); the test
                   checks them only once that layer is implemented

Run:  python scripts/make_profiles.py            (writes tests/profiles/*.json)
      python scripts/make_profiles.py --check    (exit 1 when the files are out of date)
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import uuid
from pathlib import Path
from typing import Any, Optional

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "profiles"
FORMAT = "gpu-wizard/profile@1"

GIB = 1 << 30
GPU_DEV = "/job:localhost/replica:0/task:0/device:GPU:0"
CPU_DEV = "/job:localhost/replica:0/task:0/device:CPU:0"

# ---------------------------------------------------------------------------------------------
# GPUs: (nvml name, pci device id, compute capability, memory bytes, pci.ids name)
# ---------------------------------------------------------------------------------------------
GPUS = {
    "3070ti_laptop": ("NVIDIA GeForce RTX 3070 Ti Laptop GPU", "24a0", [8, 6], 8 * GIB,
                      "NVIDIA GA104M [GeForce RTX 3070 Ti Mobile / Max-Q]"),
    "2060_laptop": ("NVIDIA GeForce RTX 2060", "1f15", [7, 5], 6 * GIB,
                    "NVIDIA TU106M [GeForce RTX 2060 Mobile]"),
    "1660ti": ("NVIDIA GeForce GTX 1660 Ti", "2182", [7, 5], 6 * GIB,
               "NVIDIA TU116 [GeForce GTX 1660 Ti]"),
    "gtx680": ("NVIDIA GeForce GTX 680", "1180", [3, 0], 2 * GIB,
               "NVIDIA GK104 [GeForce GTX 680]"),
    "3060": ("NVIDIA GeForce RTX 3060", "2504", [8, 6], 12 * GIB,
             "NVIDIA GA106 [GeForce RTX 3060 Lite Hash Rate]"),
    "1080ti": ("NVIDIA GeForce GTX 1080 Ti", "1b06", [6, 1], 11 * GIB,
               "NVIDIA GP102 [GeForce GTX 1080 Ti]"),
    "4090": ("NVIDIA GeForce RTX 4090", "2684", [8, 9], 25757220864,
             "NVIDIA AD102 [GeForce RTX 4090]"),
    "4070_laptop": ("NVIDIA GeForce RTX 4070 Laptop GPU", "2820", [8, 9], 8 * GIB,
                    "NVIDIA AD106M [GeForce RTX 4070 Max-Q / Mobile]"),
    "t4": ("Tesla T4", "1eb8", [7, 5], 16 * GIB, "NVIDIA TU104GL [Tesla T4]"),
    "3080": ("NVIDIA GeForce RTX 3080", "2206", [8, 6], 10 * GIB,
             "NVIDIA GA102 [GeForce RTX 3080]"),
}


def gpu_uuid(seed: str) -> str:
    return "GPU-" + str(uuid.uuid5(uuid.NAMESPACE_DNS, "gpu-wizard/" + seed))


def nvml_gpu(key: str, index: int = 0, bus: str = "00000000:01:00.0", seed: str = "") -> dict:
    name, device, cc, memory, _ = GPUS[key]
    return {
        "index": index,
        "name": name,
        "uuid": gpu_uuid(seed or key + str(index)),
        "pci_bus_id": bus,
        "pci_device_id": device,
        "compute_capability": cc,
        "memory_total_bytes": memory,
        "is_laptop": "Laptop" in name,
    }


def nvml_ok(driver: str, cuda: int, gpus: list[dict], windows: bool) -> dict:
    major = cuda // 1000
    return {
        "error": None,
        "driver_version": driver,
        "cuda_driver_version": cuda,
        "nvml_version": f"{major}.{driver}",
        "gpus": gpus,
    }


def nvml_error(kind: str, detail: str) -> dict:
    return {"error": kind, "detail": detail}


def pci_nvidia_windows(key: str, problem: Optional[str] = None) -> dict:
    name, device, *_ = GPUS[key]
    if problem:
        return {"vendor_id": "10de", "device_id": device, "name": f"NVIDIA device 10de:{device}",
                "driver": None, "problem": problem, "label": "3D Video Controller"}
    return {"vendor_id": "10de", "device_id": device, "name": name, "driver": "nvlddmkm",
            "problem": None, "label": name}


def pci_nvidia_linux(key: str, driver: Optional[str] = "nvidia", slot: str = "0000:01:00.0",
                     pci_class: str = "030000") -> dict:
    _, device, _, _, ids_name = GPUS[key]
    return {"vendor_id": "10de", "device_id": device, "name": ids_name, "driver": driver,
            "problem": None, "slot": slot, "class": pci_class}


INTEL_XE_WIN = {"vendor_id": "8086", "device_id": "9a49", "name": "Intel(R) Iris(R) Xe Graphics",
                "driver": "igfxn", "problem": None, "label": "Intel(R) Iris(R) Xe Graphics"}
INTEL_UHD_WIN = {"vendor_id": "8086", "device_id": "9bc4", "name": "Intel(R) UHD Graphics",
                 "driver": "igfxn", "problem": None, "label": "Intel(R) UHD Graphics"}
INTEL_UHD630_LINUX = {"vendor_id": "8086", "device_id": "3e92",
                      "name": "Intel CoffeeLake-S GT2 [UHD Graphics 630]", "driver": "i915",
                      "problem": None, "slot": "0000:00:02.0", "class": "030000"}
WSL_RENDER = {"vendor_id": "1414", "device_id": "008e",
              "name": "Microsoft Basic Render Driver", "driver": None, "problem": None,
              "slot": "5582:00:00.0", "class": "030200"}


# ---------------------------------------------------------------------------------------------
# nvidia-smi output
# ---------------------------------------------------------------------------------------------
def smi_table(driver: str, cuda: str, gpus: list[dict], windows: bool,
              processes: list[tuple[int, str, str]] = (), date: str = "Tue Mar 12 21:14:05 2024",
              smi_version: Optional[str] = None) -> str:
    """nvidia-smi's default table in the R525+ layout."""
    smi_version = smi_version or driver
    mode = "WDDM" if windows else "Off"
    lines = [
        date,
        "+---------------------------------------------------------------------------------------+",
        f"| NVIDIA-SMI {smi_version:<22}Driver Version: {driver:<15}CUDA Version: {cuda:<9}"
        .ljust(88) + "|",
        "|-----------------------------------------+----------------------+----------------------+",
        f"| GPU  Name{'TCC/WDDM' if windows else 'Persistence-M':>30} |"
        " Bus-Id        Disp.A | Volatile Uncorr. ECC |",
        "| Fan  Temp   Perf          Pwr:Usage/Cap |         Memory-Usage | GPU-Util  Compute M. |",
        "|                                         |                      |               MIG M. |",
        "|=========================================+======================+======================|",
    ]
    for gpu in gpus:
        short = gpu["name"] if len(gpu["name"]) <= 28 else gpu["name"][:24] + " ..."
        mib = gpu["memory_total_bytes"] // (1 << 20)
        lines += [
            f"| {gpu['index']:>3}  {short:<28}{mode:>6} | {gpu['pci_bus_id']}  On |"
            "                  N/A |",
            f"| N/A   45C    P8               9W /  80W |    512MiB / {mib:>5}MiB |"
            "      1%      Default |",
            "|                                         |                      |"
            "                  N/A |",
            "+-----------------------------------------+----------------------+"
            "----------------------+",
        ]
    lines += [
        "",
        "+---------------------------------------------------------------------------------------+",
        "| Processes:                                                                            |",
        "|  GPU   GI   CI        PID   Type   Process name                            GPU Memory |",
        "|        ID   ID                                                             Usage      |",
        "|=======================================================================================|",
    ]
    if not processes:
        lines.append("|  No running processes found" + " " * 58 + "|")
    for pid, kind, name in processes:
        lines.append(f"|    0   N/A  N/A     {pid:>5}    {kind:<4}  {name:<38}    N/A      |")
    lines.append(
        "+---------------------------------------------------------------------------------------+")
    return "\n".join(lines) + "\n"


SMI_NO_DRIVER = ("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. "
                 "Make sure that the latest NVIDIA driver is installed and running.\n\n")


def cmd(argv: list[str], stdout: str = "", stderr: str = "", rc: int = 0,
        timed_out: bool = False) -> dict:
    entry: dict[str, Any] = {"argv": argv, "returncode": None if timed_out else rc,
                             "stdout": stdout, "stderr": stderr}
    if timed_out:
        entry["timed_out"] = True
    return entry


SMI_FIELDS = "index,name,uuid,pci.bus_id,compute_cap,memory.total,driver_version"
SMI_FIELDS_OLD = "index,name,uuid,pci.bus_id,memory.total,driver_version"
SMI_FORMAT = "--format=csv,noheader,nounits"
SMI_ARGVS = (["nvidia-smi"], ["nvidia-smi", "-L"],
             ["nvidia-smi", f"--query-gpu={SMI_FIELDS}", SMI_FORMAT],
             ["nvidia-smi", f"--query-gpu={SMI_FIELDS_OLD}", SMI_FORMAT])


def smi_commands(driver: str, cuda: str, gpus: list[dict], windows: bool, **kw: Any) -> list:
    """nvidia-smi as the wizard calls it: the banner, -L, and the CSV queries (drivers before
    R510 reject the compute_cap field)."""
    table = smi_table(driver, cuda, gpus, windows, **kw)
    listing = "".join(f"GPU {g['index']}: {g['name']} (UUID: {g['uuid']})\n" for g in gpus)

    def row(g: dict, with_cc: bool) -> str:
        cc = f"{g['compute_capability'][0]}.{g['compute_capability'][1]}, " if with_cc else ""
        return (f"{g['index']}, {g['name']}, {g['uuid']}, {g['pci_bus_id']}, {cc}"
                f"{g['memory_total_bytes'] // (1 << 20)}, {driver}\n")

    new = "".join(row(g, True) for g in gpus)
    old = "".join(row(g, False) for g in gpus)
    if int(driver.split(".")[0]) >= 510:
        query = cmd(SMI_ARGVS[2], new)
    else:
        query = cmd(SMI_ARGVS[2], 'Field "compute_cap" is not a valid field to query.\n\n', rc=2)
    return [cmd(SMI_ARGVS[0], table), cmd(SMI_ARGVS[1], listing), query,
            cmd(SMI_ARGVS[3], old)]


def smi_failing(text: str = "", rc: int = 0, timed_out: bool = False) -> list:
    """Every nvidia-smi call failing the same way (NVML error, no driver, or a hang)."""
    return [cmd(argv, text, rc=rc, timed_out=timed_out) for argv in SMI_ARGVS]


def nvcc_cmd(version: str) -> dict:
    built = {
        "11.2": ("2005-2021", "Sun_Feb_14_22:08:44_Pacific_Standard_Time_2021", "V11.2.152",
                 "cuda_11.2.r11.2/compiler.29618528_0"),
        "12.3": ("2005-2023", "Wed_Nov_22_10:30:42_Pacific_Standard_Time_2023", "V12.3.107",
                 "cuda_12.3.r12.3/compiler.33567101_0"),
    }[version]
    return cmd(["nvcc", "--version"],
               "nvcc: NVIDIA (R) Cuda compiler driver\n"
               f"Copyright (c) {built[0]} NVIDIA Corporation\n"
               f"Built on {built[1]}\n"
               f"Cuda compilation tools, release {version}, {built[2]}\n"
               f"Build {built[3]}\n")


# ---------------------------------------------------------------------------------------------
# CUDA Toolkit and cuDNN trees
# ---------------------------------------------------------------------------------------------
def version_json(full: str) -> str:
    components = {
        "11.2.0": {"cuda_cudart": "11.2.72", "cuda_nvcc": "11.2.67", "cuda_nvrtc": "11.2.67",
                   "cuda_cupti": "11.2.67", "libcublas": "11.3.1.68", "libcufft": "10.4.0.72",
                   "libcurand": "10.2.3.68", "libcusolver": "11.0.2.68",
                   "libcusparse": "11.3.1.68", "libnpp": "11.2.1.68",
                   "nsight_compute": "2020.3.0.18"},
        "11.2.2": {"cuda_cudart": "11.2.152", "cuda_nvcc": "11.2.152", "cuda_nvrtc": "11.2.152",
                   "cuda_cupti": "11.2.152", "libcublas": "11.4.1.1043", "libcufft": "10.4.1.152",
                   "libcurand": "10.2.3.152", "libcusolver": "11.1.0.152",
                   "libcusparse": "11.4.1.1152", "libnpp": "11.3.2.152",
                   "nsight_compute": "2020.3.1.4"},
        "12.3.2": {"cuda_cudart": "12.3.101", "cuda_nvcc": "12.3.107", "cuda_nvrtc": "12.3.107",
                   "cuda_cupti": "12.3.101", "libcublas": "12.3.4.1", "libcufft": "11.0.12.1",
                   "libcurand": "10.3.4.107", "libcusolver": "11.5.4.101",
                   "libcusparse": "12.2.0.103", "libnpp": "12.2.3.2",
                   "nsight_compute": "2023.3.1.1"},
    }[full]
    names = {
        "cuda_cudart": "CUDA Runtime (cudart)", "cuda_nvcc": "CUDA NVCC",
        "cuda_nvrtc": "CUDA NVRTC", "cuda_cupti": "CUPTI", "libcublas": "CUDA cuBLAS",
        "libcufft": "CUDA cuFFT", "libcurand": "CUDA cuRAND", "libcusolver": "CUDA cuSOLVER",
        "libcusparse": "CUDA cuSPARSE", "libnpp": "CUDA NPP", "nsight_compute": "Nsight Compute",
    }
    data = {"cuda": {"name": "CUDA SDK", "version": full}}
    for key, version in components.items():
        data[key] = {"name": names[key], "version": version}
    body = json.dumps(data, indent=3).replace('": ', '" : ')
    return body + "\n"


WIN_CUDA_ROOT = "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA"

WIN_CUDA_BIN = {
    "11": ["cudart64_110.dll", "cublas64_11.dll", "cublasLt64_11.dll", "cufft64_10.dll",
           "cufftw64_10.dll", "curand64_10.dll", "cusolver64_11.dll", "cusolverMg64_11.dll",
           "cusparse64_11.dll", "nvrtc64_112_0.dll", "nvrtc-builtins64_112.dll",
           "nvJitLink_112_0.dll", "nppc64_11.dll", "nvcc.exe", "ptxas.exe", "nvdisasm.exe",
           "cuobjdump.exe", "nvprof.exe", "cudafe++.exe", "fatbinary.exe", "bin2c.exe"],
    "12": ["cudart64_12.dll", "cublas64_12.dll", "cublasLt64_12.dll", "cufft64_11.dll",
           "cufftw64_11.dll", "curand64_10.dll", "cusolver64_11.dll", "cusolverMg64_11.dll",
           "cusparse64_12.dll", "nvrtc64_120_0.dll", "nvrtc-builtins64_123.dll",
           "nvJitLink_120_0.dll", "nppc64_12.dll", "nvcc.exe", "ptxas.exe", "nvdisasm.exe",
           "cuobjdump.exe", "cudafe++.exe", "fatbinary.exe", "bin2c.exe"],
}


def win_cuda_tree(version: str, full: str, root: str = WIN_CUDA_ROOT,
                  drop: tuple[str, ...] = ()) -> dict[str, Optional[str]]:
    home = f"{root}\\v{version}"
    files: dict[str, Optional[str]] = {}
    for name in WIN_CUDA_BIN[version.split(".")[0]]:
        if name not in drop:
            files[f"{home}\\bin\\{name}"] = None
    files[f"{home}\\version.json"] = version_json(full)
    for name in ("cuda.h", "cuda_runtime.h", "cuda_runtime_api.h", "cublas_v2.h", "cufft.h"):
        files[f"{home}\\include\\{name}"] = None
    for name in ("cudart.lib", "cudart_static.lib", "cublas.lib", "cuda.lib", "cufft.lib"):
        files[f"{home}\\lib\\x64\\{name}"] = None
    files[f"{home}\\nvvm\\libdevice\\libdevice.10.bc"] = None
    files[f"{home}\\nvvm\\bin\\cicc.exe"] = None
    files[f"{home}\\libnvvp\\nvvp.exe"] = None
    files[f"{home}\\extras\\CUPTI\\lib64\\cupti64_2020.3.1.dll" if version.startswith("11")
          else f"{home}\\extras\\CUPTI\\lib64\\cupti64_2023.3.1.dll"] = None
    files[f"{home}\\EULA.txt"] = None
    return files


def cudnn_version_h(major: int, minor: int, patch: int) -> str:
    if major >= 9:
        formula = "(CUDNN_MAJOR * 10000 + CUDNN_MINOR * 100 + CUDNN_PATCHLEVEL)"
        tail = ("\n/* cannot use constexpr here since this is a C-only file */\n"
                "/* Below is the max SM version this cuDNN library is aware of and supports "
                "natively */\n\n#define CUDNN_MAX_SM_MAJOR_NUMBER 9\n"
                "#define CUDNN_MAX_SM_MINOR_NUMBER 0\n"
                "#define CUDNN_MAX_DEVICE_VERSION (CUDNN_MAX_SM_MAJOR_NUMBER * 100 + "
                "CUDNN_MAX_SM_MINOR_NUMBER * 10)\n")
    else:
        formula = "(CUDNN_MAJOR * 1000 + CUDNN_MINOR * 100 + CUDNN_PATCHLEVEL)"
        tail = ""
    return (
        "/**\n * \\file: The master cuDNN version file.\n */\n\n"
        "#ifndef CUDNN_VERSION_H_\n#define CUDNN_VERSION_H_\n\n"
        f"#define CUDNN_MAJOR {major}\n#define CUDNN_MINOR {minor}\n"
        f"#define CUDNN_PATCHLEVEL {patch}\n\n#define CUDNN_VERSION {formula}\n"
        f"{tail}\n#endif /* CUDNN_VERSION_H */\n"
    )


CUDNN8_SUBLIBS = ["adv_infer", "adv_train", "cnn_infer", "cnn_train", "ops_infer", "ops_train"]


def win_cudnn8_files(home: str, version: tuple[int, int, int], bin_names: Optional[list] = None,
                     headers: bool = True, libs: bool = True) -> dict[str, Optional[str]]:
    """cuDNN 8 copied from the zip's bin/include/lib\\x64 into a CUDA folder."""
    files: dict[str, Optional[str]] = {}
    names = bin_names if bin_names is not None else (
        ["cudnn64_8.dll"] + [f"cudnn_{s}64_8.dll" for s in CUDNN8_SUBLIBS])
    for name in names:
        files[f"{home}\\bin\\{name}"] = None
    if headers:
        for h in ["cudnn.h"] + [f"cudnn_{s}.h" for s in CUDNN8_SUBLIBS] + ["cudnn_backend.h"]:
            files[f"{home}\\include\\{h}"] = None
        files[f"{home}\\include\\cudnn_version.h"] = cudnn_version_h(*version)
    if libs:
        for lib in ["cudnn.lib", "cudnn64_8.lib"] + [f"cudnn_{s}.lib" for s in CUDNN8_SUBLIBS]:
            files[f"{home}\\lib\\x64\\{lib}"] = None
    return files


LINUX_CUDA_LIBS = {
    "11": ["libcudart.so", "libcudart.so.11.0", "libcudart.so.11.2.152", "libcublas.so",
           "libcublas.so.11", "libcublas.so.11.4.1.1043", "libcublasLt.so.11",
           "libcublasLt.so.11.4.1.1043", "libcufft.so.10", "libcufft.so.10.4.1.152",
           "libcurand.so.10", "libcusolver.so.11", "libcusparse.so.11", "libnvrtc.so.11.2",
           "libcupti.so.11.2"],
}


def linux_cuda_tree(version: str, full: str, drop: tuple[str, ...] = (),
                    only_runtime: bool = False) -> dict[str, Optional[str]]:
    home = f"/usr/local/cuda-{version}"
    files: dict[str, Optional[str]] = {}
    libs = LINUX_CUDA_LIBS[version.split(".")[0]]
    if only_runtime:
        libs = [n for n in libs if n.startswith("libcudart")]
    for name in libs:
        if name not in drop:
            files[f"{home}/targets/x86_64-linux/lib/{name}"] = None
            files[f"{home}/lib64/{name}"] = None
    files[f"{home}/version.json"] = version_json(full)
    files[f"{home}/include/cuda_runtime.h"] = None
    if not only_runtime:
        for name in ("nvcc", "ptxas", "cuobjdump", "nvdisasm", "fatbinary", "nvprof"):
            files[f"{home}/bin/{name}"] = None
        files[f"{home}/nvvm/libdevice/libdevice.10.bc"] = None
        files[f"{home}/include/cuda.h"] = None
        files[f"{home}/include/cublas_v2.h"] = None
    return files


def linux_cudnn8_files(home: str, version: tuple[int, int, int]) -> dict[str, Optional[str]]:
    v = ".".join(map(str, version))
    files: dict[str, Optional[str]] = {f"{home}/include/cudnn_version.h": cudnn_version_h(*version),
                                       f"{home}/include/cudnn.h": None}
    for s in [""] + [f"_{x}" for x in CUDNN8_SUBLIBS]:
        for suffix in ("", ".8", f".{v}"):
            files[f"{home}/lib64/libcudnn{s}.so{suffix}"] = None
        files[f"{home}/include/cudnn{s}.h" if s else f"{home}/include/cudnn.h"] = None
    return files


# ---------------------------------------------------------------------------------------------
# Windows building blocks
# ---------------------------------------------------------------------------------------------
WIN_SYSTEM_PATH = [
    "C:\\Windows\\system32", "C:\\Windows", "C:\\Windows\\System32\\Wbem",
    "C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\", "C:\\Windows\\System32\\OpenSSH\\",
]
NV_PATH = ["C:\\Program Files (x86)\\NVIDIA Corporation\\PhysX\\Common",
           "C:\\Program Files\\NVIDIA Corporation\\NVIDIA NvDLISR"]
WIN_SYSTEM_PATH_REG = [
    "%SystemRoot%\\system32", "%SystemRoot%", "%SystemRoot%\\System32\\Wbem",
    "%SYSTEMROOT%\\System32\\WindowsPowerShell\\v1.0\\", "%SYSTEMROOT%\\System32\\OpenSSH\\",
]
SESSION_ENV = "HKLM\\SYSTEM\\CurrentControlSet\\Control\\Session Manager\\Environment"
DISPLAY_CLASS = ("HKLM\\SYSTEM\\CurrentControlSet\\Control\\Class\\"
                 "{4d36e968-e325-11ce-bfc1-08002be10318}")


def wddm_version(driver: str) -> str:
    """516.94 -> 31.0.15.1694 (the form Windows shows)."""
    major, minor = driver.split(".")
    digits = (major + minor)[-5:]
    prefix = "31.0.1" if int(major) < 530 else "32.0.1"
    return f"{prefix}{digits[0]}.{digits[1:]}"


def win_cuda_path_entries(version: str, root: str = WIN_CUDA_ROOT) -> list[str]:
    return [f"{root}\\v{version}\\bin", f"{root}\\v{version}\\libnvvp"]


class Win:
    """Assemble a native Windows profile."""

    def __init__(self, name: str, description: str, release: str = "10.0.22631",
                 user: str = "me", computer: str = "LAPTOP-7QK2M4R1") -> None:
        self.name = name
        self.description = description
        self.release = release
        self.user = user
        self.home = f"C:\\Users\\{user}"
        self.files: dict[str, Optional[str]] = {}
        self.env: dict[str, str] = {
            "ALLUSERSPROFILE": "C:\\ProgramData",
            "APPDATA": f"{self.home}\\AppData\\Roaming",
            "COMPUTERNAME": computer,
            "ComSpec": "C:\\Windows\\system32\\cmd.exe",
            "HOMEDRIVE": "C:",
            "HOMEPATH": f"\\Users\\{user}",
            "LOCALAPPDATA": f"{self.home}\\AppData\\Local",
            "NUMBER_OF_PROCESSORS": "16",
            "OS": "Windows_NT",
            "PATHEXT": ".COM;.EXE;.BAT;.CMD;.VBS;.VBE;.JS;.JSE;.WSF;.WSH;.MSC;.PY;.PYW",
            "PROCESSOR_ARCHITECTURE": "AMD64",
            "ProgramData": "C:\\ProgramData",
            "ProgramFiles": "C:\\Program Files",
            "ProgramFiles(x86)": "C:\\Program Files (x86)",
            "SystemDrive": "C:",
            "SystemRoot": "C:\\Windows",
            "TEMP": f"{self.home}\\AppData\\Local\\Temp",
            "TMP": f"{self.home}\\AppData\\Local\\Temp",
            "USERNAME": user,
            "USERPROFILE": self.home,
            "windir": "C:\\Windows",
        }
        self.system_path: list[str] = list(WIN_SYSTEM_PATH_REG)
        self.user_path: list[str] = ["%USERPROFILE%\\AppData\\Local\\Microsoft\\WindowsApps"]
        self.session_extra: dict[str, list] = {}
        self.registry: dict[str, dict[str, list]] = {}
        self.commands: list[dict] = []
        self.nvml: dict = nvml_error("library_not_found", "NVML Shared Library Not Found")
        self.pci: list[dict] = []
        self.pythons: list[dict] = []
        self.denied: list[str] = []
        self.expect: dict = {}
        for name in ("kernel32.dll", "cmd.exe", "msvcp140.dll", "vcruntime140.dll",
                     "vcruntime140_1.dll", "msvcp140_1.dll"):
            self.files[f"C:\\Windows\\System32\\{name}"] = None

    # -- driver --------------------------------------------------------------------------------
    def driver(self, version: str, cuda: int, gpu_keys: list[str], laptop_igpu: bool = True,
               processes: list[tuple[int, str, str]] = ()) -> list[dict]:
        gpus = [nvml_gpu(k, i, seed=self.name + k) for i, k in enumerate(gpu_keys)]
        self.nvml = nvml_ok(version, cuda, gpus, windows=True)
        self.pci = ([INTEL_XE_WIN] if laptop_igpu else []) + [pci_nvidia_windows(k)
                                                              for k in gpu_keys]
        store = ("C:\\Windows\\System32\\DriverStore\\FileRepository\\"
                 "nvmdi.inf_amd64_" + uuid.uuid5(uuid.NAMESPACE_DNS, version).hex[:16])
        for dll in ("nvcuda.dll", "nvml.dll", "nvapi64.dll", "nvidia-smi.exe", "nvcuvid.dll",
                    "nvEncodeAPI64.dll"):
            self.files[f"C:\\Windows\\System32\\{dll}"] = None
        for dll in ("nvcuda64.dll", "nvml.dll", "nvidia-smi.exe", "nvlddmkm.sys",
                    "nvapi64.dll"):
            self.files[f"{store}\\{dll}"] = None
        self.files["C:\\Program Files\\NVIDIA Corporation\\NVSMI\\nvml.dll"] = None
        for i, key in enumerate(gpu_keys):
            name, device, *_ = GPUS[key]
            self.registry[f"{DISPLAY_CLASS}\\{i + 1:04d}"] = {
                "DriverDesc": ["REG_SZ", name],
                "DriverVersion": ["REG_SZ", wddm_version(version)],
                "ProviderName": ["REG_SZ", "NVIDIA"],
                "MatchingDeviceId": ["REG_SZ", f"pci\\ven_10de&dev_{device}"],
                "HardwareInformation.qwMemorySize": ["REG_QWORD", GPUS[key][3]],
            }
        self.registry[f"{DISPLAY_CLASS}\\0000"] = {
            "DriverDesc": ["REG_SZ", (INTEL_XE_WIN if laptop_igpu else INTEL_UHD_WIN)["name"]],
            "DriverVersion": ["REG_SZ", "31.0.101.4502"],
            "ProviderName": ["REG_SZ", "Intel Corporation"],
        }
        self.system_path += [p.replace("C:\\Program Files (x86)", "%ProgramFiles(x86)%")
                             for p in NV_PATH]
        cuda_text = f"{cuda // 1000}.{(cuda % 1000) // 10}"
        self.commands += smi_commands(version, cuda_text, gpus, True, processes=processes)
        return gpus

    # -- CUDA ----------------------------------------------------------------------------------
    def cuda(self, version: str, full: str, on_path: bool = True, set_env: bool = True,
             root: str = WIN_CUDA_ROOT, drop: tuple[str, ...] = ()) -> str:
        home = f"{root}\\v{version}"
        self.files.update(win_cuda_tree(version, full, root, drop))
        tag = version.replace(".", "_")
        if set_env:
            self.session_extra["CUDA_PATH"] = ["REG_SZ", home]
            self.session_extra[f"CUDA_PATH_V{tag}"] = ["REG_SZ", home]
            self.session_extra["NVTOOLSEXT_PATH"] = [
                "REG_SZ", "C:\\Program Files\\NVIDIA Corporation\\NvToolsExt\\"]
            self.files["C:\\Program Files\\NVIDIA Corporation\\NvToolsExt\\bin\\x64\\"
                       "nvToolsExt64_1.dll"] = None
        if on_path:
            self.system_path = win_cuda_path_entries(version, root) + self.system_path
        key = f"HKLM\\SOFTWARE\\NVIDIA Corporation\\GPU Computing Toolkit\\CUDA\\v{version}"
        self.registry[key] = {"InstallDir": ["REG_SZ", home], "64BitInstalled": ["REG_DWORD", 1]}
        parent = "HKLM\\SOFTWARE\\NVIDIA Corporation\\GPU Computing Toolkit\\CUDA"
        self.registry.setdefault(parent, {"FirstVersionInstalled": ["REG_SZ", f"v{version}"]})
        if on_path:
            self.commands.append(nvcc_cmd(version))
        return home

    # -- Python --------------------------------------------------------------------------------
    def conda_env(self, env: str, probe: dict, base: str = "") -> str:
        base = base or f"{self.home}\\miniconda3"
        prefix = f"{base}\\envs\\{env}"
        exe = f"{prefix}\\python.exe"
        self.files[exe] = None
        self.files[f"{prefix}\\conda-meta\\history"] = (
            f"==> 2024-03-12 20:41:07 <==\n# cmd: {base}\\Scripts\\conda-script.py create -n {env}"
            f" python={probe['python']['version'][:4].rstrip('.')}\n")
        self.files[f"{base}\\python.exe"] = None
        self.files[f"{base}\\Scripts\\conda.exe"] = None
        self.files[f"{base}\\condabin\\conda.bat"] = None
        self.user_path += [base.replace(self.home, "%USERPROFILE%"),
                           f"{base}\\Scripts".replace(self.home, "%USERPROFILE%"),
                           f"{base}\\Library\\bin".replace(self.home, "%USERPROFILE%")]
        self.env["CONDA_PREFIX"] = prefix
        self.env["CONDA_DEFAULT_ENV"] = env
        self.env["CONDA_EXE"] = f"{base}\\Scripts\\conda.exe"
        self.env["CONDA_PYTHON_EXE"] = f"{base}\\python.exe"
        self.env["CONDA_SHLVL"] = "2"
        self.env["CONDA_PROMPT_MODIFIER"] = f"({env}) "
        self._active_prefix = [prefix, f"{prefix}\\Library\\mingw-w64\\bin",
                               f"{prefix}\\Library\\usr\\bin", f"{prefix}\\Library\\bin",
                               f"{prefix}\\Scripts", f"{prefix}\\bin"]
        pyver = probe["python"]["version"]
        self.registry[f"HKCU\\Software\\Python\\ContinuumAnalytics\\Miniconda3-{pyver[:4]}-64"
                      "\\InstallPath"] = {"": ["REG_SZ", base],
                                          "ExecutablePath": ["REG_SZ", f"{base}\\python.exe"]}
        probe["python"].update({"executable": exe, "prefix": prefix, "conda": True, "venv": False})
        site = f"{prefix}\\Lib\\site-packages"
        for pkg, version in probe["packages"].items():
            if version:
                dist = pkg.replace("-", "_")
                self.files[f"{site}\\{dist}-{version}.dist-info\\METADATA"] = None
        if probe["packages"].get("tensorflow"):
            self.files[f"{site}\\tensorflow\\__init__.py"] = None
            self.files[f"{site}\\tensorflow\\python\\_pywrap_tensorflow_internal.pyd"] = None
        self.pythons.append({"executable": exe, "probe": probe})
        return prefix

    def build(self) -> dict:
        env = dict(self.env)
        user_expanded = [p.replace("%USERPROFILE%", self.home) for p in self.user_path]
        system_expanded = [p.replace("%SystemRoot%", "C:\\Windows")
                           .replace("%SYSTEMROOT%", "C:\\Windows")
                           .replace("%ProgramFiles(x86)%", "C:\\Program Files (x86)")
                           for p in self.system_path]
        active = getattr(self, "_active_prefix", [])
        env["Path"] = ";".join(active + system_expanded + user_expanded) + ";"
        for key, (_, value) in self.session_extra.items():
            env[key] = value
        session = {
            "ComSpec": ["REG_EXPAND_SZ", "%SystemRoot%\\system32\\cmd.exe"],
            "OS": ["REG_SZ", "Windows_NT"],
            "Path": ["REG_EXPAND_SZ", ";".join(self.system_path) + ";"],
            "PATHEXT": ["REG_SZ", ".COM;.EXE;.BAT;.CMD;.VBS;.VBE;.JS;.JSE;.WSF;.WSH;.MSC"],
            "PROCESSOR_ARCHITECTURE": ["REG_SZ", "AMD64"],
            "NUMBER_OF_PROCESSORS": ["REG_SZ", "16"],
            "TEMP": ["REG_EXPAND_SZ", "%SystemRoot%\\TEMP"],
            "TMP": ["REG_EXPAND_SZ", "%SystemRoot%\\TEMP"],
            "windir": ["REG_EXPAND_SZ", "%SystemRoot%"],
            "DriverData": ["REG_SZ", "C:\\Windows\\System32\\Drivers\\DriverData"],
        }
        session.update(self.session_extra)
        registry = {
            SESSION_ENV: session,
            "HKCU\\Environment": {
                "Path": ["REG_EXPAND_SZ", ";".join(self.user_path) + ";"],
                "TEMP": ["REG_EXPAND_SZ", "%USERPROFILE%\\AppData\\Local\\Temp"],
                "TMP": ["REG_EXPAND_SZ", "%USERPROFILE%\\AppData\\Local\\Temp"],
                "OneDrive": ["REG_EXPAND_SZ", f"{self.home}\\OneDrive"],
            },
            "HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion": {
                "ProductName": ["REG_SZ", "Windows 10 Pro"],
                "DisplayVersion": ["REG_SZ", "23H2" if self.release.endswith("22631")
                                   else "22H2"],
                "CurrentBuild": ["REG_SZ", self.release.rsplit(".", 1)[-1]],
                "EditionID": ["REG_SZ", "Professional"],
            },
            "HKLM\\SOFTWARE\\Microsoft\\VisualStudio\\14.0\\VC\\Runtimes\\x64": {
                "Installed": ["REG_DWORD", 1], "Version": ["REG_SZ", "v14.38.33135.00"],
                "Major": ["REG_DWORD", 14], "Minor": ["REG_DWORD", 38],
            },
        }
        registry.update(self.registry)
        profile = {
            "format": FORMAT,
            "name": self.name,
            "description": self.description,
            "platform": {"system": "windows", "release": self.release, "arch": "x86_64",
                         "wsl": None},
            "env": dict(sorted(env.items(), key=lambda kv: kv[0].lower())),
            "registry": dict(sorted(registry.items())),
            "files": dict(sorted(self.files.items(), key=lambda kv: kv[0].lower())),
            "commands": self.commands,
            "nvml": self.nvml,
            "pci": self.pci,
            "pythons": self.pythons,
        }
        if self.denied:
            profile["denied"] = self.denied
        profile["expect"] = self.expect
        return profile


# ---------------------------------------------------------------------------------------------
# Linux / WSL building blocks
# ---------------------------------------------------------------------------------------------
OS_RELEASE_2204 = (
    'PRETTY_NAME="Ubuntu 22.04.4 LTS"\nNAME="Ubuntu"\nVERSION_ID="22.04"\n'
    'VERSION="22.04.4 LTS (Jammy Jellyfish)"\nVERSION_CODENAME=jammy\nID=ubuntu\nID_LIKE=debian\n'
    'HOME_URL="https://www.ubuntu.com/"\nSUPPORT_URL="https://help.ubuntu.com/"\n'
    'BUG_REPORT_URL="https://bugs.launchpad.net/ubuntu/"\nUBUNTU_CODENAME=jammy\n')
OS_RELEASE_2004 = (
    'NAME="Ubuntu"\nVERSION="20.04.6 LTS (Focal Fossa)"\nID=ubuntu\nID_LIKE=debian\n'
    'PRETTY_NAME="Ubuntu 20.04.6 LTS"\nVERSION_ID="20.04"\nHOME_URL="https://www.ubuntu.com/"\n'
    'VERSION_CODENAME=focal\nUBUNTU_CODENAME=focal\n')
OS_RELEASE_2404 = (
    'PRETTY_NAME="Ubuntu 24.04.1 LTS"\nNAME="Ubuntu"\nVERSION_ID="24.04"\n'
    'VERSION="24.04.1 LTS (Noble Numbat)"\nVERSION_CODENAME=noble\nID=ubuntu\nID_LIKE=debian\n'
    'UBUNTU_CODENAME=noble\n')
LINUX_PATH = ("/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/usr/games:"
              "/usr/local/games:/snap/bin")
LD_SO_CONF = {
    "/etc/ld.so.conf": "include /etc/ld.so.conf.d/*.conf\n\n",
    "/etc/ld.so.conf.d/libc.conf": "# libc default configuration\n/usr/local/lib\n",
    "/etc/ld.so.conf.d/x86_64-linux-gnu.conf": ("# Multiarch support\n"
                                                "/usr/local/lib/x86_64-linux-gnu\n"
                                                "/lib/x86_64-linux-gnu\n"
                                                "/usr/lib/x86_64-linux-gnu\n"),
}
MODULE_LINES = {
    "nvidia_uvm": "nvidia_uvm 1794048 2 - Live 0x0000000000000000 (POE)",
    "nvidia_drm": "nvidia_drm 122880 4 - Live 0x0000000000000000 (POE)",
    "nvidia_modeset": "nvidia_modeset 1359872 8 nvidia_drm, Live 0x0000000000000000 (POE)",
    "nvidia": "nvidia 56823808 208 nvidia_uvm,nvidia_modeset, Live 0x0000000000000000 (POE)",
    "nouveau": "nouveau 2367488 3 - Live 0x0000000000000000",
    "i915": "i915 3792896 34 - Live 0x0000000000000000",
    "drm_kms_helper": "drm_kms_helper 311296 2 nvidia_drm,i915, Live 0x0000000000000000",
    "video": "video 73728 2 i915,nouveau, Live 0x0000000000000000",
}


def proc_modules(names: list[str]) -> str:
    base = ["snd_hda_intel 61440 3 - Live 0x0000000000000000",
            "intel_rapl_msr 20480 0 - Live 0x0000000000000000",
            "nls_iso8859_1 12288 1 - Live 0x0000000000000000"]
    return "\n".join([MODULE_LINES[n] for n in names] + base) + "\n"


def nvrm_version(driver: str, gcc: str = "12.3.0 (Ubuntu 12.3.0-1ubuntu1~22.04)") -> str:
    return (f"NVRM version: NVIDIA UNIX x86_64 Kernel Module  {driver}  "
            "Wed Sep 25 01:31:08 UTC 2024\n"
            f"GCC version:  gcc version {gcc} \n")


class Lin:
    """Assemble a Linux (or WSL) profile."""

    def __init__(self, name: str, description: str, release: str = "6.8.0-45-generic",
                 distro: str = "Ubuntu 22.04", os_release: str = OS_RELEASE_2204,
                 wsl: Optional[int] = None, user: str = "me") -> None:
        self.name = name
        self.description = description
        self.platform = {"system": "linux", "release": release, "arch": "x86_64", "wsl": wsl,
                         "distro": distro}
        self.user = user
        self.home = "/root" if user == "root" else f"/home/{user}"
        self.env: dict[str, str] = {
            "HOME": self.home, "USER": user, "LOGNAME": user, "SHELL": "/bin/bash",
            "LANG": "en_US.UTF-8", "PATH": f"{self.home}/.local/bin:{LINUX_PATH}",
            "TERM": "xterm-256color", "PWD": self.home,
        }
        self.files: dict[str, Optional[str]] = {"/etc/os-release": os_release,
                                                "/bin/bash": None, "/usr/bin/python3": None}
        self.files.update(LD_SO_CONF)
        self.files["/proc/version"] = (
            f"Linux version {release} (buildd@lcy02-amd64-078) (x86_64-linux-gnu-gcc-12 "
            "(Ubuntu 12.3.0-1ubuntu1~22.04) 12.3.0, GNU ld (GNU Binutils for Ubuntu) 2.38) "
            "#45~22.04.1-Ubuntu SMP PREEMPT_DYNAMIC Mon Sep 23 16:04:50 UTC 2\n")
        self.commands: list[dict] = []
        self.nvml: dict = nvml_error("library_not_found", "NVML Shared Library Not Found")
        self.pci: list[dict] = []
        self.pythons: list[dict] = []
        self.denied: list[str] = []
        self.expect: dict = {}
        self.modules: list[str] = []

    def driver(self, version: str, cuda: int, gpu_keys: list[str], uvm: bool = True,
               igpu: bool = False) -> list[dict]:
        gpus = [nvml_gpu(k, i, bus=f"00000000:{i + 1:02X}:00.0", seed=self.name + k)
                for i, k in enumerate(gpu_keys)]
        self.nvml = nvml_ok(version, cuda, gpus, windows=False)
        self.pci = ([INTEL_UHD630_LINUX] if igpu else []) + [
            pci_nvidia_linux(k, slot=f"0000:{i + 1:02x}:00.0") for i, k in enumerate(gpu_keys)]
        self.modules = ["nvidia_uvm"] if uvm else []
        self.modules += ["nvidia_drm", "nvidia_modeset", "nvidia"]
        if igpu:
            self.modules += ["i915", "drm_kms_helper", "video"]
        self.files["/proc/driver/nvidia/version"] = nvrm_version(version)
        self.files["/sys/module/nvidia/version"] = version + "\n"
        for i, gpu in enumerate(gpus):
            bus = gpu["pci_bus_id"][4:].lower()
            self.files[f"/proc/driver/nvidia/gpus/{bus}/information"] = (
                f"Model: \t\t {gpu['name']}\nIRQ:   \t\t {150 + i}\nGPU UUID: \t {gpu['uuid']}\n"
                "Video BIOS: \t 94.06.2f.00.9a\nBus Type: \t PCIe\nDMA Size: \t 47 bits\n"
                f"DMA Mask: \t 0x7fffffffffff\nBus Location: \t {bus}\nDevice Minor: \t {i}\n"
                "GPU Excluded:\t No\n")
            self.files[f"/dev/nvidia{i}"] = None
        self.files["/dev/nvidiactl"] = None
        self.files["/dev/nvidia-modeset"] = None
        if uvm:
            self.files["/dev/nvidia-uvm"] = None
            self.files["/dev/nvidia-uvm-tools"] = None
            self.files["/sys/module/nvidia_uvm/refcnt"] = "2\n"
        lib = "/usr/lib/x86_64-linux-gnu"
        for name in ("libcuda.so", "libcuda.so.1", f"libcuda.so.{version}",
                     "libnvidia-ml.so.1", f"libnvidia-ml.so.{version}",
                     "libnvidia-ptxjitcompiler.so.1", f"libnvidia-ptxjitcompiler.so.{version}"):
            self.files[f"{lib}/{name}"] = None
        self.files["/usr/bin/nvidia-smi"] = None
        self.files["/usr/bin/nvidia-modprobe"] = None
        cuda_text = f"{cuda // 1000}.{(cuda % 1000) // 10}"
        self.commands += smi_commands(version, cuda_text, gpus, False,
                                      date="Fri Nov 29 10:02:11 2024")
        return gpus

    def venv(self, path: str, probe: dict, site_files: Optional[dict] = None) -> str:
        exe = f"{path}/bin/python"
        pyver = probe["python"]["version"]
        short = ".".join(pyver.split(".")[:2])
        self.files[exe] = None
        self.files[f"{path}/bin/python{short}"] = None
        self.files[f"{path}/bin/pip"] = None
        self.files[f"{path}/pyvenv.cfg"] = (
            f"home = /usr/bin\ninclude-system-site-packages = false\nversion = {pyver}\n"
            f"executable = /usr/bin/python{short}\ncommand = /usr/bin/python3 -m venv {path}\n")
        site = f"{path}/lib/python{short}/site-packages"
        for pkg, version in probe["packages"].items():
            if version:
                self.files[f"{site}/{pkg.replace('-', '_')}-{version}.dist-info/METADATA"] = None
        if probe["packages"].get("tensorflow"):
            self.files[f"{site}/tensorflow/__init__.py"] = None
            self.files[f"{site}/tensorflow/libtensorflow_framework.so.2"] = None
        for rel, content in (site_files or {}).items():
            self.files[f"{site}/{rel}"] = content
        probe["python"].update({"executable": exe, "prefix": path, "conda": False, "venv": True})
        self.env["VIRTUAL_ENV"] = path
        self.env["PATH"] = f"{path}/bin:" + self.env["PATH"]
        self.pythons.append({"executable": exe, "probe": probe})
        return site

    def build(self) -> dict:
        if self.modules:
            self.files["/proc/modules"] = proc_modules(self.modules)
        profile = {
            "format": FORMAT,
            "name": self.name,
            "description": self.description,
            "platform": self.platform,
            "env": dict(sorted(self.env.items())),
            "files": dict(sorted(self.files.items())),
            "commands": self.commands,
            "nvml": self.nvml,
            "pci": self.pci,
            "pythons": self.pythons,
        }
        if self.denied:
            profile["denied"] = self.denied
        profile["expect"] = self.expect
        return profile


# pip CUDA wheels of tensorflow[and-cuda] 2.21 (nvidia-*-cu12 pins >= 12.5 / cuDNN >= 9.3)
AND_CUDA_221 = {
    "nvidia-cublas-cu12": "12.5.3.2", "nvidia-cuda-cupti-cu12": "12.5.82",
    "nvidia-cuda-nvcc-cu12": "12.5.82", "nvidia-cuda-nvrtc-cu12": "12.5.82",
    "nvidia-cuda-runtime-cu12": "12.5.82", "nvidia-cudnn-cu12": "9.3.0.75",
    "nvidia-cufft-cu12": "11.2.3.61", "nvidia-curand-cu12": "10.3.6.82",
    "nvidia-cusolver-cu12": "11.6.3.83", "nvidia-cusparse-cu12": "12.5.1.3",
    "nvidia-nccl-cu12": "2.27.7", "nvidia-nvjitlink-cu12": "12.5.82",
}


def and_cuda_site_files() -> dict[str, Optional[str]]:
    files: dict[str, Optional[str]] = {
        "nvidia/cuda_runtime/lib/libcudart.so.12": None,
        "nvidia/cublas/lib/libcublas.so.12": None,
        "nvidia/cublas/lib/libcublasLt.so.12": None,
        "nvidia/cufft/lib/libcufft.so.11": None,
        "nvidia/curand/lib/libcurand.so.10": None,
        "nvidia/cusolver/lib/libcusolver.so.11": None,
        "nvidia/cusparse/lib/libcusparse.so.12": None,
        "nvidia/nccl/lib/libnccl.so.2": None,
        "nvidia/nvjitlink/lib/libnvJitLink.so.12": None,
        "nvidia/cuda_nvcc/bin/ptxas": None,
        "nvidia/cuda_nvcc/nvvm/libdevice/libdevice.10.bc": None,
        "nvidia/cuda_cupti/lib/libcupti.so.12": None,
        "nvidia/cudnn/include/cudnn_version.h": cudnn_version_h(9, 3, 0),
        "nvidia/cudnn/include/cudnn.h": None,
    }
    for lib in ("libcudnn.so.9", "libcudnn_adv.so.9", "libcudnn_cnn.so.9", "libcudnn_ops.so.9",
                "libcudnn_graph.so.9", "libcudnn_heuristic.so.9",
                "libcudnn_engines_precompiled.so.9", "libcudnn_engines_runtime_compiled.so.9"):
        files[f"nvidia/cudnn/lib/{lib}"] = None
    return files


# ---------------------------------------------------------------------------------------------
# Environment probe outputs (DESIGN section 4)
# ---------------------------------------------------------------------------------------------
BASE_PACKAGES = ["tensorflow", "tensorflow-cpu", "tensorflow-intel", "tensorflow-gpu",
                 "keras", "numpy", "torch", "nvidia-cudnn-cu12", "nvidia-cuda-runtime-cu12",
                 "nvidia-cublas-cu12", "nvidia-cudnn-cu11"]

TF210_WIN_BUILD = {"cuda_version": "64_112", "cudnn_version": "64_8",
                   "cuda_compute_capabilities": ["sm_35", "sm_50", "sm_60", "sm_70", "sm_75",
                                                 "compute_80"],
                   "is_cuda_build": True, "is_rocm_build": False, "is_tensorrt_build": False,
                   "msvcp_dll_names": "msvcp140.dll,msvcp140_1.dll",
                   "nvcuda_dll_name": "nvcuda.dll", "cudart_dll_name": "cudart64_110.dll",
                   "cudnn_dll_name": "cudnn64_8.dll"}
TF210_LINUX_BUILD = {"cuda_version": "11.2", "cudnn_version": "8",
                     "cuda_compute_capabilities": ["sm_35", "sm_50", "sm_60", "sm_70", "sm_75",
                                                   "compute_80"],
                     "cpu_compiler": "/dt9/usr/bin/gcc", "is_cuda_build": True,
                     "is_rocm_build": False, "is_tensorrt_build": True}
TF221_LINUX_BUILD = {"cuda_version": "12.5.1", "cudnn_version": "9",
                     "cuda_compute_capabilities": ["sm_60", "sm_70", "sm_80", "sm_89",
                                                   "compute_90"],
                     "cpu_compiler": "/usr/lib/llvm-18/bin/clang", "is_cuda_build": True,
                     "is_rocm_build": False, "is_tensorrt_build": False}
TF215_WIN_BUILD = {"is_cuda_build": False, "is_rocm_build": False, "is_tensorrt_build": False,
                   "msvcp_dll_names": "msvcp140.dll,msvcp140_1.dll"}


def step(ok: bool, device: Optional[str], error: Optional[str] = None) -> dict:
    return {"ok": ok, "device": device, "error": error}


def tf_block(version: str, build_info: dict, gpus: list[dict], matmul: dict, conv: dict,
             built_with_cuda: bool = True) -> dict:
    return {"imported": True, "error": None, "version": version,
            "built_with_cuda": built_with_cuda, "build_info": build_info, "gpus": gpus,
            "matmul": matmul, "conv": conv}


def tf_gpu(key: str) -> dict:
    name, _, cc, *_ = GPUS[key]
    return {"name": "/physical_device:GPU:0", "device_name": name, "compute_capability": cc}


def probe(python: str, packages: dict[str, Optional[str]], tf: Optional[dict], log: str,
          bits: int = 64) -> dict:
    pk = {name: None for name in BASE_PACKAGES}
    pk.update(packages)
    return {
        "probe": "gpu-wizard/env-probe@1",
        "python": {"version": python, "bits": bits, "executable": "", "prefix": "",
                   "conda": False, "venv": False},
        "packages": pk,
        "tensorflow": tf,
        "torch": None,
        "log": log,
    }


def stamp(t: str, level: str, where: str, text: str) -> str:
    return f"2024-03-12 21:14:{t}: {level} {where}] {text}"


CPU_GUARD_210 = stamp(
    "05.123881", "I", "tensorflow/core/platform/cpu_feature_guard.cc:193",
    "This TensorFlow binary is optimized with oneAPI Deep Neural Network Library (oneDNN) to use "
    "the following CPU instructions in performance-critical operations:  AVX AVX2\n"
    "To enable them in other operations, rebuild TensorFlow with the appropriate compiler flags.")


def created_device_210(key: str, mb: int, bus: str = "0000:01:00.0") -> str:
    name, _, cc, *_ = GPUS[key]
    return stamp("06.802339", "I", "tensorflow/core/common_runtime/gpu/gpu_device.cc:1616",
                 f"Created device /job:localhost/replica:0/task:0/device:GPU:0 with {mb} MB "
                 f"memory:  -> device: 0, name: {name}, pci bus id: {bus}, compute capability: "
                 f"{cc[0]}.{cc[1]}")


def dso_fail_210(lib: str, windows: bool = True) -> str:
    if windows:
        return stamp("05.791020", "W",
                     "tensorflow/stream_executor/platform/default/dso_loader.cc:64",
                     f"Could not load dynamic library '{lib}'; dlerror: {lib} not found")
    return stamp("05.791020", "W", "tensorflow/stream_executor/platform/default/dso_loader.cc:64",
                 f"Could not load dynamic library '{lib}'; dlerror: {lib}: cannot open shared "
                 "object file: No such file or directory; LD_LIBRARY_PATH: ")


SKIP_GPU_210 = (stamp("05.791377", "W", "tensorflow/core/common_runtime/gpu/gpu_device.cc:1934",
                      "Cannot dlopen some GPU libraries. Please make sure the missing libraries "
                      "mentioned above are installed properly if you would like to use GPU. "
                      "Follow the guide at https://www.tensorflow.org/install/gpu for how to "
                      "download and setup the required libraries for your platform.")
                + "\nSkipping registering GPU devices...")
LOADED_CUDNN_81 = stamp("07.913554", "I", "tensorflow/stream_executor/cuda/cuda_dnn.cc:384",
                        "Loaded cuDNN version 8100")


def tf221_log(key: str, mb: int, extra: str = "") -> str:
    name, _, cc, *_ = GPUS[key]
    return "\n".join(filter(None, [
        "2024-11-29 10:02:14.612034: I tensorflow/core/util/port.cc:153] oneDNN custom "
        "operations are on. You may see slightly different numerical results due to "
        "floating-point round-off errors from different computation orders. To turn them off, "
        "set the environment variable `TF_ENABLE_ONEDNN_OPTS=0`.",
        "2024-11-29 10:02:14.640117: I tensorflow/core/platform/cpu_feature_guard.cc:210] This "
        "TensorFlow binary is optimized to use available CPU instructions in performance-critical "
        "operations.\nTo enable the following instructions: AVX2 AVX_VNNI FMA, in other "
        "operations, rebuild TensorFlow with the appropriate compiler flags.",
        "WARNING: All log messages before absl::InitializeLog() is called are written to STDERR",
        extra,
        f"I0000 00:00:1732874535.117093   48213 gpu_device.cc:2020] Created device "
        f"/job:localhost/replica:0/task:0/device:GPU:0 with {mb} MB memory:  -> device: 0, "
        f"name: {name}, pci bus id: 0000:01:00.0, compute capability: {cc[0]}.{cc[1]}",
        "I0000 00:00:1732874536.401772   48290 cuda_dnn.cc:529] Loaded cuDNN version 90300",
    ])) + "\n"


def tf221_cpu_log(extra: str) -> str:
    return (
        "2024-11-29 10:02:14.612034: I tensorflow/core/util/port.cc:153] oneDNN custom "
        "operations are on. You may see slightly different numerical results due to "
        "floating-point round-off errors from different computation orders. To turn them off, "
        "set the environment variable `TF_ENABLE_ONEDNN_OPTS=0`.\n"
        "2024-11-29 10:02:14.640117: I tensorflow/core/platform/cpu_feature_guard.cc:210] This "
        "TensorFlow binary is optimized to use available CPU instructions in performance-critical "
        "operations.\nTo enable the following instructions: AVX2 FMA, in other operations, "
        "rebuild TensorFlow with the appropriate compiler flags.\n"
        "WARNING: All log messages before absl::InitializeLog() is called are written to STDERR\n"
        + extra + "\n")


def probe_tf210_win(key: str, log: str, gpu_ok: bool = True, conv_error: Optional[str] = None,
                    python: str = "3.9.18") -> dict:
    packages = {"tensorflow": "2.10.1", "keras": "2.10.0", "numpy": "1.23.5"}
    if gpu_ok:
        conv = step(False, GPU_DEV, conv_error) if conv_error else step(True, GPU_DEV)
        tf = tf_block("2.10.1", TF210_WIN_BUILD, [tf_gpu(key)], step(True, GPU_DEV), conv)
    else:
        tf = tf_block("2.10.1", TF210_WIN_BUILD, [], step(True, CPU_DEV), step(True, CPU_DEV))
    return probe(python, packages, tf, log)


def probe_tf221_linux(key: Optional[str], log: str, gpu_ok: bool = True,
                      python: str = "3.11.10") -> dict:
    packages = {"tensorflow": "2.21.0", "keras": "3.12.0", "numpy": "2.1.3"}
    packages.update(AND_CUDA_221)
    if gpu_ok and key:
        tf = tf_block("2.21.0", TF221_LINUX_BUILD, [tf_gpu(key)], step(True, GPU_DEV),
                      step(True, GPU_DEV))
    else:
        tf = tf_block("2.21.0", TF221_LINUX_BUILD, [], step(True, CPU_DEV), step(True, CPU_DEV))
    return probe(python, packages, tf, log)


# ---------------------------------------------------------------------------------------------
# The machines
# ---------------------------------------------------------------------------------------------
def win_tf210_base(name: str, description: str, key: str = "3070ti_laptop",
                   driver: str = "516.94", cuda_int: int = 11070, **kw: Any) -> Win:
    w = Win(name, description, **kw)
    w.driver(driver, cuda_int, [key], processes=[(5012, "C+G", "C:\\Windows\\explorer.exe")])
    return w


def p_win_healthy() -> dict:
    w = win_tf210_base("win-tf210-healthy", "Windows 11 laptop, RTX 3070 Ti Laptop GPU, driver "
                       "516.94, CUDA 11.2 + cuDNN 8.1.1 copied into the toolkit, TF 2.10 in a "
                       "conda env: the tutorial's working setup.")
    home = w.cuda("11.2", "11.2.2")
    w.files.update(win_cudnn8_files(home, (8, 1, 1)))
    log = "\n".join([CPU_GUARD_210, created_device_210("3070ti_laptop", 5963), LOADED_CUDNN_81])
    w.conda_env("tf", probe_tf210_win("3070ti_laptop", log + "\n"))
    w.expect = {"blocking_layer": None, "ready": True, "codes": [],
                "absent": ["cuda_not_installed", "cuda_not_on_path", "cudnn_missing",
                           "cudnn_partial_install", "zlibwapi_missing", "driver_too_old"],
                "statuses": {"gpu": "ok", "driver": "ok", "cuda": "ok", "cudnn": "ok"}}
    profile = w.build()
    profile["monitor"] = monitor_laptop_throttling()
    return profile


def p_win_cudnn_never_copied() -> dict:
    w = win_tf210_base("win-tf210-cudnn-never-copied",
                       "The tutorial's classic: Windows 11 laptop with RTX 3070 Ti Laptop GPU, "
                       "CUDA 11.2 installed and on PATH, TF 2.10, but the cuDNN zip was never "
                       "copied into the CUDA folder (cudnn64_8.dll not found).")
    w.cuda("11.2", "11.2.2")
    w.files[f"{w.home}\\Downloads\\cudnn-11.2-windows-x64-v8.1.1.33.zip"] = None
    log = "\n".join([CPU_GUARD_210, dso_fail_210("cudnn64_8.dll"), SKIP_GPU_210])
    w.conda_env("tf", probe_tf210_win("3070ti_laptop", log + "\n", gpu_ok=False))
    w.expect = {"blocking_layer": "cudnn", "ready": False, "codes": ["cudnn_missing"],
                "absent": ["cuda_not_installed", "cuda_not_on_path", "no_nvidia_gpu",
                           "driver_too_old"],
                "statuses": {"gpu": "ok", "driver": "ok", "cuda": "ok", "cudnn": "fail"}}
    return w.build()


def p_win_driver_too_old() -> dict:
    w = Win("win-driver-451-too-old",
            "Windows 10 laptop with an RTX 2060, driver 451.48 (CUDA 11.0) from 2020: older than "
            "452.39, the minimum for CUDA 11.x minor-version compatibility, so TF 2.10 with "
            "CUDA 11.2 fails with 'CUDA driver version is insufficient'.",
            release="10.0.19045", computer="DESKTOP-R2060")
    w.driver("451.48", 11000, ["2060_laptop"])
    home = w.cuda("11.2", "11.2.2")
    w.files.update(win_cudnn8_files(home, (8, 1, 1)))
    log = "\n".join([
        CPU_GUARD_210,
        stamp("06.127733", "E", "tensorflow/stream_executor/cuda/cuda_driver.cc:265",
              "failed call to cuInit: CUDA_ERROR_INSUFFICIENT_DRIVER: CUDA driver version is "
              "insufficient for CUDA runtime version"),
        stamp("06.131092", "I", "tensorflow/stream_executor/cuda/cuda_diagnostics.cc:169",
              "retrieving CUDA diagnostic information for host: DESKTOP-R2060"),
        stamp("06.131410", "I", "tensorflow/stream_executor/cuda/cuda_diagnostics.cc:176",
              "hostname: DESKTOP-R2060"),
    ])
    w.conda_env("tf", probe_tf210_win("2060_laptop", log + "\n", gpu_ok=False))
    w.expect = {"blocking_layer": "driver", "ready": False, "codes": ["driver_too_old"],
                "absent": ["no_nvidia_gpu", "gpu_without_driver", "cuda_not_installed",
                           "no_driver_or_nvidia_smi_missing"],
                "statuses": {"gpu": "ok", "driver": "fail"}}
    return w.build()


def p_win_driver_minor_compat() -> dict:
    w = Win("win-driver-456-minor-compat",
            "Windows 10 desktop, GTX 1660 Ti on driver 456.71 (CUDA 11.1): older than CUDA "
            "11.2's own 460.82 but above 452.39, so CUDA 11.x minor-version compatibility lets "
            "TF 2.10 run (only PTX JIT would need the newer driver).",
            release="10.0.19045", computer="DESKTOP-1660TI")
    w.driver("456.71", 11010, ["1660ti"], laptop_igpu=False)
    home = w.cuda("11.2", "11.2.2")
    w.files.update(win_cudnn8_files(home, (8, 1, 1)))
    log = "\n".join([CPU_GUARD_210, created_device_210("1660ti", 3961), LOADED_CUDNN_81])
    w.conda_env("tf", probe_tf210_win("1660ti", log + "\n"))
    w.expect = {"blocking_layer": None, "ready": True, "codes": [],
                "absent": ["no_driver_or_nvidia_smi_missing", "cuda_not_installed"],
                "statuses": {"gpu": "ok", "driver": "warn", "cuda": "ok", "cudnn": "ok"}}
    return w.build()


def p_win_cuda_not_on_path() -> dict:
    w = win_tf210_base("win-cuda112-not-on-path",
                       "Windows 11 laptop, CUDA 11.2 and cuDNN 8.1 installed, CUDA_PATH set, but "
                       "the toolkit's bin folder is missing from Path (a setx truncated it), so "
                       "cudart64_110.dll is not found.")
    home = w.cuda("11.2", "11.2.2", on_path=False)
    w.files.update(win_cudnn8_files(home, (8, 1, 1)))
    log = "\n".join([
        CPU_GUARD_210,
        dso_fail_210("cudart64_110.dll"),
        stamp("05.791044", "I", "tensorflow/stream_executor/cuda/cudart_stub.cc:29",
              "Ignore above cudart dlerror if you do not have a GPU set up on your machine."),
        dso_fail_210("cublas64_11.dll"), dso_fail_210("cublasLt64_11.dll"),
        dso_fail_210("cufft64_10.dll"), dso_fail_210("curand64_10.dll"),
        dso_fail_210("cusolver64_11.dll"), dso_fail_210("cusparse64_11.dll"),
        dso_fail_210("cudnn64_8.dll"), SKIP_GPU_210,
    ])
    w.conda_env("tf", probe_tf210_win("3070ti_laptop", log + "\n", gpu_ok=False))
    w.expect = {"blocking_layer": "cuda", "ready": False, "codes": ["cuda_not_on_path"],
                "absent": ["cuda_not_installed", "cuda_version_mismatch", "no_nvidia_gpu"],
                "statuses": {"gpu": "ok", "driver": "ok", "cuda": "fail"}}
    return w.build()


def p_win_code28() -> dict:
    w = Win("win-code28-no-driver",
            "Fresh Windows 11 install on a laptop with an RTX 3070 Ti Laptop GPU: the card shows "
            "in Device Manager as '3D Video Controller' with code 28 (drivers not installed); no "
            "nvidia-smi, no NVML.")
    w.pci = [INTEL_XE_WIN, pci_nvidia_windows("3070ti_laptop", "code 28: drivers not installed")]
    w.nvml = nvml_error("library_not_found", "NVML Shared Library Not Found")
    w.expect = {"blocking_layer": "driver", "ready": False, "codes": ["gpu_without_driver"],
                "absent": ["no_nvidia_gpu"], "statuses": {"driver": "fail"}}
    return w.build()


def p_win_tf215() -> dict:
    w = win_tf210_base("win-tf215-native",
                       "Windows 11 laptop with a working driver, CUDA 11.2 and cuDNN 8.1, but "
                       "'pip install tensorflow' gave TF 2.15 (tensorflow-intel), which has no "
                       "GPU support on native Windows.")
    home = w.cuda("11.2", "11.2.2")
    w.files.update(win_cudnn8_files(home, (8, 1, 1)))
    log = ("2024-03-12 21:14:05.123881: I tensorflow/core/platform/cpu_feature_guard.cc:182] "
           "This TensorFlow binary is optimized to use available CPU instructions in "
           "performance-critical operations.\nTo enable the following instructions: AVX2 AVX_VNNI"
           " FMA, in other operations, rebuild TensorFlow with the appropriate compiler flags.\n"
           "WARNING:tensorflow:From C:\\Users\\me\\miniconda3\\envs\\tf\\Lib\\site-packages\\keras"
           "\\src\\losses.py:2976: The name tf.losses.sparse_softmax_cross_entropy is deprecated."
           " Please use tf.compat.v1.losses.sparse_softmax_cross_entropy instead.\n")
    pr = probe("3.11.7", {"tensorflow": "2.15.0", "tensorflow-intel": "2.15.0", "keras": "2.15.0",
                          "numpy": "1.26.4"},
               tf_block("2.15.0", TF215_WIN_BUILD, [], step(True, CPU_DEV), step(True, CPU_DEV),
                        built_with_cuda=False), log)
    w.conda_env("tf", pr)
    w.expect = {"blocking_layer": "tensorflow", "ready": False, "codes": [],
                "later_codes": ["windows_native_tf_2_11_plus"],
                "absent": ["no_nvidia_gpu", "driver_too_old"],
                "statuses": {"gpu": "ok", "driver": "ok"}}
    return w.build()


def p_win_cudnn89_no_zlib() -> dict:
    w = win_tf210_base("win-cudnn89-no-zlibwapi",
                       "Windows 11, TF 2.10 with CUDA 11.2, cuDNN 8.9.7 for CUDA 11.x copied into "
                       "the toolkit (newer minor than 8.1, which TF accepts), but zlibwapi.dll "
                       "was never installed: the convolution fails with error code 126.",
                       driver="537.58", cuda_int=12020)
    home = w.cuda("11.2", "11.2.2")
    w.files.update(win_cudnn8_files(home, (8, 9, 7)))
    log = "\n".join([
        CPU_GUARD_210, created_device_210("3070ti_laptop", 5963),
        "Could not locate zlibwapi.dll. Please make sure it is in your library path!",
    ])
    w.conda_env("tf", probe_tf210_win(
        "3070ti_laptop", log + "\n",
        conv_error="probe child exited with code 3221226505 (0xC0000409) during the "
                   "convolution: Could not locate zlibwapi.dll. Please make sure it is in your "
                   "library path!"))
    w.expect = {"blocking_layer": "cudnn", "ready": False, "codes": ["zlibwapi_missing"],
                "absent": ["cudnn_missing", "cudnn_version_mismatch", "cuda_not_on_path"],
                "statuses": {"gpu": "ok", "driver": "ok", "cuda": "ok", "cudnn": "fail"}}
    return w.build()


def p_win_cudnn_partial() -> dict:
    w = win_tf210_base("win-cudnn-partial-copy",
                       "Windows 11, TF 2.10 + CUDA 11.2: only cudnn64_8.dll and the ops "
                       "sub-libraries were copied into CUDA\\v11.2\\bin; cudnn_cnn_infer64_8.dll "
                       "and the other sub-DLLs are missing, so the convolution fails.")
    home = w.cuda("11.2", "11.2.2")
    w.files.update(win_cudnn8_files(home, (8, 1, 1), bin_names=[
        "cudnn64_8.dll", "cudnn_ops_infer64_8.dll", "cudnn_ops_train64_8.dll"]))
    log = "\n".join([
        CPU_GUARD_210, created_device_210("3070ti_laptop", 5963), LOADED_CUDNN_81,
        "Could not load library cudnn_cnn_infer64_8.dll. Error code 126",
        "Please make sure cudnn_cnn_infer64_8.dll is in your library path!",
    ])
    w.conda_env("tf", probe_tf210_win(
        "3070ti_laptop", log + "\n",
        conv_error="probe child exited with code 3221226505 (0xC0000409) during the "
                   "convolution: Could not load library cudnn_cnn_infer64_8.dll. Error code 126"))
    w.expect = {"blocking_layer": "cudnn", "ready": False, "codes": ["cudnn_partial_install"],
                "absent": ["cuda_not_installed", "cuda_not_on_path", "zlibwapi_missing"],
                "statuses": {"gpu": "ok", "driver": "ok", "cuda": "ok", "cudnn": "fail"}}
    return w.build()


def p_win_cudnn_incomplete_conv_on_gpu() -> dict:
    w = win_tf210_base("win-cudnn-incomplete-conv-on-gpu",
                       "Windows 11 laptop, TF 2.10 + CUDA 11.2: cuDNN 8.1.1 was copied without "
                       "the training and adv sub-DLLs (cudnn_cnn_train64_8.dll, "
                       "cudnn_ops_train64_8.dll, cudnn_adv_*), yet the probe's convolution (a "
                       "forward pass) ran on the GPU. Proof from above: cuDNN loads, so the "
                       "file listing only warns (training may still need the missing files).")
    home = w.cuda("11.2", "11.2.2")
    w.files.update(win_cudnn8_files(home, (8, 1, 1), bin_names=[
        "cudnn64_8.dll", "cudnn_ops_infer64_8.dll", "cudnn_cnn_infer64_8.dll"]))
    log = "\n".join([CPU_GUARD_210, created_device_210("3070ti_laptop", 5963), LOADED_CUDNN_81])
    w.conda_env("tf", probe_tf210_win("3070ti_laptop", log + "\n"))
    w.expect = {"blocking_layer": None, "ready": True, "codes": ["cudnn_partial_install"],
                "absent": ["cudnn_missing", "cuda_not_installed"],
                "statuses": {"gpu": "ok", "driver": "ok", "cuda": "ok", "cudnn": "warn",
                             "tensorflow": "ok"}}
    return w.build()


def p_win_cuda12() -> dict:
    w = win_tf210_base("win-cuda12-instead-of-112",
                       "Windows 11 desktop, RTX 4070 Laptop GPU, driver 546.33: the user "
                       "installed the newest CUDA (12.3) and cuDNN 8.9.7 for CUDA 12 instead of "
                       "11.2 + 8.1, so TF 2.10 cannot find cudart64_110.dll.",
                       key="4070_laptop", driver="546.33", cuda_int=12030)
    home = w.cuda("12.3", "12.3.2")
    w.files.update(win_cudnn8_files(home, (8, 9, 7)))
    w.files[f"{home}\\bin\\zlibwapi.dll"] = None
    log = "\n".join([
        CPU_GUARD_210,
        dso_fail_210("cudart64_110.dll"),
        stamp("05.791044", "I", "tensorflow/stream_executor/cuda/cudart_stub.cc:29",
              "Ignore above cudart dlerror if you do not have a GPU set up on your machine."),
        dso_fail_210("cublas64_11.dll"), dso_fail_210("cublasLt64_11.dll"),
        dso_fail_210("cusolver64_11.dll"), dso_fail_210("cusparse64_11.dll"), SKIP_GPU_210,
    ])
    w.conda_env("tf", probe_tf210_win("4070_laptop", log + "\n", gpu_ok=False))
    w.expect = {"blocking_layer": "cuda", "ready": False, "codes": ["cuda_version_mismatch"],
                "absent": ["cuda_not_installed", "no_nvidia_gpu", "driver_too_old"],
                "statuses": {"gpu": "ok", "driver": "ok", "cuda": "fail"}}
    return w.build()


def p_win_intel_only() -> dict:
    w = Win("win-intel-igpu-only",
            "Windows 11 ultrabook with only Intel Iris Xe graphics; the user installed TF 2.10 "
            "from a tutorial and asks why there is no GPU.", computer="ULTRABOOK-3F9K")
    w.pci = [INTEL_XE_WIN]
    w.registry[f"{DISPLAY_CLASS}\\0000"] = {
        "DriverDesc": ["REG_SZ", "Intel(R) Iris(R) Xe Graphics"],
        "DriverVersion": ["REG_SZ", "31.0.101.4502"],
        "ProviderName": ["REG_SZ", "Intel Corporation"]}
    log = "\n".join([
        CPU_GUARD_210, dso_fail_210("cudart64_110.dll"),
        stamp("05.791044", "I", "tensorflow/stream_executor/cuda/cudart_stub.cc:29",
              "Ignore above cudart dlerror if you do not have a GPU set up on your machine."),
        dso_fail_210("nvcuda.dll"),
        stamp("05.792211", "W", "tensorflow/stream_executor/cuda/cuda_driver.cc:263",
              "failed call to cuInit: UNKNOWN ERROR (303)"),
    ])
    w.conda_env("tf", probe_tf210_win("3070ti_laptop", log + "\n", gpu_ok=False))
    w.expect = {"blocking_layer": "gpu", "ready": False, "codes": ["no_nvidia_gpu"],
                "absent": ["gpu_without_driver"], "statuses": {"gpu": "fail"}}
    return w.build()


def p_win_gtx680() -> dict:
    w = Win("win-gtx680-cc30",
            "Windows 10 desktop with a GeForce GTX 680 (Kepler, compute capability 3.0) on the "
            "last Kepler driver 474.64; CUDA 11.2, cuDNN 8.1 and TF 2.10 are installed, but TF "
            "needs compute capability 3.5 or higher and ignores the card.",
            release="10.0.19045", computer="DESKTOP-GTX680")
    w.driver("474.64", 11040, ["gtx680"], laptop_igpu=False)
    home = w.cuda("11.2", "11.2.2")
    w.files.update(win_cudnn8_files(home, (8, 1, 1)))
    log = "\n".join([
        CPU_GUARD_210,
        stamp("06.802339", "I", "tensorflow/core/common_runtime/gpu/gpu_device.cc:1960",
              "Ignoring visible gpu device (device: 0, name: NVIDIA GeForce GTX 680, pci bus id: "
              "0000:01:00.0, compute capability: 3.0) with Cuda compute capability 3.0. The "
              "minimum required Cuda capability is 3.5."),
    ])
    w.conda_env("tf", probe_tf210_win("gtx680", log + "\n", gpu_ok=False))
    w.expect = {"blocking_layer": "gpu", "ready": False,
                "codes": ["compute_capability_unsupported"],
                "absent": ["no_nvidia_gpu", "driver_too_old", "gpu_without_driver"],
                "statuses": {"gpu": "fail", "driver": "ok"}}
    return w.build()


def p_win_zh_cn() -> dict:
    w = Win("win-zh-cn-healthy",
            "中文 Windows 10, 用户名 张伟: GTX 1660 Ti, driver 472.12, CUDA 11.2 installed to "
            "D:\\CUDA, cuDNN 8.1.0 copied, TF 2.10 in an Anaconda env on D:. nvidia-smi output "
            "contains Chinese process paths; everything works.",
            release="10.0.19045", user="张伟", computer="DESKTOP-张伟")
    w.env["LANG"] = "zh_CN"
    w.driver("472.12", 11040, ["1660ti"], laptop_igpu=False,
                    processes=[(9132, "C+G", "C:\\Program Files\\腾讯\\QQ\\Bin\\QQ.exe"),
                               (11804, "C", "D:\\Anaconda3\\envs\\tf210\\python.exe")])
    home = w.cuda("11.2", "11.2.0", root="D:\\CUDA")
    w.files.update(win_cudnn8_files(home, (8, 1, 0)))
    log = "\n".join([
        CPU_GUARD_210, created_device_210("1660ti", 3961), LOADED_CUDNN_81,
    ])
    w.conda_env("tf210", probe_tf210_win("1660ti", log + "\n", python="3.9.13"),
                base="D:\\Anaconda3")
    w.files[f"{w.home}\\Documents\\深度学习\\train.py"] = "import tensorflow as tf\n# 训练脚本\n"
    w.expect = {"blocking_layer": None, "ready": True, "codes": [],
                "absent": ["cuda_not_installed", "cuda_not_on_path", "cudnn_missing",
                           "driver_too_old"],
                "statuses": {"gpu": "ok", "driver": "ok", "cuda": "ok", "cudnn": "ok"}}
    return w.build()


def p_win_cuda_not_installed() -> dict:
    w = win_tf210_base("win-cuda-not-installed",
                       "Windows 11 laptop with a current driver and TF 2.10 installed with pip, "
                       "but neither CUDA 11.2 nor cuDNN was ever installed.",
                       driver="551.86", cuda_int=12040)
    log = "\n".join([
        CPU_GUARD_210, dso_fail_210("cudart64_110.dll"),
        stamp("05.791044", "I", "tensorflow/stream_executor/cuda/cudart_stub.cc:29",
              "Ignore above cudart dlerror if you do not have a GPU set up on your machine."),
        dso_fail_210("cublas64_11.dll"), dso_fail_210("cudnn64_8.dll"), SKIP_GPU_210,
    ])
    w.conda_env("tf", probe_tf210_win("3070ti_laptop", log + "\n", gpu_ok=False))
    w.expect = {"blocking_layer": "cuda", "ready": False,
                "codes": ["cuda_not_installed", "cudnn_missing"],
                "absent": ["cuda_not_on_path", "cuda_version_mismatch", "driver_too_old"],
                "statuses": {"gpu": "ok", "driver": "ok", "cuda": "fail", "cudnn": "fail"}}
    return w.build()


def p_win_conda_cudatoolkit() -> dict:
    w = win_tf210_base("win-conda-cudatoolkit-healthy",
                       "Windows 11 laptop following TF's own Windows guide: "
                       "'conda install -c conda-forge cudatoolkit=11.2 cudnn=8.1.0' in the env "
                       "and 'pip install \"tensorflow<2.11\"'; no system CUDA Toolkit at all.",
                       driver="537.58", cuda_int=12020)
    log = "\n".join([CPU_GUARD_210, created_device_210("3070ti_laptop", 5963), LOADED_CUDNN_81])
    prefix = w.conda_env("tf", probe_tf210_win("3070ti_laptop", log + "\n"))
    lib = f"{prefix}\\Library\\bin"
    for name in WIN_CUDA_BIN["11"]:
        if name.endswith(".dll"):
            w.files[f"{lib}\\{name}"] = None
    for name in ["cudnn64_8.dll"] + [f"cudnn_{s}64_8.dll" for s in CUDNN8_SUBLIBS]:
        w.files[f"{lib}\\{name}"] = None
    w.files[f"{prefix}\\Library\\include\\cudnn_version.h"] = cudnn_version_h(8, 1, 0)
    w.files[f"{prefix}\\conda-meta\\cudatoolkit-11.2.2-h7d7167e_13.json"] = json.dumps(
        {"name": "cudatoolkit", "version": "11.2.2", "build": "h7d7167e_13",
         "channel": "https://conda.anaconda.org/conda-forge/win-64"})
    w.files[f"{prefix}\\conda-meta\\cudnn-8.1.0.77-h3e0f4f4_0.json"] = json.dumps(
        {"name": "cudnn", "version": "8.1.0.77", "build": "h3e0f4f4_0",
         "channel": "https://conda.anaconda.org/conda-forge/win-64"})
    w.expect = {"blocking_layer": None, "ready": True, "codes": [],
                "absent": ["cuda_not_installed", "cudnn_missing", "cuda_version_mismatch"],
                "statuses": {"gpu": "ok", "driver": "ok"}}
    return w.build()


def p_win_cudart_missing() -> dict:
    w = win_tf210_base("win-cudart-dll-missing",
                       "Windows 11, CUDA 11.2 on PATH, but an antivirus quarantined "
                       "cudart64_110.dll from CUDA\\v11.2\\bin; the rest of the toolkit is there.")
    home = w.cuda("11.2", "11.2.2", drop=("cudart64_110.dll",))
    w.files.update(win_cudnn8_files(home, (8, 1, 1)))
    log = "\n".join([
        CPU_GUARD_210, dso_fail_210("cudart64_110.dll"),
        stamp("05.791044", "I", "tensorflow/stream_executor/cuda/cudart_stub.cc:29",
              "Ignore above cudart dlerror if you do not have a GPU set up on your machine."),
        SKIP_GPU_210,
    ])
    w.conda_env("tf", probe_tf210_win("3070ti_laptop", log + "\n", gpu_ok=False))
    w.expect = {"blocking_layer": "cuda", "ready": False, "codes": ["cudart_missing"],
                "absent": ["cuda_not_installed", "cuda_version_mismatch"],
                "statuses": {"gpu": "ok", "driver": "ok", "cuda": "fail"}}
    return w.build()


# -- Linux ------------------------------------------------------------------------------------
def p_linux_healthy() -> dict:
    lx = Lin("linux-tf221-and-cuda-healthy",
             "Ubuntu 22.04 desktop, RTX 3060 12 GB, driver 560.35.03, TF 2.21 installed with "
             "'pip install tensorflow[and-cuda]' in a venv; no system CUDA Toolkit (none needed).")
    lx.driver("560.35.03", 12060, ["3060"])
    lx.venv(f"{lx.home}/venvs/tf", probe_tf221_linux("3060", tf221_log("3060", 10031)),
            and_cuda_site_files())
    lx.expect = {"blocking_layer": None, "ready": True, "codes": [],
                 "absent": ["cuda_not_installed", "cudnn_missing", "driver_too_old",
                            "nvidia_uvm_not_loaded"],
                 "statuses": {"gpu": "ok", "driver": "ok"}}
    return lx.build()


def p_linux_intel_only() -> dict:
    lx = Lin("linux-intel-only",
             "Ubuntu 24.04 office desktop with Intel UHD Graphics 630 only; TF 2.21 installed.",
             release="6.8.0-48-generic", distro="Ubuntu 24.04", os_release=OS_RELEASE_2404)
    lx.pci = [INTEL_UHD630_LINUX]
    lx.modules = ["i915", "drm_kms_helper", "video"]
    pr = probe_tf221_linux(None, tf221_cpu_log(
        "E0000 00:00:1732874535.117093   48213 cuda_executor.cc:1228] INTERNAL: CUDA error: "
        "Failed call to cuInit: UNKNOWN ERROR (303)"), gpu_ok=False, python="3.12.3")
    lx.venv(f"{lx.home}/.venvs/ml", pr, and_cuda_site_files())
    lx.expect = {"blocking_layer": "gpu", "ready": False, "codes": ["no_nvidia_gpu"],
                 "absent": ["gpu_without_driver"], "statuses": {"gpu": "fail"}}
    return lx.build()


def linux_cpu_probe(extra: str, python: str = "3.11.10") -> dict:
    return probe_tf221_linux(None, tf221_cpu_log(extra), gpu_ok=False, python=python)


def p_linux_mismatch() -> dict:
    lx = Lin("linux-driver-library-mismatch",
             "Ubuntu 22.04 workstation after unattended-upgrades moved the user-space driver to "
             "550.127.05 while the loaded kernel module is still 550.107.02 (no reboot yet).")
    lx.driver("550.107.02", 12040, ["3080"])
    lx.nvml = nvml_error("driver_library_mismatch", "Driver/library version mismatch")
    lib = "/usr/lib/x86_64-linux-gnu"
    for name in ("libcuda.so.550.107.02", "libnvidia-ml.so.550.107.02",
                 "libnvidia-ptxjitcompiler.so.550.107.02"):
        del lx.files[f"{lib}/{name}"]
    lx.files[f"{lib}/libcuda.so.550.127.05"] = None
    lx.files[f"{lib}/libnvidia-ml.so.550.127.05"] = None
    lx.files["/var/log/apt/history.log"] = (
        "Start-Date: 2024-11-28  06:41:13\nCommandline: /usr/bin/unattended-upgrade\n"
        "Upgrade: libnvidia-compute-550:amd64 (550.107.02-0ubuntu0.22.04.1, "
        "550.127.05-0ubuntu0.22.04.1), libnvidia-common-550:amd64 (550.107.02-0ubuntu0.22.04.1, "
        "550.127.05-0ubuntu0.22.04.1)\nEnd-Date: 2024-11-28  06:41:40\n")
    lx.commands = smi_failing("Failed to initialize NVML: Driver/library version mismatch\n"
                              "NVML library version: 550.127\n", rc=18)
    pr = linux_cpu_probe(
        "E0000 00:00:1732874535.117093   48213 cuda_executor.cc:1228] INTERNAL: CUDA error: "
        "Failed call to cuInit: CUDA_ERROR_SYSTEM_DRIVER_MISMATCH: system has unsupported "
        "display driver / cuda driver combination\n"
        "I0000 00:00:1732874535.117201   48213 cuda_diagnostics.cc:160] libcuda reported version "
        "is: 550.127.5\nI0000 00:00:1732874535.117233   48213 cuda_diagnostics.cc:164] kernel "
        "reported version is: 550.107.2\nE0000 00:00:1732874535.117240   48213 "
        "cuda_diagnostics.cc:275] kernel version 550.107.2 does not match DSO version 550.127.5 "
        "-- cannot find working devices in this configuration")
    lx.venv(f"{lx.home}/venvs/tf", pr, and_cuda_site_files())
    lx.expect = {"blocking_layer": "driver", "ready": False,
                 "codes": ["nvml_driver_library_mismatch"],
                 "absent": ["no_nvidia_gpu"], "statuses": {"driver": "fail"}}
    return lx.build()


def p_linux_uvm() -> dict:
    lx = Lin("linux-nvidia-uvm-missing",
             "Ubuntu 22.04 headless box, driver installed with the .run installer and "
             "--no-nvidia-modprobe: the nvidia module is loaded and nvidia-smi works, but "
             "nvidia-uvm is not (no /dev/nvidia-uvm, nothing creates it on demand), so cuInit "
             "fails.")
    lx.driver("560.35.03", 12060, ["3060"], uvm=False)
    del lx.files["/usr/bin/nvidia-modprobe"]
    pr = linux_cpu_probe(
        "E0000 00:00:1732874535.117093   48213 cuda_executor.cc:1228] INTERNAL: CUDA error: "
        "Failed call to cuInit: CUDA_ERROR_UNKNOWN: unknown error\n"
        "I0000 00:00:1732874535.117201   48213 cuda_diagnostics.cc:135] retrieving CUDA "
        "diagnostic information for host: gpu-box\n"
        "I0000 00:00:1732874535.117233   48213 cuda_diagnostics.cc:142] hostname: gpu-box")
    lx.venv(f"{lx.home}/venvs/tf", pr, and_cuda_site_files())
    lx.expect = {"blocking_layer": "driver", "ready": False, "codes": ["nvidia_uvm_not_loaded"],
                 "absent": ["no_nvidia_gpu", "driver_too_old", "no_driver_or_nvidia_smi_missing"],
                 "statuses": {"gpu": "ok", "driver": "fail"}}
    return lx.build()


def p_linux_permission() -> dict:
    lx = Lin("linux-dev-nvidia-permission-denied",
             "Shared Ubuntu 22.04 lab server with a Tesla T4: /dev/nvidia* are mode 0660 "
             "root:video and the user is not in 'video', so NVML reports insufficient "
             "permissions.", user="student")
    lx.driver("550.120", 12040, ["t4"])
    lx.nvml = nvml_error("no_permission", "Insufficient Permissions")
    lx.denied = ["/dev/nvidia0", "/dev/nvidiactl", "/dev/nvidia-uvm", "/dev/nvidia-uvm-tools",
                 "/dev/nvidia-modeset"]
    lx.files["/etc/group"] = ("root:x:0:\nvideo:x:44:alice,bob\nrender:x:109:\n"
                              "student:x:1001:\n")
    lx.commands = smi_failing("Failed to initialize NVML: Insufficient Permissions\n", rc=4)
    pr = linux_cpu_probe(
        "E0000 00:00:1732874535.117093   48213 cuda_executor.cc:1228] INTERNAL: CUDA error: "
        "Failed call to cuInit: CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected")
    lx.venv(f"{lx.home}/venvs/tf", pr, and_cuda_site_files())
    lx.expect = {"blocking_layer": "driver", "ready": False,
                 "codes": ["permission_denied_dev_nvidia"],
                 "absent": ["no_nvidia_gpu", "nvidia_uvm_not_loaded",
                            "no_driver_or_nvidia_smi_missing"],
                 "statuses": {"driver": "fail"}}
    return lx.build()


def p_linux_nouveau() -> dict:
    lx = Lin("linux-nouveau-no-nvidia-driver",
             "Fresh Ubuntu 22.04 on a desktop with an RTX 3060: the open-source nouveau driver "
             "drives the card, the NVIDIA driver was never installed (no nvidia-smi, no NVML).")
    lx.pci = [pci_nvidia_linux("3060", driver="nouveau")]
    lx.modules = ["nouveau", "drm_kms_helper", "video"]
    lx.files["/sys/module/nouveau/refcnt"] = "3\n"
    pr = linux_cpu_probe(
        "E0000 00:00:1732874535.117093   48213 cuda_executor.cc:1228] INTERNAL: CUDA error: "
        "Failed call to cuInit: UNKNOWN ERROR (303)\n"
        "I0000 00:00:1732874535.117201   48213 cuda_diagnostics.cc:182] kernel driver does not "
        "appear to be running on this host (desktop): /proc/driver/nvidia/version does not exist")
    lx.venv(f"{lx.home}/venvs/tf", pr, and_cuda_site_files())
    lx.expect = {"blocking_layer": "driver", "ready": False, "codes": [],
                 "one_of": [["gpu_without_driver", "no_driver_or_nvidia_smi_missing"]],
                 "absent": ["no_nvidia_gpu"], "statuses": {"driver": "fail"}}
    return lx.build()


def p_linux_container() -> dict:
    lx = Lin("linux-container-no-gpu-passthrough",
             "tensorflow/tensorflow:2.21.0-gpu container started with 'docker run' but without "
             "'--gpus all': the host's RTX 4090 is visible in sysfs, but there is no "
             "/dev/nvidia*, no libcuda and no NVML inside.", release="6.8.0-45-generic",
             user="root")
    lx.env.update({"HOSTNAME": "3f2a9c1d7e4b", "NVIDIA_VISIBLE_DEVICES": "all",
                   "NVIDIA_DRIVER_CAPABILITIES": "compute,utility", "PWD": "/"})
    lx.files["/.dockerenv"] = ""
    lx.files["/proc/1/cgroup"] = "0::/\n"
    lx.files["/proc/1/sched"] = "bash (1, #threads: 1)\n"
    lx.pci = [pci_nvidia_linux("4090", driver="nvidia")]
    pr = linux_cpu_probe(
        "E0000 00:00:1732874535.117093   1 cuda_executor.cc:1228] INTERNAL: CUDA error: "
        "Failed call to cuInit: UNKNOWN ERROR (303)\n"
        "I0000 00:00:1732874535.117201   1 cuda_diagnostics.cc:135] retrieving CUDA diagnostic "
        "information for host: 3f2a9c1d7e4b\n"
        "I0000 00:00:1732874535.117233   1 cuda_diagnostics.cc:142] hostname: 3f2a9c1d7e4b\n"
        "I0000 00:00:1732874535.117240   1 cuda_diagnostics.cc:182] kernel driver does not appear "
        "to be running on this host (3f2a9c1d7e4b): /proc/driver/nvidia/version does not exist",
        python="3.11.0rc1")
    site = "/usr/local/lib/python3.11/dist-packages"
    pr["python"].update({"executable": "/usr/bin/python3", "prefix": "/usr", "conda": False,
                         "venv": False})
    lx.pythons.append({"executable": "/usr/bin/python3", "probe": pr})
    lx.files["/usr/bin/python3.11"] = None
    lx.files[f"{site}/tensorflow/__init__.py"] = None
    for rel, content in and_cuda_site_files().items():
        lx.files[f"{site}/{rel}"] = content
    lx.expect = {"blocking_layer": "driver", "ready": False,
                 "codes": ["container_no_gpu_passthrough"],
                 "absent": ["no_nvidia_gpu"], "statuses": {"driver": "fail"}}
    return lx.build()


def linux_tf210(lx: Lin, site_extra: Optional[dict], log: str, gpu_ok: bool, key: str,
                conv: Optional[dict] = None) -> None:
    packages = {"tensorflow": "2.10.1", "keras": "2.10.0", "numpy": "1.23.5"}
    if gpu_ok:
        tf = tf_block("2.10.1", TF210_LINUX_BUILD, [tf_gpu(key)], step(True, GPU_DEV),
                      conv or step(True, GPU_DEV))
    else:
        tf = tf_block("2.10.1", TF210_LINUX_BUILD, [], step(True, CPU_DEV), step(True, CPU_DEV))
    lx.venv(f"{lx.home}/venvs/tf210", probe("3.10.12", packages, tf, log), site_extra)


def p_linux_ld_path() -> dict:
    lx = Lin("linux-cuda112-ld-library-path-missing",
             "Ubuntu 20.04, RTX 3080, driver 535.183.01, TF 2.10 (which needs a system CUDA "
             "11.2): CUDA 11.2 and cuDNN 8.1 installed with the runfile into /usr/local/cuda-11.2"
             ", but LD_LIBRARY_PATH was never set and no ld.so.conf entry exists.",
             release="5.15.0-125-generic", distro="Ubuntu 20.04", os_release=OS_RELEASE_2004)
    lx.driver("535.183.01", 12020, ["3080"])
    lx.files.update(linux_cuda_tree("11.2", "11.2.2"))
    lx.files.update(linux_cudnn8_files("/usr/local/cuda-11.2", (8, 1, 1)))
    lx.files["/var/log/cuda-installer.log"] = (
        "[INFO]: Driver not installed.\n[INFO]: Toolkit:  Installed in /usr/local/cuda-11.2/\n"
        "[INFO]: Please make sure that\n[INFO]:  -   PATH includes /usr/local/cuda-11.2/bin\n"
        "[INFO]:  -   LD_LIBRARY_PATH includes /usr/local/cuda-11.2/lib64, or, add "
        "/usr/local/cuda-11.2/lib64 to /etc/ld.so.conf and run ldconfig as root\n")
    log = "\n".join([
        dso_fail_210("libcudart.so.11.0", windows=False),
        stamp("05.791044", "I", "tensorflow/stream_executor/cuda/cudart_stub.cc:29",
              "Ignore above cudart dlerror if you do not have a GPU set up on your machine."),
        dso_fail_210("libcublas.so.11", windows=False),
        dso_fail_210("libcublasLt.so.11", windows=False),
        dso_fail_210("libcufft.so.10", windows=False),
        dso_fail_210("libcusparse.so.11", windows=False),
        dso_fail_210("libcudnn.so.8", windows=False),
        SKIP_GPU_210,
    ])
    linux_tf210(lx, None, log + "\n", False, "3080")
    lx.expect = {"blocking_layer": "cuda", "ready": False, "codes": ["cuda_not_on_path"],
                 "absent": ["cuda_not_installed", "cuda_version_mismatch", "driver_too_old"],
                 "statuses": {"gpu": "ok", "driver": "ok", "cuda": "fail"}}
    return lx.build()


def p_linux_cublas_missing() -> dict:
    lx = Lin("linux-cuda112-cublas-missing",
             "Ubuntu 20.04, RTX 3080, TF 2.10: only the apt package cuda-cudart-11-2 and cuDNN "
             "8.1 were installed, LD_LIBRARY_PATH is set, but cuBLAS/cuFFT/cuSOLVER/cuSPARSE "
             "are missing.", release="5.15.0-125-generic", distro="Ubuntu 20.04",
             os_release=OS_RELEASE_2004)
    lx.driver("535.183.01", 12020, ["3080"])
    lx.files.update(linux_cuda_tree("11.2", "11.2.2", only_runtime=True))
    lx.files.update(linux_cudnn8_files("/usr/local/cuda-11.2", (8, 1, 1)))
    lx.env["LD_LIBRARY_PATH"] = "/usr/local/cuda-11.2/lib64"
    lx.env["PATH"] = "/usr/local/cuda-11.2/bin:" + lx.env["PATH"]
    lx.files["/etc/ld.so.conf.d/cuda-11-2.conf"] = "/usr/local/cuda-11.2/targets/x86_64-linux/lib\n"
    log = "\n".join([
        stamp("05.790011", "I", "tensorflow/stream_executor/platform/default/dso_loader.cc:53",
              "Successfully opened dynamic library libcudart.so.11.0"),
        dso_fail_210("libcublas.so.11", windows=False),
        dso_fail_210("libcublasLt.so.11", windows=False),
        dso_fail_210("libcufft.so.10", windows=False),
        dso_fail_210("libcurand.so.10", windows=False),
        dso_fail_210("libcusolver.so.11", windows=False),
        dso_fail_210("libcusparse.so.11", windows=False),
        SKIP_GPU_210,
    ])
    linux_tf210(lx, None, log + "\n", False, "3080")
    lx.expect = {"blocking_layer": "cuda", "ready": False, "codes": ["cuda_lib_other_missing"],
                 "absent": ["cuda_not_installed", "cudart_missing"],
                 "statuses": {"gpu": "ok", "driver": "ok", "cuda": "fail"}}
    return lx.build()


def p_linux_cudnn_mismatch() -> dict:
    lx = Lin("linux-cudnn805-mismatch",
             "Ubuntu 20.04, RTX 3080, TF 2.10 with CUDA 11.2 on LD_LIBRARY_PATH, but an old "
             "cuDNN 8.0.5 sits in /usr/local/cuda-11.2: TF was built with cuDNN 8.1 and refuses "
             "8.0.", release="5.15.0-125-generic", distro="Ubuntu 20.04",
             os_release=OS_RELEASE_2004)
    lx.driver("535.183.01", 12020, ["3080"])
    lx.files.update(linux_cuda_tree("11.2", "11.2.2"))
    lx.files.update(linux_cudnn8_files("/usr/local/cuda-11.2", (8, 0, 5)))
    lx.env["LD_LIBRARY_PATH"] = "/usr/local/cuda-11.2/lib64"
    lx.env["PATH"] = "/usr/local/cuda-11.2/bin:" + lx.env["PATH"]
    lx.commands.append(cmd(["nvcc", "--version"], nvcc_cmd("11.2")["stdout"]))
    log = "\n".join([
        created_device_210("3080", 8107),
        stamp("07.913554", "E", "tensorflow/stream_executor/cuda/cuda_dnn.cc:377",
              "Loaded runtime CuDNN library: 8.0.5 but source was compiled with: 8.1.0.  CuDNN "
              "library needs to have matching major version and equal or higher minor version. "
              "If using a binary install, upgrade your CuDNN library.  If building from sources, "
              "make sure the library loaded at runtime is compatible with the version specified "
              "during compile configuration."),
    ])
    linux_tf210(lx, None, log + "\n", True, "3080",
                conv=step(False, GPU_DEV, "UnknownError: Failed to get convolution algorithm. "
                          "This is probably because cuDNN failed to initialize, so try looking "
                          "to see if a warning log message was printed above."))
    lx.expect = {"blocking_layer": "cudnn", "ready": False, "codes": ["cudnn_version_mismatch"],
                 "absent": ["cudnn_missing", "cuda_not_on_path"],
                 "statuses": {"gpu": "ok", "driver": "ok", "cuda": "ok", "cudnn": "fail"}}
    return lx.build()


def p_linux_smi_hangs() -> dict:
    lx = Lin("linux-nvidia-smi-hangs",
             "Ubuntu 22.04 server with a Tesla T4 that fell off the bus (Xid 79): nvidia-smi "
             "hangs until killed and NVML fails with an unknown error.",
             release="5.15.0-125-generic")
    lx.driver("550.120", 12040, ["t4"])
    lx.nvml = nvml_error("unknown", "NVML did not answer within 10 s (the driver may be hung; "
                                    "see dmesg for Xid errors)")
    lx.commands = smi_failing(timed_out=True)
    lx.files["/var/log/kern.log"] = (
        "Nov 29 09:58:01 gpu-srv kernel: [812331.120442] NVRM: GPU at PCI:0000:01:00: "
        "GPU-3b0f1e5a-8c71-5d8e-9f3a-2c4e6b7d1a90\n"
        "Nov 29 09:58:01 gpu-srv kernel: [812331.120447] NVRM: Xid (PCI:0000:01:00): 79, "
        "pid='<unknown>', name=<unknown>, GPU has fallen off the bus.\n")
    pr = linux_cpu_probe("")
    hung = "timed out after 60 s (the GPU did not answer)"
    pr["tensorflow"]["matmul"] = step(False, None, hung)
    pr["tensorflow"]["conv"] = step(False, None, hung)
    lx.venv(f"{lx.home}/venvs/tf", pr, and_cuda_site_files())
    lx.expect = {"blocking_layer": "driver", "ready": False,
                 "codes": ["no_driver_or_nvidia_smi_missing"],
                 "absent": ["no_nvidia_gpu"], "statuses": {"driver": "fail"}}
    return lx.build()


def p_linux_driver_470() -> dict:
    lx = Lin("linux-driver-470-too-old",
             "Ubuntu 20.04 with a GTX 1080 Ti on the old 470.256.02 driver (CUDA 11.4); TF 2.21 "
             "[and-cuda] brings CUDA 12.5 libraries, which need a 525.60.13+ driver.",
             release="5.15.0-125-generic", distro="Ubuntu 20.04", os_release=OS_RELEASE_2004)
    lx.driver("470.256.02", 11040, ["1080ti"])
    pr = linux_cpu_probe(
        "E0000 00:00:1732874535.117093   48213 cuda_executor.cc:1228] INTERNAL: CUDA error: "
        "Failed call to cuInit: CUDA_ERROR_SYSTEM_DRIVER_MISMATCH: system has unsupported "
        "display driver / cuda driver combination\n"
        "I0000 00:00:1732874535.117201   48213 cuda_diagnostics.cc:160] libcuda reported version "
        "is: 470.256.2", python="3.10.12")
    lx.venv(f"{lx.home}/venvs/tf", pr, and_cuda_site_files())
    lx.expect = {"blocking_layer": "driver", "ready": False, "codes": ["driver_too_old"],
                 "absent": ["no_nvidia_gpu", "compute_capability_unsupported",
                            "no_driver_or_nvidia_smi_missing"],
                 "statuses": {"gpu": "ok", "driver": "fail"}}
    return lx.build()


def p_linux_dual_4090() -> dict:
    lx = Lin("linux-dual-4090-healthy",
             "Ubuntu 24.04 workstation with two RTX 4090s, driver 565.57.01, TF 2.21 "
             "[and-cuda] in a venv; also a system CUDA 12.6 toolkit for other work.",
             release="6.8.0-48-generic", distro="Ubuntu 24.04", os_release=OS_RELEASE_2404)
    lx.driver("565.57.01", 12070, ["4090", "4090"])
    lx.pci[1]["slot"] = "0000:41:00.0"
    lx.nvml["gpus"][1]["pci_bus_id"] = "00000000:41:00.0"
    lx.venv(f"{lx.home}/venvs/tf", probe_tf221_linux("4090", tf221_log("4090", 22279),
                                                     python="3.12.3"), and_cuda_site_files())
    lx.expect = {"blocking_layer": None, "ready": True, "codes": [],
                 "absent": ["driver_too_old", "cuda_not_installed", "cudnn_missing"],
                 "statuses": {"gpu": "ok", "driver": "ok"}}
    profile = lx.build()
    profile["monitor"] = monitor_dual_4090_starving()
    return profile


def p_linux_visible_devices_no_such_gpu() -> dict:
    lx = Lin("linux-cuda-visible-devices-no-such-gpu",
             "Ubuntu 22.04 desktop, one RTX 3060, TF 2.21 [and-cuda] installed and complete, but "
             "~/.bashrc exports CUDA_VISIBLE_DEVICES=1 (copied from the lab's two-GPU server): "
             "the probe inherits it and CUDA sees no device, since GPU 1 does not exist here.")
    lx.driver("560.35.03", 12060, ["3060"])
    lx.env["CUDA_VISIBLE_DEVICES"] = "1"
    log = tf221_cpu_log(
        "E0000 00:00:1732874535.117093   48213 cuda_executor.cc:1228] INTERNAL: CUDA error: "
        "Failed call to cuInit: CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected\n"
        "I0000 00:00:1732874535.117131   48213 cuda_diagnostics.cc:137] retrieving CUDA "
        "diagnostic information for host: lab-desktop\n"
        "I0000 00:00:1732874535.117136   48213 cuda_diagnostics.cc:144] hostname: lab-desktop\n"
        "I0000 00:00:1732874535.117218   48213 cuda_diagnostics.cc:168] libcuda reported "
        "version is: 560.35.3\n"
        "I0000 00:00:1732874535.117240   48213 cuda_diagnostics.cc:172] kernel reported "
        "version is: 560.35.3")
    lx.venv(f"{lx.home}/venvs/tf", probe_tf221_linux("3060", log, gpu_ok=False),
            and_cuda_site_files())
    lx.expect = {"blocking_layer": "tensorflow", "ready": False,
                 "codes": ["cuda_visible_devices_misconfigured"],
                 "absent": ["cuda_not_installed", "cudnn_missing",
                            "no_driver_or_nvidia_smi_missing", "gpu_not_used_unknown_cause"],
                 "statuses": {"gpu": "ok", "driver": "ok", "cuda": "n/a", "cudnn": "n/a",
                              "tensorflow": "fail"}}
    return lx.build()


TF218_CPU_BUILD = {"is_cuda_build": False, "is_rocm_build": False, "is_tensorrt_build": False,
                   "cpu_compiler": "/usr/lib/llvm-17/bin/clang"}
TF218_LINUX_BUILD = {"cuda_version": "12.5.1", "cudnn_version": "9",
                     "cuda_compute_capabilities": ["sm_60", "sm_70", "sm_80", "sm_89",
                                                   "compute_90"],
                     "cpu_compiler": "/usr/lib/llvm-17/bin/clang", "is_cuda_build": True,
                     "is_rocm_build": False, "is_tensorrt_build": False}


def p_linux_tensorflow_cpu() -> dict:
    lx = Lin("linux-tensorflow-cpu-no-cuda-wheels",
             "Ubuntu 22.04 desktop, RTX 3060, driver 560: a tutorial said 'pip install "
             "tensorflow-cpu', so the venv has the CPU-only TF 2.18 and no nvidia-* wheels. The "
             "root cause is the package: the report leads with replacing it by "
             "tensorflow[and-cuda] (which brings CUDA and cuDNN), not with a CUDA Toolkit.")
    lx.driver("560.35.03", 12060, ["3060"])
    packages = {"tensorflow-cpu": "2.18.0", "keras": "3.6.0", "numpy": "2.0.2"}
    tf = tf_block("2.18.0", TF218_CPU_BUILD, [], step(True, CPU_DEV), step(True, CPU_DEV),
                  built_with_cuda=False)
    lx.venv(f"{lx.home}/venvs/tf", probe("3.11.10", packages, tf, tf221_cpu_log("")))
    lx.expect = {"blocking_layer": "tensorflow", "ready": False,
                 "codes": ["gpu_not_listed_cpu_only_package"],
                 "absent": ["tensorflow_without_cuda_wheels", "gpu_not_used_unknown_cause"],
                 "statuses": {"gpu": "ok", "driver": "ok", "cuda": "warn", "cudnn": "warn",
                              "tensorflow": "fail"}}
    return lx.build()


def p_linux_tf_without_and_cuda() -> dict:
    lx = Lin("linux-tf218-without-and-cuda",
             "Ubuntu 22.04 desktop, RTX 3060, driver 560, TF 2.18 installed with plain 'pip "
             "install tensorflow' (no [and-cuda]) and no system CUDA: TF cannot dlopen the GPU "
             "libraries. The fix is the package (tensorflow[and-cuda]), not a CUDA Toolkit.")
    lx.driver("560.35.03", 12060, ["3060"])
    packages = {"tensorflow": "2.18.0", "keras": "3.6.0", "numpy": "2.0.2"}
    tf = tf_block("2.18.0", TF218_LINUX_BUILD, [], step(True, CPU_DEV), step(True, CPU_DEV))
    log = tf221_cpu_log(
        "W0000 00:00:1732874535.117093   48213 gpu_device.cc:2344] Cannot dlopen some GPU "
        "libraries. Please make sure the missing libraries mentioned above are installed "
        "properly if you would like to use GPU. Follow the guide at "
        "https://www.tensorflow.org/install/gpu for how to download and setup the required "
        "libraries for your platform.\nSkipping registering GPU devices...")
    lx.venv(f"{lx.home}/venvs/tf", probe("3.11.10", packages, tf, log))
    lx.expect = {"blocking_layer": "tensorflow", "ready": False,
                 "codes": ["tensorflow_without_cuda_wheels"],
                 "absent": ["gpu_not_listed_cpu_only_package", "gpu_not_used_unknown_cause"],
                 "statuses": {"gpu": "ok", "driver": "ok", "cuda": "warn", "cudnn": "warn",
                              "tensorflow": "fail"}}
    return lx.build()


# -- WSL --------------------------------------------------------------------------------------
WSL_RELEASE = "5.15.153.1-microsoft-standard-WSL2"


def wsl_base(name: str, description: str, release: str = WSL_RELEASE, wsl: int = 2) -> Lin:
    lx = Lin(name, description, release=release, wsl=wsl)
    lx.env.update({"WSL_DISTRO_NAME": "Ubuntu-22.04", "WSL_INTEROP": "/run/WSL/1234_interop",
                   "WSLENV": "WT_SESSION:WT_PROFILE_ID:", "WT_SESSION":
                   "f1b7d0a2-6a0c-4b1e-9f84-0c3a5e1f2d77"})
    lx.env["PATH"] = (lx.env["PATH"] + ":/usr/lib/wsl/lib:/mnt/c/WINDOWS/system32:/mnt/c/WINDOWS:"
                      "/mnt/c/WINDOWS/System32/Wbem:/mnt/c/Users/me/AppData/Local/Microsoft/"
                      "WindowsApps")
    lx.files["/proc/sys/fs/binfmt_misc/WSLInterop"] = "enabled\ninterpreter /init\nflags: PF\n"
    lx.files["/mnt/c/Windows/System32/nvidia-smi.exe"] = None
    lx.files["/proc/version"] = (
        f"Linux version {release} (root@65c757a075e2) (gcc (GCC) 11.2.0, GNU ld (GNU Binutils) "
        "2.37) #1 SMP Thu Jun 13 00:06:15 UTC 2024\n")
    lx.pci = [WSL_RENDER] if wsl == 2 else []
    return lx


def wsl_driver(lx: Lin, win_driver: str, cuda: int, key: str) -> list[dict]:
    gpus = [nvml_gpu(key, 0, seed=lx.name + key)]
    lx.nvml = nvml_ok(win_driver, cuda, gpus, windows=False)
    lx.files["/dev/dxg"] = None
    for name in ("libcuda.so", "libcuda.so.1", "libcuda.so.1.1", "libcudadebugger.so.1",
                 "libd3d12.so", "libd3d12core.so", "libdxcore.so", "libnvcuvid.so.1",
                 "libnvdxdlkernels.so", "libnvidia-encode.so.1", "libnvidia-ml.so.1",
                 "libnvidia-opticalflow.so.1", "libnvoptix.so.1", "libnvwgf2umx.so",
                 "nvidia-smi"):
        lx.files[f"/usr/lib/wsl/lib/{name}"] = None
    lx.files["/etc/ld.so.conf.d/ld.wsl.conf"] = (
        "# This file was automatically generated by WSL. To stop automatic generation of this "
        "file, add the following entry to /etc/wsl.conf:\n# [automount]\n# ldconfig = false\n"
        "/usr/lib/wsl/lib\n")
    cuda_text = f"{cuda // 1000}.{(cuda % 1000) // 10}"
    lx.commands += smi_commands(win_driver, cuda_text, gpus, False,
                                smi_version="560.35.02", date="Fri Nov 29 10:02:11 2024")
    return gpus


def p_wsl_healthy() -> dict:
    lx = wsl_base("wsl2-healthy",
                  "WSL2 Ubuntu 22.04 on a Windows 11 laptop (RTX 4070 Laptop GPU, Windows driver "
                  "560.94); TF 2.21 [and-cuda] in a venv; no Linux driver inside the distro.")
    wsl_driver(lx, "560.94", 12060, "4070_laptop")
    lx.venv(f"{lx.home}/venvs/tf", probe_tf221_linux(
        "4070_laptop", tf221_log("4070_laptop", 5561, extra=(
            "I0000 00:00:1732874535.001211   48213 cuda_executor.cc:1015] could not open file to "
            "read NUMA node: /sys/bus/pci/devices/0000:01:00.0/numa_node\nYour kernel may have "
            "been built without NUMA support."))), and_cuda_site_files())
    lx.expect = {"blocking_layer": None, "ready": True, "codes": [],
                 "absent": ["wsl_gpu_missing", "no_nvidia_gpu", "driver_too_old",
                            "cuda_not_installed"],
                 "statuses": {"gpu": "ok", "driver": "ok"}}
    return lx.build()


def p_wsl_no_dxg() -> dict:
    lx = wsl_base("wsl2-no-dxg",
                  "WSL2 on an old Windows 10 build (19041) with the 4.19 WSL kernel: no "
                  "/dev/dxg and no /usr/lib/wsl/lib, so the distro cannot see the GPU although "
                  "Windows has an RTX 3060 with a driver.", release="4.19.128-microsoft-standard")
    lx.pci = []
    pr = linux_cpu_probe(
        "E0000 00:00:1732874535.117093   48213 cuda_executor.cc:1228] INTERNAL: CUDA error: "
        "Failed call to cuInit: UNKNOWN ERROR (303)")
    lx.venv(f"{lx.home}/venvs/tf", pr, and_cuda_site_files())
    lx.expect = {"blocking_layer": "driver", "ready": False, "codes": ["wsl_gpu_missing"],
                 "absent": ["no_nvidia_gpu"], "statuses": {"driver": "fail"}}
    return lx.build()


def p_wsl1() -> dict:
    lx = wsl_base("wsl1", "A distro still on WSL 1 (no GPU support at all); the Windows host has "
                  "an RTX 3070 Ti Laptop GPU.", release="4.4.0-22621-Microsoft", wsl=1)
    lx.files["/proc/version"] = (
        "Linux version 4.4.0-22621-Microsoft (Microsoft@Microsoft.com) (gcc version 5.4.0 (GCC) "
        ") #2506-Microsoft Fri Jan 01 08:00:00 PST 2016\n")
    pr = linux_cpu_probe(
        "E0000 00:00:1732874535.117093   48213 cuda_executor.cc:1228] INTERNAL: CUDA error: "
        "Failed call to cuInit: UNKNOWN ERROR (303)")
    lx.venv(f"{lx.home}/venvs/tf", pr, and_cuda_site_files())
    lx.expect = {"blocking_layer": "driver", "ready": False, "codes": ["wsl_gpu_missing"],
                 "absent": ["no_nvidia_gpu"], "statuses": {"driver": "fail"}}
    return lx.build()


def p_wsl_linux_driver() -> dict:
    lx = wsl_base("wsl2-linux-driver-inside",
                  "WSL2 Ubuntu 22.04 where the user ran 'sudo apt install nvidia-driver-535': "
                  "the Linux libcuda.so.1 in /usr/lib/x86_64-linux-gnu now shadows "
                  "/usr/lib/wsl/lib, /usr/bin/nvidia-smi cannot talk to a driver, and TF gets "
                  "CUDA_ERROR_NO_DEVICE.")
    wsl_driver(lx, "560.94", 12060, "3070ti_laptop")
    lib = "/usr/lib/x86_64-linux-gnu"
    for name in ("libcuda.so", "libcuda.so.1", "libcuda.so.535.183.01", "libnvidia-ml.so.1",
                 "libnvidia-ml.so.535.183.01", "libnvidia-ptxjitcompiler.so.535.183.01"):
        lx.files[f"{lib}/{name}"] = None
    lx.files["/usr/bin/nvidia-smi"] = None
    lx.files["/var/lib/dpkg/info/nvidia-driver-535.list"] = "/usr/share/doc/nvidia-driver-535\n"
    lx.files["/var/lib/dpkg/info/libnvidia-compute-535:amd64.list"] = (
        f"{lib}/libcuda.so.535.183.01\n{lib}/libnvidia-ml.so.535.183.01\n")
    lx.nvml = nvml_error("driver_not_loaded", "Driver Not Loaded")
    # what 'nvidia-smi' answers: /usr/bin (the Linux package) comes first on PATH
    lx.commands = smi_failing(SMI_NO_DRIVER, rc=9)
    pr = linux_cpu_probe(
        "E0000 00:00:1732874535.117093   48213 cuda_executor.cc:1228] INTERNAL: CUDA error: "
        "Failed call to cuInit: CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected")
    lx.venv(f"{lx.home}/venvs/tf", pr, and_cuda_site_files())
    lx.expect = {"blocking_layer": "driver", "ready": False, "codes": ["wsl_gpu_missing"],
                 "absent": ["no_nvidia_gpu"], "statuses": {"driver": "fail"}}
    return lx.build()


# -- the monitor's recorded samples (monitor.ticks, played by the monitor page in demo mode) --
def _wave(i: int, period: int, low: float, high: float) -> float:
    return low + (high - low) * (0.5 + 0.5 * math.sin(2 * math.pi * i / period))


def monitor_dual_4090_starving() -> dict:
    """Training on GPU 0 whose input pipeline starves it: one busy tick in six, the memory held
    by the training process all along; GPU 1 idle."""
    total = 25757220864
    ticks = []
    for i in range(120):
        busy = i % 6 == 0
        ticks.append({"t": float(i), "gpus": [
            {"index": 0, "util_gpu": 96 if busy else 4 + i % 5, "util_memory": 38 if busy else 2,
             "memory_used": 23001563136 + (i % 3) * 1048576, "memory_total": total,
             "temperature": 48 + (i % 6 == 1) * 2, "power_w": 312.4 if busy else 96.5 + i % 4,
             "power_limit_w": 450.0, "sm_clock": 2520 if busy else 2235, "memory_clock": 10501,
             "fan": 36, "pstate": 2, "clock_reasons": 0 if busy else 1,
             "processes": [{"pid": 48211, "memory_used": 22548578304, "name": "python3",
                            "command": "python3 train.py --data /data/imagenet --batch 256"}]},
            {"index": 1, "util_gpu": 0, "util_memory": 0, "memory_used": 553648128,
             "memory_total": total, "temperature": 34, "power_w": 21.3, "power_limit_w": 450.0,
             "sm_clock": 210, "memory_clock": 405, "fan": 30, "pstate": 8, "clock_reasons": 1,
             "processes": []},
        ]})
    facts = {"name": "NVIDIA GeForce RTX 4090", "memory_total": total,
             "power_limit_default_w": 450.0, "power_limit_min_w": 150.0,
             "power_limit_max_w": 600.0, "max_sm_clock": 3105, "max_memory_clock": 10501,
             "pcie_gen": 4, "pcie_width": 16, "is_laptop": False}
    return {"interval_s": 1.0, "static": [dict(facts), dict(facts)], "ticks": ticks}


def monitor_laptop_throttling() -> dict:
    """A laptop RTX 3070 Ti held at 80 W of its 150 W, getting hot: thermal and power-cap
    clock events, memory nearly full."""
    total = 8589934592
    ticks = []
    for i in range(120):
        temp = min(87, 76 + i // 8)
        hot = temp >= 84
        ticks.append({"t": float(i), "gpus": [
            {"index": 0, "util_gpu": 97 + i % 3, "util_memory": 61 + i % 5,
             "memory_used": 8254390272 + (i % 4) * 2097152, "memory_total": total,
             "temperature": temp, "power_w": round(_wave(i, 17, 76.0, 80.0), 1),
             "power_limit_w": 80.0, "sm_clock": 1230 if hot else 1395 - (i % 4) * 15,
             "memory_clock": 7000, "fan": None, "pstate": 0,
             "clock_reasons": (0x4 | 0x20) if hot else 0x4,
             "processes": [{"pid": 9120, "memory_used": None, "name": "python.exe",
                            "command": "python.exe train.py --epochs 30"}]},
        ]})
    return {"interval_s": 1.0, "static": [{
        "name": "NVIDIA GeForce RTX 3070 Ti Laptop GPU", "memory_total": total,
        "power_limit_default_w": 80.0, "power_limit_min_w": 35.0, "power_limit_max_w": 150.0,
        "max_sm_clock": 1845, "max_memory_clock": 7001, "pcie_gen": 4, "pcie_width": 8,
        "is_laptop": True}], "ticks": ticks}


PROFILES = [
    p_win_healthy, p_win_cudnn_never_copied, p_win_driver_too_old, p_win_driver_minor_compat,
    p_win_cuda_not_on_path,
    p_win_code28, p_win_tf215, p_win_cudnn89_no_zlib, p_win_cudnn_partial, p_win_cuda12,
    p_win_intel_only, p_win_gtx680, p_win_zh_cn, p_win_cuda_not_installed,
    p_win_conda_cudatoolkit, p_win_cudart_missing,
    p_linux_healthy, p_linux_intel_only, p_linux_mismatch, p_linux_uvm, p_linux_permission,
    p_linux_nouveau, p_linux_container, p_linux_ld_path, p_linux_cublas_missing,
    p_linux_cudnn_mismatch, p_linux_smi_hangs, p_linux_driver_470, p_linux_dual_4090,
    p_wsl_healthy, p_wsl_no_dxg, p_wsl1, p_wsl_linux_driver,
    p_linux_visible_devices_no_such_gpu, p_linux_tensorflow_cpu, p_linux_tf_without_and_cuda,
    p_win_cudnn_incomplete_conv_on_gpu,
]


def render(profile: dict) -> str:
    return json.dumps(profile, indent=2, ensure_ascii=False) + "\n"


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only compare, write nothing")
    parser.add_argument("--out", default=str(OUT))
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    stale = []
    names = set()
    for build in PROFILES:
        profile = build()
        name = profile["name"]
        assert name not in names, name
        names.add(name)
        path = out / f"{name}.json"
        text = render(profile)
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(path.name)
        else:
            path.write_text(text, encoding="utf-8")
    if args.check and stale:
        print("out of date: " + ", ".join(stale), file=sys.stderr)
        return 1
    print(f"{len(PROFILES)} profiles {'checked' if args.check else 'written'} in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
