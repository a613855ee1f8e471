"""Translated texts for the engine's codes: layer names, statuses, findings and fix steps.

Core hands the GUI codes and params (a :class:`~wizard.core.model.Finding` has ``code`` and
``params``; a :class:`~wizard.core.model.Step` has ``key`` and ``params``); the English for the
CLI lives in :mod:`wizard.core.codes`. This module is the GUI's side of the same table: each text
goes through ``QCoreApplication.translate`` and is then filled with the params exactly the way
``codes._render`` does it (``None`` -> ``""``, a missing key -> ``"?"``).

The finding and step templates come from :mod:`wizard.pages.finding_templates`, which
``scripts/update_translations.py`` generates from ``codes.py`` (tests fail when it is stale).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from PySide6.QtCore import QCoreApplication

from wizard.pages.finding_templates import CORE_TEXTS, FINDINGS, STEPS

_FINDINGS_CONTEXT = "Findings"
_STEPS_CONTEXT = "Steps"
_CORE_CONTEXT = "CoreText"


class _Missing(dict):
    """format_map values: a placeholder the params lack renders as '?' (as in core)."""

    def __missing__(self, key: str) -> str:
        return "?"


def render(template: str, params: dict[str, Any] | None) -> str:
    """Fill ``template`` with ``params`` like core's ``codes._render``.

    A translation whose braces are broken must never crash a page: such a template is shown
    unfilled rather than raising.
    """
    values = _Missing({k: ("" if v is None else v) for k, v in (params or {}).items()})
    try:
        return template.format_map(values)
    except (ValueError, IndexError, AttributeError, KeyError, TypeError):
        return template


def _layer_titles() -> dict[str, str]:
    return {
        "gpu": QCoreApplication.translate("Layers", "GPU"),
        "driver": QCoreApplication.translate("Layers", "Driver"),
        "cuda": QCoreApplication.translate("Layers", "CUDA Toolkit"),
        "cudnn": QCoreApplication.translate("Layers", "cuDNN"),
        "tensorflow": QCoreApplication.translate("Layers", "TensorFlow"),
        "pytorch": QCoreApplication.translate("Layers", "PyTorch"),
    }


def layer_title(layer: str) -> str:
    """The layer's name as shown on its page and in the summary ("CUDA Toolkit")."""
    return _layer_titles().get(layer, layer)


def _status_texts() -> dict[str, str]:
    return {
        "ok": QCoreApplication.translate("Status", "OK"),
        "warn": QCoreApplication.translate("Status", "Warning"),
        "fail": QCoreApplication.translate("Status", "Problem"),
        "unknown": QCoreApplication.translate("Status", "Unknown"),
        "n/a": QCoreApplication.translate("Status", "Not needed"),
    }


def status_text(status: str) -> str:
    """A layer status (``ok``/``warn``/``fail``/``unknown``/``n/a``) as a short word."""
    return _status_texts().get(status, status)


def _severity_texts() -> dict[str, str]:
    return {
        "fail": QCoreApplication.translate("Status", "Problem"),
        "warn": QCoreApplication.translate("Status", "Warning"),
        "info": QCoreApplication.translate("Status", "Note"),
    }


def severity_text(severity: str) -> str:
    """A finding severity (``fail``/``warn``/``info``) as a short word."""
    return _severity_texts().get(severity, severity)


def _finding_part(code: str, index: int) -> str | None:
    entry = FINDINGS.get(code)
    if entry is None:
        return None
    return QCoreApplication.translate(_FINDINGS_CONTEXT, entry[index])


def _params(finding: Any) -> dict[str, Any]:
    return dict(getattr(finding, "params", None) or {})


def finding_title(code: str) -> str:
    """The finding's short title ("cuDNN not found"); an unknown code shows as itself."""
    text = _finding_part(code, 0)
    return code if text is None else text


def finding_message(finding: Any) -> str:
    """What is wrong, filled with the finding's params."""
    text = _finding_part(finding.code, 1)
    return finding.code if text is None else render(text, _params(finding))


def finding_fix(finding: Any) -> str:
    """The fix summary, filled with the finding's params ("" for an unknown code)."""
    text = _finding_part(finding.code, 2)
    return "" if text is None else render(text, _params(finding))


def step_text(step: Any) -> str:
    """One fix step (a :class:`~wizard.core.model.Step`), translated and filled.

    A free-text step (``Step("text", {"text": ...})``) is translated through :func:`core_text`.
    """
    params = dict(getattr(step, "params", None) or {})
    if step.key == "text":
        return core_text(str(params.get("text") or ""))
    template = STEPS.get(step.key)
    if template is None:
        return render("{text}", params)
    return render(QCoreApplication.translate(_STEPS_CONTEXT, template), params)


def link_title(link: Any) -> str:
    """A fix link's title (a :class:`~wizard.core.model.Link`), translated."""
    return core_text(str(getattr(link, "title", "") or ""))


@lru_cache(maxsize=1)
def _core_patterns() -> tuple[tuple[re.Pattern[str], str, tuple[str, ...]], ...]:
    """For each core free-text template with placeholders: a regex that matches its rendered
    English, the template, and its placeholder names in order."""
    patterns = []
    for template in CORE_TEXTS:
        names = re.findall(r"(?<!\{)\{(\w+)\}(?!\})", template)
        if not names:
            continue
        regex = ""
        for piece in re.split(r"((?<!\{)\{\w+\}(?!\}))", template):
            if re.fullmatch(r"\{\w+\}", piece):
                regex += "(.+?)"
            else:
                regex += re.escape(piece.replace("{{", "{").replace("}}", "}"))
        patterns.append((re.compile(regex, re.DOTALL), template, tuple(names)))
    return tuple(patterns)


def core_text(english: str) -> str:
    """Translate a free English text written in core (a step or a link title).

    Exact texts are looked up directly; texts core builds with an f-string are matched against
    their template and the values are carried into the translation. Anything else (a text
    computed at run time) stays English.
    """
    if not english:
        return english
    literal = english.replace("{", "{{").replace("}", "}}")
    if literal in _core_literals():
        return render(QCoreApplication.translate(_CORE_CONTEXT, literal), {})
    for regex, template, names in _core_patterns():
        match = regex.fullmatch(english)
        if match:
            values = dict(zip(names, match.groups()))
            return render(QCoreApplication.translate(_CORE_CONTEXT, template), values)
    return english


@lru_cache(maxsize=1)
def _core_literals() -> frozenset[str]:
    return frozenset(CORE_TEXTS)
