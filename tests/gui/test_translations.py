"""The Chinese catalogue is complete, current and loads: no unfinished, empty or obsolete entries,
no entry missing against the source, the same placeholders, a .qm built from this .ts, and
installing zh_CN translates our texts and QWizard's own buttons.

When one of these fails: run ``python scripts/update_translations.py``, translate the entries it
reports in ``resources/i18n/gpu_wizard_zh_CN.ts`` and run it again.
"""

from __future__ import annotations

import os
import re
import shutil
import string
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest
from PySide6.QtCore import QCoreApplication, QLocale, QSettings
from PySide6.QtWidgets import QWizard

from wizard import i18n, texts

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import update_translations as ut  # noqa: E402

TS = ut.ts_path("zh_CN")
QM = ut.qm_path("zh_CN")
FIX_HINT = "run python scripts/update_translations.py and translate the reported entries"


def _text(translation: ET.Element | None) -> str:
    """A translation's text; for a plural (numerus) entry its forms, joined by newlines."""
    if translation is None:
        return ""
    forms = translation.findall("numerusform")
    if forms:
        return "\n".join(form.text or "" for form in forms)
    return translation.text or ""


def _messages(ts_file: Path) -> list[tuple[str, str, ET.Element]]:
    """(context, source, translation element) for every message in a .ts file."""
    out = []
    for context in ET.parse(ts_file).getroot().iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            out.append((name, message.findtext("source") or "", message.find("translation")))
    return out


def _fields(text: str) -> Counter:
    """The ``{placeholder}`` names of a template (a Counter: repeats must match too)."""
    names = Counter()
    for _literal, field, _spec, _conv in string.Formatter().parse(text):
        if field is not None:
            names[field] += 1
    return names


def test_ts_exists_and_is_chinese() -> None:
    root = ET.parse(TS).getroot()
    assert root.get("language") == "zh_CN"
    assert len(_messages(TS)) > 100


def test_no_unfinished_empty_or_obsolete_entries() -> None:
    bad = []
    for context, source, translation in _messages(TS):
        kind = translation.get("type") if translation is not None else "missing"
        forms = translation.findall("numerusform") if translation is not None else []
        empty = not _text(translation).strip() or any(not (f.text or "").strip() for f in forms)
        if kind in ("unfinished", "obsolete", "vanished", "missing") or empty:
            bad.append(f"{context}: {source!r} ({kind or 'empty'})")
    assert not bad, f"{len(bad)} untranslated/obsolete entries in {TS.name} ({FIX_HINT}):\n" + (
        "\n".join(bad[:40])
    )


NAMES = {
    "cuDNN", "TensorFlow", "PyTorch", "Python", "CUDA", "NVIDIA", "JSON", "Markdown", "pip",
    "nvidia", "smi", "nvcc", "LD_LIBRARY_PATH", "CUDA_VISIBLE_DEVICES", "zlibwapi", "dll", "UUID",
}


def _only_names(source: str) -> bool:
    """True for a source made of product names and placeholders only ("TensorFlow {version}")."""
    words = re.sub(r"[^\w]+", " ", re.sub(r"\{\w*\}", " ", source)).split()
    return all(word in NAMES for word in words)


def test_translations_are_chinese() -> None:
    """A translation identical to its English source is allowed only for product names and
    pure placeholders (cuDNN, "TensorFlow {version}", "{text}"); anything else was forgotten."""
    same = [
        f"{context}: {source!r}"
        for context, source, translation in _messages(TS)
        if _text(translation) == source and not _only_names(source)
    ]
    assert not same, "entries 'translated' as the English source:\n" + "\n".join(same)


def test_placeholders_survive_translation() -> None:
    broken = []
    for context, source, translation in _messages(TS):
        text = _text(translation)
        try:
            ok = all(_fields(source) == _fields(form) for form in text.split("\n"))
            if "%n" in source:
                ok = ok and all("%n" in form for form in text.split("\n"))
        except ValueError as exc:  # an unbalanced brace in the translation
            ok = False
            text = f"{text} [{exc}]"
        if not ok:
            broken.append(f"{context}: {source!r} -> {text!r}")
    assert not broken, "placeholders differ between source and translation:\n" + "\n".join(
        broken
    )


def test_ts_is_current_with_the_source(tmp_path: Path) -> None:
    """lupdate over today's source must find exactly the messages the committed .ts holds."""
    copy = tmp_path / TS.name
    shutil.copy(TS, copy)
    ut.run_lupdate(copy)
    before = {(c, s) for c, s, _ in _messages(TS)}
    after = {(c, s) for c, s, _ in _messages(copy)}
    new = sorted(after - before)
    gone = sorted(before - after)
    assert not new and not gone, (
        f"{TS.name} is stale ({FIX_HINT}).\nNew in the source: {new[:20]}\n"
        f"No longer in the source: {gone[:20]}"
    )


def test_qm_is_built_from_this_ts(qapp) -> None:
    """The committed .qm answers every message of the .ts with the .ts's translation (compared
    through QTranslator, so another lrelease version's byte layout does not matter)."""
    from PySide6.QtCore import QTranslator

    assert QM.is_file(), f"{QM} is missing: {FIX_HINT}"
    translator = QTranslator()
    assert translator.load(str(QM)), f"{QM} does not load: {FIX_HINT}"
    stale = []
    for context, source, translation in _messages(TS):
        if translation is None or translation.findall("numerusform"):
            continue
        got = translator.translate(context, source)
        if got != (translation.text or ""):
            stale.append(f"{context}: {source!r} -> {got!r}")
    assert not stale, f"{QM.name} is older than {TS.name} ({FIX_HINT}):\n" + "\n".join(stale[:20])


@pytest.fixture
def chinese(qapp):
    """Install zh_CN for one test, then go back to English."""
    assert i18n.install_language(qapp, "zh_CN")
    yield qapp
    i18n.install_language(qapp, "en")


def test_install_zh_cn_translates_our_texts_and_qwizard_buttons(chinese) -> None:
    assert i18n.current_language() == "zh_CN"
    assert texts.layer_title("cuda") == "CUDA 工具包"  # the message catalogue, same as the CLI
    assert QCoreApplication.translate("Status", "Problem") == "有问题"
    wizard = QWizard()
    try:
        assert "下一步" in wizard.buttonText(QWizard.WizardButton.NextButton)
        assert "上一步" in wizard.buttonText(QWizard.WizardButton.BackButton)
        assert wizard.buttonText(QWizard.WizardButton.CancelButton) == "取消"
        assert "完成" in wizard.buttonText(QWizard.WizardButton.FinishButton)
    finally:
        wizard.deleteLater()


def test_switching_back_to_english_removes_the_translators(qapp) -> None:
    assert i18n.install_language(qapp, "zh_CN")
    assert i18n.install_language(qapp, "en")
    assert i18n.current_language() == "en"
    assert texts.layer_title("cuda") == "CUDA Toolkit"
    assert QCoreApplication.translate("Status", "Problem") == "Problem"
    assert QWizard().buttonText(QWizard.WizardButton.CancelButton) == "Cancel"


def test_our_catalogue_alone_translates_qwizard_buttons(qapp, monkeypatch, tmp_path) -> None:
    """Without Qt's qtbase_zh_CN.qm (a trimmed bundle) the buttons still come out Chinese."""
    monkeypatch.setattr(i18n, "qt_translations_dir", lambda: str(tmp_path))
    try:
        assert i18n.install_language(qapp, "zh_CN")
        assert "下一步" in QWizard().buttonText(QWizard.WizardButton.NextButton)
    finally:
        i18n.install_language(qapp, "en")


def test_languages_and_system_mapping() -> None:
    assert [code for code, _ in i18n.available_languages()] == ["en", "zh_CN"]
    assert i18n.system_language(QLocale("zh_CN")) == "zh_CN"
    assert i18n.system_language(QLocale("zh_TW")) == "zh_CN"
    assert i18n.system_language(QLocale("en_US")) == "en"
    assert i18n.system_language(QLocale("de_DE")) == "en"
    assert i18n.normalize("zh-Hans-CN") == "zh_CN"
    assert i18n.normalize("fr_FR") is None


def test_saved_choice_wins_over_the_system(tmp_path: Path) -> None:
    settings = QSettings(str(tmp_path / "wizard.ini"), QSettings.Format.IniFormat)
    assert i18n.saved_language(settings) is None
    assert i18n.preferred_language(settings) == i18n.system_language()
    i18n.save_language("zh_CN", settings)
    assert i18n.saved_language(settings) == "zh_CN"
    assert i18n.preferred_language(settings) == "zh_CN"
    settings.setValue(i18n.SETTINGS_KEY, "klingon")
    assert i18n.preferred_language(settings) == i18n.system_language()


def _cjk(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


def test_language_switch_on_the_intro_page_retranslates_and_is_saved(qapp, make_wizard) -> None:
    """Choosing 简体中文 on the intro page translates the open wizard at once (titles, QWizard's
    buttons), saves the choice, and choosing English goes back."""
    profile = ROOT / "tests" / "profiles" / "wsl2-healthy.json"
    if not profile.is_file():
        pytest.skip("tests/profiles/wsl2-healthy.json is missing")
    wiz = make_wizard(
        profile,
        languages=i18n.available_languages(),
        language="en",
        on_language=lambda code: i18n.install_language(qapp, code, save=True),
    )
    try:
        assert not _cjk(wiz.intro.title())
        combo = wiz.intro.language
        combo.setCurrentIndex(combo.findData("zh_CN"))
        qapp.processEvents()
        assert _cjk(wiz.intro.title()), wiz.intro.title()
        assert "下一步" in wiz.buttonText(QWizard.WizardButton.NextButton)
        assert i18n.saved_language() == "zh_CN"
        combo.setCurrentIndex(combo.findData("en"))
        qapp.processEvents()
        assert not _cjk(wiz.intro.title()), wiz.intro.title()
        assert i18n.saved_language() == "en"
    finally:
        i18n.install_language(qapp, "en")
