"""Sending (SPEC §11 steps 5–7, §13): retries, the one deadline, abort, the size cap, decoding.

Retries and deadlines run on a fake clock whose sleep only advances it: nothing in these tests sleeps.
"""

from __future__ import annotations

import gzip
import threading
from typing import Any, Callable

import pytest

from loopback import Answer, LoopbackServer, Received, json_answer, loopback_server
from rcp import AbortController, RcpError, RetryPolicy, create_rcp_client
from rcp._retry import StatusReason, backoff, parse_retry_after, retry_wait


class FakeClock:
    """A monotonic clock that moves only when something sleeps on it."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(round(seconds, 3))
        self.now += seconds


def _serve(api: LoopbackServer, tool: dict[str, Any], answer: Callable[[Received], Answer]) -> str:
    manifest = {"rcpVersion": "0.3", "tools": [dict({"name": "t", "description": "d", "method": "GET", "url": "/x"}, **tool)]}
    api.handler = lambda request: json_answer(200, manifest) if request.path == "/rcp/manifest" else answer(request)
    return api.url("/rcp/manifest")


def _client(clock: FakeClock, **options: Any) -> Any:
    return create_rcp_client(clock=clock, sleep=clock.sleep, on_warning=lambda warning, url: None, **options)


def _statuses(*statuses: int, headers: list[tuple[str, str]] | None = None) -> Callable[[Received], Answer]:
    answers = iter(statuses)
    return lambda request: json_answer(next(answers), {"n": 1}, headers)


def test_the_backoff_and_the_retry_after_rule() -> None:
    assert [backoff(attempt) for attempt in (1, 2, 3, 4, 5)] == [0.1, 0.2, 0.4, 0.8, 1.0]
    policy = RetryPolicy()
    assert retry_wait(policy, "GET", 1, StatusReason(503, 3.0)) == 3.0
    assert retry_wait(policy, "GET", 1, StatusReason(503, 11.0)) is None
    assert retry_wait(policy, "POST", 1, StatusReason(503)) is None
    assert retry_wait(policy, "GET", 3, StatusReason(503)) is None
    assert retry_wait(policy, "GET", 1, StatusReason(500)) is None
    assert retry_wait(RetryPolicy(methods=frozenset({"POST"}), delay=lambda attempt, reason: -1), "POST", 1, StatusReason(503)) == 0.1
    assert parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT", now=1445412470.0) == 10.0
    assert parse_retry_after("soon") is None


def test_an_idempotent_call_is_retried_with_the_backoff_and_post_never() -> None:
    clock = FakeClock()
    with loopback_server() as api:
        url = _serve(api, {}, _statuses(503, 502, 200))
        client = _client(clock)
        assert client.execute(client.discover(url).tools[0]).data == {"n": 1}
        assert clock.slept == [0.1, 0.2]
        assert len(api.tool_requests()) == 3
        api.reset()
        url = _serve(api, {"method": "POST", "body": {}}, _statuses(503, 200))
        with pytest.raises(RcpError) as caught:
            client.execute(client.discover(url).tools[0])
        assert caught.value.code == "RCP_HTTP_ERROR"
        assert len(api.tool_requests()) == 1


def test_a_keyed_write_is_retried_with_its_key_on_a_409_and_a_500_never() -> None:
    """SPEC §20.1: a write of a tool that declares idempotency carries one key per call, the same on each retry;
    it is retried as an idempotent request (and on a 409), never on a 500."""
    clock = FakeClock()
    with loopback_server() as api:
        manifest = {"rcpVersion": "0.4", "tools": [{"name": "pay", "description": "d", "method": "POST", "url": "/pay", "idempotency": {"header": "Idempotency-Key"}}]}
        answers = iter([409, 503, 201])
        api.handler = lambda request: json_answer(200, manifest) if request.path == "/rcp/manifest" else json_answer(next(answers), {"n": 1})
        client = _client(clock)
        tool = client.discover(api.url("/rcp/manifest")).tools[0]
        assert client.execute(tool).data == {"n": 1}
        keys = [request.headers.get("idempotency-key") for request in api.tool_requests()]
        assert len(keys) == 3 and len(set(keys)) == 1 and keys[0] is not None and 18 <= len(keys[0]) <= 257
        api.reset()
        api.handler = lambda request: json_answer(200, manifest) if request.path == "/rcp/manifest" else json_answer(500, {"n": 1})
        with pytest.raises(RcpError) as caught:
            client.execute(client.discover(api.url("/rcp/manifest")).tools[0])
        assert caught.value.code == "RCP_HTTP_ERROR"
        assert len(api.tool_requests()) == 1


def test_retry_after_is_honoured_up_to_ten_seconds_and_a_longer_one_is_the_models_to_honour() -> None:
    clock = FakeClock()
    with loopback_server() as api:
        client = _client(clock)
        url = _serve(api, {}, _statuses(429, 200, headers=[("Retry-After", "3")]))
        client.execute(client.discover(url).tools[0])
        assert clock.slept == [3.0]
        url = _serve(api, {}, _statuses(503, 200, headers=[("Retry-After", "120")]))
        with pytest.raises(RcpError) as caught:
            client.execute(client.discover(url).tools[0])
        assert caught.value.retry_after_seconds == 120  # type: ignore[attr-defined]
        assert clock.slept == [3.0]


def test_a_wait_that_would_end_past_the_deadline_is_not_taken() -> None:
    clock = FakeClock()
    with loopback_server() as api:
        url = _serve(api, {}, _statuses(503, 200, headers=[("Retry-After", "5")]))
        client = _client(clock, timeout=4)
        with pytest.raises(RcpError) as caught:
            client.execute(client.discover(url).tools[0])
        assert caught.value.code == "RCP_HTTP_ERROR"
        assert clock.slept == []


def test_the_deadline_covers_resolvers_and_a_late_resolver_sends_nothing() -> None:
    clock = FakeClock()

    def slow_tenant(ctx: object, info: object) -> str:
        clock.now += 31
        return "acme"

    with loopback_server() as api:
        url = _serve(api, {"url": "/x/{{tenant}}", "params": [{"name": "tenant"}]}, _statuses(200))
        client = _client(clock, resolvers={"tenant": slow_tenant})
        with pytest.raises(RcpError) as caught:
            client.execute(client.discover(url).tools[0], {}, {})
        assert caught.value.code == "RCP_TIMEOUT"
        assert api.tool_requests() == []


def test_a_server_that_never_answers_ends_at_the_deadline() -> None:
    release = threading.Event()
    with loopback_server() as api:

        def hang(request: Received) -> Answer:
            release.wait(5)
            return json_answer(200, {})

        url = _serve(api, {}, hang)
        # A real 1 s socket timeout: the operating system's timer, not a sleep in the test. The deadline covers the
        # discovery too (the tool is this client's), and a 50 ms one ran out there on a loaded CI.
        client = create_rcp_client(timeout=1.0, retry=0, on_warning=lambda warning, url: None)
        discovery = client.discover(url)
        with pytest.raises(RcpError) as caught:
            client.execute(discovery.tools[0])
        release.set()
        assert caught.value.code == "RCP_TIMEOUT"


def test_an_abort_ends_a_call_in_flight_and_is_never_retried() -> None:
    received = threading.Event()
    release = threading.Event()
    with loopback_server() as api:

        def hold(request: Received) -> Answer:
            received.set()
            release.wait(5)
            return json_answer(200, {})

        url = _serve(api, {}, hold)
        client = create_rcp_client(on_warning=lambda warning, url: None)
        tool = client.discover(url).tools[0]
        controller = AbortController()
        outcome: list[BaseException] = []

        def run() -> None:
            try:
                client.execute(tool, signal=controller.signal)
            except RcpError as error:
                outcome.append(error)

        thread = threading.Thread(target=run)
        thread.start()
        assert received.wait(5)
        controller.abort()
        thread.join(5)
        release.set()
        assert [getattr(error, "code", None) for error in outcome] == ["RCP_ABORTED"]
        assert len(api.tool_requests()) == 1


def test_gzip_is_decoded_and_the_cap_counts_decoded_bytes() -> None:
    bomb = gzip.compress(b'{"a":"' + b"0" * 200_000 + b'"}')
    small = gzip.compress(b'{"a":1}')
    with loopback_server() as api:
        answers = iter([Answer(200, [("Content-Type", "application/json"), ("Content-Encoding", "gzip")], small), Answer(200, [("Content-Type", "application/json"), ("Content-Encoding", "gzip")], bomb)])
        url = _serve(api, {}, lambda request: next(answers))
        client = create_rcp_client(retry=0, max_response_bytes=10_000, on_warning=lambda warning, url: None)
        tool = client.discover(url).tools[0]
        assert client.execute(tool).data == {"a": 1}
        assert api.tool_requests()[0].headers["accept-encoding"] == "gzip, deflate"
        assert len(bomb) < 10_000
        with pytest.raises(RcpError) as caught:
            client.execute(tool)
        assert caught.value.code == "RCP_RESPONSE_TOO_LARGE"


def test_a_declared_length_over_the_cap_fails_before_reading_but_text_is_cut() -> None:
    with loopback_server() as api:
        answers = iter([json_answer(200, {"long": "x" * 100}), Answer(200, [("Content-Type", "text/plain; charset=utf-8")], ("é" * 60).encode())])
        url = _serve(api, {}, lambda request: next(answers))
        client = create_rcp_client(retry=0, max_response_bytes=51, on_warning=lambda warning, url: None)
        tool = client.discover(url).tools[0]
        with pytest.raises(RcpError) as caught:
            client.execute(tool)
        assert caught.value.code == "RCP_RESPONSE_TOO_LARGE"
        result = client.execute(tool)
        assert result.truncated is True and result.data == "é" * 25  # never half a UTF-8 character


@pytest.mark.parametrize(
    ("content_type", "body", "expected"),
    [
        ("application/json", b"", None),
        ("application/json", b"\xef\xbb\xbf[1]", [1]),
        ("application/vnd.api+json", b'{"a":1}', {"a": 1}),
        ("text/csv", b"a,b\n", "a,b\n"),
        ("application/xml", b"<a/>", "<a/>"),
        ("text/plain; charset=iso-8859-1", b"caf\xe9", "café"),
        (None, b"plain words", "plain words"),
        ("application/vnd.github.diff", b"+ x\n", "+ x\n"),
    ],
)
def test_answers_are_decoded_by_their_media_type(content_type: str | None, body: bytes, expected: Any) -> None:
    with loopback_server() as api:
        url = _serve(api, {}, lambda request: Answer(200, [("Content-Type", content_type)] if content_type else [], body))
        client = create_rcp_client(retry=0, on_warning=lambda warning, url: None)
        result = client.execute(client.discover(url).tools[0])
        assert result.data == expected and result.media is None


def test_an_html_page_is_refused_unless_the_operator_allows_it() -> None:
    with loopback_server() as api:
        url = _serve(api, {}, lambda request: Answer(200, [("Content-Type", "text/html; charset=utf-8")], b"<p>Sign in</p>"))
        with pytest.raises(RcpError) as caught:
            client = create_rcp_client(retry=0, on_warning=lambda warning, url: None)
            client.execute(client.discover(url).tools[0])
        assert caught.value.code == "RCP_INVALID_RESPONSE"
        allowing = create_rcp_client(retry=0, allow_html_responses=True, on_warning=lambda warning, url: None)
        assert allowing.execute(allowing.discover(url).tools[0]).data == "<p>Sign in</p>"


def test_a_network_failure_is_retried_for_a_read_and_a_redirect_loop_never() -> None:
    clock = FakeClock()
    with loopback_server() as api:
        url = _serve(api, {}, _statuses(200))
        client = _client(clock)
        discovery = client.discover(url)
    # The server is gone: every attempt fails to connect, and the call is retried twice before it fails.
    with pytest.raises(RcpError) as caught:
        client.execute(discovery.tools[0])
    assert caught.value.code == "RCP_NETWORK_ERROR"
    assert clock.slept == [0.1, 0.2]
    with loopback_server() as api:
        hops = iter(range(100))
        url = _serve(api, {}, lambda request: Answer(302, [("Location", f"/r{next(hops)}")], b""))
        looping = _client(clock)
        with pytest.raises(RcpError):
            looping.execute(looping.discover(url).tools[0])
        assert len(api.tool_requests()) == 6 and clock.slept == [0.1, 0.2]
