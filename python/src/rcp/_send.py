"""The sender: one attempt over ``http.client`` on an address it checked, redirects, retries, the size cap.

Each connection resolves its host once, refuses it when any resolved address breaks the private-network
rule (SPEC §12.1, at connect time), and connects to exactly the addresses it checked, so a name that
rebinds cannot reach 127.0.0.1 after the check. Nothing above this module opens a socket.
"""

from __future__ import annotations

import http.client
import socket
import time
import ssl
import zlib
from dataclasses import dataclass, field
from typing import Callable, Sequence

from ._deadline import Clock, Deadline, Sleep
from ._files import StreamedBody
from ._retry import ErrorReason, RetryPolicy, StatusReason, parse_retry_after, retry_wait
from ._url import Url, UrlError, resolve_reference
from .errors import RcpAbortedError, RcpError, RcpNetworkError, RcpOriginNotAllowedError, RcpResponseError

#: ``resolve(host, port)`` → the IP addresses to connect to, in order (the operator may pass their own DNS).
Resolve = Callable[[str, int], Sequence[str]]
#: ``check_address(url, address)`` → whether the connection to ``address`` for ``url`` is allowed.
CheckAddress = Callable[[Url, str], bool]

MAX_REDIRECTS = 5
REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
_CHUNK = 64 * 1024
#: Compressed input is decoded this much at a time, so one step of a bomb expands to about a megabyte at most.
_DECODE_SLICE = 1024


class _RedirectFailure(RcpNetworkError):
    """A redirect that is not followed (a sixth one, an unreadable target): never retried."""


def system_resolve(host: str, port: int) -> list[str]:
    """The addresses ``getaddrinfo`` gives for a host (an IP literal resolves to itself)."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    addresses: list[str] = []
    for info in infos:
        address = str(info[4][0])
        if address not in addresses:
            addresses.append(address)
    return addresses


@dataclass(frozen=True)
class Request:
    """One request as the client rendered it; header names as written."""

    method: str
    url: Url
    headers: tuple[tuple[str, str], ...]
    #: The bytes, or a body sent in chunks (a multipart body with files, SPEC §20.7), or none.
    body: "bytes | StreamedBody | None"


@dataclass
class Body:
    data: bytes
    cut: bool


class _Decoder:
    """Content decoding (gzip, deflate, stacked) with the cap counted on decoded bytes."""

    def __init__(self, encodings: list[str]) -> None:
        self._stages: list["zlib._Decompress"] = []
        for encoding in reversed(encodings):
            if encoding in ("gzip", "x-gzip"):
                self._stages.append(zlib.decompressobj(16 + zlib.MAX_WBITS))
            elif encoding == "deflate":
                self._stages.append(_DeflateStage())  # type: ignore[arg-type]
            elif encoding in ("identity", ""):
                continue
            else:
                raise RcpResponseError("RCP_INVALID_RESPONSE", f'The response uses the content encoding "{encoding[:40]}", which this client does not decode.', problem="bad-encoding")

    def feed(self, chunk: bytes) -> bytes:
        data = chunk
        try:
            for stage in self._stages:
                data = stage.decompress(data)
        except zlib.error:
            raise RcpResponseError("RCP_INVALID_RESPONSE", "The response's compressed body is corrupt.", problem="bad-encoding") from None
        return data


class _DeflateStage:
    """``deflate`` as servers send it: zlib-wrapped, or raw when the wrapper is missing."""

    def __init__(self) -> None:
        self._inner: "zlib._Decompress | None" = None
        self._start = b""

    def decompress(self, data: bytes) -> bytes:
        if self._inner is None:
            self._start += data
            if len(self._start) < 2:
                return b""
            header = self._start[:2]
            wrapped = header[0] & 0x0F == 8 and (header[0] * 256 + header[1]) % 31 == 0
            self._inner = zlib.decompressobj(zlib.MAX_WBITS if wrapped else -zlib.MAX_WBITS)
            data, self._start = self._start, b""
        return self._inner.decompress(data)


class LiveResponse:
    """An answer whose body has not been read yet; :meth:`read` reads it under a cap, :meth:`close` drops it."""

    def __init__(self, connection: http.client.HTTPConnection, response: http.client.HTTPResponse, url: Url, deadline: Deadline, unregister: Callable[[], None]) -> None:
        self._connection = connection
        self._response = response
        self.url = url
        self.status = response.status
        self.reason = response.reason or ""
        self.headers: list[tuple[str, str]] = [(name.lower(), value) for name, value in response.getheaders()]
        self._deadline = deadline
        self._unregister = unregister

    def header(self, name: str) -> str | None:
        """The first value of a header (names compared lower-cased)."""
        wanted = name.lower()
        for key, value in self.headers:
            if key == wanted:
                return value
        return None

    def content_length(self) -> int | None:
        value = self.header("content-length")
        if value is None or not value.strip().isdigit():
            return None
        return int(value.strip())

    def read(self, limit: int, *, cut: bool) -> Body:
        """Read the decoded body up to ``limit`` bytes: past it, a cut body (``cut``) or ``RCP_RESPONSE_TOO_LARGE``."""
        encodings = [part.strip().lower() for part in (self.header("content-encoding") or "").split(",") if part.strip()]
        decoder = _Decoder(encodings)
        parts: list[bytes] = []
        size = 0
        try:
            while True:
                self._deadline.check()
                sock = self._connection.sock
                if sock is not None:
                    sock.settimeout(max(self._deadline.remaining(), 0.001))
                chunk = self._response.read1(_CHUNK) if hasattr(self._response, "read1") else self._response.read(_CHUNK)
                if not chunk:
                    break
                for start in range(0, len(chunk), _DECODE_SLICE):
                    data = decoder.feed(chunk[start : start + _DECODE_SLICE])
                    parts.append(data)
                    size += len(data)
                    if size > limit:
                        break
                if size > limit:
                    if cut:
                        return Body(b"".join(parts)[:limit], True)
                    raise RcpResponseError(
                        "RCP_RESPONSE_TOO_LARGE",
                        f"The response is larger than the limit of {limit} bytes.",
                        problem="too-large",
                        limit=limit,
                    )
        except (socket.timeout, TimeoutError):
            self._deadline.check()
            raise self._deadline.timeout_error() from None
        except (OSError, http.client.HTTPException) as error:
            self._deadline.check()
            raise RcpNetworkError(f"The connection failed while reading the response ({type(error).__name__}).") from None
        finally:
            self.close()
        return Body(b"".join(parts), False)

    def read_stream(self, limit: int, feed: Callable[[bytes], bool], partial: Callable[[], bool]) -> bool:
        """Hand the decoded body to ``feed`` as it arrives, at most ``limit`` bytes, until ``feed`` says stop; never
        held whole. True when reading stopped before the end: ``feed`` said so, the cap was reached, or the deadline
        passed and ``partial()`` accepts what was read (otherwise ``RCP_TIMEOUT``). The connection is closed after."""
        encodings = [part.strip().lower() for part in (self.header("content-encoding") or "").split(",") if part.strip()]
        decoder = _Decoder(encodings)
        size = 0
        try:
            while True:
                if self._deadline.remaining() <= 0 and partial():
                    return True
                self._deadline.check()
                sock = self._connection.sock
                if sock is not None:
                    sock.settimeout(max(self._deadline.remaining(), 0.001))
                chunk = self._response.read1(_CHUNK) if hasattr(self._response, "read1") else self._response.read(_CHUNK)
                if not chunk:
                    return False
                for start in range(0, len(chunk), _DECODE_SLICE):
                    data = decoder.feed(chunk[start : start + _DECODE_SLICE])
                    room = limit - size
                    if len(data) > room:
                        feed(data[:room])
                        return True
                    size += len(data)
                    if feed(data):
                        return True
        except (socket.timeout, TimeoutError):
            if self._deadline.remaining() <= 0 and partial():
                return True
            self._deadline.check()
            raise self._deadline.timeout_error() from None
        except (OSError, http.client.HTTPException) as error:
            self._deadline.check()
            raise RcpNetworkError(f"The connection failed while reading the response ({type(error).__name__}).") from None
        finally:
            self.close()

    def close(self) -> None:
        self._unregister()
        try:
            self._connection.close()
        except OSError:  # pragma: no cover - closing never fails the call
            pass


@dataclass
class SendOptions:
    """What one call's sending needs: the retry policy, how to resolve and check, the clock."""

    retry: RetryPolicy
    resolve: Resolve = system_resolve
    check_address: CheckAddress | None = None
    #: ``allow_origin(url_href)``: the operator's SSRF policy for every request and redirect.
    allow_origin: Callable[[str], bool] | None = None
    clock: Clock | None = None
    sleep: Sleep | None = None
    ssl_context: ssl.SSLContext | None = field(default=None)
    on_redirect: Callable[[Url], None] | None = None


def _connect(url: Url, options: SendOptions, deadline: Deadline) -> http.client.HTTPConnection:
    port = url.effective_port
    try:
        addresses = list(options.resolve(url.hostname, port))
    except OSError as error:
        raise RcpNetworkError(f"The host of {url.origin} could not be resolved ({type(error).__name__}).") from None
    if not addresses:
        raise RcpNetworkError(f"The host of {url.origin} resolved to no address.")
    if options.check_address is not None:
        for address in addresses:
            if not options.check_address(url, address):
                raise RcpOriginNotAllowedError(
                    f"The host of {url.origin} resolved to an address the private-network rule refuses; nothing was sent.",
                    origin=url.origin,
                )
    last_error: OSError | None = None
    for address in addresses:
        deadline.check()
        try:
            sock = socket.create_connection((address, port), timeout=max(deadline.remaining(), 0.001))
        except OSError as error:
            last_error = error
            continue
        try:
            if url.scheme == "https":
                context = options.ssl_context or ssl.create_default_context()
                sock = context.wrap_socket(sock, server_hostname=url.hostname)
        except OSError as error:
            sock.close()
            raise RcpNetworkError(f"The TLS handshake with {url.origin} failed ({type(error).__name__}).") from None
        connection_class = http.client.HTTPSConnection if url.scheme == "https" else http.client.HTTPConnection
        connection: http.client.HTTPConnection = connection_class(url.hostname, port)
        connection.sock = sock
        return connection
    if isinstance(last_error, (socket.timeout, TimeoutError)):
        deadline.check()
        raise deadline.timeout_error()
    raise RcpNetworkError(f"The connection to {url.origin} failed ({type(last_error).__name__}).")


def _attempt(request: Request, options: SendOptions, deadline: Deadline) -> LiveResponse:
    deadline.check()
    connection = _connect(request.url, options, deadline)
    signal = deadline.signal
    unregister: Callable[[], None] = lambda: None
    if signal is not None:

        def shut() -> None:
            sock = connection.sock
            if sock is not None:
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

        unregister = signal.on_abort(shut)
    try:
        connection.putrequest(request.method, request.url.target, skip_host=True, skip_accept_encoding=True)
        host = request.url.host if request.url.port is None else f"{request.url.host}:{request.url.port}"
        connection.putheader("Host", host)
        for name, value in request.headers:
            connection.putheader(name, value)
        body = request.body
        if body is not None:
            connection.putheader("Content-Length", str(len(body) if isinstance(body, bytes) else body.length))
        if connection.sock is not None:
            connection.sock.settimeout(max(deadline.remaining(), 0.001))
        if body is None or isinstance(body, bytes):
            connection.endheaders(body)
        else:
            connection.endheaders()
            _send_chunks(connection, body, deadline)
        response = connection.getresponse()
    except (socket.timeout, TimeoutError):
        unregister()
        connection.close()
        deadline.check()
        raise deadline.timeout_error() from None
    except RcpError:
        # The deadline or the caller's signal ended a body sent in chunks: the connection goes with it.
        unregister()
        connection.close()
        raise
    except (OSError, http.client.HTTPException) as error:
        unregister()
        connection.close()
        if signal is not None and signal.aborted:
            raise RcpAbortedError("The call was aborted by its caller.") from None
        raise RcpNetworkError(f"The request to {request.url.origin} failed ({type(error).__name__}).") from None
    return LiveResponse(connection, response, request.url, deadline, unregister)


def _send_chunks(connection: http.client.HTTPConnection, body: StreamedBody, deadline: Deadline) -> None:
    """A body sent chunk by chunk within the deadline, counted against its Content-Length: never more, never less."""
    sent = 0
    for chunk in body.chunks():
        sent += len(chunk)
        if sent > body.length:
            raise http.client.HTTPException("the body is longer than its Content-Length")
        deadline.check()
        if connection.sock is not None:
            connection.sock.settimeout(max(deadline.remaining(), 0.001))
        connection.send(chunk)
    if sent != body.length:
        raise http.client.HTTPException("the body is shorter than its Content-Length")


def _redirected(request: Request, status: int) -> Request:
    method = request.method
    body = request.body
    if status == 303 and method != "HEAD" or status in (301, 302) and method == "POST":
        method, body = "GET", None
    headers = request.headers
    if body is None and request.body is not None:
        headers = tuple((name, value) for name, value in headers if name.lower() not in ("content-type", "content-length"))
    return Request(method, request.url, headers, body)


def _follow(request: Request, options: SendOptions, deadline: Deadline, origin: str) -> LiveResponse:
    """One attempt with its redirects: same origin only, at most five hops, fetch's method rule."""
    current = request
    for hop in range(MAX_REDIRECTS + 1):
        _check_destination(current.url, options, origin)
        response = _attempt(current, options, deadline)
        location = response.header("location")
        if response.status not in REDIRECT_STATUSES or location is None:
            return response
        response.close()
        if hop == MAX_REDIRECTS:
            raise _RedirectFailure(f"More than {MAX_REDIRECTS} redirects; the next one was not requested.")
        try:
            target = resolve_reference(current.url, location)
        except UrlError:
            raise _RedirectFailure("A redirect pointed at a URL that cannot be parsed; it was not requested.") from None
        if target.has_userinfo:
            raise RcpOriginNotAllowedError("A redirect pointed at a URL with user info; nothing was sent to it.", origin=target.origin)
        if target.origin != origin:
            raise RcpOriginNotAllowedError(f"A redirect left the tool's origin {origin}; nothing was sent to the other origin.", origin=target.origin)
        if options.on_redirect is not None:
            options.on_redirect(target)
        current = _redirected(Request(current.method, target, current.headers, current.body), response.status)
    raise RcpNetworkError("Too many redirects.")  # pragma: no cover


def _check_destination(url: Url, options: SendOptions, origin: str) -> None:
    if url.origin != origin:
        raise RcpOriginNotAllowedError(f"The request left the tool's origin {origin}.", origin=url.origin)
    if options.allow_origin is not None:
        try:
            allowed = options.allow_origin(url.href)
        except Exception:  # noqa: BLE001 - a policy that raises refuses
            allowed = False
        if allowed is not True:
            raise RcpOriginNotAllowedError("The client's allowOrigin policy refused this destination; nothing was sent.", origin=url.origin)


def send(
    request: Request, options: SendOptions, deadline: Deadline, *, on_retry: Callable[[int, float], None] | None = None, keyed: bool = False
) -> LiveResponse:
    """Send a request: redirects followed by the client, retries by the policy, all within ``deadline``.

    ``keyed``: the request carries an idempotency key (SPEC §20.1) and is retried as an idempotent one.
    Returns the final answer (any status) with its body unread.
    """
    sleep: Sleep = options.sleep or time.sleep
    origin = request.url.origin
    attempt = 0
    while True:
        attempt += 1
        try:
            response = _follow(request, options, deadline, origin)
        except RcpError as error:
            if error.code != "RCP_NETWORK_ERROR" or isinstance(error, _RedirectFailure):
                raise
            wait = retry_wait(options.retry, request.method, attempt, ErrorReason(error), keyed=keyed)
            if wait is None or not deadline.fits(wait):
                raise
            _wait(wait, deadline, sleep)
            if on_retry is not None:
                on_retry(attempt, wait)
            continue
        if response.status < 400 or response.status in REDIRECT_STATUSES:
            return response
        retry_after = parse_retry_after(response.header("retry-after"))
        wait = retry_wait(options.retry, request.method, attempt, StatusReason(response.status, retry_after), keyed=keyed)
        if wait is None or not deadline.fits(wait):
            return response
        response.close()
        _wait(wait, deadline, sleep)
        if on_retry is not None:
            on_retry(attempt, wait)


def _wait(seconds: float, deadline: Deadline, sleep: Sleep) -> None:
    signal = deadline.signal
    if signal is not None:
        if signal.wait(seconds):
            deadline.check()
        return
    sleep(seconds)

