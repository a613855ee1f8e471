# -*- coding: utf-8 -*-
"""GPU Setup Wizard benchmark (gpu-wizard/bench@1).

Run by the wizard as ``<python> -I bench.py [--quick] [--backend auto|tensorflow|torch]
[--threads N] [--sizes 512,1024] [--only matmul,train,data]`` in the environment being measured.
Never imported by the wizard. Standard library plus the framework the environment has.

It prints one JSON object per line on stdout, flushed at once, each with "bench" (the format)
and "type":

    hello     the backend, its version, the devices, the CPU threads, whether the build can run
              on the GPU ("gpu_support")
    progress  "fraction" (0..1 of the whole run) and "step" (what runs next)
    result    one measurement: "kind" matmul | train | data, "device" cpu | gpu, and its figures
              (matmul: "n", "dtype", "gflops"; train: "images_per_s"; data: "batches_per_s"),
              "median_s", "samples_s", "iqr_ratio", "repeats", "iters", "warmup_s"
    skip      a step that did not run, with "reason" (a code) and "detail"
    error     a step that failed, with "detail" (the run carries on)
    done      the end, with "seconds"

How it measures: each measured call is warmed up first (tracing, autotuning, XLA compilation and
cuBLAS handles are excluded) until two calls agree or a time limit; the device is synchronised
before the clock is read; the number of calls per sample is chosen so that a sample lasts about
``target_s``; several samples are taken and the median reported, with the interquartile range
over the median as a spread.
"""
from __future__ import print_function

import json
import os
import sys
import time
import traceback

BENCH_FORMAT = "gpu-wizard/bench@1"
STEP_LIMIT_S = 20.0


def emit(record_type, **fields):
    record = {"bench": BENCH_FORMAT, "type": record_type}
    record.update(fields)
    sys.stdout.write(json.dumps(record, sort_keys=True) + "\n")
    sys.stdout.flush()


def parse_args(argv):
    options = {"quick": False, "backend": "auto", "threads": 0, "sizes": None, "only": None}
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--quick":
            options["quick"] = True
        elif arg in ("--backend", "--threads", "--sizes", "--only") and i + 1 < len(argv):
            i += 1
            value = argv[i]
            if arg == "--threads":
                options["threads"] = int(value)
            elif arg == "--sizes":
                options["sizes"] = [int(v) for v in value.split(",") if v.strip()]
            elif arg == "--only":
                options["only"] = set(v.strip() for v in value.split(",") if v.strip())
            else:
                options["backend"] = value
        else:
            raise SystemExit("bench.py: unknown argument %r" % arg)
        i += 1
    return options


# -- timing -------------------------------------------------------------------------------------
class Timing(object):
    def __init__(self, quick):
        self.target_s = 0.15 if quick else 0.3
        self.repeats = 3 if quick else 5
        self.warmup_limit_s = 5.0 if quick else 15.0


def median(values):
    ordered = sorted(values)
    mid = len(ordered) // 2
    if len(ordered) % 2:
        return ordered[mid]
    return (ordered[mid - 1] + ordered[mid]) / 2.0


def quartiles(values):
    ordered = sorted(values)
    if len(ordered) < 4:
        return ordered[0], ordered[-1]
    half = len(ordered) // 2
    return median(ordered[:half]), median(ordered[-half:])


def measure(call, sync, timing, max_iters=100000):
    """Seconds per ``call()`` (the median over ``timing.repeats`` samples) and the details.

    Warm-up: call and sync until two consecutive calls agree within 15% (at least two calls,
    at most ``warmup_limit_s``); the first call's time is reported apart ("first_call_s": it
    holds tracing and compilation)."""
    started = time.perf_counter()
    times = []
    while True:
        t0 = time.perf_counter()
        call()
        sync()
        times.append(time.perf_counter() - t0)
        if len(times) >= 3 and abs(times[-1] - times[-2]) <= 0.15 * max(times[-1], times[-2]):
            break
        if len(times) >= 2 and time.perf_counter() - started > timing.warmup_limit_s:
            break
        if len(times) >= 12:
            break
    warmup_s = time.perf_counter() - started
    one = max(min(times[-2:]), 1e-7)
    iters = int(max(1, min(max_iters, round(timing.target_s / one))))
    samples = []
    for _ in range(timing.repeats):
        sync()
        t0 = time.perf_counter()
        for _ in range(iters):
            call()
        sync()
        samples.append((time.perf_counter() - t0) / iters)
    mid = median(samples)
    low, high = quartiles(samples)
    return mid, {
        "median_s": mid,
        "samples_s": samples,
        "iqr_ratio": (high - low) / mid if mid > 0 else None,
        "repeats": len(samples),
        "iters": iters,
        "warmup_s": round(warmup_s, 4),
        "first_call_s": round(times[0], 4),
    }


def flops_result(kind, n, seconds, details, **fields):
    gflops = 2.0 * n * n * n / seconds / 1e9 if seconds > 0 else None
    record = dict(details)
    record.update(fields)
    emit("result", kind=kind, n=n, gflops=gflops, **record)


def cpu_info(threads):
    return {"logical_cores": os.cpu_count(), "threads": threads,
            "machine": _platform_machine(), "pid": os.getpid()}


def _platform_machine():
    try:
        import platform

        return platform.processor() or platform.machine()
    except Exception:
        return None


class Plan(object):
    """The steps of a run, for the progress fraction."""

    def __init__(self, names):
        self.names = names
        self.index = 0

    def next(self, label):
        fraction = float(self.index) / max(1, len(self.names))
        self.index += 1
        emit("progress", fraction=round(fraction, 4), step=label)


# -- sizes --------------------------------------------------------------------------------------
def cpu_sizes(options):
    if options["sizes"]:
        return options["sizes"]
    return [512, 1024] if options["quick"] else [512, 1024, 2048]


def gpu_sizes(options, memory_bytes):
    if options["sizes"]:
        return options["sizes"]
    sizes = [1024, 4096] if options["quick"] else [1024, 2048, 4096, 8192]
    if memory_bytes:
        # three float32 matrices of n*n must fit in a third of the memory
        sizes = [n for n in sizes if 3 * 4 * n * n < memory_bytes / 3.0] or sizes[:1]
    return sizes


def wanted(options, step):
    return options["only"] is None or step in options["only"]


def arch_supported(cc, arch_list):
    """(True/False/None, reason): can a build whose arch list is ``arch_list`` ("sm_80",
    "compute_90", ...) run on compute capability ``cc`` ([major, minor])?"""
    if not cc or not arch_list:
        return None, ""
    value = cc[0] * 10 + cc[1]
    sass, ptx = [], []
    for arch in arch_list:
        arch = str(arch).lower()
        digits = "".join(ch for ch in arch.split("_")[-1] if ch.isdigit())
        if not digits:
            continue
        number = int(digits)
        if arch.startswith("compute"):
            ptx.append(number)
        else:
            sass.append(number)
    # SASS runs on the same major version at an equal or higher minor
    if any(s // 10 == cc[0] and s <= value for s in sass):
        return True, "sass"
    if any(p <= value for p in ptx) and cc[0] < 12:
        return True, "ptx"
    if cc[0] >= 12 and any(p <= value for p in ptx):
        return None, "ptx"  # PTX JIT to sm_120 is where TF's wheels fail; the tiny op decides
    return False, "none"


# -- TensorFlow ---------------------------------------------------------------------------------
def run_tensorflow(options, timing):
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    import tensorflow as tf

    threads = options["threads"] or 0
    if threads:
        tf.config.threading.set_intra_op_parallelism_threads(threads)
        tf.config.threading.set_inter_op_parallelism_threads(max(1, min(2, threads)))
    gpus = tf.config.list_physical_devices("GPU")
    for gpu in gpus:
        try:
            tf.config.experimental.set_memory_growth(gpu, True)
        except Exception:
            pass
    info = {}
    try:
        info = dict(tf.sysconfig.get_build_info())
    except Exception:
        pass
    archs = info.get("cuda_compute_capabilities") or []
    devices = []
    for gpu in gpus:
        details = {}
        try:
            details = tf.config.experimental.get_device_details(gpu)
        except Exception:
            pass
        cc = details.get("compute_capability")
        devices.append({"name": details.get("device_name"),
                        "compute_capability": list(cc) if cc else None})
    support = {"ok": None, "how": "", "arch_list": [str(a) for a in archs]}
    if devices:
        ok, how = arch_supported(devices[0]["compute_capability"], archs)
        support.update(ok=ok, how=how)
    emit("hello", backend="tensorflow", version=tf.__version__,
         built_with_cuda=bool(tf.test.is_built_with_cuda()), gpus=devices,
         cpu=cpu_info(threads or None), gpu_support=support,
         keras=_keras_version(tf), xla_available=True)
    use_gpu = bool(devices)
    if use_gpu and support["ok"] is not False:
        use_gpu = _tf_tiny_gpu_op(tf, support)
    elif use_gpu:
        emit("skip", step="gpu", device="gpu", reason="gpu_unsupported",
             detail="this TensorFlow build has no kernels for compute capability %s (built for %s)"
             % (_cc_text(devices[0]["compute_capability"]), ", ".join(support["arch_list"])))
        use_gpu = False
    elif not devices:
        emit("skip", step="gpu", device="gpu",
             reason="cpu_only_build" if not info.get("is_cuda_build") and
             not tf.test.is_built_with_cuda() else "no_gpu",
             detail="TensorFlow lists no GPU")

    steps = []
    if wanted(options, "matmul"):
        steps += [("matmul_cpu", n) for n in cpu_sizes(options)]
        if use_gpu:
            memory = None
            steps += [("matmul_gpu", n) for n in gpu_sizes(options, memory)]
            steps += [("xla", None)]
    if wanted(options, "train"):
        steps += [("train", False), ("train", True)]
    if wanted(options, "data"):
        steps += [("data", False), ("data", True)]
    plan = Plan(steps)
    for name, arg in steps:
        try:
            if name == "matmul_cpu":
                plan.next("matmul cpu n=%d" % arg)
                _tf_matmul(tf, "/CPU:0", "cpu", arg, "float32", timing, xla=False)
            elif name == "matmul_gpu":
                plan.next("matmul gpu n=%d" % arg)
                _tf_gpu_matmuls(tf, arg, devices[0], timing)
            elif name == "xla":
                plan.next("xla")
                n = max(gpu_sizes(options, None)) if not options["quick"] else 4096
                n = min(n, 4096)
                for jit in (False, True):
                    _tf_matmul(tf, "/GPU:0", "gpu", n, "float16", timing, xla=jit,
                               step="xla")
            elif name == "train":
                plan.next("train mixed=%s" % arg)
                _tf_train(tf, use_gpu, arg, options, timing)
            elif name == "data":
                plan.next("data tuned=%s" % arg)
                _tf_data(tf, arg, options, timing)
        except Exception as exc:
            emit("error", step=name, detail=_exc_text(exc))


def _keras_version(tf):
    try:
        return tf.keras.__version__
    except Exception:
        return None


def _cc_text(cc):
    return "%d.%d" % (cc[0], cc[1]) if cc else "?"


def _exc_text(exc):
    text = "%s: %s" % (type(exc).__name__, exc)
    return text[:2000]


def _tf_tiny_gpu_op(tf, support):
    """Run one small matmul on the GPU first: a build that cannot run there says so here."""
    try:
        with tf.device("/GPU:0"):
            a = tf.ones((64, 64))
            value = float(tf.reduce_sum(tf.matmul(a, a)).numpy())
        if abs(value - 64.0 * 64 * 64) > 1.0:
            raise RuntimeError("a 64x64 matmul of ones gave %r" % value)
        return True
    except Exception as exc:
        emit("skip", step="gpu", device="gpu", reason="gpu_unsupported",
             detail="a small matmul on the GPU failed: " + _exc_text(exc))
        return False


def _tf_sync(tf, probe):
    sync = getattr(getattr(tf.test, "experimental", None), "sync_devices", None)
    if sync is not None:
        def run():
            sync()
        return run

    def fallback():
        float(tf.reduce_sum(probe()[:1, :1]).numpy())
    return fallback


def _tf_matmul(tf, device, kind, n, dtype, timing, xla=False, step="matmul", tf32=None):
    with tf.device(device):
        tf_dtype = getattr(tf, dtype)
        a = tf.cast(tf.random.normal((n, n), stddev=1.0 / (n ** 0.5)), tf_dtype)
        b = tf.cast(tf.random.normal((n, n), stddev=1.0 / (n ** 0.5)), tf_dtype)
        box = {"c": a}
        if xla:
            compiled = tf.function(lambda x, y: tf.matmul(x, y), jit_compile=True)

            def call():
                box["c"] = compiled(a, b)
        else:
            def call():
                box["c"] = tf.matmul(a, b)
        sync = _tf_sync(tf, lambda: box["c"])
        seconds, details = measure(call, sync, timing)
    flops_result("matmul", n, seconds, details, device=kind, dtype=dtype, xla=xla, step=step,
                 tf32=tf32)


def _tf_gpu_matmuls(tf, n, device, timing):
    cc = device.get("compute_capability") or [0, 0]
    set_tf32 = tf.config.experimental.enable_tensor_float_32_execution
    try:
        set_tf32(False)
        _tf_matmul(tf, "/GPU:0", "gpu", n, "float32", timing, tf32=False)
    finally:
        set_tf32(True)
    if cc[0] >= 8:
        _tf_matmul(tf, "/GPU:0", "gpu", n, "float32", timing, tf32=True)
    else:
        emit("skip", step="matmul", device="gpu", n=n, dtype="float32", tf32=True,
             reason="no_tf32", detail="TF32 needs compute capability 8.0 or newer")
    _tf_matmul(tf, "/GPU:0", "gpu", n, "float16", timing)
    if cc[0] >= 8:
        _tf_matmul(tf, "/GPU:0", "gpu", n, "bfloat16", timing)
    else:
        emit("skip", step="matmul", device="gpu", n=n, dtype="bfloat16", reason="no_bf16",
             detail="bfloat16 has no Tensor Core path below compute capability 8.0")


def _tf_model(tf, image, classes):
    keras = tf.keras
    layers = keras.layers
    model = keras.Sequential([
        keras.Input(shape=(image, image, 3)),
        layers.Conv2D(32, 3, padding="same", activation="relu"),
        layers.Conv2D(32, 3, padding="same", activation="relu"),
        layers.MaxPooling2D(),
        layers.Conv2D(64, 3, padding="same", activation="relu"),
        layers.MaxPooling2D(),
        layers.Conv2D(128, 3, padding="same", activation="relu"),
        layers.GlobalAveragePooling2D(),
        layers.Dense(classes),
        layers.Activation("linear", dtype="float32"),
    ])
    model.compile(optimizer=keras.optimizers.SGD(0.01),
                  loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    return model


def _tf_train(tf, use_gpu, mixed, options, timing):
    device = "gpu" if use_gpu else "cpu"
    if mixed and not use_gpu:
        emit("skip", step="train", device="gpu", mixed_precision=True, reason="no_gpu",
             detail="mixed precision speeds up GPUs with Tensor Cores; on the CPU it is "
             "emulated and says nothing")
        return
    keras = tf.keras
    batch = 32 if options["quick"] else 64
    image = 32
    policy = keras.mixed_precision.global_policy()
    keras.mixed_precision.set_global_policy("mixed_float16" if mixed else "float32")
    try:
        with tf.device("/GPU:0" if use_gpu else "/CPU:0"):
            model = _tf_model(tf, image, 10)
            x = tf.random.uniform((batch, image, image, 3))
            y = tf.random.uniform((batch,), maxval=10, dtype=tf.int32)
            box = {}

            def call():
                box["loss"] = model.train_on_batch(x, y)

            def sync():
                float(box["loss"] if not isinstance(box["loss"], (list, tuple))
                      else box["loss"][0])
            seconds, details = measure(call, sync, timing, max_iters=1000)
    finally:
        keras.mixed_precision.set_global_policy(policy)
    record = dict(details)
    emit("result", kind="train", device=device, mixed_precision=bool(mixed), batch=batch,
         image=image, images_per_s=batch / seconds if seconds > 0 else None,
         steps_per_s=1.0 / seconds if seconds > 0 else None, **record)


def _tf_data(tf, tuned, options, timing):
    batch = 32
    image = 64
    batches = 8 if options["quick"] else 20

    def make(_):
        img = tf.random.uniform((image + 8, image + 8, 3))
        img = tf.image.random_crop(img, (image, image, 3))
        img = tf.image.random_flip_left_right(img)
        img = tf.image.adjust_brightness(img, 0.1)
        img = tf.image.resize(img, (image, image))
        return tf.cast(img * 255.0, tf.uint8)

    def pipeline():
        data = tf.data.Dataset.range(batch * batches * 2)
        if tuned:
            data = data.map(make, num_parallel_calls=tf.data.AUTOTUNE)
        else:
            data = data.map(make)
        data = data.batch(batch)
        if tuned:
            data = data.prefetch(tf.data.AUTOTUNE)
        return data

    def call():
        count = 0
        for _ in pipeline().take(batches):
            count += 1
        return count

    seconds, details = measure(call, lambda: None, timing, max_iters=50)
    record = dict(details)
    emit("result", kind="data", device="cpu", prefetch=bool(tuned), parallel_map=bool(tuned),
         batch=batch, image=image, batches_per_s=batches / seconds if seconds > 0 else None,
         **record)


# -- PyTorch ------------------------------------------------------------------------------------
def run_torch(options, timing):
    import torch

    threads = options["threads"] or 0
    if threads:
        torch.set_num_threads(threads)
    devices = []
    cuda = torch.cuda.is_available()
    if cuda:
        for index in range(torch.cuda.device_count()):
            props = torch.cuda.get_device_properties(index)
            devices.append({"name": props.name,
                            "compute_capability": [props.major, props.minor],
                            "memory_bytes": int(props.total_memory),
                            "sm_count": int(props.multi_processor_count)})
    archs = []
    try:
        archs = list(torch.cuda.get_arch_list())
    except Exception:
        pass
    support = {"ok": None, "how": "", "arch_list": archs}
    if devices:
        ok, how = arch_supported(devices[0]["compute_capability"], archs)
        support.update(ok=ok, how=how)
    emit("hello", backend="torch", version=torch.__version__,
         built_with_cuda=bool(torch.version.cuda), cuda=torch.version.cuda, gpus=devices,
         cpu=cpu_info(torch.get_num_threads()), gpu_support=support)
    use_gpu = bool(devices)
    if use_gpu and support["ok"] is False:
        emit("skip", step="gpu", device="gpu", reason="gpu_unsupported",
             detail="this PyTorch build has no kernels for compute capability %s (built for %s)"
             % (_cc_text(devices[0]["compute_capability"]), ", ".join(archs)))
        use_gpu = False
    elif use_gpu:
        try:
            a = torch.ones((64, 64), device="cuda")
            value = float((a @ a).sum().item())
            if abs(value - 64.0 ** 3) > 1.0:
                raise RuntimeError("a 64x64 matmul of ones gave %r" % value)
        except Exception as exc:
            emit("skip", step="gpu", device="gpu", reason="gpu_unsupported",
                 detail="a small matmul on the GPU failed: " + _exc_text(exc))
            use_gpu = False
    elif not devices:
        emit("skip", step="gpu", device="gpu",
             reason="no_gpu" if torch.version.cuda else "cpu_only_build",
             detail="PyTorch sees no CUDA device")
    steps = []
    if wanted(options, "matmul"):
        steps += [("matmul_cpu", n) for n in cpu_sizes(options)]
        if use_gpu:
            steps += [("matmul_gpu", n)
                      for n in gpu_sizes(options, devices[0].get("memory_bytes"))]
    if wanted(options, "train"):
        steps += [("train", False), ("train", True)]
    if wanted(options, "data"):
        steps += [("data", None)]
    plan = Plan(steps)
    for name, arg in steps:
        try:
            if name == "matmul_cpu":
                plan.next("matmul cpu n=%d" % arg)
                _torch_matmul(torch, "cpu", arg, "float32", timing)
            elif name == "matmul_gpu":
                plan.next("matmul gpu n=%d" % arg)
                cc = devices[0]["compute_capability"]
                _torch_matmul(torch, "cuda", arg, "float32", timing, tf32=False)
                if cc[0] >= 8:
                    _torch_matmul(torch, "cuda", arg, "float32", timing, tf32=True)
                else:
                    emit("skip", step="matmul", device="gpu", n=arg, dtype="float32", tf32=True,
                         reason="no_tf32", detail="TF32 needs compute capability 8.0 or newer")
                _torch_matmul(torch, "cuda", arg, "float16", timing)
                if cc[0] >= 8:
                    _torch_matmul(torch, "cuda", arg, "bfloat16", timing)
                else:
                    emit("skip", step="matmul", device="gpu", n=arg, dtype="bfloat16",
                         reason="no_bf16",
                         detail="bfloat16 has no Tensor Core path below compute capability 8.0")
            elif name == "train":
                plan.next("train mixed=%s" % arg)
                _torch_train(torch, use_gpu, arg, options, timing)
            elif name == "data":
                plan.next("data")
                emit("skip", step="data", device="cpu", reason="tensorflow_only",
                     detail="the input pipeline check uses tf.data")
        except Exception as exc:
            emit("error", step=name, detail=_exc_text(exc))


def _torch_sync(torch, device):
    if device == "cuda":
        return torch.cuda.synchronize
    return lambda: None


def _torch_matmul(torch, device, n, dtype, timing, tf32=None):
    old = None
    if device == "cuda":
        old = torch.backends.cuda.matmul.allow_tf32
        torch.backends.cuda.matmul.allow_tf32 = bool(tf32)
    try:
        kind = getattr(torch, dtype)
        a = (torch.randn((n, n), device=device) / (n ** 0.5)).to(kind)
        b = (torch.randn((n, n), device=device) / (n ** 0.5)).to(kind)
        c = torch.empty((n, n), device=device, dtype=kind)

        def call():
            torch.mm(a, b, out=c)
        with torch.no_grad():
            seconds, details = measure(call, _torch_sync(torch, device), timing)
    finally:
        if old is not None:
            torch.backends.cuda.matmul.allow_tf32 = old
    flops_result("matmul", n, seconds, details, device="gpu" if device == "cuda" else "cpu",
                 dtype=dtype, xla=False, step="matmul", tf32=tf32)


def _torch_train(torch, use_gpu, mixed, options, timing):
    if mixed and not use_gpu:
        emit("skip", step="train", device="gpu", mixed_precision=True, reason="no_gpu",
             detail="mixed precision speeds up GPUs with Tensor Cores; on the CPU it is "
             "emulated and says nothing")
        return
    nn = torch.nn
    device = "cuda" if use_gpu else "cpu"
    batch = 32 if options["quick"] else 64
    image = 32
    model = nn.Sequential(
        nn.Conv2d(3, 32, 3, padding=1), nn.ReLU(),
        nn.Conv2d(32, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(32, 64, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(64, 128, 3, padding=1), nn.ReLU(),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(128, 10),
    ).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    loss_fn = nn.CrossEntropyLoss()
    x = torch.rand((batch, 3, image, image), device=device)
    y = torch.randint(0, 10, (batch,), device=device)
    scaler = None
    if mixed:
        amp = getattr(torch, "amp", None)
        if amp is not None and hasattr(amp, "GradScaler"):
            scaler = amp.GradScaler("cuda")
        else:  # torch < 2.3
            scaler = torch.cuda.amp.GradScaler()

    def call():
        optimizer.zero_grad(set_to_none=True)
        if mixed:
            with torch.autocast("cuda", dtype=torch.float16):
                loss = loss_fn(model(x), y)
            scaler.scale(loss).backward()
            scaler.step(optimizer)
            scaler.update()
        else:
            loss = loss_fn(model(x), y)
            loss.backward()
            optimizer.step()
    seconds, details = measure(call, _torch_sync(torch, device), timing, max_iters=1000)
    emit("result", kind="train", device="gpu" if use_gpu else "cpu",
         mixed_precision=bool(mixed), batch=batch, image=image,
         images_per_s=batch / seconds if seconds > 0 else None,
         steps_per_s=1.0 / seconds if seconds > 0 else None, **details)


# -- main ---------------------------------------------------------------------------------------
def available(name):
    try:
        import importlib.util

        return importlib.util.find_spec(name) is not None
    except Exception:
        return False


def main(argv):
    started = time.perf_counter()
    try:
        options = parse_args(argv)
    except SystemExit as exc:
        emit("error", step="arguments", detail=str(exc))
        return 2
    timing = Timing(options["quick"])
    backend = options["backend"]
    if backend == "auto":
        if available("tensorflow"):
            backend = "tensorflow"
        elif available("torch"):
            backend = "torch"
        else:
            emit("error", step="import", reason="no_framework",
                 detail="neither TensorFlow nor PyTorch is installed in %s" % sys.executable)
            emit("done", seconds=round(time.perf_counter() - started, 3), ok=False)
            return 1
    try:
        if backend == "tensorflow":
            run_tensorflow(options, timing)
        elif backend == "torch":
            run_torch(options, timing)
        else:
            emit("error", step="arguments", detail="unknown backend %r" % backend)
            return 2
    except Exception as exc:
        emit("error", step="import", reason="import_failed", detail=_exc_text(exc),
             traceback=traceback.format_exc()[-4000:])
        emit("done", seconds=round(time.perf_counter() - started, 3), ok=False)
        return 1
    emit("progress", fraction=1.0, step="done")
    emit("done", seconds=round(time.perf_counter() - started, 3), ok=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
