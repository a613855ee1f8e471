"""A local HTTP server for the download tests: each path has a behaviour (serve, drop halfway,
ignore Range, stall, redirect, 404), and every request is recorded."""

from __future__ import annotations

import contextlib
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Optional


@dataclass
class Route:
    body: bytes = b""
    status: int = 200
    ranges: bool = True
    """Honour Range (206); False answers 200 with the whole body, as some servers do."""
    drop_after: Optional[int] = None
    """Close the connection after this many body bytes, the first ``drops`` times."""
    drops: int = 1
    stall: float = 0.0
    """Send the headers, then wait this long before the body."""
    location: Optional[str] = None
    etag: Optional[str] = '"v1"'
    fail_first: int = 0
    """Answer 503 to this many requests first (a busy server)."""
    served: int = 0


@dataclass
class Server:
    routes: dict[str, Route] = field(default_factory=dict)
    requests: list[dict[str, Any]] = field(default_factory=list)
    port: int = 0
    proxied: list[str] = field(default_factory=list)

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def hits(self, path: str) -> list[dict[str, Any]]:
        return [r for r in self.requests if r["path"] == path]


def _handler(server: Server) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: Any) -> None:  # quiet
            return None

        def handle(self) -> None:  # a client that hangs up (cancel, timeout) is no error
            with contextlib.suppress(ConnectionResetError, BrokenPipeError):
                super().handle()

        def do_GET(self) -> None:  # noqa: N802 (http.server's name)
            path = self.path
            if path.startswith("http://"):  # a proxy request: absolute URI
                server.proxied.append(path)
                path = "/" + path.split("/", 3)[3]
            server.requests.append({"path": path, "range": self.headers.get("Range"),
                                    "if_range": self.headers.get("If-Range")})
            route = server.routes.get(path)
            if route is None:
                self._simple(404)
                return
            route.served += 1
            if route.fail_first > 0:
                route.fail_first -= 1
                self._simple(503)
                return
            if route.location:
                self.send_response(route.status or 302)
                self.send_header("Location", route.location)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            if route.status != 200:
                self._simple(route.status)
                return
            self._body(route)

        def _simple(self, status: int) -> None:
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def _body(self, route: Route) -> None:
            body, start = route.body, 0
            wanted = self.headers.get("Range")
            if wanted and route.ranges and wanted.startswith("bytes="):
                start = int(wanted[6:].split("-")[0])
                if start >= len(body):
                    self._simple(416)
                    return
                self.send_response(206)
                self.send_header("Content-Range", f"bytes {start}-{len(body) - 1}/{len(body)}")
            else:
                self.send_response(200)
            if route.etag:
                self.send_header("ETag", route.etag)
            self.send_header("Accept-Ranges", "bytes" if route.ranges else "none")
            self.send_header("Content-Length", str(len(body) - start))
            self.end_headers()
            if route.stall:
                time.sleep(route.stall)
            payload = body[start:]
            if route.drop_after is not None and route.drops > 0:
                route.drops -= 1
                self.wfile.write(payload[:route.drop_after])
                self.wfile.flush()
                self.close_connection = True
                return
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                self.wfile.write(payload)

    return Handler


def start() -> tuple[Server, ThreadingHTTPServer]:
    state = Server()
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler(state))
    httpd.daemon_threads = True
    state.port = httpd.server_address[1]
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return state, httpd
