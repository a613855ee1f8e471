"""The development / test split of the explain corpus (data/explain-corpus/*.jsonl), by thread.

Every log of one thread (its ``source``, e.g. ``tensorflow/tensorflow#48868``) falls on the same
side, decided by a hash of the thread alone, so the split was fixed before any log was collected
and before any signature was written for it. Tune signatures on the development part only;
``benchmarks/explain_accuracy.py --part test`` reports the test part's accuracy without listing
its logs. The old labelled samples (data/error-samples.jsonl) were tuned on: their threads always
count as development.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from wizard.core.similar_reports import thread_of

__all__ = ["ROUNDS", "load", "part_of", "thread_of"]

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO / "data" / "explain-corpus"
OLD_SAMPLES = REPO / "data" / "error-samples.jsonl"
TEST_SHARE = 3  # one thread in three is test
ROUNDS = {
    "tf": "rounds 1-3", "other": "rounds 1-3", "gaps": "rounds 1-3", "forums": "rounds 1-3",
    "cudalibs": "round 4", "cudnn_oom": "round 4", "nogpu": "round 4", "install": "round 4",
    "tf2": "round 5", "torch2": "round 5", "apps2": "round 5", "pages2": "round 5",
    "zh": "round 6", "win": "round 6", "drivers": "round 6", "jaxconda": "round 6",
    "hpc_cloud": "round 7", "desktop": "round 7",
    "linuxdesk": "round 8", "mlapps": "round 8", "tfprojects": "round 8", "pages3": "round 8",
    "intl": "round 8", "langs": "round 8", "render": "round 8",
    "ja": "round 9", "audio": "round 9", "robotics": "round 9", "bio": "round 9",
    "neural3d": "round 9", "hosted": "round 9",
    "winapps": "round 10", "llmserve": "round 10", "intl2": "round 10", "research": "round 10",
    "compute": "round 10",
    "vision": "round 11", "nlp": "round 11", "tabular": "round 11", "rlsim": "round 11",
    "wsl": "round 11", "feedstock": "round 11",
    "cupy": "round 12", "homelab": "round 12", "medical": "round 12", "videoup": "round 12",
    "kerasauto": "round 12", "tensorrt": "round 12",
    "cudaext": "round 13", "edu": "round 13", "genai": "round 13", "distrib": "round 13",
    "ocr": "round 14", "structbio": "round 14", "serving": "round 14",
    "tfbind": "round 16", "faces": "round 16", "onnxrt": "round 16", "tfnew": "round 16",
    "finetune": "round 16", "detect": "round 16", "nvsdk": "round 16", "notebooks": "round 16",
    "sciml": "round 16", "solvedtf": "round 16", "solvedtorch": "round 16",
    "solvedsys": "round 16", "zh2": "round 16", "mlops": "round 16", "tf1era": "round 16",
    "pkgmgr": "round 16", "cudabuilds": "round 16",
    "virt": "round 17", "rustml": "round 17", "oldfw": "round 17", "geo": "round 17",
    "newhw": "round 18", "pages4": "round 18", "rarecodes": "round 18",
    "cloudgpu": "round 18", "localllm": "round 18", "oldgpu": "round 18", "simgfx": "round 18",
    "voice": "round 18", "gbdt": "round 18", "k8sgpu": "round 18", "pointcloud": "round 18",
    "posetrack": "round 18", "streaming": "round 18",
    "cnfw": "round 19", "forecast": "round 19", "mdsim": "round 19", "nvmon": "round 19",
    "hfeco": "round 19", "sdwebui": "round 19",
    "crunch": "round 20", "otherlangs": "round 20", "pydata": "round 20", "tfrecent": "round 20",
    "creative": "round 20",
    "kernlibs": "round 21", "wslgpu": "round 21", "kerasx": "round 21", "visiontk": "round 21",
    "nvlabs": "round 21", "mltools": "round 21", "oldfw2": "round 21", "jaxeco": "round 21",
    "distros": "round 21", "torchx": "round 21", "gpubench": "round 21", "hwsetup": "round 21",
    "recsys": "round 21", "quantum": "round 21", "physim": "round 21", "llmapps": "round 21",
    "difftrain": "round 21", "srcbuild": "round 21", "jaxgpu": "round 21",
    "torchgpu": "round 21", "ctkit": "round 21", "jetson": "round 21",
    "tfsci": "round 22", "tfaudio": "round 22", "crackers": "round 22", "volunteer": "round 22",
    "ideenv": "round 22", "quantlibs": "round 22", "nvforums": "round 22", "discuss": "round 22",
    "tfeco": "round 22", "torcheco": "round 22", "openmmlab": "round 22", "win2": "round 22",
    "whisper": "round 22", "cryoem": "round 22", "jvmml": "round 22", "videoai": "round 22",
    "graphml": "round 22", "llmtrain": "round 22",
}
"""The collection round of each file of data/explain-corpus: rounds 1-3 are the 415 logs the
first tuning saw; round 4 was gathered for the causes that are hard to tell apart, round 5 for
breadth (TensorFlow, PyTorch and other frameworks, apps and containers, forums), round 6 for
threads in Chinese, native Windows, Linux drivers, and JAX/conda/WSL2/other CUDA users, round
7 for clusters, clouds and Jetson boards, and desktop machines and apps, round 8 for Linux
desktops and their drivers, ML applications, projects built on TensorFlow, forum pages, threads
in other languages, CUDA from other programming languages, and rendering and science apps,
round 9 for threads in Japanese, audio and speech apps, robotics and 3D perception, biology and
science tools, neural rendering, and hosted and distributed training, round 10 for Windows
desktop apps, LLM inference servers, threads in Spanish, Portuguese, Russian and other languages,
research code, and volunteer and number-crunching compute, round 11 for computer vision, NLP
and transformer projects, GPU tabular and data-science libraries, reinforcement learning and
simulators, WSL2 and Docker Desktop, and packaging (conda-forge, distribution packages), round
12 for GPU array libraries (CuPy, Numba), home-server apps in containers, medical imaging,
video upscaling apps, the Keras ecosystem and AutoML, and TensorRT and inference servers, round
13 for compiled CUDA extensions (flash-attention, xformers, apex, mmcv, spconv, PyG's
libraries), courses and notebooks, generative image and video apps and their plugins, and
multi-GPU and distributed training, round 14 for OCR and document AI, structural biology and
chemistry, and model serving, round 16 for TensorFlow from other languages, face apps, ONNX
Runtime, TensorFlow's pip CUDA wheels, LLM fine-tuning, object detection, NVIDIA's SDKs,
notebooks, scientific ML, threads whose reporter wrote the fix into the opening post, threads
in Chinese, ML platforms, TensorFlow 1.x era projects, package managers and libraries built
with CUDA, round 17 for threads outside the usual regions, old frameworks (Caffe, Darknet),
clouds and virtual machines, and TensorFlow from Rust and JavaScript, round 18 for the newest
GPUs and CUDA releases, web pages, the causes with few rows, rented GPUs, old GPUs, local LLM
runners, voice apps, simulation and graphics, clusters, 3D perception, pose and tracking, GPU
machine learning beyond deep learning, and video streaming, round 19 for frameworks from China
and less common ones, forecasting and AutoML, molecular dynamics and physics engines, and GPU
monitoring tools, round 20 for non-ML CUDA programs, other languages, the Python GPU data
stack, recent TensorFlow and creative desktop apps, round 21 for GPU kernel libraries (xFormers,
Triton, bitsandbytes' kin), WSL2, the Keras ecosystem, vision toolkits, NVIDIA research code,
ML toolkits, older frameworks, the JAX ecosystem, distribution packages, PyTorch's 3D and audio
libraries, GPU benchmarks, the machine's hardware set-up, recommenders, quantum simulators,
physics codes, self-hosted LLM apps, diffusion training tools, builds from source, JAX and
PyTorch's own threads, the container toolkit and Jetson boards (round 15 added no logs). Each
round's development logs were explained once before any signature was written from them."""


def _old_threads() -> set[str]:
    if not OLD_SAMPLES.exists():
        return set()
    rows = [json.loads(line) for line in OLD_SAMPLES.read_text(encoding="utf-8").splitlines()
            if line.strip()]
    return {thread_of(row.get("source", "")) for row in rows}


def part_of(source: str, old_threads: frozenset[str] | set[str] = frozenset()) -> str:
    """``"dev"`` or ``"test"`` for a log from ``source``."""
    thread = thread_of(source)
    if thread in old_threads:
        return "dev"
    digest = hashlib.sha256(thread.encode("utf-8")).hexdigest()
    return "test" if int(digest[:8], 16) % TEST_SHARE == 0 else "dev"


def load(part: str | None = None) -> list[dict]:
    """The corpus rows (every file of data/explain-corpus), each with its ``part``; only
    ``part``'s rows when one is given."""
    old = _old_threads()
    rows: list[dict] = []
    for path in sorted(CORPUS.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                row["part"] = part_of(row["source"], old)
                row["collection"] = path.stem
                rows.append(row)
    return [row for row in rows if part is None or row["part"] == part]


if __name__ == "__main__":
    from collections import Counter

    everything = load()
    print(Counter(row["part"] for row in everything), len(everything), "logs,",
          len({thread_of(row["source"]) for row in everything}), "threads")
