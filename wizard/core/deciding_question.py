"""One question that settles an explanation no log line decides.

When ``explain`` finds only candidates and the two most likely differ by a fact the user knows
and a log rarely shows ("did this run inside a container?", "is your Python 64-bit?", "does
that computer have an NVIDIA GPU?"), the CLI and the explain dialog ask it. The answer is a fact
:func:`wizard.core.explain.explain_log` takes like the machine's own (its ``machine`` facts):
it puts the question's subject first or drops it (:func:`apply_answers`).

The questions are data, ``resources/questions.json``; their words are messages
(``question.<id>.ask``, ``question.<id>.said_yes``, ``question.<id>.said_no``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Optional, TypeVar

from wizard.core.messages import Message, msg
from wizard.resources import load_json

QUESTIONS_FILE = "questions.json"
YES, NO = "yes", "no"
OPTION = "--answer"
"""``gpu-wizard explain``'s option that gives an answer."""
Item = TypeVar("Item")


@dataclass(frozen=True)
class Answer:
    """What one answer means: the fact it gives and the codes it puts first or drops."""

    fact: str
    points_to: tuple[str, ...] = ()
    rules_out: tuple[str, ...] = ()
    shown_by: tuple[str, ...] = ()
    """Facts a log line gives (``python_32bit_path``: ``Python37-32`` in a path) that answer
    the question this way by themselves."""


@dataclass(frozen=True)
class Question:
    id: str
    subject: str
    """The finding code the question rules in or out."""
    yes: Answer
    no: Answer
    ask_params: tuple[tuple[str, str], ...] = ()
    """The values of its ``question.<id>.ask`` message (a command, a folder)."""
    also_for: tuple[str, ...] = ()
    """Other codes beside which it is asked: causes a log shows the same way as its subject,
    where its answer brings the subject in (a driver that looks absent inside a container)."""

    def ask(self) -> Message:
        return msg(f"question.{self.id}.ask", **dict(self.ask_params))

    def option(self, value: str) -> str:
        """The CLI's option that gives the answer: ``--answer container=yes``."""
        return f"{OPTION} {self.id}={value}"

    def answer(self, value: str) -> Answer:
        return self.yes if value == YES else self.no

    def said(self, value: str) -> Message:
        """The answer as a short phrase ("it ran inside a container")."""
        return msg(f"question.{self.id}.said_{value}")

    def facts(self) -> tuple[str, str]:
        return self.yes.fact, self.no.fact


def _answer(raw: dict) -> Answer:
    return Answer(str(raw["fact"]), tuple(raw.get("points_to", ())),
                  tuple(raw.get("rules_out", ())), tuple(raw.get("shown_by", ())))


@lru_cache(maxsize=1)
def questions() -> tuple[Question, ...]:
    """The questions of ``resources/questions.json``, in their order."""
    data = load_json(QUESTIONS_FILE)
    return tuple(Question(str(raw["id"]), str(raw["subject"]), _answer(raw[YES]), _answer(raw[NO]),
                          tuple((str(k), str(v)) for k, v in raw.get("ask_params", {}).items()),
                          tuple(str(c) for c in raw.get("also_for", ())))
                 for raw in data["questions"])


@dataclass(frozen=True)
class Together:
    """Answers that mean more together than apart: with every one of ``facts`` given, the
    ``points_to`` codes come first (a CUDA Toolkit installed and none of another version: a
    CUDA library that cannot be opened is not on the loader's path)."""

    facts: frozenset[str]
    points_to: tuple[str, ...]
    os_kinds: tuple[str, ...] = ()
    """The systems where it holds (none named: every one)."""

    def holds(self, given: set[str], os_kind: Optional[str]) -> bool:
        return self.facts <= given and (not self.os_kinds or os_kind in self.os_kinds)


@lru_cache(maxsize=1)
def answers_together() -> tuple[Together, ...]:
    """The ``together`` entries of ``resources/questions.json``."""
    return tuple(Together(frozenset(str(f) for f in raw["facts"]),
                          tuple(str(c) for c in raw["points_to"]),
                          tuple(str(o) for o in raw.get("os", ())))
                 for raw in load_json(QUESTIONS_FILE).get("together", ()))


def question(question_id: str) -> Question:
    for known in questions():
        if known.id == question_id:
            return known
    raise KeyError(question_id)


def answer_facts() -> tuple[str, ...]:
    """Every fact an answer gives (``in_container``, ``python_64bit``, ...)."""
    return tuple(fact for q in questions() for fact in q.facts())


def parse_answer(text: str) -> tuple[Question, str]:
    """``container=yes`` (``explain --answer``) as the question and the answer; ValueError with
    a message id's params when the question or the answer is unknown."""
    name, _, value = text.partition("=")
    value = value.strip().lower()
    try:
        known = question(name.strip())
    except KeyError:
        raise ValueError(msg("explain.text.unknown_question", option=OPTION, given=text,
                             known=", ".join(q.id for q in questions()),
                             form="QUESTION=yes|no")) from None
    if value not in (YES, NO):
        raise ValueError(msg("explain.text.unknown_answer", option=OPTION, given=text,
                             yes=f"{known.id}={YES}", no=f"{known.id}={NO}"))
    return known, value


GPU_QUESTION = "nvidia_gpu"
"""The question a GPU's name answers (``explain --gpu``)."""


def gpu_answer(name: str) -> tuple[Question, str]:
    """The answer a GPU's name gives to "does that computer have an NVIDIA GPU?"
    (``explain --gpu "Radeon RX 570"`` is ``nvidia_gpu=no``); ValueError with a message when
    the name says neither."""
    from wizard.core.knowledge.gpus import is_nvidia_gpu_name

    nvidia = is_nvidia_gpu_name(name)
    if nvidia is None:
        raise ValueError(msg("explain.gpu.unknown", given=name.strip()))
    return question(GPU_QUESTION), YES if nvidia else NO


def shown_answers(log_facts: Iterable[str]) -> list[str]:
    """The answers a log gives itself: the facts of the answers one of whose ``shown_by``
    facts the log showed."""
    shown = set(log_facts)
    return [answer.fact for known in questions() for answer in (known.yes, known.no)
            if shown & set(answer.shown_by)]


def answers_facts(answers: Iterable[tuple[Question, str]]) -> list[str]:
    """The facts the answers give, for ``explain_log(machine=...)``."""
    return [known.answer(value).fact for known, value in answers]


def pointed_to(facts: Iterable[str], os_kind: Optional[str] = None) -> list[str]:
    """The codes the given facts put first, in order: those of answers given together
    (:func:`answers_together`, where they hold on ``os_kind``), then those of each answer."""
    given = set(facts)
    first = [c for joint in answers_together() if joint.holds(given, os_kind)
             for c in joint.points_to]
    for known in questions():
        for answer in (known.yes, known.no):
            if answer.fact in given:
                first.extend(c for c in answer.points_to if c not in first)
    return first


def apply_answers(items: Sequence[Item], facts: Iterable[str],
                  code: Callable[[Item], str], os_kind: Optional[str] = None) -> list[Item]:
    """``items`` (findings, candidates) as the given facts have them: the codes answers given
    together point to first (:func:`answers_together`), then those one answer points to (in
    their order), the codes an answer rules out left out, unless nothing would be left."""
    given = set(facts)
    first = pointed_to(given, os_kind)
    out = {ruled for known in questions() for answer in (known.yes, known.no)
           if answer.fact in given for ruled in answer.rules_out}
    if not first and not out:
        return list(items)
    kept = [item for item in items if code(item) not in out] or list(items)
    lead = [item for c in first for item in kept if code(item) == c]
    return lead + [item for item in kept if item not in lead]


def deciding_question(codes: Sequence[str], decided: bool,
                      known: Iterable[str] = ()) -> Optional[Question]:
    """The question to ask about findings ranked ``codes`` (most likely first): none when a
    line ``decided`` the cause or an answer named the likeliest, else the first question whose
    subject is one of the two most likely codes while another code is beside it, else the first
    one asked beside one of them (its ``also_for``), of those the ``known`` facts (answers
    given, the machine's own) do not already answer."""
    if decided or not codes:
        return None
    given = set(known)
    if codes[0] in pointed_to(given):
        return None  # an answer named the cause ("no NVIDIA GPU"): nothing more to settle
    likeliest = set(codes[:2])
    open_questions = [q for q in questions() if not given & set(q.facts())]
    about_a_subject = [q for q in open_questions if q.subject in likeliest and len(codes) > 1]
    beside = [q for q in open_questions if set(q.also_for) & likeliest]
    return next(iter(about_a_subject + beside), None)
