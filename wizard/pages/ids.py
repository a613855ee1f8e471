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
    # MONITOR = 7 and BENCHMARK = 8 arrive with the monitor/benchmark issue
    SUMMARY = 10


LAYER_PAGES: dict[str, PageId] = {
    "gpu": PageId.GPU,
    "driver": PageId.DRIVER,
    "cuda": PageId.CUDA,
    "cudnn": PageId.CUDNN,
    "tensorflow": PageId.TENSORFLOW,
}
