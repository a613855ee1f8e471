"""Error-log signatures -> findings, the most likely cause first (``gpu-wizard explain``).

The signatures are data (``resources/signatures.json``), each built from a real log in a public
issue thread or a labelled sample. The engine scans a log line by line and:

1. records *facts* (a GPU is listed, TensorFlow printed ``dso_loader`` lines, the log mentions a
   container, ...), *harmless lines* (NUMA, TensorRT ``libnvinfer``, CPU instructions, the cuBLAS
   factory) and *candidate findings* (a library that could not be loaded, a cuDNN version
   mismatch, ...);
2. keeps a candidate only when its conditions hold (``requires`` / ``unless`` facts, the OS),
   and adds *derived* findings that no single line shows (no GPU listed and no ``dso_loader``
   line on native Windows: TF >= 2.11);
3. ranks them by weight (minus ``demote_if`` penalties), then chain order, then position;
4. when no line is decisive (:func:`is_decisive`) or several causes remain, gives each finding
   ``params["how_to_tell"]``: how to tell it from the others (``explain.tell.<code>``), from
   what the log shows (the TF version, Windows or WSL paths).

Besides the log, the caller may say what it knows: the OS (``--os``), the TensorFlow version
(``--tf``, or the checked environment's), and in ``check`` the machine's own facts
(:func:`machine_facts`: a GPU, a loaded driver), which signatures use as ``machine:<name>``.
The signatures are tuned on the development part of ``data/explain-corpus`` only
(``benchmarks/explain_accuracy.py`` reports both parts).

A log with only harmless lines yields the single finding ``numa_or_harmless_warning``; an empty
log, or one with nothing known in it, yields ``[]``. The same engine reads the environment
probe's log for ``gpu-wizard check`` (:func:`probe_log_findings`, :func:`merge_log_findings`).
"""

from __future__ import annotations

import bisect
import contextlib
import re
import string
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any, Optional

from wizard.core import messages
from wizard.core.codes import CODES, layer_of
from wizard.core.codes import fix_summary as code_fix_summary
from wizard.core.codes import message as code_message
from wizard.core.deciding_question import (
    Question,
    answer_facts,
    apply_answers,
    deciding_question,
    shown_answers,
)
from wizard.core.knowledge.versions import try_parse_version
from wizard.core.messages import DEFAULT_LANGUAGE, Message, msg, render
from wizard.core.model import (
    LAYERS,
    OK,
    Finding,
    Fix,
    LayerResult,
    Link,
    Step,
    worst_status,
)
from wizard.core.pasted_log import as_printed, unwrapped_readings
from wizard.core.similar_reports import MIN_NEAREST, Report, SimilarIndex, likeliest
from wizard.core.similar_reports import index as similar_index
from wizard.resources import load_json

SIGNATURES_FILE = "signatures.json"
MAX_LINE = 4096
"""Longer lines are cut to this many characters before matching (progress bars, base64)."""
DEMOTION = 40
"""Weight taken from a finding whose ``demote_if`` facts hold (a cudart complaint on a machine
where the log shows no GPU at all)."""
DEFAULT_WEIGHT = 50
HARMLESS_CODE = "numa_or_harmless_warning"
_OS_KINDS = ("windows", "linux", "wsl2", "macos")
LINUX_CUDA_FOLDER = "/usr/local/cuda"
CONTEXT_PARAMS: dict[str, tuple[str, ...]] = {
    "cudart_missing": ("cuda",),
    "cuda_lib_other_missing": ("cuda",),
    "cudnn_missing": ("cuda", "cudnn"),
    "cudnn_partial_install": ("cuda", "cudnn"),
    "cudnn_version_mismatch": ("cuda",),
    "libdevice_or_ptxas_missing": ("cuda",),
}
"""Versions the log names elsewhere (``cudart64_110.dll`` loaded -> CUDA 11.x) that a finding
of this code may borrow when its own line does not name them."""
_LAYER_ORDER = {name: index for index, name in enumerate(LAYERS)}


# ---------------------------------------------------------------------------------------------
# The compiled signature table


@dataclass(frozen=True)
class FollowedBy:
    """A fact spread over two lines: ``trigger`` on this line, ``regex`` on one of the next."""

    trigger: re.Pattern[str]
    regex: re.Pattern[str]
    within: int


@dataclass(frozen=True)
class Signature:
    id: str
    code: Optional[str]
    """A finding code, ``@library`` (decided by the library family), or None (fact/harmless)."""
    fact: Optional[str]
    red_herring: bool
    kind: str
    severity: str
    weight: Optional[int]
    regexes: tuple[re.Pattern[str], ...]
    keywords: tuple[str, ...]
    params: Optional[tuple[str, ...]]
    defaults: dict[str, Any]
    convert: dict[str, str]
    rename: dict[str, str]
    os: tuple[str, ...]
    requires: tuple[str, ...]
    requires_any: tuple[str, ...]
    unless: tuple[str, ...]
    demote_if: tuple[str, ...]
    params_from: tuple[str, ...]
    followed_by: Optional[FollowedBy]
    group: Optional[str]
    differ: tuple[str, ...]
    """Facts whose ``version`` values must all be known and not all the same (the libcuda
    version against the kernel module's)."""
    fix: dict[str, Any]
    source: str

    @property
    def derived(self) -> bool:
        return not self.regexes


@dataclass(frozen=True)
class LibraryFamily:
    id: str
    match: re.Pattern[str]
    code: Optional[str]
    red_herring: bool
    weight: int
    by_error_code: dict[str, str]
    error_code_details: dict[str, str]
    os_code: dict[str, str]
    defaults: dict[str, Any]
    demote_if: tuple[str, ...]


@dataclass(frozen=True)
class Table:
    signatures: tuple[Signature, ...]
    families: tuple[LibraryFamily, ...]
    versions: tuple[tuple[re.Pattern[str], str, str], ...]
    """(file regex, "cuda" or "cudnn", template over the regex groups)."""
    os_hints: tuple[tuple[str, re.Pattern[str]], ...]
    """(OS, hint) in order: the first hint found in a log names its OS."""
    code_fixes: dict[str, dict[str, Any]]
    keywords: tuple[str, ...]
    """The keywords of all signatures, minus those that contain another one: a line without
    any of them is skipped at once."""
    anchors: tuple[str, ...] = ()
    """Fewer, shorter strings than :attr:`keywords` such that every keyword contains one: the
    whole-text search looks for these (one pass each), the signatures' own keywords are then
    checked on the lines found."""
    by_anchor: dict[str, tuple[int, ...]] = field(default_factory=dict)
    """Per anchor, the indexes (into :attr:`signatures`) of the signatures with a keyword that
    contains it: a line is only tried against the signatures of the anchors it holds."""
    tell_values: dict[str, dict[str, str]] = field(default_factory=dict)
    """Per code, the values (commands, paths; templates over the finding's params) of its
    ``explain.tell.<code>`` message."""
    localised: tuple[tuple[tuple[str, ...], re.Pattern[str], str], ...] = ()
    """(keywords, an operating system's message in another language, its English words): the
    loader's, the shell's and Windows' own texts, which follow the user's language while the
    programs' messages around them stay English; the pattern is tried where a keyword is."""


def _compile(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


def _signature(raw: dict[str, Any]) -> Signature:
    followed = raw.get("followed_by")
    follow = None
    if followed:
        follow = FollowedBy(
            _compile(followed["trigger"]), _compile(followed["regex"]), int(followed["within"])
        )
    regexes = raw.get("regex") or []
    if isinstance(regexes, str):
        regexes = [regexes]
    return Signature(
        id=raw["id"],
        code=raw.get("code"),
        fact=raw.get("fact"),
        red_herring=bool(raw.get("red_herring")),
        kind=raw.get("kind", ""),
        severity=raw.get("severity", "fail"),
        weight=raw.get("weight"),
        regexes=tuple(_compile(r) for r in regexes),
        keywords=tuple(k.lower() for k in raw.get("keywords", ())),
        params=tuple(raw["params"]) if "params" in raw else None,
        defaults=dict(raw.get("defaults", {})),
        convert=dict(raw.get("convert", {})),
        rename=dict(raw.get("rename", {})),
        os=tuple(raw.get("os", ())),
        requires=tuple(raw.get("requires", ())),
        requires_any=tuple(raw.get("requires_any", ())),
        unless=tuple(raw.get("unless", ())),
        demote_if=tuple(raw.get("demote_if", ())),
        params_from=tuple(raw.get("params_from", ())),
        followed_by=follow,
        group=raw.get("group"),
        differ=tuple(raw.get("differ", ())),
        fix=dict(raw.get("fix", {})),
        source=raw.get("source", ""),
    )


def _family(raw: dict[str, Any]) -> LibraryFamily:
    return LibraryFamily(
        id=raw["id"],
        match=_compile(raw["match"]),
        code=raw.get("code"),
        red_herring=bool(raw.get("red_herring")),
        weight=int(raw.get("weight", DEFAULT_WEIGHT)),
        by_error_code=dict(raw.get("by_error_code", {})),
        error_code_details=dict(raw.get("error_code_details", {})),
        os_code=dict(raw.get("os_code", {})),
        defaults=dict(raw.get("defaults", {})),
        demote_if=tuple(raw.get("demote_if", ())),
    )


def build_table(data: dict[str, Any]) -> Table:
    """Compile a signature document (the JSON of ``resources/signatures.json``)."""
    signatures = tuple(_signature(raw) for raw in data["signatures"])
    for sig in signatures:
        if sig.regexes and not sig.keywords:
            raise ValueError(f"signature {sig.id} has regexes but no keywords")
        if sig.code and sig.code != "@library" and sig.code not in CODES:
            raise ValueError(f"signature {sig.id} names an unknown code {sig.code}")
        _check_message_ids(sig.id, [sig.defaults, sig.fix])
    for raw in data.get("library_families", []):
        _check_message_ids(raw["id"], [raw.get("defaults"), raw.get("error_code_details")])
    for code, spec in data.get("code_fixes", {}).items():
        _check_message_ids(code, [spec])
    every = {k for sig in signatures for k in sig.keywords}
    keywords = tuple(sorted(k for k in every if not any(o != k and o in k for o in every)))
    versions = []
    for row in data.get("library_versions", []):
        for key in ("cuda", "cudnn"):
            if key in row:
                versions.append((_compile(row["match"]), key, row[key]))
    anchors = _anchors(keywords)
    return Table(
        signatures=signatures,
        families=tuple(_family(raw) for raw in data.get("library_families", [])),
        versions=tuple(versions),
        os_hints=tuple(
            (row["os"], _compile("|".join(f"(?:{p})" for p in row["patterns"])))
            for row in data.get("os_hints", [])
        ),
        code_fixes=dict(data.get("code_fixes", {})),
        keywords=keywords,
        anchors=anchors,
        by_anchor=_by_anchor(signatures, anchors),
        tell_values={code: dict(values) for code, values in data.get("how_to_tell", {}).items()
                     if isinstance(values, dict)},
        localised=tuple((tuple(row["keywords"]), re.compile(row["pattern"]), row["english"])
                        for row in data.get("localised", [])),
    )


_ANCHOR_WORDS = (
    "cuda", "cudnn", "nvidia", "gpu", "driver", "librar", "dll", "tensorflow", "device", "ptx",
    "nvml", "numa", "capabilit", "symbol", ".so", "nvrm", "xla", "cublas", "docker",
    "container", "wsl", "version", "load", "found", "not ", "torch", "failed", "error",
    "allocat", "memory", "insuffic", "permission", "kernel", "cpu", "could", "code ", "compil",
    "instruction", "unsupported", "exhausted", "mismatch", "runtime",
)
"""Words many keywords share (each search of a 5 MB log is one pass over it)."""


def _anchors(keywords: tuple[str, ...]) -> tuple[str, ...]:
    """For each keyword the first anchor word it contains, else the keyword itself."""
    found = {next((word for word in _ANCHOR_WORDS if word in k), k) for k in keywords}
    return tuple(sorted(found))


def _by_anchor(signatures: tuple[Signature, ...],
               anchors: tuple[str, ...]) -> dict[str, tuple[int, ...]]:
    """:attr:`Table.by_anchor`: each keyword of a signature filed under the longest anchor it
    contains (a line that holds the keyword holds that anchor too)."""
    filed: dict[str, set[int]] = {}
    for index, sig in enumerate(signatures):
        if not sig.regexes:
            continue
        for keyword in sig.keywords:
            anchor = max((a for a in anchors if a in keyword), key=len, default=keyword)
            filed.setdefault(anchor, set()).add(index)
    return {anchor: tuple(sorted(found)) for anchor, found in filed.items()}


@lru_cache(maxsize=1)
def table() -> Table:
    """The signature table, compiled once."""
    return build_table(load_json(SIGNATURES_FILE))


# ---------------------------------------------------------------------------------------------
# Scanning


@dataclass
class _Hit:
    sig: Signature
    line_no: int
    line: str
    groups: dict[str, str]


@dataclass
class _Candidate:
    code: str
    severity: str
    weight: int
    line_no: int
    evidence: str
    params: dict[str, Any]
    fix: dict[str, Any]
    sig: Signature
    demote_if: tuple[str, ...] = ()
    files: list[str] = field(default_factory=list)


def in_english(text: str, tab: Optional[Table] = None) -> str:
    """The operating system's own messages of a log in English where the user's language gave
    them in another (:attr:`Table.localised`), so that one pattern reads both; the lines keep
    their count and order (the evidence shown is still the line as written)."""
    ascii_only = text.isascii()  # then no keyword in another script can be in it
    for keywords, pattern, english in (tab or table()).localised:
        if any(keyword in text for keyword in keywords if keyword.isascii() or not ascii_only):
            text = pattern.sub(english, text)
    return text


def _split(text: str) -> list[str]:
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def _candidate_lines(lines: list[str], keywords: tuple[str, ...]) -> list[int]:
    """Indexes of the lines that hold any keyword, found with ``str.find`` over the whole text
    (one pass per keyword in C is far faster than a regex alternation per line)."""
    text = "\n".join(lines)
    low = text.lower()
    if len(low) != len(text):  # lower() changed a length (rare Unicode): go line by line
        return [i for i, line in enumerate(lines) if any(k in line.lower() for k in keywords)]
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    found: set[int] = set()
    for keyword in keywords:
        position = low.find(keyword)
        while position != -1:
            index = bisect.bisect_right(starts, position) - 1
            found.add(index)
            # go on after this line: one hit per line is enough
            following = starts[index + 1] if index + 1 < len(starts) else len(low)
            position = low.find(keyword, following)
    return sorted(found)


def _scan(text: str, tab: Table, shown: Optional[str] = None) -> tuple[list[_Hit], bool]:
    """Every signature hit, line by line, and whether any line holds one of the table's
    keywords; repeated lines are looked at once. Where pieces of a
    line a console cut or a mail reflowed were joined (:func:`unwrapped`), both the joined line
    and the first piece as pasted are read: a join is a guess; so is a console's cut, which a
    mail's reflow at the same width also looks like (:func:`unwrapped_readings`, read too).
    ``shown`` is the text as written when ``text`` is its English reading: a hit's line is then
    taken from it."""
    pasted = _split(text)
    lines, other = unwrapped_readings(pasted)
    written_pasted = _split(shown) if shown is not None and shown != text else pasted
    if len(written_pasted) != len(pasted):
        written_pasted = pasted
    written, written_other = (unwrapped_readings(written_pasted)
                              if written_pasted is not pasted else (lines, other))
    seen: set[str] = set()
    hits: list[_Hit] = []
    keywords = tab.anchors or tab.keywords
    indexes = set(_candidate_lines(lines, keywords))
    if lines is not pasted:
        indexes.update(_candidate_lines(pasted, keywords))
    if other is not None:
        indexes.update(_candidate_lines(other, keywords))
    for index in sorted(indexes):
        readings = [(lines[index], written[index]), (pasted[index], written_pasted[index])]
        if other is not None and written_other is not None:
            readings.append((other[index], written_other[index]))
        for read, as_written in _distinct(readings):
            line = _pasted(read[:MAX_LINE])
            if not line or line in seen:
                continue
            seen.add(line)
            evidence = line if as_written is read else _pasted(as_written[:MAX_LINE])
            hits.extend(_line_hits(tab, line, lines, index, evidence))
    return hits, bool(indexes)


def _distinct(readings: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The readings of one line (as read, as written) whose read text differs from those
    before it."""
    kept: list[tuple[str, str]] = []
    for reading in readings:
        if all(reading[0] != other[0] for other in kept):
            kept.append(reading)
    return kept


def _signatures_for(low: str, tab: Table) -> list[Signature]:
    """The signatures a line (in lower case) may match, in table order: those filed under an
    anchor it holds."""
    found: set[int] = set()
    for anchor, indexes in tab.by_anchor.items():
        if anchor in low:
            found.update(indexes)
    return [tab.signatures[i] for i in sorted(found)]


def _line_hits(tab: Table, line: str, lines: list[str], index: int,
               evidence: str) -> list[_Hit]:
    """The hits of one line (one per signature group)."""
    hits: list[_Hit] = []
    low = line.lower()
    groups_done: set[str] = set()
    for sig in _signatures_for(low, tab):
        if sig.group and sig.group in groups_done:
            continue
        if not any(k in low for k in sig.keywords):
            continue
        groups = _match(sig, line, lines, index)
        if groups is None:
            continue
        hits.append(_Hit(sig, index + 1, evidence, groups))
        if sig.group:
            groups_done.add(sig.group)
    return hits


_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'})


def _pasted(line: str) -> str:
    """A line as the tool printed it, not as it was pasted: without the markers of a quote, a
    code span or a prompt before it (``> ``, ``>>> ``, a backtick) and with the typographic
    quotes a forum put in turned back into plain ones."""
    return line.strip().lstrip(">`|").strip().strip("`").strip().translate(_QUOTES)


def _match(sig: Signature, line: str, lines: list[str], index: int) -> Optional[dict[str, str]]:
    for regex in sig.regexes:
        found = regex.search(line)
        if found:
            return {k: v.strip() for k, v in found.groupdict().items() if v is not None}
    follow = sig.followed_by
    if follow and follow.trigger.search(line):
        for later in lines[index + 1 : index + 1 + follow.within]:
            found = follow.regex.search(_pasted(later[:MAX_LINE]))
            if found:
                return {k: v.strip() for k, v in found.groupdict().items() if v is not None}
    return None


def infer_os(text: str, tab: Optional[Table] = None) -> Optional[str]:
    """The OS a log comes from, when it says so (WSL paths, ``C:\\`` and ``.dll``, ``.so``)."""
    tab = tab or table()
    sample = text if len(text) <= 400_000 else text[:200_000] + text[-200_000:]
    for kind, hint in tab.os_hints:
        if hint.search(sample):
            return kind
    return None


# ---------------------------------------------------------------------------------------------
# Parameters


def _cuda_from_int(value: str) -> str:
    number = int(value)
    return f"{number // 1000}.{(number % 1000) // 10}"


def _cudnn_version(value: str) -> str:
    """``6021`` -> ``6.0.21``, ``90100`` -> ``9.1.0``, ``8, 2, 0`` -> ``8.2.0``; dotted as is."""
    text = value.strip().rstrip(".")
    if "," in text:
        return ".".join(part.strip() for part in text.split(",") if part.strip())
    if text.isdigit() and len(text) >= 4:
        number = int(text)
        if number >= 10000:
            major, rest = divmod(number, 10000)
        else:
            major, rest = divmod(number, 1000)
        minor, patch = divmod(rest, 100)
        return f"{major}.{minor}.{patch}"
    return text


def _sm(value: str) -> str:
    digits = value.lower().replace("sm_", "")
    return f"{digits[:-1]}.{digits[-1]}" if len(digits) >= 2 else value


def _cu_suffix(value: str) -> str:
    return f"{value[:-1]}.{value[-1]}" if len(value) >= 2 else value


_CONVERTERS = {
    "cuda_int": _cuda_from_int,
    "cudnn_version": _cudnn_version,
    "sm": _sm,
    "cu_suffix": _cu_suffix,
}


def _convert(params: dict[str, Any], convert: dict[str, str]) -> None:
    for name, how in convert.items():
        if name in params and how in _CONVERTERS:
            with contextlib.suppress(ValueError, IndexError):
                params[name] = _CONVERTERS[how](str(params[name]))


def library_versions(file: str, tab: Optional[Table] = None) -> dict[str, str]:
    """CUDA / cuDNN versions a versioned library name asks for.

    ``cudart64_110.dll`` / ``libcudart.so.11.0`` -> ``{"cuda": "11.x"}``, ``cudart64_101.dll`` ->
    ``{"cuda": "10.1"}``, ``cudnn64_8.dll`` / ``libcudnn.so.8`` -> ``{"cudnn": "8"}``.
    """
    tab = tab or table()
    name = _basename(file).lower()
    result: dict[str, str] = {}
    for regex, key, template in tab.versions:
        if key in result:
            continue
        found = regex.search(name)
        if found:
            result[key] = _expand(template, found)
    return result


def _expand(template: str, found: re.Match[str]) -> str:
    """``{1}.{2}`` with the regex groups (a group that did not take part counts as empty)."""
    values = ["", *(g or "" for g in found.groups())]
    return re.sub(r"\{(\d)\}", lambda m: values[int(m.group(1))], template)


def _basename(file: str) -> str:
    return re.split(r"[\\/]", file.strip().strip("'\""))[-1]


class _Strict(dict):
    def __missing__(self, key: str) -> str:
        raise KeyError(key)


def _fill(template: str, params: dict[str, Any]) -> Optional[str]:
    """``template`` filled from ``params``; None when a placeholder has no value."""
    values = _Strict({k: v for k, v in params.items() if v not in (None, "")})
    try:
        return string.Formatter().vformat(template, (), values)
    except (KeyError, IndexError, ValueError):
        return None


def _value(spec: Any, params: dict[str, Any]) -> Any:
    """A value of the signature table filled from ``params``: a string template (``"{file}"``),
    a message (``{"message": "explain.phrase.x", "params": {"file": "{file}"}}``: words for the
    user, whose params are filled the same way) or a plain value. None when a placeholder has no
    value (the item is left out)."""
    if isinstance(spec, str):
        return _fill(spec, params)
    if isinstance(spec, dict) and "message" in spec:
        values = {}
        for key, template in spec.get("params", {}).items():
            filled = _value(template, params)
            if filled is None:
                return None
            values[key] = filled
        return Message(spec["message"], values)
    return spec


def _check_message_ids(owner: str, specs: list[Any]) -> None:
    """Every message a signature, family or code fix names is in the catalogue: link titles,
    step keys (``step.<key>``) and message values."""
    for message_id in _message_ids(specs):
        if not messages.has(message_id):
            raise ValueError(f"{owner} names a message the catalogue lacks: {message_id}")


def _message_ids(value: Any, key: str = "") -> list[str]:
    if isinstance(value, list):
        return [found for item in value for found in _message_ids(item, key)]
    if not isinstance(value, dict):
        return []
    found = [value["message"]] if isinstance(value.get("message"), str) else []
    if key == "links":
        found.append(str(value.get("title")))
    elif key == "steps":
        found.append(f"step.{value.get('key')}")
    return found + [i for name, item in value.items() for i in _message_ids(item, name)]


# ---------------------------------------------------------------------------------------------
# From hits to findings


def _facts(hits: list[_Hit]) -> dict[str, _Hit]:
    facts: dict[str, _Hit] = {}
    for hit in hits:
        name = hit.sig.fact
        if not name:
            continue
        if name in facts:
            # keep the first line, but collect values a later line adds
            for key, value in hit.groups.items():
                facts[name].groups.setdefault(key, value)
        else:
            facts[name] = _Hit(hit.sig, hit.line_no, hit.line, dict(hit.groups))
    return facts


def _holds(name: str, facts: dict[str, _Hit], codes: set[str], os_kind: Optional[str],
           any_finding: bool) -> bool:
    if name.startswith("os:"):
        return os_kind == name[3:]
    if name.startswith("code:"):
        return name[5:] in codes
    if name == "any_finding":
        return any_finding
    return name in facts


def _allowed(sig: Signature, facts: dict[str, _Hit], codes: set[str], os_kind: Optional[str],
             any_finding: bool) -> bool:
    if sig.os and os_kind not in sig.os:  # an unknown OS fits no OS-specific signature
        return False
    if not all(_holds(n, facts, codes, os_kind, any_finding) for n in sig.requires):
        return False
    if sig.requires_any and not any(
        _holds(n, facts, codes, os_kind, any_finding) for n in sig.requires_any
    ):
        return False
    if sig.differ and not _versions_differ(sig.differ, facts):
        return False
    return not any(_holds(n, facts, codes, os_kind, any_finding) for n in sig.unless)


def _versions_differ(names: tuple[str, ...], facts: dict[str, _Hit]) -> bool:
    """True when every fact named shows a ``version`` and they are not all the same
    (``384.111.0`` against ``384.90``; trailing ``.0`` parts do not count)."""
    versions = set()
    for name in names:
        hit = facts.get(name)
        value = hit.groups.get("version") if hit else None
        if not value:
            return False
        parts = value.strip().split(".")
        while len(parts) > 2 and parts[-1] == "0":
            parts.pop()
        versions.add(".".join(parts))
    return len(versions) > 1


def _family_of(file: str, tab: Table) -> Optional[LibraryFamily]:
    return next((family for family in tab.families if family.match.search(file)), None)


def _resolve_library(hit: _Hit, tab: Table, os_kind: Optional[str]):
    """(family, code, extra params) for a library-load line; None for an unknown library.

    When the loader's error names another library (``dlerror: libnvJitLink.so.12: cannot
    open ...``), that one is what is missing: it decides the code and becomes ``file``, and
    the requested library is kept as ``needed_by``.
    """
    file = _basename(hit.groups.get("file", ""))
    family = _family_of(file, tab) if file else None
    if family is None:
        # a library of the program's own (an ONNX Runtime or CTranslate2 provider) whose
        # loader error names a CUDA library: that one is what is missing
        return _resolve_dependency_only(hit, file, tab)
    extra: dict[str, Any] = {"file": file}
    if family.red_herring:
        return family, None, extra
    dependency = _dependency(hit.groups.get("dlerror", ""), file)
    if dependency:
        needed = _family_of(dependency, tab)
        if needed is not None and needed.code and not needed.red_herring:
            family = needed
            extra = {"file": dependency, "needed_by": file}
        else:
            extra["dependency"] = dependency
    code = family.code
    error_code = hit.groups.get("error_code")
    if error_code:
        extra["error_code"] = error_code
        code = family.by_error_code.get(error_code, code)
        detail = _value(family.error_code_details.get(error_code), extra)
        if detail is not None:
            extra["detail"] = detail
    if os_kind and os_kind in family.os_code:
        code = family.os_code[os_kind]
    return family, code, extra


def _resolve_dependency_only(hit: _Hit, file: str, tab: Table):
    """(family, code, params) when an unknown library's loader error names a known one."""
    dependency = _dependency(hit.groups.get("dlerror", ""), file) if file else None
    needed = _family_of(dependency, tab) if dependency else None
    if needed is None or not needed.code or needed.red_herring:
        return None
    return needed, needed.code, {"file": dependency, "needed_by": file}


def _dependency(dlerror: str, file: str) -> Optional[str]:
    """The library a dlerror names when it is not the requested one (a missing dependency)."""
    found = re.search(r"([\w.+-]+\.(?:dll|so(?:\.\d+)*))", dlerror or "", re.IGNORECASE)
    if found and found.group(1).lower() != file.lower():
        return found.group(1)
    return None


def _candidate(hit: _Hit, tab: Table, facts: dict[str, _Hit], os_kind: Optional[str],
               harmless: list[_Hit]) -> Optional[_Candidate]:
    sig = hit.sig
    params: dict[str, Any] = dict(hit.groups)
    if sig.params is not None:
        params = {k: v for k, v in params.items() if k in sig.params}
    code = sig.code
    weight = sig.weight if sig.weight is not None else DEFAULT_WEIGHT
    demote = sig.demote_if
    if code == "@library":
        resolved = _resolve_library(hit, tab, os_kind)
        if resolved is None:
            return None
        family, code, extra = resolved
        if code is None:  # a harmless library (TensorRT)
            harmless.append(hit)
            return None
        params.pop("dlerror", None)
        params.pop("how", None)
        params.update(extra)
        weight = family.weight
        demote = demote + family.demote_if
        for key, value in family.defaults.items():
            filled = _value(value, params)
            if filled is not None:
                params.setdefault(key, filled)
    for name in sig.params_from:
        if name in facts:
            for key, value in facts[name].groups.items():
                params.setdefault(key, value)
    _convert(params, sig.convert)
    for old, new in sig.rename.items():
        if old in params:
            params.setdefault(new, params.pop(old))
    if "file" in params:
        params["file"] = _basename(str(params["file"]))
        for key, value in library_versions(params["file"], tab).items():
            params.setdefault(key, value)
    for key, value in sig.defaults.items():
        if key in params:
            continue
        filled = _value(value, params)
        if filled is not None:
            params[key] = filled
    if code is None or code not in CODES:
        return None
    return _Candidate(
        code=code,
        severity=sig.severity,
        weight=int(weight),
        line_no=hit.line_no,
        evidence=hit.line,
        params=params,
        fix=sig.fix,
        sig=sig,
        demote_if=demote,
        files=[params["file"]] if "file" in params else [],
    )


def _context_params(facts: dict[str, _Hit], tab: Table) -> dict[str, str]:
    """Versions the log names anywhere (``cudart64_110.dll`` loaded -> CUDA 11.x)."""
    context: dict[str, str] = {}
    cuda = facts.get("cuda_named")
    if cuda and cuda.groups.get("cuda_file"):
        context.update(library_versions(cuda.groups["cuda_file"], tab))
    cudnn = facts.get("cudnn_loaded")
    if cudnn and cudnn.groups.get("cudnn_file"):
        for key, value in library_versions(cudnn.groups["cudnn_file"], tab).items():
            context.setdefault(key, value)
    return {k: v for k, v in context.items() if k in ("cuda", "cudnn")}


def explain_log(text: str, os_kind: Optional[str] = None, tf_version: Optional[str] = None,
                machine: Iterable[str] = (), signatures: Optional[Table] = None,
                similar: Optional[SimilarIndex] = None,
                python_version: Optional[str] = None,
                cuda_version: Optional[str] = None) -> list[Finding]:
    """Findings for an error log, ranked most likely first.

    ``os_kind`` is ``windows``, ``linux``, ``wsl2``, ``macos`` or None (then the log's own hints
    decide, e.g. ``C:\\`` paths or ``/usr/lib/wsl``); ``windows`` with a log that shows WSL2 is
    WSL2; ``macos`` is the ``macos`` fact a ``/Users/...`` path gives (no NVIDIA GPU).
    ``tf_version`` is the TensorFlow version the user names (``explain --tf``) or the checked
    environment holds; it beats a version the log shows. ``python_version`` likewise is the
    Python the user names (``explain --python``) or the checked environment runs (``3.8``,
    ``3.8.10``): with the TensorFlow version it tells a Python that release has no build for
    from one it has (then pip found nothing for another reason: a 32-bit Python).
    ``cuda_version`` is the CUDA Toolkit the user says is installed (``explain --cuda 11.8``):
    it beats a toolkit the log shows (nvcc's release, a ``CUDA\\v11.8`` folder) and, against
    the CUDA a library not found was built for, tells another CUDA installed
    (``cuda_version_mismatch``) from the right one the loader does not find.
    ``machine`` names what ``check`` already knows of the machine (:data:`MACHINE_FACTS`), so
    that a signature can rule a candidate in or out (``"machine:nvidia_gpu"`` in its
    ``requires`` / ``unless``), and the facts the user's answers give
    (:mod:`wizard.core.deciding_question`), which put their subject first or drop it. A log
    with only harmless lines gives the single finding ``numa_or_harmless_warning`` (severity
    info); an empty log gives ``[]``. ``signatures``
    replaces the shipped table (the benchmark's leave-thread-out measurement).

    When no line is decisive (:func:`is_decisive`), or several causes are found, each finding
    carries ``params["how_to_tell"]``: a message saying how to tell it from the others, from
    what the log shows (the TensorFlow version, Windows or WSL paths).
    """
    if not text or not text.strip():
        return []
    machine = tuple(machine)
    told = () if "checked" in machine else tuple(m for m in machine if m in answer_facts())
    log_decided = not told or decisive(explain_log(
        text, os_kind, tf_version, [m for m in machine if m not in told], signatures, similar,
        python_version, cuda_version))
    return _explained(text, os_kind, Given(tf_version, python_version, cuda_version), machine,
                      signatures or table(), similar, log_decided)


@dataclass(frozen=True)
class Given:
    """What the user says beside the log (``explain --tf/--python/--cuda``, the dialog's
    fields, the checked environment): each None when not said."""

    tf: Optional[str] = None
    python: Optional[str] = None
    cuda: Optional[str] = None


def _explained(text: str, os_kind: Optional[str], given: Given,
               machine: tuple[str, ...], tab: Table, similar: Optional[SimilarIndex],
               log_decided: bool) -> list[Finding]:
    """:func:`explain_log`'s findings; ``log_decided`` False when the log without the user's
    answers was undecided: an answer that rules a candidate out leaves the others as undecided
    as the log left them, so that the next question may still settle them."""
    text = as_printed(text)
    if os_kind not in _OS_KINDS:
        os_kind = infer_os(text, tab)
    elif os_kind == "windows" and infer_os(text, tab) == "wsl2":
        # WSL runs on Windows: "Windows" said of a log that shows WSL2 (its kernel, its
        # /usr/lib/wsl) means the Linux side, whose causes and fixes are WSL's
        os_kind = "wsl2"
    hits, keyworded = _scan(in_english(text, tab), tab, shown=text)
    harmless = [hit for hit in hits if hit.sig.red_herring]
    facts = _facts(_without_harmless_shapes(hits, harmless))
    if os_kind == "macos":
        facts.setdefault("macos", _known_hit("macos"))
    _add_known(facts, given, machine)
    _add_tf_cuda_fact(facts, os_kind)

    raw = [_candidate(h, tab, facts, os_kind, harmless) for h in hits if h.sig.code]
    line_candidates = [c for c in raw if c is not None]
    _add_tf_library_fact(facts, line_candidates, os_kind)
    _add_listed_library_facts(facts, hits, line_candidates)
    _add_wheel_python_fact(facts, line_candidates)
    _add_tf_python_fact(facts, line_candidates, os_kind)
    _add_toolkit_library_fact(facts, line_candidates)
    _add_memory_elsewhere_fact(facts)
    _add_dnn_memory_free_fact(facts)
    codes = {c.code for c in line_candidates}
    kept = [c for c in line_candidates if _allowed(c.sig, facts, codes, os_kind, False)]
    any_finding = bool(kept)
    kept_codes = {c.code for c in kept}
    for sig in tab.signatures:
        if not sig.derived or not sig.code:
            continue
        if not _allowed(sig, facts, kept_codes, os_kind, any_finding):
            continue
        evidence = _derived_evidence(sig, facts)
        hit = _Hit(sig, evidence.line_no, evidence.line, {}) if evidence else None
        if hit is None:
            continue
        candidate = _candidate(hit, tab, facts, os_kind, harmless)
        if candidate:
            kept.append(candidate)

    if not kept:
        if harmless:
            return [_harmless_finding(harmless)]
        if "checked" in machine or len(line_candidates) < len(raw) or not keyworded:
            # check's probe log is the layers' to answer; a line read and set aside (a library
            # that is no GPU library, another OS's message) is not to be outvoted by words; a
            # few plain words are like no report, whatever one shares
            return []
        if "gpu_listed" in facts and not _reports_trouble(text):
            # a run that lists its GPU and reports no trouble is like the reports only in
            # their training lines
            return []
        found = _similar_finding(text, similar or similar_index(), tab, os_kind)
        return [found] if found is not None else []
    context = _context_params(facts, tab)
    answered = (*machine, *shown_answers(facts))
    ranked = apply_answers(_rank(kept, facts, os_kind), answered, lambda c: c.code, os_kind)
    findings = [_finding(c, context, tab, os_kind) for c in ranked]
    if len(answered) > len(machine):
        # what the log itself answers is never asked (question_for reads it back)
        findings = [replace(f, params={**f.params, "answered": answered[len(machine):]})
                    for f in findings]
    scores = [_score(c, facts, os_kind) for c in ranked]
    decisive = log_decided and is_decisive(scores)
    if len(findings) > 1 or not decisive:
        findings = [_with_how_to_tell(f, facts, os_kind, decisive) for f in findings]
    if not decisive and "checked" not in machine:
        findings = _with_similar_links(findings, text, similar or similar_index())
    return findings


def _without_harmless_shapes(hits: list[_Hit], harmless: list[_Hit]) -> list[_Hit]:
    """The hits less the shape facts (signatures of kind ``shape``: a family word beside an
    error word, which only the last-resort candidates read) seen on a harmless line, so that a
    TensorRT or NUMA line never yields a candidate while a later line of the same shape (a
    ptxas error after its harmless notes) still does."""
    lines = {hit.line_no for hit in harmless}
    return [hit for hit in hits if not (hit.sig.kind == "shape" and hit.line_no in lines)]


MACHINE_FACTS = ("checked", "nvidia_gpu", "no_nvidia_gpu", "driver_loaded", "driver_too_old",
                 "driver_library_mismatch", "driver_in_nix_folder")
"""What ``check`` may tell :func:`explain_log` of the machine (``machine:<name>`` facts).
``checked``: the machine itself was checked (``check``, the GUI), so candidates guessed from a
log's silence are left to the layers, which read the versions themselves. ``driver_too_old``,
``driver_library_mismatch``: the driver layer found the driver older than the target's CUDA
needs, or its library and kernel module of different versions, which explains what CUDA then
answers (error 803) better than a guess from the log. ``driver_in_nix_folder``: the driver's
libraries are where NixOS keeps them (/run/opengl-driver/lib), which counts as a log under Nix."""
DECISIVE_SCORE = 75
DECISIVE_GAP = 20
"""A ranking is decisive when its first finding scores at least ``DECISIVE_SCORE`` and leads the
second by at least ``DECISIVE_GAP``: one line names the cause."""
_TF_FACTS = ("tf_pre_2_11", "tf_2_11_plus")


def is_decisive(scores: list[int]) -> bool:
    """True when the best score names the cause on its own (see :data:`DECISIVE_SCORE`)."""
    if not scores:
        return False
    gap = scores[0] - scores[1] if len(scores) > 1 else scores[0]
    return scores[0] >= DECISIVE_SCORE and gap >= DECISIVE_GAP


def _known_hit(name: str, groups: Optional[dict[str, str]] = None) -> _Hit:
    """A fact that comes from the user or the machine, not from a log line."""
    sig = _signature({"id": f"known:{name}", "fact": name, "source": "given"})
    return _Hit(sig, 0, "", dict(groups or {}))


def _add_known(facts: dict[str, _Hit], given: Given, machine: Iterable[str]) -> None:
    """The TensorFlow, Python and CUDA versions given (they replace the version facts a log
    line gave) and the machine's facts, as facts signatures can require."""
    tf_version = given.tf
    python = python_series(given.python)
    cuda = cuda_series(given.cuda)
    if cuda:
        facts.pop("cuda_path_version", None)
        facts["cuda_toolkit_release"] = _known_hit("cuda_toolkit_release", {"version": cuda})
    if python:
        facts["python_shown"] = _known_hit("python_shown", {"py": python})
    if tf_version:
        parsed = try_parse_version(tf_version)
        if parsed:
            name = "tf_pre_2_11" if parsed[:2] < (2, 11) else "tf_2_11_plus"
            for old in _TF_FACTS:
                facts.pop(old, None)
            facts[name] = _known_hit(name, {"tf_version": str(tf_version).strip()})
            facts["tf_given"] = _known_hit("tf_given", {"tf_version": str(tf_version).strip()})
    known = (*MACHINE_FACTS, *answer_facts())
    for name in machine:
        if name not in known:
            raise ValueError(f"unknown machine fact {name!r} (known: {', '.join(known)})")
        facts[f"machine:{name}"] = _known_hit(f"machine:{name}")
        if name in SAID_LIKE_THE_LOG:
            facts.setdefault(SAID_LIKE_THE_LOG[name], _known_hit(SAID_LIKE_THE_LOG[name]))


SAID_LIKE_THE_LOG = {"in_container": "in_container", "no_cuda_toolkit": "cuda_folder_absent",
                     "python_32bit": "python_32bit_shown",
                     "driver_in_nix_folder": "nix_environment"}
"""Facts the user's answer (or the checked machine) gives, and the log fact each counts as:
"it ran inside a container" brings in the candidates a container line would (a driver that
looks absent there is the container's); "no CUDA Toolkit" those of a log that shows no CUDA
folder (a CUDA library that cannot be opened because there is no CUDA); "a 32-bit Python" those
of a log that shows one (pip finding no TensorFlow or PyTorch for it: they ship 64-bit
wheels only)."""


def _add_tf_cuda_fact(facts: dict[str, _Hit], os_kind: Optional[str]) -> None:
    """``tf_cuda_mismatch``: the TensorFlow version (given or shown) needs another CUDA than the
    toolkit the log shows (nvcc's release, a ``CUDA\\v10.2`` or ``/usr/local/cuda-10.2`` path),
    by the compatibility tables; its groups are the message's params."""
    toolkit = facts.get("cuda_toolkit_release") or facts.get("cuda_path_version")
    found = toolkit.groups.get("version") if toolkit else None
    needed = _tf_cuda_needed(facts, os_kind) if found else None
    if toolkit and found and needed and _cuda_fits(needed[1], found) is False:  # 8 is 8.0
        facts["tf_cuda_mismatch"] = _Hit(toolkit.sig, toolkit.line_no, toolkit.line, {
            "tensorflow": needed[0], "cuda": needed[1], "found": found})


def _tf_cuda_needed(facts: dict[str, _Hit], os_kind: Optional[str]) -> Optional[tuple[str, str]]:
    """``(tf, cuda)``: the TensorFlow version given or shown and the CUDA its release was built
    for, by the compatibility tables; None when either is unknown or CUDA comes from pip
    wheels (then no toolkit version is wrong)."""
    tf = _tf_shown(facts)
    parsed = try_parse_version(tf) if tf else None
    if not tf or not parsed or len(parsed) < 2:
        return None
    from wizard.core.knowledge import compat

    if os_kind == "macos":  # no CUDA build of TensorFlow exists for macOS
        return None
    needed = compat.tf_requirement(f"{parsed[0]}.{parsed[1]}", os_kind or "linux")
    if needed is None or not needed.cuda or needed.pip_cuda:
        return None
    return tf, needed.cuda


def python_series(version: Optional[str]) -> Optional[str]:
    """``3.8`` of a Python version given as ``3.8``, ``3.8.10`` or ``Python 3.8.10`` (``explain
    --python``, the explain dialog, a probe's ``python.version``); None for anything else."""
    found = re.match(r"^\s*(?:python\s*)?([23]\.\d+)(?:\.\d+\S*)?\s*$", version or "",
                     re.IGNORECASE)
    return found.group(1) if found else None


def cuda_series(version: Optional[str]) -> Optional[str]:
    """``11.8`` of a CUDA Toolkit version given as ``11.8``, ``11.8.0`` or ``CUDA 11.8``
    (``explain --cuda``); None for anything else (``11``, ``11.x``)."""
    found = re.match(r"^\s*(?:cuda\s*)?(\d{1,2}\.\d)(?:\.\d+)*\s*$", version or "",
                     re.IGNORECASE)
    return found.group(1) if found else None


def version_refusal(option: str, given: Optional[str]) -> Optional[Message]:
    """Why the version given for ``explain --python`` or ``--cuda`` (the dialog's fields
    likewise) is refused, naming it; None when empty or a version of that form."""
    series = {"python": python_series, "cuda": cuda_series}[option]
    text = (given or "").strip()
    if not text or series(text):
        return None
    return msg(f"explain.{option}.not_a_version", given=text)


def _add_toolkit_library_fact(facts: dict[str, _Hit], candidates: list[_Candidate]) -> None:
    """A CUDA library not found against the CUDA Toolkit given or shown (nvcc's release, its
    folder): built for that toolkit's CUDA is ``toolkit_fits_library`` (no other CUDA: the
    loader does not find the right one), for another CUDA ``toolkit_differs_library``; the
    answers they give are questions.json's ``shown_by``."""
    toolkit = facts.get("cuda_toolkit_release") or facts.get("cuda_path_version")
    have = toolkit.groups.get("version") if toolkit else None
    for c in candidates:
        wanted = c.params.get("cuda") if c.code in _CUDA_LIBRARY_CODES else None
        fits = _cuda_fits(str(wanted), have) if wanted and have else None
        if fits is not None:
            name = "toolkit_fits_library" if fits else "toolkit_differs_library"
            facts[name] = _Hit(toolkit.sig, c.line_no, c.evidence, {
                "version": have, "wanted": str(wanted), "file": str(c.params.get("file", ""))})
            return


_PYTHON_CODES = ("python_version_unsupported", "python_32bit")


def _add_tf_python_fact(facts: dict[str, _Hit], candidates: list[_Candidate],
                        os_kind: Optional[str]) -> None:
    """pip (or conda) finding no build, against the Python version given or shown and the
    Python range of the TensorFlow release given or shown (compatibility tables): a Python
    inside the range is ``tf_python_fits`` (the version is not what keeps pip from a build),
    one outside ``tf_python_outside``; the fact's line is the pip line."""
    shown = facts.get("python_shown")
    python = shown.groups.get("py") if shown else None
    tf = _tf_shown(facts)
    parsed = try_parse_version(tf) if tf else None
    line = next((c for c in candidates if c.code in _PYTHON_CODES), None)
    if line is None or not python or not parsed or len(parsed) < 2:
        return
    from wizard.core.knowledge import compat
    from wizard.core.knowledge.versions import python_supported

    tables = "windows" if os_kind == "windows" else "linux"
    requirement = compat.tf_requirement(f"{parsed[0]}.{parsed[1]}", tables)
    if requirement is None or not requirement.python:
        return
    if python_supported(python, requirement.python):
        facts["tf_python_fits"] = _Hit(line.sig, line.line_no, line.evidence, {
            "tensorflow": tf, "version": python, "python_range": requirement.python})
    else:  # the params of finding.python_version_unsupported.message and .fix
        facts["tf_python_outside"] = _Hit(line.sig, line.line_no, line.evidence, {
            "tensorflow": tf, "found": python, "python": requirement.python})


_CUDA_LIBRARY_CODES = ("cudart_missing", "cuda_lib_other_missing")


def _add_tf_library_fact(facts: dict[str, _Hit], candidates: list[_Candidate],
                         os_kind: Optional[str]) -> None:
    """``tf_library_cuda_mismatch``: a CUDA library not found belongs to another CUDA (its
    name's version, ``cudart64_101.dll`` -> 10.1) than the one the TensorFlow version given or
    shown was released for: the TensorFlow build and the CUDA installed do not match."""
    needed = None if "tf_library_cuda_mismatch" in facts else _tf_cuda_needed(facts, os_kind)
    if needed is None:
        return
    tf, cuda = needed
    for c in candidates:
        wanted = c.params.get("cuda") if c.code in _CUDA_LIBRARY_CODES else None
        if wanted and _cuda_fits(str(wanted), cuda) is False:
            sig = _signature({"id": "known:tf_library_cuda_mismatch",
                              "fact": "tf_library_cuda_mismatch", "source": "derived"})
            facts["tf_library_cuda_mismatch"] = _Hit(sig, c.line_no, c.evidence, {
                "tensorflow": tf, "cuda": cuda, "wanted": str(wanted),
                "file": str(c.params.get("file", ""))})
            return


_LIBRARY_STEM = re.compile(r"^(?:lib)?([a-z]+?)(?:64_\d+\.dll|\.so(?:\.\d+)*)$", re.IGNORECASE)


def _add_listed_library_facts(facts: dict[str, _Hit], hits: list[_Hit],
                              candidates: list[_Candidate]) -> None:
    """Compare a CUDA library not found with the ones the log lists on disk (``find``,
    ``ldconfig -p``, a full path on a line of its own): the very file listed is
    ``missing_library_listed`` (installed, not on the loader path); only other versions of it
    listed is ``other_library_version_listed`` (another CUDA installed)."""
    listed = {_basename(h.groups.get("file", "")).lower() for h in hits
              if h.sig.fact == "cuda_library_listed" and h.groups.get("file")}
    if not listed:
        return
    for c in candidates:
        wanted = str(c.params.get("file", "")).lower()
        stem = _LIBRARY_STEM.match(wanted) if c.code in _CUDA_LIBRARY_CODES else None
        if stem is None:
            continue
        groups = {"file": str(c.params["file"])}
        if any(name == wanted or name.startswith(wanted + ".") for name in listed):
            facts.setdefault("missing_library_listed", _Hit(c.sig, c.line_no, c.evidence, groups))
            return
        others = sorted(name for name in listed if (m := _LIBRARY_STEM.match(name))
                        and m.group(1) == stem.group(1))
        if others:
            groups["found"] = others[0]
            facts.setdefault("other_library_version_listed",
                             _Hit(c.sig, c.line_no, c.evidence, groups))
            return


def _add_wheel_python_fact(facts: dict[str, _Hit], candidates: list[_Candidate]) -> None:
    """A wheel pip calls 'not a supported wheel on this platform' against the Python version
    the log shows: another version is ``wheel_python_differs``; the same version (so the
    platform or word size is what differs) is ``wheel_python_same``."""
    shown = facts.get("python_shown")
    py = shown.groups.get("py", "") if shown else ""
    if not py:
        return
    for c in candidates:
        wheel = re.search(r"-cp(\d)(\d+)-", str(c.params.get("file", "")))
        if c.sig.id != "wheel_not_supported" or wheel is None:
            continue
        name = "wheel_python_same" if py == f"{wheel.group(1)}.{wheel.group(2)}" else (
            "wheel_python_differs")
        facts.setdefault(name, _Hit(c.sig, c.line_no, c.evidence, {
            "file": str(c.params["file"]), "python": py}))
        return


_GIB_PER_UNIT = {"bytes": 1 / 2**30, "b": 1 / 2**30, "kib": 1 / 2**20, "kb": 1 / 2**20,
                 "mib": 1 / 2**10, "mb": 1 / 2**10, "gib": 1.0, "gb": 1.0, "tib": 1024.0}
ELSEWHERE_SHARE = 0.5
"""Above this share of the GPU's memory held outside the process that ran out, the memory is
taken by others (another program, a leftover process), not by the workload."""


def _gib(groups: dict[str, str], name: str) -> Optional[float]:
    """A memory figure of an out-of-memory report (``7.92`` ``GiB``, ``0`` ``bytes``) in GiB."""
    unit = _GIB_PER_UNIT.get(str(groups.get(f"{name}_unit", "")).lower())
    try:
        return float(groups[name]) * unit if unit is not None else None
    except (KeyError, ValueError):
        return None


def _add_memory_elsewhere_fact(facts: dict[str, _Hit]) -> None:
    """``oom_memory_held_elsewhere``: the figures of an out-of-memory report (PyTorch's total
    capacity, free memory and what its own process holds: reserved, allocated + cached, or
    "this process has ... in use") show that most of the GPU's memory is held outside the
    process, so a smaller batch would not help: another program or a leftover process holds it.
    Its groups are the message's params (``total``, ``others``)."""
    hit = facts.get("oom_figures")
    if hit is None:
        return
    groups = hit.groups
    total, free, allocated = (_gib(groups, name) for name in ("total", "free", "allocated"))
    own = next((value for value in (_gib(groups, "reserved"), _gib(groups, "process"))
                if value is not None), None)
    if own is None and allocated is not None:
        own = allocated + (_gib(groups, "cached") or 0.0)
    if not total or free is None or own is None:
        return
    others = total - free - own
    if others / total > ELSEWHERE_SHARE:
        facts["oom_memory_held_elsewhere"] = _Hit(hit.sig, hit.line_no, hit.line, {
            "total": f"{total:.2f} GiB", "others": f"{others:.2f} GiB"})


DNN_FREE_ENOUGH_GIB = 1.0
"""At least this much GPU memory free beside a cuDNN handle that could not be created: memory
is not what failed (a handle needs far less; JAX's own up-front reservation leaves a quarter of
the GPU free, so a share would mislead)."""


def _add_dnn_memory_free_fact(facts: dict[str, _Hit]) -> None:
    """``dnn_memory_was_free``: the memory figures XLA logs after "Could not create cudnn
    handle" (bytes free, bytes total) show at least :data:`DNN_FREE_ENOUGH_GIB` free. Its
    groups are the message's params (``free``, ``total``, in GiB)."""
    hit = facts.get("dnn_memory_usage")
    if hit is None:
        return
    try:
        free, total = (int(hit.groups[name]) / 2**30 for name in ("free", "total"))
    except (KeyError, ValueError):
        return
    if free >= DNN_FREE_ENOUGH_GIB:
        facts["dnn_memory_was_free"] = _Hit(hit.sig, hit.line_no, hit.line, {
            "free": f"{free:.2f} GiB", "total": f"{total:.2f} GiB"})


def _cuda_fits(spec: str, cuda: str) -> Optional[bool]:
    """Whether CUDA ``cuda`` (``10.1``, ``10``) lies in a library's CUDA ``spec`` (``10.1``,
    ``11.x``, ``10.1-11.0``, ``11.1+``); None when either cannot be read."""
    def pair(text: str) -> Optional[tuple[int, int]]:
        found = re.match(r"^(\d+)(?:\.(\d+))?", text.strip())
        return (int(found.group(1)), int(found.group(2) or 0)) if found else None

    have = pair(cuda)
    if have is None:
        return None
    if spec.endswith(".x"):
        major = pair(spec[:-2])
        return None if major is None else major[0] == have[0]
    if spec.endswith("+"):
        low = pair(spec[:-1])
        return None if low is None else have >= low
    if "-" in spec:
        low, _, high = spec.partition("-")
        bounds = pair(low), pair(high.replace(".x", ".99"))
        if None in bounds:
            return None
        return bounds[0] <= have <= bounds[1]
    exact = pair(spec)
    return None if exact is None else exact == have


def _tf_shown(facts: dict[str, _Hit]) -> Optional[str]:
    """The TensorFlow version given or shown in the log."""
    for name in ("tf_given", *_TF_FACTS):
        hit = facts.get(name)
        if hit and hit.groups.get("tf_version"):
            return hit.groups["tf_version"]
    return None


TELL_PARAMS = ("file", "cuda", "cudnn", "program", "pytorch_library", "extension", "operation",
               "compiler", "driver_folder")
"""The finding's params a how-to-tell message (``explain.tell.<code>``) may use, beside what
the log shows (``tf``, ``windows_path``, ``wsl_path``, ``os``) and the table's ``how_to_tell``
values; a variant that names one of them is chosen only when the finding has it."""


def _with_how_to_tell(finding: Finding, facts: dict[str, _Hit], os_kind: Optional[str],
                      decisive: bool) -> Finding:
    """``finding`` with ``params["how_to_tell"]``: the step that tells this cause from the
    others (``explain.tell.<code>``, whose variants use what the log shows); and, when no line
    was decisive, ``params["decisive"] = False``."""
    code = finding.code if messages.has(f"explain.tell.{finding.code}") else "other"
    message_id = f"explain.tell.{code}"
    values: dict[str, Any] = {k: finding.params[k] for k in TELL_PARAMS
                              if finding.params.get(k)}
    if finding.params.get("files"):
        values["file"] = finding.params["files"][0]
    tf = _tf_shown(facts)
    if tf:
        values["tf"] = tf
    for name in ("windows_path", "wsl_path"):
        hit = facts.get(name)
        if hit and hit.groups.get("path"):
            values[name] = hit.groups["path"]
    if os_kind:
        values["os"] = _OS_NAMES.get(os_kind, os_kind)
    for key, template in table().tell_values.get(code, {}).items():
        filled = _fill(template, values)
        if filled is not None:
            values.setdefault(key, filled)
    params = {**finding.params, "how_to_tell": Message(message_id, values)}
    if not decisive:
        params["decisive"] = False
    return replace(finding, params=params)


def decisive(findings: list[Finding]) -> bool:
    """False when :func:`explain_log` found no decisive line (its findings are candidates)."""
    return bool(findings) and all(f.params.get("decisive", True) for f in findings)


def question_for(findings: list[Finding], known: Iterable[str] = ()) -> Optional[Question]:
    """The one question whose answer would settle ``findings`` (None: none would, or ``known``
    facts already answer it; :func:`wizard.core.deciding_question.deciding_question`)."""
    shown = [fact for f in findings[:1] for fact in f.params.get("answered", ())]
    return deciding_question([f.code for f in findings], decisive(findings), [*known, *shown])


def _derived_evidence(sig: Signature, facts: dict[str, _Hit]) -> Optional[_Hit]:
    """The first log line among the facts a derived signature requires (a fact the user or the
    machine gave has no line: it is evidence only when nothing else is)."""
    names = [n for n in (*sig.requires, *sig.requires_any) if n in facts]
    lines = [facts[n] for n in names if facts[n].line_no]
    if lines:
        return lines[0]
    return facts[names[0]] if names else None


def _score(c: _Candidate, facts: dict[str, _Hit], os_kind: Optional[str]) -> int:
    score = c.weight
    if any(name in facts for name in c.demote_if):
        score -= DEMOTION
    return score


def _rank(candidates: list[_Candidate], facts: dict[str, _Hit],
          os_kind: Optional[str]) -> list[_Candidate]:
    """One candidate per code (the strongest line), most likely first."""
    best: dict[str, tuple[int, _Candidate]] = {}
    files: dict[str, list[str]] = {}
    for c in candidates:
        score = _score(c, facts, os_kind)
        for name in c.files:
            if name not in files.setdefault(c.code, []):
                files[c.code].append(name)
        current = best.get(c.code)
        if current is None or score > current[0] or (
            score == current[0] and c.line_no < current[1].line_no
        ):
            best[c.code] = (score, c)
    lines: dict[str, list[str]] = {}
    for c in sorted(candidates, key=lambda c: c.line_no):
        if c.files and c.evidence not in lines.setdefault(c.code, []):
            lines[c.code].append(c.evidence)
    for code, names in files.items():
        if len(names) > 1:
            # one finding names every library of its kind, with every line as evidence
            chosen = best[code][1]
            chosen.params["files"] = names
            chosen.params["file"] = ", ".join(names)
            chosen.evidence = "\n".join(lines[code])
    ordered = sorted(
        best.values(),
        key=lambda item: (-item[0], _LAYER_ORDER.get(layer_of(item[1].code), 99), item[1].line_no),
    )
    return [c for _, c in ordered]


def _finding(c: _Candidate, context: dict[str, str], tab: Table,
             os_kind: Optional[str]) -> Finding:
    params = dict(c.params)
    linux_cudnn = c.code == "cudnn_missing" and os_kind in ("linux", "wsl2")
    for key in CONTEXT_PARAMS.get(c.code, ()):
        if key in context and not (linux_cudnn and key == "cuda"):
            params.setdefault(key, context[key])
    if linux_cudnn:
        # the fix for a tar archive (include and lib, no bin) into the Linux toolkit folder,
        # not the Windows zip's "bin, include and lib into the CUDA folder"
        params.pop("cuda", None)
        params.setdefault("cuda_folder", LINUX_CUDA_FOLDER)
    if c.code == "zlibwapi_missing" and "cudnn" in context:
        params.setdefault("found", context["cudnn"])
    params["source"] = "log"
    params["signature"] = c.sig.id
    # commands such as `where {file}` take one file name: the first of several
    fix_params = {**params, "file": params["files"][0]} if params.get("files") else params
    return Finding(
        code=c.code,
        severity=c.severity,
        params=params,
        evidence=c.evidence or None,
        fix=_fix(c.fix, tab.code_fixes.get(c.code, {}), fix_params, os_kind),
    )


SIMILAR_LINKS = 3
"""How many of the similar reports a finding links to."""
TROUBLE_WORDS = ("error", "fail", "exception", "cannot", "can't", "could not", "couldn't",
                 "unable", "not found", "no such", "not available", "insufficient", "invalid",
                 "abort", "denied", "warn", "not supported", "unsupported", "not compiled",
                 "not detected", "not installed", "not working", "segmentation fault",
                 "traceback", "fatal")
"""Words (lower case) of a log that reports trouble: a log that lists its GPU and has none of
them is asked for no similar reports."""


def _reports_trouble(text: str) -> bool:
    low = text.lower()
    return any(word in low for word in TROUBLE_WORDS)


def _similar_finding(text: str, similar: SimilarIndex, tab: Table,
                     os_kind: Optional[str]) -> Optional[Finding]:
    """The cause the reports most like ``text`` had, as a candidate (never decisive) whose
    note and links name those reports; None when no report is like it."""
    params: dict[str, Any] = {"source": "similar_reports", "decisive": False}
    for code, reports in likeliest(similar.nearest(text)):
        # a code whose words need values only a log line gives (a device, a package) is left
        # to the next one the reports name; "only harmless messages" is said of a log's own
        # lines, never because another log's were
        if code != HARMLESS_CODE and all(messages.complete(m.id, m.params)
               for m in (code_message(code, params), code_fix_summary(code, params))):
            return _similar_candidate(code, reports, params, tab, os_kind)
    return None


def _similar_candidate(code: str, reports: list[Report], params: dict[str, Any], tab: Table,
                       os_kind: Optional[str]) -> Finding:
    params = {**params, "similar_reports": [r.source for r in reports],
              "similarity": f"{reports[0].similarity:.2f}"}
    fix = _fix({}, tab.code_fixes.get(code, {}), params, os_kind)
    links = tuple(Link(msg("explain.link.similar_report", source=r.source), r.url)
                  for r in reports[:SIMILAR_LINKS])
    finding = Finding(code=code, severity="warn", params=params, evidence=None,
                      fix=replace(fix, links=links + fix.links))
    return _with_how_to_tell(finding, {}, os_kind, False)


def _with_similar_links(findings: list[Finding], text: str,
                        similar: SimilarIndex) -> list[Finding]:
    """Candidates with links to the reports like ``text`` (as similar as
    :data:`~wizard.core.similar_reports.MIN_NEAREST` at least) whose cause is theirs: threads
    where that cause was confirmed and fixed, for the user to compare."""
    near = [r for r in similar.nearest(text) if r.similarity >= MIN_NEAREST]
    linked = []
    for finding in findings:
        shown = [r for r in near if r.code == finding.code][:SIMILAR_LINKS]
        links = tuple(Link(msg("explain.link.similar_report", source=r.source), r.url)
                      for r in shown)
        linked.append(replace(finding, fix=replace(finding.fix, links=finding.fix.links + links))
                      if links else finding)
    return linked


def _harmless_finding(harmless: list[_Hit]) -> Finding:
    kinds: list[str] = []
    harmless = list({hit.line_no: hit for hit in harmless}.values())
    for hit in harmless:
        kind = hit.sig.kind or "TensorRT"
        if kind not in kinds:
            kinds.append(kind)
    return Finding(
        code=HARMLESS_CODE,
        severity="info",
        params={"kinds": kinds, "lines": len(harmless), "source": "log"},
        evidence=harmless[0].line,
    )


# ---------------------------------------------------------------------------------------------
# Fixes


def _os_fits(item: dict[str, Any], os_kind: Optional[str]) -> bool:
    wanted = item.get("os")
    return not wanted or os_kind in wanted


# When a log does not show its OS, the steps of each OS come in a section of their own under
# one of these headings, never mixed in one list (a PATH of C:\Program Files beside
# LD_LIBRARY_PATH).
_OS_SECTIONS: tuple[tuple[tuple[str, ...], Step], ...] = (
    (("windows",), Step("explain.on_windows")),
    (("linux", "wsl2"), Step("explain.on_linux_or_wsl2")),
    (("linux",), Step("explain.on_linux_only")),
    (("wsl2",), Step("explain.in_wsl2")),
)
_OTHER_SECTION = "explain.on_systems"
"""The heading of a section for another set of systems: ``On {systems}:``."""


def _step_of(item: dict[str, Any], params: dict[str, Any]) -> Optional[Step]:
    values = {}
    for key, template in item.get("params", {}).items():
        filled = _value(template, params)
        if filled is None:
            return None
        values[key] = filled
    return Step(item["key"], values)


def _fix(own: dict[str, Any], generic: dict[str, Any], params: dict[str, Any],
         os_kind: Optional[str]) -> Fix:
    """The signature's own fix, then the code's generic one; items whose values are unknown
    (a placeholder without a param) or that are for another OS are left out. With no OS known,
    the items for each OS follow the common ones, each OS under its own heading (its commands
    as steps there)."""
    steps: list[Step] = []
    commands: list[str] = []
    links: list[Link] = []
    sections: dict[tuple[str, ...], list[Step]] = {}
    for spec in (own, generic):
        for item in spec.get("steps", []):
            step = _step_of(item, params)
            if step is None:
                continue
            if _os_fits(item, os_kind):
                if step not in steps:
                    steps.append(step)
            elif os_kind is None:
                section = sections.setdefault(tuple(item["os"]), [])
                if step not in section:
                    section.append(step)
        for item in spec.get("commands", []):
            item = {"text": item} if isinstance(item, str) else item
            filled = _fill(item["text"], params)
            if not filled:
                continue
            if _os_fits(item, os_kind):
                if filled not in commands:
                    commands.append(filled)
            elif os_kind is None:
                section = sections.setdefault(tuple(item["os"]), [])
                step = Step("run", {"command": filled})
                if step not in section:
                    section.append(step)
        for item in spec.get("links", []):
            link = Link(msg(item["title"]), item["url"])
            if link not in links:
                links.append(link)
    headings = dict(_OS_SECTIONS)
    for kinds, section in sorted(sections.items(), key=lambda kv: _section_order(kv[0])):
        heading = headings.get(kinds) or Step(_OTHER_SECTION, {"systems": _either(kinds)})
        steps.append(heading)
        steps.extend(section)
    spec = own if own.get("action") else generic
    action, action_params = _action_of(spec, params)
    return Fix(steps=tuple(steps), links=tuple(links), commands=tuple(commands), action=action,
               action_params=action_params)


def _action_of(spec: dict[str, Any], params: dict[str, Any]) -> tuple[Optional[str],
                                                                       dict[str, Any]]:
    """The fix action a table entry names, with its params filled from the finding's (a
    ``set_env`` of the folder the log names); no action when one of them has no value."""
    filled = {name: _value(value, params) for name, value in spec.get("action_params", {}).items()}
    if not spec.get("action") or None in filled.values():
        return None, {}
    return spec["action"], filled


_OS_NAMES = {"windows": "Windows", "linux": "Linux", "wsl2": "WSL2", "macos": "macOS"}


def _either(kinds: tuple[str, ...]) -> Any:
    """``Windows or WSL2`` (or a longer chain) as a message over the systems' names."""
    names: list[Any] = [_OS_NAMES.get(k, k) for k in kinds]
    phrase = names[0]
    for name in names[1:]:
        phrase = msg("explain.phrase.either", first=phrase, second=name)
    return phrase


def _section_order(kinds: tuple[str, ...]) -> int:
    order = [k for k, _ in _OS_SECTIONS]
    return order.index(kinds) if kinds in order else len(order)


# ---------------------------------------------------------------------------------------------
# Reading a log file: any encoding a Windows or Linux shell writes, bounded in time and memory

LOG_HEAD_BYTES = 2 * 1024 * 1024
LOG_TAIL_BYTES = 14 * 1024 * 1024
"""A log longer than both together is read as its head and its tail: TensorFlow prints the
decisive lines (the library that did not load, the GPU list, the traceback) near the end, and
the versions it found near the start; the middle of a long log is progress output."""
_SAMPLE = 64 * 1024
_CONTROL = frozenset(range(32)) - {9, 10, 12, 13, 27, 8} | {127}
"""Bytes that text never holds in numbers (tab, newlines, form feed, escape, backspace do)."""


class NotTextLog(ValueError):
    """The input is not a text log (an executable, an archive, an image...)."""


@dataclass
class LogBytes:
    """What was read of a log: all of it (``tail`` empty), or its head and its tail."""

    head: bytes
    tail: bytes = b""
    skipped: int = 0
    """Bytes between head and tail that were not read."""


def read_log_stream(stream: Any, head_bytes: int = LOG_HEAD_BYTES,
                    tail_bytes: int = LOG_TAIL_BYTES, chunk: int = 1024 * 1024) -> LogBytes:
    """Read a binary stream (stdin) keeping at most ``head_bytes + tail_bytes`` of it."""
    head = bytearray()
    tail = bytearray()
    total = 0
    while True:
        block = stream.read(chunk)
        if not block:
            break
        if isinstance(block, str):  # a text stream without a binary buffer (tests, IDEs)
            block = block.encode("utf-8")
        total += len(block)
        room = head_bytes - len(head)
        if room > 0:
            head += block[:room]
            block = block[room:]
        if block:
            tail += block
            if len(tail) > tail_bytes:
                del tail[: len(tail) - tail_bytes]
    skipped = total - len(head) - len(tail)
    if skipped and (len(head) + skipped) % 2:  # keep UTF-16 code units whole
        del tail[:1]
        skipped += 1
    return LogBytes(bytes(head), bytes(tail), skipped)


def read_log_path(path: str, head_bytes: int = LOG_HEAD_BYTES,
                  tail_bytes: int = LOG_TAIL_BYTES) -> LogBytes:
    """Read a log file keeping at most ``head_bytes + tail_bytes`` of it (seeking, so a huge
    file costs no more than that). Raises OSError."""
    with open(path, "rb") as handle:
        handle.seek(0, 2)
        size = handle.tell()
        handle.seek(0)
        if size <= head_bytes + tail_bytes:
            return LogBytes(handle.read())
        head = handle.read(head_bytes)
        start = size - tail_bytes
        start += start % 2  # an even offset keeps UTF-16 code units whole
        handle.seek(start)
        return LogBytes(head, handle.read(), start - head_bytes)


def _bom_encoding(data: bytes) -> tuple[Optional[str], int]:
    if data.startswith(b"\xef\xbb\xbf"):
        return "utf-8", 3
    if data.startswith(b"\xff\xfe"):
        return "utf-16-le", 2
    if data.startswith(b"\xfe\xff"):
        return "utf-16-be", 2
    return None, 0


def _utf16_without_bom(sample: bytes) -> Optional[str]:
    """UTF-16 text of mostly ASCII characters has a NUL in every other byte."""
    pairs = len(sample) // 2
    if pairs < 2:
        return None
    even = sample[0 : pairs * 2 : 2].count(0)
    odd = sample[1 : pairs * 2 : 2].count(0)
    if odd > 0.4 * pairs and even < 0.05 * pairs:
        return "utf-16-le"
    if even > 0.4 * pairs and odd < 0.05 * pairs:
        return "utf-16-be"
    return None


def _looks_binary(sample: bytes) -> bool:
    if not sample:
        return False
    controls = sum(sample.count(bytes((c,))) for c in _CONTROL)
    if sample.count(0) and controls > 0.02 * len(sample):
        return True
    return controls > 0.1 * len(sample)


def _newline(encoding: str) -> bytes:
    return "\n".encode(encoding)


def _whole_lines(data: bytes, encoding: str, cut_start: bool, cut_end: bool) -> bytes:
    """``data`` without the partial line a cut left at its start or its end."""
    newline = _newline(encoding)
    step = len(newline)
    if cut_start:
        index = data.find(newline)
        while index != -1 and index % step:
            index = data.find(newline, index + 1)
        data = data[index + step :] if index != -1 else b""
    if cut_end:
        index = data.rfind(newline)
        while index != -1 and index % step:
            index = data.rfind(newline, 0, index)
        data = data[: index + step] if index != -1 else data
    return data


def decode_log(raw: LogBytes) -> str:
    """The text of a log: by its BOM (UTF-8, UTF-16 LE/BE: what PowerShell 5.1's ``>``
    writes), else UTF-16 recognised by its NUL bytes, else UTF-8, else GBK (a Chinese Windows
    console's code page 936), else UTF-8 with replacement characters. Raises :class:`NotTextLog`
    for binary data."""
    encoding, skip = _bom_encoding(raw.head)
    head = raw.head[skip:]
    if encoding is None:
        sample = head[:_SAMPLE] + raw.tail[-_SAMPLE:]
        encoding = _utf16_without_bom(head[:_SAMPLE])
        if encoding is None and _looks_binary(sample):
            raise NotTextLog("not a text log (binary data)")
    if encoding and encoding.startswith("utf-16") and len(head) % 2:
        head = head[:-1]
    cut = bool(raw.tail)
    parts = [head]
    if cut:
        probe = encoding or "utf-8"
        parts = [_whole_lines(head, probe, False, True), _whole_lines(raw.tail, probe, True, False)]
    candidates = [encoding] if encoding else ["utf-8", "gbk"]
    for candidate in candidates:
        try:
            texts = [part.decode(candidate) for part in parts]
            break
        except UnicodeDecodeError:
            continue
    else:
        texts = [part.decode(candidates[0], errors="replace") for part in parts]
    if not cut:
        return texts[0]
    megabytes = raw.skipped / (1024 * 1024)
    marker = f"[gpu-wizard: {megabytes:.1f} MB in the middle of this log were not read]"
    return texts[0].rstrip("\n") + "\n" + marker + "\n" + texts[1]


def read_log_file(path: str, stdin: Any = None) -> str:
    """The text of the log at ``path`` (``-``: ``stdin``'s bytes, by default ``sys.stdin``),
    decoded as :func:`decode_log` says and bounded as :func:`read_log_path` says. Raises OSError
    when it cannot be read and :class:`NotTextLog` for binary data."""
    if path == "-":
        if stdin is None:
            import sys

            stdin = sys.stdin
        stream = getattr(stdin, "buffer", stdin)
        return decode_log(read_log_stream(stream))
    return decode_log(read_log_path(path))


# ---------------------------------------------------------------------------------------------
# Text for the CLI


def findings_text(findings: list[Finding], lang: str = DEFAULT_LANGUAGE,
                  answers: Iterable[tuple[Question, str]] = (),
                  question: Optional[Question] = None) -> str:
    """Readable text for ``gpu-wizard explain``, in ``lang``: the most likely cause first; the
    user's ``answers`` before it and the ``question`` that would settle it after it."""
    def say(message_id: str, **params: Any) -> str:
        return messages.render(msg(message_id, **params), lang)

    text = _findings_text(findings, lang, say)
    said = [known.said(value) for known, value in answers]
    if said:
        text = say("explain.text.answered", answers=said) + "\n" + text
    if question is not None:
        text = text.rstrip() + "\n\n" + "\n".join([
            say("explain.text.question", ask=question.ask()),
            "  " + say("explain.text.question_cli", yes=question.option("yes"),
                       no=question.option("no"))]) + "\n"
    return text


def candidates_heading(findings: list[Finding]) -> str:
    """The message id that heads undecided findings: one candidate is not "the candidates"."""
    return "explain.text.candidate_one" if len(findings) == 1 else "explain.text.candidates"


def _findings_text(findings: list[Finding], lang: str, say: Any) -> str:

    if not findings:
        return "\n".join([say("explain.text.nothing_found"),
                          say("explain.text.nothing_found_hint", command=NEXT_STEP_COMMAND)])
    if len(findings) == 1 and findings[0].code == HARMLESS_CODE:
        only = findings[0]
        kinds = [_harmless_kind(kind) for kind in only.params.get("kinds", [])]
        return "\n".join([
            say("explain.text.only_harmless", kinds=kinds),
            "  " + say("explain.text.log", line=short_line(render(only.evidence, lang))),
            say("explain.text.harmless_hint", command=NEXT_STEP_COMMAND),
        ])
    out = [] if decisive(findings) else [say(candidates_heading(findings)), ""]
    for number, finding in enumerate(findings, 1):
        head = (msg("explain.text.most_likely") if number == 1
                else msg("explain.text.also_possible", number=number))
        out.append(say("explain.text.heading", head=head, title=finding.title(lang),
                       severity=_named("explain.severity", finding.severity),
                       layer=_named("explain.layer", finding.layer)))
        out.append(f"  {finding.message(lang)}")
        out.extend("  " + messages.render(note, lang) for note in finding_notes(finding, lang))
        if finding.evidence:
            out.append("  " + say("explain.text.log",
                                  line=short_line(render(finding.evidence, lang))))
        if finding.params.get("how_to_tell") is not None:
            out.append("  " + say("explain.text.how_to_tell", step=finding.params["how_to_tell"]))
        out.append("  " + say("explain.text.fix", fix=finding.fix_summary(lang)))
        out.extend(_steps_text(finding.fix.steps, lang))
        out.extend(f"    $ {command}" for command in finding.fix.commands)
        out.extend("    " + say("explain.text.link", title=link.title_text(lang), url=link.url)
                   for link in finding.fix.links)
        out.append("")
    return "\n".join(out).rstrip() + "\n"


_HEADINGS = frozenset(step.key for _, step in _OS_SECTIONS) | {_OTHER_SECTION}
_HARMLESS_KINDS = {
    "NUMA": "explain.kind.numa",
    "TensorRT": "explain.kind.tensorrt",
    "CPU instructions": "explain.kind.cpu_instructions",
    "cuBLAS/cuDNN/cuFFT factory": "explain.kind.factory",
    "cudart hint": "explain.kind.cudart_hint",
    "XLA/executor notes": "explain.kind.xla_notes",
    "ldconfig symlink": "explain.kind.ldconfig_symlink",
    "library loaded": "explain.kind.library_loaded",
    "kernel module notes": "explain.kind.kernel_module_notes",
    "CPU memory note": "explain.kind.cpu_memory_note",
    "CUDA minor version note": "explain.kind.cuda_minor_version",
    "NGC container banner": "explain.kind.ngc_banner",
    "ptxas compile notes": "explain.kind.ptxas_notes",
    "Ollama's AMD driver check": "explain.kind.ollama_amd_check",
}
"""The ``kind`` of each harmless signature, as the words the text shows for it."""


def _harmless_kind(kind: str) -> Any:
    message_id = _HARMLESS_KINDS.get(kind)
    return msg(message_id) if message_id else kind


def _named(prefix: str, value: str) -> Any:
    """``explain.severity.fail``, ``explain.layer.cudnn``: the word for an enum value (the value
    itself where the catalogue has none)."""
    message_id = f"{prefix}.{value}"
    return msg(message_id) if messages.has(message_id) else value


def _steps_text(steps: tuple[Step, ...], lang: str = DEFAULT_LANGUAGE) -> list[str]:
    """Steps as a list; an OS heading (a log that does not show its OS) starts a section whose
    steps are indented below it."""
    lines = []
    indent = ""
    for step in steps:
        if step.key in _HEADINGS:
            lines.append(f"    {step.text(lang)}")
            indent = "  "
        else:
            lines.append(f"    {indent}- {step.text(lang)}")
    return lines


NEXT_STEP_COMMAND = "gpu-wizard check"
"""What to run when a log names no cause: the check reads the machine itself."""


def finding_notes(finding: Finding, lang: str = DEFAULT_LANGUAGE) -> list[Message]:
    """The notes shown under a finding's message, in ``lang``: its ``detail`` where the message
    does not say it already, and which file needs the missing library (or which dependency it
    lacks). The CLI's text and the GUI's explain dialog both show them."""
    params = finding.params
    notes: list[Message] = []
    note = _note(messages.render(params.get("detail"), lang))
    if note and note not in finding.message(lang):
        notes.append(msg("explain.text.note", note=note))
    reports = params.get("similar_reports") or []
    if len(reports) == 1:
        notes.append(msg("explain.text.note_similar", report=reports[0]))
    elif reports:
        notes.append(msg("explain.text.note_similar", count=len(reports),
                         reports=reports[:SIMILAR_LINKS]))
    if params.get("needed_by"):
        notes.append(msg("explain.text.note_needed_by", file=params.get("file"),
                         needed_by=params["needed_by"]))
    elif params.get("dependency"):
        notes.append(msg("explain.text.note_dependency", dependency=params["dependency"],
                         file=params.get("file")))
    return notes


def _note(detail: Any) -> str:
    """A ``detail`` (rendered) as a sentence of its own (some are written to follow a message:
    ``" (inside a container ...)"`` or ``": Docker has no ..."``)."""
    text = str(detail or "").strip().lstrip(":：").strip()
    for opening, closing in (("(", ")"), ("（", "）")):
        if text.startswith(opening) and text.endswith(closing):
            text = text[1:-1]
    return text


def short_line(line: str, limit: int = 300) -> str:
    """A log line as ``explain`` shows it: at most ``limit`` characters."""
    return line if len(line) <= limit else line[: limit - 3] + "..."


# ---------------------------------------------------------------------------------------------
# The probe's log in `gpu-wizard check`


def probe_log_text(probe: Optional[dict[str, Any]]) -> str:
    """The environment probe's log plus TensorFlow's import error (when the import failed)."""
    if not isinstance(probe, dict):
        return ""
    parts = [str(probe.get("log") or "")]
    tf = probe.get("tensorflow")
    if isinstance(tf, dict) and tf.get("imported") is False and tf.get("error"):
        parts.append(str(tf["error"]))
    return "\n".join(part for part in parts if part)


def probe_log_findings(probe: Optional[dict[str, Any]], os_kind: Optional[str] = None,
                       tf_version: Optional[str] = None,
                       machine: Iterable[str] = ()) -> list[Finding]:
    """:func:`explain_log` over the probe's log and import error, with what ``check`` knows
    already: the environment's TensorFlow and Python versions and the machine's facts
    (:func:`machine_facts`), which narrow the candidates. The TensorFlow version is the
    probe's own when none is given."""
    if tf_version is None and isinstance(probe, dict):
        from wizard.core.envs import tf_version as probe_tf_version

        tf_version = probe_tf_version(probe)
    python = probe.get("python") if isinstance(probe, dict) else None
    version = python.get("version") if isinstance(python, dict) else None
    known = ["checked", *(name for name in machine if name != "checked")]
    return explain_log(probe_log_text(probe), os_kind, tf_version=tf_version, machine=known,
                       python_version=str(version) if version else None)


def machine_facts(results: Mapping[str, LayerResult]) -> list[str]:
    """What the layers found on the machine itself, as fact names: an NVIDIA GPU listed (or none
    at all), a driver loaded (NVML or the kernel module answered), a driver too old for the
    target, a driver library that is not the kernel module's version (:data:`MACHINE_FACTS`);
    and the answers to the questions of :mod:`wizard.core.deciding_question` the machine gives
    itself (:func:`_answered_by_machine`)."""
    facts: list[str] = []
    gpu = results.get("gpu")
    if gpu is not None:
        if any(f.code == "no_nvidia_gpu" for f in gpu.findings):
            facts.append("no_nvidia_gpu")
        elif gpu.facts.get("gpus"):
            facts.append("nvidia_gpu")
    driver = results.get("driver")
    if driver is not None and (driver.facts.get("driver_version")
                               or driver.facts.get("kernel_module_version")):
        facts.append("driver_loaded")
    shown = {f.code for f in driver.findings} if driver is not None else set()
    if "driver_too_old" in shown:
        facts.append("driver_too_old")
    if "nvml_driver_library_mismatch" in shown:
        facts.append("driver_library_mismatch")
    if driver is not None and driver.facts.get("driver_folder"):
        facts.append("driver_in_nix_folder")
    return facts + _answered_by_machine(results)


def _answered_by_machine(results: Mapping[str, LayerResult]) -> list[str]:
    """The questions' answers the layers read on the machine: inside a container or not (the
    driver layer, Linux), a CUDA Toolkit installed or no CUDA at all (the cuda layer), the
    environment's Python 64- or 32-bit (the tensorflow layer's probe), any cuDNN found or none
    and zlibwapi.dll found or not (the cudnn layer), a CUDA or cuDNN of another version than
    the target's (:data:`_OTHER_VERSION_ANSWERS`)."""
    facts: list[str] = []
    driver = results.get("driver")
    if driver is not None and "in_container" in driver.facts:
        facts.append("in_container" if driver.facts["in_container"] else "not_in_container")
    cuda = results.get("cuda")
    installs = cuda.facts.get("installs") if cuda is not None else None
    if isinstance(installs, list):
        if any(isinstance(i, dict) and i.get("kind") == "toolkit" for i in installs):
            facts.append("cuda_toolkit_installed")
        elif not installs and not cuda.facts.get("nvcc"):
            facts.append("no_cuda_toolkit")
    tensorflow = results.get("tensorflow")
    bits = tensorflow.facts.get("python_bits") if tensorflow is not None else None
    if bits in (32, 64):
        facts.append(f"python_{bits}bit")
    facts += _cudnn_answer(results.get("cudnn"))
    facts += _zlibwapi_answer(results.get("cudnn"))
    for layer, mismatch, absent, other, none_other in _OTHER_VERSION_ANSWERS:
        result = results.get(layer)
        if result is None:
            continue
        codes = {f.code for f in result.findings}
        if mismatch in codes:
            facts.append(other)
        elif result.status == OK or (codes and codes <= absent):
            facts.append(none_other)
    return facts


def _cudnn_answer(cudnn: Optional[LayerResult]) -> list[str]:
    """Whether any cuDNN is installed, of whatever version, as the cudnn layer found them."""
    installs = cudnn.facts.get("installs") if cudnn is not None else None
    if not isinstance(installs, list):
        return []
    return ["cudnn_installed"] if installs else ["no_cudnn"]


def _zlibwapi_answer(cudnn: Optional[LayerResult]) -> list[str]:
    """Whether zlibwapi.dll is where cuDNN 8.3-8.9 on Windows finds it, as the cudnn layer read
    it: its zlibwapi_missing finding says no; a cuDNN that needs it and nothing missing, yes."""
    if cudnn is None:
        return []
    if any(f.code == "zlibwapi_missing" for f in cudnn.findings):
        return ["no_zlibwapi"]
    needed = cudnn.facts.get("needed")
    if cudnn.status == OK and isinstance(needed, dict) and needed.get("zlibwapi"):
        return ["zlibwapi_installed"]
    return []


_OTHER_VERSION_ANSWERS = (
    ("cuda", "cuda_version_mismatch", {"cuda_not_installed", "cuda_not_on_path"},
     "other_cuda_installed", "no_other_cuda"),
    ("cudnn", "cudnn_version_mismatch", {"cudnn_missing"}, "other_cudnn_installed",
     "no_other_cudnn"),
)
"""Whether a CUDA or cuDNN of another version than the target's is installed, as the layers
read it: their version-mismatch finding says yes; the version the target needs found (the layer
ok), or none at all, says no."""


@dataclass
class Merged:
    """What :func:`reconcile_log_findings` did with each log finding."""

    added: list[Finding] = field(default_factory=list)
    """Filed as findings of their own (the layer's facts neither explain nor rule them out)."""
    attached: list[Finding] = field(default_factory=list)
    """Agreeing with a finding the layer made from the machine itself: their log line became
    evidence of that finding."""
    dropped: list[Finding] = field(default_factory=list)
    """Ruled out by the layer's own facts (a log's guess that the machine shows to be false)."""

    @property
    def kept(self) -> list[Finding]:
        """The log findings that hold: added or attached."""
        return self.added + self.attached


LOG_EVIDENCE_PREFIX = "log: "


def merge_log_findings(report_layers: list[LayerResult], findings: list[Finding],
                       include_harmless: bool = False) -> list[Finding]:
    """Put log findings into the layer their code belongs to; returns the ones added.

    See :func:`reconcile_log_findings` for the rules (the machine's facts come first)."""
    return reconcile_log_findings(report_layers, findings, include_harmless).added


def reconcile_log_findings(report_layers: list[LayerResult], findings: list[Finding],
                           include_harmless: bool = False) -> Merged:
    """Reconcile log findings with what the layers found on the machine itself.

    A log only shows what a program printed; a layer read the machine (NVML, files, the
    loader path), so a layer's own facts beat a log's guess. For each log finding, in order:

    1. the same code is already in a layer: the log line becomes evidence of that finding (a
       ``warn`` the log shows failing becomes ``fail``, unless rule 2 applies);
    2. the gpu layer found no NVIDIA GPU at all: the loader's complaints in the driver, cuda and
       cudnn layers are consequences of that (no driver, no CUDA libraries to load), not causes
       with a fix of their own: the line becomes evidence of the layer's own (``info``)
       finding, or of ``no_nvidia_gpu`` where the layer has none;
    3. the driver, cuda or cudnn layer already failed on a finding of its own and the log only
       shows a symptom (:data:`_SYMPTOMS`: a library that does not load, cuInit failing; not a
       cause it names, such as a version): the log's complaint is its consequence
       (cuInit fails because the driver is too old, cublas is not found because CUDA is not on
       PATH) and becomes evidence of that finding rather than a second cause;
    4. the layer's facts rule it out (a "driver not loaded" where NVML reports a driver, a
       ``zlibwapi_missing`` for a cuDNN that does not need zlibwapi): dropped;
    5. else it is filed in its layer, whose status is recomputed with
       :func:`wizard.core.model.worst_status` from the old status (only ``fail`` turns ``ok``
       into ``fail``; ``info`` changes nothing; ``unknown`` stays unless a finding fails).

    Idempotent: the TensorFlow layer may file its log first and diagnose merge again.
    ``numa_or_harmless_warning`` is left out unless ``include_harmless``.
    """
    by_name = {layer.layer: layer for layer in report_layers}
    present = {f.code for layer in report_layers for f in layer.findings}
    no_gpu = "no_nvidia_gpu" in present
    merged = Merged()
    for finding in findings:
        if finding.code == HARMLESS_CODE and not include_harmless:
            continue
        name = layer_of(finding.code)
        layer = by_name.get(name)
        if layer is None:
            continue
        consequence_of_no_gpu = no_gpu and name in _MACHINE_LAYERS
        if finding.code in present:
            _attach_to_same_code(report_layers, finding, escalate=not consequence_of_no_gpu)
            merged.attached.append(finding)
            continue
        if consequence_of_no_gpu:
            _attach_to_no_gpu(layer, by_name["gpu"], finding)
            merged.attached.append(finding)
            continue
        if finding.code in _SYMPTOMS and _attach_to_own_failure(layer, finding):
            merged.attached.append(finding)
            continue
        if _ruled_out(finding, by_name):
            merged.dropped.append(finding)
            continue
        finding = _fit_fix_to_facts(finding, layer)
        layer.findings.append(finding)
        present.add(finding.code)
        merged.added.append(finding)
        layer.status = worst_status([finding], default=layer.status)
    return merged


def _from_log(finding: Finding) -> bool:
    return finding.params.get("source") == "log"


def _with_log_line(own: Finding, log: Finding, escalate: bool) -> Finding:
    """``own`` with the log finding's line added to its evidence (once), the log's code noted
    in ``params["log_codes"]``, and, when ``escalate``, the log's severity if it is worse."""
    seen = render(own.evidence) if own.evidence is not None else ""
    added = []
    for line in render(log.evidence).splitlines():  # several when one finding names several
        line = line.strip()
        if line and line not in seen and f"{LOG_EVIDENCE_PREFIX}{line}" not in added:
            added.append(f"{LOG_EVIDENCE_PREFIX}{line}")
    evidence: Any = own.evidence
    if added and isinstance(own.evidence, Message):  # what the layer saw, then the log's lines
        evidence = Message("common.two_lines", {"first": own.evidence, "second": "\n".join(added)})
    elif added:
        evidence = "\n".join([seen, *added]) if seen else "\n".join(added)
    params = own.params
    if _from_log(log) and log.code not in params.get("log_codes", ()):
        params = {**params, "log_codes": [*params.get("log_codes", ()), log.code]}
    severity = own.severity
    rank = {"info": 0, "warn": 1, "fail": 2}
    if escalate and rank.get(log.severity, 0) > rank.get(severity, 0):
        severity = log.severity
    return replace(own, evidence=evidence or None, params=params, severity=severity)


def _attach_to_same_code(report_layers: list[LayerResult], log: Finding, escalate: bool) -> None:
    """The code is already reported: the log agrees with it. Its line becomes evidence of a
    finding the layer made itself (not of another log finding: the first line is enough)."""
    for layer in report_layers:
        for index, own in enumerate(layer.findings):
            if own.code != log.code or own is log:
                continue
            if _from_log(own):
                return
            layer.findings[index] = _with_log_line(own, log, escalate=escalate)
            layer.status = worst_status(layer.findings, default=layer.status)
            return


def _attach_to_own_failure(layer: LayerResult, log: Finding) -> bool:
    """When the layer failed on a finding of its own, a log finding of the same layer is its
    consequence: attach the line to that finding. False when the layer has no such finding."""
    for index, own in enumerate(layer.findings):
        if own.severity == "fail" and not _from_log(own):
            layer.findings[index] = _with_log_line(own, log, escalate=False)
            return True
    return False


def _fit_fix_to_facts(log: Finding, layer: LayerResult) -> Finding:
    """A log finding's generic fix, less the steps the layer's facts show to be done already:
    no "add the CUDA folder to the loader path" when the cuda layer found the loader opening
    the target's toolkit (a cuBLAS missing there is missing from that folder, not off the
    path)."""
    if layer.layer != "cuda" or not layer.facts.get("loader_first_needed"):
        return log
    steps = tuple(step for step in log.fix.steps if step.key != "add_to_path")
    if steps == log.fix.steps:
        return log
    return replace(log, fix=replace(log.fix, steps=steps))


def _attach_to_no_gpu(layer: LayerResult, gpu: LayerResult, log: Finding) -> None:
    """The line becomes evidence of the layer's own finding, else of ``no_nvidia_gpu``."""
    for owner in (layer, gpu):
        for index, own in enumerate(owner.findings):
            if not _from_log(own) and (owner is layer or own.code == "no_nvidia_gpu"):
                owner.findings[index] = _with_log_line(own, log, escalate=False)
                return


_MACHINE_LAYERS = ("driver", "cuda", "cudnn")
"""Layers that read one part of the machine below TensorFlow: with no NVIDIA GPU, a log's
complaint about any of them is a consequence of that."""
_SYMPTOMS = frozenset({
    "no_driver_or_nvidia_smi_missing", "gpu_without_driver", "nvml_driver_library_mismatch",
    "wsl_gpu_missing", "container_no_gpu_passthrough",
    "cudart_missing", "cuda_lib_other_missing",
    "cudnn_missing", "cudnn_partial_install", "zlibwapi_missing",
})
"""Codes a log gives to what it sees go wrong (cuInit fails, a library does not load) rather
than to a cause it names (a version, a permission): in the driver, cuda and cudnn layers,
where the layer already failed on a cause of its own, such a line is that cause's symptom. A
cause the log names (driver_too_old, cudnn_version_mismatch, ...) is filed as its own finding
even then."""
_DRIVER_ABSENT_CODES = ("no_driver_or_nvidia_smi_missing", "gpu_without_driver")


def _ruled_out(log: Finding, by_name: dict[str, LayerResult]) -> bool:
    """True when a layer's facts show the log finding to be false on this machine."""
    driver = by_name.get("driver")
    driver_facts = driver.facts if driver is not None else {}
    if log.code in _DRIVER_ABSENT_CODES:
        # a driver version from NVML/nvidia-smi, or /proc/driver/nvidia/version: it is loaded
        return bool(driver_facts.get("driver_version") or driver_facts.get(
            "kernel_module_version"))
    if log.code == "no_nvidia_gpu":
        gpu = by_name.get("gpu")
        return bool(gpu is not None and gpu.facts.get("gpus"))  # the gpu layer lists one
    if log.code == "nvml_driver_library_mismatch":
        return driver_facts.get("source") == "nvml"  # NVML initialised: no mismatch
    if log.code == "zlibwapi_missing":
        cudnn = by_name.get("cudnn")
        first = (cudnn.facts if cudnn is not None else {}).get("loader_first") or {}
        version = first.get("version")
        if version:
            from wizard.core.cudnn_installs import needs_zlibwapi

            return not needs_zlibwapi(str(version), windows=True)
    return False
