"""`explain` when no line is decisive: ranked candidates, each with how to tell it from the
others (issue 13 item 2), the `--tf` option, and the machine's facts in `check`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from wizard.core import explain, messages
from wizard.core.explain import explain_log, findings_text

REPO = Path(__file__).resolve().parents[2]
NO_GPU = "Num GPUs Available:  0\n"
CUDART_WINDOWS = (
    "W tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could not load dynamic "
    "library 'cudart64_110.dll'; dlerror: cudart64_110.dll not found\n"
    'File "C:\\Users\\me\\miniconda3\\lib\\site-packages\\tensorflow\\__init__.py", line 1\n'
)
TWO_CAUSES = (
    "Could not load dynamic library 'libcudnn.so.8'; dlerror: libcudnn.so.8: cannot open shared "
    "object file: No such file or directory\n"
    "failed call to cuInit: CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected\n"
)


def run_cli(*args: str, stdin: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "wizard", "explain", *args], input=stdin,
                          capture_output=True, text=True, cwd=REPO, timeout=120)


def tell(finding) -> messages.Message:
    step = finding.params.get("how_to_tell")
    assert isinstance(step, messages.Message), finding.code
    return step


def test_a_decisive_line_needs_no_how_to_tell() -> None:
    [only] = explain_log("Failed to initialize NVML: Driver/library version mismatch")
    assert only.code == "nvml_driver_library_mismatch"
    assert "how_to_tell" not in only.params and explain.decisive([only])


def test_tf_version_decides_native_windows() -> None:
    candidates = explain_log(NO_GPU, "windows", tf_version="2.10")  # TF 2.10 can use the GPU
    assert [f.code for f in candidates] == [
        "cuda_version_mismatch", "cudnn_missing", "gpu_not_listed_cpu_only_package"]
    assert not explain.decisive(candidates)
    assert "gpu-wizard compat --tf 2.10" in messages.render(tell(candidates[0]))
    [guess] = explain_log(NO_GPU, "windows")  # the version unknown: a candidate, how to tell
    assert guess.code == "windows_native_tf_2_11_plus" and not explain.decisive([guess])
    assert "tf.__version__" in messages.render(tell(guess))
    [known] = explain_log(NO_GPU, "windows", tf_version="2.15")
    assert known.code == "windows_native_tf_2_11_plus" and explain.decisive([known])
    assert known.params["version"] == "2.15"


def test_given_version_beats_the_version_in_the_log() -> None:
    log = "tensorflow version 2.10.1\n" + NO_GPU
    assert "windows_native_tf_2_11_plus" not in [f.code for f in explain_log(log, "windows")]
    assert [f.code for f in explain_log(log, "windows", tf_version="2.12")] == [
        "windows_native_tf_2_11_plus"]


def test_how_to_tell_uses_windows_paths_and_the_tf_version() -> None:
    cudart, *others = explain_log(CUDART_WINDOWS)
    assert cudart.code == "cudart_missing"
    assert [f.code for f in others] == ["cuda_version_mismatch", "cuda_not_on_path"]
    text = messages.render(tell(cudart))
    assert "C:\\Users\\me\\miniconda3" in text and "where cudart64_110.dll" in text
    with_tf = explain_log(CUDART_WINDOWS, tf_version="2.4")
    assert "gpu-wizard compat --tf 2.4" in messages.render(tell(with_tf[0]))
    assert "gpu-wizard compat --tf 2.4" in messages.render(tell(with_tf[1]))  # the CUDA it needs


def test_how_to_tell_uses_wsl_paths() -> None:
    log = "ls: cannot access '/usr/lib/wsl/lib/libcuda.so.1': No such file or directory\n"
    findings = explain_log(log + TWO_CAUSES)
    assert len(findings) >= 2 and findings[0].code == "wsl_gpu_missing"
    assert "/usr/lib/wsl/lib/libcuda.so.1" in messages.render(tell(findings[0]))


def test_several_causes_each_carry_how_to_tell_in_both_languages() -> None:
    findings = explain_log(TWO_CAUSES, "linux")
    assert len(findings) >= 2
    for finding in findings:
        step = tell(finding)
        english, chinese = messages.render(step, "en"), messages.render(step, "zh_CN")
        assert english and chinese and english != chinese
        assert "{" not in english and "{" not in chinese
    text = findings_text(findings)
    assert "Most likely cause" in text and "Also possible (2)" in text
    assert text.count("How to tell:") == len(findings)
    assert findings_text(findings, "zh_CN").count("如何判断：") == len(findings)


def test_every_tell_message_has_both_languages_and_its_values() -> None:
    ids = [i for i in messages.catalogue() if i.startswith("explain.tell.")]
    assert len(ids) > 20
    known = {"tf", "windows_path", "wsl_path", "os", *explain.TELL_PARAMS}
    tab = explain.table()
    for message_id in ids:
        code = message_id.split(".")[2].split("~")[0]
        given = known | set(tab.tell_values.get(code, {}))
        for lang in ("en", "zh_CN"):
            text = messages.template(message_id, lang)
            assert text and messages.fields(text) <= given, (message_id, lang)
    codes = {i.split(".")[2].split("~")[0] for i in ids} - {"other"}
    assert codes <= set(explain.CODES)


def test_machine_facts_are_checked() -> None:
    with pytest.raises(ValueError, match="unknown machine fact"):
        explain_log(NO_GPU, "linux", machine=["a_gpu_maybe"])
    assert explain_log(NO_GPU, "linux", machine=["nvidia_gpu", "driver_loaded"]) is not None


def test_cli_tf_option_and_json_decisive() -> None:
    result = run_cli("-", "--os", "windows", "--tf", "2.15", "--json", stdin=NO_GPU)
    assert result.returncode == 0, result.stderr
    payload = json.loads(result.stdout)
    assert payload["format"] == "gpu-wizard/explain@1" and payload["decisive"] is True
    assert payload["findings"][0]["code"] == "windows_native_tf_2_11_plus"
    unsure = json.loads(run_cli("-", "--os", "windows", "--json", stdin=NO_GPU).stdout)
    assert unsure["decisive"] is False
    assert "tf.__version__" in unsure["findings"][0]["params"]["how_to_tell"]


NO_DEVICE = "failed call to cuInit: CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected\n"


def test_macos_given_means_no_nvidia_gpu() -> None:
    """A Mac has no NVIDIA GPU: "macOS" given ranks that first, where the log alone would blame
    CUDA_VISIBLE_DEVICES; TensorFlow versions are still checked (Linux's numbers)."""
    assert explain_log(NO_DEVICE, None)[0].code == "cuda_visible_devices_misconfigured"
    assert explain_log(NO_DEVICE, "macos", tf_version="2.15")[0].code == "no_nvidia_gpu"
    result = run_cli("-", "--os", "macos", "--tf", "2.15", "--json", stdin=NO_DEVICE)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["findings"][0]["code"] == "no_nvidia_gpu"
    assert run_cli("-", "--os", "macos", "--tf", "2.x", stdin=NO_DEVICE).returncode == 2


@pytest.mark.parametrize("bad", ["2.x", "two", "2.10.7", "9.1"])
def test_cli_tf_is_strict(bad: str) -> None:
    result = run_cli("-", "--tf", bad, stdin=NO_GPU)
    assert result.returncode == 2
    assert result.stderr.startswith("gpu-wizard explain: ") and bad in result.stderr
    assert "Traceback" not in result.stderr


def test_cli_text_lists_candidates() -> None:
    result = run_cli("-", "--os", "windows", stdin=NO_GPU)
    assert "No line in this log names the cause for certain" in result.stdout
    assert "How to tell:" in result.stdout


def test_machine_facts_narrow_the_candidates() -> None:
    no_device = ("failed call to cuInit: CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected\n"
                 "no NVIDIA GPU device is present: /dev/nvidia0 does not exist\n")
    assert explain_log(no_device, "linux")[0].code == "no_driver_or_nvidia_smi_missing"
    known = explain_log(no_device, "linux", machine=["nvidia_gpu", "driver_loaded"])
    assert known[0].code == "cuda_visible_devices_misconfigured"
    wsl = "nvidia-container-cli: initialization error: WSL environment detected but no adapters"
    wsl += " were found: unknown"
    assert [f.code for f in explain_log(wsl, "wsl2")][:2] == ["no_nvidia_gpu", "wsl_gpu_missing"]
    assert explain_log(wsl, "wsl2", machine=["nvidia_gpu"])[0].code == "wsl_gpu_missing"


def test_machine_facts_from_the_layers() -> None:
    from wizard.core.model import Finding, LayerResult

    gpu = LayerResult("gpu", "ok", "", facts={"gpus": [{"name": "RTX"}]})
    driver = LayerResult("driver", "ok", "", facts={"driver_version": "550.54"})
    assert explain.machine_facts({"gpu": gpu, "driver": driver}) == ["nvidia_gpu", "driver_loaded"]
    none = LayerResult("gpu", "fail", "", findings=[Finding("no_nvidia_gpu")])
    assert explain.machine_facts({"gpu": none, "driver": LayerResult("driver", "n/a", "")}) == [
        "no_nvidia_gpu"]


def test_probe_log_uses_the_probes_tf_version() -> None:
    probe = {"log": NO_GPU, "tensorflow": {"version": "2.15.0", "imported": True, "gpus": []}}
    [finding] = explain.probe_log_findings(probe, "windows")
    assert finding.code == "windows_native_tf_2_11_plus" and finding.params["version"] == "2.15.0"
    old = {"log": NO_GPU, "tensorflow": {"version": "2.10.1", "imported": True, "gpus": []}}
    # in check the layers read the versions themselves: no candidates guessed from silence
    assert explain.probe_log_findings(old, "windows") == []


def test_check_passes_the_machines_facts_to_the_log(monkeypatch: pytest.MonkeyPatch) -> None:
    """`check` (and the GUI's session, through the same reconcile) explains the probe's log
    with what the layers found: here a GPU and a loaded driver."""
    from wizard.core.diagnose import CheckOptions, run_check
    from wizard.core.host import ReplayHost

    seen: list[tuple] = []
    original = explain.probe_log_findings

    def spy(probe, os_kind=None, tf_version=None, machine=()):
        seen.append((os_kind, tuple(machine)))
        return original(probe, os_kind, tf_version, machine)

    monkeypatch.setattr(explain, "probe_log_findings", spy)
    profile = json.loads((REPO / "tests" / "profiles" / "win-tf210-cudnn-never-copied.json")
                         .read_text("utf-8"))
    run_check(ReplayHost(profile), CheckOptions())
    assert seen and seen[0][0] == "windows"
    assert {"nvidia_gpu", "driver_loaded"} <= set(seen[0][1])


# -- engine pieces added for the corpus ---------------------------------------------------------


def test_libcuda_and_kernel_versions_that_differ() -> None:
    lines = ("I cuda_diagnostics.cc:189] libcuda reported version is: {a}\n"
             "I cuda_diagnostics.cc:193] kernel reported version is: {b}\n"
             "E cuda_driver.cc:406] failed call to cuInit: CUDA_ERROR_NO_DEVICE\n")
    differ = explain_log(lines.format(a="384.111.0", b="384.90.0"), "linux")
    assert differ[0].code == "nvml_driver_library_mismatch"
    same = explain_log(lines.format(a="535.104.5", b="535.104.5"), "linux")
    assert "nvml_driver_library_mismatch" not in [f.code for f in same]


def test_anchor_words_cover_every_keyword() -> None:
    tab = explain.table()
    assert len(tab.anchors) < len(tab.keywords)
    for sig in tab.signatures:
        for keyword in sig.keywords:
            assert any(anchor in keyword for anchor in tab.anchors), (sig.id, keyword)


def test_a_line_holding_a_keyword_is_tried_against_its_signature() -> None:
    """The anchor index only narrows which signatures a line is tried against: a line that
    holds any keyword of a signature is always tried against it, and none without regexes."""
    tab = explain.table()
    searchable = [sig for sig in tab.signatures if sig.regexes]
    for sig in searchable:
        for keyword in sig.keywords:
            tried = explain._signatures_for(f"xx {keyword} yy", tab)
            assert sig in tried, (sig.id, keyword)
    tried = explain._signatures_for("e cuda_driver.cc] failed call to cuinit", tab)
    assert all(sig.regexes for sig in tried)
    assert tried == sorted(tried, key=tab.signatures.index)  # table order: groups hold
    assert len(tried) < len(searchable) / 2


def test_a_programs_own_library_names_the_missing_cuda_library() -> None:
    line = ("[E:onnxruntime:Default, provider_bridge_ort.cc:1744 TryGetProviderInfo_CUDA] Failed "
            "to load library libonnxruntime_providers_cuda.so with error: libcudnn.so.9: cannot "
            "open shared object file: No such file or directory")
    first = explain_log(line, "linux")[0]
    assert first.code == "cudnn_missing"
    assert (first.params["file"], first.params["needed_by"]) == (
        "libcudnn.so.9", "libonnxruntime_providers_cuda.so")
    assert explain_log("Failed to load library libfoo.so with error: libbar.so.1: cannot open "
                       "shared object file", "linux") == []


def test_lines_as_pasted_in_a_forum() -> None:
    quoted = "> Could not load dynamic library \u2018libcusolver.so.10\u2019; dlerror: not found"
    assert explain_log(quoted, "linux")[0].code == "cuda_version_mismatch"
    code_span = "`nvidia-smi: No devices were found`"
    assert explain_log(code_span, "linux")[0].code == "gpu_without_driver"
    prompt = ">>> tf.__version__\n'2.13.0'\n>>> tf.config.list_physical_devices('GPU')\n[]"
    assert explain_log(prompt, "windows")[0].code == "windows_native_tf_2_11_plus"


def test_tf_version_against_the_toolkit_the_log_shows() -> None:
    log = ("Could not load dynamic library 'cudart64_101.dll'; dlerror: not found\n"
           "PATH=C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v10.2\\bin;C:\\Windows\n")
    first = explain_log(log, "windows", tf_version="2.1")[0]
    assert first.code == "cuda_version_mismatch"
    assert (first.params["tensorflow"], first.params["cuda"], first.params["found"]) == (
        "2.1", "10.1", "10.2")
    assert "CUDA 10.2 is installed, but TensorFlow 2.1 needs CUDA 10.1." in first.message()
    # no TF version: the toolkit folder the log shows, another CUDA than the library's, still
    # says another CUDA is installed (but not which CUDA TensorFlow needs)
    alone = explain_log(log, "windows")[0]
    assert alone.code == "cuda_version_mismatch" and "tensorflow" not in alone.params
    same = log.replace("v10.2", "v10.1")
    assert explain_log(same, "windows", tf_version="2.1")[0].code == "cudart_missing"


def test_tf_version_against_the_version_in_a_missing_library_name() -> None:
    """The library's own version (a variable in its name) against the CUDA the given TF was
    released for: another CUDA ranks a version mismatch first, the same one does not."""
    log = ("W dso_loader.cc:55] Could not load dynamic library 'cudart64_101.dll'; "
           "dlerror: cudart64_101.dll not found\n")
    first = explain_log(log, "windows", tf_version="1.15")[0]  # TF 1.15: CUDA 10.0
    assert first.code == "cuda_version_mismatch" and first.params["wanted"] == "10.1"
    assert not explain.decisive(explain_log(log, "windows", tf_version="1.15"))
    assert explain_log(log, "windows", tf_version="2.1")[0].code == "cudart_missing"  # 10.1
    assert explain_log(log, "windows")[0].code == "cudart_missing"  # no TF version
    linux = "OSError: libcudart.so.11.0: cannot open shared object file: No such file or directory"
    assert explain_log(linux, "linux", tf_version="1.15")[0].code == "cuda_version_mismatch"
    assert "tf_library_other_cuda" not in [  # TF 2.4: CUDA 11.0, the library's own
        f.params["signature"] for f in explain_log(linux, "linux", tf_version="2.4")]


@pytest.mark.parametrize(("spec", "cuda", "fits"), [
    ("10.1", "10.1", True), ("10.1", "10", False), ("11.x", "11.2", True), ("11.x", "10.1", False),
    ("10.1-11.0", "11.0", True), ("10.1-11.0", "11.2", False), ("11.1+", "12.0", True),
    ("11.1+", "11.0", False), ("?", "11.0", None),
])
def test_cuda_fits_a_library_version(spec: str, cuda: str, fits) -> None:
    assert explain._cuda_fits(spec, cuda) is fits


def test_a_display_listing_without_an_nvidia_gpu_ranks_no_nvidia_gpu_first() -> None:
    amd = ("01:00.0 VGA compatible controller: Advanced Micro Devices, Inc. [AMD/ATI] Ellesmere "
           "[Radeon RX 580] (rev e7)\n")
    no_gpus = "RuntimeError: No CUDA GPUs are available\n"
    first = explain_log(amd + no_gpus, "linux")[0]
    assert first.code == "no_nvidia_gpu" and first.params["vendor"] == "Advanced Micro Devices"
    intel = "00:02.0 VGA compatible controller: Intel Corporation UHD Graphics 620 (rev 07)\n"
    smi = "nvidia-smi: command not found\n"
    assert explain_log(intel + smi, "linux")[0].code == "no_nvidia_gpu"
    assert explain_log("Name\nIntel(R) UHD Graphics 630\n" + no_gpus)[0].code == "no_nvidia_gpu"
    # a hybrid laptop lists its NVIDIA GPU as a 3D controller: not this cause
    hybrid = intel + "01:00.0 3D controller: NVIDIA Corporation GP108M [GeForce MX150]\n"
    assert "no_nvidia_gpu" not in [f.code for f in explain_log(hybrid + no_gpus, "linux")]
    assert explain_log(no_gpus, "linux")[0].code != "no_nvidia_gpu"  # no listing: no verdict
    checked = explain_log(intel + no_gpus, "linux", machine=["nvidia_gpu"])
    assert "no_nvidia_gpu" not in [f.code for f in checked]


CUDART_10 = ("ImportError: libcudart.so.10.0: cannot open shared object file: "
             "No such file or directory\n")


@pytest.mark.parametrize(("context", "first"), [
    ("$ find / -name 'libcudart.so*'\n/usr/local/cuda-10.0/lib64/libcudart.so.10.0.130\n",
     "cuda_not_on_path"),  # the very library is on disk
    ("\tlibcudart.so.10.0 (libc6,x86-64) => /usr/local/cuda/lib64/libcudart.so.10.0\n",
     "cuda_not_on_path"),
    ("$ find / -name 'libcudart.so*'\n/usr/local/cuda-9.2/lib64/libcudart.so.9.2\n",
     "cuda_version_mismatch"),  # only another version is
    ("ls: cannot access '/usr/local/cuda': No such file or directory\n", "cuda_not_installed"),
    ("ls: cannot access '/usr/local/cuda/lib64/': No such file or directory\n",
     "cuda_not_installed"),
])
def test_a_missing_cuda_library_against_what_the_log_shows_on_disk(context: str,
                                                                   first: str) -> None:
    assert explain_log(CUDART_10 + context, "linux")[0].code == first


def test_a_missing_windows_cuda_library_listed_on_disk() -> None:
    log = ("Could not load dynamic library 'cudart64_110.dll'; "
           "dlerror: cudart64_110.dll not found\n"
           "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.2\\bin\\cudart64_110.dll\n")
    assert explain_log(log, "windows")[0].code == "cuda_not_on_path"
    assert explain_log(log.splitlines()[0], "windows")[0].code == "cudart_missing"


def test_a_driver_absent_inside_a_container_is_the_container_without_gpu_access() -> None:
    inside = ("$ docker run -it pytorch/pytorch python -c 'import torch; torch.zeros(1).cuda()'\n"
              "RuntimeError: Found no NVIDIA driver on your system.\n")
    assert explain_log(inside, "linux")[0].code == "container_no_gpu_passthrough"
    smi = "$ docker exec app nvidia-smi\nbash: nvidia-smi: command not found\n"
    assert explain_log(smi, "linux")[0].code == "container_no_gpu_passthrough"
    # the container runtime on the host misses the host's driver: not this cause
    host = "nvidia-container-cli: initialization error: nvml error: driver not loaded: unknown\n"
    assert "container_driver_absent" not in [
        f.params["signature"] for f in explain_log(host, "linux")]
    # no container in sight: the driver itself
    assert explain_log(inside.splitlines()[1], "linux")[0].code != "container_no_gpu_passthrough"


def test_a_cublas_handle_failure_reads_by_framework() -> None:
    torch = ("RuntimeError: CUDA error: CUBLAS_STATUS_ALLOC_FAILED when calling "
             "`cublasCreate(handle)`")
    assert explain_log(torch, "linux")[0].code == "gpu_model_oom"
    tf = ("E tensorflow/stream_executor/cuda/cuda_blas.cc] failed to create cublas handle: "
          "CUBLAS_STATUS_ALLOC_FAILED")
    assert explain_log(tf, "linux")[0].code == "cudnn_handle_oom"


def test_an_unsupported_wheel_against_the_python_the_log_shows() -> None:
    wheel = ("tensorflow_gpu-1.0.1-cp34-cp34m-linux_x86_64.whl is not a supported wheel on this "
             "platform.\n")
    assert explain_log("(py2.7) $ pip install t.whl\n" + wheel, "linux")[0].code == (
        "python_version_unsupported")
    assert explain_log("Python 3.4.3 (default)\n" + wheel, "linux")[0].code == "python_32bit"
    pip = ("C:\\Python\\Python37-32\\Scripts>pip install torch==1.5.1+cpu\n"
           "ERROR: Could not find a version that satisfies the requirement torch==1.5.1+cpu "
           "(from versions: 0.1.2)\nERROR: No matching distribution found for torch==1.5.1+cpu\n")
    assert explain_log(pip, "windows")[0].code == "python_32bit"
    assert explain_log(pip.replace("-32", ""), "windows")[0].code != "python_32bit"


PIP_NO_TF = ("ERROR: Could not find a version that satisfies the requirement tensorflow==2.2.0rc4 "
             "(from versions: none)\n"
             "ERROR: No matching distribution found for tensorflow==2.2.0rc4\n")


def test_the_python_given_against_the_releases_pythons() -> None:
    """pip finding no TensorFlow: a Python the release was built for (TF 2.2: 3.5-3.8) leaves
    the word size as the reason on Windows; one outside its range is the version, decisively;
    no Python given, the version stays first and the 64-bit question asks."""
    alone = explain_log(PIP_NO_TF, "windows")
    assert [f.code for f in alone][:2] == ["python_version_unsupported", "python_32bit"]
    assert explain.question_for(alone) is not None
    inside = explain_log(PIP_NO_TF, "windows", python_version="3.7.4")
    assert inside[0].code == "python_32bit" and not explain.decisive(inside)
    assert inside[0].params["python_range"] == "3.5-3.8"  # Install a 64-bit Python 3.5-3.8
    note = inside[0].params["detail"]
    assert note.id == "explain.phrase.python_in_tf_range" and note.params["version"] == "3.7"
    assert "requirement tensorflow==2.2.0rc4" in inside[0].evidence  # the pip line, not ""
    outside = explain_log(PIP_NO_TF, "windows", python_version="3.9")
    assert outside[0].code == "python_version_unsupported" and explain.decisive(outside)
    assert (outside[0].params["found"], outside[0].params["python"]) == ("3.9", "3.5-3.8")
    # the TensorFlow given beats the one pip was asked for: TF 2.10 has builds for 3.9
    assert explain_log(PIP_NO_TF, "windows", tf_version="2.10",
                       python_version="3.9")[0].code == "python_32bit"
    # on Linux a Python in range says nothing of the word size (aarch64, an old pip...)
    assert explain_log(PIP_NO_TF, "linux", python_version="3.7")[0].code == (
        "python_version_unsupported")
    # anything but a version is not a Python version: as if none were given
    assert [f.code for f in explain_log(PIP_NO_TF, "windows", python_version="3.x")] == [
        f.code for f in alone]


def test_the_python_given_beats_the_one_the_log_shows() -> None:
    wheel = ("(py2.7) $ pip install t.whl\ntensorflow_gpu-1.0.1-cp34-cp34m-linux_x86_64.whl is not "
             "a supported wheel on this platform.\n")
    assert explain_log(wheel, "linux")[0].code == "python_version_unsupported"
    assert explain_log(wheel, "linux", python_version="3.4.3")[0].code == "python_32bit"


def test_probe_log_uses_the_probes_python_version(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list = []
    original = explain.explain_log

    def spy(*args, **kwargs):
        seen.append(kwargs.get("python_version"))
        return original(*args, **kwargs)

    monkeypatch.setattr(explain, "explain_log", spy)
    explain.probe_log_findings({"log": PIP_NO_TF, "python": {"version": "3.7.9", "bits": 64}})
    explain.probe_log_findings({"log": PIP_NO_TF, "python": "not a dict"})
    assert seen[:2] == ["3.7.9", None]


def test_cli_python_option() -> None:
    result = run_cli("-", "--os", "windows", "--python", "3.9", "--json", stdin=PIP_NO_TF)
    assert result.returncode == 0, result.stderr
    payload = json.loads(result.stdout)
    assert payload["decisive"] is True
    assert payload["findings"][0]["code"] == "python_version_unsupported"
    inside = json.loads(run_cli("-", "--os", "windows", "--python", "3.7", "--json",
                                stdin=PIP_NO_TF).stdout)
    assert inside["findings"][0]["code"] == "python_32bit"


@pytest.mark.parametrize(("option", "given", "lang", "words"), [
    ("--python", "three", "en", "is not a Python version"),
    ("--python", "three", "zh_CN", "不是 Python 版本号"),
    ("--cuda", "11", "en", "is not a CUDA Toolkit version"),
    ("--cuda", "11", "zh_CN", "不是 CUDA Toolkit 版本号"),
])
def test_cli_versions_given_are_strict(option: str, given: str, lang: str, words: str) -> None:
    result = run_cli("-", option, given, "--lang", lang, stdin=PIP_NO_TF)
    assert result.returncode == 2
    assert result.stderr.startswith("gpu-wizard explain: ") and f"“{given}”" in result.stderr
    assert words in result.stderr and "Traceback" not in result.stderr
    assert (" " + option) not in result.stdout and result.stdout == ""


def test_found_no_nvidia_driver_ranks_no_gpu_first_unless_the_machine_has_one() -> None:
    """PyTorch's "Found no NVIDIA driver" most often comes from a machine without an NVIDIA GPU
    (round 4 of the corpus); a machine `check` saw an NVIDIA GPU in, or a WSL log, is the
    driver's (or WSL's) problem instead."""
    line = ("RuntimeError: Found no NVIDIA driver on your system. Please check that you have an "
            "NVIDIA GPU and installed a driver from http://www.nvidia.com/Download/index.aspx")
    codes = [f.code for f in explain_log(line, "linux")]
    assert codes[:2] == ["no_nvidia_gpu", "no_driver_or_nvidia_smi_missing"]
    known = [f.code for f in explain_log(line, "linux", machine=["nvidia_gpu"])]
    assert known[0] == "no_driver_or_nvidia_smi_missing" and "no_nvidia_gpu" not in known
    assert explain_log(line, "wsl2")[0].code == "wsl_gpu_missing"


def test_a_plain_out_of_memory_is_the_workload_but_tf_reservation_is_memory_taken() -> None:
    torch = "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB"
    assert explain_log(torch, "linux")[0].code == "gpu_model_oom"
    tf = ("E tensorflow/stream_executor/cuda/cuda_driver.cc:806] failed to allocate 3.90G "
          "(4190763008 bytes) from device: CUDA_ERROR_OUT_OF_MEMORY: out of memory")
    assert explain_log(tf, "linux")[0].code == "cudnn_handle_oom"
    algo = "RuntimeError: Unable to find a valid cuDNN algorithm to run convolution"
    assert explain_log(algo, "linux")[0].code == "gpu_model_oom"


def test_a_pip_install_that_found_no_tensorflow_is_not_native_windows() -> None:
    # pip found no TensorFlow at all: the Python, not TF >= 2.11 on native Windows
    pip = ("ERROR: Could not find a version that satisfies the requirement tensorflow "
           "(from versions: none)\nERROR: No matching distribution found for tensorflow")
    codes = [f.code for f in explain_log(pip, "windows", tf_version="2.19")]
    assert codes[0] == "python_version_unsupported"
    assert "windows_native_tf_2_11_plus" not in codes


def test_a_detail_written_into_a_sentence_starts_with_a_separator() -> None:
    """Where a finding's message writes ``{detail}`` straight after a word ("... GPU
    access{detail}."), every signature's default detail for that code must start with a space,
    a colon or a bracket in both languages: "accessinside a container" once reached users."""
    import re

    from wizard.resources import load_json

    english = messages.catalogue("en")
    inline = {key.split(".")[1] for key, text in english.items()
              if key.startswith("finding.") and ".message" in key
              and re.search(r"\w\{detail\}", text)}
    assert inline, "no message writes {detail} inline: the test would check nothing"
    table = load_json(explain.SIGNATURES_FILE)
    checked = 0
    for raw in table["signatures"] + table["library_families"]:
        detail = (raw.get("defaults") or {}).get("detail")
        if raw.get("code") not in inline or not isinstance(detail, dict):
            continue
        for lang in ("en", "zh_CN"):
            text = messages.render(messages.Message(detail["message"], {}), lang)
            assert re.match(r"[\s:(（：,，]", text), (raw["id"], lang, text)
        checked += 1
    assert checked >= 3


def test_nvenc_without_a_driver_version_is_not_an_old_driver() -> None:
    # NVENC's "(unknown)": the encode library did not load, no driver version to compare
    unknown = "The minimum required Nvidia driver for nvenc is (unknown) or newer"
    assert "nvenc_driver_too_old" not in [
        f.params["signature"] for f in explain_log(unknown, "linux")]


def test_tensorflow_and_tensorflow_gpu_listed_together_conflict() -> None:
    log = ("$ pip show tensorflow-gpu\nName: tensorflow-gpu\nVersion: 1.15.4\n"
           "$ pip show tensorflow\nName: tensorflow\nVersion: 1.15.4\n")
    assert explain_log(log, "linux")[0].code == "tf_conflicting_packages"
    conda = ("tensorflow                1.10.0                   py36_0    conda-forge\n"
             "tensorflow-gpu            1.10.0               hf154084_0    defaults\n")
    assert explain_log(conda, "linux")[0].code == "tf_conflicting_packages"
    alone = "Name: tensorflow-gpu\nVersion: 1.15.4\n"
    assert "tf_conflicting_packages" not in [f.code for f in explain_log(alone, "linux")]


KERNEL_FAULTS = {
    # line -> whether an unstable card is the second candidate
    "RuntimeError: CUDA error: an illegal memory access was encountered": True,
    "RuntimeError: CUDA error: unspecified launch failure": True,
    "RuntimeError: CUDA error: misaligned address": True,
    "CUDA_ERROR_ILLEGAL_INSTRUCTION: an illegal instruction was encountered": True,
    "RuntimeError: cuDNN error: CUDNN_STATUS_EXECUTION_FAILED": True,
    "failed to run cuBLAS routine: CUBLAS_STATUS_EXECUTION_FAILED": True,
    "NVRM: Xid (PCI:0000:01:00): 13, pid=4242, Graphics Exception": True,
    "RuntimeError: CUDA error: device-side assert triggered": False,
    "RuntimeError: CUDA error: the launch timed out and was terminated": False,
    "CUDA failure: too many resources requested for launch in file yoloPlugins.cpp at line 149":
        False,
}


@pytest.mark.parametrize(("line", "card"), KERNEL_FAULTS.items())
def test_a_kernel_fault_is_the_program_then_the_card(line: str, card: bool) -> None:
    """The GPU ran the program: a kernel fault, never a guessed setup cause (issue 13)."""
    findings = explain_log(line, "linux")
    codes = [f.code for f in findings]
    assert codes[0] == "gpu_kernel_fault" and findings[0].severity == "warn", codes
    assert not explain.decisive(findings)
    assert codes[1:] == (["gpu_hardware_fault"] if card else []), codes
    assert "cuda_version_mismatch" not in codes


def test_a_kernel_fault_names_its_kind() -> None:
    [assertion] = explain_log("RuntimeError: CUDA error: device-side assert triggered", "linux")
    assert "index out of range" in assertion.message("en")
    assert "索引越界" in assertion.message("zh_CN")
    [timeout] = explain_log("cudaErrorLaunchTimeout: the launch timed out and was terminated",
                            "windows")
    assert "TdrDelay" in findings_text([timeout])
    # a CPU's SIGILL is no GPU kernel: TensorFlow built for instructions the CPU lacks
    assert "gpu_kernel_fault" not in [f.code for f in explain_log(
        "Illegal instruction (core dumped)", "linux")]


@pytest.mark.parametrize("setup", [
    "Could not load dynamic library 'libcudnn.so.8'; dlerror: libcudnn.so.8: cannot open shared "
    "object file: No such file or directory",
    "RuntimeError: CUDA driver version is insufficient for CUDA runtime version",
    "NVRM: Xid (PCI:0000:01:00): 79, pid=1234, GPU has fallen off the bus.",
])
def test_a_decisive_line_in_the_same_log_beats_a_kernel_fault(setup: str) -> None:
    expected = explain_log(setup, "linux")[0].code
    for fault in ("RuntimeError: CUDA error: an illegal memory access was encountered",
                  "RuntimeError: CUDA error: device-side assert triggered"):
        codes = [f.code for f in explain_log(setup + "\n" + fault, "linux")]
        assert codes[0] == expected and "gpu_kernel_fault" in codes, (setup, codes)


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_cli_text_of_a_kernel_fault(lang: str) -> None:
    log = ("RuntimeError: CUDA error: an illegal memory access was encountered\n"
           "RuntimeError: cuDNN error: CUDNN_STATUS_EXECUTION_FAILED\n")
    result = run_cli("-", "--os", "linux", "--lang", lang, stdin=log)
    assert result.returncode in (0, 1) and "Traceback" not in result.stderr, result.stderr
    out = result.stdout
    assert "{" not in out and "CUDA_LAUNCH_BLOCKING=1" in out and "an illegal memory access" in out
    if lang == "zh_CN":
        assert "内核出错" in out and "显卡本身不稳定" in out
    else:
        assert "kernels failed" in out and "the card itself is unstable" in out


def test_a_failed_kernel_has_no_setup_fix_and_says_why() -> None:
    """Filed as a failure (a probe whose kernel faulted), the wizard offers nothing to install:
    the reason names the program or the card, in every language."""
    from wizard.core.diagnose import CheckOptions, choose_environment, choose_target
    from wizard.core.host import ReplayHost
    from wizard.core.layers import CheckContext, wiring
    from wizard.core.model import Finding

    host = ReplayHost.from_file(REPO / "tests" / "profiles" / "linux-cudnn805-mismatch.json")
    options = CheckOptions(tensorflow="2.10")
    python, probe, env_reason = choose_environment(host, options)
    target = choose_target(host, options, probe, python, env_reason)
    ctx = CheckContext(host=host, target=target, python=python, probe=probe)
    wired = wiring.wire(ctx, Finding("gpu_kernel_fault", "fail"))
    assert wired.fix.action is None and wired.fix.manual_reason is not None
    assert wired.fix.manual_reason.id == "nofix.kernel_fault"
    for lang in ("en", "zh_CN"):
        text = messages.render(wired.fix.manual_reason, lang)
        assert text and "{" not in text


def test_windows_said_of_a_wsl2_log_is_wsl2() -> None:
    """Users on WSL2 often say "Windows": a log that shows the WSL2 kernel is read as WSL2."""
    log = ("RuntimeError: Found no NVIDIA driver on your system.\n"
           "Linux version 5.10.16.3-microsoft-standard-WSL2 (oe-user@oe-host)\n")
    assert explain_log(log, "windows")[0].code == "wsl_gpu_missing"
    native = "RuntimeError: Found no NVIDIA driver on your system.\n"
    assert explain_log(native, "windows")[0].code != "wsl_gpu_missing"


def test_nvcc_not_found_is_about_the_bin_folder_not_the_libraries() -> None:
    """nvcc missing from PATH wants the toolkit's bin folder on PATH: never 'add lib64 to PATH'."""
    for line in ("nvcc: command not found", "No CMAKE_CUDA_COMPILER could be found."):
        [first, *_] = explain_log(line, "linux")
        assert first.code == "cuda_not_on_path"
        for lang in ("en", "zh_CN"):
            text = findings_text([first], lang)
            assert "/usr/local/cuda/bin" in text and "nvcc --version" in text, text
            assert "lib64" not in text, text
    # a library not found keeps the library wording
    [lib, *_] = explain_log("./app: error while loading shared libraries: libcudart.so.12: "
                            "cannot open shared object file: No such file or directory", "linux")
    assert lib.code == "cuda_not_on_path" and "library folder" in lib.fix_summary("en")


@pytest.mark.parametrize(("line", "words"), [
    ("The minimum required Nvidia driver for nvenc is 551.76 or newer",
     ["NVENC", "551.76 or newer"]),
    ("optixInit() failed: OPTIX_ERROR_UNSUPPORTED_ABI_VERSION (7801)", ["OptiX"]),
    ("nvcc fatal   : Unsupported gpu architecture 'compute_86'", ["compute_86", "older than"]),
    ("XGBoostError: XGBoost version not compiled with GPU support.", ["A CPU-only build"]),
    ("RuntimeError: FlashAttention only supports Ampere GPUs or newer.",
     ["Ampere generation or newer"]),
])
def test_round_five_findings_say_what_the_line_means(line: str, words: list[str]) -> None:
    """The message and fix fit the line: an SDK's minimum driver (not "the CUDA it was built
    with"), a toolkit older than the GPU, a CPU-only build with no invented package name."""
    [first, *_] = explain_log(line, "linux")
    english = findings_text([first], "en")
    assert all(word in english for word in words), english
    assert "CUDA version this program was built with" not in english
    assert "the package" not in english
    chinese = findings_text([first], "zh_CN")
    assert "{" not in chinese and "the package" not in chinese


ERROR_803 = ("RuntimeError: Unexpected error from cudaGetDeviceCount(). Error 803: system has "
             "unsupported display driver / cuda driver combination\n")


def test_error_803_reads_what_the_log_and_the_machine_show() -> None:
    """CUDA error 803: a kernel module not reloaded after a driver update, or the CUDA
    forward-compatibility libcuda a container image puts on the loader path; the container
    or the compat folder in the log decides, and a driver ``check`` found too old explains it."""
    bare = [f.code for f in explain_log(ERROR_803, "linux")]
    assert bare[:2] == ["nvml_driver_library_mismatch", "wrong_libcuda_loaded"]
    in_docker = "$ docker run --rm --gpus all vllm/vllm-openai:latest\n" + ERROR_803
    first = explain_log(in_docker, "linux")[0]
    assert first.code == "wrong_libcuda_loaded" and first.params["compat"] == "cuda-compat"
    assert "cuda/compat" in findings_text([first], "en")
    checked = [f.code for f in explain_log(in_docker, "linux", machine=["driver_too_old"])]
    assert "wrong_libcuda_loaded" not in checked


@pytest.mark.parametrize(("profile", "code"), [
    ("linux-driver-470-too-old", "driver_too_old"),
    ("linux-driver-library-mismatch", "nvml_driver_library_mismatch"),
])
def test_check_blames_the_driver_it_read_not_a_compat_libcuda(profile: str, code: str) -> None:
    """Both profiles' logs show CUDA error 803; the driver layer read its cause."""
    from wizard.core.diagnose import run_check
    from wizard.core.host import ReplayHost

    path = Path(__file__).parents[1] / "profiles" / f"{profile}.json"
    driver = next(layer for layer in run_check(ReplayHost.from_file(path)).layers
                  if layer.layer == "driver")
    assert [f.code for f in driver.findings] == [code]


CUDART_101 = ("W tensorflow/stream_executor/platform/default/dso_loader.cc:55] Could not load "
              "dynamic library 'libcudart.so.10.1'; dlerror: libcudart.so.10.1: cannot open "
              "shared object file: No such file or directory")


@pytest.mark.parametrize(("given", "series"), [
    ("11.8", "11.8"), ("11.8.89", "11.8"), ("CUDA 12.4", "12.4"), (" 10.1 ", "10.1"),
    ("11", None), ("11.x", None), ("eleven", None), ("", None)])
def test_a_cuda_toolkit_version_given_reads_as_its_series(given: str, series) -> None:
    assert explain.cuda_series(given) == series


def test_the_cuda_toolkit_given_against_the_library_not_found() -> None:
    """Without the toolkit the log leaves it open; the toolkit given tells: the library's own
    CUDA installed is a loader path on Linux, another CUDA a program built for another CUDA
    (with both versions in the note)."""
    alone = [f.code for f in explain_log(CUDART_101, "linux")]
    assert {"cuda_version_mismatch", "cuda_not_on_path"} <= set(alone)
    assert not explain.decisive(explain_log(CUDART_101, "linux"))
    right = explain_log(CUDART_101, "linux", cuda_version="10.1")
    assert right[0].code == "cuda_not_on_path"
    assert "cuda_version_mismatch" not in [f.code for f in right]
    other = explain_log(CUDART_101, "linux", cuda_version="10.0.130")
    assert other[0].code == "cuda_version_mismatch"
    note = messages.render(other[0].params["detail"], "en")
    assert "libcudart.so.10.1 belongs to CUDA 10.1" in note and "installed is 10.0" in note
    assert "另一个 CUDA" in messages.render(other[0].params["detail"], "zh_CN")
    assert all(f.params.get("file", "libcudart.so.10.1") == "libcudart.so.10.1" for f in other)


def test_the_cuda_toolkit_given_beats_the_one_the_log_shows() -> None:
    shown = CUDART_101 + "\nCuda compilation tools, release 10.0, V10.0.130"
    assert explain_log(shown, "linux")[0].code == "cuda_version_mismatch"
    assert explain_log(shown, "linux", cuda_version="10.1")[0].code == "cuda_not_on_path"


def test_a_release_the_tables_name_by_its_major_fits_its_x_0_toolkit() -> None:
    """TensorFlow 1.4 was built for CUDA "8" (the tables' word), which CUDA 8.0 is."""
    line = ("InvalidArgumentError: Cannot assign a device for operation 'save/SaveV2': Could not "
            "satisfy explicit device specification '/device:GPU:0' because no supported kernel "
            "for GPU devices is available")
    assert explain_log(line, "linux", tf_version="1.4", cuda_version="8.0")[0].code == \
        "op_no_gpu_kernel"
    assert explain_log(line, "linux", tf_version="1.4", cuda_version="9.0")[0].code == \
        "cuda_version_mismatch"


def test_a_listed_gpu_with_only_harmless_lines_is_no_cuda_mismatch() -> None:
    """Proof from above: TF 2.6 (built for CUDA 11.2) that lists its GPU on CUDA 11.4 with only
    NUMA notes printed runs (tensorflow/tensorflow#52144)."""
    log = ("I tensorflow/stream_executor/cuda/cuda_gpu_executor.cc:937] successful NUMA node "
           "read from SysFS had negative value (-1), but there must be at least one NUMA node, "
           "so returning NUMA node zero\n"
           "[PhysicalDevice(name='/physical_device:GPU:0', device_type='GPU')]")
    codes = [f.code for f in explain_log(log, "linux", tf_version="2.6", cuda_version="11.4")]
    assert codes == ["numa_or_harmless_warning"]


def test_cli_cuda_option() -> None:
    result = run_cli("-", "--os", "linux", "--cuda", "10.1", "--json", stdin=CUDART_101)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["findings"][0]["code"] == "cuda_not_on_path"


def test_tensorrt_failing_for_a_missing_dependency_names_the_dependency() -> None:
    """TensorRT's loader names the dependency it lacks after "due to": that one is missing, and
    the log is not one of TensorRT's harmless notes (DDTRobot/tita_rl#2)."""
    line = ("Uncaught exception detected: Unable to open library: libnvinfer_plugin.so.8 due to "
            "libcudnn.so.8")
    findings = explain_log(line, "linux")
    assert findings[0].code == "cudnn_missing" and findings[0].params["file"] == "libcudnn.so.8"
    assert "numa_or_harmless_warning" not in [f.code for f in findings]
    harmless = explain_log("Could not load dynamic library 'libnvinfer.so.7'; dlerror: "
                           "libnvinfer.so.7: cannot open shared object file", "linux")
    assert [f.code for f in harmless] == ["numa_or_harmless_warning"]


@pytest.mark.parametrize(("os_kind", "first"), [
    ("linux", "nvidia_uvm_not_loaded"), ("windows", "gpu_without_driver")])
def test_the_runtimes_unknown_error_reads_by_os(os_kind: str, first: str) -> None:
    """CUDA's error 999 at start is most often nvidia_uvm on Linux; Windows has no such module,
    so there it is the driver the GPU has (broken, or refused by Windows), in the common CHECK
    macro's words as in the runtime's."""
    for line in ("cudaGetDevice(&the_device_id) in file gpu_data.cpp:201. code: 999, reason: "
                 "unknown error", "CUDA error 999: unknown error"):
        codes = [f.code for f in explain_log(line, os_kind)]
        assert codes[0] == first, (line, codes)
        assert "nvidia_uvm_not_loaded" not in codes or os_kind == "linux"
    assert [f.code for f in explain_log("code: 999, reason: unknown error", "windows")][:2] == [
        "gpu_without_driver", "no_driver_or_nvidia_smi_missing"]


def test_an_app_finding_no_nvidia_gpu_is_pytorch_seeing_none() -> None:
    """"No NVIDIA GPU found?" (Unsloth raises it when torch.cuda.is_available() is False): on a
    computer with an NVIDIA GPU, a CPU-only torch; never TensorFlow's native-Windows limit. The
    kernel module's NVRM line of the same words is a machine without an NVIDIA GPU."""
    line = ("NotImplementedError: Unsloth: No NVIDIA GPU found? Unsloth currently only supports "
            "GPUs!")
    findings = explain_log(line, "windows", machine=["nvidia_gpu"])
    assert findings[0].code == "gpu_not_listed_cpu_only_package"
    assert "windows_native_tf_2_11_plus" not in [f.code for f in findings]
    assert "pytorch.org" in str(findings[0].fix)
    nvrm = explain_log("NVRM: No NVIDIA GPU found.", "linux")
    assert nvrm[0].code == "no_nvidia_gpu"


def test_triton_servers_start_up_is_inside_a_container() -> None:
    """Triton Inference Server, which NVIDIA ships as a container image: its DCGM line beside
    an insufficient driver points at a container started without the GPU first."""
    log = ("Error: Failed to initialize NVML\n"
           "W0303 09:57:36.731008 125 metrics.cc:221] DCGM unable to start: DCGM initialization "
           "error\n"
           "W0303 09:57:36.731207 125 pinned_memory_manager.cc:236] Unable to allocate pinned "
           "system memory, pinned memory pool will not be available: CUDA driver version is "
           "insufficient for CUDA runtime version\n")
    assert explain_log(log, "linux")[0].code == "container_no_gpu_passthrough"
    alone = log.splitlines()[-1]
    assert explain_log(alone, "linux")[0].code == "driver_too_old"


PADDLE_NO_DEVICE = ("InvalidArgumentError: Device id must be less than GPU count, but received id "
                    "is: 0. GPU count is: 0.\n")


def test_paddle_counting_no_gpu_is_cuda_seeing_no_device() -> None:
    """Paddle's GPU build asks cudaGetDeviceCount and finds none: the causes of
    CUDA_ERROR_NO_DEVICE, and inside a container (Docker's default host name in the shell
    prompt) the container."""
    alone = [f.code for f in explain_log(PADDLE_NO_DEVICE, "linux")]
    no_device = [f.code for f in explain_log(
        "failed call to cuInit: CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected", "linux")]
    assert alone and alone == no_device
    prompt = "root@f14d48a29224:/app# python infer.py\n"
    assert explain_log(prompt + PADDLE_NO_DEVICE, "linux")[0].code == "container_no_gpu_passthrough"
    assert [f.code for f in explain_log(PADDLE_NO_DEVICE, "wsl2")][0] == "wsl_gpu_missing"
    # a GPU counted is no device missing
    assert "cuda_visible_devices_misconfigured" not in [f.code for f in explain_log(
        PADDLE_NO_DEVICE.replace("count is: 0", "count is: 1"), "linux")]


@pytest.mark.parametrize(("command", "without_gpu"), [
    ("$ docker run --rm myimage python check.py", True),
    ("❯ podman run -it myimage python check.py", True),
    ("$ docker run --gpus all --rm myimage python check.py", False),
    ("$ docker run --runtime=nvidia --rm myimage python check.py", False),
    ("$ docker run --device nvidia.com/gpu=all --rm myimage python check.py", False),
    ("$ nvidia-docker run --rm myimage python check.py", False),
])
def test_a_docker_run_that_asks_for_no_gpu_is_the_container(command: str,
                                                              without_gpu: bool) -> None:
    log = command + "\n>>> torch.cuda.is_available()\nFalse\n"
    findings = explain_log(log, "linux")
    first = findings[0].code == "container_no_gpu_passthrough"
    assert first == without_gpu, [f.code for f in findings]
    if without_gpu:
        for lang in ("en", "zh_CN"):
            assert "--gpus all" in findings[0].message(lang)


def test_pytorch_finding_no_cuda_gpu_on_a_computer_without_one() -> None:
    """"No CUDA GPUs are available" (PyTorch counting no device): CUDA_VISIBLE_DEVICES first,
    but a computer the user says has no NVIDIA GPU (an AMD card's name) has that cause."""
    line = "RuntimeError: No CUDA GPUs are available"
    assert explain_log(line, "windows")[0].code == "cuda_visible_devices_misconfigured"
    assert explain_log(line, "windows", machine=["no_nvidia_gpu"])[0].code == "no_nvidia_gpu"


def test_an_npp_library_names_the_cuda_it_was_built_for() -> None:
    """NPP's sonames carry the toolkit's version as cuBLAS's did (libnppi.so.7.5; from CUDA 11
    on only the major): against the CUDA Toolkit given, another CUDA is a mismatch."""
    assert explain.library_versions("libnppi.so.7.5") == {"cuda": "7.5"}
    assert explain.library_versions("libnppc.so.12") == {"cuda": "12.x"}
    line = ("mpv: error while loading shared libraries: libnppi.so.7.5: cannot open shared object "
            "file: No such file or directory")
    assert explain_log(line, "linux", cuda_version="8.0")[0].code == "cuda_version_mismatch"
    assert explain_log(line, "linux", cuda_version="7.5")[0].code != "cuda_version_mismatch"


@pytest.mark.parametrize(("line", "os_kind"), [
    ("The third-party dynamic library (cublas64_112.dll;cublas64_11.dll) that Paddle depends on "
     "is not configured correctly. (error code is 126)", "windows"),
    ("OSError: libcublas.so.11: cannot open shared object file: No such file or directory",
     "linux"),
])
def test_a_cuda_library_not_found_reads_alike_in_every_form(line: str, os_kind: str) -> None:
    """However a program names the CUDA library it could not open (the loader's words, Paddle's
    third-party list), the same three candidates; the CUDA Toolkit given decides between them."""
    codes = [f.code for f in explain_log(line, os_kind)]
    assert sorted(codes) == ["cuda_lib_other_missing", "cuda_not_on_path", "cuda_version_mismatch"]
    other = [f.code for f in explain_log(line, os_kind, cuda_version="10.2")]
    assert other[0] == "cuda_version_mismatch"
    same = [f.code for f in explain_log(line, os_kind, cuda_version="11.2")]
    assert "cuda_version_mismatch" not in same and "cuda_not_on_path" in same[:2]


def test_cuinit_refusing_a_device_is_cuda_visible_devices() -> None:
    """cuInit takes no device index: its CUDA_ERROR_INVALID_DEVICE comes from the devices
    CUDA_VISIBLE_DEVICES names (a scheduler's "0,0"); a program's own index fails later."""
    line = ("E tensorflow/stream_executor/cuda/cuda_driver.cc:314] failed call to cuInit: "
            "CUDA_ERROR_INVALID_DEVICE: invalid device ordinal")
    assert explain_log(line, "linux")[0].code == "cuda_visible_devices_misconfigured"
    own = "RuntimeError: CUDA error: invalid device ordinal"
    assert explain_log(own, "linux")[0].code == "gpu_index_out_of_range"


def test_a_library_that_failed_to_open_is_the_library_missing() -> None:
    """NVRTC's words ("failed to open libnvrtc-builtins.so.11.1") name the library as the
    loader's do: a CUDA library missing, not a guess from the shape of the line."""
    findings = explain_log("RuntimeError: nvrtc: error: failed to open "
                           "libnvrtc-builtins.so.11.1.", "linux")
    assert findings[0].code == "cuda_lib_other_missing"
    assert findings[0].params["file"] == "libnvrtc-builtins.so.11.1"


LSMOD_NVIDIA = ("nvidia_drm            122880  1\n"
                "nvidia_modeset       1916928  1 nvidia_drm\n"
                "nvidia              56532992  2 nvidia_modeset\n")


def test_lsmod_listing_the_nvidia_modules_without_uvm_is_uvm_not_loaded() -> None:
    """The output of the deciding command itself (`lsmod | grep nvidia`): the nvidia modules
    loaded and no nvidia_uvm line point at nvidia-uvm (a line of the log says so), whether or
    not the OS is given; a listing with it, or a log said to be from Windows, has no line for
    it (at most a similar report's lead, with no evidence)."""
    for os_kind in ("linux", None):  # an lsmod listing is Linux's own, said or not
        without = explain_log("$ lsmod | grep nvidia\n" + LSMOD_NVIDIA, os_kind)
        assert without[0].code == "nvidia_uvm_not_loaded"
        assert without[0].evidence == "nvidia_drm            122880  1"
    with_uvm = explain_log("nvidia_uvm           1437696  0\n" + LSMOD_NVIDIA, "linux")
    on_windows = explain_log(LSMOD_NVIDIA, "windows")
    for findings in (with_uvm, on_windows):
        assert all(f.evidence is None for f in findings if f.code == "nvidia_uvm_not_loaded")


def test_a_ggml_build_without_code_for_the_gpu_is_compute_capability() -> None:
    for line in ("ERROR: ggml-cuda was compiled without support for the current GPU architecture.",
                 "mmv.cu:51: ERROR: CUDA kernel mul_mat_vec has no device code compatible with "
                 "CUDA arch 520. ggml-cuda.cu was compiled for: 520"):
        first = explain_log(line)[0]
        assert (first.code, first.params["signature"]) == (
            "compute_capability_unsupported", "ggml_arch_not_built")


def test_a_failed_assert_on_cuda_is_available_is_torch_without_the_gpu() -> None:
    """An assert is no call: a traceback shows its line only where it raised, so the line
    says torch.cuda.is_available() was False, whatever message the program gave with it."""
    log = ('  File "train.py", line 9, in <module>\n'
           '    assert torch.cuda.is_available(), "CPU training is not allowed."\n'
           "AssertionError: CPU training is not allowed")
    assert explain_log(log)[0].code == "gpu_not_listed_cpu_only_package"
    with_build = log + "\ntorch 2.1.0+cu121"
    assert explain_log(with_build)[0].code != "gpu_not_listed_cpu_only_package"
