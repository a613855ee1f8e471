"""The three report renderers: JSON (the contract), Markdown (bug reports), terminal text."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from wizard.core import report as fmt
from wizard.core.diagnose import run_check
from wizard.core.host import ReplayHost
from wizard.core.model import (
    LAYERS,
    Finding,
    Fix,
    LayerResult,
    Link,
    Report,
    Step,
    Target,
)

PROFILES = Path(__file__).resolve().parents[1] / "profiles"
ANSI = re.compile(r"\x1b\[[0-9;]*m")

EVIDENCE = "Could not load dynamic library 'cudnn64_8.dll'\nline with ``` fences ```\nthird line"


def synthetic(ready: bool = False, blocking: bool = True) -> Report:
    """A hand-made report: every field a renderer must show, and text that breaks naive
    Markdown (pipes, backtick fences, Windows paths, an underscore code)."""
    cudnn_finding = Finding(
        "cudnn_missing",
        "fail",
        {"cudnn": "8.1", "cuda": "11.2", "file_note": " (cudnn64_8.dll)"},
        EVIDENCE,
        Fix(
            steps=(
                Step("text", {"text": "Download the zip | unpack it"}),
                Step("run", {"command": "pip install nvidia-cudnn-cu11==8.6.0.163"}),
            ),
            links=(Link("cuDNN archive", "https://developer.nvidia.com/rdp/cudnn-archive"),),
            commands=("pip install nvidia-cudnn-cu11==8.6.0.163",),
            action="install_cudnn",
        ),
    )
    warn_finding = Finding("zlibwapi_missing", "warn", {"found": "8.9.7"}, None, Fix())
    layers = [
        LayerResult("gpu", "ok", "NVIDIA GeForce RTX 3070 Ti Laptop GPU, compute 8.6"),
        LayerResult("driver", "ok", "driver 516.94 | CUDA 11.7"),
        LayerResult("cuda", "n/a", "not needed"),
        LayerResult(
            "cudnn",
            "fail" if blocking else "warn",
            "no cuDNN in C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.2\\bin",
            findings=[cudnn_finding, warn_finding] if blocking else [warn_finding],
        ),
        LayerResult("tensorflow", "unknown" if not ready else "ok", "TensorFlow 2.10.1"),
    ]
    return Report(
        platform={"system": "windows", "release": "10.0.22631", "arch": "x86_64", "wsl": None},
        target=Target("2.10.1", "11.2", "8.1", "3.7-3.10", "installed in C:\\envs\\tf", "windows"),
        layers=layers,
        ready=ready,
        python="C:\\Users\\me\\miniconda3\\envs\\tf\\python.exe",
    )


def replay(name: str) -> Report:
    return run_check(ReplayHost.from_file(PROFILES / f"{name}.json"))


# -- JSON ---------------------------------------------------------------------------------------


def test_json_is_the_report_contract() -> None:
    report = synthetic()
    data = json.loads(fmt.to_json(report))
    assert data == json.loads(json.dumps(report.to_dict()))
    assert data["format"] == "gpu-wizard/report@1"
    assert [layer["layer"] for layer in data["layers"]] == list(LAYERS)
    assert data["blocking_layer"] == "cudnn" and data["ready"] is False
    finding = data["layers"][3]["findings"][0]
    assert finding["code"] == "cudnn_missing" and finding["evidence"] == EVIDENCE
    assert finding["fix"]["action"] == "install_cudnn"


def test_json_keeps_non_ascii_text() -> None:
    text = fmt.to_json(replay("win-zh-cn-healthy"))
    assert "张伟" in text, "non-ASCII text is written as is, not as \\u escapes"


# -- Markdown -----------------------------------------------------------------------------------


def md_table_rows(markdown: str) -> list[list[str]]:
    rows = [line for line in markdown.splitlines() if line.startswith("| ")]
    cells = [re.split(r"(?<!\\)\|", row.strip().strip("|")) for row in rows]
    return [[c.strip() for c in row] for row in cells][2:]  # without header and rule


def test_markdown_has_platform_target_and_layer_table() -> None:
    md = fmt.to_markdown(synthetic())
    assert md.startswith("# GPU Setup Wizard report\n")
    assert "**Platform:** Windows, 10.0.22631, x86_64" in md
    assert "TensorFlow 2.10.1, CUDA 11.2, cuDNN 8.1, Python 3.7-3.10" in md
    assert "installed in C:\\envs\\tf" in md
    assert "`C:\\Users\\me\\miniconda3\\envs\\tf\\python.exe`" in md
    assert "Not ready: fix the cudnn layer first." in md
    rows = md_table_rows(md)
    assert [row[0] for row in rows] == list(LAYERS)
    assert [row[1] for row in rows] == ["✔ ok", "✔ ok", "– n/a", "✘ fail", "? unknown"]
    assert rows[1][2] == "driver 516.94 \\| CUDA 11.7", "a pipe in a cell is escaped"
    assert len(rows[1]) == 3


def test_markdown_finding_has_message_evidence_fix_steps_commands_links() -> None:
    md = fmt.to_markdown(synthetic())
    assert "### cudnn: cuDNN not found (`cudnn_missing`, fail)" in md
    assert "cuDNN 8.1 was not found (cudnn64_8.dll)." in md.replace("\\_", "_")
    # the evidence block's fence is longer than the backtick run inside it
    assert "````text\n" + EVIDENCE + "\n````" in md
    assert "**Fix:** Download cuDNN 8.1 for CUDA 11.2" in md
    assert "1. Download the zip | unpack it" in md
    assert "pip install nvidia-cudnn-cu11==8.6.0.163\n```" in md
    assert "Run: pip install" not in md, "a step that only repeats a command is not doubled"
    assert "- [cuDNN archive](https://developer.nvidia.com/rdp/cudnn-archive)" in md
    assert "### cudnn: zlibwapi.dll missing (`zlibwapi_missing`, warn)" in md


def test_markdown_ends_with_the_facts_as_json() -> None:
    report = replay("win-cudnn89-no-zlibwapi")
    md = fmt.to_markdown(report)
    start = md.index("<details><summary>")
    block = md[start:]
    assert block.rstrip().endswith("</details>")
    body = block.split("```json\n", 1)[1].rsplit("\n```", 1)[0]
    facts = json.loads(body)
    assert set(facts) <= set(LAYERS)
    assert facts == {layer["layer"]: layer["facts"] for layer in report.to_dict()["layers"]
                     if layer["facts"]}


def test_markdown_of_a_ready_machine() -> None:
    md = fmt.to_markdown(replay("win-tf210-healthy"))
    assert "Ready: TensorFlow 2.10.1 runs on the GPU." in md
    assert "**Blocking layer:** none" in md
    assert "## Findings" not in md or "(`" in md


@pytest.mark.parametrize("name", ["win-cudnn-partial-copy", "linux-driver-library-mismatch",
                                  "wsl2-linux-driver-inside"])
def test_markdown_names_every_finding_of_real_profiles(name: str) -> None:
    report = replay(name)
    md = fmt.to_markdown(report)
    for code in report.codes():
        assert f"(`{code}`," in md
    assert md.count("```") % 2 == 0, "every fence is closed"


# -- terminal text ------------------------------------------------------------------------------


def layer_lines(text: str) -> list[str]:
    pattern = re.compile(r"^ \S+ (ok|warn|fail|unknown|n/a) ")
    return [line for line in text.splitlines() if pattern.match(line)]


def test_text_one_line_per_layer_with_symbol_and_word() -> None:
    text = fmt.to_text(synthetic(), color=False, encoding="utf-8")
    lines = layer_lines(text)
    assert len(lines) == 5
    expected = [("✔", "ok", "gpu"), ("✔", "ok", "driver"), ("–", "n/a", "cuda"),
                ("✘", "fail", "cudnn"), ("?", "unknown", "tensorflow")]
    for line, (symbol, word, layer) in zip(lines, expected):
        assert line.split()[:3] == [symbol, word, layer], line


def test_text_findings_are_indented_with_fix_and_commands() -> None:
    text = fmt.to_text(synthetic(), color=False, encoding="utf-8")
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if "[cudnn_missing]" in line)
    assert lines[start].startswith("       ✘ cuDNN not found")
    block = "\n".join(lines[start:start + 12])
    assert "cuDNN 8.1 was not found (cudnn64_8.dll)." in block
    assert "seen: Could not load dynamic library 'cudnn64_8.dll'" in block
    assert "fix: Download cuDNN 8.1 for CUDA 11.2" in block
    assert "1. Download the zip | unpack it" in block
    assert "$ pip install nvidia-cudnn-cu11==8.6.0.163" in block
    assert "cuDNN archive: https://developer.nvidia.com/rdp/cudnn-archive" in block
    assert "! zlibwapi.dll missing [zlibwapi_missing]" in text


def test_text_closing_line() -> None:
    assert fmt.to_text(synthetic(), encoding="utf-8").rstrip().endswith(
        "Not ready: fix the cudnn layer first.")
    assert fmt.to_text(synthetic(ready=True, blocking=False), encoding="utf-8").rstrip().endswith(
        "Ready: TensorFlow 2.10.1 runs on the GPU.")
    unsure = fmt.to_text(synthetic(blocking=False), encoding="utf-8").rstrip()
    assert unsure.splitlines()[-1].startswith("Not ready:")
    assert "cudnn layer" in unsure.splitlines()[-1]


def test_text_ascii_fallback() -> None:
    text = fmt.to_text(replay("win-zh-cn-healthy"), color=False, encoding="ascii")
    text.encode("ascii")  # no exception: symbols replaced, Chinese text made printable
    assert all(line.split()[0] == "+" for line in layer_lines(text))
    broken = fmt.to_text(synthetic(), color=False, encoding="ascii")
    symbols = [line.split()[0] for line in layer_lines(broken)]
    assert symbols == ["+", "+", "-", "x", "?"]


def test_text_gbk_console_keeps_chinese() -> None:
    """A Chinese Windows console (cp936) cannot show the check marks but can show Chinese."""
    text = fmt.to_text(replay("win-zh-cn-healthy"), color=False, encoding="gbk")
    text.encode("gbk")
    assert "✔" not in text
    assert "Ready: TensorFlow 2.10.1 runs on the GPU." in text


def test_text_colour_only_when_asked() -> None:
    plain = fmt.to_text(synthetic(), color=False, encoding="utf-8")
    assert "\x1b[" not in plain
    coloured = fmt.to_text(synthetic(), color=True, encoding="utf-8")
    assert "\x1b[31m✘ fail" in coloured and "\x1b[32m✔ ok" in coloured
    assert ANSI.sub("", coloured) == plain


def test_cli_prints_text_with_exit_code(capsys: pytest.CaptureFixture[str]) -> None:
    from wizard.cli import main

    code = main(["check", "--profile", str(PROFILES / "win-tf210-cudnn-never-copied.json"),
                 "--no-color"])
    out = capsys.readouterr().out
    assert code == 1
    assert "\x1b[" not in out
    assert out.rstrip().endswith("Not ready: fix the cudnn layer first.")


@pytest.mark.parametrize("path", sorted(PROFILES.glob("*.json")), ids=lambda p: p.stem)
def test_every_profile_renders(path: Path) -> None:
    report = run_check(ReplayHost.from_file(path))
    text = fmt.to_text(report, color=True, encoding="utf-8")
    last = ANSI.sub("", text).rstrip().splitlines()[-1]
    if report.ready:
        assert last == f"Ready: TensorFlow {report.target.tensorflow} runs on the GPU."
    elif "no_nvidia_gpu" in report.codes():
        assert last.startswith("Not ready: this machine has no NVIDIA GPU")
    elif not report.target.gpu_supported and report.blocking_layer == "tensorflow":
        assert "has no GPU support on native Windows" in last
    elif report.blocking_layer:
        assert last == f"Not ready: fix the {report.blocking_layer} layer first."
    else:
        assert last.startswith("Not ready:")
    assert len(layer_lines(ANSI.sub("", text))) == len(report.layers)
    md = fmt.to_markdown(report)
    assert len(md_table_rows(md)) == len(report.layers)
    assert md.count("```") % 2 == 0
