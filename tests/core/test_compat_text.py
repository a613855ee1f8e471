"""``gpu-wizard compat`` in every language: the catalogue's words, the tables' values."""

from __future__ import annotations

import json
import re

import pytest

from wizard.core import knowledge, messages
from wizard.core.knowledge import answer as answer_module
from wizard.core.knowledge import compat

ANSWERS = [
    dict(os_kind="windows"), dict(os_kind="linux"), dict(os_kind="wsl2"),
    dict(tf="2.15", os_kind="windows"), dict(tf="2.10", cuda="11.8", os_kind="windows"),
    dict(tf="2.16.0rc0", os_kind="linux"), dict(tf="2.12", os_kind="linux"),
    dict(cuda="13.0", os_kind="windows"), dict(cuda="11.2", os_kind="linux"),
    dict(cuda="9.0", os_kind="linux"),
]


@pytest.mark.parametrize("query", ANSWERS, ids=str)
def test_chinese_text_has_the_same_values_and_no_english_sentences(query) -> None:
    answer = knowledge.compat_answer(**query)
    english = knowledge.compat_text(answer)
    chinese = knowledge.compat_text(answer, "zh_CN")
    assert english == knowledge.compat_text(answer, "en")
    assert len(english.splitlines()) == len(chinese.splitlines())
    for value in re.findall(r"\b\d+\.\d+(?:\.\d+)?\b|https?://\S+", english):
        assert value.rstrip(").,;") in chinese, value
    for line in chinese.splitlines():
        if line.startswith("  - ") and ":" in line[:40]:
            continue  # a source: the citation stays as published
        assert not re.search(r"\b(the|is|are|with|from)\b", line), line
    json.dumps(answer)  # the answer stays plain JSON


def test_notes_render_in_english_in_the_json() -> None:
    answer = knowledge.compat_answer(tf="2.16.0rc0", os_kind="linux")
    assert answer["notes"][0].startswith("TensorFlow 2.16.0rc0 is a pre-release of TF 2.16")
    assert all(isinstance(note, str) for note in answer["notes"])


def test_an_answer_rebuilt_from_json_still_renders() -> None:
    answer = knowledge.compat_answer(os_kind="windows")
    rebuilt = json.loads(json.dumps(answer))
    assert knowledge.compat_text(rebuilt) == knowledge.compat_text(answer)
    assert "原生 Windows" in knowledge.compat_text(rebuilt, "zh_CN")


def test_data_notes_in_the_catalogue_are_the_tables_own_english() -> None:
    """A table text the catalogue translates must read the same in its English; a changed table
    text shows in English (never in an outdated translation)."""
    data = compat.compat_data()
    ids = [answer_module.FACT_IDS[f["topic"]] for f in data["platform_facts"]
           if f["topic"] in answer_module.FACT_IDS]
    ids += [compat._caveat_id(r["tf"]) for r in data["tf_min_compute_capability"]
            if r.get("user_caveat")]
    ids += [f"compat.data.windows_driver_note_cuda{major}"
            for major, row in data["cuda_minor_compat"].items() if row.get("user_windows_note")]
    for message_id in ids:
        assert messages.has(message_id), message_id
        note = compat.data_note(message_id, messages.template(message_id))
        assert isinstance(note, messages.Message)
    assert compat.data_note(ids[0], "something else") == "something else"


def test_target_reasons_in_chinese() -> None:
    target = knowledge.choose_target("windows", installed="2.15.0", installed_where="C:\\env")
    assert str(target.reason) == (
        "installed in C:\\env; TF 2.15 has no GPU support on native Windows (the last with GPU "
        "support is 2.10)")
    chinese = messages.render(target.reason, "zh_CN")
    assert "C:\\env" in chinese and "原生 Windows" in chinese and "2.10" in chinese
    requested = knowledge.choose_target("linux", requested="2.16.0rc0")
    assert str(requested.reason).startswith("chosen with --tf; TensorFlow 2.16.0rc0 is a pre-")
    assert messages.render(requested.reason, "zh_CN").startswith("通过 --tf 指定；")
