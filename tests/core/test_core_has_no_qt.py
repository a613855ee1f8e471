"""DESIGN rule: wizard/core imports no Qt and no pyqtgraph. Import every core module in a fresh
interpreter where those packages are made unimportable."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

SCRIPT = r"""
import importlib, pkgutil, sys

class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split('.')[0] in ('PySide6', 'shiboken6', 'pyqtgraph', 'PyQt5', 'PyQt6'):
            raise ImportError('blocked for this test: ' + name)
        return None

sys.meta_path.insert(0, Block())
import wizard.core
names = [m.name for m in pkgutil.walk_packages(wizard.core.__path__, 'wizard.core.')]
for name in names:
    importlib.import_module(name)
import wizard.cli
print(len(names))
"""


def test_every_core_module_imports_without_qt() -> None:
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT], cwd=REPO, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert int(result.stdout.strip()) >= 5


def test_blocker_really_blocks() -> None:
    """The test above would pass vacuously if the blocker did not work."""
    script = SCRIPT.replace("import wizard.core\n", "import PySide6\nimport wizard.core\n")
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, timeout=120
    )
    assert result.returncode != 0
    assert "blocked for this test" in result.stderr
