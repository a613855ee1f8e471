"""A log as the program printed it, however it reached the wizard: captured with terminal
colours, copied from a web page (HTML entities, no-break and zero-width spaces), prefixed by a
CI runner's or ``docker logs -t``'s time stamps or an editor's line numbers, stored in a JSON or
Python string or in Docker's JSON records, cut by a console at its width, or reflowed at word
boundaries by a mail client or a forum without code blocks.

``explain`` reads every log through :func:`as_printed` and :func:`unwrapped`; neither changes a
log's line count or order, so line numbers keep pointing at the lines as pasted."""

from __future__ import annotations

import ast
import contextlib
import html
import json
import re

_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b[@-Z\\-_]")
_ENTITY = re.compile(r"&(?:quot|apos|lt|gt|amp|#\d{2,3}|#x[0-9a-f]{2});", re.IGNORECASE)
_TIME_PREFIX = re.compile(
    r"^[ \t]*\[?(?:\d{4}-\d\d-\d\d[T ])?\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?\]?"
    r"[ \t]+(?=\S)", re.MULTILINE)
TERMINAL_WIDTHS = (80, 120)
"""Console widths at which a copied log may come back cut into lines (the Windows console's
default widths: its legacy copy takes the screen buffer one row a line). Wider, rarer widths
are left out: a log whose longest line merely has that length would be joined for nothing."""


REFLOW_WIDTHS = (40, 100)
"""The widths a mail client or a forum without code blocks reflows text at, fewest to most (a
text wrapped at 64 columns may have no line longer than 59: the narrowest is well below 60)."""
REFLOW_SLACK = 24
"""A wrapped line ends at most this many characters short of the width (a longer word would
have been broken)."""
REFLOW_MIN_BREAKS = 1
"""How many lines must end a word short of the longest before a text counts as reflowed."""


_LINE_START = re.compile(
    r"(?:[\w.]+(?:Error|Exception|Warning)|bash|sh|zsh|nvidia-smi|nvcc|python[\d.]*|pip\d?|conda)"
    r": |Traceback \(")
"""How a line of its own starts, and no reflow's continuation: an exception's or a warning's
name and a colon, a shell's or a CUDA tool's (``bash: nvcc: command not found``), a traceback.
(Dates and tags are left out: a reflow's break falls before them as often.)"""


_SPACES = str.maketrans({**{c: " " for c in "\u00a0\u2002\u2003\u2004\u2005\u2006\u2007"
                                                "\u2008\u2009\u200a\u202f\u205f\u3000"},
                          **{c: None for c in "\u200b\u200c\u200d\u2060\ufeff"}})
"""A web page's no-break, thin and ideographic spaces as plain ones, its zero-width ones gone."""
_LINE_NUMBER = re.compile(r"^[ \t]*\d{1,6}[ \t]*[|│][ \t]?", re.MULTILINE)
_JSON_LOG_KEYS = ("log", "message", "msg", "MESSAGE")


def as_printed(text: str) -> str:
    """A log as the program printed it, not as it was captured or pasted: without terminal
    colour codes, with the HTML entities of a page's source turned back into characters
    (``&quot;``, ``&#39;``) and a page's no-break or zero-width spaces into plain ones, without
    the time stamp a CI runner or ``docker logs -t`` puts before each line or an editor's line
    numbers (``  12 | ``), and out of the string literal or the JSON records (Docker's
    ``{"log": ...}``) it was stored in."""
    text = _ANSI.sub("", _unquoted(text))
    if not text.isascii():
        text = text.translate(_SPACES)
    if _ENTITY.search(text):
        text = html.unescape(text)
    if "{" in text:
        text = "\n".join(_json_record_text(line) for line in text.split("\n"))
    text = _TIME_PREFIX.sub("", text)
    return _LINE_NUMBER.sub("", text) if "|" in text or "│" in text else text


_ESCAPE = re.compile(r"\\(.)")
_ESCAPE_LETTERS = frozenset("ntr\"'\\/u")
_ESCAPED = {"n": "\n", "t": "\t", "r": "", "u": "\\u"}


def _unquoted(text: str) -> str:
    """The log a JSON or Python string literal holds (the whole paste one line, in quotes or
    with ``\\n`` escapes): decoded, or with its escapes undone when it is not a whole literal.
    A backslash that starts no escape (``C:\\Windows\\System32\\nvcuda.dll``) means the text
    is no literal: it is left as it is."""
    stripped = text.strip()
    if "\n" in stripped or len(stripped) < 2:
        return text
    if any(found.group(1) not in _ESCAPE_LETTERS for found in _ESCAPE.finditer(stripped)):
        return text
    if stripped[0] == stripped[-1] and stripped[0] in ("'", '"'):
        with contextlib.suppress(ValueError, SyntaxError, MemoryError, RecursionError):
            value = ast.literal_eval(stripped)
            if isinstance(value, str):
                return value
    if stripped.count("\\n") < 2:
        return text
    return _ESCAPE.sub(lambda found: _ESCAPED.get(found.group(1), found.group(1)), stripped)


def _json_record_text(line: str) -> str:
    """The message of a log line stored as a JSON record (``{"log": "...", "stream": ...}``,
    ``{"message": ...}``); any other line as it is."""
    stripped = line.strip()
    if not (stripped.startswith("{") and stripped.endswith("}")):
        return line
    try:
        record = json.loads(stripped)
    except ValueError:
        return line
    if not isinstance(record, dict):
        return line
    value = next((record[key] for key in _JSON_LOG_KEYS if isinstance(record.get(key), str)), None)
    return line if value is None else value.replace("\n", " ").rstrip()


def unwrapped(lines: list[str]) -> list[str]:
    """Lines a console cut at its width, or a mail or forum reflowed at word boundaries, joined
    again (:func:`_console_cut`, :func:`_reflow_width`). A joined line takes the first piece's
    place and the pieces after it stay as they were: line numbers do not change, and a log
    whose lines only look cut loses nothing."""
    return unwrapped_readings(lines)[0]


def unwrapped_readings(lines: list[str]) -> tuple[list[str], list[str] | None]:
    """:func:`unwrapped`'s lines, and the other way its joins can be read where a console's
    cut and a mail's reflow look alike (lines exactly a console's width long): lines taken as
    a console's cut joined as a reflow (with the space a reflow takes out), or lines taken as
    a reflow at a console's width joined as that console's cut (no space); None when it
    joined neither way or the width is no console's."""
    longest = max((len(line) for line in lines), default=0)

    def as_cut(index: int) -> str | None:
        return "" if len(lines[index]) == longest else None

    def as_reflow(index: int) -> str | None:
        return _reflow_break(lines[index], lines[index + 1], longest)

    if _console_cut(lines, longest):
        return _joined(lines, as_cut), _joined(lines, as_reflow)
    if _reflow_width(lines, longest):
        other = _joined(lines, as_cut) if longest in TERMINAL_WIDTHS else None
        return _joined(lines, as_reflow), other
    return lines, None


def _console_cut(lines: list[str], longest: int) -> bool:
    """True when the longest lines are exactly a usual console width long, two or more of them
    or at least as many as the lines just shorter (a reflowed text's lines end anywhere below
    its width, and exactly at it only now and then)."""
    if longest not in TERMINAL_WIDTHS:
        return False
    full = sum(len(line) == longest for line in lines)
    near = sum(longest - REFLOW_SLACK <= len(line) < longest for line in lines)
    return full >= 2 or full >= near


def _reflow_width(lines: list[str], longest: int) -> int:
    """The width a text was reflowed at (its longest line), when it is a usual one and at least
    :data:`REFLOW_MIN_BREAKS` lines end a word short of it; else 0."""
    if not REFLOW_WIDTHS[0] <= longest <= REFLOW_WIDTHS[1]:
        return 0
    breaks = sum(_fills_line(lines[i], lines[i + 1], longest) for i in range(len(lines) - 1))
    return longest if breaks >= REFLOW_MIN_BREAKS else 0


def _fills_line(line: str, following: str, width: int) -> bool:
    """True when ``following`` looks like the rest of ``line`` wrapped at ``width``: ``line``
    had no room left for the next line's first word, and that line starts with no indent (a
    wrap drops the spaces at a break)."""
    if not line.strip() or not following or following[0].isspace():
        return False
    if _LINE_START.match(following):
        return False
    first_word = following.split(" ", 1)[0]
    return len(line) + 1 + len(first_word) > width and len(line) > width - REFLOW_SLACK


def _reflow_break(line: str, following: str, width: int) -> str | None:
    """What a reflow at ``width`` took out between ``line`` and ``following``: nothing when
    ``line`` is one word exactly ``width`` long (a word longer than a line is cut there), a
    space when ``line`` ended a word short of the width; None when ``following`` is a
    line of its own."""
    if not _fills_line(line, following, width):
        return None
    return "" if len(line) == width and " " not in line.strip() else " "


def _joined(lines: list[str], break_after) -> list[str]:
    """``lines`` with each run of pieces joined into the run's first line: ``break_after(i)``
    is what separated line ``i`` from line ``i + 1`` in the line they were cut from (None: they
    were two lines). The pieces after the first stay."""
    joined = list(lines)
    index = 0
    while index < len(lines) - 1:
        start = index
        parts = [lines[index]]
        while index < len(lines) - 1:
            separator = break_after(index)
            if separator is None:
                break
            index += 1
            parts.append(separator + lines[index])
        if index > start:
            joined[start] = "".join(parts)
        index += 1
    return joined
