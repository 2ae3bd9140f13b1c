"""Where secrets may go and what a manifest's tools may reach (SPEC §12, §12.1), end to end on loopback.

A public manifest host is played on loopback the way SPEC §12.1 says: the operator's ``classify_address``
calls it public, and the operator's ``resolve`` maps its name to 127.0.0.1. Every refusal is checked against
what the servers received: nothing but the manifest.
"""

from __future__ import annotations

import ipaddress
from typing import Any

import pytest

from loopback import Answer, Handler, LoopbackServer, json_answer, loopback_server
from rcp import PublicSuffixList, RcpError, classify_host, create_rcp_client, load_public_suffix_list
from rcp._trust import classify_ip

NO_WARNINGS: dict[str, Any] = {"on_warning": lambda warning, url: None}


@pytest.mark.parametrize(
    ("host", "kind"),
    [
        ("127.0.0.1", "local"),
        ("::1", "local"),
        ("localhost", "local"),
        ("api.localhost", "local"),
        ("10.0.0.5", "private"),
        ("100.64.1.1", "private"),
        ("fd12::1", "private"),
        ("0.0.0.0", "private"),
        ("224.0.0.1", "private"),
        ("printer.local", "private"),
        ("db.internal", "private"),
        ("nas.home.arpa", "private"),
        ("169.254.169.254", "link-local"),
        ("fe80::1", "link-local"),
        ("fd00:ec2::254", "link-local"),
        ("::ffff:169.254.169.254", "link-local"),
        ("64:ff9b::a9fe:a9fe", "link-local"),
        ("2002:a9fe:a9fe::1", "link-local"),
        ("::ffff:127.0.0.1", "local"),
        ("metadata.google.internal", "link-local"),
        ("metadata", "link-local"),
        ("instance-data.ec2.internal", "link-local"),
        ("93.184.215.14", "public"),
        ("2606:4700::1", "public"),
        ("example.com", "public"),
    ],
)
def test_the_classifier_table(host: str, kind: str) -> None:
    assert classify_host(host) == kind


def test_every_ipv4_spelling_is_read_as_the_url_parser_reads_it() -> None:
    client = create_rcp_client(**NO_WARNINGS)
    for spelling in ("0xa9fea9fe", "2852039166", "0251.0376.0251.0376", "169.254.43518"):
        discovery = client.load({"rcpVersion": "0.1", "tools": [{"name": "t", "description": "d", "method": "GET", "url": f"http://{spelling}/latest"}]}, manifest_url="http://127.0.0.1:1/m")
        assert discovery.tools[0].origin == "http://169.254.169.254"
        with pytest.raises(RcpError) as caught:
            client.prepare(discovery.tools[0])
        assert caught.value.code == "RCP_ORIGIN_NOT_ALLOWED"
    assert classify_ip(ipaddress.ip_address("::ffff:a9fe:a9fe")) == "link-local"


PSL = PublicSuffixList("// test list\ncom\nio\ngithub.io\nck\n*.ck\n!www.ck\n")


def test_the_public_suffix_list_gives_registrable_domains() -> None:
    assert PSL.registrable_domain("api.example.com") == "example.com"
    assert PSL.registrable_domain("a.github.io") == "a.github.io"
    assert PSL.registrable_domain("x.y.ck") == "x.y.ck"
    assert PSL.registrable_domain("www.ck") == "www.ck"
    assert PSL.registrable_domain("github.io") is None
    assert PSL.registrable_domain("127.0.0.1") is None
    assert PSL.registrable_domain("localhost") is None


def _manifest(*urls: str, auth: bool = True) -> dict[str, Any]:
    tools = [{"name": f"t{index}", "description": "d", "method": "GET", "url": url} for index, url in enumerate(urls)]
    manifest: dict[str, Any] = {"rcpVersion": "0.1", "tools": tools}
    if auth:
        manifest["auth"] = {"type": "header", "name": "Authorization", "scheme": "Bearer"}
    return manifest


def test_secrets_go_to_the_same_site_over_https_only_and_never_by_string_matching() -> None:
    client = create_rcp_client(credentials=lambda request: "tok", public_suffix_list=PSL, **NO_WARNINGS)
    discovery = client.load(
        _manifest("https://files.example.com/x", "http://files.example.com/x", "https://example.com.evil.io/x", "https://b.github.io/x"),
        manifest_url="https://api.example.com/rcp",
    )
    assert client.prepare(discovery.tools[0]).headers["Authorization"] == "Bearer [redacted]"
    for tool in discovery.tools[1:]:
        with pytest.raises(RcpError) as caught:
            client.prepare(tool)
        assert caught.value.code == "RCP_ORIGIN_NOT_ALLOWED"
    assert [warning.path for warning in discovery.warnings] == ["/tools/1", "/tools/2", "/tools/3"]
    other_site = client.load(_manifest("https://b.github.io/x"), manifest_url="https://a.github.io/rcp")
    with pytest.raises(RcpError):
        client.prepare(other_site.tools[0])


def test_trusted_origins_per_manifest_replace_the_clients_list() -> None:
    client = create_rcp_client(credentials=lambda request: "tok", trusted_origins=["https://files.example.com"], **NO_WARNINGS)
    manifest = _manifest("https://files.example.com/x")
    assert client.prepare(client.load(manifest, manifest_url="http://api.example.com/rcp").tools[0]).url == "https://files.example.com/x"
    per_manifest = client.load(manifest, manifest_url="http://api.example.com/rcp", trusted_origins=[])
    with pytest.raises(RcpError) as caught:
        client.prepare(per_manifest.tools[0])
    assert caught.value.code == "RCP_ORIGIN_NOT_ALLOWED"


def test_the_system_public_suffix_list_is_read_when_first_needed() -> None:
    system = load_public_suffix_list()
    if system is None:
        pytest.skip("no /usr/share/publicsuffix on this machine (Debian's publicsuffix package)")
    assert system.registrable_domain("a.b.example.co.uk") == "example.co.uk"
    assert system.registrable_domain("a.github.io") == "a.github.io"
    client = create_rcp_client(credentials=lambda request: "tok", **NO_WARNINGS)
    discovery = client.load(_manifest("https://files.example.co.uk/x", "https://b.github.io/x"), manifest_url="https://api.example.co.uk/rcp")
    assert client.prepare(discovery.tools[0]).url == "https://files.example.co.uk/x"
    assert [warning.path for warning in discovery.warnings] == ["/tools/1"]


def _public(manifest_server: LoopbackServer) -> dict[str, Any]:
    """Options that play ``public.test`` as a public host served by ``manifest_server`` on loopback."""
    names = {"public.test": "127.0.0.1", "rebind.test": "127.0.0.1", "metadata.test": "169.254.169.254"}

    def resolve(host: str, port: int) -> list[str]:
        return [names.get(host, host)]

    return {"resolve": resolve, "classify_address": lambda host: "public" if host == "public.test" else None, **NO_WARNINGS}


def test_a_public_manifest_cannot_reach_loopback_by_address_or_by_a_name_that_resolves_there() -> None:
    with loopback_server() as api:
        port = api.port
        manifest = _manifest(f"http://127.0.0.1:{port}/x", f"http://rebind.test:{port}/x", f"http://localhost:{port}/x", auth=False)
        api.handler = lambda request: json_answer(200, manifest) if request.path == "/rcp/manifest" else json_answer(200, {"secret": "internal"})
        client = create_rcp_client(retry=0, **_public(api))
        discovery = client.discover(f"http://public.test:{port}/rcp/manifest")
        assert [warning.path for warning in discovery.warnings] == ["/tools/0", "/tools/2"]
        for tool in discovery.tools:
            with pytest.raises(RcpError) as caught:
                client.execute(tool, {})
            assert caught.value.code == "RCP_ORIGIN_NOT_ALLOWED"
        assert api.tool_requests() == []
        opted_in = create_rcp_client(retry=0, allow_private_network=True, **_public(api))
        assert opted_in.execute(opted_in.discover(f"http://public.test:{port}/rcp/manifest").tools[1], {}).data == {"secret": "internal"}
        assert [request.path for request in api.tool_requests()] == ["/x"]


def test_link_local_is_refused_for_every_manifest_unless_the_operator_lists_its_origin() -> None:
    manifest = _manifest("http://169.254.169.254/latest/meta-data", "http://metadata.google.internal/computeMetadata/v1", "http://metadata.test/x", auth=False)
    for options in ({}, {"allow_private_network": True}):
        client = create_rcp_client(retry=0, resolve=lambda host, port: ["169.254.169.254"] if host == "metadata.test" else [host], **options, **NO_WARNINGS)  # type: ignore[arg-type]
        discovery = client.load(manifest, manifest_url="http://127.0.0.1:9/rcp", source_class="local")
        for tool in discovery.tools:
            with pytest.raises(RcpError) as caught:
                client.execute(tool, {})
            assert caught.value.code == "RCP_ORIGIN_NOT_ALLOWED"
    listed = create_rcp_client(allow_private_network=["http://169.254.169.254"], **NO_WARNINGS)
    assert listed.prepare(listed.load(manifest, manifest_url="http://127.0.0.1:9/rcp").tools[0]).url == "http://169.254.169.254/latest/meta-data"


def test_a_local_file_may_call_loopback_but_a_public_one_may_not_call_private_addresses() -> None:
    client = create_rcp_client(**NO_WARNINGS)
    local = client.load(_manifest("http://127.0.0.1:8080/x", "http://10.0.0.5/x", auth=False), manifest_url="https://tools.example.com/rcp", source_class="local")
    assert client.prepare(local.tools[0]).url == "http://127.0.0.1:8080/x"
    assert client.prepare(local.tools[1]).url == "http://10.0.0.5/x"
    public = client.load(_manifest("http://10.0.0.5/x", auth=False), manifest_url="https://tools.example.com/rcp")
    with pytest.raises(RcpError):
        client.prepare(public.tools[0])


def _redirecting(target: str, status: int = 302) -> Handler:
    return lambda request: Answer(status, [("Location", target)], b"")


def test_a_cross_origin_redirect_is_refused_and_nothing_reaches_the_other_origin() -> None:
    with loopback_server() as api, loopback_server() as other:
        manifest = _manifest("/x", auth=True)
        api.handler = lambda request: json_answer(200, manifest) if request.path == "/rcp/manifest" else _redirecting(other.url("/steal"))(request)
        client = create_rcp_client(retry=0, credentials=lambda request: "tok-1", **NO_WARNINGS)
        discovery = client.discover(api.url("/rcp/manifest"))
        with pytest.raises(RcpError) as caught:
            client.execute(discovery.tools[0], {})
        assert caught.value.code == "RCP_ORIGIN_NOT_ALLOWED"
        assert other.requests == []
        api.handler = _redirecting(f"http://user:pw@127.0.0.1:{api.port}/y")
        with pytest.raises(RcpError) as with_userinfo:
            client.execute(discovery.tools[0], {})
        assert with_userinfo.value.code == "RCP_ORIGIN_NOT_ALLOWED" and "pw" not in str(with_userinfo.value)
        assert [request.path for request in api.tool_requests()] == ["/x", "/x"]


@pytest.mark.parametrize(("method", "status", "then"), [("POST", 303, "GET"), ("PUT", 303, "GET"), ("POST", 302, "GET"), ("PUT", 301, "PUT"), ("DELETE", 302, "DELETE"), ("POST", 307, "POST"), ("PUT", 308, "PUT")])
def test_redirects_follow_fetchs_method_rule(method: str, status: int, then: str) -> None:
    with loopback_server() as api:
        tool = {"name": "t", "description": "d", "method": method, "url": "/a", "body": {"k": 1}}
        api.handler = lambda request: (
            json_answer(200, {"rcpVersion": "0.1", "tools": [tool]}) if request.path == "/rcp/manifest" else _redirecting("/b", status)(request) if request.path == "/a" else json_answer(200, {"ok": 1})
        )
        client = create_rcp_client(retry=0, **NO_WARNINGS)
        assert client.execute(client.discover(api.url("/rcp/manifest")).tools[0]).data == {"ok": 1}
        second = api.tool_requests()[1]
        assert (second.method, second.path) == (then, "/b")
        assert second.body == (b'{"k":1}' if then == method else b"")
        assert ("content-type" in second.headers) is (then == method)


def test_a_sixth_redirect_is_not_requested() -> None:
    with loopback_server() as api:
        hops = iter(range(100))
        api.handler = lambda request: json_answer(200, _manifest("/r", auth=False)) if request.path == "/rcp/manifest" else _redirecting(f"/r{next(hops)}")(request)
        client = create_rcp_client(retry=0, **NO_WARNINGS)
        with pytest.raises(RcpError) as caught:
            client.execute(client.discover(api.url("/rcp/manifest")).tools[0])
        assert caught.value.code == "RCP_NETWORK_ERROR"
        assert len(api.tool_requests()) == 6


def test_allow_origin_gates_every_request_and_a_policy_that_raises_refuses() -> None:
    with loopback_server() as api:
        api.handler = lambda request: json_answer(200, _manifest("/x", auth=False)) if request.path == "/rcp/manifest" else json_answer(200, {})

        def raising(url: str) -> bool:
            raise RuntimeError("policy bug")

        for policy in (lambda url: not url.endswith("/x"), raising):
            client = create_rcp_client(retry=0, allow_origin=lambda url: url.endswith("/rcp/manifest") or policy(url), **NO_WARNINGS)
            discovery = client.discover(api.url("/rcp/manifest"))
            with pytest.raises(RcpError) as caught:
                client.execute(discovery.tools[0])
            assert caught.value.code == "RCP_ORIGIN_NOT_ALLOWED"
        assert api.tool_requests() == []


def test_a_manifest_url_with_user_info_or_another_scheme_sends_nothing_and_is_never_quoted() -> None:
    client = create_rcp_client(**NO_WARNINGS)
    for url in ("http://user:s3cret-pw@127.0.0.1:9/m", "file:///etc/passwd", "/rcp/manifest"):
        with pytest.raises(RcpError) as caught:
            client.discover(url)
        assert caught.value.code == "RCP_DISCOVERY_FAILED"
        assert "s3cret" not in str(caught.value)
    with pytest.raises(RcpError) as options:
        create_rcp_client(trusted_origins=["https://u:s3cret@a.example"])
    assert options.value.code == "RCP_INVALID_OPTIONS" and "s3cret" not in str(options.value)


def test_the_manifest_follows_same_origin_redirects_only() -> None:
    with loopback_server() as api, loopback_server() as other:
        manifest: dict[str, Any] = _manifest(auth=False)
        api.handler = lambda request: (
            _redirecting("/rcp/manifest")(request) if request.path == "/same" else _redirecting(other.url("/rcp/manifest"))(request) if request.path == "/cross" else json_answer(200, manifest)
        )
        other.handler = lambda request: json_answer(200, manifest)
        client = create_rcp_client(**NO_WARNINGS)
        assert client.discover(api.url("/same")).manifest_url == api.url("/same")
        with pytest.raises(RcpError) as caught:
            client.discover(api.url("/cross"))
        assert caught.value.code == "RCP_DISCOVERY_FAILED"
        assert other.requests == []
