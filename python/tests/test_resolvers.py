"""Resolvers and the binding checks (SPEC §10): hidden from the model, filled at execution, fail closed."""

from __future__ import annotations

from typing import Any

import pytest

from loopback import LoopbackServer, json_answer, loopback_server
from rcp import RcpError, RcpWarning, create_rcp_client

NOTES = {
    "rcpVersion": "0.1",
    "tools": [
        {
            "name": "list_notes",
            "description": "Lists the user's notes.",
            "method": "GET",
            "url": "/users/{{userId}}/notes",
            "queryParams": {"tag": "{{tag}}", "lang": "{{lang}}"},
            "params": [{"name": "userId", "required": True}, {"name": "tag"}, {"name": "lang"}],
        }
    ],
}


def _serve(api: LoopbackServer, manifest: dict[str, Any] = NOTES) -> str:
    api.handler = lambda request: json_answer(200, manifest) if request.path == "/rcp/manifest" else json_answer(200, {"notes": []})
    return api.url("/rcp/manifest")


def _quiet(**options: Any) -> Any:
    return create_rcp_client(retry=0, on_warning=lambda warning, url: None, **options)


def test_a_resolver_fills_its_param_and_the_model_never_sees_or_sets_it() -> None:
    with loopback_server() as api:
        client = _quiet(resolvers={"userId": lambda ctx, info: ctx["user"]})
        tool = client.discover(_serve(api)).tools[0]
        assert tool.resolved_params == ("userId",)
        assert "userId" not in tool.input_schema["properties"] and tool.input_schema["required"] == []
        client.execute(tool, '{"tag": "a b"}', {"user": "u 1"})
        assert api.tool_requests()[0].target == "/users/u%201/notes?tag=a%20b"
        with pytest.raises(RcpError) as spoof:
            client.execute(tool, {"userId": "u-2"}, {"user": "u-1"})
        assert spoof.value.code == "RCP_INVALID_ARGUMENTS"
        assert len(api.tool_requests()) == 1


@pytest.mark.parametrize(
    ("resolver", "ctx", "code"),
    [
        (lambda ctx, info: None, {}, "RCP_UNRESOLVED"),
        (lambda ctx, info: ctx["missing"], {}, "RCP_RESOLVER_FAILED"),
        (lambda ctx, info: ctx["user"], None, "RCP_UNRESOLVED"),
        (lambda ctx, info: 7, {}, "RCP_RESOLVER_FAILED"),
    ],
)
def test_a_resolver_without_a_usable_value_stops_the_call_before_any_request(resolver: Any, ctx: Any, code: str) -> None:
    with loopback_server() as api:
        client = _quiet(resolvers={"userId": resolver})
        tool = client.discover(_serve(api)).tools[0]
        with pytest.raises(RcpError) as caught:
            client.execute(tool, {}, ctx)
        assert caught.value.code == code
        assert caught.value.param == "userId"  # type: ignore[attr-defined]
        assert api.tool_requests() == []


def test_an_optional_param_with_a_resolver_still_owes_a_value() -> None:
    with loopback_server() as api:
        client = _quiet(resolvers={"userId": lambda ctx, info: "u-1", "lang": lambda ctx, info: None})
        with pytest.raises(RcpError) as caught:
            client.execute(client.discover(_serve(api)).tools[0], {}, {})
        assert caught.value.code == "RCP_UNRESOLVED"
        assert api.tool_requests() == []


@pytest.mark.parametrize("name", ["userID", "user_id", "UserId", "usrId"])
def test_a_near_miss_resolver_name_fails_discovery(name: str) -> None:
    with loopback_server() as api:
        with pytest.raises(RcpError) as caught:
            _quiet(resolvers={name: lambda ctx, info: "u-1"}).discover(_serve(api))
        assert caught.value.code == "RCP_RESOLVER_MISMATCH"
        assert (caught.value.param, caught.value.path) == ("userId", "/tools/0/params/0")  # type: ignore[attr-defined]


def test_an_unbound_identity_is_an_error_once_the_client_has_resolvers_and_a_warning_otherwise() -> None:
    with loopback_server() as api:
        url = _serve(api)
        with pytest.raises(RcpError) as caught:
            _quiet(resolvers={"tenant": lambda ctx, info: "t"}).discover(url)
        assert caught.value.code == "RCP_UNBOUND_PARAM"
        seen: list[tuple[RcpWarning, str]] = []
        client = create_rcp_client(on_warning=lambda warning, manifest_url: seen.append((warning, manifest_url)))
        discovery = client.discover(url)
        client.discover(url)
        assert [warning.path for warning, _ in seen] == ["/tools/0/params/0"]  # once per client
        assert discovery.tools[0].params[0].looks_like_identity
        with pytest.raises(RcpError) as required:
            _quiet(require_resolved=True).discover(url)
        assert required.value.code == "RCP_UNBOUND_PARAM"
        with pytest.raises(RcpError) as listed:
            _quiet(require_resolved=["tag"], resolvers={"userId": lambda ctx, info: "u"}).discover(url)
        assert listed.value.param == "tag"  # type: ignore[attr-defined]
        assert _quiet(resolvers={"tenant": lambda ctx, info: "t"}, require_resolved=False).discover(url).warnings[0].path == "/tools/0/params/0"
        free = _quiet(resolvers={"tenant": lambda ctx, info: "t"}, model_filled_params=["userId"]).discover(url)
        assert free.warnings == () and "userId" in free.tools[0].input_schema["properties"]


def test_resolver_values_are_encoded_like_any_value_in_each_position() -> None:
    manifest = {
        "rcpVersion": "0.1",
        "tools": [{"name": "t", "description": "d", "method": "POST", "url": "/o/{{org}}", "headers": {"X-Org": "{{org}}"}, "body": {"org": "{{org}}", "n": "{{n}}"}, "params": [{"name": "org"}, {"name": "n", "type": "integer"}]}],
    }
    with loopback_server() as api:
        client = _quiet(resolvers={"org": lambda ctx, info: "a/b c", "n": lambda ctx, info: 3})
        client.execute(client.discover(_serve(api, manifest)).tools[0], {}, {})
        received = api.tool_requests()[0]
        assert (received.target, received.headers["x-org"], received.body) == ("/o/a%2Fb%20c", "a/b c", b'{"org":"a/b c","n":3}')
