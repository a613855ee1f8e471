"""Find English that would reach a Chinese reader: every text of every profile's report (and of
``explain`` on the sample logs), looked at as messages.

A problem is one of:
* ``text``: a summary, step, link title or reason that is a plain string, not a Message;
* ``word``: an English word in a zh_CN template that is not a product or technical name;
* ``prose``: a param whose value is an English sentence rather than a value or a sub-message.

Run ``python tests/core/catalogue_audit.py [FILTER]`` to list them (FILTER: a substring of the
place, e.g. a layer name or ``explain``); ``tests/core/test_zh_complete.py`` asserts there are none.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[2]
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

from wizard.core import messages  # noqa: E402
from wizard.core.messages import Message  # noqa: E402

PROFILES_DIR = REPO_ROOT / "tests" / "profiles"
EXPLAIN_LOGS = REPO_ROOT / "tests" / "core" / "explain_variants.jsonl"

def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Names a Chinese text keeps in Latin letters: products, files, tools, variables, units.
ALLOWED_WORDS = _words("""
NVIDIA GPU GPUs CPU CUDA cuDNN cudnn TensorFlow tensorflow PyTorch torch Python python pip conda
Anaconda Miniconda miniconda venv Keras keras NumPy numpy JAX XLA TensorRT WSL WSL2 Windows Linux
Ubuntu Debian macOS NVML nvml PATH LD_LIBRARY_PATH CUDA_PATH CUDA_VISIBLE_DEVICES CUDA_HOME
gcc CMake BIOS UEFI MUX DLL DLLs dll PCI PCIe DKMS dkms nouveau Secure Boot MOK mokutil nvidia smi
nvidia-smi nvcc ptxas libdevice cudart cuBLAS cuFFT cuSOLVER cuSPARSE cuRAND NCCL zlibwapi zlib
Visual Microsoft Redistributable VC x64 x86 ARM64 aarch64 Xid GiB MiB MB GB KB Hz MHz W ID UUID
OK API SDK CLI GUI JSON URL HTTP HTTPS SSH ROCm AMD Intel Arc Iris UHD Radeon Store App
Docker Podman Kubernetes container toolkit Container Toolkit Toolkit runtime Runtime
exe bin lib include lib64 dev uvm modprobe sudo apt dnf yum usermod video render initramfs
Program Files ProgramData System32 SysWOW64 Scripts Library mingw usr local opt proc driver
tf tf_keras and cuda cu11 cu12 cu13 py launcher PEP Tesla GeForce Quadro RTX GTX TITAN Max Q Jetson
Laptop Mobile LD ldconfig where setx reg REG_SZ REG_EXPAND_SZ HKLM HKCU Path Environment
activate deactivate install uninstall import bit batch size wheel tar zip UAC true false
Blackwell Hopper Ada Ampere Turing Volta Pascal Maxwell Kepler
Qt xcb X11 PySide6
""")
# Spans quoted from a program (a command, an error message) stay as the program writes them.
QUOTED = re.compile(r"“[^”]*”|\b(?:docker|wsl|pip|conda|gpu-wizard|sudo|apt|python)\s[^，。；）)]*")

# Params whose values are names, paths, commands or numbers: never prose.
VALUE_KEYS = _words("""
command commands path paths dir dirs file files url python executable version versions cuda cudnn
tensorflow driver min_driver gpu gpus name names package packages variable value values cc min_cc
module kernel_module others other folder location argv program numpy framework expected found
prefix env kind code pattern line lines evidence count entry entries exe target device devices
signature
""")

STOPWORDS = _words("""
the a an is are was were be been not no and or of to in on for with this that it its by from as
at which when then than only can cannot could does do did has have had there here your you use
run found installed missing needs need needed loaded load open opened see check make sure
""")


def is_prose(value: str) -> bool:
    """An English sentence (several common words), not a name, path, command or version."""
    if " " not in value.strip() or any(mark in value for mark in ("/", "\\", "=", "--", "://")):
        return False
    words = re.findall(r"[A-Za-z]+", value)
    common = [w for w in words if w.lower() in STOPWORDS]
    return len(words) >= 3 and len(common) >= 2


def english_words(text: str) -> list[str]:
    """Latin words of a zh_CN template that are not placeholders or allowed names."""
    literal = QUOTED.sub(" ", re.sub(r"\{[^{}]*\}", " ", text))
    words = re.findall(r"[A-Za-z][A-Za-z0-9_+.-]*[A-Za-z0-9]|[A-Za-z]{2,}", literal)
    return [w for w in words if w not in ALLOWED_WORDS and w.strip(".-") not in ALLOWED_WORDS
            and not _identifier(w)]


def _identifier(word: str) -> bool:
    """A file, command, option or variable name (``libcudnn.so.8``, ``and-cuda``,
    ``TF_GPU_ALLOCATOR``, ``cudaMallocAsync``), not a word of a sentence."""
    return bool(re.search(r"[_.\-0-9]", word) or re.search(r"[a-z][A-Z]", word)
                or (word.isupper() and len(word) > 1))


def _check_message(message: Message, place: str) -> Iterator[tuple[str, str, str]]:
    for node in messages.walk(message):
        if not messages.has(node.id) and not messages.variants(node.id):
            yield ("missing", place, node.id)
            continue
        chosen = messages.choose_variant(node.id, node.params)
        for word in english_words(messages.template(chosen, "zh_CN")):
            yield ("word", place, f"{chosen}: {word}")
        for key, value in node.params.items():
            if isinstance(value, str) and key not in VALUE_KEYS and is_prose(value):
                yield ("prose", place, f"{node.id}.{key} = {value!r}")


def check_text(value: Any, place: str) -> Iterator[tuple[str, str, str]]:
    """Problems of one text shown to the user: it must be a Message."""
    if isinstance(value, Message):
        yield from _check_message(value, place)
    elif value:
        yield ("text", place, repr(value))


def check_finding(finding: Any, place: str) -> Iterator[tuple[str, str, str]]:
    place = f"{place}/{finding.code}"
    for message in finding.messages():
        yield from _check_message(message, place)
    for step in finding.fix.steps:
        if step.key == "text":
            yield ("text", place, f"Step('text'): {step.params.get('text')!r}")
    for link in finding.fix.links:
        yield from check_text(link.title, place + "/link")


def check_report(report: Any, place: str) -> Iterator[tuple[str, str, str]]:
    yield from check_text(report.target.reason, f"{place}/target")
    for layer in report.layers:
        where = f"{place}/{layer.layer}"
        yield from check_text(layer.summary, where + "/summary")
        for finding in layer.findings:
            yield from check_finding(finding, where)


def profile_problems() -> Iterator[tuple[str, str, str]]:
    from wizard.core.diagnose import run_check
    from wizard.core.host import ReplayHost

    for path in sorted(PROFILES_DIR.glob("*.json")):
        report = run_check(ReplayHost.from_file(path))
        yield from check_report(report, path.stem)


def explain_problems() -> Iterator[tuple[str, str, str]]:
    from wizard.core import explain

    for number, line in enumerate(EXPLAIN_LOGS.read_text(encoding="utf-8").splitlines()):
        if not line.strip():
            continue
        sample = json.loads(line)
        log = sample.get("log") or sample.get("text") or ""
        for os_kind in (None, "windows", "linux"):
            for finding in explain.explain_log(log, os_kind):
                yield from check_finding(finding, f"explain#{number}/{os_kind}")


def all_problems() -> list[tuple[str, str, str]]:
    seen: dict[tuple[str, str], str] = {}
    for kind, place, what in (*profile_problems(), *explain_problems()):
        seen.setdefault((kind, what), place)
    return [(kind, place, what) for (kind, what), place in seen.items()]


if __name__ == "__main__":
    wanted = sys.argv[1] if len(sys.argv) > 1 else ""
    problems = [p for p in all_problems() if wanted in p[1] or wanted in p[2]]
    for kind, place, what in sorted(problems):
        print(f"{kind:7} {place:45} {what}")
    print(f"{len(problems)} problem(s)")
