"""Mutated machine profiles, for the fuzz test and for measuring by hand.

``mutations(seed, count)`` yields ``(label, profile)`` pairs: one of the test profiles with one
node replaced by a value of another type, removed, duplicated or swapped for another node of the
same profile. ``outcome(profile)`` replays one and sorts the result into what a user would meet:

* ``error``: the profile was refused at load with one line naming the key (exit 2);
* ``report``: a report came out, every layer checked;
* ``layer_traceback``: a layer raised (the report shows a ``check_failed`` finding);
* ``crash``: an exception escaped the check (the user would see a traceback);
* ``false_ready``: the verdict is "ready" while a layer could not be checked.

Run ``python tests/core/fuzz_profiles.py [COUNT]`` for the counts of each outcome.
"""

from __future__ import annotations

import copy
import json
import random
import sys
import traceback
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[2]
PROFILES_DIR = REPO_ROOT / "tests" / "profiles"

ODD_VALUES: tuple[Any, ...] = (
    None, True, False, 0, -1, 1, 2, 12.7, 2**64, -(2**63), "", "x", "12.7", "12.abc", "2.x",
    "\x00", "..", "C:\\", "/", "ü中文", "9" * 400, [], [1, None], ["x"], [{}], {}, {"x": 1},
    {"ok": "yes"}, [[]],
)


ODD_TEXT = ("", "x", "abc", "12.7", "12.abc", "2.x", "0", "-1", "999.999.999", "\x00", "..",
            "C:\\", "/", "ü中文", "9" * 400, "GPU", "None", "null", "1e9", " ")
ODD_INTS = (0, -1, 1, 2, 3, 10, 99, 11070, 2**31, 2**64, -(2**63))


def odd_value_of_same_type(value: Any, rng: random.Random) -> Any:
    """A value a schema cannot refuse (same JSON type) but a layer may not expect."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, str):
        return rng.choice(ODD_TEXT)
    if isinstance(value, int):
        return rng.choice(ODD_INTS)
    if isinstance(value, float):
        return rng.choice((0.0, -1.0, 1e300))
    if isinstance(value, list):
        return [] if rng.random() < 0.5 else list(reversed(value))
    if isinstance(value, dict):
        return {}
    return None


def load_profiles() -> list[tuple[str, dict[str, Any]]]:
    return [(path.stem, json.loads(path.read_text(encoding="utf-8")))
            for path in sorted(PROFILES_DIR.glob("*.json"))]


def _nodes(value: Any, path: tuple = ()) -> Iterator[tuple[tuple, Any]]:
    yield path, value
    if isinstance(value, dict):
        for key, item in value.items():
            if key != "expect":
                yield from _nodes(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _nodes(item, (*path, index))


def _parent(profile: Any, path: tuple) -> Any:
    node = profile
    for key in path[:-1]:
        node = node[key]
    return node


def mutate(profile: dict[str, Any], rng: random.Random) -> tuple[str, dict[str, Any]]:
    """One mutation of a copy of ``profile``, and a label saying what it was."""
    data = copy.deepcopy(profile)
    nodes = [(p, v) for p, v in _nodes(data) if p]
    path, _value = rng.choice(nodes)
    parent = _parent(data, path)
    key = path[-1]
    label = ".".join(str(p) for p in path)
    operation = rng.random()
    if operation < 0.35:
        new = odd_value_of_same_type(parent[key], rng)
        parent[key] = new
        return f"{label} ~ {new!r:.40}", data
    if operation < 0.6:
        new = copy.deepcopy(rng.choice(ODD_VALUES))
        parent[key] = new
        return f"{label} = {new!r:.40}", data
    if operation < 0.75:
        del parent[key]
        return f"del {label}", data
    if operation < 0.85 and isinstance(parent, list):
        parent.insert(key, copy.deepcopy(parent[key]))
        return f"dup {label}", data
    other_path, other = rng.choice(nodes)
    parent[key] = copy.deepcopy(other)
    return f"{label} = <{'.'.join(str(p) for p in other_path)}>", data


def mutations(seed: int, count: int) -> Iterator[tuple[str, dict[str, Any]]]:
    rng = random.Random(seed)
    profiles = load_profiles()
    for _ in range(count):
        name, profile = rng.choice(profiles)
        label, data = mutate(profile, rng)
        yield f"{name}: {label}", data


def checked_mutations(seed: int, count: int) -> Iterator[tuple[str, Any, Any]]:
    """``(label, host, report)`` for each mutation a replay accepts: odd but valid machines
    (the refused ones are :func:`outcome`'s concern)."""
    from wizard.core.diagnose import run_check
    from wizard.core.host import ProfileError, ReplayHost

    for label, profile in mutations(seed, count):
        try:
            host = ReplayHost(profile, source="fuzz.json")
        except ProfileError:
            continue
        yield label, host, run_check(host)


def outcome(profile: dict[str, Any]) -> tuple[str, str]:
    """``(kind, detail)`` for one replay of ``profile`` (kinds as in the module docstring)."""
    from wizard.core import report as report_format
    from wizard.core.diagnose import run_check, unchecked
    from wizard.core.host import ProfileError, ReplayHost

    try:
        host = ReplayHost(profile, source="fuzz.json")
    except ProfileError as exc:
        text = str(exc)
        if "\n" in text or not text.startswith("fuzz.json: "):
            return "crash", f"profile error not one line naming the file: {text!r}"
        return "error", text
    except Exception:  # noqa: BLE001 - exactly what the fuzz looks for
        return "crash", traceback.format_exc(limit=-3)
    try:
        report = run_check(host)
        report_format.to_text(report)
        report_format.to_markdown(report)
        report_format.to_json(report)
    except Exception:  # noqa: BLE001
        return "crash", traceback.format_exc(limit=-3)
    failed = [layer for layer in report.layers if unchecked(layer)]
    if report.ready and failed:
        return "false_ready", ", ".join(layer.layer for layer in failed)
    if failed:
        return "layer_traceback", "; ".join(str(layer.summary) for layer in failed)
    return "report", ""


def main(argv: list[str]) -> int:
    count = int(argv[1]) if len(argv) > 1 else 1000
    counts: Counter[str] = Counter()
    for label, profile in mutations(seed=7, count=count):
        kind, detail = outcome(profile)
        counts[kind] += 1
        if kind not in ("error", "report"):
            print(f"{kind}: {label}\n    {detail.strip().splitlines()[-1] if detail else ''}")
    print(", ".join(f"{counts[k]} {k}" for k in
                    ("error", "report", "layer_traceback", "crash", "false_ready")))
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(REPO_ROOT))
    sys.exit(main(sys.argv))
