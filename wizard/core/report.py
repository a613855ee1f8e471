"""Report -> JSON / Markdown / terminal text (DESIGN section 5).

* :func:`to_json` is the ``gpu-wizard check --json`` contract.
* :func:`to_markdown` is bug-report-ready: paste it into an issue as it is.
* :func:`to_text` is what ``gpu-wizard check`` prints: one line per layer with a status word and
  a symbol, the findings indented below with their fix, and a closing verdict.

All three read ``Report.to_dict()``, so they show exactly what the JSON holds (English text from
:mod:`wizard.core.codes`).
"""

from __future__ import annotations

import codecs
import json
import re
import sys
from typing import Any, Optional

from wizard.core import codes
from wizard.core.model import Report

SYMBOLS = {"ok": "✔", "warn": "!", "fail": "✘", "unknown": "?", "n/a": "–"}
ASCII_SYMBOLS = {"ok": "+", "warn": "!", "fail": "x", "unknown": "?", "n/a": "-"}
SEVERITY_STATUS = {"fail": "fail", "warn": "warn", "info": "n/a"}
SEVERITY_SYMBOLS = {"fail": "✘", "warn": "!", "info": "i"}
ASCII_SEVERITY_SYMBOLS = {"fail": "x", "warn": "!", "info": "i"}

# ANSI SGR codes per status (only used with color=True)
COLORS = {"ok": "32", "warn": "33", "fail": "31", "unknown": "35", "n/a": "2"}
BOLD, DIM, RESET = "1", "2", "\x1b[0m"
MAX_EVIDENCE_LINES = 8


def to_json(report: Report) -> str:
    return json.dumps(report.to_dict(), indent=2, ensure_ascii=False)


# -- shared pieces ------------------------------------------------------------------------------


def title_of(code: str) -> str:
    return codes.render_title(code)


def platform_text(platform: dict[str, Any]) -> str:
    system = str(platform.get("system") or "?")
    parts = [{"windows": "Windows", "linux": "Linux"}.get(system, system)]
    if platform.get("wsl"):
        parts[0] = f"WSL {platform['wsl']} ({platform.get('distro') or 'Linux'})"
    elif platform.get("distro"):
        parts.append(str(platform["distro"]))
    if platform.get("release"):
        parts.append(str(platform["release"]))
    if platform.get("arch"):
        parts.append(str(platform["arch"]))
    return ", ".join(parts)


def target_text(target: dict[str, Any]) -> str:
    parts = [f"TensorFlow {target.get('tensorflow') or '?'}"]
    if target.get("pip_cuda"):
        parts.append(f"CUDA {target.get('cuda')} and cuDNN {target.get('cudnn')} from pip wheels")
    else:
        if target.get("cuda"):
            parts.append(f"CUDA {target['cuda']}")
        if target.get("cudnn"):
            parts.append(f"cuDNN {target['cudnn']}")
    if target.get("python"):
        parts.append(f"Python {target['python']}")
    if target.get("gpu_supported") is False:
        parts.append("no GPU build on this platform")
    return ", ".join(parts)


def verdict(data: dict[str, Any]) -> str:
    """The closing line: ready, or the layer to fix first."""
    tf = (data.get("target") or {}).get("tensorflow") or ""
    if data.get("ready"):
        return f"Ready: TensorFlow {tf} runs on the GPU.".replace("TensorFlow  ", "TensorFlow ")
    blocking = data.get("blocking_layer")
    codes = {f["code"] for layer in data.get("layers", []) for f in layer.get("findings", [])}
    if "no_nvidia_gpu" in codes:
        return (
            "Not ready: this machine has no NVIDIA GPU, so TensorFlow can only run on the CPU "
            "here."
        )
    if not (data.get("target") or {}).get("gpu_supported", True) and blocking == "tensorflow":
        return (
            f"Not ready: TensorFlow {tf} has no GPU support on native Windows; "
            "see the fix above."
        )
    if blocking:
        return f"Not ready: fix the {blocking} layer first."
    unsure = [
        layer["layer"] for layer in data.get("layers", []) if layer["status"] in ("warn", "unknown")
    ]
    if unsure:
        return f"Not ready: TensorFlow did not run on the GPU; check the {unsure[0]} layer first."
    return "Not ready: TensorFlow did not run on the GPU."


def own_steps(fix: dict[str, Any]) -> list[str]:
    """The fix's steps without those that only say "Run: <a command listed in the fix>" (the
    commands are shown on their own, ready to copy)."""
    commands = {f"Run: {command}" for command in fix.get("commands") or []}
    return [step for step in fix.get("steps") or [] if step not in commands]


def can_encode(text: str, encoding: Optional[str]) -> bool:
    if not encoding:
        return True
    try:
        codecs.lookup(encoding)
        text.encode(encoding)
    except (LookupError, UnicodeEncodeError):
        return False
    return True


# -- Markdown -----------------------------------------------------------------------------------


def to_markdown(report: Report) -> str:
    """A Markdown report for a bug report or a forum post."""
    from wizard import __version__

    data = report.to_dict()
    target = data.get("target") or {}
    blocking = data.get("blocking_layer")
    lines = [
        "# GPU Setup Wizard report",
        "",
        f"- **Platform:** {_md_inline(platform_text(data.get('platform') or {}))}",
        f"- **Target:** {_md_inline(target_text(target))}"
        + (f" ({_md_inline(str(target['reason']))})" if target.get("reason") else ""),
    ]
    if data.get("python"):
        lines.append(f"- **Python environment:** {_md_code(str(data['python']))}")
    lines += [
        f"- **Result:** {_md_inline(verdict(data))}",
        f"- **Blocking layer:** {_md_code(blocking) if blocking else 'none'}",
        f"- **gpu-wizard:** {__version__}",
        "",
        "| Layer | Status | Summary |",
        "| --- | --- | --- |",
    ]
    for layer in data["layers"]:
        status = layer["status"]
        lines.append(
            f"| {layer['layer']} | {SYMBOLS.get(status, '?')} {status} | "
            f"{_md_cell(layer['summary'])} |"
        )
    findings = [(layer, f) for layer in data["layers"] for f in layer["findings"]]
    if findings:
        lines += ["", "## Findings"]
    for layer, finding in findings:
        lines += _md_finding(layer["layer"], finding)
    facts = {layer["layer"]: layer["facts"] for layer in data["layers"] if layer.get("facts")}
    if facts:
        body = json.dumps(facts, indent=2, ensure_ascii=False)
        lines += ["", "<details><summary>What was checked (facts per layer)</summary>", "",
                  *_md_block(body, "json"), "", "</details>"]
    return "\n".join(lines).rstrip() + "\n"


def _md_finding(layer: str, finding: dict[str, Any]) -> list[str]:
    fix = finding.get("fix") or {}
    lines = [
        "",
        f"### {layer}: {_md_inline(title_of(finding['code']))} "
        f"(`{finding['code']}`, {finding['severity']})",
        "",
        _md_inline(finding.get("message") or ""),
    ]
    if finding.get("evidence"):
        lines += ["", "Evidence:", "", *_md_block(str(finding["evidence"]))]
    if fix.get("summary"):
        lines += ["", f"**Fix:** {_md_inline(fix['summary'])}"]
    steps = own_steps(fix)
    if steps:
        lines.append("")
        lines += [f"{i}. {_md_inline(step)}" for i, step in enumerate(steps, 1)]
    if fix.get("commands"):
        lines += ["", *_md_block("\n".join(fix["commands"]), "")]
    if fix.get("links"):
        lines.append("")
        lines += [f"- [{_md_inline(link['title'])}]({link['url']})" for link in fix["links"]]
    return lines


def _md_block(text: str, language: str = "text") -> list[str]:
    """A fenced block whose fence is longer than any backtick run inside the text."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return [f"{fence}{language}", text.rstrip("\n"), fence]


def _md_code(text: str) -> str:
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    ticks = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"


_MD_SPECIAL = re.compile(
    r"\\(?=[!-/:-@\[-`{-~])"  # a backslash that would escape the punctuation after it
    r"|[`*<\[\]]"  # code spans, emphasis, HTML, links
    r"|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])"  # emphasis underscores (not x86_64, CUDA_PATH)
)


def _md_inline(text: str) -> str:
    """Plain text that Markdown would otherwise mangle; Windows paths stay readable."""
    return _MD_SPECIAL.sub(lambda m: "\\" + m.group(0), text.replace("\n", " "))


def _md_cell(text: str) -> str:
    return _md_inline(text).replace("|", "\\|")


# -- terminal text ------------------------------------------------------------------------------


def to_text(report: Report, color: bool = False, encoding: Optional[str] = None) -> str:
    """The terminal report. ``encoding`` is the output's (default: ``sys.stdout``'s); where it
    cannot encode the symbols (✔ ✘ –), ASCII ones are used."""
    data = report.to_dict()
    if encoding is None:
        encoding = getattr(sys.stdout, "encoding", None)
    unicode_ok = can_encode("".join(SYMBOLS.values()) + "·", encoding)
    symbols = SYMBOLS if unicode_ok else ASCII_SYMBOLS
    severity_symbols = SEVERITY_SYMBOLS if unicode_ok else ASCII_SEVERITY_SYMBOLS
    paint = _painter(color)
    target = data.get("target") or {}

    lines = [paint(BOLD, "GPU Setup Wizard check")]
    lines.append(f"Platform: {platform_text(data.get('platform') or {})}")
    reason = f" ({target['reason']})" if target.get("reason") else ""
    lines.append(f"Target:   {target_text(target)}{reason}")
    if data.get("python"):
        lines.append(f"Python:   {data['python']}")
    lines.append("")
    width = max(len(layer["layer"]) for layer in data["layers"]) if data["layers"] else 10
    for layer in data["layers"]:
        status = layer["status"]
        mark = paint(COLORS.get(status, ""), f"{symbols.get(status, '?')} {status:<7}")
        lines.append(f" {mark} {paint(BOLD, layer['layer'].ljust(width))}  {layer['summary']}")
        for finding in layer["findings"]:
            lines += _text_finding(finding, severity_symbols, paint)
    lines.append("")
    final = verdict(data)
    lines.append(paint(f"{BOLD};{COLORS['ok' if data.get('ready') else 'fail']}", final))
    text = "\n".join(lines) + "\n"
    if not can_encode(text, encoding):
        text = text.encode(encoding or "ascii", errors="replace").decode(encoding or "ascii")
    return text


def _text_finding(finding: dict[str, Any], symbols: dict[str, str], paint) -> list[str]:
    severity = finding.get("severity", "info")
    fix = finding.get("fix") or {}
    head = paint(COLORS.get(SEVERITY_STATUS.get(severity, ""), ""), symbols.get(severity, "-"))
    indent = " " * 7
    lines = [f"{indent}{head} {title_of(finding['code'])} [{finding['code']}]"]
    body = indent + "  "
    if finding.get("message"):
        lines.append(f"{body}{finding['message']}")
    if finding.get("evidence"):
        evidence = str(finding["evidence"]).rstrip("\n").splitlines() or [""]
        shown = evidence[:MAX_EVIDENCE_LINES]
        lines.append(paint(DIM, f"{body}seen: {shown[0]}"))
        lines += [paint(DIM, f"{body}      {line}") for line in shown[1:]]
        if len(evidence) > len(shown):
            lines.append(paint(DIM, f"{body}      ... ({len(evidence) - len(shown)} more lines)"))
    if fix.get("summary"):
        lines.append(f"{body}fix: {fix['summary']}")
    for i, step in enumerate(own_steps(fix), 1):
        lines.append(f"{body}  {i}. {step}")
    for command in fix.get("commands") or []:
        lines.append(f"{body}  {paint(BOLD, '$ ' + command)}")
    for link in fix.get("links") or []:
        lines.append(f"{body}  {link['title']}: {link['url']}")
    return lines


def _painter(color: bool):
    def paint(code: str, text: str) -> str:
        if not color or not code:
            return text
        return f"\x1b[{code}m{text}{RESET}"

    return paint
