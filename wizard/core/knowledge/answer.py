"""``gpu-wizard compat``: one answer object (JSON-ready) and its rendering in a language.

:func:`compat_answer` gives a plain dict (its notes and reason in English, for ``--json``); the
same texts as messages ride along in :attr:`CompatAnswer.texts`, so :func:`compat_text` can
render the answer in any language of the catalogue (``resources/messages/compat.json``).
"""

from __future__ import annotations

import unicodedata
from typing import Any, Optional

from wizard.core.knowledge import compat as c
from wizard.core.knowledge.versions import compare_versions, parse_version, series
from wizard.core.messages import DEFAULT_LANGUAGE, Message, msg, render


class CompatAnswer(dict):
    """The answer (a dict, JSON as it is) with its texts as messages in :attr:`texts`:
    ``{"notes": [...], "reason": ...}``."""

    def __init__(self, data: dict[str, Any], texts: dict[str, Any]) -> None:
        super().__init__(data)
        self.texts = texts


def _english(notes: list[Any]) -> list[str]:
    return _unique(render(note) for note in notes)


def _unique_notes(notes: list[Any]) -> list[Any]:
    seen: list[str] = []
    kept = []
    for note in notes:
        if render(note) not in seen:
            seen.append(render(note))
            kept.append(note)
    return kept


def compat_answer(
    tf: Optional[str] = None, cuda: Optional[str] = None, os_kind: str = "linux"
) -> CompatAnswer:
    """What a TF release needs on ``os_kind`` (``tf``), which TF releases were built for a CUDA
    version (``cuda`` only), or the recommended TF (neither). Raises ValueError for a version
    the tables do not know."""
    c.check_os_kind(os_kind)
    # None means "not given"; an empty or malformed value is an error, never the default.
    if cuda is not None:
        cuda = c.parse_cuda_query(cuda)
    if tf is not None:
        return _tf_answer(c.parse_tf_query(tf, os_kind), cuda, os_kind, recommended=False)
    if cuda is not None:
        return _cuda_answer(cuda, os_kind)
    recommended = c.parse_tf_query(c.recommended_tf(os_kind), os_kind)
    return _tf_answer(recommended, None, os_kind, recommended=True)


def _tf_answer(
    query: c.TfQuery, cuda: Optional[str], os_kind: str, recommended: bool
) -> CompatAnswer:
    tf = query.series
    requirement = c.tf_requirement(tf, os_kind)
    if requirement is None:
        raise ValueError(c.unknown_tf_message(query.text, os_kind))
    driver = c.min_driver(requirement.cuda, os_kind) if requirement.cuda else None
    cc = c.compute_capability_requirement(requirement.series)
    notes: list[Any] = ([query.note] if query.note else []) + list(requirement.notes)
    notes += c.install_notes(tf, os_kind)
    if driver:
        notes.extend(driver.notes)
    if os_kind == "wsl2" and requirement.pip_cuda:
        notes.extend(_facts("WSL2 requirements for TF"))
    notes = _unique_notes(notes + (cc["notes"] if cc else []))
    texts: dict[str, Any] = {}
    answer: dict[str, Any] = {
        "query": {"tf": None if recommended else query.text, "cuda": cuda, "os": os_kind},
        "tensorflow": query.shown,
        "series": requirement.series,
        "os": os_kind,
        "recommended": recommended,
        "gpu_support": requirement.gpu_support,
        "cuda": requirement.cuda,
        "cudnn": requirement.cudnn,
        "python": requirement.python,
        "pip_cuda": requirement.pip_cuda,
        "package": requirement.package,
        "install_command": c.install_command(tf, os_kind),
        "min_driver": driver.toolkit if driver else None,
        "min_driver_compat": driver.compat if driver else None,
        "min_driver_release": f"CUDA {requirement.cuda} {driver.release}"
        if driver and driver.release
        else None,
        "min_compute_capability": cc["min_cc"] if cc else None,
        "effective_min_compute_capability": cc["effective_min_cc"] if cc else None,
        "and_cuda_pins": c.and_cuda_pins(requirement.series) if requirement.pip_cuda else None,
        "last_windows_gpu_tf": c.last_windows_gpu_tf(),
        "links": _links(requirement, os_kind),
        "notes": [],
        "sources": {
            "tensorflow": requirement.source,
            "driver": driver.source if driver else None,
            "compute_capability": cc["source"] if cc else None,
        },
    }
    if recommended:
        texts["reason"] = c.choose_target(os_kind).reason
        answer["reason"] = render(texts["reason"])
    if cuda:
        matches = requirement.cuda is not None and series(cuda) == series(requirement.cuda)
        answer["cuda_matches"] = matches
        if requirement.cuda and not matches:
            notes.insert(0, msg("compat.note.cuda_mismatch", tf_series=requirement.series,
                                cuda=requirement.cuda, given=series(cuda)))
    texts["notes"] = notes
    answer["notes"] = _english(notes)
    return CompatAnswer(answer, texts)


def _links(requirement: c.TfRequirement, os_kind: str) -> dict[str, Optional[str]]:
    system_cuda = requirement.gpu_support and not requirement.pip_cuda and requirement.cuda
    return {
        "driver": c.driver_download_url() if requirement.gpu_support else None,
        "cuda": c.cuda_download_url(requirement.cuda, os_kind) if system_cuda else None,
        "cudnn": c.cudnn_download_url(requirement.cudnn, requirement.cuda)
        if system_cuda and requirement.cudnn
        else None,
    }


FACT_IDS = {"WSL2 requirements for TF": "compat.data.wsl2_requirements"}
"""Platform facts the compat answer shows, and their catalogue ids."""


def _facts(topic: str) -> list[Any]:
    return [
        c.data_note(FACT_IDS.get(topic, ""), f["fact"])
        for f in c.compat_data().get("platform_facts", [])
        if f["topic"] == topic
    ]


def _cuda_answer(cuda: str, os_kind: str) -> CompatAnswer:
    minor = series(cuda)
    rows = c.tf_versions_for_cuda(cuda, os_kind)
    known_cuda = c.compat_data()["cuda_min_driver_ga"]
    if not rows and minor not in known_cuda:
        ordered = sorted(known_cuda, key=parse_version)
        raise ValueError(
            f"CUDA {cuda} is not in the compatibility table (known: {ordered[0]} ... "
            f"{ordered[-1]}); see gpu-wizard compat --os {os_kind}"
        )
    driver = c.min_driver(cuda, os_kind)
    notes: list[Any] = list(driver.notes)
    if not rows:
        notes.append(msg("compat.note.no_build_for_cuda", os=c.os_name(os_kind), cuda=minor))
    pip_first = c.and_cuda_first_tf()
    tf_rows = [
        {
            "tf": row["tf"],
            "cudnn": row["cudnn"],
            "python": row["python"],
            "pip_cuda": os_kind != "windows" and compare_versions(row["series"], pip_first) >= 0,
            "source": c.public_text(row["source"]),
        }
        for row in rows
    ]
    answer = {
        "query": {"tf": None, "cuda": cuda, "os": os_kind},
        "tensorflow": [row["tf"] for row in tf_rows],
        "os": os_kind,
        "gpu_support": bool(rows),
        "cuda": minor,
        "cudnn": _unique(row["cudnn"] for row in tf_rows),
        "python": _unique(row["python"] for row in tf_rows),
        "tf_rows": tf_rows,
        "min_driver": driver.toolkit,
        "min_driver_compat": driver.compat,
        "min_driver_release": f"CUDA {minor} {driver.release}" if driver.release else None,
        "links": {
            "driver": c.driver_download_url(),
            "cuda": c.cuda_download_url(cuda, os_kind),
        },
        "notes": [render(note) for note in notes],
        "sources": {"driver": driver.source},
    }
    return CompatAnswer(answer, {"notes": notes})


def _unique(values: Any) -> list[str]:
    seen: list[str] = []
    for value in values:
        if value not in seen:
            seen.append(value)
    return seen


# ---------------------------------------------------------------------------------------------
# the text


def compat_text(answer: dict[str, Any], lang: str = DEFAULT_LANGUAGE) -> str:
    """A readable multi-line rendering of :func:`compat_answer` in ``lang``, sources last."""
    text = _Text(answer, lang)
    cuda_mode = isinstance(answer.get("tensorflow"), list)
    lines = text.cuda_lines() if cuda_mode else text.tf_lines()
    notes = text.notes()
    if notes:
        lines.append("")
        lines.append(text.say("compat.label.notes"))
        lines.extend(f"  - {note}" for note in notes)
    sources = {k: v for k, v in (answer.get("sources") or {}).items() if v}
    if sources:
        lines.append("")
        lines.append(text.say("compat.label.sources"))
        lines.extend(f"  - {text.say(f'compat.source.{k}')}: {v}" for k, v in sources.items())
    return "\n".join(lines)


def _width(text: str) -> int:
    """Columns a text takes in a terminal (CJK characters take two)."""
    return sum(2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in text)


class _Text:
    def __init__(self, answer: dict[str, Any], lang: str) -> None:
        self.answer = answer
        self.lang = lang
        self.texts: dict[str, Any] = getattr(answer, "texts", None) or {}

    def say(self, message_id: str, **params: Any) -> str:
        return render(msg(message_id, **params), self.lang)

    def row(self, label_id: Optional[str], value: Any) -> str:
        label = self.say(label_id) + self.say("compat.label.colon") if label_id else ""
        pad = max(16 - _width(label), 1 if label else 0)
        return f"  {label}{' ' * pad}{render(value, self.lang)}"

    def notes(self) -> list[str]:
        notes = self.texts.get("notes")
        if notes is None:  # an answer without its messages (rebuilt from JSON): as it is
            return list(self.answer.get("notes") or [])
        return _unique(render(note, self.lang) for note in notes)

    def os_name(self) -> str:
        return render(c.os_name(self.answer["os"]), self.lang)

    def driver_line(self) -> str:
        toolkit, compat = self.answer.get("min_driver"), self.answer.get("min_driver_compat")
        parts: list[Message] = []
        if toolkit:
            parts.append(msg("compat.value.driver_minimum", driver=toolkit,
                             release=self.answer.get("min_driver_release")))
        else:
            parts.append(msg("compat.value.no_driver_minimum"))
        if compat:
            parts.append(msg("compat.value.driver_floor", driver=compat))
        return self.say("compat.value.semicolon_join").join(render(p, self.lang) for p in parts)

    def tf_lines(self) -> list[str]:
        answer = self.answer
        title = self.say("compat.title.tf", tensorflow=answer["tensorflow"], os=self.os_name())
        if answer.get("recommended"):
            reason = self.texts.get("reason") or answer.get("reason") or msg(
                "compat.value.recommended")
            title += self.say("compat.title.reason", reason=render(reason, self.lang))
        lines = [title]
        links = answer.get("links") or {}
        if not answer["gpu_support"]:
            lines.append(self.row("compat.label.gpu_support", msg("compat.value.no_cpu_only")))
            lines.append(self.row("compat.label.python", answer["python"]))
            lines.append(self.row("compat.label.for_the_gpu", msg(
                "compat.value.for_the_gpu", tf=answer["last_windows_gpu_tf"],
                command=answer["install_command"])))
            return lines
        lines.append(self.row("compat.label.gpu_support", msg("compat.value.yes")))
        if answer["pip_cuda"]:
            lines.append(self.row("compat.label.cuda", msg("compat.value.cuda_from_pip",
                                                           cuda=answer["cuda"])))
            lines.append(self.row("compat.label.cudnn", msg("compat.value.cudnn_from_pip",
                                                            cudnn=answer["cudnn"])))
        else:
            lines.append(self.row("compat.label.cuda", _with_link(answer["cuda"],
                                                                  links.get("cuda"))))
            lines.append(self.row("compat.label.cudnn", _with_link(answer["cudnn"],
                                                                   links.get("cudnn"))))
        lines.append(self.row("compat.label.python", answer["python"]))
        lines.append(self.row("compat.label.driver", self.driver_line()))
        if links.get("driver"):
            lines.append(self.row(None, links["driver"]))
        if answer.get("min_compute_capability"):
            cc = answer["min_compute_capability"]
            effective = answer.get("effective_min_compute_capability")
            value = msg("compat.value.min_cc", cc=cc,
                        effective=effective if effective and effective != cc else None)
            lines.append(self.row("compat.label.gpu", value))
        lines.append(self.row("compat.label.install", answer["install_command"]))
        if answer.get("and_cuda_pins"):
            pins = answer["and_cuda_pins"]
            key = next((k for k in pins if k.startswith("nvidia-cudnn")), None)
            runtime = next((k for k in pins if k.startswith("nvidia-cuda-runtime")), None)
            shown = [f"{k}{pins[k]}" for k in (runtime, key) if k]
            lines.append(self.row("compat.label.pip_pins", msg(
                "compat.value.pins", pins=", ".join(shown), more=len(pins) - len(shown))))
        return lines

    def cuda_lines(self) -> list[str]:
        answer = self.answer
        lines = [self.say("compat.title.cuda", cuda=answer["cuda"], os=self.os_name())]
        if answer["tensorflow"]:
            lines.append(self.row("compat.label.tensorflow", ", ".join(answer["tensorflow"])))
            for row in answer["tf_rows"]:
                how = msg("compat.value.cuda_from_pip_short" if row["pip_cuda"]
                          else "compat.value.system_cuda")
                lines.append("    " + self.say("compat.value.tf_row", tf=row["tf"],
                                               cudnn=row["cudnn"], python=row["python"],
                                               how=render(how, self.lang)))
        else:
            lines.append(self.row("compat.label.tensorflow", msg("compat.value.no_official_build")))
        lines.append(self.row("compat.label.driver", self.driver_line()))
        lines.append(self.row("compat.label.download", answer["links"]["cuda"]))
        return lines


def _with_link(value: Any, url: Optional[str]) -> str:
    return f"{value}  ({url})" if url else str(value)
