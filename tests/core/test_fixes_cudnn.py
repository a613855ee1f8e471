"""cuDNN from NVIDIA's archives into a CUDA tree: the plan, the copy, verify, undo, and every bad
input leaving the destination byte-for-byte as it was (exit 2, one clear line)."""

from __future__ import annotations

import errno
import os
import sys
import tarfile
import zipfile
from pathlib import Path

import fix_archives as fa
import pytest

from wizard import cli
from wizard.core.fixes import cudnn, journal
from wizard.core.fixes.plan import FixCancelled, FixError, Plan
from wizard.core.host import LocalHost, ReplayHost

pytestmark = pytest.mark.usefixtures("fix_state")


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = cli.main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_linux_tar_cudnn8_installs_verifies_and_undoes(tmp_path: Path, capsys) -> None:
    cuda = fa.cuda_tree(tmp_path / "cuda-11.2")
    archive = fa.linux_tar(tmp_path, "8.6.0.163", cuda=11)
    before = fa.tree_hash(cuda)
    code, out, err = run(["fix", "cudnn", "--archive", str(archive), "--cuda-dir", str(cuda),
                          "--tf", "2.10", "--python", sys.executable, "--yes"], capsys)
    assert code == 0, err
    assert "Install cuDNN 8.6.0" in out and "Replace" in out  # the old include/cudnn.h
    assert "cuDNN 8.6.0 is complete" in out
    assert "Check again, cudnn: " in out  # the chain re-run up to the cuDNN layer
    lib = cuda / "lib64"
    assert os.readlink(lib / "libcudnn.so.8") == "libcudnn.so.8.6.0"
    assert (lib / "libcudnn_cnn_infer.so.8.6.0").read_bytes() == fa.payload(
        "libcudnn_cnn_infer.so.8")
    assert "CUDNN_MAJOR 8" in (cuda / "include" / "cudnn_version.h").read_text()
    assert not (cuda / "LICENSE").exists()
    assert fa.tree_hash(cuda) != before

    code, out, _ = run(["undo", "--yes"], capsys)
    assert code == 0 and "Undone" in out
    assert fa.tree_hash(cuda) == before
    code, out, _ = run(["undo", "--yes"], capsys)  # the second undo changes nothing
    assert code == 0 and "already undone" in out
    assert fa.tree_hash(cuda) == before
    code, out, _ = run(["undo", "--list"], capsys)
    assert "undone" in out and "install_cudnn" in out


def test_chinese_plan_and_dry_run_change_nothing(tmp_path: Path, capsys) -> None:
    cuda = fa.cuda_tree(tmp_path / "cuda")
    archive = fa.linux_tar(tmp_path)
    before = fa.tree_hash(cuda)
    code, out, _ = run(["fix", "cudnn", "--archive", str(archive), "--cuda-dir", str(cuda),
                        "--tf", "2.10", "--dry-run", "--lang", "zh_CN"], capsys)
    assert code == 0
    assert "将 cuDNN 8.6.0 安装到" in out and "试运行" in out
    assert fa.tree_hash(cuda) == before
    assert not journal.journals()


def test_windows_zip_old_layout_goes_to_bin_include_lib_x64(tmp_path: Path) -> None:
    cuda = fa.cuda_tree(tmp_path / "v11.2", windows=True)
    archive = fa.windows_zip(tmp_path, "8.1.1.33", "11.2", layout="old")
    host = LocalHost()
    request = cudnn.CudnnRequest(str(archive), str(cuda), cudnn_needed="8.1", tensorflow="2.10")
    with pytest.raises(FixError) as refused:  # a Windows cuDNN on this Linux machine
        cudnn.plan_cudnn(host, request)
    assert refused.value.message.id == "fix.refuse.wrong_os"
    request.force = True
    plan = cudnn.plan_cudnn(host, request)
    targets = {os.path.relpath(op.path, cuda) for op in plan.ops if op.kind == "file"}
    assert "bin/cudnn64_8.dll" in targets and "bin/cudnn_adv_train64_8.dll" in targets
    assert "lib/x64/cudnn.lib" in targets and "include/cudnn_version.h" in targets
    assert plan.verify["windows"] and plan.notes[0].id == "fix.plan.forced"
    journal.apply(host, plan)
    assert (cuda / "bin" / "cudnn64_8.dll").read_bytes() == fa.payload("cudnn64_8.dll")


def test_cudnn9_takes_the_subfolder_of_the_toolkits_cuda(tmp_path: Path) -> None:
    archive = fa.windows_zip(tmp_path, "9.3.0.75", "12", layout="archive",
                             variants=("11.8", "12.6"))
    info = cudnn.inspect(str(archive), cuda_major=12)
    assert info.version == "9.3.0" and info.cuda_majors == [12] and info.os == "windows"
    assert info.arch == "x86_64" and not info.missing
    dests = {"/".join(d): m.name for m, d in info.copies}
    assert dests["bin/cudnn64_9.dll"].endswith("bin/12.6/cudnn64_9.dll")
    assert dests["lib/x64/cudnn.lib"].endswith("lib/12.6/x64/cudnn.lib")
    assert cudnn.inspect(str(archive), cuda_major=11).copies[0][0].name.count("11.8") == 1


def test_cudnn8_windows_archive_layout_needs_zlibwapi(tmp_path: Path) -> None:
    cuda = fa.cuda_tree(tmp_path / "v11.8", version="11.8.0", windows=True)
    archive = fa.windows_zip(tmp_path, "8.9.7.29", "11", layout="archive")
    dll = tmp_path / "zlibwapi.dll"
    dll.write_bytes(b"MZ zlib")
    host = LocalHost()
    plan = cudnn.plan_cudnn(host, cudnn.CudnnRequest(str(archive), str(cuda), force=True))
    assert any(n.id == "fix.plan.zlibwapi_needed" for n in plan.notes)
    plan = cudnn.plan_cudnn(host, cudnn.CudnnRequest(str(archive), str(cuda), force=True,
                                                     zlibwapi=str(dll)))
    assert plan.ops[-1].path == str(cuda / "bin" / "zlibwapi.dll")
    (tmp_path / "not.dll").write_text("text")
    with pytest.raises(FixError):
        cudnn.plan_zlibwapi(host, str(tmp_path / "not.dll"), str(cuda / "bin"))


# --------------------------------------------------------------------------------------------
# bad input: exit 2, one line, the tree unchanged


def _traversal(tmp: Path) -> Path:
    return fa.linux_tar(tmp, extra=(("cudnn-linux-x86_64-8.6.0.163_cuda11-archive/lib/../../../"
                                     "evil.so", b"x", "file"),))


def _absolute(tmp: Path) -> Path:
    return fa.linux_tar(tmp, extra=(("/etc/evil.conf", b"x", "file"),))


def _link_out(tmp: Path) -> Path:
    return fa.linux_tar(tmp, extra=(("cudnn-linux-x86_64-8.6.0.163_cuda11-archive/lib/libx.so",
                                     "../../../../etc/passwd", "link"),))


def _truncated(tmp: Path) -> Path:
    path = fa.linux_tar(tmp, size=200000)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    return path


def _corrupt_zip(tmp: Path) -> Path:
    path = fa.windows_zip(tmp, "8.6.0.163", "11", layout="archive")
    data = bytearray(path.read_bytes())
    with zipfile.ZipFile(path) as archive:
        info = archive.getinfo(archive.namelist()[0])
    start = info.header_offset + 30 + len(info.filename) + 5
    data[start] ^= 0xFF
    path.write_bytes(bytes(data))
    return path


def _wrong_cuda(tmp: Path) -> Path:
    return fa.linux_tar(tmp, "8.9.7.29", cuda=12)


def _wrong_os(tmp: Path) -> Path:
    return fa.windows_zip(tmp, "8.6.0.163", "11", layout="archive")


def _tf_cannot_load(tmp: Path) -> Path:
    return fa.linux_tar(tmp, "9.3.0.75", cuda=11)


def _not_archive(tmp: Path) -> Path:
    path = tmp / "cudnn.tar.xz"
    path.write_text("<html>login required</html>")
    return path


BAD = {
    "traversal": (_traversal, "leaves its folder"),
    "absolute": (_absolute, "absolute path"),
    "link_out": (_link_out, "link pointing out"),
    "truncated": (_truncated, "damaged or incomplete"),
    "corrupt_zip": (_corrupt_zip, "damaged or incomplete"),
    "wrong_cuda": (_wrong_cuda, "CUDA 12, but"),
    "wrong_os": (_wrong_os, "cuDNN for windows"),
    "tf_cannot_load": (_tf_cannot_load, "cannot load cuDNN 9.3.0"),
    "not_archive": (_not_archive, "neither a zip nor a tar"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_archive_is_refused_and_nothing_changes(case: str, tmp_path: Path, capsys) -> None:
    make, words = BAD[case]
    cuda = fa.cuda_tree(tmp_path / "cuda")
    archive = make(tmp_path)
    before = fa.tree_hash(cuda)
    code, out, err = run(["fix", "cudnn", "--archive", str(archive), "--cuda-dir", str(cuda),
                          "--tf", "2.10", "--yes"], capsys)
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], err
    assert "Traceback" not in err
    assert fa.tree_hash(cuda) == before
    assert not journal.journals()


def test_force_installs_a_refused_version_but_never_an_unsafe_archive(tmp_path: Path,
                                                                      capsys) -> None:
    cuda = fa.cuda_tree(tmp_path / "cuda")
    code, _, err = run(["fix", "cudnn", "--archive", str(_tf_cannot_load(tmp_path)),
                        "--cuda-dir", str(cuda), "--tf", "2.10", "--yes", "--force",
                        "--no-recheck"], capsys)
    assert code == 0, err
    before = fa.tree_hash(cuda)
    (tmp_path / "t").mkdir()
    code, _, err = run(["fix", "cudnn", "--archive", str(_link_out(tmp_path / "t")),
                        "--cuda-dir", str(cuda), "--yes", "--force"], capsys)
    assert code == 2 and fa.tree_hash(cuda) == before


def test_a_destination_that_is_not_writable(tmp_path: Path, capsys, monkeypatch) -> None:
    cuda = fa.cuda_tree(tmp_path / "cuda")
    archive = fa.linux_tar(tmp_path)
    before = fa.tree_hash(cuda)
    monkeypatch.setattr(LocalHost, "dir_writable", lambda self, path: False)
    code, out, err = run(["fix", "cudnn", "--archive", str(archive), "--cuda-dir", str(cuda),
                          "--tf", "2.10", "--yes"], capsys)
    assert code == 2
    assert "belongs to the administrator" in err and "--var LD_LIBRARY_PATH" in err
    assert "sudo gpu-wizard" in err
    assert fa.tree_hash(cuda) == before


class FailingHost(LocalHost):
    """The write after ``after`` files fails half way: the disk fills up, or the folder refuses.
    (Removing the half-written file frees the space again, so the rollback can write.)"""

    def __init__(self, after: int, error: OSError) -> None:
        super().__init__()
        self.after, self.error, self.count = after, error, 0

    def write_file(self, path, chunks, temp=None):
        self.count += 1
        if self.count == self.after + 1:
            def half_then_fail():
                yield next(iter(chunks))
                raise self.error
            return super().write_file(path, half_then_fail(), temp)
        return super().write_file(path, chunks, temp)


@pytest.mark.parametrize("error, expected", [
    (OSError(errno.ENOSPC, "No space left on device"), "fix.failed.disk_full"),
    (PermissionError(errno.EACCES, "Permission denied"), "fix.failed.denied"),
])
def test_a_write_failing_mid_copy_puts_everything_back(tmp_path: Path, error, expected) -> None:
    cuda = fa.cuda_tree(tmp_path / "cuda")
    archive = fa.linux_tar(tmp_path, size=100000)
    before = fa.tree_hash(cuda)
    host = FailingHost(after=4, error=error)
    plan = cudnn.plan_cudnn(host, cudnn.CudnnRequest(str(archive), str(cuda)))
    with pytest.raises(FixError) as failed:
        journal.apply(host, plan)
    assert failed.value.message.id == expected
    assert host.count > 5  # the rollback wrote the backups back
    assert fa.tree_hash(cuda) == before
    assert journal.journals()[-1].status == journal.ROLLED_BACK


def test_cancel_mid_copy_puts_everything_back(tmp_path: Path) -> None:
    cuda = fa.cuda_tree(tmp_path / "cuda")
    archive = fa.linux_tar(tmp_path, size=3 << 20)  # several chunks per file
    before = fa.tree_hash(cuda)
    host = LocalHost()
    plan = cudnn.plan_cudnn(host, cudnn.CudnnRequest(str(archive), str(cuda)))
    calls = []

    def progress(fraction: float, text: str) -> None:
        calls.append(fraction)

    with pytest.raises(FixCancelled):
        journal.apply(host, plan, progress, cancelled=lambda: len(calls) > 6)
    assert 0 < max(calls) < 1
    assert fa.tree_hash(cuda) == before


def test_demo_mode_changes_nothing(tmp_path: Path, profiles_dir: Path) -> None:
    replay = ReplayHost.from_file(profiles_dir / sorted(os.listdir(profiles_dir))[0])
    assert not replay.can_write
    plan = Plan.from_dict(Plan("install_cudnn", cudnn.msg("fix.title.zlibwapi", dest="x"),
                               ops=[cudnn.Op("mkdir", str(tmp_path / "d"))]).to_dict())
    with pytest.raises(FixError) as refused:
        journal.apply(replay, plan)
    assert refused.value.message.id == "fix.demo_mode"
    assert "nothing will be changed" in str(refused.value)
    assert not (tmp_path / "d").exists()


def test_a_tar_archive_with_a_device_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "cudnn-linux-x86_64-8.6.0.163_cuda11-archive.tar.xz"
    with tarfile.open(path, "w:xz") as tar:
        info = tarfile.TarInfo("x/lib/dev")
        info.type = tarfile.CHRTYPE
        tar.addfile(info)
    with pytest.raises(FixError) as refused:
        cudnn.read_archive(str(path))
    assert refused.value.message.id == "fix.refuse.corrupt"


@pytest.mark.parametrize("kind", ["tar", "zip"])
def test_reading_the_archive_reports_progress_and_can_be_cancelled(tmp_path: Path,
                                                                  kind: str) -> None:
    cuda = fa.cuda_tree(tmp_path / "cuda")
    archive = (fa.linux_tar(tmp_path, size=200000) if kind == "tar" else
               fa.windows_zip(tmp_path, "8.6.0.163", "11", layout="archive"))
    before = fa.tree_hash(cuda)
    seen: list[float] = []
    plan = cudnn.plan_cudnn(LocalHost(), cudnn.CudnnRequest(str(archive), str(cuda), force=True),
                            progress=lambda fraction, text: seen.append(fraction))
    assert plan.ops and seen and min(seen) >= 0 and max(seen) <= 1.0
    assert seen == sorted(seen)
    with pytest.raises(FixCancelled):
        cudnn.plan_cudnn(LocalHost(), cudnn.CudnnRequest(str(archive), str(cuda), force=True),
                         cancelled=lambda: True)
    assert fa.tree_hash(cuda) == before


def test_an_older_fix_is_undone_only_after_the_later_one_on_the_same_files(tmp_path: Path,
                                                                           capsys) -> None:
    cuda = fa.cuda_tree(tmp_path / "cuda")
    before = fa.tree_hash(cuda)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first = fa.linux_tar(tmp_path / "a", "8.6.0.163", cuda=11)
    second = fa.linux_tar(tmp_path / "b", "8.9.7.29", cuda=11)
    for archive in (first, second):
        code, _, err = run(["fix", "cudnn", "--archive", str(archive), "--cuda-dir", str(cuda),
                            "--tf", "2.10", "--yes", "--no-recheck"], capsys)
        assert code == 0, err
    older, newer = journal.journals()
    code, _, err = run(["undo", "--id", older.id, "--yes"], capsys)
    assert code == 2 and f"undo {newer.id} first" in err
    assert run(["undo", "--yes"], capsys)[0] == 0  # the newer one
    assert run(["undo", "--yes"], capsys)[0] == 0  # then the older one
    assert fa.tree_hash(cuda) == before


def test_undo_does_not_throw_away_a_file_changed_since(tmp_path: Path, capsys) -> None:
    cuda = fa.cuda_tree(tmp_path / "cuda")
    before = fa.tree_hash(cuda)
    archive = fa.linux_tar(tmp_path)
    assert run(["fix", "cudnn", "--archive", str(archive), "--cuda-dir", str(cuda), "--tf",
                "2.10", "--yes", "--no-recheck"], capsys)[0] == 0
    (cuda / "include" / "cudnn.h").write_text("/* edited by hand since */\n")
    code, _, err = run(["undo", "--yes"], capsys)
    assert code == 2 and "Changed since" in err and "cudnn.h" in err
    assert (cuda / "include" / "cudnn.h").read_text() == "/* edited by hand since */\n"
    assert run(["undo", "--yes", "--force"], capsys)[0] == 0
    assert fa.tree_hash(cuda) == before
