"""The TensorFlow page: the layer's result plus the list of discovered Python environments,
one of which the user can choose to check instead."""

from __future__ import annotations

from typing import Any, Optional

from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from wizard import texts
from wizard.core import envs
from wizard.core.model import LayerResult
from wizard.core.session import CheckSession
from wizard.pages.layer_page import ActionHandlers, LayerPage
from wizard.workers import WorkerManager

EXE_ROLE = Qt.ItemDataRole.UserRole


def env_python_version(entry: dict[str, Any]) -> Optional[str]:
    probe = entry.get("probe") or {}
    return ((probe.get("python") or {}).get("version")) or entry.get("version")


def env_tensorflow(entry: dict[str, Any]) -> Optional[str]:
    probe = entry.get("probe") or {}
    packages = probe.get("packages") or {}
    for name in ("tensorflow", "tensorflow-gpu", "tensorflow-cpu", "tensorflow-intel"):
        if packages.get(name):
            return f"{packages[name]}" if name == "tensorflow" else f"{packages[name]} ({name})"
    return None


class TensorFlowPage(LayerPage):
    def __init__(
        self,
        session: CheckSession,
        workers: WorkerManager,
        action_handlers: Optional[ActionHandlers] = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__("tensorflow", session, workers, action_handlers, parent)
        self.envs_box = QGroupBox(self)
        box_layout = QVBoxLayout(self.envs_box)
        self.envs_note = QLabel(self.envs_box)
        self.envs_note.setWordWrap(True)
        box_layout.addWidget(self.envs_note)
        self.env_list = QTreeWidget(self.envs_box)
        self.env_list.setColumnCount(4)
        self.env_list.setRootIsDecorated(False)
        self.env_list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.env_list.header().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.env_list.header().setStretchLastSection(False)
        self.env_list.setMinimumHeight(70)
        self.env_list.setMaximumHeight(70)
        self.env_list.itemSelectionChanged.connect(self._update_use_button)
        self.env_list.itemActivated.connect(lambda *_: self.use_selected_environment())
        box_layout.addWidget(self.env_list)
        row = QHBoxLayout()
        self.use_button = QPushButton(self.envs_box)
        self.use_button.clicked.connect(self.use_selected_environment)
        row.addStretch(1)
        row.addWidget(self.use_button)
        box_layout.addLayout(row)
        self.extra.addWidget(self.envs_box)
        self.retranslate_ui()

    def initializePage(self) -> None:  # noqa: N802 - Qt override
        if self.session.environments is None and self.session.result(self.layer) is not None:
            # opened from the summary: the result exists, the environment list not yet
            self.start_check()
            return
        super().initializePage()
        self.refresh_environments()

    def work(self, progress, cancelled, recheck: bool = False) -> LayerResult:
        if recheck:
            # after a pip install the user presses "Check again": look and probe afresh
            result = self.session.recheck(self.layer, progress, cancelled)
            self.session.discover_environments(progress, cancelled)
            return result
        self.session.discover_environments(progress, cancelled)
        return self.session.run_layer(self.layer, progress, cancelled)

    def on_check_finished(self) -> None:
        self.refresh_environments()

    def environments(self) -> list[dict[str, Any]]:
        return self.session.environments or []

    def refresh_environments(self) -> None:
        self.env_list.clear()
        chosen = self.session.python
        for entry in self.environments():
            exe = str(entry.get("executable", ""))
            version = env_python_version(entry)
            tf = env_tensorflow(entry)
            probe = entry.get("probe")
            rejected = entry.get("rejected_reason")
            if tf:
                tf_text = tf
            elif rejected:
                tf_text = self.tr("cannot be used")
            elif probe is None and entry.get("has_tensorflow"):
                tf_text = self.tr("installed (not checked yet)")
            elif probe is None and entry.get("has_tensorflow") is None:
                tf_text = self.tr("not checked yet")
            elif isinstance(probe, dict) and probe.get("error"):
                tf_text = self.tr("could not be checked")
            else:
                tf_text = self.tr("not installed")
            kind = str(entry.get("kind") or probe_kind(probe))
            item = QTreeWidgetItem([exe, kind, version or "—", tf_text])
            item.setData(0, EXE_ROLE, exe)
            item.setData(1, EXE_ROLE, bool(rejected))
            tip = exe if not rejected else (
                f"{exe}\n{texts.render_message(envs.rejected_message(str(rejected)))}")
            for column in range(4):
                item.setToolTip(column, tip)
            if rejected:
                grey = self.palette().color(QPalette.ColorRole.PlaceholderText)
                for column in range(4):
                    item.setForeground(column, grey)
            if chosen and self.session.host.same_path(exe, chosen):
                font = item.font(0)
                font.setBold(True)
                for column in range(4):
                    item.setFont(column, font)
                item.setText(0, self.tr("{path}  (checked)").format(path=exe))
            self.env_list.addTopLevelItem(item)
        for column in (1, 2, 3):
            self.env_list.resizeColumnToContents(column)
        self._fit_env_list()
        count = self.env_list.topLevelItemCount()
        if count == 0:
            self.envs_note.setText(
                self.tr("No Python environment was found. Install Python (3.9 or newer) or "
                        "create an environment, then press \"Check again\".")
            )
        else:
            self.envs_note.setText(
                self.tr("Found %n Python environment(s). The one in bold was checked; choose "
                        "another and press \"Check this environment\".", "", count)
            )
        self._update_use_button()

    def _fit_env_list(self) -> None:
        """As tall as its rows (up to six), so a short list does not leave a blank box."""
        rows = max(1, min(6, self.env_list.topLevelItemCount()))
        first = self.env_list.topLevelItem(0)
        row_height = self.env_list.visualItemRect(first).height() if first else 0
        row_height = row_height or self.env_list.fontMetrics().height() + 6
        height = self.env_list.header().sizeHint().height() + rows * row_height + 6
        self.env_list.setFixedHeight(height)

    def selected_executable(self) -> Optional[str]:
        """The selected environment's interpreter, unless discovery rejected it."""
        items = self.env_list.selectedItems()
        if not items or items[0].data(1, EXE_ROLE):
            return None
        return str(items[0].data(0, EXE_ROLE))

    def use_selected_environment(self) -> None:
        exe = self.selected_executable()
        if not exe or self.is_running():
            return
        self.session.select_python(exe)
        self.start_check()

    def _update_use_button(self) -> None:
        exe = self.selected_executable()
        chosen = self.session.python
        same = bool(exe and chosen and self.session.host.same_path(exe, chosen))
        self.use_button.setEnabled(bool(exe) and not same and not self.is_running())

    def _show_state(self) -> None:
        super()._show_state()
        if hasattr(self, "use_button"):
            self._update_use_button()

    def retranslate_ui(self) -> None:
        super().retranslate_ui()
        if not hasattr(self, "envs_box"):
            return
        self.envs_box.setTitle(self.tr("Python environments"))
        self.env_list.setHeaderLabels(
            [self.tr("Python"), self.tr("Kind"), self.tr("Version"), self.tr("TensorFlow")]
        )
        self.env_list.setAccessibleName(self.tr("Python environments found"))
        self.use_button.setText(self.tr("Check this &environment"))
        self.use_button.setAccessibleName(self.tr("Check the selected Python environment"))
        if self.environments():
            self.refresh_environments()
        else:
            self.envs_note.setText(self.tr("The environments appear here after the check."))


def probe_kind(probe: object) -> str:
    """The environment's kind from its probe (a replayed profile records no discovery kind)."""
    python = probe.get("python") if isinstance(probe, dict) else None
    if not isinstance(python, dict):
        return ""
    if python.get("conda"):
        return "conda"
    return "venv" if python.get("venv") else ""
