"""How long `gpu-wizard explain` takes, and how much memory, on inputs that are not ordinary
logs: 50 MB of random bytes (refused as binary), a 50 MB UTF-16 log (read as its head and tail).

    python benchmarks/explain_input.py [--size-mb 50]
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from wizard.core import explain  # noqa: E402

ERROR = ("W dso_loader.cc:64] Could not load dynamic library 'cudnn64_8.dll'; dlerror: "
         "cudnn64_8.dll not found\n")
NOISE = "Epoch 1/10 120/1875 [>.....] - ETA: 1:23 - loss: 2.3041 - accuracy: 0.1172\n"


def timed(path: str) -> str:
    started = time.perf_counter()
    try:
        findings = explain.explain_log(explain.read_log_file(path))
        outcome = ", ".join(f.code for f in findings) or "no finding"
    except explain.NotTextLog as exc:
        outcome = f"refused: {exc}"
    return f"{time.perf_counter() - started:.2f} s -> {outcome}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size-mb", type=int, default=50)
    size = parser.parse_args().size_mb * 1024 * 1024
    with tempfile.TemporaryDirectory() as folder:
        binary = os.path.join(folder, "random.bin")
        Path(binary).write_bytes(random.Random(1).randbytes(size))
        print(f"{size >> 20} MB random bytes: {timed(binary)}")
        text = os.path.join(folder, "utf16.log")
        Path(text).write_bytes((NOISE * (size // 2 // len(NOISE)) + ERROR).encode("utf-16"))
        print(f"{size >> 20} MB UTF-16 log:   {timed(text)}")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    print(f"peak memory of this process: {peak} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
