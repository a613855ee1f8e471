"""One question that settles an explanation no line decides (wizard/core/deciding_question.py):
asked when its subject is one of the two most likely candidates, answered as a fact explain
takes (``explain --answer``, the dialog's Yes/No, the checked machine's own facts)."""

from __future__ import annotations

import json

import pytest

from wizard import cli
from wizard.core import deciding_question, explain, messages
from wizard.core.codes import CODES
from wizard.core.deciding_question import NO, YES, apply_answers, parse_answer, question
from wizard.core.model import Finding

NO_DRIVER = ("RuntimeError: Found no NVIDIA driver on your system. Please check that you have an "
             "NVIDIA GPU and installed a driver from http://www.nvidia.com/Download/index.aspx")
# (question, OS, a log whose two most likely causes it tells apart, first after yes, after no)
CASES = [
    ("nvidia_gpu", "linux", NO_DRIVER, "no_driver_or_nvidia_smi_missing", "no_nvidia_gpu"),
    ("container", "linux",
     "OSError: libcuda.so.1: cannot open shared object file: No such file or directory",
     "container_no_gpu_passthrough", "no_driver_or_nvidia_smi_missing"),
    ("python_64bit", "windows",
     "ERROR: tensorflow-2.10.0-cp39-cp39-win_amd64.whl is not a supported wheel on this "
     "platform.", "python_version_unsupported", "python_32bit"),
    ("other_gpu_programs", "linux",
     "E tensorflow/stream_executor/cuda/cuda_dnn.cc:329] Could not create cudnn handle: "
     "CUDNN_STATUS_ALLOC_FAILED", "cudnn_handle_oom", "gpu_model_oom"),
    ("cuda_toolkit", "windows",
     "'nvcc' is not recognized as an internal or external command,\n"
     "operable program or batch file.", "cuda_not_on_path", "cuda_not_installed"),
    ("cudnn_installed", "linux",
     "W tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could not load dynamic "
     "library 'libcudnn.so.8'; dlerror: libcudnn.so.8: cannot open shared object file: No such "
     "file or directory", "cudnn_version_mismatch", "cudnn_missing"),
    ("other_cuda", "linux",
     "W tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could not load dynamic "
     "library 'libcublas.so.11'; dlerror: libcublas.so.11: cannot open shared object file: No "
     "such file or directory", "cuda_version_mismatch", "cuda_lib_other_missing"),
    ("zlibwapi", "windows",
     "Could not load library cudnn_cnn_infer64_8.dll. Error code 126\n"
     "Please make sure cudnn_cnn_infer64_8.dll is in your library path!",
     "cudnn_partial_install", "zlibwapi_missing"),
]


# (question, OS, a log, the answer given before, first after yes, after no): questions that
# settle what another's answer left open
AFTER_AN_ANSWER = [
    ("other_cudnn", "windows",
     "Could not locate cudnn_ops_infer64_8.dll. Please make sure it is in your library path!",
     "cudnn_installed", "cudnn_version_mismatch", "cudnn_partial_install"),
]


def codes(findings) -> list[str]:
    return [f.code for f in findings]


def test_every_question_names_known_codes_and_has_its_words_in_both_languages() -> None:
    for known in deciding_question.questions():
        assert known.subject in CODES, known.id
        for answer in (known.yes, known.no):
            assert set(answer.points_to) | set(answer.rules_out) <= set(CODES), known.id
            assert known.subject in (*answer.points_to, *answer.rules_out), known.id
        for message in (known.ask(), known.said(YES), known.said(NO)):
            for lang in messages.LANGUAGES:
                assert messages.has(message.id), message.id
                assert messages.render(message, lang) != messages.MISSING
    asked = {case[0] for case in CASES} | {case[0] for case in AFTER_AN_ANSWER}
    assert {q.id for q in deciding_question.questions()} == asked


@pytest.mark.parametrize(("question_id", "os_kind", "log", "after_yes", "after_no"), CASES)
def test_the_answer_settles_the_two_most_likely_causes(
        question_id: str, os_kind: str, log: str, after_yes: str, after_no: str) -> None:
    findings = explain.explain_log(log, os_kind)
    asked = explain.question_for(findings)
    assert asked is not None and asked.id == question_id, codes(findings)
    assert asked.subject in codes(findings)[:2] and not explain.decisive(findings)
    for value, first in ((YES, after_yes), (NO, after_no)):
        fact = asked.answer(value).fact
        answered = explain.explain_log(log, os_kind, machine=[fact])
        assert codes(answered)[0] == first, (value, codes(answered))
        follow_up = explain.question_for(answered, [fact])
        assert follow_up is None or follow_up.id != question_id  # never asked twice


@pytest.mark.parametrize(("question_id", "os_kind", "log", "given", "after_yes", "after_no"),
                         AFTER_AN_ANSWER)
def test_an_answer_can_leave_a_question_that_settles_the_rest(
        question_id: str, os_kind: str, log: str, given: str, after_yes: str,
        after_no: str) -> None:
    findings = explain.explain_log(log, os_kind, machine=[given])
    asked = explain.question_for(findings, [given])
    assert asked is not None and asked.id == question_id, codes(findings)
    for value, first in ((YES, after_yes), (NO, after_no)):
        facts = [given, asked.answer(value).fact]
        assert codes(explain.explain_log(log, os_kind, machine=facts))[0] == first, value


def test_no_cudnn_at_all_settles_a_cudnn_library_that_is_not_located() -> None:
    # with round 22, most development threads of this line had no cuDNN of that major at all
    log = "Could not locate cudnn_ops_infer64_8.dll. Please make sure it is in your library path!"
    findings = explain.explain_log(log, "windows")
    assert codes(findings)[0] == "cudnn_missing"
    assert explain.question_for(findings).id == "cudnn_installed"
    answered = explain.explain_log(log, "windows", machine=["no_cudnn"])
    assert codes(answered)[0] == "cudnn_missing"
    assert explain.question_for(answered, ["no_cudnn"]) is None


def test_a_decided_log_asks_nothing() -> None:
    nvml = "Failed to initialize NVML: Driver/library version mismatch"
    assert explain.question_for(explain.explain_log(nvml, "linux")) is None
    assert explain.question_for([]) is None


def test_nvidia_smi_failing_to_reach_its_driver_is_a_candidate_and_asks() -> None:
    """Of the development and old logs it leads, this line had a driver not loaded 3 times in 7
    (else a GPU without its driver, a failing card, WSL, a container): the questions ask."""
    smi = ("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make "
           "sure that the latest NVIDIA driver is installed and running.")
    findings = explain.explain_log(smi, "linux")
    assert codes(findings)[0] == "no_driver_or_nvidia_smi_missing"
    assert not explain.decisive(findings)
    assert explain.question_for(findings).id in {"nvidia_gpu", "container"}
    assert codes(explain.explain_log(smi, "linux", machine=["in_container"]))[0] == \
        "container_no_gpu_passthrough"


def test_an_answer_never_leaves_nothing_and_keeps_the_order_of_the_rest() -> None:
    ruled_out = [question("container").no.fact]
    assert apply_answers(["container_no_gpu_passthrough"], ruled_out, str) == [
        "container_no_gpu_passthrough"]
    assert apply_answers(["a", "container_no_gpu_passthrough", "b"], ruled_out, str) == ["a", "b"]
    pointed = [question("container").yes.fact]
    assert apply_answers(["a", "b", "container_no_gpu_passthrough"], pointed, str) == [
        "container_no_gpu_passthrough", "a", "b"]
    assert apply_answers(["a", "b"], [], str) == ["a", "b"]


@pytest.mark.parametrize("given", ["gpu=yes", "container=maybe", "container", "=yes"])
def test_an_answer_that_is_no_question_or_no_yes_or_no_is_refused(given: str) -> None:
    with pytest.raises(ValueError):
        parse_answer(given)
    assert parse_answer(" container = YES ") == (question("container"), YES)


def _cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_cli_asks_and_takes_the_answer(capsys, tmp_path) -> None:
    log = tmp_path / "error.log"
    log.write_text(NO_DRIVER + "\n", encoding="utf-8")
    code, out, _ = _cli(capsys, "explain", str(log), "--os", "linux", "--lang", "en")
    assert code == 0 and "Most likely cause: No NVIDIA GPU" in out
    assert "One question would settle it: Does the computer that printed this log have" in out
    assert "--answer nvidia_gpu=yes" in out
    code, out, _ = _cli(capsys, "explain", str(log), "--os", "linux", "--lang", "zh_CN",
                        "--answer", "nvidia_gpu=yes")
    assert code == 0 and out.startswith("你的回答：电脑有 NVIDIA 显卡。\n")
    assert "--answer nvidia_gpu" not in out
    code, out, _ = _cli(capsys, "explain", str(log), "--os", "linux", "--json",
                        "--answer", "nvidia_gpu=no")
    payload = json.loads(out)
    assert payload["answers"] == {"nvidia_gpu": "no"}
    assert payload["findings"][0]["code"] == "no_nvidia_gpu"
    code, out, _ = _cli(capsys, "explain", str(log), "--os", "linux", "--json")
    assert json.loads(out)["question"]["id"] == "nvidia_gpu"
    code, out, err = _cli(capsys, "explain", str(log), "--answer", "gpu=yes", "--lang", "en")
    assert code == 2 and out == ""
    assert "--answer gpu=yes: no such question (known: nvidia_gpu, container" in err
    assert "write it as QUESTION=yes|no" in err


@pytest.mark.parametrize(("name", "nvidia"), [
    ("RTX 3060", True), ("NVIDIA GeForce GTX 1080 Ti", True), ("Tesla T4", True),
    ("A100 80GB", True), ("H100", True), ("Jetson Nano", True), ("940MX", True),
    ("Intel UHD 620 + GeForce MX150", True),  # a hybrid laptop has an NVIDIA GPU
    ("AMD Radeon RX 570", False), ("RX 580", False), ("Intel Iris Xe", False),
    ("Intel Arc A770", False), ("Apple M1 Pro", False), ("none", False),
    ("CPU only", False), ("无", False),
    ("8 GB", None), ("my laptop", None), ("", None),
])
def test_a_gpu_name_says_whether_it_is_an_nvidia_gpu(name: str, nvidia) -> None:
    from wizard.core.knowledge.gpus import is_nvidia_gpu_name

    assert is_nvidia_gpu_name(name) is nvidia


def test_the_gpu_given_answers_whether_there_is_an_nvidia_gpu(capsys, tmp_path) -> None:
    log = tmp_path / "error.log"
    log.write_text(NO_DRIVER + "\n", encoding="utf-8")
    code, out, _ = _cli(capsys, "explain", str(log), "--os", "linux", "--json",
                        "--gpu", "Radeon RX 570")
    payload = json.loads(out)
    assert code == 0 and payload["answers"] == {"nvidia_gpu": "no"}
    assert payload["findings"][0]["code"] == "no_nvidia_gpu" and payload["question"] is None
    code, out, _ = _cli(capsys, "explain", str(log), "--os", "linux", "--json",
                        "--gpu", "GeForce RTX 3060")
    payload = json.loads(out)
    assert payload["answers"] == {"nvidia_gpu": "yes"}
    assert payload["findings"][0]["code"] == "no_driver_or_nvidia_smi_missing"
    # an answer given outright says more than a name
    code, out, _ = _cli(capsys, "explain", str(log), "--os", "linux", "--json",
                        "--gpu", "GeForce RTX 3060", "--answer", "nvidia_gpu=no")
    assert json.loads(out)["answers"] == {"nvidia_gpu": "no"}
    code, out, _ = _cli(capsys, "explain", str(log), "--os", "linux", "--lang", "zh_CN",
                        "--gpu", "Intel Iris Xe")
    assert code == 0 and out.startswith("你的回答：电脑没有 NVIDIA 显卡")


@pytest.mark.parametrize(("lang", "words"), [
    ("en", "“my laptop” does not say whose GPU it is: give its name as its maker writes it"),
    ("zh_CN", "从“my laptop”看不出是哪家的 GPU"),
])
def test_a_gpu_name_that_says_nothing_is_refused(capsys, tmp_path, lang: str, words: str) -> None:
    log = tmp_path / "error.log"
    log.write_text(NO_DRIVER + "\n", encoding="utf-8")
    code, out, err = _cli(capsys, "explain", str(log), "--gpu", "my laptop", "--lang", lang)
    assert code == 2 and out == "" and words in err


@pytest.mark.parametrize(("profile", "answered"), [
    ("linux-container-no-gpu-passthrough", {"in_container", "python_64bit", "cudnn_installed"}),
    ("linux-dual-4090-healthy", {"not_in_container", "python_64bit", "cudnn_installed"}),
    ("win-cuda-not-installed", {"no_cuda_toolkit", "python_64bit", "no_other_cuda", "no_cudnn",
                                "no_other_cudnn"}),
    ("win-cuda112-not-on-path", {"cuda_toolkit_installed", "python_64bit", "no_other_cuda",
                                 "cudnn_installed", "no_other_cudnn"}),
    ("win-cuda12-instead-of-112", {"cuda_toolkit_installed", "python_64bit",
                                   "other_cuda_installed", "cudnn_installed",
                                   "other_cudnn_installed"}),
    ("linux-cudnn805-mismatch", {"cuda_toolkit_installed", "not_in_container", "python_64bit",
                                 "no_other_cuda", "cudnn_installed", "other_cudnn_installed"}),
    # CUDA and cuDNN from the framework's wheels
    ("linux-tf221-and-cuda-healthy", {"not_in_container", "python_64bit", "cudnn_installed"}),
    ("win-cudnn89-no-zlibwapi", {"cuda_toolkit_installed", "python_64bit", "no_other_cuda",
                                 "cudnn_installed", "no_zlibwapi"}),
])
def test_the_checked_machine_answers_questions_itself(profile: str, answered: set[str]) -> None:
    from pathlib import Path

    from wizard.core.diagnose import run_check
    from wizard.core.host import ReplayHost

    path = Path(__file__).resolve().parents[1] / "profiles" / f"{profile}.json"
    report = run_check(ReplayHost.from_file(path))
    facts = explain.machine_facts({layer.layer: layer for layer in report.layers})
    assert set(facts) & set(deciding_question.answer_facts()) - {"nvidia_gpu"} == answered
    for known in deciding_question.questions():
        if set(known.facts()) & answered:
            # a log from this computer: the question its check answered is never asked
            findings = [Finding(code, params={"decisive": False})
                        for code in (known.subject, "cuda_version_mismatch")]
            assert explain.question_for(findings, facts) is None or \
                explain.question_for(findings, facts).id != known.id


def test_a_driver_that_looks_absent_asks_about_a_container() -> None:
    # on Linux the driver's libcuda missing is most often a container started without GPU
    # access (12 of 22 development logs), then the driver itself: both asked about, in turn
    log = "[AVHWDeviceContext @ 0x5591] Cannot load libcuda.so.1"
    findings = explain.explain_log(log, "linux")
    assert codes(findings) == ["container_no_gpu_passthrough", "no_driver_or_nvidia_smi_missing"]
    assert explain.question_for(findings).id == "container"
    said_yes = explain.explain_log(log, "linux", machine=["in_container"])
    assert codes(said_yes)[0] == "container_no_gpu_passthrough"
    assert explain.question_for(said_yes, ["in_container"]) is None
    not_in_one = explain.explain_log(log, "linux", machine=["not_in_container"])
    # the answer leaves the driver as undecided as the log did: the next question is asked
    assert codes(not_in_one) == ["no_driver_or_nvidia_smi_missing"]
    assert not explain.decisive(not_in_one)
    assert explain.question_for(not_in_one, ["not_in_container"]).id == "nvidia_gpu"
    said_gpu = explain.explain_log(log, "linux", machine=["not_in_container", "nvidia_gpu"])
    assert codes(said_gpu) == ["no_driver_or_nvidia_smi_missing"]
    assert explain.question_for(said_gpu, ["not_in_container", "nvidia_gpu"]) is None
    # on Windows there is no container to ask about first
    dll = explain.explain_log("[AVHWDeviceContext @ 0x5591] Cannot load nvcuda.dll", "windows")
    assert codes(dll)[0] == "no_driver_or_nvidia_smi_missing"


def test_no_nvidia_gpu_said_explains_a_driver_that_looks_absent_and_ends_the_questions() -> None:
    log = "[AVHWDeviceContext @ 0x5591] Cannot load libcuda.so.1"
    said_no = explain.explain_log(log, "linux", machine=["no_nvidia_gpu"])
    assert codes(said_no)[0] == "no_nvidia_gpu"  # a candidate the log alone did not bring
    assert explain.question_for(said_no, ["no_nvidia_gpu"]) is None  # the answer named it


CUDART = ("W tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could not load "
          "dynamic library 'libcudart.so.11.0'; dlerror: libcudart.so.11.0: cannot open shared "
          "object file: No such file or directory")


def test_a_missing_cuda_runtime_asks_whether_cuda_is_installed() -> None:
    findings = explain.explain_log(CUDART, "linux")
    assert "cuda_not_installed" not in codes(findings)[:2]
    asked = [explain.question_for(findings).id]
    answered = explain.explain_log(CUDART, "linux", machine=[question(asked[0]).no.fact])
    asked.append(explain.question_for(answered, [question(asked[0]).no.fact]).id)
    assert set(asked) == {"cuda_toolkit", "other_cuda"}
    # no CUDA at all: counts like a log that shows no CUDA folder
    none = explain.explain_log(CUDART, "linux", machine=["no_cuda_toolkit", "no_other_cuda"])
    assert codes(none)[0] == "cuda_not_installed"
    # installed, and of no other version: the loader does not look where it is
    there = explain.explain_log(CUDART, "linux",
                                machine=["cuda_toolkit_installed", "no_other_cuda"])
    assert codes(there)[0] == "cuda_not_on_path"
    both = ["cuda_toolkit_installed", "no_other_cuda"]
    assert deciding_question.pointed_to(both, "wsl2") == ["cuda_not_on_path"]
    assert deciding_question.pointed_to(both[:1], "linux") == []
    # Windows' CUDA installer puts its bin on PATH: a program's package that lacks the DLL is
    # as likely there, so the two answers point nowhere
    assert deciding_question.pointed_to(both, "windows") == []
    dll = "Could not load dynamic library 'cudart64_110.dll'; dlerror: cudart64_110.dll not found"
    assert codes(explain.explain_log(dll, "windows", machine=both))[0] != "cuda_not_on_path"


INSUFFICIENT = ("RuntimeError: cuda runtime error (35) : CUDA driver version is insufficient for "
                "CUDA runtime version at /pytorch/aten/src/THC/THCGeneral.cpp:50")


def test_an_insufficient_driver_alone_asks_about_a_container_and_an_nvidia_gpu() -> None:
    """Error 35 is most often an old driver, but a machine with no NVIDIA driver at all (an AMD
    card, a CPU server) and a container without the GPU report it too: a candidate, and both
    questions are asked."""
    findings = explain.explain_log(INSUFFICIENT, "linux")
    assert codes(findings)[0] == "driver_too_old" and not explain.decisive(findings)
    assert explain.question_for(findings).id == "container"
    not_in_one = ["not_in_container"]
    assert codes(explain.explain_log(INSUFFICIENT, "linux", machine=not_in_one))[0] == \
        "driver_too_old"
    assert explain.question_for(explain.explain_log(INSUFFICIENT, "linux", machine=not_in_one),
                                not_in_one).id == "nvidia_gpu"
    no_gpu = explain.explain_log(INSUFFICIENT, "linux", machine=[*not_in_one, "no_nvidia_gpu"])
    assert codes(no_gpu)[0] == "no_nvidia_gpu"
    has_gpu = explain.explain_log(INSUFFICIENT, "linux", machine=[*not_in_one, "nvidia_gpu"])
    assert codes(has_gpu)[0] == "driver_too_old"
    # nvidia-smi's banner in the log shows a driver that talks to an NVIDIA GPU: not asked
    shown = ("CUDA driver version is insufficient for CUDA runtime version\n"
             "| NVIDIA-SMI 390.116                 Driver Version: 390.116                   |")
    banner = explain.explain_log(shown, "linux", machine=not_in_one)
    assert codes(banner) == ["driver_too_old"] and explain.question_for(banner, not_in_one) is None


def test_a_cpu_only_framework_asks_whether_there_is_an_nvidia_gpu() -> None:
    log = ("RuntimeError: Attempting to deserialize object on a CUDA device but "
           "torch.cuda.is_available() is False. If you are running on a CPU-only machine, please "
           "use torch.load with map_location=torch.device('cpu') to map your storages to the CPU.")
    findings = explain.explain_log(log, "windows")
    assert codes(findings)[0] == "gpu_not_listed_cpu_only_package"
    assert explain.question_for(findings).id == "nvidia_gpu"
    no_gpu = explain.explain_log(log, "windows", machine=["no_nvidia_gpu"])
    assert codes(no_gpu)[0] == "no_nvidia_gpu"  # a CUDA build of torch would not help
    assert codes(explain.explain_log(log, "windows", machine=["nvidia_gpu"]))[0] == \
        "gpu_not_listed_cpu_only_package"


def test_lightning_seeing_no_gpu_asks_whether_there_is_an_nvidia_gpu() -> None:
    log = ("pytorch_lightning.utilities.exceptions.MisconfigurationException: You requested "
           "gpu: [0]\n But your machine only has: []")
    findings = explain.explain_log(log, "linux")
    assert codes(findings)[:2] == ["gpu_not_listed_cpu_only_package", "no_nvidia_gpu"]
    assert explain.question_for(findings).id == "nvidia_gpu"
    assert codes(explain.explain_log(log, "linux", machine=["no_nvidia_gpu"]))[0] == \
        "no_nvidia_gpu"


def test_pip_finding_no_tensorflow_asks_whether_python_is_64_bit() -> None:
    log = ("ERROR: Could not find a version that satisfies the requirement tensorflow (from "
           "versions: none)\nERROR: No matching distribution found for tensorflow")
    findings = explain.explain_log(log, "windows")
    # on Windows a 32-bit Python is the second candidate; elsewhere it is rare
    assert codes(findings) == ["python_version_unsupported", "python_32bit"]
    assert codes(explain.explain_log(log, "linux")) == ["python_version_unsupported"]
    assert explain.question_for(findings).id == "python_64bit"
    # a 32-bit Python said counts like one the log shows: TF ships 64-bit wheels only
    assert codes(explain.explain_log(log, "windows", machine=["python_32bit"]))[0] == \
        "python_32bit"
    assert codes(explain.explain_log(log, "windows", machine=["python_64bit"])) == \
        ["python_version_unsupported"]


def test_what_the_log_shows_itself_is_never_asked() -> None:
    log = ("C:\\Users\\me>C:\\Python39-32\\python.exe -m pip install "
           "tensorflow-2.10.0-cp39-cp39-win_amd64.whl\n"
           "ERROR: tensorflow-2.10.0-cp39-cp39-win_amd64.whl is not a supported wheel on this "
           "platform.")
    plain = explain.explain_log(log.replace("Python39-32", "Python39"), "windows")
    assert explain.question_for(plain).id == "python_64bit"
    findings = explain.explain_log(log, "windows")
    assert findings[0].code == "python_32bit"
    asked = explain.question_for(findings)
    assert asked is None or asked.id != "python_64bit"  # the path says 32-bit
    assert deciding_question.shown_answers(["python_32bit_path"]) == ["python_32bit"]
    assert deciding_question.shown_answers(["gpu_listed"]) == ["nvidia_gpu"]


def test_at_a_terminal_the_cli_asks_and_explains_again(capsys, tmp_path, monkeypatch) -> None:
    log = tmp_path / "error.log"
    log.write_text(NO_DRIVER + "\n", encoding="utf-8")
    typed = iter(["y", "n"])  # it has a GPU; then asked about a container: no
    monkeypatch.setattr(cli, "_at_a_terminal", lambda: True)
    monkeypatch.setattr("builtins.input", lambda prompt="": next(typed))
    code, out, _ = _cli(capsys, "explain", str(log), "--os", "linux", "--lang", "en")
    assert code == 0
    first, _, rest = out.partition("Your answers: the computer has an NVIDIA GPU.\n")
    assert "Most likely cause: No NVIDIA GPU" in first and rest
    second, _, third = rest.partition("Your answers: the computer has an NVIDIA GPU, ")
    # the answer leaves the log as undecided as it was: the container question follows
    assert "\nMost likely cause: NVIDIA driver not running" in second
    assert "inside a container (Docker" in second and third.startswith("it did not run inside")
    assert "\nMost likely cause: NVIDIA driver not running" in third
    assert "One question" not in third and next(typed, None) is None
    typed = iter([""])  # Enter: no answer, the candidates stay as they are
    monkeypatch.setattr("builtins.input", lambda prompt="": next(typed))
    code, out, _ = _cli(capsys, "explain", str(log), "--os", "linux", "--lang", "en")
    assert code == 0 and out.count("Most likely cause:") == 1
    # piped (no terminal): never asks
    monkeypatch.setattr(cli, "_at_a_terminal", lambda: False)
    monkeypatch.setattr("builtins.input", lambda prompt="": pytest.fail("asked"))
    assert _cli(capsys, "explain", str(log), "--os", "linux")[0] == 0


def test_a_cudnn_that_needs_zlibwapi_and_lacks_nothing_says_it_is_installed() -> None:
    from wizard.core.model import FAIL, OK, LayerResult

    needs = {"needed": {"cudnn": "8.9", "zlibwapi": True}}
    ok = LayerResult("cudnn", OK, "cuDNN 8.9", needs)
    assert "zlibwapi_installed" in explain.machine_facts({"cudnn": ok})
    # cuDNN 8.1 does not need it: nothing is said either way
    old = LayerResult("cudnn", OK, "cuDNN 8.1", {"needed": {"cudnn": "8.1", "zlibwapi": False}})
    assert not {"zlibwapi_installed", "no_zlibwapi"} & set(explain.machine_facts({"cudnn": old}))
    missing = LayerResult("cudnn", FAIL, "zlibwapi", needs, [Finding("zlibwapi_missing", "fail")])
    assert "no_zlibwapi" in explain.machine_facts({"cudnn": missing})
