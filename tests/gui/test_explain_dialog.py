""""Explain an error log…" (wizard/widgets/explain_dialog.py): a log pasted or opened, explained
off the GUI thread with the checked machine's OS, TensorFlow and facts, shown as ranked cards, and
copied as the CLI prints it."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import own_profile
from PySide6.QtCore import QMimeData, QPointF, Qt, QTimer, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent, QGuiApplication
from PySide6.QtWidgets import QApplication

from wizard import i18n, texts
from wizard.core import explain, messages
from wizard.widgets import explain_dialog
from wizard.widgets.explain_dialog import DONE, EMPTY, INVALID, ExplainDialog

REPO = Path(__file__).resolve().parents[2]
WAIT_MS = 30000


def _variant(code: str, needle: str) -> str:
    """A real log line from tests/core/explain_variants.jsonl."""
    with open(REPO / "tests" / "core" / "explain_variants.jsonl", encoding="utf-8") as handle:
        for line in handle:
            item = json.loads(line)
            if item["code"] == code and needle in item["log"]:
                return item["log"]
    raise LookupError(f"{code}: {needle}")


CUDNN_LOG = _variant("cudnn_missing", "cudnn64_8.dll")
"""W ... dso_loader.cc:64] Could not load dynamic library 'cudnn64_8.dll'; dlerror: ..."""
NO_DRIVER_LOG = ("RuntimeError: Found no NVIDIA driver on your system. Please check that you have "
                 "an NVIDIA GPU and installed a driver from http://www.nvidia.com/Download/index.aspx")
CUINIT_LOG = ("W tensorflow/stream_executor/cuda/cuda_driver.cc:326] failed call to cuInit: "
              "UNKNOWN ERROR (303)")


@pytest.fixture
def dialog(qtbot, workers):
    made = []

    def make(os_kind="windows", tf="2.10", machine=("nvidia_gpu", "driver_loaded")):
        dlg = ExplainDialog(workers, os_kind, tf, machine)
        qtbot.addWidget(dlg)
        dlg.show()
        made.append(dlg)
        return dlg

    yield make
    for dlg in made:
        dlg.close()


def _explain(qtbot, dlg, text=None):
    if text is not None:
        dlg.log.setPlainText(text)
    worker = dlg.explain()
    assert worker is not None
    qtbot.waitUntil(lambda: dlg.state == DONE, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: all(card.isVisible() for card in dlg.cards), timeout=WAIT_MS)
    return dlg.cards


def test_a_pasted_log_gets_ranked_cards_with_its_log_line(qtbot, dialog):
    dlg = dialog()
    cards = _explain(qtbot, dlg, "2023-01-05 I tensorflow/core/platform/cpu_feature_guard.cc:193]"
                                 " This TensorFlow binary is optimized\n" + CUDNN_LOG)
    first = cards[0]
    assert first.finding.code == "cudnn_missing"
    assert first.title.text() == texts.finding_title("cudnn_missing") == "cuDNN not found"
    assert first.ranked_heading.text() == "Most likely cause"
    assert "Could not load dynamic library 'cudnn64_8.dll'" in first.log_line.text()
    assert first.log_line.isVisibleTo(dlg)
    assert first.fix_summary.text() == texts.finding_fix(first.finding) != ""
    assert first.how_to_tell.text().startswith("How to tell: For TensorFlow 2.10")
    assert first.action_button is None and not first.no_fix.isVisibleTo(dlg)
    assert [c.ranked_heading.text() for c in cards[1:]] == [
        f"Also possible ({n})" for n in range(2, len(cards) + 1)]
    assert dlg.copy_button.isEnabled()


def test_copy_as_text_is_what_the_cli_prints(qtbot, dialog, tmp_path):
    dlg = dialog()
    _explain(qtbot, dlg, CUDNN_LOG)
    QGuiApplication.clipboard().setText("")
    dlg.copy_button.click()
    log = tmp_path / "error.log"
    log.write_text(CUDNN_LOG + "\n", encoding="utf-8")
    cli = subprocess.run(
        [sys.executable, "-m", "wizard", "explain", str(log), "--os", "windows", "--tf", "2.10",
         "--lang", "en"], capture_output=True, text=True, encoding="utf-8", cwd=str(REPO),
        timeout=120, check=True)
    assert QGuiApplication.clipboard().text() == cli.stdout.rstrip("\n") + "\n"
    assert "Most likely cause: cuDNN not found" in QGuiApplication.clipboard().text()
    # the question the bar asks is copied too, as the CLI prints it
    asked = dlg.question.question
    assert asked is not None and asked.option("yes") in QGuiApplication.clipboard().text()
    assert dlg.copy_status.text() != ""


def test_ctrl_return_explains(qtbot, dialog, monkeypatch):
    opened = []
    monkeypatch.setattr(explain_dialog, "ask_open_path", lambda parent: opened.append(1) or "")
    dlg = dialog()
    dlg.log.setPlainText(CUDNN_LOG)
    dlg.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is dlg, timeout=5000)
    dlg.log.setFocus()
    qtbot.keyClick(dlg.log, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: dlg.state == DONE, timeout=WAIT_MS)
    assert dlg.cards[0].finding.code == "cudnn_missing"
    assert dlg.log.toPlainText() == CUDNN_LOG  # the key explained, it did not add a line
    dlg.tf_edit.setText("2.10.1")
    qtbot.keyClick(dlg.tf_edit, Qt.Key.Key_Return)  # Enter in the version field explains too
    qtbot.waitUntil(lambda: dlg.state == DONE, timeout=WAIT_MS)
    assert "For TensorFlow 2.10.1" in dlg.cards[0].how_to_tell.text()
    assert opened == []  # Enter is Explain, never the file dialog


def test_the_keyboard_reaches_every_control_in_order(qtbot, dialog):
    dlg = dialog()
    order, widget = [], dlg.log
    for _ in range(12):
        order.append(widget)
        widget = widget.nextInFocusChain()
        while not widget.focusPolicy() & Qt.FocusPolicy.TabFocus or not widget.isVisibleTo(dlg):
            widget = widget.nextInFocusChain()
    assert order[:11] == [dlg.log, dlg.open_button, dlg.os_box, dlg.tf_edit, dlg.python_edit,
                          dlg.cuda_edit, dlg.gpu_edit, dlg.machine_box, dlg.explain_button,
                          dlg.copy_button, dlg.answer]
    assert dlg.log.tabChangesFocus()
    for widget in (dlg.log, dlg.open_button, dlg.os_box, dlg.tf_edit, dlg.python_edit,
                   dlg.cuda_edit, dlg.gpu_edit, dlg.explain_button, dlg.copy_button):
        assert widget.accessibleName(), widget.objectName()


def test_an_empty_paste_asks_for_a_log(qtbot, dialog):
    dlg = dialog()
    dlg.log.setPlainText("  \n\n ")
    assert dlg.explain() is None
    assert dlg.state == EMPTY and not dlg.cards
    assert dlg.status.text() == messages.render(messages.msg("explaingui.empty"))
    assert not dlg.copy_button.isEnabled()


def test_a_log_with_nothing_known_says_so_with_the_hint(qtbot, dialog):
    dlg = dialog()
    cards = _explain(qtbot, dlg, "Epoch 1/10\n100/100 [======] - loss: 0.25 - accuracy: 0.91")
    assert cards == []
    assert dlg.status.text() == messages.render(messages.msg("explain.text.nothing_found"))
    assert "gpu-wizard check" in dlg.hint.text() and dlg.hint.isVisibleTo(dlg)


@pytest.mark.parametrize("given, words", [
    ("2.x", ["“2.x” is not a version number", "2.10"]),
    ("2.10.5", ["TensorFlow 2.10.5 is not a release", "2.10.0, 2.10.1"]),
    ("2.99", ["TensorFlow 2.99 is not in the wizard's tables"]),
])
def test_an_invalid_tensorflow_version_shows_why_beside_the_field(qtbot, dialog, given, words):
    dlg = dialog()
    dlg.log.setPlainText(CUDNN_LOG)
    dlg.tf_edit.setText(given)
    assert dlg.tf_reason.isVisibleTo(dlg)
    for word in words:
        assert word in dlg.tf_reason.text()
    assert dlg.explain() is None
    assert dlg.state == INVALID and not dlg.cards and dlg.focusWidget() is dlg.tf_edit
    dlg.tf_edit.setText("2.10")
    assert not dlg.tf_reason.isVisibleTo(dlg)
    assert _explain(qtbot, dlg)[0].finding.code == "cudnn_missing"


def test_the_tensorflow_version_reaches_the_engine(qtbot, dialog):
    dlg = dialog(tf="")
    assert "For TensorFlow" not in _explain(qtbot, dlg, CUDNN_LOG)[0].how_to_tell.text()
    dlg.tf_edit.setText("2.10.1")
    assert "For TensorFlow 2.10.1" in _explain(qtbot, dlg)[0].how_to_tell.text()


PIP_NO_TF = ("ERROR: Could not find a version that satisfies the requirement tensorflow==2.2.0 "
             "(from versions: none)\nERROR: No matching distribution found for tensorflow==2.2.0")


def test_the_python_version_reaches_the_engine(qtbot, dialog):
    """TF 2.2 has builds for Python 3.5-3.8: pip finding none for a 3.7 is the word size, for a
    3.9 the version (decided: no question)."""
    dlg = dialog(tf="", machine=())
    assert dlg.python_label.buddy() is dlg.python_edit and dlg.python_edit.accessibleName()
    assert _explain(qtbot, dlg, PIP_NO_TF)[0].finding.code == "python_version_unsupported"
    assert dlg.question.question is not None  # the 64-bit question asks
    dlg.python_edit.setText("3.7.4")
    first = _explain(qtbot, dlg)[0]
    assert first.finding.code == "python_32bit" and "3.5-3.8" in first.fix_summary.text()
    dlg.python_edit.setText("3.9")
    cards = _explain(qtbot, dlg)
    assert cards[0].finding.code == "python_version_unsupported"
    assert "Python 3.9 cannot run TensorFlow 2.2" in cards[0].message.text()
    assert not dlg.question.isVisibleTo(dlg)


def test_an_invalid_python_version_shows_why_beside_the_field(qtbot, dialog):
    dlg = dialog()
    dlg.log.setPlainText(PIP_NO_TF)
    dlg.python_edit.setText("three")
    assert dlg.python_reason.isVisibleTo(dlg) and "“three”" in dlg.python_reason.text()
    assert dlg.explain() is None
    assert dlg.state == INVALID and not dlg.cards and dlg.focusWidget() is dlg.python_edit
    assert dlg.status.text() == messages.render(messages.msg("explaingui.fix_python"))
    dlg.python_edit.setText("")
    assert not dlg.python_reason.isVisibleTo(dlg)
    assert _explain(qtbot, dlg)[0].finding.code == "python_version_unsupported"


CUDART_101_LOG = ("ImportError: libcudart.so.10.1: cannot open shared object file: No such file "
                  "or directory")


def test_the_cuda_toolkit_given_reaches_the_engine(qtbot, dialog):
    """The toolkit installed against the library's CUDA: the same CUDA is a loader path on
    Linux, another CUDA a program built for another."""
    dlg = dialog(os_kind="linux", tf="", machine=())
    assert dlg.cuda_label.buddy() is dlg.cuda_edit and dlg.cuda_edit.accessibleName()
    dlg.cuda_edit.setText("10.1")
    assert _explain(qtbot, dlg, CUDART_101_LOG)[0].finding.code == "cuda_not_on_path"
    dlg.cuda_edit.setText("10.0.130")
    first = _explain(qtbot, dlg)[0]
    assert first.finding.code == "cuda_version_mismatch"
    assert "installed is 10.0" in messages.render(first.finding.params["detail"], "en")


def test_the_gpu_named_answers_the_nvidia_question_and_beats_the_check(qtbot, dialog):
    dlg = dialog(os_kind="linux", tf="", machine=("checked", "nvidia_gpu", "driver_loaded"))
    assert dlg.gpu_label.buddy() is dlg.gpu_edit and dlg.gpu_edit.accessibleName()
    assert "no_nvidia_gpu" not in [c.finding.code for c in _explain(qtbot, dlg, NO_DRIVER_LOG)]
    dlg.gpu_edit.setText("AMD Radeon RX 570")
    assert dlg.known_facts() == ["driver_loaded", "no_nvidia_gpu"]
    assert _explain(qtbot, dlg)[0].finding.code == "no_nvidia_gpu"
    assert not dlg.question.isVisibleTo(dlg)  # the name answered the question it would ask
    dlg.gpu_edit.setText("GeForce RTX 3060")
    assert _explain(qtbot, dlg)[0].finding.code == "no_driver_or_nvidia_smi_missing"


@pytest.mark.parametrize(("field", "given", "fix"), [
    ("cuda", "11", "explaingui.fix_cuda"), ("gpu", "my laptop", "explaingui.fix_gpu")])
def test_a_refused_cuda_or_gpu_shows_why_beside_the_field(qtbot, qapp, dialog, field, given,
                                                          fix):
    dlg = dialog()
    dlg.log.setPlainText(CUDART_101_LOG)
    edit, reason = getattr(dlg, f"{field}_edit"), getattr(dlg, f"{field}_reason")
    edit.setText(given)
    assert reason.isVisibleTo(dlg) and f"“{given}”" in reason.text()
    assert dlg.explain() is None
    assert dlg.state == INVALID and not dlg.cards and dlg.focusWidget() is edit
    assert dlg.status.text() == messages.render(messages.msg(fix))
    try:
        assert i18n.install_language(qapp, "zh_CN")
        qapp.processEvents()
        refused = "不是 CUDA Toolkit 版本号" if field == "cuda" else "看不出是哪家的 GPU"
        assert f"“{given}”" in reason.text() and refused in reason.text()
        assert dlg.gpu_label.text() == "显卡(&G)："
        assert dlg.cuda_label.text() == "CUDA Toolkit(&U)："
    finally:
        i18n.install_language(qapp, "en")
    qapp.processEvents()
    edit.setText("")
    assert not reason.isVisibleTo(dlg)
    assert _explain(qtbot, dlg)[0].finding.code


def test_a_refusal_wrapped_over_lines_is_never_clipped(qtbot, qapp, dialog):
    """QSplitter sizes the upper pane from its minimum size: a long refusal beside a field
    (Chinese, a narrow dialog) wraps over lines the pane then makes room for."""
    dlg = dialog()
    dlg.resize(720, 700)
    try:
        assert i18n.install_language(qapp, "zh_CN")
        dlg.cuda_edit.setText("11")
        dlg.gpu_edit.setText("my laptop")
        qtbot.waitUntil(lambda: dlg.gpu_reason.isVisible() and dlg.cuda_reason.isVisible())
        qtbot.waitUntil(lambda: dlg.reasons_short_of_room() == 0, timeout=5000)
        assert dlg.gpu_reason.height() > 2 * dlg.gpu_reason.fontMetrics().height()
        assert dlg.splitter.sizes()[1] >= sum(dlg.splitter.sizes()) // 3
    finally:
        i18n.install_language(qapp, "en")


def test_macos_is_a_choice_and_changes_the_answer(qtbot, dialog):
    dlg = dialog(os_kind="linux", tf="", machine=())
    assert _explain(qtbot, dlg, CUINIT_LOG)[0].finding.code == "no_driver_or_nvidia_smi_missing"
    dlg.set_os("macos")
    assert dlg.os_kind() == "macos" and dlg.os_box.currentText() == "macOS"
    assert _explain(qtbot, dlg)[0].finding.code == "no_nvidia_gpu"


def test_the_machine_facts_narrow_the_candidates_and_follow_the_os(qtbot, dialog):
    dlg = dialog(os_kind="linux", tf="", machine=("checked", "nvidia_gpu", "driver_loaded"))
    assert dlg.machine_facts() == ["nvidia_gpu", "driver_loaded"]  # never "checked"
    codes = [c.finding.code for c in _explain(qtbot, dlg, NO_DRIVER_LOG)]
    assert "no_nvidia_gpu" not in codes  # this computer has one
    dlg.set_os("windows")  # a log from another computer: the check's facts do not apply
    assert not dlg.machine_box.isChecked() and dlg.machine_facts() == []
    assert _explain(qtbot, dlg)[0].finding.code == "no_nvidia_gpu"


def test_a_binary_file_is_refused_with_one_line(qtbot, dialog, tmp_path, monkeypatch):
    dlg = dialog()
    dlg.log.setPlainText("kept")
    binary = tmp_path / "model.bin"
    binary.write_bytes(bytes(range(256)) * 64)
    monkeypatch.setattr(explain_dialog, "ask_open_path", lambda parent: str(binary))
    dlg.open_button.click()
    assert dlg.file_status.text() == (
        f"{binary} is not a text log (it holds binary data): open the .log or .txt file your "
        "program wrote, or paste its output.")
    assert dlg.log.toPlainText() == "kept"


def test_a_missing_file_names_the_file_and_the_reason(qtbot, dialog, tmp_path):
    dlg = dialog()
    missing = tmp_path / "gone.log"
    assert not dlg.load_file(str(missing))
    assert dlg.file_status.text().startswith(f"Cannot read {missing}: ")
    assert "Traceback" not in dlg.file_status.text()
    dlg.log.setPlainText(CUDNN_LOG)  # then a paste: the word on the file is stale
    assert dlg.file_status.text() == ""


def test_a_log_file_is_read_as_explain_reads_it(qtbot, dialog, tmp_path, monkeypatch):
    dlg = dialog()
    log = tmp_path / "train.log"
    log.write_bytes(b"\xff\xfe" + (CUDNN_LOG + "\r\n").encode("utf-16-le"))  # PowerShell's >
    monkeypatch.setattr(explain_dialog, "ask_open_path", lambda parent: str(log))
    dlg.open_button.click()
    assert dlg.log.toPlainText().strip() == CUDNN_LOG
    assert dlg.file_status.text() == f"Read {log}."
    assert _explain(qtbot, dlg)[0].finding.code == "cudnn_missing"


def _file_mime(*paths):
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(path)) for path in paths])
    return mime


def test_a_log_file_dropped_on_the_dialog_is_read(qtbot, dialog, tmp_path):
    dlg = dialog()
    log = tmp_path / "train.log"
    log.write_text(CUDNN_LOG + "\n", encoding="utf-8")
    mime = _file_mime(log)
    point = dlg.rect().center()
    enter = QDragEnterEvent(point, Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                            Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(dlg, enter)
    assert enter.isAccepted()
    drop = QDropEvent(QPointF(point), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                      Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(dlg, drop)
    assert dlg.log.toPlainText().strip() == CUDNN_LOG
    assert dlg.file_status.text() == f"Read {log}."


def test_a_file_dropped_or_pasted_in_the_box_is_read_not_named(qtbot, dialog, tmp_path):
    dlg = dialog()
    log = tmp_path / "train.log"
    log.write_text(NO_DRIVER_LOG + "\n", encoding="utf-8")
    assert dlg.log.canInsertFromMimeData(_file_mime(log))
    dlg.log.insertFromMimeData(_file_mime(log))  # what a drop or Ctrl+V of a copied file does
    assert dlg.log.toPlainText().strip() == NO_DRIVER_LOG
    assert str(log) not in dlg.log.toPlainText()
    # text stays text; several files are not one log
    text = QMimeData()
    text.setText("pasted line")
    dlg.log.insertFromMimeData(text)
    assert "pasted line" in dlg.log.toPlainText()
    assert explain_dialog.dropped_file(_file_mime(log, log)) is None
    assert explain_dialog.dropped_file(text) is None


def test_a_5_mb_paste_keeps_the_window_responsive(qtbot, dialog):
    filler = "2026-01-01 12:00:00.000 I training step 1234 loss=0.123 accuracy=0.98 epoch 3\n"
    text = filler * (5 * 1024 * 1024 // len(filler)) + CUDNN_LOG
    dlg = dialog()
    dlg.log.setPlainText(text)
    qtbot.wait(300)  # the box lays the pasted text out first: that is the paste, not explain
    ticks = []
    timer = QTimer()
    timer.setInterval(5)
    timer.timeout.connect(lambda: ticks.append(time.monotonic()))
    timer.start()
    started = time.monotonic()
    dlg.explain()
    returned = time.monotonic() - started
    qtbot.waitUntil(lambda: dlg.state == DONE, timeout=WAIT_MS)
    timer.stop()
    assert returned < 0.25, returned  # the engine did not run on the GUI thread
    assert len(ticks) >= 3, ticks  # the event loop kept running meanwhile
    assert dlg.cards[0].finding.code == "cudnn_missing"


def test_closing_while_it_runs_drops_the_answer(qtbot, dialog, workers):
    filler = "2026-01-01 12:00:00.000 I training step 1234 loss=0.123 accuracy=0.98 epoch 3\n"
    dlg = dialog()
    dlg.log.setPlainText(filler * 20000 + CUDNN_LOG)
    worker = dlg.explain()
    dlg.close()
    assert not dlg.is_running()
    assert worker.wait(WAIT_MS / 1000)
    qtbot.wait(50)
    assert dlg.state != DONE and dlg.cards == [] and dlg.findings is None


def test_the_language_switch_re_renders_the_answer(qtbot, qapp, dialog):
    dlg = dialog()
    _explain(qtbot, dlg, CUDNN_LOG)
    dlg.tf_edit.setText("2.x")
    try:
        assert i18n.install_language(qapp, "zh_CN")
        qapp.processEvents()
        first = dlg.cards[0]
        assert dlg.windowTitle() == "解释错误日志"
        assert first.ranked_heading.text() == messages.render(
            messages.msg("explain.text.most_likely"), "zh_CN")
        assert first.title.text() == messages.render(
            messages.Message("finding.cudnn_missing.title"), "zh_CN")
        assert first.how_to_tell.text() == messages.render(
            messages.msg("explain.text.how_to_tell", step=first.finding.params["how_to_tell"]),
            "zh_CN")
        assert dlg.os_box.currentText() == "Windows（本机）"
        assert "不是版本号" in dlg.tf_reason.text()
        assert dlg.explain_button.text() == "解释(&E)"
    finally:
        i18n.install_language(qapp, "en")
    qapp.processEvents()
    assert dlg.cards[0].ranked_heading.text() == "Most likely cause"
    assert dlg.windowTitle() == "Explain an error log"


def test_a_cards_notes_are_the_clis_in_either_language(qtbot, qapp, dialog):
    """The note under a finding's message (its detail) reads as ``gpu-wizard explain`` prints
    it, in English and in Chinese (one explain.finding_notes for both)."""
    amd_only = _variant("no_nvidia_gpu", "Radeon RX 580")
    dlg = dialog(machine=())
    finding = _explain(qtbot, dlg, amd_only)[0].finding
    try:
        for lang in ("en", "zh_CN"):
            cli = explain.findings_text([finding], lang)
            note = next(line[2:] for line in cli.splitlines()
                        if line.startswith("  ") and "AMD" in line)
            assert i18n.install_language(qapp, lang)
            qtbot.waitUntil(lambda note=note: bool(dlg.cards)
                            and dlg.cards[0].notes.text() == note
                            and dlg.cards[0].notes.isVisible(), timeout=WAIT_MS)
    finally:
        i18n.install_language(qapp, "en")


def _press_ctrl_e(qtbot, wiz):
    """The wizard's shortcut for the dialog, with the wizard the active window."""
    wiz.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is wiz, timeout=5000)
    qtbot.keyClick(wiz, Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier)


@pytest.mark.parametrize("profile, os_kind, tf, python, facts", [
    ("gui-win-cudnn-missing", "windows", "2.10.0", "3.9.13",
     ["nvidia_gpu", "driver_loaded", "cuda_toolkit_installed", "python_64bit", "no_cudnn",
      "no_other_cuda", "no_other_cudnn"]),
    ("gui-linux-no-gpu", "linux", "", "3.12.3", ["no_nvidia_gpu", "not_in_container",
                                                 "no_cuda_toolkit", "python_64bit", "no_cudnn"]),
])
def test_the_summary_opens_it_preselected_from_the_checked_machine(
        qtbot, make_wizard, profile, os_kind, tf, python, facts):
    wiz = make_wizard(own_profile(profile))
    wiz.show()
    wiz.show_summary()
    summary = wiz.summary
    qtbot.waitUntil(lambda: summary.report is not None, timeout=WAIT_MS)
    button = summary.explain_button
    assert button.isVisibleTo(wiz) and button.text() == "Explain an error log…"
    assert button.accessibleName() and "Ctrl+E" in button.toolTip()
    _press_ctrl_e(qtbot, wiz)
    dlg = summary.explain_dialog
    assert dlg is not None and dlg.isVisible()
    try:
        assert dlg.os_kind() == os_kind
        assert dlg.os_box.currentText().endswith("(this computer)")
        assert dlg.tf_edit.text() == tf
        assert dlg.python_edit.text() == python
        assert dlg.machine_facts() == facts
        dlg.log.setPlainText(NO_DRIVER_LOG)
        codes = [c.finding.code for c in _explain(qtbot, dlg)]
        assert ("no_nvidia_gpu" in codes) == ("no_nvidia_gpu" in facts)
    finally:
        dlg.close()
    # closed while explaining a long log: the dialog is deleted, its answer dropped, no error
    again = summary.open_explain()
    again.log.setPlainText("I step 1 loss=0.1\n" * 100000 + CUDNN_LOG)
    worker = again.explain()
    again.close()
    assert worker.wait(WAIT_MS / 1000)
    qtbot.waitUntil(lambda: not wiz.workers.active(), timeout=WAIT_MS)
    qtbot.wait(50)
    assert summary.isVisible() and summary.report is not None


def test_a_log_with_only_harmless_lines_says_they_are_harmless(qtbot, dialog):
    dlg = dialog(os_kind="linux", tf="")
    numa = ("I tensorflow/stream_executor/cuda/cuda_gpu_executor.cc:937] successful NUMA node "
            "read from SysFS had negative value (-1), but there must be at least one NUMA node, "
            "so returning NUMA node zero")
    cards = _explain(qtbot, dlg, numa)
    assert [card.finding.code for card in cards] == ["numa_or_harmless_warning"]
    assert dlg.hint.text() == messages.render(messages.msg(
        "explain.text.harmless_hint", command="gpu-wizard check"))


def test_the_first_page_opens_it_before_any_check(qtbot, make_wizard):
    """An error message the user already has needs no checks: the first page offers the
    dialog, and Ctrl+E opens it there with nothing checked yet (no machine facts)."""
    wiz = make_wizard(own_profile("gui-win-cudnn-missing"))
    wiz.show()
    intro = wiz.intro
    assert wiz.currentPage() is intro
    assert intro.explain_button.isVisibleTo(wiz)
    assert intro.explain_button.text() == "Explain an error log…"
    assert "Ctrl+E" in intro.explain_hint.text() and "Ctrl+E" in intro.explain_button.toolTip()
    _press_ctrl_e(qtbot, wiz)
    dlg = wiz.explain_dialog
    assert dlg is not None and dlg.isVisible()
    try:
        assert dlg.os_kind() == "windows"
        assert dlg.machine_facts() == [] and not dlg.machine_box.isVisibleTo(dlg)
        assert _explain(qtbot, dlg, CUDNN_LOG)[0].finding.code == "cudnn_missing"
    finally:
        dlg.close()
    qtbot.mouseClick(intro.explain_button, Qt.MouseButton.LeftButton)
    again = wiz.explain_dialog
    assert again is not None and again is not dlg and again.isVisible()
    again.close()


def test_one_question_settles_candidates_and_the_answers_can_be_cleared(qtbot, dialog):
    dlg = dialog(os_kind="linux", tf="", machine=())
    codes = [c.finding.code for c in _explain(qtbot, dlg, NO_DRIVER_LOG)]
    assert codes[0] == "no_nvidia_gpu" and not explain.decisive(dlg.findings)
    bar = dlg.question
    assert bar.isVisibleTo(dlg) and bar.yes_button.isVisibleTo(dlg)
    assert "NVIDIA graphics card" in bar.ask.text() and not bar.given.isVisibleTo(dlg)
    bar.yes_button.click()  # it has one: not "no NVIDIA GPU"
    qtbot.waitUntil(lambda: dlg.state == DONE, timeout=WAIT_MS)
    assert [c.finding.code for c in dlg.cards][0] == "no_driver_or_nvidia_smi_missing"
    assert "no_nvidia_gpu" not in [c.finding.code for c in dlg.cards]
    assert bar.given.text() == "Your answers: the computer has an NVIDIA GPU."
    assert dlg.answer_text().startswith("Your answers: the computer has an NVIDIA GPU.\n")
    bar.clear_button.click()
    qtbot.waitUntil(lambda: dlg.state == DONE, timeout=WAIT_MS)
    assert dlg.answers == [] and dlg.cards[0].finding.code == "no_nvidia_gpu"
    dlg.question.no_button.click()  # it has none: the GPU first, the question answered
    qtbot.waitUntil(lambda: dlg.state == DONE, timeout=WAIT_MS)
    assert dlg.cards[0].finding.code == "no_nvidia_gpu"
    assert "nvidia_gpu" not in [q.id for q, _ in dlg.answers[1:]]
    assert dlg.question.question is None or dlg.question.question.id != "nvidia_gpu"
    dlg.log.setPlainText(CUDNN_LOG)  # another log: the answers were about the last one
    assert dlg.answers == [] and not dlg.question.given.isVisibleTo(dlg)


def test_the_checked_machine_answers_the_question_itself(qtbot, dialog):
    dlg = dialog(os_kind="linux", tf="", machine=("nvidia_gpu", "driver_loaded"))
    _explain(qtbot, dlg, NO_DRIVER_LOG)
    asked = dlg.question.question
    assert asked is None or asked.id != "nvidia_gpu"  # the check saw the GPU


def test_the_question_is_asked_in_chinese(qtbot, qapp, dialog):
    dlg = dialog(os_kind="linux", tf="", machine=())
    _explain(qtbot, dlg, NO_DRIVER_LOG)
    assert dlg.question.yes_button.text() == "&Yes"
    try:
        assert i18n.install_language(qapp, "zh_CN")
        qapp.processEvents()
        assert "NVIDIA 显卡" in dlg.question.ask.text()
        assert dlg.question.yes_button.text() == "是(&Y)"
    finally:
        i18n.install_language(qapp, "en")
    qapp.processEvents()
    assert "NVIDIA graphics card" in dlg.question.ask.text()


def test_a_log_no_line_explains_gets_a_lead_whose_report_links_fit_the_page(qtbot, dialog):
    dlg = dialog(os_kind="linux", tf="", machine=())
    dlg.resize(700, 800)
    cards = _explain(qtbot, dlg, "docker: Error response from\n   daemon: AMD CDI spec not found")
    first = cards[0]
    assert first.finding.params["source"] == "similar_reports"
    buttons = first.link_buttons
    assert len(buttons) > 2 and "Similar report: " in buttons[0].text()
    assert len({button.x() for button in buttons}) == 1  # one a row
    viewport = dlg.answer.viewport().width()
    assert first.width() <= viewport
    assert all(button.geometry().right() <= first.width() for button in buttons)


def test_one_undecided_candidate_is_headed_as_one(qtbot, dialog):
    dlg = dialog(os_kind="linux", tf="", machine=())
    cards = _explain(qtbot, dlg, "    xFormers wasn't build with CUDA support")
    assert len(cards) == 1 and not explain.decisive(dlg.findings)
    assert dlg.status.text() == messages.render(messages.msg("explain.text.candidate_one"))
