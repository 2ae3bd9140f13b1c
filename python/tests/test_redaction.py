"""Secrets never leave through errors, results or prepared requests (SPEC §8, §10, §14, §16.3).

The attacks: a server that echoes the credential or a resolver's value back, in every form an encoder
writes it, in an error body, a 2xx body, a reason phrase, a cursor.
"""

from __future__ import annotations

import json
from typing import Any, Callable

import pytest

from loopback import Answer, Handler, LoopbackServer, json_answer, loopback_server
from rcp import CredentialRequest, RcpError, RcpHttpError, RcpTool, create_rcp_client, to_model_result, to_model_text

TOKEN = "tok/SECRET ë\"77"
TENANT = "acme-tenant-42"


def _setup(api: LoopbackServer, answer: Handler, auth: dict[str, Any] | None = None, **options: Any) -> tuple[Any, Any]:
    manifest = {
        "rcpVersion": "0.2",
        "auth": auth or {"type": "header", "name": "Authorization", "scheme": "Bearer"},
        "tools": [{"name": "t", "description": "d", "method": "GET", "url": "/t/{{tenant}}/items", "params": [{"name": "tenant"}, {"name": "q"}], "queryParams": {"q": "{{q}}"}}],
    }
    api.handler = lambda request: json_answer(200, manifest) if request.path == "/rcp/manifest" else answer(request)
    client = create_rcp_client(retry=0, credentials=lambda request: TOKEN, resolvers={"tenant": lambda ctx, info: TENANT}, on_warning=lambda warning, url: None, **options)
    return client, client.discover(api.url("/rcp/manifest")).tools[0]


def _everything(error: BaseException) -> str:
    parts = [str(error), repr(error), repr(vars(error))]
    cause = error.__cause__
    while cause is not None:
        parts += [str(cause), repr(cause)]
        cause = cause.__cause__
    return "\n".join(parts)


ECHOES = [
    TOKEN,
    json.dumps(TOKEN),
    json.dumps(TOKEN, ensure_ascii=False),
    json.dumps(TOKEN).replace("\\u00eb", "\\u00EB"),
    json.dumps(TOKEN).replace("/", "\\/"),
    json.dumps(json.dumps(TOKEN)),
    "tok%2FSECRET%20%C3%AB%2277",
    "tok%2fsecret%20%c3%ab%2277",
    TOKEN.lower(),
]


@pytest.mark.parametrize("echo", ECHOES)
def test_an_error_never_carries_the_credential_or_a_resolver_value_in_any_form(echo: str) -> None:
    with loopback_server() as api:
        body = f"denied for {echo} of {TENANT} and {json.dumps(TENANT)}".encode()
        client, tool = _setup(api, lambda request: Answer(403, [("Content-Type", "text/plain")], body))
        with pytest.raises(RcpHttpError) as caught:
            client.execute(tool, {"q": "x"}, {})
        text = _everything(caught.value) + to_model_text(to_model_result(caught.value))
        for secret in ("SECRET", "secret", TENANT, "ë"):
            assert secret not in text
        assert caught.value.url == f"{api.origin}/t/[redacted]/items"
        assert "[redacted]" in caught.value.body_excerpt


def test_the_excerpt_is_redacted_before_it_is_cut() -> None:
    with loopback_server() as api:
        body = ("x" * 1020 + TOKEN).encode()
        client, tool = _setup(api, lambda request: Answer(500, [("Content-Type", "text/plain")], body))
        with pytest.raises(RcpHttpError) as caught:
            client.execute(tool, {}, {})
        assert len(caught.value.body_excerpt) == 1024
        assert caught.value.body_excerpt.endswith("x[red")


def test_a_2xx_body_that_echoes_the_credential_is_redacted_keys_included_resolver_values_kept() -> None:
    with loopback_server() as api:
        client, tool = _setup(api, lambda request: json_answer(200, {"you sent": TOKEN, TOKEN: [TENANT]}))
        result = client.execute(tool, {}, {})
        assert result.data == {"you sent": "[redacted]", "[redacted]": [TENANT]}


def test_a_cut_text_loses_enough_of_its_end_that_no_part_of_the_credential_remains() -> None:
    with loopback_server() as api:
        # The cut at 405 bytes goes through the credential: "…atok/S".
        client, tool = _setup(api, lambda request: Answer(200, [("Content-Type", "text/plain")], ("a" * 400 + TOKEN).encode()), max_response_bytes=405)
        result = client.execute(tool, {}, {})
        assert result.truncated and result.data == "a" * (405 - 12 * len(TOKEN))


def test_prepare_hides_the_credential_and_shows_resolver_values() -> None:
    with loopback_server() as api:
        client, tool = _setup(api, lambda request: json_answer(200, {}))
        prepared = client.prepare(tool, {"q": "x y"}, {})
        assert prepared.url == f"{api.origin}/t/{TENANT}/items?q=x%20y"
        assert dict(prepared.headers) == {"Authorization": "Bearer [redacted]"}
        assert "SECRET" not in repr(prepared)
        assert api.tool_requests() == []
        query, query_tool = _setup(api, lambda request: json_answer(200, {}), auth={"type": "query", "name": "api_key"})
        assert query.prepare(query_tool, {}, {}).url == f"{api.origin}/t/{TENANT}/items?api_key=[redacted]"


def test_prepare_lists_the_tools_headers_the_body_type_and_the_auth_header_in_that_order() -> None:
    with loopback_server() as api:
        manifest = {
            "rcpVersion": "0.1",
            "auth": {"type": "header", "name": "Authorization", "scheme": "Bearer"},
            "tools": [{"name": "t", "description": "d", "method": "POST", "url": "/x", "headers": {"X-Tag": "v", "Accept": "text/csv"}, "body": {"a": 1}}],
        }
        api.handler = lambda request: json_answer(200, manifest) if request.path == "/rcp/manifest" else json_answer(200, {})
        client = create_rcp_client(retry=0, credentials=lambda request: TOKEN, headers={"X-Client": "c"})
        tool = client.discover(api.url("/rcp/manifest")).tools[0]
        prepared = client.prepare(tool)
        assert list(prepared.headers.items()) == [("X-Tag", "v"), ("Accept", "text/csv"), ("content-type", "application/json"), ("Authorization", "Bearer [redacted]")]
        client.execute(tool)
        sent = api.tool_requests()[0].headers
        assert (sent["x-client"], sent["accept"], sent["accept-encoding"], sent["authorization"]) == ("c", "text/csv", "gzip, deflate", f"Bearer {TOKEN}")


def test_a_reason_phrase_is_cleaned_and_redacted() -> None:
    with loopback_server() as api:
        client, tool = _setup(api, lambda request: Answer(418, [("Content-Type", "text/plain")], b"no"))
        with pytest.raises(RcpHttpError) as caught:
            client.execute(tool, {}, {})
        assert caught.value.status == 418 and "\n" not in caught.value.message


def _returning(credential: str) -> Callable[[CredentialRequest], str]:
    return lambda request: credential


def test_a_credential_that_already_carries_its_scheme_is_refused_without_being_quoted() -> None:
    with loopback_server() as api:
        manifest = {"rcpVersion": "0.1", "auth": {"type": "header", "name": "Authorization", "scheme": "Bearer"}, "tools": [{"name": "t", "description": "d", "method": "GET", "url": "/x"}]}
        api.handler = lambda request: json_answer(200, manifest)
        for credential in ("bearer abc-123", "Bearer abc-123", "", "  ", "a\nb", "ünïcode€"):
            client = create_rcp_client(credentials=_returning(credential), on_warning=lambda warning, url: None)
            tool = client.discover(api.url("/rcp/manifest")).tools[0]
            runs: list[Callable[[RcpTool], object]] = [client.prepare, client.execute]
            for run in runs:
                with pytest.raises(RcpError) as caught:
                    run(tool)
                assert caught.value.code == "RCP_MISSING_CREDENTIALS"
                assert "abc-123" not in _everything(caught.value)
        assert api.tool_requests() == []


def test_prepare_shows_a_form_body_as_its_encoded_text() -> None:
    manifest = {"rcpVersion": "0.2", "tools": [{"name": "t", "description": "d", "method": "POST", "url": "/x", "bodyEncoding": "form", "body": {"To": "{{to}}"}, "params": [{"name": "to", "type": "array"}]}]}
    client = create_rcp_client()
    tool = client.load(manifest, manifest_url="http://127.0.0.1:9/rcp").tools[0]
    assert client.prepare(tool, {"to": ["+1", None, "+2"]}).body == "To=%2B1&To=%2B2"
