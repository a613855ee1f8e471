#!/usr/bin/env python3
"""Refresh the translation files: templates -> .ts -> .qm.

Three steps, in order:

1. ``wizard/finding_templates.py`` is regenerated from ``wizard/core/codes.py``: the
   English title/message/fix of every finding code and the text of every fix step, each wrapped
   in ``QT_TRANSLATE_NOOP`` so that lupdate sees them as literal strings. (Core must stay free of
   Qt and of translated sentences; this generated copy is how the GUI gets the same English.)
2. ``pyside6-lupdate`` scans ``wizard/**/*.py`` (core excluded: it holds no ``tr()`` text) into
   ``resources/i18n/gpu_wizard_zh_CN.ts``. Existing translations are kept; entries whose source
   text vanished are dropped (``-no-obsolete``). New entries come in as ``type="unfinished"``:
   translate them (Qt Linguist, or any editor) and run this script again.
3. ``pyside6-lrelease`` compiles the ``.ts`` into ``resources/i18n/gpu_wizard_zh_CN.qm``. The
   ``.qm`` is committed too, so a fresh checkout runs without the Qt tools.

The tools come with PySide6-Essentials: ``pyside6-lupdate`` / ``pyside6-lrelease`` next to the
Python interpreter (a venv's ``bin/`` or ``Scripts\\``), or the ``lupdate`` / ``lrelease``
binaries inside the PySide6 package folder.

Usage::

    python scripts/update_translations.py            # all three steps
    python scripts/update_translations.py --check    # exit 1 if anything would change
    python scripts/update_translations.py --release  # only step 3 (.ts -> .qm)

``tests/gui/test_translations.py`` fails when the ``.ts`` has unfinished, empty or obsolete
entries, or when it is stale against the source.
"""

from __future__ import annotations

import argparse
import ast
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = ("zh_CN",)
TS_DIR = ROOT / "resources" / "i18n"
TEMPLATES_PY = ROOT / "wizard" / "finding_templates.py"
# Source folders lupdate scans. wizard/core is left out on purpose: it never calls tr().
SCAN_EXCLUDE = ("core",)


def ts_path(lang: str) -> Path:
    return TS_DIR / f"gpu_wizard_{lang}.ts"


def qm_path(lang: str) -> Path:
    return TS_DIR / f"gpu_wizard_{lang}.qm"


def find_tool(name: str) -> str:
    """Locate ``pyside6-<name>`` (venv wrapper) or the raw ``<name>`` binary in PySide6."""
    exe_dir = Path(sys.executable).parent
    suffixes = (".exe", "") if os.name == "nt" else ("",)
    for suffix in suffixes:
        candidate = exe_dir / f"pyside6-{name}{suffix}"
        if candidate.is_file():
            return str(candidate)
    found = shutil.which(f"pyside6-{name}")
    if found:
        return found
    try:
        import PySide6
    except ImportError as exc:  # pragma: no cover - only without PySide6
        raise SystemExit(f"PySide6 is not installed in {sys.executable}: {exc}") from exc
    package_dir = Path(PySide6.__file__).parent
    for suffix in suffixes:
        for candidate in (package_dir / f"{name}{suffix}", package_dir / "Qt" / "bin" / name):
            if candidate.is_file():
                return str(candidate)
    raise SystemExit(
        f"Cannot find pyside6-{name} or {name}: install PySide6-Essentials >= 6.6 into "
        f"{sys.executable} (pip install PySide6-Essentials), which ships both tools."
    )


# ---------------------------------------------------------------------------------------------
# Step 1: the generated template table


def _quote(text: str) -> str:
    """repr(), but in double quotes where that needs no escaping (the project's style)."""
    literal = repr(text)
    if literal.startswith("'") and '"' not in text:
        literal = '"' + literal[1:-1].replace("\\'", "'") + '"'
    return literal


def _literal(text: str, indent: str) -> str:
    """A Python string literal for ``text``; long texts are split after spaces into
    concatenated chunks (lupdate joins adjacent literals, as Python does)."""
    if len(text) <= 70:
        return _quote(text)
    chunks: list[str] = []
    current = ""
    for token in re.findall(r"\s+|\S+\s*", text):
        if current and len(current) + len(token) > 70:
            chunks.append(current)
            current = ""
        current += token
    chunks.append(current)
    assert "".join(chunks) == text
    return ("\n" + indent).join(_quote(chunk) for chunk in chunks)


def _placeholder(expr: ast.expr, used: dict[str, int]) -> str:
    """A placeholder name for an f-string expression: ``install.path`` -> ``install_path``."""
    name = re.sub(r"\W+", "_", ast.unparse(expr)).strip("_") or "value"
    if name in used:
        used[name] += 1
        name = f"{name}_{used[name]}"
    else:
        used[name] = 1
    return name


def _template_of(node: ast.expr) -> str:
    """The English template of a literal (``"text"``) or an f-string (``f"CUDA {cuda}"`` ->
    ``"CUDA {cuda}"``); "" for anything computed."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value.replace("{", "{{").replace("}", "}}")
    if isinstance(node, ast.JoinedStr):
        parts: list[str] = []
        used: dict[str, int] = {}
        for value in node.values:
            if isinstance(value, ast.Constant):
                parts.append(str(value.value).replace("{", "{{").replace("}", "}}"))
            elif isinstance(value, ast.FormattedValue):
                parts.append("{" + _placeholder(value.value, used) + "}")
            else:  # pragma: no cover - other nodes do not occur in a JoinedStr
                return ""
        return "".join(parts)
    return ""


def _call_name(node: ast.Call) -> str:
    func = node.func
    return func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")


def _arg(node: ast.Call, index: int, keyword: str) -> ast.expr | None:
    if len(node.args) > index:
        return node.args[index]
    return next((k.value for k in node.keywords if k.arg == keyword), None)


# Params of the code templates whose values core writes as English text ("where": " (no NVIDIA
# PCI device)", "advice": "TensorFlow 2.10 is the newest release ..."). Paths, commands, versions
# and names are left alone: they must never be translated.
TEXT_PARAMS = frozenset({
    "advice", "detail", "driver_cuda", "file_note", "max_note", "min_driver", "next_step", "note",
    "problem", "what", "where", "cuda", "step", "missing", "found", "stage", "reason",
})


def _branches(node: ast.expr):
    """The possible values of ``a if c else b`` and ``a or b``."""
    if isinstance(node, ast.IfExp):
        yield from _branches(node.body)
        yield from _branches(node.orelse)
    elif isinstance(node, ast.BoolOp):
        for value in node.values:
            yield from _branches(value)
    else:
        yield node


def _text_param_values(node: ast.AST):
    """Expressions whose value core puts into a TEXT_PARAMS param: ``{"where": ...}``,
    ``where = ...``, ``params["where"] = ...`` and what ``def _next_step`` / ``def _x_note``
    return."""
    if isinstance(node, ast.Dict):
        for key, value in zip(node.keys, node.values):
            if isinstance(key, ast.Constant) and key.value in TEXT_PARAMS:
                yield value
    elif isinstance(node, ast.Assign):
        for target in node.targets:
            name = target.id if isinstance(target, ast.Name) else None
            if isinstance(target, ast.Subscript) and isinstance(target.slice, ast.Constant):
                name = target.slice.value
            if name in TEXT_PARAMS:
                yield node.value
    elif isinstance(node, ast.FunctionDef):
        name = node.name.lstrip("_")
        if name in TEXT_PARAMS or name.endswith("_note"):
            for inner in ast.walk(node):
                if isinstance(inner, ast.Return) and inner.value is not None:
                    yield inner.value


def _sentence_like(template: str) -> bool:
    """Words, not a bare name or number: "the latest", "installed{where}", not "CUDA_PATH"."""
    words = re.sub(r"\{\w*\}", "", template)
    return any(ch.isalpha() for ch in words) and (" " in template.strip() or "{" in template)


def core_free_texts() -> list[str]:
    """English texts core writes outside the code table, as templates (sorted, unique): the
    ``text`` of ``Step("text", {"text": ...})``, the title of ``Link(title, url)`` and the
    sentence-like values of TEXT_PARAMS params, literal or f-string, in every module of
    wizard/core."""
    found: set[str] = set()
    for path in sorted((ROOT / "wizard" / "core").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            nodes: list[ast.expr] = []
            if isinstance(node, ast.Call):
                name = _call_name(node)
                if name == "Step":
                    key = _arg(node, 0, "key")
                    params = _arg(node, 1, "params")
                    if (
                        isinstance(key, ast.Constant)
                        and key.value == "text"
                        and isinstance(params, ast.Dict)
                    ):
                        nodes += [
                            v
                            for k, v in zip(params.keys, params.values)
                            if isinstance(k, ast.Constant) and k.value == "text"
                        ]
                elif name == "Link":
                    title = _arg(node, 0, "title")
                    nodes += [title] if title is not None else []
            else:
                for value in _text_param_values(node):
                    nodes += [v for v in _branches(value) if _sentence_like(_template_of(v))]
            for text_node in nodes:
                template = _template_of(text_node)
                if template and template.strip() and any(ch.isalpha() for ch in template):
                    found.add(template)
    return sorted(found)


def render_templates_module() -> str:
    """The text of ``wizard/finding_templates.py`` for the current ``wizard/core``."""
    lines = [
        '"""Core\'s remaining free English texts, marked for translation (being replaced by the',
        "message catalogue, resources/messages/).",
        "",
        "GENERATED by scripts/update_translations.py from wizard/core (the Step(\"text\", ...)",
        "and Link(...) texts of every module): do not edit.",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "from PySide6.QtCore import QT_TRANSLATE_NOOP",
        "",
    ]
    lines.append("# Free-text steps, link titles and text params written in wizard/core, as")
    lines.append("# templates (an f-string's {expression} became a {placeholder});")
    lines.append("# context 'CoreText'.")
    lines.append("CORE_TEXTS: tuple[str, ...] = (")
    call = 'QT_TRANSLATE_NOOP(\n        "CoreText",\n        '
    for text in core_free_texts():
        lines.append(f"    {call}{_literal(text, ' ' * 8)},\n    ),")
    lines.append(")")
    return "\n".join(lines) + "\n"


def write_templates(check: bool) -> bool:
    """Regenerate the template module; returns True when it changed (or would change)."""
    new = render_templates_module()
    old = TEMPLATES_PY.read_text(encoding="utf-8") if TEMPLATES_PY.is_file() else ""
    if new == old:
        return False
    if not check:
        TEMPLATES_PY.write_text(new, encoding="utf-8")
        print(f"Regenerated {TEMPLATES_PY.relative_to(ROOT)} from wizard/core/codes.py")
    return True


# ---------------------------------------------------------------------------------------------
# Steps 2 and 3: lupdate and lrelease


def source_files() -> list[Path]:
    """Every Python file lupdate must scan, in a stable order."""
    files = []
    for path in sorted((ROOT / "wizard").rglob("*.py")):
        rel = path.relative_to(ROOT / "wizard").parts
        if rel[0] in SCAN_EXCLUDE or "__pycache__" in rel:
            continue
        files.append(path)
    return files


def run_lupdate(ts_file: Path, sources: list[Path] | None = None) -> str:
    """Update ``ts_file`` from the sources in place; returns lupdate's output."""
    sources = source_files() if sources is None else sources
    lang = ts_file.stem.split("_", 2)[-1]  # gpu_wizard_zh_CN -> zh_CN
    with tempfile.NamedTemporaryFile("w", suffix=".lst", delete=False, encoding="utf-8") as lst:
        lst.write("\n".join(str(p) for p in sources) + "\n")
    try:
        argv = [
            find_tool("lupdate"),
            "-no-obsolete",
            "-locations",
            "none",
            "-source-language",
            "en",
            "-target-language",
            lang,
            f"@{lst.name}",
            "-ts",
            str(ts_file),
        ]
        proc = subprocess.run(argv, capture_output=True, text=True, check=False)
    finally:
        os.unlink(lst.name)
    if proc.returncode != 0:
        raise SystemExit(f"lupdate failed for {ts_file}:\n{proc.stdout}{proc.stderr}")
    return proc.stdout + proc.stderr


def run_lrelease(ts_file: Path, qm_file: Path) -> str:
    argv = [find_tool("lrelease"), str(ts_file), "-qm", str(qm_file)]
    proc = subprocess.run(argv, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise SystemExit(f"lrelease failed for {ts_file}:\n{proc.stdout}{proc.stderr}")
    return proc.stdout + proc.stderr


def unfinished_count(ts_file: Path) -> int:
    import xml.etree.ElementTree as ET

    count = 0
    for message in ET.parse(ts_file).getroot().iter("message"):
        tr = message.find("translation")
        done = tr is not None and tr.get("type") not in ("unfinished", "obsolete", "vanished")
        if not done or not ((tr.text or "").strip() or list(tr)):
            count += 1
    return count


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if stale")
    parser.add_argument("--release", action="store_true", help="only compile .ts -> .qm")
    args = parser.parse_args(argv)

    stale = False
    if not args.release:
        stale |= write_templates(args.check)
        for lang in LANGUAGES:
            ts_file = ts_path(lang)
            if args.check:
                with tempfile.TemporaryDirectory() as tmp:
                    copy = Path(tmp) / ts_file.name
                    if ts_file.is_file():
                        shutil.copy(ts_file, copy)
                    run_lupdate(copy)
                    if not ts_file.is_file() or copy.read_bytes() != ts_file.read_bytes():
                        print(f"{ts_file.relative_to(ROOT)} is stale")
                        stale = True
            else:
                print(run_lupdate(ts_file).strip())
    if not args.check:
        for lang in LANGUAGES:
            print(run_lrelease(ts_path(lang), qm_path(lang)).strip())
            todo = unfinished_count(ts_path(lang))
            if todo:
                print(f"{todo} entries of {ts_path(lang).name} still need a translation")
    if args.check and stale:
        print("Run: python scripts/update_translations.py, then translate the new entries.")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
