"""Issue 10 follow-up: core's refusals worded for the command line ("give the CUDA folder with
--cuda-dir", "--force installs it anyway") have a GUI wording beside them (``id.gui``), which
the GUI renders (``texts.render_message``) and the CLI never does."""

from __future__ import annotations

import re
import string
import sys
from pathlib import Path

import pytest
from helpers import WAIT_MS

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "core"))
import fix_archives as fa  # noqa: E402

from wizard import i18n, texts  # noqa: E402
from wizard.core import messages  # noqa: E402
from wizard.core.fixes import journal as journals  # noqa: E402
from wizard.core.host import LocalHost  # noqa: E402
from wizard.core.messages import LANGUAGES, Message, msg, render  # noqa: E402
from wizard.core.model import Finding, Fix  # noqa: E402
from wizard.widgets import fix_dialog  # noqa: E402

GUI_IDS = sorted(i for i in messages._entries() if i.endswith(messages.GUI_SUFFIX))
CLI_WORDS = re.compile(r"(?<![\w/-])--[a-z]|gpu-wizard ")
"""An option or a subcommand: what a GUI wording never names."""


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.fixture(autouse=True)
def state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(journals.STATE_ENV, str(tmp_path / "state"))


@pytest.fixture(params=LANGUAGES)
def lang(request, qapp):
    previous = i18n.current_language()
    i18n.install_language(qapp, request.param)
    yield request.param
    i18n.install_language(qapp, previous)


def test_the_refusals_the_dialogs_show_have_a_gui_wording() -> None:
    for base in ("fix.refuse.no_cuda_dir", "fix.refuse.no_cuda_found", "fix.refuse.wrong_cuda",
                 "fix.refuse.tf_cannot_load", "download.refuse.no_archive",
                 "download.error.host", "installs.cuda.no_installer",
                 "installs.refuse.probe_failed", "fix.plan.zlibwapi_needed"):
        assert base + messages.GUI_SUFFIX in GUI_IDS, base


@pytest.mark.parametrize("gui_id", GUI_IDS)
def test_each_gui_wording_stands_beside_its_cli_one(gui_id: str) -> None:
    """Same values as the command line's wording (either can be rendered from one Message),
    every language, and no option or subcommand in it."""
    base = gui_id[:-len(messages.GUI_SUFFIX)]
    assert messages.has(base), gui_id
    for lang in LANGUAGES:
        gui, cli = messages.template(gui_id, lang), messages.template(base, lang)
        assert _fields(gui) <= _fields(messages.template(base, "en")), (gui_id, lang)
        assert not CLI_WORDS.search(gui), (gui_id, lang, gui)
        assert gui != cli, (gui_id, lang)


def test_the_gui_renders_its_wording_and_the_cli_keeps_its_own(lang: str) -> None:
    refusal = msg("fix.refuse.no_cuda_dir", dir="/opt/cuda-11.2")
    wrapped = msg("fixgui.refused", reason=refusal)  # how the dialog shows it
    for message in (refusal, wrapped, [refusal]):
        shown = texts.render_message(message)
        assert "/opt/cuda-11.2" in shown and "--cuda-dir" not in shown, shown
        assert shown == render(messages.for_gui(message), lang)
    assert "--cuda-dir" in render(refusal, lang)  # the command line's words stay
    assert "--cuda-dir" in str(refusal)
    assert texts.render_message(msg("fix.cancelled")) == render(msg("fix.cancelled"), lang)
    assert isinstance(messages.for_gui(Message("no.such.id")), Message)


def _cudnn_finding(dest: Path) -> Finding:
    return Finding("cudnn_missing", severity="fail", params={"cudnn": "8.1", "cuda": "11.2"},
                   fix=Fix(action="install_cudnn",
                           action_params={"dest": str(dest), "cudnn": "8.1", "cuda": "11.2"}))


def test_a_download_into_a_missing_toolkit_says_it_the_gui_way(qtbot, tmp_path: Path, workers,
                                                                lang: str) -> None:
    dialog = fix_dialog.FixDialog(_cudnn_finding(tmp_path / "no-cuda-here"), LocalHost(),
                                  workers)
    qtbot.addWidget(dialog)
    qtbot.waitUntil(lambda: dialog.state in (fix_dialog.PLANNED, fix_dialog.REFUSED),
                    timeout=WAIT_MS)
    assert dialog.state == fix_dialog.REFUSED
    text = dialog.status_text()
    expected = texts.render_message(msg("fix.refuse.no_cuda_dir", dir=str(tmp_path /
                                                                           "no-cuda-here")))
    assert expected in text, text
    assert not CLI_WORDS.search(text), text


def test_a_refused_archive_offers_the_dialogs_way_not_force(qtbot, tmp_path: Path, workers,
                                                            lang: str) -> None:
    cuda = fa.cuda_tree(tmp_path / "cuda-11.2")
    archive = fa.linux_tar(tmp_path, "8.9.7.29", cuda=12)  # for CUDA 12: refused
    dialog = fix_dialog.FixDialog(_cudnn_finding(cuda), LocalHost(), workers)
    qtbot.addWidget(dialog)
    dialog.choose_file(str(archive))
    qtbot.waitUntil(lambda: dialog.state in (fix_dialog.PLANNED, fix_dialog.REFUSED),
                    timeout=WAIT_MS)
    assert dialog.state == fix_dialog.REFUSED
    text = dialog.status_text()
    assert "12" in text and "--force" not in text and not CLI_WORDS.search(text), text
    button = texts.render_message(msg("fixgui.download_instead"))
    assert button in text, (button, text)  # names the dialog's own button
