"""Report -> JSON / Markdown / terminal text (DESIGN section 5).

* :func:`to_json` is the ``gpu-wizard check --json`` contract.
* :func:`to_markdown` is bug-report-ready: paste it into an issue as it is.
* :func:`to_text` is what ``gpu-wizard check`` prints: one line per layer with a status word and
  a symbol, the findings indented below with their fix, and a closing verdict.

All three read ``Report.to_dict(lang)``, so they show exactly what the JSON holds; the JSON is
always English, the text and Markdown reports speak ``lang`` (every word from the message
catalogue).
"""

from __future__ import annotations

import codecs
import json
import re
import sys
import unicodedata
from typing import Any, Optional

from wizard.core import codes
from wizard.core.messages import DEFAULT_LANGUAGE, Message, msg, render
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


def title_of(code: str, lang: str = DEFAULT_LANGUAGE) -> str:
    return codes.render_title(code, lang)


def layer_name(layer: str, lang: str) -> str:
    """``gpu`` in English output (the report's own key), the layer's name in another language."""
    return layer if lang == DEFAULT_LANGUAGE else render(msg(f"layer.{layer}"), lang)


def status_word(status: str, lang: str) -> str:
    return render(msg("status." + status.replace("/", "_")), lang)


def width(text: str) -> int:
    """Columns ``text`` takes in a terminal (CJK characters take two)."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def pad(text: str, columns: int) -> str:
    return text + " " * max(0, columns - width(text))


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


def target_text(target: dict[str, Any], lang: str = DEFAULT_LANGUAGE) -> str:
    version = target.get("tensorflow") or "?"
    parts: list[Message] = [msg("report.target.tensorflow", version=version)]
    if target.get("pip_cuda"):
        parts.append(msg("report.target.pip_cuda", cuda=target.get("cuda"),
                         cudnn=target.get("cudnn")))
    else:
        if target.get("cuda"):
            parts.append(msg("report.target.cuda", cuda=target["cuda"]))
        if target.get("cudnn"):
            parts.append(msg("report.target.cudnn", cudnn=target["cudnn"]))
    if target.get("python"):
        parts.append(msg("report.target.python", python=target["python"]))
    if target.get("gpu_supported") is False:
        parts.append(msg("report.target.no_gpu_build"))
    return render(parts, lang)


def verdict(data: dict[str, Any], lang: str = DEFAULT_LANGUAGE) -> str:
    """The closing line: ready, or the layer to fix first."""
    return render(verdict_message(data, lang), lang)


def verdict_message(data: dict[str, Any], lang: str = DEFAULT_LANGUAGE) -> Message:
    tf = (data.get("target") or {}).get("tensorflow") or ""
    if data.get("ready"):
        return msg("report.verdict.ready", tensorflow=tf)
    blocking = data.get("blocking_layer")
    codes = {f["code"] for layer in data.get("layers", []) for f in layer.get("findings", [])}
    if "no_nvidia_gpu" in codes:
        return msg("report.verdict.no_nvidia_gpu")
    if not (data.get("target") or {}).get("gpu_supported", True) and blocking == "tensorflow":
        return msg("report.verdict.windows_no_gpu_build", tensorflow=tf)
    if blocking:
        return msg("report.verdict.fix_layer", layer=layer_name(blocking, lang))
    unsure = [
        layer["layer"] for layer in data.get("layers", []) if layer["status"] in ("warn", "unknown")
    ]
    if unsure:
        return msg("report.verdict.check_layer", layer=layer_name(unsure[0], lang))
    return msg("report.verdict.not_on_gpu")


def own_steps(fix: dict[str, Any], lang: str = DEFAULT_LANGUAGE) -> list[str]:
    """The fix's steps without those that only say "Run: <a command listed in the fix>" (the
    commands are shown on their own, ready to copy)."""
    commands = {render(msg("step.run", command=c), lang) for c in fix.get("commands") or []}
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


def to_markdown(report: Report, lang: str = DEFAULT_LANGUAGE) -> str:
    """A Markdown report for a bug report or a forum post."""
    from wizard import __version__

    def word(key: str) -> str:
        return render(msg(f"report.md.{key}"), lang)

    data = report.to_dict(lang)
    target = data.get("target") or {}
    blocking = data.get("blocking_layer")
    lines = [
        f"# {word('title')}",
        "",
        f"- **{word('platform')}:** {_md_inline(platform_text(data.get('platform') or {}))}",
        f"- **{word('target')}:** {_md_inline(target_text(target, lang))}"
        + (f" ({_md_inline(str(target['reason']))})" if target.get("reason") else ""),
    ]
    if data.get("python"):
        lines.append(f"- **{word('python')}:** {_md_code(str(data['python']))}")
    lines += [
        f"- **{word('result')}:** {_md_inline(verdict(data, lang))}",
        f"- **{word('blocking')}:** {_md_code(blocking) if blocking else word('none')}",
        f"- **gpu-wizard:** {__version__}",
        "",
        f"| {word('layer')} | {word('status')} | {word('summary')} |",
        "| --- | --- | --- |",
    ]
    for layer in data["layers"]:
        status = layer["status"]
        lines.append(
            f"| {layer_name(layer['layer'], lang)} | {SYMBOLS.get(status, '?')} "
            f"{status_word(status, lang)} | {_md_cell(layer['summary'])} |"
        )
    findings = [(layer, f) for layer in data["layers"] for f in layer["findings"]]
    if findings:
        lines += ["", f"## {word('findings')}"]
    for layer, finding in findings:
        lines += _md_finding(layer["layer"], finding, lang)
    facts = {layer["layer"]: layer["facts"] for layer in data["layers"] if layer.get("facts")}
    if facts:
        body = json.dumps(facts, indent=2, ensure_ascii=False)
        lines += ["", f"<details><summary>{word('facts')}</summary>", "",
                  *_md_block(body, "json"), "", "</details>"]
    return "\n".join(lines).rstrip() + "\n"


def _md_finding(layer: str, finding: dict[str, Any], lang: str) -> list[str]:
    fix = finding.get("fix") or {}
    lines = [
        "",
        f"### {layer_name(layer, lang)}: {_md_inline(title_of(finding['code'], lang))} "
        f"(`{finding['code']}`, {render(msg('severity.' + finding['severity']), lang)})",
        "",
        _md_inline(finding.get("message") or ""),
    ]
    if finding.get("evidence"):
        lines += ["", render(msg("report.md.evidence"), lang), "",
                  *_md_block(str(finding["evidence"]))]
    if fix.get("summary"):
        lines += ["", f"**{render(msg('report.md.fix'), lang)}** {_md_inline(fix['summary'])}"]
    steps = own_steps(fix, lang)
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


def to_text(report: Report, color: bool = False, encoding: Optional[str] = None,
            lang: str = DEFAULT_LANGUAGE) -> str:
    """The terminal report in ``lang``. ``encoding`` is the output's (default: ``sys.stdout``'s);
    where it cannot encode the symbols (✔ ✘ –), ASCII ones are used."""
    data = report.to_dict(lang)
    if encoding is None:
        encoding = getattr(sys.stdout, "encoding", None)
    unicode_ok = can_encode("".join(SYMBOLS.values()) + "·", encoding)
    symbols = SYMBOLS if unicode_ok else ASCII_SYMBOLS
    severity_symbols = SEVERITY_SYMBOLS if unicode_ok else ASCII_SEVERITY_SYMBOLS
    paint = _painter(color)
    target = data.get("target") or {}

    def say(key: str, **params: Any) -> str:
        return render(msg(f"report.text.{key}", **params), lang)

    lines = [paint(BOLD, say("title"))]
    lines.append(say("platform", platform=platform_text(data.get("platform") or {})))
    if target.get("reason"):
        lines.append(say("target_reason", target=target_text(target, lang),
                         reason=target["reason"]))
    else:
        lines.append(say("target", target=target_text(target, lang)))
    if data.get("python"):
        lines.append(say("python", python=data["python"]))
    lines.append("")
    names = {layer["layer"]: layer_name(layer["layer"], lang) for layer in data["layers"]}
    name_width = max((width(n) for n in names.values()), default=10)
    status_width = max(7, *(width(status_word(s, lang)) for s in SYMBOLS))
    for layer in data["layers"]:
        status = layer["status"]
        mark = paint(COLORS.get(status, ""),
                     f"{symbols.get(status, '?')} {pad(status_word(status, lang), status_width)}")
        name = paint(BOLD, pad(names[layer["layer"]], name_width))
        lines.append(f" {mark} {name}  {layer['summary']}")
        for finding in layer["findings"]:
            lines += _text_finding(finding, severity_symbols, paint, lang)
    lines.append("")
    final = verdict(data, lang)
    lines.append(paint(f"{BOLD};{COLORS['ok' if data.get('ready') else 'fail']}", final))
    text = "\n".join(lines) + "\n"
    if not can_encode(text, encoding):
        text = text.encode(encoding or "ascii", errors="replace").decode(encoding or "ascii")
    return text


def _text_finding(finding: dict[str, Any], symbols: dict[str, str], paint, lang: str
                  ) -> list[str]:
    severity = finding.get("severity", "info")
    fix = finding.get("fix") or {}
    head = paint(COLORS.get(SEVERITY_STATUS.get(severity, ""), ""), symbols.get(severity, "-"))
    indent = " " * 7
    lines = [f"{indent}{head} {title_of(finding['code'], lang)} [{finding['code']}]"]
    body = indent + "  "
    if finding.get("message"):
        lines.append(f"{body}{finding['message']}")
    if finding.get("evidence"):
        evidence = str(finding["evidence"]).rstrip("\n").splitlines() or [""]
        shown = evidence[:MAX_EVIDENCE_LINES]
        seen = render(msg("report.text.seen", line=shown[0]), lang)
        hang = " " * (width(seen) - width(shown[0]))
        lines.append(paint(DIM, f"{body}{seen}"))
        lines += [paint(DIM, f"{body}{hang}{line}") for line in shown[1:]]
        if len(evidence) > len(shown):
            more = msg("report.text.more_lines", count=len(evidence) - len(shown))
            lines.append(paint(DIM, f"{body}{hang}{render(more, lang)}"))
    if fix.get("summary"):
        lines.append(f"{body}{render(msg('report.text.fix', summary=fix['summary']), lang)}")
    for i, step in enumerate(own_steps(fix, lang), 1):
        lines.append(f"{body}  {i}. {step}")
    for command in fix.get("commands") or []:
        lines.append(f"{body}  {paint(BOLD, '$ ' + command)}")
    for link in fix.get("links") or []:
        lines.append(f"{body}  {link['title']}: {link['url']}")
    if fix.get("cli_command"):
        command = render(msg("report.text.fix_command", command=fix["cli_command"]), lang)
        lines.append(f"{body}{command}")
    elif severity == "fail" and fix.get("manual_reason"):
        reason = render(msg("report.text.no_fix", reason=fix["manual_reason"]), lang)
        lines.append(f"{body}{reason}")
    return lines


def _painter(color: bool):
    def paint(code: str, text: str) -> str:
        if not color or not code:
            return text
        return f"\x1b[{code}m{text}{RESET}"

    return paint
