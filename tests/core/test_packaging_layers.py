"""Layers are imported by name (``importlib``), so the frozen bundle must list each one."""

from __future__ import annotations

from pathlib import Path

from wizard.core.layers import LAYER_MODULES, OPTIONAL_LAYERS

SPEC = Path(__file__).resolve().parents[2] / "packaging" / "pyinstaller.spec"


def test_every_layer_module_is_a_hidden_import_of_the_bundle() -> None:
    spec = SPEC.read_text(encoding="utf-8")
    for module in (*LAYER_MODULES.values(), *OPTIONAL_LAYERS.values()):
        assert f'"{module}"' in spec, module
