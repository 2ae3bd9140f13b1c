"""Long-running operations (SPEC §20.8): a pending operation resumed in another client sharing the secret, for the
same caller only, against a loopback server."""

from __future__ import annotations

import json
from typing import Any

import pytest

from loopback import Answer, LoopbackServer, Received, json_answer
from rcp import RcpError, create_rcp_client, to_model_result

SECRET = "the render service operation secret, 32+ bytes"
TOKENS = {"ada": "tok-ada-31337", "bob": "tok-bob-4242"}


def _manifest() -> dict[str, Any]:
    return {
        "rcpVersion": "0.4",
        "auth": {"type": "header", "name": "Authorization", "scheme": "Bearer"},
        "tools": [
            {
                "name": "render",
                "description": "Renders a video.",
                "method": "POST",
                "url": "/renders",
                "params": [{"name": "prompt", "required": True}, {"name": "tenant", "required": True}],
                "headers": {"X-Tenant": "{{tenant}}"},
                "body": {"prompt": "{{prompt}}"},
                "operation": {"statusUrl": "header:Location", "state": "@status", "done": ["succeeded"], "result": "@output", "pollSeconds": 60},
            }
        ],
    }


def _client(secret: str = SECRET) -> Any:
    return create_rcp_client(
        retry=0,
        timeout=5,
        approval_secret=secret,
        resolvers={"tenant": lambda ctx, info: ctx["tenant"]},
        credentials=lambda request: TOKENS[request.ctx["user"]],
        on_warning=lambda warning, url: None,
    )


def test_pending_then_resumed_in_another_client_for_the_same_caller_only() -> None:
    server = LoopbackServer()
    done = {"value": False}

    def handler(request: Received) -> Answer:
        if request.path == "/rcp/manifest":
            return json_answer(200, _manifest())
        if request.method == "POST":
            return Answer(202, [("Content-Type", "application/json"), ("Location", "/jobs/j-1")], json.dumps({"status": "queued"}).encode())
        return json_answer(200, {"status": "succeeded", "output": "ok"} if done["value"] else {"status": "running"})

    try:
        server.reset(handler)
        ada = {"user": "ada", "tenant": "t-1"}
        first = _client()
        discovery = first.discover(server.url("/rcp/manifest"))
        result = first.execute(discovery.tool("render"), {"prompt": "x"}, ada)
        assert result.pending is not None and result.pending.check_after_seconds == 60
        assert to_model_result(result)["pending"] == {"handle": result.pending.handle, "checkAfterSeconds": 60}
        for secret in ("jobs", "t-1", "tok-ada"):
            assert secret not in result.pending.handle
        assert [request.method for request in server.tool_requests()] == ["POST"]
        done["value"] = True
        second = _client()
        other = second.discover(server.url("/rcp/manifest"))
        server.reset(handler)
        for ctx in ({"user": "bob", "tenant": "t-1"}, {"user": "ada", "tenant": "t-2"}):
            with pytest.raises(RcpError) as refused:
                second.resume(other, result.pending.handle, ctx)
            assert refused.value.code == "RCP_INVALID_HANDLE"
        with pytest.raises(RcpError) as stranger:
            _client("another operator secret, also 32+ bytes").resume(other, result.pending.handle, ada)
        assert stranger.value.code == "RCP_INVALID_HANDLE"
        assert server.tool_requests() == []
        resumed = second.resume(other, result.pending.handle, ada)
        assert (resumed.data, resumed.pending) == ("ok", None)
        [poll] = server.tool_requests()
        assert (poll.method, poll.target, poll.headers["authorization"], poll.headers["x-tenant"]) == ("GET", "/jobs/j-1", "Bearer tok-ada-31337", "t-1")
    finally:
        server.close()


def test_a_short_secret_is_refused() -> None:
    with pytest.raises(RcpError) as error:
        create_rcp_client(approval_secret="short")
    assert error.value.code == "RCP_INVALID_OPTIONS"
