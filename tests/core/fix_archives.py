"""cuDNN archives in NVIDIA's real layouts with dummy payloads, CUDA trees, and a tree hash, for
the tests of wizard.core.fixes."""

from __future__ import annotations

import hashlib
import io
import json
import os
import tarfile
import zipfile
from pathlib import Path

from wizard.core.cudnn_installs import LINUX_FILES, WINDOWS_FILES


def header(version: str) -> str:
    major, minor, patch = (version.split(".") + ["0", "0"])[:3]
    return (f"#define CUDNN_MAJOR {major}\n#define CUDNN_MINOR {minor}\n"
            f"#define CUDNN_PATCHLEVEL {patch}\n"
            "#define CUDNN_VERSION (CUDNN_MAJOR * 1000 + CUDNN_MINOR * 100 + CUDNN_PATCHLEVEL)\n")


def payload(name: str, size: int = 3000) -> bytes:
    seed = hashlib.sha256(name.encode()).digest()
    return (seed * (size // len(seed) + 1))[:size]


def linux_tar(folder: Path, version: str = "8.6.0.163", cuda: int = 11, size: int = 3000,
              extra: tuple = ()) -> Path:
    """``cudnn-linux-x86_64-<v>_cuda<N>-archive.tar.xz``: include/, lib/ with the real sonames
    as symlinks to the versioned file, as NVIDIA ships it."""
    root = f"cudnn-linux-x86_64-{version}_cuda{cuda}-archive"
    path = folder / f"{root}.tar.xz"
    major = int(version.split(".")[0])
    full = ".".join(version.split(".")[:3])
    with tarfile.open(path, "w:xz") as tar:
        _tar_dir(tar, root)
        _tar_dir(tar, f"{root}/include")
        _tar_dir(tar, f"{root}/lib")
        _tar_file(tar, f"{root}/include/cudnn_version.h", header(full).encode())
        _tar_file(tar, f"{root}/include/cudnn.h", b"/* cudnn */\n")
        _tar_file(tar, f"{root}/LICENSE", b"license\n")
        for soname in LINUX_FILES[major]:
            stem = soname.rsplit(".so.", 1)[0]
            _tar_file(tar, f"{root}/lib/{stem}.so.{full}", payload(soname, size))
            _tar_link(tar, f"{root}/lib/{soname}", f"{stem}.so.{full}")
            _tar_link(tar, f"{root}/lib/{stem}.so", soname)
        for name, data, kind in extra:
            if kind == "link":
                _tar_link(tar, name, data)
            else:
                _tar_file(tar, name, data)
    return path


def _tar_dir(tar: tarfile.TarFile, name: str) -> None:
    info = tarfile.TarInfo(name)
    info.type, info.mode = tarfile.DIRTYPE, 0o755
    tar.addfile(info)


def _tar_file(tar: tarfile.TarFile, name: str, data: bytes) -> None:
    info = tarfile.TarInfo(name)
    info.size, info.mode = len(data), 0o644
    tar.addfile(info, io.BytesIO(data))


def _tar_link(tar: tarfile.TarFile, name: str, target: str) -> None:
    info = tarfile.TarInfo(name)
    info.type, info.linkname = tarfile.SYMTYPE, target
    tar.addfile(info)


def windows_zip(folder: Path, version: str = "8.1.1.33", cuda: str = "11.2",
                layout: str = "old", variants: tuple = ()) -> Path:
    """``old``: ``cudnn-11.2-windows-x64-v8.1.1.33.zip`` with ``cuda/bin``, ``cuda/include``,
    ``cuda/lib/x64``; ``archive``: ``cudnn-windows-x86_64-<v>_cuda<N>-archive/`` with ``bin``,
    ``include``, ``lib/x64``;
    ``variants`` (cuDNN 9): ``bin/<12.6>/``, ``include/<12.6>/``, ``lib/<12.6>/x64`` per CUDA."""
    major = int(version.split(".")[0])
    full = ".".join(version.split(".")[:3])
    if layout == "old":
        path, root = folder / f"cudnn-{cuda}-windows-x64-v{version}.zip", "cuda"
    else:
        name = f"cudnn-windows-x86_64-{version}_cuda{cuda.split('.')[0]}-archive"
        path, root = folder / f"{name}.zip", name
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for sub in variants or ("",):
            bin_dir = f"{root}/bin/{sub}/" if sub else f"{root}/bin/"
            inc_dir = f"{root}/include/{sub}/" if sub else f"{root}/include/"
            lib_dir = f"{root}/lib/{sub}/x64/" if sub else f"{root}/lib/x64/"
            for dll in WINDOWS_FILES[major]:
                archive.writestr(bin_dir + dll, payload(dll + sub))
            archive.writestr(inc_dir + "cudnn_version.h", header(full))
            archive.writestr(inc_dir + "cudnn.h", "/* cudnn */\n")
            archive.writestr(lib_dir + "cudnn.lib", payload("cudnn.lib" + sub, 500))
        archive.writestr(f"{root}/NVIDIA_SLA_cuDNN_Support.txt", "license\n")
    return path


def cuda_tree(folder: Path, version: str = "11.2.0", windows: bool = False) -> Path:
    """A CUDA toolkit folder with version.json, a few files, and an old cuDNN to be replaced."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "version.json").write_text(json.dumps({"cuda": {"version": version}}))
    (folder / "bin").mkdir(exist_ok=True)
    (folder / "include").mkdir(exist_ok=True)
    (folder / "include" / "cuda.h").write_text("#define CUDA_VERSION 11020\n")
    (folder / "include" / "cudnn.h").write_text("/* an old cudnn.h */\n")
    if windows:
        (folder / "bin" / "cudart64_110.dll").write_bytes(b"MZ cudart")
        (folder / "lib" / "x64").mkdir(parents=True, exist_ok=True)
    else:
        (folder / "lib64").mkdir(exist_ok=True)
        (folder / "lib64" / "libcudart.so.11.0").write_bytes(b"\x7fELF cudart")
        os.symlink("libcudart.so.11.0", folder / "lib64" / "libcudart.so")
    return folder


def tree_hash(folder: Path) -> str:
    """Every path, type, mode, link target and content under ``folder``."""
    digest = hashlib.sha256()
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames.sort()
        for name in sorted(dirnames + filenames):
            path = Path(dirpath) / name
            digest.update(str(path.relative_to(folder)).encode())
            if path.is_symlink():
                digest.update(b"L" + os.readlink(path).encode())
            elif path.is_dir():
                digest.update(b"D%o" % (path.stat().st_mode & 0o7777))
            else:
                digest.update(b"F%o" % (path.stat().st_mode & 0o7777) + path.read_bytes())
    return digest.hexdigest()
