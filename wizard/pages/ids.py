"""Page identifiers. Gaps leave room for the monitor and benchmark pages of a later issue."""

from __future__ import annotations

from enum import IntEnum


class PageId(IntEnum):
    INTRO = 0
    GPU = 1
    DRIVER = 2
    CUDA = 3
    CUDNN = 4
    TENSORFLOW = 5
    BENCHMARK = 8
    """The benchmark: the last page, after the monitor (``SetupWizard.nextId`` routes the
    monitor's Next to it; without a monitor page, the summary's)."""
    SUMMARY = 10
    MONITOR = 11
    """The live GPU monitor: after the summary, outside the Next chain (the summary's button
    and ``gpu-wizard --page monitor`` open it)."""


LAYER_PAGES: dict[str, PageId] = {
    "gpu": PageId.GPU,
    "driver": PageId.DRIVER,
    "cuda": PageId.CUDA,
    "cudnn": PageId.CUDNN,
    "tensorflow": PageId.TENSORFLOW,
}
