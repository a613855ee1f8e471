"""Messages by id: how core says something without writing a sentence.

Core builds a :class:`Message` (an id and its values) wherever it has something to tell the user:
a finding's text, a fix step, a link's title, a layer's summary, a phrase inside another message.
The words live in one catalogue, ``resources/messages/*.json``, with every language side by side::

    "gpu.summary.none": {"en": "no NVIDIA GPU found", "zh_CN": "未找到 NVIDIA GPU"}

The CLI, the reports and the GUI all render the same message with :func:`render`, in English or
in Simplified Chinese. Params hold values only (versions, paths, commands, numbers, enums) or
other messages (a sub-phrase), never English prose: so nothing is ever translated by matching
rendered English back to a template.

Variants: a message whose words depend on what is known (an ``explain`` finding knows less than
a layer) has several templates, ``id``, ``id~2``, ``id~3``, ...; :func:`render` uses the first
whose placeholders all have values, the same choice in every language.

Front ends: a message core words for the command line ("give the CUDA folder with --cuda-dir")
may have a GUI wording beside it, ``id.gui`` with the same values (the dialog's buttons instead
of the options); the GUI renders through :func:`for_gui`, the CLI and the reports never do.
"""

from __future__ import annotations

import json
import locale
import logging
import os
import string
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Optional

from wizard.resources import resource_path

log = logging.getLogger(__name__)

LANGUAGES: tuple[str, ...] = ("en", "zh_CN")
DEFAULT_LANGUAGE = "en"
MISSING = "?"
"""What a placeholder without a value renders as (a visible gap rather than a crash)."""


@dataclass(frozen=True)
class Message:
    """Something to tell the user: a catalogue id and the values its template needs."""

    id: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def render(self, lang: str = DEFAULT_LANGUAGE) -> str:
        return render(self, lang)

    def __str__(self) -> str:  # English, for logs and the CLI's plain output
        return render(self, DEFAULT_LANGUAGE)


def msg(message_id: str, **params: Any) -> Message:
    """``msg("gpu.summary.none", others="Intel UHD")``: the short way to build a Message."""
    return Message(message_id, params)


# ---------------------------------------------------------------------------------------------
# the catalogue


@lru_cache(maxsize=1)
def _entries() -> dict[str, dict[str, str]]:
    """Every catalogue file merged: ``{id: {lang: template}}``."""
    folder = resource_path("messages")
    merged: dict[str, dict[str, str]] = {}
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".json"):
            continue
        with open(os.path.join(folder, name), encoding="utf-8") as handle:
            data = json.load(handle)
        for message_id, texts in data.items():
            if message_id in merged:
                raise ValueError(f"message id {message_id!r} is defined twice ({name})")
            merged[message_id] = texts
    return merged


def catalogue(lang: str = DEFAULT_LANGUAGE) -> dict[str, str]:
    """``{id: template}`` for one language (ids without that language are left out)."""
    return {mid: texts[lang] for mid, texts in _entries().items() if lang in texts}


def has(message_id: str) -> bool:
    return message_id in _entries()


def template(message_id: str, lang: str = DEFAULT_LANGUAGE) -> str:
    """The template of ``message_id`` in ``lang`` (English where the language lacks it).
    An unknown id raises ``KeyError``: a bug the catalogue tests catch."""
    texts = _entries()[message_id]
    return texts.get(lang) or texts[DEFAULT_LANGUAGE]


def fields(text: str) -> set[str]:
    """The placeholder names of a template."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def variants(message_id: str) -> list[str]:
    """``id`` and its variants ``id~2``, ``id~3``, ... that the catalogue has, in order."""
    found = [message_id] if has(message_id) else []
    number = 2
    while has(f"{message_id}~{number}"):
        found.append(f"{message_id}~{number}")
        number += 1
    return found


def complete(message_id: str, params: Mapping[str, Any]) -> bool:
    """True when some variant of ``message_id`` has a value for each of its placeholders."""
    return any(all(params.get(name) is not None for name in fields(template(option)))
               for option in variants(message_id))


def choose_variant(message_id: str, params: Mapping[str, Any]) -> str:
    """The first variant whose placeholders all have values (None counts as none); the first
    variant when none has them all."""
    options = variants(message_id)
    if not options:
        raise KeyError(message_id)
    for option in options:
        if all(params.get(name) is not None for name in fields(template(option))):
            return option
    return options[0]


# ---------------------------------------------------------------------------------------------
# rendering


class _Values(dict):
    def __missing__(self, key: str) -> str:
        return MISSING


def render(value: Any, lang: str = DEFAULT_LANGUAGE) -> str:
    """A message (or a param value) as text in ``lang``. Lists are joined with the language's
    separator; None is the empty string; anything else is the value as it is."""
    if isinstance(value, Message):
        try:
            chosen = choose_variant(value.id, value.params)
        except KeyError:  # a bug the catalogue tests catch; a page shows the id, not a crash
            log.error("message %r is not in the catalogue", value.id)
            return value.id
        values = _Values({k: render(v, lang) for k, v in value.params.items()})
        try:
            return template(chosen, lang).format_map(values)
        except (ValueError, IndexError, AttributeError, KeyError):  # a broken translation
            log.error("the %s template of %r is broken", lang, chosen)
            return template(chosen, DEFAULT_LANGUAGE).format_map(values)
    if value is None:
        return ""
    if isinstance(value, (list, tuple)):
        return template("common.list_separator", lang).join(render(v, lang) for v in value)
    return str(value)


GUI_SUFFIX = ".gui"


def for_gui(value: Any) -> Any:
    """``value`` with every message that has a GUI wording (``id.gui``) swapped for it, in
    sub-phrases too; what has none stays as it is."""
    if isinstance(value, Message):
        gui_id = value.id + GUI_SUFFIX
        return Message(gui_id if has(gui_id) else value.id,
                       {k: for_gui(v) for k, v in value.params.items()})
    if isinstance(value, (list, tuple)):
        return type(value)(for_gui(v) for v in value)
    return value


def to_data(value: Any) -> Any:
    """A message as plain JSON data (``{"id": ..., "params": {...}}``), for profiles and tests."""
    if isinstance(value, Message):
        return {"id": value.id, "params": {k: to_data(v) for k, v in value.params.items()}}
    if isinstance(value, (list, tuple)):
        return [to_data(v) for v in value]
    return value


def walk(value: Any):
    """Every Message in ``value`` (itself and the sub-phrases in its params), depth first."""
    if isinstance(value, Message):
        yield value
        for item in value.params.values():
            yield from walk(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from walk(item)


# ---------------------------------------------------------------------------------------------
# which language


def normalize(lang: Optional[str]) -> Optional[str]:
    """One of :data:`LANGUAGES` for a locale name (``zh_CN.UTF-8``, ``zh-Hans``, ``en_US``,
    ``C``), or None for a name that says nothing (empty)."""
    if not lang:
        return None
    name = str(lang).split(".", 1)[0].split("@", 1)[0].replace("-", "_")
    if name in LANGUAGES:
        return name
    if name.lower().startswith(("zh", "chinese")):  # Windows says "Chinese (Simplified)_China"
        return "zh_CN"
    return DEFAULT_LANGUAGE


def system_language(environ: Optional[Mapping[str, str]] = None) -> str:
    """The language the user's system asks for: ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``,
    ``LANG`` (POSIX order), else the locale Python reports (Windows' user locale)."""
    env = os.environ if environ is None else environ
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name)
        if value:
            return normalize(value.split(":", 1)[0]) or DEFAULT_LANGUAGE
    if environ is None:
        try:
            code = locale.getlocale()[0]
        except ValueError:
            code = None
        return normalize(code) or DEFAULT_LANGUAGE
    return DEFAULT_LANGUAGE
