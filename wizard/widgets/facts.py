"""The facts a layer found (versions, paths, which copy the loader would use) as a tree."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication, QEvent, Qt
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTreeWidget, QTreeWidgetItem, QWidget

MAX_ITEMS = 200
"""Long lists (every file of a toolkit) are cut; the report keeps them all."""


def fact_label(key: str) -> str:
    """A fact's key for people: ``driver_version`` -> "Driver version".

    Fact keys are the engine's identifiers and change with the layers, so they are shown
    humanised rather than translated one by one; the values carry the information."""
    try:
        from wizard import texts

        label = getattr(texts, "fact_label", None)
        if label is not None:
            return label(key)
    except ImportError:  # pragma: no cover - texts is part of the package
        pass
    text = str(key).replace("_", " ").strip()
    return text[:1].upper() + text[1:]


def format_value(value: Any) -> str:
    if value is None:
        return "—"
    if value is True:
        return QCoreApplication.translate("FactsView", "yes")
    if value is False:
        return QCoreApplication.translate("FactsView", "no")
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def fact_value(key: str, value: Any) -> str | None:
    """The value in words when it is one of the engine's identifiers (see texts.fact_value)."""
    from wizard import texts

    return texts.fact_value(key, value)


def count_text(count: int) -> str:
    """A list's row: "1 entry" / "3 entries" (no "item(s)": English has no plural catalogue)."""
    if count == 1:
        return QCoreApplication.translate("FactsView", "1 entry")
    return QCoreApplication.translate("FactsView", "{count} entries").format(count=count)


class FactsView(QTreeWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setColumnCount(2)
        self.setRootIsDecorated(True)
        self.setAlternatingRowColors(True)
        self.setUniformRowHeights(False)
        self.setWordWrap(True)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.header().setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        self.header().setStretchLastSection(True)
        self._facts: dict[str, Any] = {}
        self.retranslate_ui()

    def set_facts(self, facts: dict[str, Any]) -> None:
        self._facts = dict(facts or {})
        self.clear()
        for key, value in self._facts.items():
            self._add(self.invisibleRootItem(), fact_label(key), value, 0, key)
        self.expandToDepth(0)

    def facts(self) -> dict[str, Any]:
        return dict(self._facts)

    def _add(
        self, parent: QTreeWidgetItem, label: str, value: Any, depth: int, key: str = ""
    ) -> None:
        """One row: ``label`` (the key for people) and ``value``; ``key`` is the engine's key,
        which tells whether the value is one of its identifiers."""
        item = QTreeWidgetItem(parent)
        item.setText(0, label)
        item.setToolTip(0, label)
        if isinstance(value, dict) and value:
            item.setText(1, "")
            for child_key, child in list(value.items())[:MAX_ITEMS]:
                self._add(item, fact_label(child_key), child, depth + 1, child_key)
        elif isinstance(value, (list, tuple)) and value:
            if all(not isinstance(v, (dict, list, tuple)) for v in value) and len(value) <= 3:
                item.setText(1, ", ".join(fact_value(key, v) or format_value(v) for v in value))
            else:
                item.setText(1, count_text(len(value)))
                for index, child in enumerate(value[:MAX_ITEMS]):
                    self._add(item, str(index + 1), child, depth + 1, key)
        else:
            text = format_value(value) if not isinstance(value, (dict, list, tuple)) else "—"
            text = fact_value(key, value) or text
            item.setText(1, text)
            item.setToolTip(1, text)
        item.setTextAlignment(0, Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)

    def retranslate_ui(self) -> None:
        self.setHeaderLabels(
            [
                QCoreApplication.translate("FactsView", "Fact"),
                QCoreApplication.translate("FactsView", "Value"),
            ]
        )
        self.setAccessibleName(QCoreApplication.translate("FactsView", "Facts found"))
        if self._facts:
            self.set_facts(self._facts)

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt override
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate_ui()
        super().changeEvent(event)
