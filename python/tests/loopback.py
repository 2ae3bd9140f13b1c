"""A real HTTP server on 127.0.0.1:0 for tests: it records every request and answers what the test says.

Tests assert what the server received (method, raw target, headers, body), including that it received
nothing when a call must fail early.
"""

from __future__ import annotations

import email.parser
import email.policy
import hashlib
import json
import threading
from dataclasses import dataclass, field
from email.message import EmailMessage
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Callable, Iterator, cast

from contextlib import contextmanager


@dataclass(frozen=True)
class Received:
    """One request as the server received it: the raw request target, headers lower-cased."""

    method: str
    target: str
    headers: dict[str, str]
    body: bytes

    @property
    def path(self) -> str:
        return self.target.split("?", 1)[0]


@dataclass
class Answer:
    """What the server answers: a status, headers, the body bytes."""

    status: int = 200
    headers: list[tuple[str, str]] = field(default_factory=list)
    body: bytes = b""


def json_answer(status: int, value: object, headers: list[tuple[str, str]] | None = None) -> Answer:
    return Answer(status, [("Content-Type", "application/json")] + (headers or []), json.dumps(value).encode("utf-8"))


Handler = Callable[[Received], Answer]


class LoopbackServer:
    """A threaded HTTP/1.1 server on 127.0.0.1 with an ephemeral port."""

    def __init__(self) -> None:
        self.requests: list[Received] = []
        self.handler: Handler = lambda request: json_answer(200, {})
        self._lock = threading.Lock()
        server = self

        class _Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: object) -> None:
                return None

            def _handle(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                received = Received(self.command, self.path, {name.lower(): value for name, value in self.headers.items()}, body)
                with server._lock:
                    server.requests.append(received)
                answer = server.handler(received)
                self.send_response_only(answer.status)
                names = {name.lower() for name, _ in answer.headers}
                for name, value in answer.headers:
                    self.send_header(name, value)
                if "content-length" not in names:
                    self.send_header("Content-Length", str(len(answer.body)))
                self.send_header("Connection", "close")
                self.end_headers()
                try:
                    if self.command != "HEAD":
                        self.wfile.write(answer.body)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up first (a deadline or an abort under test)
                self.close_connection = True

            do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = do_OPTIONS = _handle

        class _Server(ThreadingHTTPServer):
            def handle_error(self, request: object, client_address: object) -> None:
                return None  # a client that hung up is part of some tests

        self._server = _Server(("127.0.0.1", 0), _Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True)
        self._thread.start()

    @property
    def port(self) -> int:
        return int(self._server.server_address[1])

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def url(self, path: str) -> str:
        return self.origin + path

    def reset(self, handler: Handler | None = None) -> None:
        with self._lock:
            self.requests = []
        self.handler = handler or (lambda request: json_answer(200, {}))

    def tool_requests(self) -> list[Received]:
        """What reached the server besides the manifest."""
        return [request for request in self.requests if request.path != "/rcp/manifest"]

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()


@contextmanager
def loopback_server(handler: Handler | None = None) -> Iterator[LoopbackServer]:
    """A started server, closed when the block ends."""
    server = LoopbackServer()
    if handler is not None:
        server.handler = handler
    try:
        yield server
    finally:
        server.close()


def multipart_parts(content_type: str | None, body: bytes) -> list[dict[str, str]]:
    """A multipart/form-data body as the cases list it, parsed by the standard library's MIME parser: ``{name, value}``
    for a text part, ``{name, filename, contentType, sha256}`` (of the bytes received) for a file part."""
    assert content_type is not None and content_type.startswith("multipart/form-data; boundary="), content_type
    message = cast(EmailMessage, email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(b"Content-Type: " + content_type.encode("latin-1") + b"\r\n\r\n" + body))
    assert message.is_multipart() and not message.defects, message.defects
    parts: list[dict[str, str]] = []
    for part in message.iter_parts():
        disposition = part.get("content-disposition")
        assert disposition is not None and disposition.content_disposition == "form-data"
        name = disposition.params["name"]
        payload = part.get_payload(decode=True)
        assert isinstance(payload, bytes)
        filename = part.get_filename()
        if filename is None:
            assert part.get("content-type") is None, "a text part has no Content-Type"
            parts.append({"name": name, "value": payload.decode("utf-8")})
        else:
            parts.append({"name": name, "filename": filename, "contentType": part.get_content_type(), "sha256": hashlib.sha256(payload).hexdigest()})
    return parts
