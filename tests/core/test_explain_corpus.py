"""The explain corpus (data/explain-corpus): every row is well formed and labelled with a known
finding code, and `explain` keeps its top-1 accuracy on the development part (a regression in the
signatures fails here). The test part is held out: it is only counted by
``benchmarks/explain_accuracy.py --part test``, never here.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from wizard.core.codes import CODES

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "benchmarks"))

import corpus_split  # noqa: E402
import explain_accuracy  # noqa: E402

DEV_TOP1_FLOOR = 0.78
"""The development part's top-1 share reached when the signatures were last tuned (429 of 541
logs, 79.3%, round 5; the round-4 logs were collected for the causes that are hard to tell
apart), less a small margin for logs the collectors add later."""
LTO_TOP1_FLOOR = 0.65
"""Leave-thread-out top-1 on the development part at the end of round 9: 518 of 779, 66.5% (the
similar reports, looked up without the log's own thread, answer logs no line explains; 63.5% at
the end of round 8 without them)."""
OLD_TOP1_FLOOR = 0.94
"""48 of 51 at the end of round 4 (e035, e064, e075 rank their label second: test_explain's
AMBIGUOUS says why)."""
DECIDED_RIGHT_FLOOR = 0.95
"""When explain says a line decides (no candidates, no question), it is right at least 19 times
in 20 on the development part (320 of 333, 96.1%, at the end of round 13, after the lines that
a third of their threads had another cause for became candidates): a signature too sure of
itself fails here, not only in a user's hands."""
OS_VALUES = {"windows", "linux", "wsl2", "unknown", "macos"}
"""data/explain-corpus/README.md's values, and macOS (a row shows it; explain reads it as an OS it
does not know, the log's own hints decide)."""

EVERY_ROW = corpus_split.load()
needs_corpus = pytest.mark.skipif(not EVERY_ROW, reason="data/explain-corpus has no logs yet")


@needs_corpus
def test_every_row_is_well_formed() -> None:
    ids = [row.get("id") for row in EVERY_ROW]
    assert len(ids) == len(set(ids)), "duplicate ids"
    for row in EVERY_ROW:
        where = row.get("id")
        assert isinstance(row.get("log"), (str, list)), where
        if row["part"] == "dev":  # the test part's logs are not looked into
            assert explain_accuracy.row_log(row).strip(), where
        assert str(row.get("source") or "").strip(), f"{where}: no source"
        assert str(row.get("evidence") or "").strip(), f"{where}: no evidence"
        assert row.get("os") in OS_VALUES, f"{where}: os {row.get('os')!r}"
        assert isinstance(row.get("versions", {}), dict), f"{where}: versions is not an object"


@needs_corpus
def test_every_label_is_a_known_code() -> None:
    unknown = {row["id"]: row["label"] for row in EVERY_ROW if row.get("label") not in CODES}
    assert unknown == {}


@needs_corpus
def test_split_is_by_thread() -> None:
    parts: dict[str, set[str]] = {}
    for row in EVERY_ROW:
        parts.setdefault(corpus_split.thread_of(row["source"]), set()).add(row["part"])
    assert all(len(found) == 1 for found in parts.values())


def test_leave_thread_out_reads_the_threads_a_source_cites() -> None:
    cited = explain_accuracy.cited_threads(
        "tensorflow/tensorflow#10971, #96 (e081); https://forums.developer.nvidia.com/t/x/1?page=2")
    assert {"tensorflow/tensorflow#10971", "tensorflow/tensorflow#96", "e081"} <= cited
    assert "https://forums.developer.nvidia.com/t/x/1" in cited
    assert explain_accuracy.cited_threads("shared/research/error-signals.md") == set()


def test_leave_thread_out_drops_only_the_threads_own_signatures() -> None:
    data = {"signatures": [
        {"id": "a", "code": "cudart_missing", "keywords": ["x"], "regex": ["x"],
         "source": "o/r#1"},
        {"id": "b", "code": "cudart_missing", "keywords": ["y"], "regex": ["y"],
         "source": "o/r#2"}]}
    assert explain_accuracy.table_without(data, {"o/r#3"}) is None
    kept = explain_accuracy.table_without(data, {"o/r#1"})
    assert [sig.id for sig in kept.signatures] == ["b"]


@needs_corpus
def test_development_part_top1_does_not_regress() -> None:
    rows = corpus_split.load("dev")
    result = explain_accuracy.evaluate("dev", rows)
    share = result.top1 / result.rows
    misses = "\n".join(f"{i} {label} -> {codes}" for i, label, codes, _ in result.misses)
    assert share >= DEV_TOP1_FLOOR, f"dev top-1 {share:.1%} < {DEV_TOP1_FLOOR:.0%}:\n{misses}"
    right = result.decided_right / result.decided
    assert right >= DECIDED_RIGHT_FLOOR, \
        f"decided right {result.decided_right}/{result.decided} < {DECIDED_RIGHT_FLOOR:.0%}"


@needs_corpus
def test_leave_thread_out_top1_does_not_regress() -> None:
    """The development part with each log's own thread's signatures left out: how well the
    signatures generalise (66.7% at the end of round 2; the held-out test part is never read
    here)."""
    rows = corpus_split.load("dev")
    result = explain_accuracy.evaluate_leave_thread_out("dev", rows)
    share = result.top1 / result.rows
    assert share >= LTO_TOP1_FLOOR, f"leave-thread-out top-1 {share:.1%} < {LTO_TOP1_FLOOR:.0%}"


@needs_corpus
def test_a_log_reads_the_same_however_it_was_pasted() -> None:
    """CRLF, quote marks, HTML entities, terminal colours, a web page's spaces, CI time stamps,
    line numbers, a JSON string or Docker's JSON records, a console's cut at 80 or 120 columns,
    and a reflow at word boundaries at 80 or 64 columns cost at most one dev log in a hundred
    against the logs as collected (where a line is exactly a console's width long, a reflow and
    a console's cut look alike: both readings are read)."""
    results = {r.part: r for r in explain_accuracy.evaluate_pasted(corpus_split.load("dev"))}
    collected = results.pop("as collected").top1
    for name, result in results.items():
        assert result.top1 >= collected - result.rows // 100, (name, result.top1, collected)


def test_the_gpu_a_thread_names_is_given_by_its_name_alone() -> None:
    """``--gpu`` as a user would give it: the name, never the labeller's words in brackets,
    and nothing for a figure that names no GPU."""
    facts = explain_accuracy.row_gpu_facts
    assert facts({"versions": {"gpu": "AMD Radeon RX 570"}}) == ["no_nvidia_gpu"]
    assert facts({"versions": {"gpu": "none (Mac laptop, CPU)"}}) == ["no_nvidia_gpu"]
    assert facts({"versions": {"gpu": "RTX 3090 (compute capability 8.6)"}}) == ["nvidia_gpu"]
    assert facts({"versions": {"gpu": "8 GB"}}) == facts({"versions": {}}) == []
    assert explain_accuracy.row_given({"versions": {"gpu": "Intel Iris Xe", "python": "3.9"}}) == {
        "tf_version": None, "python_version": "3.9", "cuda_version": None,
        "machine": ["no_nvidia_gpu"]}


@pytest.mark.parametrize(("cuda", "given"), [
    ("10.0", "10.0"), ("11.1.105 (.run install)", "11.1.105"), ("10.2 installed", "10.2"),
    ("11.3 (installed to fix)", None), ("10.2 installed, 10.1 expected", None),
    ("12.1 (works with 11.8)", None), ("9 -> 8", None), ("11.x", None), ("12", None),
    ("conda cudatoolkit 11.0.221", None)])
def test_the_cuda_a_thread_names_is_given_only_as_the_one_installed(cuda: str, given) -> None:
    """``--cuda`` as the user would give it when the log was printed: never the fix, the one
    expected or several tried."""
    assert explain_accuracy.row_cuda({"versions": {"cuda": cuda}}) == given


def test_old_samples_top1_does_not_regress() -> None:
    rows = explain_accuracy.load_part("old")
    if not rows:
        pytest.skip("no data/error-samples.jsonl")
    result = explain_accuracy.evaluate("old", rows)
    assert result.top1 / result.rows >= OLD_TOP1_FLOOR
    assert result.top2 == result.rows  # every old sample's cause is at least second


def test_benchmark_never_lists_the_test_part(capsys: pytest.CaptureFixture[str]) -> None:
    """The test part's logs are held out: the benchmark prints totals for it, no ids."""
    result = explain_accuracy.Result("test", rows=1, top1=0, top2=0)
    result.per_label["cudart_missing"] = [0, 0, 1]
    result.misses.append(("t999", "cudart_missing", [], "x/y#1"))
    explain_accuracy.print_labels(result, misses=False)
    assert "t999" not in capsys.readouterr().out


@needs_corpus
def test_every_finding_on_the_development_part_renders_fully() -> None:
    """No finding explain names on a real log shows an unknown value ("?") or a placeholder, in
    either language, whatever OS the user gives."""
    from wizard.core import messages
    from wizard.core.explain import explain_log

    rows = corpus_split.load("dev") + explain_accuracy.load_part("old")
    unknown = re.compile(r"\{\w+\}|(?:^|\s)\?(?:$|[\s.,)）。，])")
    problems = []
    for row in rows:
        for os_kind in (None, "windows", "linux"):
            for finding in explain_log(explain_accuracy.row_log(row), os_kind):
                tell = finding.params.get("how_to_tell")
                for lang in ("en", "zh_CN"):
                    texts = [finding.message(lang), finding.fix_summary(lang)]
                    if tell is not None:
                        texts.append(messages.render(tell, lang))
                    problems += [(row["id"], finding.code, text) for text in texts
                                 if unknown.search(text)]
    assert problems == []


@needs_corpus
def test_every_collection_has_a_round() -> None:
    """The benchmark prints totals per collection round; a new file must say its round."""
    collections = {row["collection"] for row in EVERY_ROW}
    assert collections <= set(corpus_split.ROUNDS), collections - set(corpus_split.ROUNDS)


@needs_corpus
def test_answering_the_questions_as_the_cause_implies_never_costs_a_log() -> None:
    """explain's questions (wizard/core/deciding_question.py), answered as each dev log's
    confirmed cause implies, name the cause of every log the log alone did, and more."""
    rows = corpus_split.load("dev")
    alone = explain_accuracy.evaluate("dev", rows)
    answered = explain_accuracy.evaluate_answered("dev", rows)
    missed_alone = {m[0] for m in alone.misses}
    assert {m[0] for m in answered.misses} <= missed_alone
    assert answered.top1 >= alone.top1 + len(rows) // 50  # the questions add 2% at least
