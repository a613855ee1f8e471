"""The message catalogue: every message in both languages, with the same placeholders, and
rendering that never crashes."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

import pytest

from wizard.core import codes, messages
from wizard.core.messages import Message, msg, render

CATALOGUE_DIR = Path(__file__).resolve().parents[2] / "resources" / "messages"
ENTRIES = messages._entries()


def _placeholders(text: str) -> list[str]:
    return sorted(name for _, name, _, _ in string.Formatter().parse(text) if name)


@pytest.mark.parametrize("message_id", sorted(ENTRIES))
def test_every_message_in_every_language_with_the_same_placeholders(message_id: str) -> None:
    texts = ENTRIES[message_id]
    assert set(texts) == set(messages.LANGUAGES), f"{message_id}: {sorted(texts)}"
    english = texts["en"]
    for lang, text in texts.items():
        assert text or message_id == "common.list_separator", f"{message_id} [{lang}] is empty"
        assert _placeholders(text) == _placeholders(english), (
            f"{message_id} [{lang}] has other placeholders than the English")
        text.format_map({name: "x" for name in _placeholders(text)})  # well-formed braces


def test_ids_are_namespaced_by_file_and_unique() -> None:
    seen: dict[str, str] = {}
    for path in sorted(CATALOGUE_DIR.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for message_id in data:
            assert re.fullmatch(r"[a-z0-9_]+(\.[a-z0-9_]+)+(~\d+)?", message_id), message_id
            assert message_id not in seen, f"{message_id} in {path.name} and {seen[message_id]}"
            seen[message_id] = path.name


@pytest.mark.parametrize("code", sorted(codes.CODES))
def test_every_finding_code_has_its_texts(code: str) -> None:
    for part in ("title", "message", "fix"):
        assert messages.has(f"finding.{code}.{part}"), f"finding.{code}.{part}"


def test_variants_follow_the_known_params() -> None:
    full = codes.render_message("cudnn_missing", {"cudnn": "8.1", "cuda": "11.2",
                                                  "file_note": " (cudnn64_8.dll)"})
    bare = codes.render_message("cudnn_missing", {})
    assert "8.1" in full and "?" not in bare and bare != full
    # the same variant is chosen in every language
    assert codes.render_message("cudnn_missing", {}, "zh_CN") == render(
        Message(messages.choose_variant("finding.cudnn_missing.message", {})), "zh_CN")


def test_render_values_lists_and_sub_phrases() -> None:
    assert render(None) == "" and render(12) == "12" and render(["a", "b"]) == "a, b"
    assert render(["a", "b"], "zh_CN") == "a、b"
    inner = msg("step.restart")
    outer = msg("step.run", command=inner)
    assert render(outer) == "Run: Restart the computer."
    assert "重新启动" in render(outer, "zh_CN") or "重启" in render(outer, "zh_CN")
    assert render(msg("step.run")) == "Run: ?"  # a missing value shows as a gap
    assert render(msg("no.such.id")) == "no.such.id"  # never a crash in a page


@pytest.mark.parametrize(("value", "expected"), [
    ("zh_CN.UTF-8", "zh_CN"), ("zh_TW", "zh_CN"), ("zh-Hans-CN", "zh_CN"), ("en_US.UTF-8", "en"),
    ("C", "en"), ("de_DE", "en"), ("Chinese (Simplified)_China", "zh_CN"), ("", None),
])
def test_locale_names(value: str, expected: str) -> None:
    assert messages.normalize(value) == expected


def test_system_language_follows_posix_order() -> None:
    assert messages.system_language({"LANG": "zh_CN.UTF-8"}) == "zh_CN"
    assert messages.system_language({"LC_ALL": "en_US.UTF-8", "LANG": "zh_CN.UTF-8"}) == "en"
    assert messages.system_language({"LANGUAGE": "zh_CN:en", "LANG": "en_US"}) == "zh_CN"
    assert messages.system_language({}) == "en"


def test_a_broken_translation_falls_back_to_english(monkeypatch: pytest.MonkeyPatch) -> None:
    entries = dict(messages._entries())
    entries["test.broken"] = {"en": "cuDNN {found} found", "zh_CN": "cuDNN {found"}
    monkeypatch.setattr(messages, "_entries", lambda: entries)
    assert render(msg("test.broken", found="8.1"), "zh_CN") == "cuDNN 8.1 found"
