"""Every text a user reads for the machines in tests/profiles/ is Chinese once zh_CN is on:
finding titles, messages, fixes, steps, link titles and layer summaries. A text that comes out
as English (a core sentence the translation does not match) fails here, naming the profile."""

from __future__ import annotations

import os
import re
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest

from wizard import i18n, texts
from wizard.core.diagnose import run_check
from wizard.core.host import ReplayHost

PROFILES = sorted((Path(__file__).resolve().parents[1] / "profiles").glob("*.json"))
CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.fixture()
def chinese(qapp):
    assert i18n.install_language(qapp, "zh_CN")
    yield
    i18n.install_language(qapp, "en")


def _user_texts(report) -> list[tuple[str, str]]:
    found = []
    for layer in report.layers:
        found.append(("summary of " + layer.layer, texts.layer_summary(layer)))
        for finding in layer.findings:
            where = f"{layer.layer}/{finding.code}"
            found.append((where + " title", texts.finding_title(finding.code)))
            found.append((where + " message", texts.finding_message(finding)))
            found.append((where + " fix", texts.finding_fix(finding)))
            found += [(where + " step", texts.step_text(s)) for s in finding.fix.own_steps()]
            found += [(where + " link", texts.link_title(link)) for link in finding.fix.links]
    return found


@pytest.mark.parametrize("path", PROFILES, ids=lambda p: p.stem)
def test_every_text_of_a_profile_is_translated(path: Path, chinese) -> None:
    report = run_check(ReplayHost.from_file(path))
    english = [(where, text) for where, text in _user_texts(report)
               if text.strip() and not CJK.search(text)]
    assert not english, f"{path.stem}: texts left in English: {english}"
