"""The commit step of "Fix it…": the plan in words, demo mode writing nothing, a real cuDNN
archive applied to a CUDA tree in a temporary folder through the dialog, progress, cancel, undo,
the re-check of the page, and the offer at start to finish or roll back an interrupted fix."""

from __future__ import annotations

import sys
import threading
from pathlib import Path

import pytest
from conftest import SHARED_PROFILES
from helpers import WAIT_MS

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "core"))
import fix_archives as fa  # noqa: E402

from wizard.core.fixes import journal as journals  # noqa: E402
from wizard.core.fixes.cudnn import CudnnRequest, plan_cudnn  # noqa: E402
from wizard.core.host import LocalHost, ReplayHost  # noqa: E402
from wizard.core.model import Finding, Fix  # noqa: E402
from wizard.widgets import fix_dialog  # noqa: E402

PROFILE = SHARED_PROFILES / "win-tf210-cudnn-never-copied.json"

pytestmark = pytest.mark.usefixtures("fix_gui_state")


def cudnn_finding(dest: Path) -> Finding:
    return Finding("cudnn_missing", severity="fail", params={"cudnn": "8.1", "cuda": "11.2"},
                   fix=Fix(action="install_cudnn",
                           action_params={"dest": str(dest), "cudnn": "8.1", "cuda": "11.2"}))


def wait_state(qtbot, dialog, *states) -> None:
    qtbot.waitUntil(lambda: dialog.state in states, timeout=WAIT_MS)


class GatedHost(LocalHost):
    """A LocalHost whose first file write waits until the test lets it go (to cancel mid-apply
    at a known moment, without timing)."""

    def __init__(self) -> None:
        super().__init__()
        self.started, self.go = threading.Event(), threading.Event()

    def write_file(self, path, chunks, temp=None):  # noqa: ANN001 - the Host's signature
        self.started.set()
        self.go.wait(30)
        return super().write_file(path, chunks, temp=temp)


def test_demo_walk_shows_the_plan_and_writes_nothing(qtbot, tmp_path: Path, state: Path):
    from wizard import app as wizard_app
    from wizard.pages.ids import LAYER_PAGES

    wiz = wizard_app.build_wizard(ReplayHost.from_file(PROFILE), language="en")
    qtbot.addWidget(wiz)
    try:
        wiz.show_layer("cudnn")
        assert wiz.currentId() == LAYER_PAGES["cudnn"]
        page = wiz.currentPage()
        qtbot.waitUntil(page.isComplete, timeout=WAIT_MS)
        cards = [c for c in page.cards if c.finding.fix.action == "install_cudnn"]
        assert cards and cards[0].action_button is not None
        cards[0].action_button.click()
        dialog = wiz.fix_controller.dialog
        assert dialog.demo and dialog.state == fix_dialog.PLANNING  # NVIDIA's download first
        assert "nothing will be changed" in dialog.intro.text()
        wait_state(qtbot, dialog, fix_dialog.PLANNED, fix_dialog.REFUSED)
        assert dialog.state == fix_dialog.PLANNED, dialog.status_text()
        text = dialog.plan_text()
        assert "https://developer.download.nvidia.com/" in text and "sha256" in text
        assert "cudnn-11.2-windows-x64-v8.1.0.77.zip" in text and "C:\\Program Files" in text
        assert not dialog.apply_button.isVisible()
        assert dialog.choose_button.isVisible() and "archive I have" in dialog.choose_button.text()
        archive = fa.windows_zip(tmp_path, "8.1.1.33", "11.2", layout="old")
        dialog.choose_file(str(archive))
        wait_state(qtbot, dialog, fix_dialog.PLANNED, fix_dialog.REFUSED)
        assert dialog.state == fix_dialog.PLANNED, dialog.status_text()
        text = dialog.plan_text()
        dest = cards[0].finding.fix.action_params["dest"]
        assert "Install cuDNN 8.1.1" in text and dest in text and "cudnn64_8.dll" in text
        assert "nothing will be changed" in dialog.intro.text() and dialog.intro.isVisible()
        assert not dialog.apply_button.isVisible() and not dialog.undo_button.isVisible()
        dialog.apply()  # no button writes anything; nor does calling it
        assert dialog.state == fix_dialog.PLANNED
        assert not state.exists() or not journals.journals()
        dialog.reject()
    finally:
        assert wiz.shutdown(10000)


def test_live_apply_progress_result_and_undo(qtbot, tmp_path: Path, workers):
    cuda = fa.cuda_tree(tmp_path / "cuda-11.2")
    archive = fa.linux_tar(tmp_path, "8.6.0.163", cuda=11)
    before = fa.tree_hash(cuda)
    changed: list[str] = []
    dialog = fix_dialog.FixDialog(cudnn_finding(cuda), LocalHost(), workers,
                                  on_changed=lambda: changed.append(dialog.state))
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.choose_button.isVisible() and not dialog.apply_button.isVisible()
    dialog.choose_file(str(archive))
    wait_state(qtbot, dialog, fix_dialog.PLANNED, fix_dialog.REFUSED)
    assert dialog.state == fix_dialog.PLANNED, dialog.status_text()
    assert str(cuda / "lib64" / "libcudnn.so.8.6.0") in dialog.plan_text()
    assert "Replace" in dialog.plan_text()  # the old include/cudnn.h
    assert fa.tree_hash(cuda) == before  # the plan changes nothing
    values: list[int] = []
    dialog.progress.valueChanged.connect(values.append)
    assert dialog.apply_button.isVisible() and dialog.apply_button.isEnabled()
    dialog.apply_button.click()
    assert dialog.cancel_button.isVisible()
    wait_state(qtbot, dialog, fix_dialog.DONE, fix_dialog.FAILED)
    assert dialog.state == fix_dialog.DONE, dialog.status_text()
    assert any(0 < v < 1000 for v in values) and dialog.progress.value() == 1000
    assert "Done" in dialog.status_text() and "cuDNN 8.6.0 is complete" in dialog.status_text()
    assert fa.tree_hash(cuda) != before
    assert changed == [fix_dialog.DONE]
    assert dialog.undo_button.isVisible() and dialog.undo_button.isEnabled()
    dialog.undo_button.click()
    wait_state(qtbot, dialog, fix_dialog.UNDONE, fix_dialog.DONE)
    assert dialog.state == fix_dialog.UNDONE, dialog.status_text()
    assert fa.tree_hash(cuda) == before
    assert "Undone" in dialog.status_text() and not dialog.undo_button.isVisible()
    assert changed == [fix_dialog.DONE, fix_dialog.UNDONE]
    assert journals.journals()[-1].status == journals.UNDONE


def test_cancel_mid_apply_leaves_the_tree_unchanged(qtbot, tmp_path: Path, workers):
    cuda = fa.cuda_tree(tmp_path / "cuda-11.2")
    archive = fa.linux_tar(tmp_path, "8.6.0.163", cuda=11)
    before = fa.tree_hash(cuda)
    host = GatedHost()
    dialog = fix_dialog.FixDialog(cudnn_finding(cuda), host, workers)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.choose_file(str(archive))
    wait_state(qtbot, dialog, fix_dialog.PLANNED, fix_dialog.REFUSED)
    dialog.apply()
    qtbot.waitUntil(host.started.is_set, timeout=WAIT_MS)
    assert dialog.state == fix_dialog.APPLYING and not dialog.close_button.isEnabled()
    dialog.cancel_button.click()
    assert "Cancelling" in dialog.status_text()
    host.go.set()
    wait_state(qtbot, dialog, fix_dialog.FAILED, fix_dialog.DONE)
    assert dialog.state == fix_dialog.FAILED
    assert "Cancelled" in dialog.status_text()
    assert fa.tree_hash(cuda) == before
    assert journals.journals()[-1].status == journals.ROLLED_BACK
    assert not dialog.undo_button.isVisible()


def test_refused_archive_says_why_in_chinese(qtbot, qapp, tmp_path: Path, workers):
    from wizard import i18n

    cuda = fa.cuda_tree(tmp_path / "cuda-11.2")
    archive = fa.linux_tar(tmp_path, "8.9.7.29", cuda=12)  # for CUDA 12: refused
    before = fa.tree_hash(cuda)
    previous = i18n.current_language()
    i18n.install_language(qapp, "zh_CN")
    try:
        dialog = fix_dialog.FixDialog(cudnn_finding(cuda), LocalHost(), workers)
        qtbot.addWidget(dialog)
        dialog.choose_file(str(archive))
        wait_state(qtbot, dialog, fix_dialog.PLANNED, fix_dialog.REFUSED)
        assert dialog.state == fix_dialog.REFUSED
        assert "无法执行此修复" in dialog.status_text() and "12" in dialog.status_text()
        assert dialog.choose_button.isEnabled()  # another archive can be chosen
        assert dialog.apply_button.isHidden()
    finally:
        i18n.install_language(qapp, previous)
    assert fa.tree_hash(cuda) == before


def interrupted(tmp_path: Path) -> tuple[Path, str, journals.Journal]:
    """A cuDNN fix that stopped after a few files, as after a crash (status "applying")."""
    cuda = fa.cuda_tree(tmp_path / "cuda-11.2")
    archive = fa.linux_tar(tmp_path, "8.6.0.163", cuda=11)
    before = fa.tree_hash(cuda)
    host = LocalHost()
    plan = plan_cudnn(host, CudnnRequest(str(archive), str(cuda), cudnn_needed="8.1"))
    journal = journals.Journal.create(plan)
    calls = []
    with pytest.raises(journals.FixCancelled):
        journals._run(host, journal, lambda f, t: None,
                      lambda: calls.append(1) or len(calls) > 8)
    assert journal.status == journals.APPLYING and fa.tree_hash(cuda) != before
    return cuda, before, journal


def test_recovery_at_start_rolls_back(qtbot, tmp_path: Path):
    cuda, before, journal = interrupted(tmp_path)
    seen: list[str] = []

    def choose(box):
        seen.append(box.text())
        return getattr(box, "rollback_button", None)

    assert fix_dialog.offer_recovery(LocalHost(), None, choose) == "rolled_back"
    assert "was interrupted" in seen[0] and journal.id in seen[0]
    assert "rolled back" in seen[1]
    assert fa.tree_hash(cuda) == before
    assert not journals.unfinished()
    assert fix_dialog.offer_recovery(LocalHost(), None, choose) is None  # nothing left


def test_recovery_at_start_finishes(qtbot, tmp_path: Path):
    cuda, before, journal = interrupted(tmp_path)
    result = fix_dialog.offer_recovery(LocalHost(), None,
                                       lambda box: getattr(box, "finish_button", None))
    assert result == "finished"
    assert journals.Journal.load(journal.folder).status == journals.DONE
    assert (cuda / "lib64" / "libcudnn.so.8.6.0").read_bytes() == fa.payload("libcudnn.so.8")


def test_recovery_later_and_demo_mode_change_nothing(qtbot, tmp_path: Path):
    cuda, _before, journal = interrupted(tmp_path)
    middle = fa.tree_hash(cuda)
    assert fix_dialog.offer_recovery(ReplayHost.from_file(PROFILE), None,
                                     lambda box: box.rollback_button) is None
    assert fix_dialog.offer_recovery(LocalHost(), None, lambda box: None) == "later"
    assert fa.tree_hash(cuda) == middle and journals.unfinished()[0].id == journal.id


def test_after_a_fix_the_page_checks_its_layer_again(qtbot, tmp_path: Path):
    from wizard import app as wizard_app

    wiz = wizard_app.build_wizard(ReplayHost.from_file(PROFILE), language="en")
    qtbot.addWidget(wiz)
    try:
        wiz.show_layer("cudnn")
        page = wiz.currentPage()
        qtbot.waitUntil(page.isComplete, timeout=WAIT_MS)
        first = page.result
        tf_first = wiz.session.result("tensorflow")
        card = next(c for c in page.cards if c.finding.fix.action == "install_cudnn")
        card.action_button.click()
        dialog = wiz.fix_controller.dialog
        dialog.on_changed()  # what a finished fix or undo calls
        assert page.is_running()
        qtbot.waitUntil(page.isComplete, timeout=WAIT_MS)
        assert page.result is not first  # checked again
        if tf_first is not None:
            assert wiz.session.result("tensorflow") is not tf_first
        dialog.reject()
    finally:
        assert wiz.shutdown(10000)


def test_root_owned_destination_on_linux_says_what_to_run(qtbot, tmp_path: Path, workers,
                                                          monkeypatch):
    cuda = fa.cuda_tree(tmp_path / "cuda-11.2")
    archive = fa.linux_tar(tmp_path, "8.6.0.163", cuda=11)
    before = fa.tree_hash(cuda)
    monkeypatch.setattr(LocalHost, "dir_writable", lambda self, path: False)
    dialog = fix_dialog.FixDialog(cudnn_finding(cuda), LocalHost(), workers)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.choose_file(str(archive))
    wait_state(qtbot, dialog, fix_dialog.PLANNED, fix_dialog.REFUSED)
    assert dialog.state == fix_dialog.PLANNED and dialog.needs_sudo()
    note = dialog.note.text()
    assert "belongs to the administrator" in note and "sudo gpu-wizard fix cudnn" in note
    assert str(archive) in note and "--var LD_LIBRARY_PATH" in note
    assert not dialog.apply_button.isEnabled()
    dialog.apply()
    assert dialog.state == fix_dialog.PLANNED and fa.tree_hash(cuda) == before
    assert not journals.journals()


def test_path_fix_plans_at_once_and_follows_the_language(qtbot, qapp, workers):
    from PySide6.QtCore import QCoreApplication

    from wizard import i18n
    from wizard.core.diagnose import CheckOptions, run_check

    host = ReplayHost.from_file(SHARED_PROFILES / "win-cuda112-not-on-path.json")
    report = run_check(host, CheckOptions())
    finding = next(f for layer in report.layers for f in layer.findings
                   if f.fix.action == "set_env" and f.code == "cuda_not_on_path")
    dialog = fix_dialog.FixDialog(finding, host, workers)
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.choose_button.isHidden()  # nothing to choose: the plan comes at once
    wait_state(qtbot, dialog, fix_dialog.PLANNED, fix_dialog.REFUSED)
    assert "to PATH for new terminals" in dialog.plan_text()
    assert "HKCU\\Environment" in dialog.plan_text()
    previous = i18n.current_language()
    try:
        i18n.install_language(qapp, "zh_CN")
        QCoreApplication.processEvents()
        assert "为新终端把" in dialog.plan_text()
        assert "to PATH for new terminals" not in dialog.plan_text()
        assert "演示模式" in dialog.intro.text()
    finally:
        i18n.install_language(qapp, previous)
        QCoreApplication.processEvents()
    assert "nothing will be changed" in dialog.intro.text()
    assert not journals.journals()


def test_zlibwapi_demo_asks_for_the_dll_and_shows_where_it_goes(qtbot, tmp_path: Path, workers):
    from wizard.core.diagnose import CheckOptions, run_check

    host = ReplayHost.from_file(SHARED_PROFILES / "win-cudnn89-no-zlibwapi.json")
    report = run_check(host, CheckOptions())
    finding = next(f for layer in report.layers for f in layer.findings
                   if f.fix.action == "install_zlibwapi")
    dialog = fix_dialog.FixDialog(finding, host, workers)
    qtbot.addWidget(dialog)
    assert dialog.state == fix_dialog.NEED_INPUT and "zlibwapi.dll" in dialog.needs_label.text()
    not_a_dll = tmp_path / "zlibwapi.dll"
    not_a_dll.write_bytes(b"not a DLL")
    dialog.choose_file(str(not_a_dll))
    wait_state(qtbot, dialog, fix_dialog.PLANNED, fix_dialog.REFUSED)
    assert dialog.state == fix_dialog.REFUSED and "cannot run" in dialog.status_text()
    not_a_dll.write_bytes(b"MZ" + bytes(200))
    dialog.choose_file(str(not_a_dll))
    wait_state(qtbot, dialog, fix_dialog.PLANNED)
    assert finding.fix.action_params["dest"] in dialog.plan_text()
    assert "zlibwapi.dll" in dialog.plan_text() and dialog.apply_button.isHidden()
