"""Reports like this log: the nearest logs of the explain corpus, whose causes their threads
confirmed.

When no line of a log is one ``explain`` knows, the logs most like it in words (TF-IDF cosine
over their terms) still say something: the cause most of them had, and the threads where it was
found and fixed. ``resources/similar_reports.json`` holds the development part of
data/explain-corpus as term weights, each with its thread and finding code; it is built by
``scripts/build_similar_reports.py`` (a test keeps it in step with the corpus). The held-out
test part is never in it, so ``benchmarks/explain_accuracy.py`` measures it honestly.
"""

from __future__ import annotations

import copy
import math
import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from wizard.core.pasted_log import as_printed
from wizard.resources import load_json

INDEX_FILE = "similar_reports.json"
NEIGHBOURS = 7
"""How many of the nearest reports vote."""
MIN_SIMILARITY = 0.1
"""A report less similar than this (cosine of term weights) does not vote: below it two logs
share only common words."""
MIN_NEAREST = 0.3
"""The nearest report must be at least this similar for the reports to name a cause: below it,
half the answers were wrong when each development log was looked up without its own thread's
(at or above it, 22 of 33 were right)."""
HEAD_CHARS, TAIL_CHARS = 16_000, 48_000
"""The part of a long log whose words are compared (its start and its end, where the error is)."""
_TERM = re.compile(r"[a-z_][a-z0-9_]{2,}")
_COMMON = frozenset((
    "the", "and", "for", "not", "you", "with", "this", "that", "are", "was", "has", "have",
    "from", "line", "file", "use", "using", "your", "can", "error"))


@dataclass(frozen=True)
class Report:
    """One report of the index: its thread (``owner/repo#N`` or a URL) and confirmed cause."""

    source: str
    code: str
    similarity: float = 0.0

    @property
    def url(self) -> str:
        """A link to the thread (``owner/repo#N`` is a GitHub issue or pull request)."""
        found = re.fullmatch(r"([\w.-]+/[\w.-]+)#(\d+)", self.source.strip())
        if found:
            return f"https://github.com/{found.group(1)}/issues/{found.group(2)}"
        return self.source


def terms(text: str) -> Counter[str]:
    """The words of a log as counted for similarity: lower case, three characters or more,
    without the commonest English ones; a long log's start and end only."""
    if len(text) > HEAD_CHARS + TAIL_CHARS:
        text = text[:HEAD_CHARS] + "\n" + text[-TAIL_CHARS:]
    return Counter(t for t in _TERM.findall(as_printed(text).lower()) if t not in _COMMON)


def build_index(reports: Iterable[tuple[str, str, str]]) -> dict[str, Any]:
    """The index of ``(source, code, log)`` triples: each term's inverse document frequency,
    and each report's normalised term weights (rounded: the file stays small)."""
    items = [(source, code, terms(log)) for source, code, log in reports]
    frequency: Counter[str] = Counter()
    for _, _, counted in items:
        frequency.update(counted.keys())
    idf = {t: round(math.log(len(items) / n), 4) for t, n in sorted(frequency.items())}
    return {"idf": idf, "reports": [
        {"source": source, "code": code,
         "terms": {t: round(w, 4) for t, w in sorted(_weights(counted, idf).items())}}
        for source, code, counted in items]}


def _weights(counted: Counter[str], idf: dict[str, float]) -> dict[str, float]:
    raw = {t: (1 + math.log(n)) * idf[t] for t, n in counted.items() if idf.get(t)}
    norm = math.sqrt(sum(w * w for w in raw.values())) or 1.0
    return {t: w / norm for t, w in raw.items()}


class SimilarIndex:
    """The reports and their terms, searchable (an inverted index: term -> reports)."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.idf: dict[str, float] = data["idf"]
        self.reports: list[Report] = []
        self.postings: dict[str, list[tuple[int, float]]] = defaultdict(list)
        self.left_out: frozenset[int] = frozenset()
        for raw in data["reports"]:
            index = len(self.reports)
            self.reports.append(Report(raw["source"], raw["code"]))
            for term, weight in raw["terms"].items():
                self.postings[term].append((index, weight))

    def without(self, threads: Iterable[str]) -> SimilarIndex:
        """The index less the reports of ``threads`` (the benchmark's own-thread rule); it
        shares this one's postings."""
        names = {thread_of(t) for t in threads}
        view = copy.copy(self)
        view.left_out = self.left_out | frozenset(
            i for i, report in enumerate(self.reports) if thread_of(report.source) in names)
        return view

    def nearest(self, text: str, count: int = NEIGHBOURS) -> list[Report]:
        """The ``count`` reports most like ``text``, most similar first, none below
        :data:`MIN_SIMILARITY`."""
        query = _weights(terms(text), self.idf)
        scores: dict[int, float] = defaultdict(float)
        for term, weight in query.items():
            for index, other in self.postings.get(term, ()):
                scores[index] += weight * other
        best = sorted(((i, score) for i, score in scores.items() if i not in self.left_out),
                      key=lambda item: (-item[1], item[0]))[:count]
        return [Report(self.reports[i].source, self.reports[i].code, round(score, 3))
                for i, score in best if score >= MIN_SIMILARITY]


def thread_of(source: str) -> str:
    """The thread a source names: ``owner/repo#N`` (a trailing comment anchor is dropped), or
    a forum URL without its query; lower case (the corpus split's key, benchmarks/
    corpus_split.py)."""
    return source.strip().split("#issuecomment")[0].split("?")[0].lower()


@lru_cache(maxsize=1)
def index() -> SimilarIndex:
    """The shipped index (``resources/similar_reports.json``)."""
    return SimilarIndex(load_json(INDEX_FILE))


def likeliest(reports: list[Report]) -> list[tuple[str, list[Report]]]:
    """The codes the reports vote for (each report by its similarity), most votes first, each
    with its reports, most similar first; none when the nearest report is less similar than
    :data:`MIN_NEAREST`."""
    if not reports or reports[0].similarity < MIN_NEAREST:
        return []
    votes: dict[str, float] = defaultdict(float)
    for report in reports:
        votes[report.code] += report.similarity
    first = {code: min(i for i, r in enumerate(reports) if r.code == code) for code in votes}
    order = sorted(votes, key=lambda code: (-votes[code], first[code]))
    return [(code, [r for r in reports if r.code == code]) for code in order]
