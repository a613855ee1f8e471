"""The Windows exes' icon and version information (packaging/windows_meta.py, used by the spec
on Windows): a real multi-size .ico whose images Qt reads back at their sizes, and a version
resource text that PyInstaller's format accepts (evaluated here with stand-in classes, as
PyInstaller evaluates it with its own)."""

from __future__ import annotations

import ast
import importlib.util
import struct
from pathlib import Path

import pytest

from wizard import __version__

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def meta():
    spec = importlib.util.spec_from_file_location("windows_meta",
                                                  REPO / "packaging" / "windows_meta.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_icon_has_every_size_and_qt_reads_each(qapp, meta, tmp_path) -> None:
    from PySide6.QtGui import QColor, QImage

    path = meta.write_icon(tmp_path / "app.ico")
    data = path.read_bytes()
    reserved, kind, count = struct.unpack_from("<HHH", data, 0)
    assert (reserved, kind, count) == (0, 1, len(meta.SIZES))
    for index, size in enumerate(meta.SIZES):
        width, height, _, _, planes, bits, length, offset = struct.unpack_from(
            "<BBBBHHII", data, 6 + 16 * index)
        assert (width or 256, height or 256, planes, bits) == (size, size, 1, 32)
        image = QImage.fromData(data[offset:offset + length], "PNG")
        assert (image.width(), image.height()) == (size, size)
        if size >= 32:
            chip = QColor(image.pixel(int(size * 16 / 64), int(size * 40 / 64)))
            assert chip.green() > 150 and chip.red() < 150, chip.name()  # the green chip
            assert QColor.fromRgba(image.pixel(0, 0)).alpha() == 0  # transparent corner
    assert QImage(str(path)).width() > 0  # Qt's own ico reader takes the file too


def test_the_version_resource_names_product_and_version(meta, tmp_path) -> None:
    path = meta.write_version_file(tmp_path / "v.txt", "1.2.3rc1", "gpu-wizard", "Command line")
    text = path.read_text(encoding="utf-8")
    ast.parse(text, mode="eval")

    def record(name):
        return lambda *args, **kwargs: (name, args, kwargs)

    names = ["VSVersionInfo", "FixedFileInfo", "StringFileInfo", "StringTable", "StringStruct",
             "VarFileInfo", "VarStruct"]
    info = eval(text, {name: record(name) for name in names})  # noqa: S307 - our own text
    fixed = info[2]["ffi"][2]
    assert fixed["filevers"] == fixed["prodvers"] == (1, 2, 3, 0)
    table = info[2]["kids"][0][1][0][0][1][1]
    strings = {entry[1][0]: entry[1][1] for entry in table}
    assert strings["ProductName"] == "GPU Setup Wizard"
    assert strings["FileVersion"] == "1.2.3rc1"
    assert strings["OriginalFilename"] == "gpu-wizard.exe"
    assert strings["FileDescription"] == "Command line"


def test_the_spec_puts_both_on_both_exes() -> None:
    spec = (REPO / "packaging" / "pyinstaller.spec").read_text(encoding="utf-8")
    assert spec.count("icon=icon_arg") == 2
    assert "version=gui_version" in spec and "version=cli_version" in spec


def test_the_packages_version_maps_to_four_numbers(meta) -> None:
    numbers = meta.version_tuple(__version__)
    assert len(numbers) == 4 and numbers[:3] == tuple(int(p) for p in __version__.split(".")[:3])
