# -*- coding: utf-8 -*-
"""GPU Setup Wizard environment probe (gpu-wizard/env-probe@1).

Run by the wizard as ``<python> -I env_probe.py`` in the Python environment being checked, with
TF_CPP_MIN_LOG_LEVEL=0. It prints ONE JSON object on stdout and never raises: every failure is
recorded in the object. It reports the interpreter, the installed packages, what TensorFlow (and
PyTorch) see, a matmul and a 2-D convolution placed on the first GPU (the CPU when there is none),
and everything the imports and the checks wrote to stderr, verbatim (the loader's own lines).

Rules for this file: standard library only, Python 3.7 syntax (it runs on 3.7 to 3.13), never
imported by the wizard itself.

While it runs it writes progress lines to the real stderr, which the wizard reads when the probe
hangs or crashes:
    gpu-wizard-probe: log <path>      the temporary file that receives the captured stderr
    gpu-wizard-probe: stage <name>    the step it is about to run
"""
from __future__ import print_function

import json
import os
import sys
import tempfile
import time
import traceback

PROBE_FORMAT = "gpu-wizard/env-probe@1"
MAX_LOG_CHARS = 8 * 1024 * 1024
TF_DISTRIBUTIONS = (
    "tensorflow",
    "tensorflow-cpu",
    "tensorflow-gpu",
    "tensorflow-intel",
    "tensorflow-macos",
    "tf-nightly",
    "tf-nightly-cpu",
    "tf-nightly-gpu",
    "tf-nightly-intel",
    "intel-tensorflow",
)
PACKAGES = TF_DISTRIBUTIONS + (
    "keras",
    "tf-keras",
    "numpy",
    "torch",
    "jax",
    "jaxlib",
    "tensorflow-io-gcs-filesystem",
    "tensorflow-directml-plugin",
    "nvidia-cudnn-cu11",
    "nvidia-cudnn-cu12",
    "nvidia-cuda-runtime-cu11",
    "nvidia-cuda-runtime-cu12",
    "nvidia-cublas-cu11",
    "nvidia-cublas-cu12",
)
ENV_NAMES = (
    "CUDA_VISIBLE_DEVICES",
    "LD_LIBRARY_PATH",
    "PATH",
    "CUDA_PATH",
    "CUDA_HOME",
    "CUDNN_PATH",
    "CONDA_PREFIX",
    "TF_CPP_MIN_LOG_LEVEL",
    "TF_FORCE_GPU_ALLOW_GROWTH",
    "TF_GPU_ALLOCATOR",
    "XLA_FLAGS",
    "PYTORCH_CUDA_ALLOC_CONF",
)

_real_stderr = None  # a file object on the original stderr, for progress lines


def _say(text):
    """A progress line on the real stderr; never fails."""
    try:
        if _real_stderr is not None:
            _real_stderr.write("gpu-wizard-probe: " + text + "\n")
            _real_stderr.flush()
    except Exception:
        pass


def _norm(name):
    return name.lower().replace("_", "-").replace(".", "-")


def _error_text(exc):
    text = "%s: %s" % (type(exc).__name__, exc)
    return text.strip()


# ----------------------------------------------------------------------------------------------
# Interpreter and packages
# ----------------------------------------------------------------------------------------------


def python_info():
    info = {
        "version": "%d.%d.%d" % tuple(sys.version_info[:3]),
        "bits": 64 if sys.maxsize > 2 ** 32 else 32,
        "executable": sys.executable,
        "prefix": sys.prefix,
        "base_prefix": getattr(sys, "base_prefix", sys.prefix),
        "conda": False,
        "venv": False,
        "implementation": getattr(getattr(sys, "implementation", None), "name", "cpython"),
        "platform": sys.platform,
    }
    try:
        info["conda"] = os.path.isdir(os.path.join(sys.prefix, "conda-meta"))
        info["venv"] = bool(
            hasattr(sys, "real_prefix") or info["base_prefix"] != sys.prefix
            or os.path.isfile(os.path.join(sys.prefix, "pyvenv.cfg"))
        )
    except Exception:
        pass
    try:
        import platform

        info["machine"] = platform.machine()
        info["system"] = platform.system()
    except Exception:
        pass
    return info


def add_user_site(info):
    """-I hides the user site-packages (pip install --user), which the user's own ``python``
    sees; add it back outside virtual environments so the probe finds the same packages."""
    try:
        import site

        if info.get("venv") or not hasattr(site, "getusersitepackages"):
            return None
        path = site.getusersitepackages()
        if path and os.path.isdir(path) and path not in sys.path:
            site.addsitedir(path)
            return path
    except Exception:
        pass
    return None


def _installed_via_metadata():
    """{normalised name: version} of every installed distribution, or None if unavailable."""
    metadata = None
    try:
        import importlib.metadata as metadata  # Python 3.8+
    except ImportError:
        try:
            import importlib_metadata as metadata  # the backport, when present
        except ImportError:
            metadata = None
    if metadata is None:
        return None
    found = {}
    for dist in metadata.distributions():
        try:
            name = dist.metadata["Name"]
            if name:
                found.setdefault(_norm(name), dist.version)
        except Exception:
            continue
    return found


def _installed_via_pkg_resources():
    try:
        import pkg_resources
    except Exception:
        return None
    found = {}
    for dist in pkg_resources.working_set:
        try:
            found.setdefault(_norm(dist.project_name), dist.version)
        except Exception:
            continue
    return found


def _installed_via_scan():
    """Last resort: read the *.dist-info / *.egg-info folders on sys.path."""
    found = {}
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except Exception:
            continue
        for folder in names:
            if not (folder.endswith(".dist-info") or folder.endswith(".egg-info")):
                continue
            base = folder.rsplit(".", 1)[0]
            parts = base.split("-")
            if len(parts) >= 2:
                found.setdefault(_norm(parts[0]), parts[1])
    return found


def installed_distributions():
    for reader in (_installed_via_metadata, _installed_via_pkg_resources, _installed_via_scan):
        try:
            found = reader()
        except Exception:
            found = None
        if found:
            return found
    return {}


def packages_info(installed):
    packages = {}
    for name in PACKAGES:
        packages[name] = installed.get(_norm(name))
    return packages


def nvidia_packages(installed):
    return dict(sorted((k, v) for k, v in installed.items() if k.startswith("nvidia-")))


def env_info():
    return dict((name, os.environ.get(name)) for name in ENV_NAMES)


def _module_present(name):
    try:
        import importlib.util

        return importlib.util.find_spec(name) is not None
    except Exception:
        return False


# ----------------------------------------------------------------------------------------------
# TensorFlow
# ----------------------------------------------------------------------------------------------


def _step(result, key, func):
    """Run ``func`` and store its value under ``key``; errors go to ``errors``."""
    _say("stage " + key)
    try:
        result[key] = func()
    except BaseException as exc:  # SystemExit from a broken build counts too
        if isinstance(exc, KeyboardInterrupt):
            raise
        result.setdefault("errors", {})[key] = _error_text(exc)


def _jsonable(value):
    if isinstance(value, dict):
        return dict((str(k), _jsonable(v)) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)


def _tf_gpus(tf):
    gpus = []
    for device in tf.config.list_physical_devices("GPU"):
        try:
            # the probe needs a few MB: do not reserve the whole GPU of a user who is training
            tf.config.experimental.set_memory_growth(device, True)
        except Exception:
            pass
        entry = {"name": device.name, "device_name": None, "compute_capability": None}
        try:
            details = tf.config.experimental.get_device_details(device)
            entry["device_name"] = details.get("device_name")
            cc = details.get("compute_capability")
            entry["compute_capability"] = list(cc) if cc else None
        except Exception as exc:
            entry["details_error"] = _error_text(exc)
        gpus.append(entry)
    return gpus


def _run_placed(tf, device, build):
    """Run one computation under ``tf.device(device)``; report where it ran."""
    result = {"ok": False, "device": None, "error": None, "requested": device}
    started = time.time()
    try:
        with tf.device(device):
            out = build()
        out.numpy()  # force execution, so asynchronous errors surface here
        result["ok"] = True
        result["device"] = getattr(out, "device", None)
    except BaseException as exc:
        if isinstance(exc, KeyboardInterrupt):
            raise
        result["error"] = _error_text(exc)
        sys.stderr.write("gpu-wizard-probe: %s on %s failed: %s\n" % ("computation", device,
                                                                      result["error"]))
    result["seconds"] = round(time.time() - started, 3)
    return result


def probe_tensorflow(installed):
    """The ``tensorflow`` block: None when TF is not installed."""
    if not any(installed.get(name) for name in TF_DISTRIBUTIONS) and not _module_present(
        "tensorflow"
    ):
        return None
    info = {
        "imported": False,
        "error": None,
        "version": None,
        "built_with_cuda": None,
        "build_info": None,
        "gpus": [],
        "matmul": None,
        "conv": None,
    }
    _say("stage import_tensorflow")
    started = time.time()
    try:
        import tensorflow as tf
    except BaseException as exc:
        if isinstance(exc, KeyboardInterrupt):
            raise
        info["error"] = _error_text(exc)
        info["traceback"] = traceback.format_exc()[-6000:]
        sys.stderr.write(info["traceback"])
        info["import_seconds"] = round(time.time() - started, 3)
        return info
    info["import_seconds"] = round(time.time() - started, 3)
    info["imported"] = True
    info["version"] = str(getattr(tf, "__version__", None))
    info["module_file"] = getattr(tf, "__file__", None)
    _step(info, "built_with_cuda", lambda: bool(tf.test.is_built_with_cuda()))
    _step(info, "build_info", lambda: _jsonable(dict(tf.sysconfig.get_build_info())))
    _step(info, "gpus", lambda: _tf_gpus(tf))
    try:
        info["keras_version"] = str(tf.keras.__version__)
    except Exception:
        pass
    device = "/GPU:0" if info.get("gpus") else "/CPU:0"
    _say("stage matmul")
    info["matmul"] = _run_placed(
        tf, device, lambda: tf.matmul(tf.ones((64, 64)), tf.ones((64, 64)))
    )
    _say("stage conv")
    info["conv"] = _run_placed(
        tf,
        device,
        lambda: tf.nn.conv2d(
            tf.ones((1, 16, 16, 3)), tf.ones((3, 3, 3, 4)), strides=1, padding="SAME"
        ),
    )
    return info


# ----------------------------------------------------------------------------------------------
# PyTorch
# ----------------------------------------------------------------------------------------------


def probe_torch(installed):
    if not installed.get("torch") and not _module_present("torch"):
        return None
    info = {
        "version": None,
        "cuda": None,
        "cudnn": None,
        "available": False,
        "devices": [],
        "arch_list": [],
        "error": None,
    }
    _say("stage import_torch")
    try:
        import torch
    except BaseException as exc:
        if isinstance(exc, KeyboardInterrupt):
            raise
        info["error"] = _error_text(exc)
        sys.stderr.write(traceback.format_exc()[-6000:])
        return info
    info["version"] = str(getattr(torch, "__version__", None))
    try:
        info["cuda"] = getattr(torch.version, "cuda", None)
    except Exception:
        pass
    try:
        info["cudnn"] = torch.backends.cudnn.version()
    except Exception as exc:
        info.setdefault("errors", {})["cudnn"] = _error_text(exc)
    try:
        info["arch_list"] = list(torch.cuda.get_arch_list())
    except Exception as exc:
        info.setdefault("errors", {})["arch_list"] = _error_text(exc)
    try:
        info["available"] = bool(torch.cuda.is_available())
        if info["available"]:
            for index in range(torch.cuda.device_count()):
                cc = torch.cuda.get_device_capability(index)
                info["devices"].append(
                    {
                        "index": index,
                        "name": torch.cuda.get_device_name(index),
                        "compute_capability": [cc[0], cc[1]],
                    }
                )
            out = torch.ones((64, 64), device="cuda") @ torch.ones((64, 64), device="cuda")
            info["matmul"] = {"ok": True, "device": str(out.device), "error": None}
    except Exception as exc:
        info["error"] = _error_text(exc)
    return info


# ----------------------------------------------------------------------------------------------
# stderr capture and main
# ----------------------------------------------------------------------------------------------


class StderrCapture(object):
    """Send fd 2 (C and Python writers alike) to a temporary file; restore it afterwards."""

    def __init__(self):
        self.path = None
        self.saved_fd = None
        self.handle = None

    def start(self):
        global _real_stderr
        try:
            sys.stderr.flush()
        except Exception:
            pass
        fd, self.path = tempfile.mkstemp(prefix="gpu-wizard-probe-", suffix=".log")
        self.handle = os.fdopen(fd, "w+b")
        self.saved_fd = os.dup(2)
        try:
            _real_stderr = os.fdopen(os.dup(self.saved_fd), "w")
        except Exception:
            _real_stderr = None
        _say("log " + self.path)
        os.dup2(self.handle.fileno(), 2)

    def stop(self):
        """Restore fd 2 and return the captured text (the temp file is removed)."""
        try:
            sys.stderr.flush()
        except Exception:
            pass
        if self.saved_fd is not None:
            os.dup2(self.saved_fd, 2)
            os.close(self.saved_fd)
            self.saved_fd = None
        text = ""
        try:
            self.handle.flush()
            self.handle.seek(0)
            data = self.handle.read()
            text = data.decode("utf-8", "replace")
            self.handle.close()
        except Exception as exc:
            text = "gpu-wizard-probe: could not read the captured log: %s" % _error_text(exc)
        try:
            os.remove(self.path)
        except Exception:
            pass
        return text


def _cap_log(text):
    if len(text) <= MAX_LOG_CHARS:
        return text
    half = MAX_LOG_CHARS // 2
    cut = len(text) - 2 * half
    return text[:half] + "\n[... gpu-wizard-probe: %d characters cut ...]\n" % cut + text[-half:]


def collect():
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "0")
    result = {
        "probe": PROBE_FORMAT,
        "python": None,
        "packages": {},
        "nvidia_packages": {},
        "env": {},
        "tensorflow": None,
        "torch": None,
        "log": "",
        "errors": {},
    }
    started = time.time()
    for key, func in (("python", python_info), ("env", env_info)):
        try:
            result[key] = func()
        except Exception as exc:
            result["errors"][key] = _error_text(exc)
    if result["python"]:
        result["python"]["user_site"] = add_user_site(result["python"])
    installed = {}
    try:
        installed = installed_distributions()
        result["packages"] = packages_info(installed)
        result["nvidia_packages"] = nvidia_packages(installed)
    except Exception as exc:
        result["errors"]["packages"] = _error_text(exc)
    try:
        import numpy  # noqa: F401 - only its version; a broken NumPy is recorded
        result["numpy_version"] = str(numpy.__version__)
    except BaseException as exc:
        if isinstance(exc, KeyboardInterrupt):
            raise
        result["numpy_version"] = None
        if installed.get("numpy"):
            result["errors"]["numpy"] = _error_text(exc)
    for key, func in (("tensorflow", probe_tensorflow), ("torch", probe_torch)):
        try:
            result[key] = func(installed)
        except BaseException as exc:
            if isinstance(exc, KeyboardInterrupt):
                raise
            result["errors"][key] = _error_text(exc)
    result["seconds"] = round(time.time() - started, 3)
    return result


def _ensure_std_fds():
    """A closed fd 0, 1 or 2 would be reused by os.dup and the JSON could land in the log."""
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            try:
                null = os.open(os.devnull, os.O_RDWR)
                if null != fd:
                    os.dup2(null, fd)
                    os.close(null)
            except OSError:
                pass


def main():
    _ensure_std_fds()
    real_stdout = None
    capture = StderrCapture()
    result = {"probe": PROBE_FORMAT, "errors": {}}
    try:
        sys.stdout.flush()
        # Whatever a library prints on stdout goes to the log, so stdout holds only our JSON.
        real_stdout = os.dup(1)
        capture.start()
        os.dup2(2, 1)
    except Exception as exc:
        result["errors"]["capture"] = _error_text(exc)
    early_errors = dict(result["errors"])
    try:
        result = collect()
        result.setdefault("errors", {}).update(early_errors)
    except BaseException as exc:  # noqa: B036 - the probe must always print its JSON
        result["errors"]["collect"] = _error_text(exc)
    try:
        sys.stdout.flush()
    except Exception:
        pass
    log = ""
    try:
        if real_stdout is not None:
            os.dup2(real_stdout, 1)
        if capture.path:
            log = capture.stop()
    except Exception as exc:
        result.setdefault("errors", {})["capture"] = _error_text(exc)
    result["log"] = _cap_log(log)
    try:
        text = json.dumps(result, ensure_ascii=True, default=str)
    except Exception as exc:
        text = json.dumps({"probe": PROBE_FORMAT, "errors": {"json": _error_text(exc)},
                           "log": result.get("log", "")}, ensure_ascii=True)
    try:
        out = os.fdopen(real_stdout, "w") if real_stdout is not None else sys.stdout
        out.write("\n" + text + "\n")
        out.flush()
    except Exception:
        sys.__stdout__.write("\n" + text + "\n")
        sys.__stdout__.flush()
    # TensorFlow's threads can hang interpreter shutdown; the answer is out, so leave now.
    os._exit(0)


if __name__ == "__main__":
    main()
