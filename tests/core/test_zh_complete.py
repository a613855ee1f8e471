"""Nothing reaches a Chinese reader in English by accident: every text of every profile's report
and of ``explain`` on the sample logs is a catalogued message whose Chinese has no English word
but product and technical names; the CLI's Chinese output likewise. ``catalogue_audit.py``
prints what is wrong."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import catalogue_audit
import pytest

from wizard.core import messages

REPO_ROOT = Path(__file__).resolve().parents[2]
PROFILES = sorted((REPO_ROOT / "tests" / "profiles").glob("*.json"))


def test_every_report_and_explain_text_is_a_translated_message() -> None:
    problems = catalogue_audit.all_problems()
    listed = "\n".join(f"{kind:7} {place}: {what}" for kind, place, what in sorted(problems))
    assert not problems, f"{len(problems)} text(s) would show English in Chinese:\n{listed}"


@pytest.mark.parametrize("message_id", sorted(messages._entries()))
def test_no_english_words_in_any_chinese_template(message_id: str) -> None:
    words = catalogue_audit.english_words(messages.template(message_id, "zh_CN"))
    assert not words, f"{message_id}: {words}"


def test_the_audit_sees_english() -> None:
    """The checks themselves: English where a message belongs is caught."""
    from wizard.core.messages import msg
    from wizard.core.model import Finding, Fix, Link, Step

    finding = Finding("cudnn_missing", params={"where": "in any folder that was checked"},
                      fix=Fix(links=(Link("cuDNN archive", "https://x"),),
                              steps=(Step("run", {"command": "pip install x"}),)))
    kinds = sorted({kind for kind, _, _ in catalogue_audit.check_finding(finding, "t")})
    assert kinds == ["prose", "text"]
    assert catalogue_audit.english_words("请安装 the NVIDIA driver") == ["the"]
    assert list(catalogue_audit.check_text(msg("layer.gpu"), "t")) == []


def _cli_lines(profile: Path) -> list[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LANG")}
    result = subprocess.run(
        [sys.executable, "-m", "wizard", "check", "--profile", str(profile), "--lang", "zh_CN",
         "--no-color"], capture_output=True, text=True, encoding="utf-8", timeout=120,
        check=False, cwd=str(REPO_ROOT), env=env)
    assert result.returncode in (0, 1), result.stderr
    return result.stdout.splitlines()


@pytest.mark.parametrize("profile", PROFILES, ids=lambda p: p.stem)
def test_cli_chinese_report_has_no_english_sentences(profile: Path) -> None:
    """Each line of ``check --lang zh_CN``, less its values, has no run of English words (three
    or more lowercase words in a row is a sentence that escaped the catalogue)."""
    offending = []
    evidence_indent = None  # inside "所见：" and its continuation lines (what was printed)
    for line in _cli_lines(profile):
        indent = len(line) - len(line.lstrip())
        if line.strip().startswith("所见"):
            evidence_indent = indent
            continue
        if evidence_indent is not None and indent > evidence_indent:
            continue
        evidence_indent = None
        if line.strip().startswith("$") or "://" in line:
            continue  # commands, links' addresses
        stripped = re.sub(r"[A-Za-z]:\\\S*|/\S+|\S+\.(?:dll|so\S*|exe|h|json)\b", " ",
                          catalogue_audit.QUOTED.sub(" ", line))
        if re.search(r"\b[a-z]{2,}\s+[a-z]{2,}\s+[a-z]{2,}\b", stripped):
            offending.append(line.strip())
    assert not offending, "\n".join(offending)
