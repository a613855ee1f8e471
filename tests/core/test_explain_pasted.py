"""`explain` reads a log as the program printed it, however it was captured or pasted: terminal
colours, a page source's HTML entities, a CI runner's or ``docker logs -t``'s time stamps, an
editor's line numbers, a JSON or Python string, Docker's JSON records, lines a console cut at
its width, and the operating system's own messages in the user's language."""

from __future__ import annotations

import json

import pytest

from wizard.core.explain import explain_log
from wizard.core.pasted_log import TERMINAL_WIDTHS, as_printed, unwrapped, unwrapped_readings

CUDNN_LINE = ("2023-07-31 18:56:25.098058: W tensorflow/stream_executor/platform/default/"
              "dso_loader.cc:64] Could not load dynamic library 'cudnn64_8.dll'; dlerror: "
              "cudnn64_8.dll not found")
CONDA_LOG = ("UnsatisfiableError: The following specifications were found to be in conflict:\n"
             "  - python 3.6*\n"
             "  - tensorflow 1.0.0*")


def codes(log: str, os_kind: str = "windows") -> list[str]:
    return [f.code for f in explain_log(log, os_kind)]


def test_the_plain_logs_the_cases_start_from() -> None:
    assert codes(CUDNN_LINE)[0] == "cudnn_missing"
    assert codes(CONDA_LOG)[0] == "python_version_unsupported"


def test_terminal_colours_are_dropped() -> None:
    coloured = CUDNN_LINE.replace("dynamic library", "dynamic \x1b[1mlibrary")
    coloured = "\x1b[1;31m" + coloured + "\x1b[0m"
    assert codes(coloured)[0] == "cudnn_missing"
    assert as_printed("\x1b[31mERROR\x1b[0m: x") == "ERROR: x"


def test_html_entities_of_a_page_source_are_characters_again() -> None:
    escaped = CUDNN_LINE.replace("'", "&#39;")
    assert codes(escaped)[0] == "cudnn_missing"
    assert as_printed("a &quot;b&quot; &lt;c&gt; &amp;") == 'a "b" <c> &'


@pytest.mark.parametrize("stamp", [
    "2024-05-01T10:00:00.1234567Z ",  # GitHub Actions
    "2024-05-01T10:00:00.123456789+02:00 ",  # docker logs -t
    "[2024-05-01 10:00:00] ",
    "[10:00:00] ",
])
def test_time_stamps_before_each_line_are_dropped(stamp: str) -> None:
    stamped = "\n".join(stamp + line for line in CONDA_LOG.splitlines())
    assert codes(stamped)[0] == "python_version_unsupported"


def test_tensorflows_own_time_stamp_is_kept() -> None:
    # "2023-07-31 18:56:25.098058: W ..." is part of TF's line (a colon after the time)
    assert as_printed(CUDNN_LINE) == CUDNN_LINE


@pytest.mark.parametrize("width", [80, 120])
def test_lines_a_console_cut_at_its_width_are_joined(width: int) -> None:
    assert width in TERMINAL_WIDTHS
    message = "Cannot use GPU in CPU-only Caffe: check mode."
    assert codes(message, "linux")[0] == "gpu_not_listed_cpu_only_package"
    # the console's edge falls inside "CPU-only"
    line = "F0107 18:26:07.968050  3245 common.cpp:66] ".rjust(width - 22, "-") + message
    assert line[width - 2:width + 2] == "U-on"
    cut = line[:width] + "\n" + line[width:]
    assert codes(cut, "linux")[0] == "gpu_not_listed_cpu_only_package"


def test_a_log_whose_longest_line_is_a_console_width_keeps_its_lines() -> None:
    # 80 characters, then a line that must still be read on its own (an anchored pattern)
    first = "Solving environment: failed with initial frozen solve. Retrying with flexible."
    first = first.ljust(80, ".")
    assert codes(first + "\n" + CONDA_LOG)[0] == "python_version_unsupported"


# (the operating system's message in the user's language, the English it stands for)
LOCALISED = [
    ("linux", "ImportError: libcudnn.so.8: 无法打开共享对象文件: 没有那个文件或目录",
     "ImportError: libcudnn.so.8: cannot open shared object file: No such file or directory"),
    ("linux", "OSError: libcudart.so.11.0: не удается открыть файл разделяемого объекта: "
              "Нет такого файла или каталога",
     "OSError: libcudart.so.11.0: cannot open shared object file: No such file or directory"),
    ("linux", "bash: nvidia-smi: 未找到命令", "bash: nvidia-smi: command not found"),
    ("linux", "bash: nvcc: Befehl nicht gefunden", "bash: nvcc: command not found"),
    ("windows", "'nvcc' 不是内部或外部命令，也不是可运行的程序\n或批处理文件。",
     "'nvcc' is not recognized as an internal or external command,\n"
     "operable program or batch file."),
    ("windows", 'Der Befehl "nvidia-smi" ist entweder falsch geschrieben oder\n'
                "konnte nicht gefunden werden.",
     "'nvidia-smi' is not recognized as an internal or external command,\n"
     "operable program or batch file."),
    ("windows", "无法将“nvidia-smi”项识别为 cmdlet、函数、脚本文件或可运行程序的名称。",
     "nvidia-smi : The term 'nvidia-smi' is not recognized as the name of a cmdlet, function, "
     "script file, or operable program."),
    ("windows", 'OSError: [WinError 126] 找不到指定的模块。 Error loading "C:\\Python310\\lib\\'
                'site-packages\\torch\\lib\\cudnn_cnn_infer64_8.dll" or one of its dependencies.',
     'OSError: [WinError 126] The specified module could not be found. Error loading "C:\\'
     'Python310\\lib\\site-packages\\torch\\lib\\cudnn_cnn_infer64_8.dll" or one of its '
     'dependencies.'),
]


@pytest.mark.parametrize(("os_kind", "localised", "english"), LOCALISED)
def test_the_systems_own_messages_read_the_same_in_the_users_language(
        os_kind: str, localised: str, english: str) -> None:
    expected = codes(english, os_kind)
    assert expected, english
    assert codes(localised, os_kind) == expected


def test_the_evidence_is_the_line_as_written() -> None:
    finding = explain_log(LOCALISED[0][1], "linux")[0]
    assert "无法打开共享对象文件" in str(finding.evidence)


@pytest.mark.parametrize("stored", [
    json.dumps(CONDA_LOG),  # a JSON string, as an API or a log shipper returns it
    repr(CONDA_LOG),  # Python's repr, as a script prints a captured stderr
    "\n".join(json.dumps({"log": line + "\n", "stream": "stderr", "time": "2024-05-01T10:00:00Z"})
              for line in CONDA_LOG.splitlines()),  # Docker's json-file records
    "\n".join(f"{number:>4} | {line}" for number, line in enumerate(CONDA_LOG.splitlines(), 1)),
])
def test_a_log_stored_in_a_string_or_records_is_read_as_printed(stored: str) -> None:
    assert codes(stored)[0] == "python_version_unsupported"
    assert as_printed(stored).strip() == CONDA_LOG


def test_a_one_line_log_in_quotes_is_read_as_printed() -> None:
    assert codes(json.dumps(CUDNN_LINE))[0] == "cudnn_missing"
    assert as_printed(json.dumps(CUDNN_LINE)) == CUDNN_LINE


def test_a_web_pages_spaces_are_plain_spaces() -> None:
    copied = CUDNN_LINE.replace(" ", "\u00a0").replace(".", ".\u200b")
    assert codes(copied)[0] == "cudnn_missing"
    assert as_printed(copied) == CUDNN_LINE
    assert as_printed("日志\u3000错误") == "日志 错误"


def test_a_one_line_windows_log_with_paths_is_no_string_literal() -> None:
    # "\n" of "\nvcuda.dll" is a folder's backslash, not a line break
    line = (r'OSError: [WinError 126] Error loading "C:\Windows\System32\nvcuda.dll" or one of '
            r'its dependencies. Also tried C:\Windows\System32\nvml.dll')
    assert as_printed(line) == line
    escaped = json.dumps(line + "\n" + line)  # the same lines inside a JSON string
    assert as_printed(escaped) == line + "\n" + line


@pytest.mark.parametrize("width", [64, 72, 80, 100])
def test_lines_reflowed_at_word_boundaries_are_joined(width: int) -> None:
    import textwrap
    log = ("Traceback (most recent call last):\n"
           '  File "train.py", line 3, in <module>\n'
           "    import tensorflow as tf\n"
           "ImportError: Could not find 'cudart64_110.dll'. TensorFlow requires that this DLL be "
           "installed in a directory that is named in your %PATH% environment variable. Download "
           "and install CUDA 11.0 from this URL: https://developer.nvidia.com/cuda-toolkit")
    expected = codes(log)
    reflowed = "\n".join("\n".join(textwrap.wrap(line, width, break_on_hyphens=False))
                         for line in log.split("\n"))
    assert reflowed.count("\n") > log.count("\n")
    assert codes(reflowed) == expected
    # the joined line is the evidence, the pieces keep their line numbers
    evidence = explain_log(reflowed, "windows")[0].evidence
    assert "'cudart64_110.dll'. TensorFlow requires" in evidence


def test_a_one_line_message_reflowed_onto_two_lines_is_joined() -> None:
    message = ("E0501 10:00:00.123456  4242 worker.py:88] RuntimeError: CUDA error: "
               "no kernel image is available for execution on the device")
    assert codes(message, "linux")[0] == "compute_capability_unsupported"
    # a mail client's break falls between "no" and "kernel image"
    cut = message.index(" kernel image")
    assert codes(message[:cut] + "\n" + message[cut + 1:], "linux")[0] == \
        "compute_capability_unsupported"


def test_a_short_log_of_separate_lines_is_not_taken_for_a_reflow() -> None:
    lines = ["nvidia-smi", "NVIDIA-SMI has failed because it couldn't communicate with the "
             "NVIDIA driver.", "  Make sure that the latest NVIDIA driver is installed and "
             "running."]
    assert unwrapped(lines) == lines  # the next line is indented: a line of its own
    listing = ["$ ls /usr/local/cuda/lib64", "libcudart.so.11.0", "libcublas.so.11"]
    assert unwrapped(listing) == listing  # its longest line is shorter than any reflow width


def test_a_reflowed_line_exactly_a_console_wide_is_read_both_ways() -> None:
    """A mail reflowed at 80 columns fills some lines to exactly 80, as a console's cut does:
    the pieces are read joined as cut (no space) and as reflowed (a space)."""
    first = "Check failed: (err) == (cudaSuccess) Name: mxnet_generic_kernel ErrStr:no kernel"
    assert len(first) == 80
    lines = [first, "image is available for execution on the device"]
    assert unwrapped(lines)[0].endswith("kernelimage is available for execution on the device")
    other = unwrapped_readings(lines)[1]
    assert other[0].endswith("kernel image is available for execution on the device")
    assert codes("\n".join(lines), "linux")[0] == "compute_capability_unsupported"
    assert unwrapped_readings(["a short line", "another"])[1] is None


@pytest.mark.parametrize("width", [48, 56, 64])
def test_a_short_message_reflowed_at_a_narrow_width_is_joined(width: int) -> None:
    """A mail or chat reflowed at 64 columns or less leaves lines shorter than 60: the pieces
    are still read as one line."""
    import textwrap
    message = "RuntimeError: Unable to find a valid cuDNN algorithm to run convolution"
    pieces = textwrap.wrap(message, width)
    assert len(pieces) == 2 and max(map(len, pieces)) < 60
    assert codes("\n".join(pieces), "linux") == codes(message, "linux")


def test_a_console_cut_taken_for_a_reflow_is_read_as_cut_too() -> None:
    """The reverse: a console's cut whose other lines end anywhere short of the width reads as
    a reflow (joined with a space); the line exactly the width is read joined without it too."""
    log = ("2016-12-14 10:19:34: python.d INFO: nv 'nvMemFactor' set to: 1\n"
           "2016-12-14 10:19:34: python.d ERROR: nv pynvml could not be initialized Insuffic\n"
           "ient Permissions\n"
           "2016-12-14 10:19:34: python.d ERROR: nv check() failed - disabling job")
    lines = log.split("\n")
    assert len(lines[1]) == 80
    assert "Insuffic ient" in unwrapped(lines)[1]
    assert "Insufficient Permissions" in unwrapped_readings(lines)[1][1]
    assert codes(log, "linux") == codes(log.replace("Insuffic\nient", "Insufficient"), "linux")
