"""Reports like a log (wizard/core/similar_reports.py): when no line of a log is one explain
knows, the cause of the corpus logs most like it, as a candidate that links to their threads."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from wizard.core import explain, messages, similar_reports
from wizard.core.explain import explain_log, findings_text
from wizard.core.similar_reports import MIN_NEAREST, SimilarIndex, build_index, likeliest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "benchmarks"))
sys.path.insert(0, str(REPO / "scripts"))

import corpus_split  # noqa: E402

# three made-up reports: two alike (a launcher that cannot find its GPU), one about cuDNN
REPORTS = [
    ("acme/launcher#1", "no_nvidia_gpu",
     "launcher: probing adapters\nlauncher: adapter list empty, falling back to software path"),
    ("acme/launcher#2", "no_nvidia_gpu",
     "launcher: probing adapters\nlauncher: adapter list empty, software path selected"),
    ("acme/train#7", "cudnn_missing", "Could not load library cudnn_ops_infer64_8.dll"),
]
UNKNOWN_TO_SIGNATURES = ("launcher: probing adapters on this cuda box\n"
                         "launcher: adapter list empty, falling back to software path")


@pytest.fixture
def small() -> SimilarIndex:
    return SimilarIndex(build_index(REPORTS))


def test_the_nearest_reports_come_first_and_a_thread_can_be_left_out(small) -> None:
    near = small.nearest(UNKNOWN_TO_SIGNATURES)
    assert [r.source for r in near[:2]] == ["acme/launcher#1", "acme/launcher#2"]
    assert near[0].similarity >= MIN_NEAREST
    assert likeliest(near)[0][0] == "no_nvidia_gpu"
    without = small.without(["acme/launcher#1"])
    assert [r.source for r in without.nearest(UNKNOWN_TO_SIGNATURES)][:1] == ["acme/launcher#2"]
    assert small.nearest("") == [] and likeliest([]) == []


def test_a_log_no_signature_knows_gets_the_similar_reports_cause_as_a_lead(small) -> None:
    assert not explain_log(UNKNOWN_TO_SIGNATURES, "linux", similar=SimilarIndex(
        build_index(REPORTS[2:])))  # nothing like it: no answer
    [finding] = explain_log(UNKNOWN_TO_SIGNATURES, "linux", similar=small)
    assert finding.code == "no_nvidia_gpu" and finding.severity == "warn"
    assert not explain.decisive([finding])
    assert finding.params["similar_reports"] == ["acme/launcher#1", "acme/launcher#2"]
    urls = [link.url for link in finding.fix.links]
    assert urls[:2] == ["https://github.com/acme/launcher/issues/1",
                        "https://github.com/acme/launcher/issues/2"]
    for lang in messages.LANGUAGES:
        text = findings_text([finding], lang)
        assert "acme/launcher#1" in text and "?" not in text.replace("?)", "")
    assert "a lead to check, not a finding" in findings_text([finding], "en")
    # check's own probe log is left to the layers
    assert explain_log(UNKNOWN_TO_SIGNATURES, "linux", machine=["checked"], similar=small) == []


def test_plain_words_are_like_no_report(small) -> None:
    assert explain_log("hello world\nall is fine\n", similar=small) == []


def test_undecided_candidates_link_to_reports_with_their_cause() -> None:
    log = ("RuntimeError: Found no NVIDIA driver on your system. Please check that you have an "
           "NVIDIA GPU and installed a driver from http://www.nvidia.com/Download/index.aspx")
    findings = explain_log(log, "linux")
    assert not explain.decisive(findings)
    linked = [f for f in findings
              if any(link.url.startswith("https://github.com/") for link in f.fix.links)]
    assert linked and linked[0].code == "no_nvidia_gpu"


def test_the_shipped_index_is_the_development_part_as_the_corpus_has_it() -> None:
    import build_similar_reports

    assert build_similar_reports.main(["--check"]) == 0
    old = corpus_split._old_threads()
    parts = {corpus_split.part_of(r.source, old) for r in similar_reports.index().reports}
    assert parts == {"dev"}  # the held-out test part is never in it
    assert len(similar_reports.index().reports) == len(corpus_split.load("dev"))


def test_a_run_that_lists_its_gpu_and_reports_no_trouble_gets_no_lead() -> None:
    # TensorFlow creating its GPU device, then training: like a report in those lines only
    working = "\n".join(
        ["2023-06-19 17:03:27.1: I tensorflow/core/common_runtime/gpu/gpu_device.cc:1635] Created "
         "device /job:localhost/replica:0/task:0/device:GPU:0 with 7000 MB memory"]
        + [f"{n}/1000 [======] - 0s 3ms/step - loss: 0.{n:04d} - accuracy: 0.9" for n in range(50)])
    alike = SimilarIndex(build_index([("acme/train#9", "cudnn_handle_oom", working),
                                      *REPORTS]))
    assert explain_log(working, "linux", similar=alike) == []
    troubled = working + "\nW tensorflow/core/kernels/ops.cc] failed to run the model: aborted"
    [lead] = explain_log(troubled, "linux", similar=alike)  # trouble reported: a lead
    assert lead.params["similar_reports"] == ["acme/train#9"]


def test_reports_of_harmless_lines_never_call_another_log_harmless() -> None:
    """"Only harmless messages" is said of a log's own lines: reports whose logs held only
    harmless lines are passed over for the next cause the reports name."""
    reports = [("acme/launcher#1", "numa_or_harmless_warning", REPORTS[0][2]),
               ("acme/launcher#2", "no_nvidia_gpu", REPORTS[1][2]),
               REPORTS[2]]
    [finding] = explain_log(UNKNOWN_TO_SIGNATURES, "linux",
                            similar=SimilarIndex(build_index(reports)))
    assert finding.code == "no_nvidia_gpu"
    text = findings_text([finding], "en")
    assert "a report whose thread confirmed this cause (acme/launcher#2)" in text
    assert "1 reports" not in text and "harmless" not in text
