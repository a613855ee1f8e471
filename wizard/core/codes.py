"""The finding vocabulary (DESIGN section 6) and its English text, in one place.

Each code belongs to one layer and has an English message and fix summary, written as
``str.format`` templates over the finding's ``params``. The CLI and reports use this English;
the GUI maps the same codes to ``tr()`` text (``wizard/texts.py``). Add a code when a cause
needs its own fix; never reuse one for a different cause.
"""

from __future__ import annotations

import string
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Code:
    layer: str
    title: str
    message: str
    fix: str


CODES: dict[str, Code] = {
    "no_nvidia_gpu": Code(
        "gpu",
        "No NVIDIA GPU",
        "No NVIDIA graphics device was found on this machine{where}.",
        "TensorFlow can only use an NVIDIA GPU with CUDA. Use the CPU build, or run on a machine "
        "with an NVIDIA GPU.",
    ),
    "compute_capability_unsupported": Code(
        "gpu",
        "GPU not supported by this build",
        "{gpu} has compute capability {cc}, but {framework} {version} needs at least {min_cc}"
        "{max_note}.",
        "Use a {framework} release that supports compute capability {cc} ({advice}).",
    ),
    "gpu_without_driver": Code(
        "driver",
        "NVIDIA GPU without a driver",
        "The NVIDIA device {gpu} is present, but no NVIDIA driver serves it{problem}.",
        "Install the NVIDIA driver for {gpu} (at least {min_driver} for CUDA {cuda}), then "
        "restart.",
    ),
    "no_driver_or_nvidia_smi_missing": Code(
        "driver",
        "NVIDIA driver not running",
        "The NVIDIA driver is not installed or not loaded: {detail}.",
        "Install the NVIDIA driver (at least {min_driver} for CUDA {cuda}) and restart; on Linux "
        "check that the kernel module loads (DKMS after a kernel update, nouveau blacklisted).",
    ),
    "driver_too_old": Code(
        "driver",
        "Driver too old",
        "Driver {driver} supports CUDA up to {driver_cuda}, but the target needs CUDA {cuda}, "
        "which needs driver {min_driver} or newer.",
        "Update the NVIDIA driver to {min_driver} or newer.",
    ),
    "nvml_driver_library_mismatch": Code(
        "driver",
        "Driver/library version mismatch",
        "The NVIDIA user-space library and the loaded kernel module have different versions "
        "(usually after a driver update without a restart).",
        "Restart the machine; if that does not help, reinstall the driver.",
    ),
    "permission_denied_dev_nvidia": Code(
        "driver",
        "No permission for the GPU device",
        "This user cannot open {device}.",
        "Add the user to the group that owns {device} (often 'video' or 'render'), or fix the "
        "device permissions, then log in again.",
    ),
    "nvidia_uvm_not_loaded": Code(
        "driver",
        "nvidia-uvm not loaded",
        "/dev/nvidia-uvm is missing, so CUDA cannot initialise (cuInit fails).",
        "Load the module: sudo modprobe nvidia-uvm (and make it load at boot).",
    ),
    "wsl_gpu_missing": Code(
        "driver",
        "WSL sees no GPU",
        "This WSL distro cannot reach the GPU: {detail}.",
        "Install the NVIDIA driver on Windows (not inside WSL), use WSL 2 with a current kernel "
        "(wsl --update), and never install a Linux NVIDIA driver inside the distro.",
    ),
    "container_no_gpu_passthrough": Code(
        "driver",
        "Container without GPU access",
        "This looks like a container started without GPU access{detail}.",
        "Start the container with GPU access (docker run --gpus all, with the NVIDIA Container "
        "Toolkit installed on the host).",
    ),
    "cuda_not_installed": Code(
        "cuda",
        "CUDA Toolkit not installed",
        "No CUDA {cuda} was found, and TensorFlow {tensorflow} needs it.",
        "Install CUDA {cuda}: the CUDA Toolkit from NVIDIA's archive (skip its display driver if "
        "yours is newer), or on Linux/WSL2 the pip wheels of tensorflow[and-cuda]; the steps "
        "below say which.",
    ),
    "cuda_version_mismatch": Code(
        "cuda",
        "Wrong CUDA version",
        "CUDA {found} is installed, but TensorFlow {tensorflow} needs CUDA {cuda}.",
        "Install CUDA Toolkit {cuda} beside the other version and make it the one on PATH.",
    ),
    "cuda_not_on_path": Code(
        "cuda",
        "CUDA not on the library path",
        "CUDA {cuda} is installed in {path}, but {dir} is not on {variable}.",
        "Add {dir} to {variable} (and set CUDA_PATH), then open a new terminal.",
    ),
    "cudart_missing": Code(
        "cuda",
        "CUDA runtime not found",
        "The CUDA runtime {file} could not be loaded.",
        "Install the CUDA version that provides {file} ({cuda}) and put its library folder on "
        "the loader path.",
    ),
    "cuda_lib_other_missing": Code(
        "cuda",
        "CUDA library missing",
        "The CUDA library {file} could not be loaded.",
        "Install the matching CUDA Toolkit ({cuda}) completely, or the pip package that provides "
        "{file}, and put its library folder on the loader path.",
    ),
    "libdevice_or_ptxas_missing": Code(
        "cuda",
        "libdevice or ptxas missing",
        "XLA could not find {what}.",
        "Install the CUDA compiler parts (nvcc/ptxas, libdevice) or set "
        "XLA_FLAGS=--xla_gpu_cuda_data_dir=<CUDA folder>.",
    ),
    "cudnn_missing": Code(
        "cudnn",
        "cuDNN not found",
        "cuDNN {cudnn} was not found{file_note}.",
        "Download cuDNN {cudnn} for CUDA {cuda} and copy its bin, include and lib files into the "
        "CUDA folder; if it is already installed elsewhere, put the folder that holds its "
        "libraries on the loader path.",
    ),
    "cudnn_version_mismatch": Code(
        "cudnn",
        "Wrong cuDNN version",
        "cuDNN {found} was found{where}, but TensorFlow {tensorflow} needs cuDNN {cudnn}.",
        "Install cuDNN {cudnn} for CUDA {cuda}, and remove or move older copies that come "
        "first on the loader path.",
    ),
    "cudnn_partial_install": Code(
        "cudnn",
        "cuDNN incompletely installed",
        "cuDNN {found} in {path} is incomplete: {missing} missing.",
        "Copy every file from the cuDNN archive's folders again (bin, include and lib on "
        "Windows; include and lib on Linux).",
    ),
    "zlibwapi_missing": Code(
        "cudnn",
        "zlibwapi.dll missing",
        "cuDNN {found} on Windows needs zlibwapi.dll, which was not found on PATH.",
        "Install the 64-bit zlibwapi.dll into the CUDA bin folder.",
    ),
    "tensorflow_not_installed": Code(
        "tensorflow",
        "TensorFlow not installed",
        "TensorFlow is not installed in {python}.",
        "Install it: {command}",
    ),
    "windows_native_tf_2_11_plus": Code(
        "tensorflow",
        "No GPU support on native Windows",
        "TensorFlow {version} has no GPU support on native Windows (the last release with it "
        "was 2.10).",
        "Either install TensorFlow 2.10 in a Python 3.7-3.10 environment, or use WSL2 with the "
        "current TensorFlow.",
    ),
    "gpu_not_listed_cpu_only_package": Code(
        "tensorflow",
        "CPU-only build installed",
        "{package} {version} is a CPU-only build, so it cannot use the GPU.",
        "Replace it with the GPU build: {command}",
    ),
    "python_version_unsupported": Code(
        "tensorflow",
        "Python version not supported",
        "Python {found} cannot run TensorFlow {tensorflow} (it needs Python {python}).",
        "Create an environment with Python {python}.",
    ),
    "numpy_abi_mismatch": Code(
        "tensorflow",
        "NumPy 2 with a TensorFlow built for NumPy 1",
        "NumPy {numpy} is installed, but TensorFlow {tensorflow} was built for NumPy 1.",
        "Install NumPy 1: pip install \"numpy<2\"",
    ),
    "tf_conflicting_packages": Code(
        "tensorflow",
        "Several TensorFlow packages installed",
        "Several TensorFlow distributions are installed at once: {packages}.",
        "Uninstall all of them, then install only the one you need.",
    ),
    "cudnn_handle_oom": Code(
        "tensorflow",
        "GPU memory exhausted while creating cuDNN/cuBLAS handles",
        "cuDNN or cuBLAS could not initialise, almost always because GPU memory is taken.",
        "Enable memory growth (TF_FORCE_GPU_ALLOW_GROWTH=true), close other programs using the "
        "GPU, or use a smaller batch.",
    ),
    "operation_not_supported": Code(
        "tensorflow",
        "Operation not supported",
        "The GPU reported 'operation not supported' (usually cudaMallocAsync on a laptop or "
        "virtual GPU).",
        "Use the default allocator (unset TF_GPU_ALLOCATOR=cuda_malloc_async; for ComfyUI "
        "--disable-cuda-malloc).",
    ),
    "cuda_visible_devices_misconfigured": Code(
        "tensorflow",
        "CUDA_VISIBLE_DEVICES hides the GPU",
        "CUDA_VISIBLE_DEVICES={value} hides every GPU or is malformed.",
        "Unset CUDA_VISIBLE_DEVICES or set it to GPU indices such as 0 or 0,1.",
    ),
    "windows_dll_dependency_missing": Code(
        "tensorflow",
        "A DLL dependency is missing",
        "{file} or one of its dependencies could not be loaded.",
        "Install the latest Microsoft Visual C++ Redistributable (x64), then restart.",
    ),
    "numa_or_harmless_warning": Code(
        "tensorflow",
        "Only harmless messages",
        "The log only holds harmless messages (NUMA, TensorRT, CPU instructions, cuBLAS "
        "factory).",
        "Nothing to fix for these lines.",
    ),
    "check_failed": Code(
        "tensorflow",
        "Check could not run",
        "This check could not run: {error}.",
        "Report this as a bug with the output of gpu-wizard check --markdown.",
    ),
    "probe_failed": Code(
        "tensorflow",
        "Environment probe failed",
        "The Python environment {python} could not be checked: {error}",
        "{next_step}",
    ),
    "python_32bit": Code(
        "tensorflow",
        "32-bit Python",
        "{python} is a 32-bit Python {version}; TensorFlow needs a 64-bit Python.",
        "Install a 64-bit Python {python_range} and create the environment with it.",
    ),
    "gpu_computation_failed": Code(
        "tensorflow",
        "Computation on the GPU failed",
        "TensorFlow lists the GPU, but the {step} on {device} failed: {error}",
        "Read the error above; the log of the check shows what the loader printed before it.",
    ),
}


STEPS: dict[str, str] = {
    "run": "Run: {command}",
    "download": "Download {what} from {url}",
    "restart": "Restart the computer.",
    "new_terminal": "Open a new terminal so it sees the changed environment.",
    "set_env": "Set {name} to {value}",
    "add_to_path": "Add {dir} to {variable}",
    "install_driver": "Install NVIDIA driver {min_driver} or newer for {gpu}.",
    "install_cuda": "Install CUDA Toolkit {cuda}; in the installer choose Custom and untick the "
    "display driver if yours is newer.",
    "copy_cudnn": "Copy cuDNN's bin, include and lib files into {dest}.",
    "move_path_entry": "Move {dir} before {other} in {variable}, or remove {other} from it.",
    "copy_missing_files": "Copy {files} from the cuDNN {version} archive into {dir}.",
    "or_conda": "Or, instead, in this conda environment: {command}",
    "text": "{text}",
}


class _Missing(dict):
    def __missing__(self, key: str) -> str:
        return "?"


def _render(template: str, params: dict[str, Any]) -> str:
    values = _Missing({k: ("" if v is None else v) for k, v in params.items()})
    return template.format_map(values)


def layer_of(code: str) -> str:
    return CODES[code].layer if code in CODES else "tensorflow"


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def choose_template(primary: str, fallbacks: tuple[str, ...], params: dict[str, Any]) -> str:
    """The first of ``primary`` and its fallbacks whose fields all have values in ``params``;
    ``primary`` (rendered with ``?`` for the gaps) when none has."""
    for template in (primary, *fallbacks):
        if all(params.get(name) is not None for name in _fields(template)):
            return template
    return primary


def render_message(code: str, params: dict[str, Any]) -> str:
    entry = CODES.get(code)
    if not entry:
        return code
    return _render(choose_template(entry.message, MESSAGE_FALLBACKS.get(code, ()), params), params)


def render_fix_summary(code: str, params: dict[str, Any]) -> str:
    entry = CODES.get(code)
    if not entry:
        return ""
    return _render(choose_template(entry.fix, FIX_FALLBACKS.get(code, ()), params), params)


def render_step(key: str, params: dict[str, Any]) -> str:
    return _render(STEPS.get(key, "{text}"), params)


# Fallback templates for findings that know less than a layer does, above all those read from an
# error log by ``explain`` (no machine facts: no driver version, no target). render_message and
# render_fix_summary use the first template, primary first, whose fields all have values.
MESSAGE_FALLBACKS: dict[str, tuple[str, ...]] = {
    "cudart_missing": ("The CUDA runtime library (cudart) could not be loaded.",),
    "cuda_lib_other_missing": (
        "A CUDA library (cuBLAS, cuFFT, cuSOLVER, ...) could not be loaded.",
    ),
    "cudnn_missing": (
        "cuDNN {cudnn} was not found: {file} could not be loaded.",
        "cuDNN was not found: {file} could not be loaded.",
        "cuDNN {cudnn} was not found.",
        "cuDNN was not found by the loader.",
    ),
    "cudnn_version_mismatch": (
        "cuDNN {found} was loaded, but this build was compiled with cuDNN {expected}.",
        "cuDNN {found} was loaded, but this build needs a different cuDNN version.",
        "The cuDNN that was loaded is not the version this build needs.",
    ),
    "cudnn_partial_install": (
        "cuDNN is incompletely installed: {file} could not be loaded.",
        "cuDNN is incompletely installed.",
    ),
    "zlibwapi_missing": (
        "cuDNN on Windows (8.3-8.9) needs zlibwapi.dll, which could not be loaded.",
    ),
    "driver_too_old": (
        "The NVIDIA driver supports CUDA up to {driver_cuda}, but the program needs CUDA {cuda}.",
        "The NVIDIA driver supports only CUDA up to {driver_cuda}, older than the program needs.",
        "The NVIDIA driver is older than the CUDA {cuda} this program was built with.",
        "The NVIDIA driver is older than the CUDA version this program was built with.",
    ),
    "no_driver_or_nvidia_smi_missing": (
        "The NVIDIA driver is loaded but does not answer: {what}.",
        "The NVIDIA driver is not installed or not loaded.",
    ),
    "compute_capability_unsupported": (
        "{gpu} has compute capability {cc}, but this {framework} build needs at least {min_cc}.",
        "{gpu} with compute capability {cc} is not supported by the installed {framework} build.",
        "The installed build has no GPU code for this GPU's compute capability (the GPU is too "
        "old or too new for it).",
    ),
    "gpu_not_listed_cpu_only_package": (
        "{package} is a CPU-only build, so it cannot use the GPU.",
        "A CPU-only build is installed, so it cannot use the GPU.",
    ),
    "windows_dll_dependency_missing": (
        "A DLL or one of its dependencies could not be loaded.",
    ),
    "cuda_visible_devices_misconfigured": (
        "CUDA_VISIBLE_DEVICES hides every GPU or names one that does not exist.",
    ),
    "python_version_unsupported": (
        "Python {found} cannot run TensorFlow {tensorflow}.",
        "pip found no TensorFlow build for this Python (its version is not supported, or it is "
        "a 32-bit Python).",
    ),
    "numpy_abi_mismatch": (
        "NumPy {numpy} is installed, but this TensorFlow (or another compiled package) was built "
        "for NumPy 1.",
    ),
    "wsl_gpu_missing": ("This WSL distro cannot reach the GPU.",),
    "container_no_gpu_passthrough": ("This looks like a container started without GPU access.",),
    "windows_native_tf_2_11_plus": (
        "TensorFlow 2.11 and later have no GPU support on native Windows (the last release with "
        "it was 2.10).",
    ),
    "libdevice_or_ptxas_missing": ("XLA could not find libdevice or ptxas.",),
    "permission_denied_dev_nvidia": ("This user cannot open the NVIDIA devices (/dev/nvidia*).",),
}

FIX_FALLBACKS: dict[str, tuple[str, ...]] = {
    "probe_failed": (
        "Run {python} -c \"import tensorflow\" in a terminal to see the error, or choose another "
        "environment with --python.",
    ),
    "cudart_missing": (
        "Install the CUDA version that provides {file} and put its library folder on the loader "
        "path.",
        "Install the CUDA runtime this build needs (on Linux/WSL2: pip install "
        "\"tensorflow[and-cuda]\"; on Windows the CUDA Toolkit from the TensorFlow table) and "
        "put its library folder on the loader path.",
    ),
    "cuda_lib_other_missing": (
        "Install the matching CUDA Toolkit completely, or the pip package that provides {file}, "
        "and put its library folder on the loader path.",
        "Install the matching CUDA Toolkit completely and put its library folder on the loader "
        "path.",
    ),
    "cudnn_missing": (
        # a layer leaves out "cuda" to pick one of the next two: the pip wheel (tensorflow[and-
        # cuda]) and a cuDNN that is installed, but in a folder the loader does not search
        "Install cuDNN {cudnn} as a pip wheel, with the CUDA wheels TensorFlow needs: {command}",
        "cuDNN {cudnn} is installed in {path}, but the loader does not search that folder: add "
        "it to {variable}, then open a new terminal.",
        # Linux and WSL2 (explain sets cuda_folder there): a tar archive has no bin folder
        "Install cuDNN {cudnn} for your CUDA version: copy the include and lib files of NVIDIA's "
        "tar archive into {cuda_folder}/include and {cuda_folder}/lib64, or install it as a pip "
        "wheel (nvidia-cudnn-cu11 or nvidia-cudnn-cu12) and put the wheel's lib folder on "
        "LD_LIBRARY_PATH.",
        "Install the cuDNN version your TensorFlow needs: copy the include and lib files of "
        "NVIDIA's tar archive into {cuda_folder}/include and {cuda_folder}/lib64, or install it "
        "as a pip wheel (nvidia-cudnn-cu11 or nvidia-cudnn-cu12) and put the wheel's lib folder "
        "on LD_LIBRARY_PATH.",
        "Download cuDNN {cudnn} for your CUDA version and copy its bin, include and lib files "
        "into the CUDA folder.",
        "Download the cuDNN version your TensorFlow needs and copy its bin, include and lib files "
        "into the CUDA folder.",
    ),
    "cudnn_version_mismatch": (
        "Install cuDNN {expected} (same major version, equal or newer minor), and remove or move "
        "older copies that come first on the loader path.",
        "Install the cuDNN version this build needs, and remove or move older copies that come "
        "first on the loader path.",
    ),
    "driver_too_old": (
        "Update the NVIDIA driver to one that supports CUDA {cuda}.",
        "Update the NVIDIA driver (or install a build of the program made for an older CUDA).",
    ),
    "no_driver_or_nvidia_smi_missing": (
        # a driver that is loaded but hung (the driver layer leaves out "min_driver")
        "Restart the machine: the driver for {gpu} does not answer (hung, often after a GPU "
        "error; the kernel log names it as an Xid). If it happens again, reinstall the driver "
        "and check the GPU's power and cooling.",
        "Install the NVIDIA driver and restart; on Linux check that the kernel module loads "
        "(DKMS after a kernel update, nouveau blacklisted).",
    ),
    "compute_capability_unsupported": (
        "Use a {framework} release that supports compute capability {cc}.",
        "Use a release built for your GPU's compute capability: a newer build for a new GPU, an "
        "older one (or a source build) for an old GPU.",
    ),
    "gpu_not_listed_cpu_only_package": (
        "Uninstall the CPU-only {package} and install its GPU build (PyTorch: the CUDA wheel "
        "from pytorch.org; TensorFlow on Linux/WSL2: pip install \"tensorflow[and-cuda]\").",
    ),
    "python_version_unsupported": (
        "Create a 64-bit environment with a Python version the TensorFlow release supports "
        "(see gpu-wizard compat).",
    ),
}
