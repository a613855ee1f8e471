"""Issue 7 ("Trust"), wrong facts: what the wizard tells a user must be true of their machine
and their input (the Python series in the cuda layer's facts, strict ``compat`` versions,
OS-consistent ``explain`` steps, no maintainer notes in user text, steps that do not install TF
into a Python that cannot run it, and logs in every encoding a Windows shell writes)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from wizard.core.diagnose import run_check
from wizard.core.host import ReplayHost
from wizard.core.knowledge.versions import series

PROFILES = sorted((Path(__file__).resolve().parents[1] / "profiles").glob("*.json"))


def _report(path: Path):
    return run_check(ReplayHost.from_file(str(path))).to_dict()


def _layer(report: dict, name: str) -> dict:
    return next(layer for layer in report["layers"] if layer["layer"] == name)


# -- the cuda layer's env.python is the environment's Python series -----------------------------

@pytest.mark.parametrize("path", PROFILES, ids=lambda p: p.stem)
def test_cuda_env_python_is_the_python_series(path: Path) -> None:
    profile = json.loads(path.read_text(encoding="utf-8"))
    env = _layer(_report(path), "cuda")["facts"].get("env")
    if not env:
        return
    versions = [((p.get("probe") or {}).get("python") or {}).get("version")
                for p in profile.get("pythons", [])]
    versions = [series(v) for v in versions if v]
    assert env["python"] is None or env["python"] in versions, env
    assert env["python"] is None or env["python"].count(".") == 1, env


# -- compat and --tf: a version that is not one is an error (exit 2), never a guess -------------

def _cli(capsys, *argv: str) -> tuple[int, str, str]:
    from wizard import cli

    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    "argv, named, hint",
    [
        (["--cuda", "11.x"], "'11.x'", "11.2"),
        (["--cuda", "12.abc"], "'12.abc'", "12.5"),
        (["--cuda", ""], "''", "11.2"),
        (["--cuda", "12"], "'12'", "12.0, 12.1"),
        (["--tf", "2.10", "--cuda", "11.x"], "'11.x'", "11.2"),
        (["--tf", "2.x"], "'2.x'", "known series: 1.0 ... 2.21"),
        (["--tf", ""], "''", "known series"),
        (["--tf", "2.10.5"], "2.10.5", "2.10.0, 2.10.1"),
        (["--tf", "2.16.0"], "2.16.0", "2.16.1, 2.16.2"),
        (["--tf", "2.30"], "2.30", "known: 1.0 ... 2.21"),
        (["--tf", "v2.10"], "'v2.10'", "2.21"),
    ],
)
def test_compat_rejects_what_is_not_a_version(capsys, argv, named, hint) -> None:
    code, out, err = _cli(capsys, "compat", *argv, "--os", "linux")
    assert code == 2, out
    assert out == ""
    assert named in err and hint in err, err


def test_compat_known_patch_release_is_shown_as_asked(capsys) -> None:
    code, out, _ = _cli(capsys, "compat", "--tf", "2.10.1", "--os", "windows", "--json")
    assert code == 0
    answer = json.loads(out)
    assert answer["tensorflow"] == "2.10.1" and answer["cuda"] == "11.2"
    code, out, _ = _cli(capsys, "compat", "--tf", "2.15.0.post1", "--os", "linux", "--json")
    assert code == 0 and json.loads(out)["series"] == "2.15"


def test_compat_release_candidate_says_which_releases_answer(capsys) -> None:
    code, out, _ = _cli(capsys, "compat", "--tf", "2.16.0rc0", "--os", "linux", "--json")
    assert code == 0
    answer = json.loads(out)
    assert answer["tensorflow"] == "2.16.0rc0"  # not silently "2.16.1"
    assert "pre-release" in answer["notes"][0] and "2.16.1, 2.16.2" in answer["notes"][0]


@pytest.mark.parametrize("tf", ["2.x", "", "2.10.5", "2.16.0", "12.abc"])
def test_check_tf_is_as_strict_as_compat(capsys, tf) -> None:
    profile = str(PROFILES[0].parent / "wsl2-healthy.json")
    code, out, err = _cli(capsys, "check", "--profile", profile, "--tf", tf)
    assert code == 2 and out == ""
    assert repr(tf) in err or tf in err


def test_choose_target_strict_and_lenient_where_it_should_be() -> None:
    from wizard.core import knowledge

    with pytest.raises(ValueError, match="2.10.0, 2.10.1"):
        knowledge.choose_target("windows", requested="2.10.5")
    with pytest.raises(ValueError, match="not a version"):
        knowledge.choose_target("linux", requested="")
    assert knowledge.choose_target("windows", requested="2.10.1").tensorflow == "2.10.1"
    assert knowledge.choose_target("windows", requested="2.10").tensorflow == "2.10.0"
    # What pip installed is a fact, not a request: it maps to its series as before.
    target = knowledge.choose_target("linux", installed="2.16.0rc0")
    assert target.tensorflow == "2.16.0rc0" and target.cuda == "12.3"


# -- notes meant for the data's maintainers never reach users -----------------------------------

MAINTAINER_PHRASES = re.compile(
    r"crawl id|see uncertain|\(inference|never updated|not read in a source", re.IGNORECASE
)


def _all_compat_answers():
    from wizard.core import knowledge

    data = knowledge.compat_data()
    for os_kind in ("windows", "linux", "wsl2"):
        yield knowledge.compat_answer(os_kind=os_kind)
        for tf in knowledge.known_tf_versions("linux"):
            yield knowledge.compat_answer(tf=tf, os_kind=os_kind)
            yield knowledge.compat_answer(tf=tf, cuda="11.2", os_kind=os_kind)
        for cuda in data["cuda_min_driver_ga"]:
            yield knowledge.compat_answer(cuda=cuda, os_kind=os_kind)


def test_no_maintainer_notes_in_any_compat_answer() -> None:
    from wizard.core import knowledge

    count = 0
    for answer in _all_compat_answers():
        count += 1
        for text in (json.dumps(answer, ensure_ascii=False), knowledge.compat_text(answer)):
            found = MAINTAINER_PHRASES.search(text)
            assert not found, (answer["query"], text[max(0, found.start() - 120):found.end()])
    assert count > 150


@pytest.mark.parametrize("path", PROFILES, ids=lambda p: p.stem)
def test_no_maintainer_notes_in_reports(path: Path) -> None:
    from wizard.core import report as report_format

    report = run_check(ReplayHost.from_file(str(path)))
    for text in (report_format.to_json(report), report_format.to_markdown(report),
                 report_format.to_text(report)):
        found = MAINTAINER_PHRASES.search(text)
        assert not found, text[max(0, found.start() - 120):found.end()]


def test_maintainer_notes_stay_in_the_data() -> None:
    from wizard.core import knowledge

    raw = json.dumps(knowledge.compat_data())
    assert "crawl id" in raw and "see uncertain" in raw
