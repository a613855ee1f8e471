"""What Explorer shows for the two Windows exes: the icon and the version information (Details
tab: product, version, description). packaging/pyinstaller.spec loads this file by path (the
folder's name would clash with the ``packaging`` distribution) and writes both into its work
folder at build time; nothing binary is committed.

The icon is drawn with Qt (the build environment has PySide6): a GPU board with a green check,
no text (no fonts needed), as a multi-size .ico whose images are PNG (Windows Vista and later).
"""

from __future__ import annotations

import re
import struct
from pathlib import Path

SIZES = (16, 24, 32, 48, 64, 128, 256)
COMPANY = "GPU Setup Wizard contributors"
PRODUCT = "GPU Setup Wizard"


def draw_png(size: int) -> bytes:
    """One square image of the icon as PNG bytes."""
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QPointF, QRectF, Qt
    from PySide6.QtGui import QColor, QGuiApplication, QImage, QPainter, QPainterPath, QPen

    if QGuiApplication.instance() is None:
        import os

        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        draw_png.app = QGuiApplication([])  # type: ignore[attr-defined] - kept alive
    image = QImage(size, size, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    s = size / 64.0
    # the board
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(QColor("#263238"))
    painter.drawRoundedRect(QRectF(4 * s, 12 * s, 56 * s, 36 * s), 6 * s, 6 * s)
    # the connector pins
    painter.setBrush(QColor("#c9a227"))
    for i in range(6):
        painter.drawRect(QRectF((12 + i * 7) * s, 48 * s, 4 * s, 6 * s))
    # the chip
    painter.setBrush(QColor("#76b900"))
    painter.drawRoundedRect(QRectF(14 * s, 18 * s, 24 * s, 24 * s), 3 * s, 3 * s)
    # the fan
    painter.setBrush(QColor("#90a4ae"))
    painter.drawEllipse(QPointF(49 * s, 30 * s), 8 * s, 8 * s)
    # the check mark on the chip
    pen = QPen(QColor("white"), max(1.5, 4 * s))
    pen.setCapStyle(Qt.PenCapStyle.RoundCap)
    pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
    painter.setPen(pen)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    check = QPainterPath(QPointF(19 * s, 30 * s))
    check.lineTo(QPointF(24 * s, 35 * s))
    check.lineTo(QPointF(33 * s, 24 * s))
    painter.drawPath(check)
    painter.end()
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    buffer.close()
    return bytes(data.data())


def write_icon(path: Path, sizes: tuple[int, ...] = SIZES) -> Path:
    """The .ico: ICONDIR, one ICONDIRENTRY per size, then the PNG images."""
    images = [draw_png(size) for size in sizes]
    header = struct.pack("<HHH", 0, 1, len(images))
    offset = 6 + 16 * len(images)
    entries = b""
    for size, png in zip(sizes, images):
        side = 0 if size >= 256 else size  # 0 means 256 in an ICONDIRENTRY
        entries += struct.pack("<BBBBHHII", side, side, 0, 0, 1, 32, len(png), offset)
        offset += len(png)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(header + entries + b"".join(images))
    return path


def version_tuple(version: str) -> tuple[int, int, int, int]:
    numbers = []
    for part in version.split(".")[:4]:
        digits = re.match(r"\d*", part).group()  # "3rc1" -> 3
        numbers.append(int(digits) if digits else 0)
    return tuple((numbers + [0, 0, 0, 0])[:4])  # type: ignore[return-value]


def version_file_text(version: str, exe_name: str, description: str) -> str:
    """PyInstaller's version resource as text (``EXE(version=<file>)`` reads this format; the
    classes live in PyInstaller.utils.win32.versioninfo, which needs pefile: Windows only)."""
    numbers = version_tuple(version)
    strings = {
        "CompanyName": COMPANY,
        "FileDescription": description,
        "FileVersion": version,
        "InternalName": exe_name,
        "LegalCopyright": "MIT License",
        "OriginalFilename": exe_name + ".exe",
        "ProductName": PRODUCT,
        "ProductVersion": version,
    }
    string_structs = ",\n          ".join(
        f"StringStruct({key!r}, {value!r})" for key, value in strings.items())
    return f"""VSVersionInfo(
  ffi=FixedFileInfo(
    filevers={numbers},
    prodvers={numbers},
    mask=0x3f,
    flags=0x0,
    OS=0x40004,
    fileType=0x1,
    subtype=0x0,
    date=(0, 0)
  ),
  kids=[
    StringFileInfo([
      StringTable('040904B0', [
          {string_structs}
      ])
    ]),
    VarFileInfo([VarStruct('Translation', [1033, 1200])])
  ]
)
"""


def write_version_file(path: Path, version: str, exe_name: str, description: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(version_file_text(version, exe_name, description), encoding="utf-8")
    return path
