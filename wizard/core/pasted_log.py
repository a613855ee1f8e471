"""A log as the program printed it, however it reached the wizard: captured with terminal
colours, copied from a web page (HTML entities, no-break and zero-width spaces), prefixed by a
CI runner's or ``docker logs -t``'s time stamps or an editor's line numbers, stored in a JSON or
Python string or in Docker's JSON records, or cut by a console at its width.

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
    """Lines a console cut at its width joined again: when the longest lines are exactly a
    usual console width long, each of them continues on the next line. The joined line takes
    the first one's place and the pieces after it stay as they were (line numbers do not
    change, and a log whose longest line only happens to be that long loses nothing)."""
    longest = max((len(line) for line in lines), default=0)
    if longest not in TERMINAL_WIDTHS:
        return lines
    joined = list(lines)
    index = 0
    while index < len(joined) - 1:
        start = index
        while index < len(joined) - 1 and len(lines[index]) == longest:
            index += 1
        if index > start:
            joined[start] = "".join(lines[start:index + 1])
        index += 1
    return joined
