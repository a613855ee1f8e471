"""The import contract that keeps the project easy to change (docs/ARCHITECTURE.md):

    host  <-  model, codes, knowledge  <-  discovery (envs, installs), explain  <-  layers
          <-  diagnose, session, report, snapshot  <-  cli and the GUI (app, pages, widgets)

A module may import its own level and the levels below it, never above; every import counts,
including those inside functions. In the GUI, texts and widgets sit below pages.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
PACKAGE = REPO_ROOT / "wizard"

# (level, module prefixes); the first matching prefix wins, so specific ones come first.
LEVELS: list[tuple[int, tuple[str, ...]]] = [
    (0, ("wizard.core.host", "wizard.resources", "wizard.__init__")),
    (1, ("wizard.core.model", "wizard.core.codes", "wizard.core.messages",
         "wizard.core.knowledge", "wizard.core.pasted_log", "wizard.core.deciding_question",
         "wizard.core.similar_reports")),
    (2, ("wizard.core.envs", "wizard.core.cuda_installs", "wizard.core.cudnn_installs",
         "wizard.core.library_names", "wizard.core.explain", "wizard.core.monitor")),
    (2, ("wizard.core.downloads",)),
    (2, ("wizard.core.bench",)),
    (2, ("wizard.qtlibs",)),
    (3, ("wizard.core.layers",)),
    (4, ("wizard.core.diagnose", "wizard.core.session", "wizard.core.report",
         "wizard.core.snapshot", "wizard.core.fixes")),
    (5, ("wizard.i18n", "wizard.texts", "wizard.workers")),
    (5, ("wizard.single_instance",)),
    (6, ("wizard.widgets",)),
    (7, ("wizard.pages",)),
    (8, ("wizard.app", "wizard.cli", "wizard.fixcli", "wizard.__main__")),
    (8, ("wizard.benchcli",)),
    (8, ("wizard.dlcli",)),
    (8, ("wizard.selftest",)),
]


def level_of(module: str) -> int:
    if module in ("wizard", "wizard.core"):  # the packages themselves (empty __init__)
        return 0
    for level, prefixes in LEVELS:
        if any(module == p or module.startswith(p + ".") for p in prefixes):
            return level
    raise AssertionError(f"{module} has no level in the import contract: add it to LEVELS")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO_ROOT).with_suffix("").parts)
    if parts[-1] == "__init__" and len(parts) > 2:
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            # "from wizard.core import envs" imports the module wizard.core.envs
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return {name for name in found if name.startswith("wizard.")}


def _is_module(name: str) -> bool:
    relative = Path(*name.split("."))
    return (REPO_ROOT / relative.with_suffix(".py")).is_file() or (
        REPO_ROOT / relative / "__init__.py").is_file()


SOURCES = sorted(p for p in PACKAGE.rglob("*.py"))


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(REPO_ROOT)))
def test_imports_go_down_the_levels(path: Path) -> None:
    module = module_name(path)
    own = level_of(module)
    upward = sorted(
        name for name in imports_of(path)
        if _is_module(name) and name not in ("wizard", "wizard.core") and level_of(name) > own
    )
    assert not upward, f"{module} (level {own}) imports from above: {upward}"


def test_the_host_imports_nothing_else_from_core() -> None:
    for path in (PACKAGE / "core" / "host").glob("*.py"):
        others = sorted(name for name in imports_of(path) if _is_module(name)
                        and name.startswith("wizard.core") and not name.startswith(
                            "wizard.core.host"))
        assert not others, f"{path.name} imports {others}"
