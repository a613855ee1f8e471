"""The cuda layer. (Interim placeholder: reports unknown.)"""

from __future__ import annotations

from wizard.core.layers import CheckContext
from wizard.core.model import UNKNOWN, LayerResult


def check(ctx: CheckContext) -> LayerResult:
    return LayerResult("cuda", UNKNOWN, "not checked yet")
