"""The tensorflow layer. (Interim: reports ``unknown`` until the environment probe lands.)"""

from __future__ import annotations

from wizard.core.layers import CheckContext
from wizard.core.model import UNKNOWN, LayerResult


def check(ctx: CheckContext) -> LayerResult:
    return LayerResult("tensorflow", UNKNOWN, "TensorFlow layer not checked yet")
