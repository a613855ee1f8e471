"""Hostile input: mutated machine profiles never give a traceback, a hang, or a "ready" verdict
with a layer that could not be checked; a layer that raises is a ``fail`` that names the bug."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import fuzz_profiles
import pytest

from wizard.core import diagnose
from wizard.core.diagnose import run_check, unchecked
from wizard.core.host import ReplayHost
from wizard.core.layers import LAYER_MODULES

REPO_ROOT = Path(__file__).resolve().parents[2]
PROFILES = REPO_ROOT / "tests" / "profiles"


@pytest.mark.timeout(120)
def test_mutated_profiles_give_a_clean_error_or_a_sound_report() -> None:
    counts: Counter[str] = Counter()
    bad: list[str] = []
    for label, profile in fuzz_profiles.mutations(seed=20261130, count=400):
        kind, detail = fuzz_profiles.outcome(profile)
        counts[kind] += 1
        if kind not in ("error", "report"):
            bad.append(f"{kind}: {label}\n{detail}")
    assert not bad, "\n\n".join(bad[:5])
    # the mutations reach both sides: refused profiles and reports from odd but valid machines
    assert counts["error"] > 50 and counts["report"] > 100, counts


def _healthy_host() -> ReplayHost:
    return ReplayHost.from_file(PROFILES / "linux-dual-4090-healthy.json")


@pytest.mark.parametrize("layer", sorted(LAYER_MODULES))
def test_a_layer_that_raises_fails_and_blocks_ready(
    monkeypatch: pytest.MonkeyPatch, layer: str
) -> None:
    assert run_check(_healthy_host()).ready, "the base profile is ready"

    def broken(ctx: object) -> None:
        raise ValueError("simulated bug")

    real = diagnose.layer_checker
    monkeypatch.setattr(diagnose, "layer_checker",
                        lambda name: broken if name == layer else real(name))
    report = run_check(_healthy_host())
    result = report.layer(layer)
    assert result.status == "fail" and unchecked(result)
    assert not report.ready and report.blocking_layer == layer
    finding = result.findings[0]
    assert finding.severity == "fail"
    # names the bug and where it was raised, for the bug report
    assert "ValueError: simulated bug" in str(finding.params["error"])
    assert "(at core/test_fuzz.py:" in str(finding.params["error"])
    assert [other.layer for other in report.layers[:5]] == list(LAYER_MODULES)


def test_a_layer_that_raises_is_exit_1_in_the_cli(tmp_path: Path) -> None:
    """The same through the command line: a bug in a layer is never 'Ready' and exit 0."""
    script = (
        "import sys, wizard.core.diagnose as d, wizard.cli as cli\n"
        "real = d.layer_checker\n"
        "def broken(ctx): raise KeyError('x')\n"
        "d.layer_checker = lambda n: broken if n == 'cuda' else real(n)\n"
        "sys.exit(cli.main(sys.argv[1:]))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script, "check", "--profile",
         str(PROFILES / "linux-dual-4090-healthy.json"), "--json"],
        capture_output=True, text=True, timeout=120, check=False, cwd=str(REPO_ROOT),
    )
    assert result.returncode == 1, result.stderr
    data = json.loads(result.stdout)
    assert data["ready"] is False and data["blocking_layer"] == "cuda"
    assert "Traceback" not in result.stdout
