"""wizard.core.downloads against a local HTTP server (tests/core/dl_server.py)."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from tests.core import dl_server
from wizard.core import downloads
from wizard.core.downloads import DownloadCancelled, DownloadError, Options, Request
from wizard.core.messages import render

BODY = os.urandom(300_000) + b"end"
SHA = hashlib.sha256(BODY).hexdigest()
PROXY_VARS = ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY", "http_proxy",
              "https_proxy", "all_proxy", "no_proxy")


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch):
    for name in PROXY_VARS:
        monkeypatch.delenv(name, raising=False)
    state, httpd = dl_server.start()
    yield state
    httpd.shutdown()
    httpd.server_close()


def _options(**kw) -> Options:
    base = dict(connect_timeout=2.0, read_timeout=2.0, retries=2, backoff=0.01,
                allow_hosts=("127.0.0.1",))
    base.update(kw)
    return Options(**base)


def _request(server, tmp_path: Path, path: str = "/f.zip", **kw) -> Request:
    return Request(server.url(path), str(tmp_path / "out" / "f.zip"), **kw)


def test_plain_download_verified_and_progress(server, tmp_path: Path) -> None:
    server.routes["/f.zip"] = dl_server.Route(BODY)
    seen: list[downloads.Progress] = []
    result = downloads.download(_request(server, tmp_path, sha256=SHA), seen.append,
                                options=_options())
    assert Path(result.path).read_bytes() == BODY
    assert result.fetched and not result.resumed and result.sha256 == SHA
    assert seen[-1].done == len(BODY) and seen[-1].total == len(BODY)
    assert seen[-1].fraction == 1.0
    assert not Path(result.path + ".part").exists()


def test_dropped_connection_resumes_with_range(server, tmp_path: Path) -> None:
    server.routes["/f.zip"] = dl_server.Route(BODY, drop_after=100_000)
    result = downloads.download(_request(server, tmp_path, sha256=SHA), options=_options())
    assert Path(result.path).read_bytes() == BODY
    assert result.resumed and result.attempts == 2
    second = server.hits("/f.zip")[1]
    kept = int(second["range"][len("bytes="):-1])  # whole chunks written before the drop
    assert 0 < kept <= 100_000 and second["range"] == f"bytes={kept}-"
    assert second["if_range"] == '"v1"'


def test_server_ignoring_range_restarts_cleanly(server, tmp_path: Path) -> None:
    server.routes["/f.zip"] = dl_server.Route(BODY, drop_after=100_000, ranges=False)
    result = downloads.download(_request(server, tmp_path, sha256=SHA), options=_options())
    assert Path(result.path).read_bytes() == BODY  # not the first 100 kB twice
    assert not result.resumed
    assert server.hits("/f.zip")[1]["range"].startswith("bytes=")  # asked, got 200


def test_404_names_the_url_and_saves_nothing(server, tmp_path: Path) -> None:
    request = _request(server, tmp_path, "/missing.zip")
    with pytest.raises(DownloadError) as caught:
        downloads.download(request, options=_options())
    text = render(caught.value.message, "en")
    assert "404" in text and request.url in text
    assert "HTTP 404" in render(caught.value.message, "zh_CN")
    assert not Path(request.dest).exists()
    assert len(server.hits("/missing.zip")) == 1  # a 404 is not retried


def test_wrong_checksum_leaves_nothing_under_the_final_name(server, tmp_path: Path) -> None:
    server.routes["/f.zip"] = dl_server.Route(BODY)
    request = _request(server, tmp_path, sha256="0" * 64)
    with pytest.raises(DownloadError) as caught:
        downloads.download(request, options=_options())
    assert caught.value.message.id == "download.error.checksum"
    assert caught.value.message.params["actual"] == SHA
    assert not Path(request.dest).exists()
    assert not Path(request.dest + ".part").exists()
    assert not Path(request.dest + ".part.json").exists()


def test_md5_and_size_checks(server, tmp_path: Path) -> None:
    server.routes["/f.zip"] = dl_server.Route(BODY)
    md5 = hashlib.md5(BODY).hexdigest()
    result = downloads.download(_request(server, tmp_path, md5=md5, size=len(BODY)),
                                options=_options())
    assert result.fetched
    os.remove(result.path)
    with pytest.raises(DownloadError) as caught:
        downloads.download(_request(server, tmp_path, size=len(BODY) + 1), options=_options())
    assert caught.value.message.id == "download.error.size"
    assert not Path(result.path).exists()


def test_stalled_server_times_out_with_the_part_named(server, tmp_path: Path) -> None:
    server.routes["/f.zip"] = dl_server.Route(BODY, stall=3.0)
    request = _request(server, tmp_path, sha256=SHA)
    with pytest.raises(DownloadError) as caught:
        downloads.download(request, options=_options(read_timeout=0.3, retries=1))
    assert caught.value.message.id == "download.error.timeout"
    assert request.dest + ".part" in render(caught.value.message, "en")
    assert not Path(request.dest).exists()
    assert len(server.hits("/f.zip")) == 2  # one retry


def test_redirect_to_an_unlisted_host_is_refused(server, tmp_path: Path) -> None:
    server.routes["/f.zip"] = dl_server.Route(location="https://evil.example.com/f.zip",
                                              status=302)
    request = _request(server, tmp_path)
    with pytest.raises(DownloadError) as caught:
        downloads.download(request, options=_options())
    assert caught.value.message.id == "download.error.redirect_host"
    assert caught.value.message.params["host"] == "evil.example.com"
    assert not Path(request.dest).exists()


def test_redirect_within_allowed_hosts_is_followed(server, tmp_path: Path) -> None:
    server.routes["/old.zip"] = dl_server.Route(location="/f.zip", status=301)
    server.routes["/f.zip"] = dl_server.Route(BODY)
    result = downloads.download(_request(server, tmp_path, "/old.zip", sha256=SHA),
                                options=_options())
    assert Path(result.path).read_bytes() == BODY


def test_cancel_keeps_the_part_and_the_next_call_resumes(server, tmp_path: Path) -> None:
    server.routes["/f.zip"] = dl_server.Route(BODY)
    request = _request(server, tmp_path, sha256=SHA)
    state = {"cancel": False}

    def progress(p: downloads.Progress) -> None:
        if p.done >= 100_000:
            state["cancel"] = True

    with pytest.raises(DownloadCancelled):
        downloads.download(request, progress, lambda: state["cancel"], options=_options())
    assert not Path(request.dest).exists()
    kept = Path(request.dest + ".part").stat().st_size
    assert 100_000 <= kept < len(BODY)
    result = downloads.download(request, options=_options())
    assert result.resumed and Path(request.dest).read_bytes() == BODY
    assert server.hits("/f.zip")[-1]["range"] == f"bytes={kept}-"


def test_a_verified_file_is_not_fetched_again(server, tmp_path: Path) -> None:
    server.routes["/f.zip"] = dl_server.Route(BODY)
    request = _request(server, tmp_path, sha256=SHA)
    downloads.download(request, options=_options())
    again = downloads.download(request, options=_options())
    assert not again.fetched
    assert len(server.hits("/f.zip")) == 1


@pytest.mark.parametrize("url,key", [
    ("http://developer.download.nvidia.com/compute/x.zip", "download.error.scheme"),
    ("https://example.com/x.zip", "download.error.host"),
    ("ftp://developer.download.nvidia.com/x.zip", "download.error.scheme"),
])
def test_refused_urls(url: str, key: str, tmp_path: Path) -> None:
    with pytest.raises(DownloadError) as caught:
        downloads.download(Request(url, str(tmp_path / "x.zip")))
    assert caught.value.message.id == key


def test_plain_http_needs_the_loopback_allowed_explicitly(server, tmp_path: Path) -> None:
    server.routes["/f.zip"] = dl_server.Route(BODY)
    with pytest.raises(DownloadError) as caught:
        downloads.download(_request(server, tmp_path), options=_options(allow_hosts=()))
    assert caught.value.message.id == "download.error.host"  # "--allow-host 127.0.0.1"
    assert server.requests == []
    downloads.check_url("https://developer.download.nvidia.com/compute/redist/x.zip")
    downloads.check_url("https://mirror.example.org/x.zip", ("mirror.example.org",))
    with pytest.raises(DownloadError):  # plain HTTP to another machine, even when allowed
        downloads.check_url("http://mirror.example.org/x.zip", ("mirror.example.org",))


def test_proxy_from_the_environment_is_used(server, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    server.routes["/f.zip"] = dl_server.Route(BODY)
    proxy, httpd = dl_server.start()  # answers absolute-URI requests from its own routes
    try:
        proxy.routes["/f.zip"] = dl_server.Route(BODY)
        monkeypatch.setenv("HTTP_PROXY", proxy.url(""))
        result = downloads.download(_request(server, tmp_path, sha256=SHA), options=_options())
    finally:
        httpd.shutdown()
        httpd.server_close()
    assert Path(result.path).read_bytes() == BODY
    assert proxy.proxied == [server.url("/f.zip")]
    assert server.requests == []


def test_cache_dir_override(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(downloads.CACHE_ENV, str(tmp_path))
    url = "https://developer.download.nvidia.com/compute/redist/cudnn/v8.1.1/a%20b.zip"
    assert downloads.cached_path(url) == tmp_path / "a b.zip"


def test_progress_words() -> None:
    p = downloads.Progress(50 << 20, 100 << 20, speed=10 << 20, eta=5)
    assert render(downloads.describe_progress(p), "en") == \
        "50% 50.0 MiB of 100.0 MiB, 10.0 MiB/s, 0:05 left"
    assert "剩余" in render(downloads.describe_progress(p), "zh_CN")
    assert downloads.Progress(1, None).fraction is None


def test_download_command(server, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from wizard import cli

    server.routes["/f.zip"] = dl_server.Route(BODY)
    out = tmp_path / "f.zip"
    base = ["download", server.url("/f.zip"), "-o", str(out), "--allow-host", "127.0.0.1"]
    assert cli.main([*base, "--sha256", "1" * 64, "--lang", "en"]) == 2
    assert "does not match its checksum" in capsys.readouterr().err
    assert not out.exists()
    assert cli.main([*base, "--sha256", SHA, "--lang", "en"]) == 0
    assert out.read_bytes() == BODY and SHA in capsys.readouterr().out
    assert cli.main([*base, "--sha256", SHA, "--lang", "zh_CN"]) == 0
    assert "不再重复下载" in capsys.readouterr().out
    assert cli.main(["download", "https://example.org/x.zip", "-o", str(tmp_path / "x")]) == 2
    assert "--allow-host example.org" in capsys.readouterr().err
    assert cli.main([*base, "--sha256", "xyz"]) == 2
    folder = tmp_path / "into"
    folder.mkdir()
    assert cli.main(["download", server.url("/f.zip"), "-o", str(folder), "--allow-host",
                     "127.0.0.1", "--sha256", SHA]) == 0
    assert (folder / "f.zip").read_bytes() == BODY


# --- fix cudnn --download -------------------------------------------------------------------

def _cudnn_finding(host):
    from wizard.core.diagnose import run_check

    report = run_check(host)
    for layer in report.layers:
        for finding in layer.findings:
            if finding.fix and finding.fix.action == "install_cudnn":
                return finding
    raise AssertionError("no install_cudnn finding")


def test_download_plan_on_a_recorded_windows_machine_is_plan_only(
        profiles_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from wizard.core.fixes import cudnn_download
    from wizard.core.fixes.plan import FixError
    from wizard.core.host import ReplayHost

    monkeypatch.setenv(downloads.CACHE_ENV, str(tmp_path / "cache"))
    host = ReplayHost.from_file(profiles_dir / "win-tf210-cudnn-never-copied.json")
    finding = _cudnn_finding(host)
    plan = cudnn_download.download_plan(host, finding.fix.action_params)
    assert plan.archive.file == "cudnn-11.2-windows-x64-v8.1.0.77.zip"  # TF 2.10: 8.1 for 11.2
    assert plan.url.startswith("https://developer.download.nvidia.com/compute/redist/cudnn/")
    assert plan.cuda and plan.cuda.startswith("11.2") and not plan.cached
    text = "\n".join(plan.lines("en"))
    assert plan.url in text and "sha256" in text and "Demo mode" in text
    assert "NVIDIA" in "\n".join(plan.lines("zh_CN"))
    data = plan.to_dict()
    assert data["verified_by"] == "sha256" and data["archive"]["sha256"] == plan.archive.sha256
    with pytest.raises(FixError) as refused:
        cudnn_download.fetch(host, plan)
    assert refused.value.message.id == "fix.demo_mode"
    assert not (tmp_path / "cache").exists()


@pytest.fixture
def served_cudnn(server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """NVIDIA's cuDNN 8.1.1 tgz path on the local server, holding a test archive whose sha256
    the redist table is told; downloads redirected there, into a temporary cache."""
    import copy

    import fix_archives as fa

    from wizard.core.knowledge import redist

    noise = os.urandom(300_000)  # incompressible: the drop halfway leaves whole chunks behind
    archive = fa.linux_tar(tmp_path, "8.1.1.33", cuda=11, extra=(
        ("cudnn-linux-x86_64-8.1.1.33_cuda11-archive/NOTICE.bin", noise, "file"),))
    body = archive.read_bytes()
    real = redist.redist_data()
    row = next(r for r in real["cudnn"] if r["file"] == "cudnn-11.2-linux-x64-v8.1.1.33.tgz")
    table = copy.deepcopy(real)
    for r in table["cudnn"]:
        if r["file"] == row["file"]:
            r["sha256"] = hashlib.sha256(body).hexdigest()
    monkeypatch.setattr(redist, "redist_data", lambda: table)
    path = row["url"][len(redist.NVIDIA_BASE):]
    server.routes[path] = dl_server.Route(body, drop_after=len(body) // 2)
    monkeypatch.setenv(redist.BASE_ENV, server.url(""))
    monkeypatch.setenv(downloads.CACHE_ENV, str(tmp_path / "cache"))
    return path


@pytest.mark.usefixtures("fix_state")
def test_fix_cudnn_download_end_to_end(server, served_cudnn: str, tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    import fix_archives as fa

    from wizard import cli

    cuda = fa.cuda_tree(tmp_path / "cuda-11.2")
    before = fa.tree_hash(cuda)
    argv = ["fix", "cudnn", "--download", "--cuda-dir", str(cuda), "--tf", "2.10",
            "--allow-host", "127.0.0.1", "--no-recheck", "--lang", "en"]
    assert cli.main([*argv, "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert server.url(served_cudnn) in out and "sha256" in out
    assert server.hits(served_cudnn) == []  # a dry run downloads nothing

    assert cli.main([*argv, "--yes"]) == 0, capsys.readouterr().err
    out = capsys.readouterr().out
    assert "Downloaded and verified" in out and "Install cuDNN 8.1.1" in out
    assert len(server.hits(served_cudnn)) == 2  # dropped halfway, resumed with Range
    assert server.hits(served_cudnn)[1]["range"]
    assert os.readlink(cuda / "lib64" / "libcudnn.so.8") == "libcudnn.so.8.1.1"
    assert fa.tree_hash(cuda) != before

    assert cli.main(["undo", "--yes"]) == 0
    assert fa.tree_hash(cuda) == before
    capsys.readouterr()
    assert cli.main([*argv, "--yes"]) == 0  # again: the cached, verified archive
    assert "Already downloaded and verified" in capsys.readouterr().out
    assert len(server.hits(served_cudnn)) == 2


@pytest.mark.usefixtures("fix_state")
def test_fix_cudnn_download_with_a_wrong_archive_installs_nothing(
        server, served_cudnn: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import fix_archives as fa

    from wizard import cli

    server.routes[served_cudnn] = dl_server.Route(b"not the archive the table names")
    cuda = fa.cuda_tree(tmp_path / "cuda-11.2")
    before = fa.tree_hash(cuda)
    code = cli.main(["fix", "cudnn", "--download", "--cuda-dir", str(cuda), "--tf", "2.10",
                     "--allow-host", "127.0.0.1", "--yes", "--lang", "en"])
    assert code == 2
    assert "does not match its checksum" in capsys.readouterr().err
    assert fa.tree_hash(cuda) == before
    assert list((tmp_path / "cache").iterdir()) == []


def test_fix_cudnn_download_without_the_host_allowed_is_refused(
        server, served_cudnn: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        fix_state: Path) -> None:
    import fix_archives as fa

    from wizard import cli

    cuda = fa.cuda_tree(tmp_path / "cuda-11.2")
    code = cli.main(["fix", "cudnn", "--download", "--cuda-dir", str(cuda), "--tf", "2.10",
                     "--yes", "--lang", "en"])
    assert code == 2 and "--allow-host 127.0.0.1" in capsys.readouterr().err
    assert server.requests == []


def test_no_archive_known_is_one_line_with_the_next_step(tmp_path: Path) -> None:
    import fix_archives as fa

    from wizard.core.fixes import cudnn_download
    from wizard.core.fixes.plan import FixError
    from wizard.core.host import LocalHost

    cuda = fa.cuda_tree(tmp_path / "cuda", version="11.2.0")
    with pytest.raises(FixError) as refused:
        cudnn_download.download_plan(LocalHost(), {"dest": str(cuda), "cudnn": "9.3"})
    text = render(refused.value.message, "en")
    assert "cuDNN 9.3 for CUDA 11.2" in text and "--archive FILE" in text


def test_ctrl_c_cancels_the_download_command_cleanly(server, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    from wizard import cli, dlcli

    server.routes["/f.zip"] = dl_server.Route(BODY)

    def interrupting(lang: str):
        def show(p: downloads.Progress) -> None:
            if p.done >= 100_000:
                raise KeyboardInterrupt

        return show

    monkeypatch.setattr(dlcli, "progress_printer", interrupting)
    out = tmp_path / "f.zip"
    code = cli.main(["download", server.url("/f.zip"), "-o", str(out), "--sha256", SHA,
                     "--allow-host", "127.0.0.1", "--lang", "en"])
    assert code == 2
    assert "cancelled: nothing was saved" in capsys.readouterr().err
    assert not out.exists() and Path(str(out) + ".part").stat().st_size >= 100_000


def test_a_busy_server_is_retried_with_back_off(server, tmp_path: Path) -> None:
    server.routes["/f.zip"] = dl_server.Route(BODY, fail_first=2)
    waits: list[float] = []
    result = downloads.download(_request(server, tmp_path, sha256=SHA),
                                options=_options(backoff=0.5, sleep=waits.append))
    assert Path(result.path).read_bytes() == BODY and result.attempts == 3
    assert sum(waits) == pytest.approx(0.5 + 1.0, abs=0.05)  # 0.5 s, then twice that
    server.routes["/g.zip"] = dl_server.Route(BODY, fail_first=5)
    with pytest.raises(DownloadError) as caught:
        downloads.download(_request(server, tmp_path, "/g.zip"),
                           options=_options(sleep=lambda s: None))
    assert "503" in render(caught.value.message, "en")
