"""The first page: what will be checked, the language, the path (native Windows / WSL2 / Linux)
and the TensorFlow version to aim for, with the recommended one preselected and explained."""

from __future__ import annotations

from typing import Callable, Optional

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QWidget,
)

from wizard import texts
from wizard.core.messages import msg
from wizard.core.session import CheckSession
from wizard.pages.base import WizardPageBase
from wizard.pages.ids import PageId
from wizard.widgets.explain_dialog import OPEN_SHORTCUT

AUTO = ""
"""The target item meaning "the version installed in the chosen environment"."""


def tf_choices(os_kind: str) -> tuple[str, list[str]]:
    """(recommended series, all offered series newest first) for ``os_kind``."""
    from wizard.core import knowledge

    recommended = knowledge.series(knowledge.recommended_tf(os_kind))
    offered = [
        v for v in reversed(knowledge.known_tf_versions(os_kind))
        if knowledge.compare_versions(v, "2.0") >= 0
    ]
    if os_kind == "windows":
        last = knowledge.last_windows_gpu_tf()
        offered = [v for v in offered if knowledge.compare_versions(v, last) <= 0]
    if recommended in offered:
        offered.remove(recommended)
    return recommended, [recommended, *offered]


class IntroPage(WizardPageBase):
    def __init__(
        self,
        session: CheckSession,
        languages: list[tuple[str, str]],
        current_language: str,
        on_language: Optional[Callable[[str], None]] = None,
        parent: QWidget | None = None,
        open_explain: Optional[Callable[[], object]] = None,
    ) -> None:
        super().__init__(session, parent)
        self._on_language = on_language
        self.jump_to: Optional[PageId] = None
        """Set by the wizard to open one layer page straight from the summary."""

        self.what = QLabel(self)
        self.what.setWordWrap(True)
        self.what.setTextFormat(Qt.TextFormat.RichText)
        self.body.addWidget(self.what)

        self.settings_box = QGroupBox(self)
        form = QFormLayout(self.settings_box)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
        self.language = QComboBox(self.settings_box)
        for code, name in languages:
            self.language.addItem(name, code)
        index = self.language.findData(current_language)
        self.language.setCurrentIndex(max(index, 0))
        self.language.currentIndexChanged.connect(self._on_language_changed)
        self.language_label = QLabel(self.settings_box)
        self.language_label.setBuddy(self.language)
        form.addRow(self.language_label, self.language)

        self.path_label = QLabel(self.settings_box)
        self.path_value = QLabel(self.settings_box)
        self.path_value.setWordWrap(True)
        self.path_value.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        form.addRow(self.path_label, self.path_value)

        self.target = QComboBox(self.settings_box)
        # follow the texts when the language changes (the default sizes it once, on first show)
        self.target.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.target_label = QLabel(self.settings_box)
        self.target_label.setBuddy(self.target)
        form.addRow(self.target_label, self.target)
        self.target_note = QLabel(self.settings_box)
        self.target_note.setWordWrap(True)
        # a wrapped label's row may be taller than its lines: keep the text under the box
        self.target_note.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.target_note.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        form.addRow("", self.target_note)
        self.body.addWidget(self.settings_box)

        self.safety = QLabel(self)
        self.safety.setWordWrap(True)
        self.body.addWidget(self.safety)
        # an error message the user already has is explained without the checks (Ctrl+E on
        # every page; the summary's dialog knows the checked machine too)
        self.explain_hint = QLabel(self)
        self.explain_hint.setWordWrap(True)
        self.explain_button = QPushButton(self)
        self.explain_button.setObjectName("intro_explain_error_log")
        self.explain_button.setAutoDefault(False)
        self.explain_button.setVisible(open_explain is not None)
        self.explain_hint.setVisible(open_explain is not None)
        if open_explain is not None:
            self.explain_button.clicked.connect(open_explain)
        explain_row = QHBoxLayout()
        explain_row.addWidget(self.explain_hint, 1)
        explain_row.addWidget(self.explain_button, 0, Qt.AlignmentFlag.AlignVCenter)
        self.body.addLayout(explain_row)
        self.body.addStretch(1)

        try:
            self.recommended, self.versions = tf_choices(session.os_kind)
        except Exception:  # noqa: BLE001 - no table: only "installed/recommended by core"
            self.recommended, self.versions = "", []
        self.target.currentIndexChanged.connect(self._update_target_note)
        self.retranslate_ui()

    # -- choices -------------------------------------------------------------------------------
    def chosen_target(self) -> Optional[str]:
        """The TF series to aim for, or None for "the installed one"."""
        data = self.target.currentData()
        return data or None

    def select_target(self, tf: Optional[str]) -> None:
        index = self.target.findData(tf or AUTO)
        if index >= 0:
            self.target.setCurrentIndex(index)

    def _on_language_changed(self, index: int) -> None:
        code = self.language.itemData(index)
        if code and self._on_language is not None:
            self._on_language(code)

    def validatePage(self) -> bool:  # noqa: N802 - Qt override
        self.session.set_target_version(self.chosen_target())
        return True

    def nextId(self) -> int:  # noqa: N802 - Qt override
        return int(self.jump_to if self.jump_to is not None else PageId.GPU)

    # -- texts ---------------------------------------------------------------------------------
    def _path_text(self) -> str:
        kind = self.session.os_kind
        if kind == "windows":
            return self.tr(
                "Native Windows. TensorFlow 2.10 is the last release that uses the GPU here; "
                "newer releases need WSL2 (run this wizard inside your WSL2 distribution)."
            )
        if kind == "wsl2":
            return self.tr(
                "WSL2 (Linux inside Windows). The GPU driver is the Windows one; never install "
                "a Linux display driver inside WSL2."
            )
        return self.tr("Linux. pip can install CUDA and cuDNN together with TensorFlow.")

    def _fill_targets(self) -> None:
        current = self.target.currentData() if self.target.count() else self.recommended
        self.target.blockSignals(True)
        self.target.clear()
        for version in self.versions:
            if version == self.recommended:
                label = self.tr("TensorFlow {version} (recommended)").format(version=version)
            else:
                label = self.tr("TensorFlow {version}").format(version=version)
            self.target.addItem(label, version)
        self.target.addItem(self.tr("The version installed in the checked environment"), AUTO)
        index = self.target.findData(current if current is not None else self.recommended)
        self.target.setCurrentIndex(max(index, 0))
        self.target.blockSignals(False)
        self._update_target_note()

    def _update_target_note(self) -> None:
        tf = self.chosen_target()
        if not tf:
            self.target_note.setText(
                self.tr("The wizard aims for the TensorFlow already installed in the Python "
                        "environment it checks; without one, for the recommended version.")
            )
            return
        from wizard.core import knowledge

        try:
            req = knowledge.tf_requirement(tf, self.session.os_kind)
        except Exception:  # noqa: BLE001 - a table gap must not break the page
            req = None
        parts = []
        if tf == self.recommended:
            if self.session.os_kind == "windows":
                parts.append(self.tr("Recommended: the last TensorFlow with GPU support on "
                                     "native Windows."))
            else:
                parts.append(self.tr("Recommended: the newest TensorFlow."))
        if req is not None and req.pip_cuda:
            parts.append(self.tr("Needs Python {python}. pip installs CUDA and cuDNN with it "
                                 "(tensorflow[and-cuda]); no CUDA Toolkit is needed.").format(
                python=req.python or "—"))
        elif req is not None:
            parts.append(self.tr("Needs CUDA {cuda}, cuDNN {cudnn} and Python {python}.").format(
                cuda=req.cuda or "—", cudnn=req.cudnn or "—", python=req.python or "—"))
        self.target_note.setText("\n".join(parts))

    def retranslate_ui(self) -> None:
        self.setTitle(self.tr("Welcome to the GPU Setup Wizard"))
        self.setSubTitle(self.tr("Get TensorFlow onto your NVIDIA GPU."))
        layers = "".join(
            f"<li><b>{texts.layer_title(layer)}</b>: {text}</li>"
            for layer, text in (
                ("gpu", self.tr("is there an NVIDIA GPU, and which one")),
                ("driver", self.tr("is the driver running and new enough")),
                ("cuda", self.tr("the CUDA version TensorFlow needs")),
                ("cudnn", self.tr("the matching cuDNN, complete and found")),
                ("tensorflow", self.tr("your Python environments, and whether TensorFlow "
                                       "really computes on the GPU")),
            )
        )
        self.what.setText(
            self.tr("The wizard checks the chain TensorFlow needs, from the bottom up, one page "
                    "per layer:") + f"<ol>{layers}</ol>"
            + self.tr("Each problem comes with what to do about it.")
        )
        self.settings_box.setTitle(self.tr("Settings"))
        self.language_label.setText(self.tr("&Language:"))
        self.language.setAccessibleName(self.tr("Language"))
        self.path_label.setText(self.tr("This computer:"))
        self.path_value.setText(self._path_text())
        self.target_label.setText(self.tr("&Target TensorFlow:"))
        self.target.setAccessibleName(self.tr("Target TensorFlow version"))
        self.safety.setText(self.tr("The checks only read: nothing on this computer is "
                                    "changed."))
        shortcut = OPEN_SHORTCUT.toString(QKeySequence.SequenceFormat.NativeText)
        self.explain_hint.setText(texts.render_message(msg("explaingui.intro_hint",
                                                           shortcut=shortcut)))
        self.explain_button.setText(texts.render_message(msg("explaingui.button")))
        self.explain_button.setAccessibleName(
            texts.render_message(msg("explaingui.button_name")))
        self.explain_button.setToolTip(texts.render_message(msg("explaingui.button_tip",
                                                                shortcut=shortcut)))
        self._fill_targets()
