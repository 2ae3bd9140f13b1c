"""RCP 0.4 files (SPEC §20.7) against a real loopback server: a PNG and a PDF received byte for byte (SHA-256 checked,
parsed with the standard library's MIME parser), a stream spooled and sent in chunks, the limits and the reference
rule refusing before anything is sent, and the manifest rules of where a file may go."""

from __future__ import annotations

import hashlib
import json
from typing import Any, Iterator

import pytest

from fixtures import pdf_bytes, png_bytes
from loopback import Answer, LoopbackServer, Received, json_answer, multipart_parts
from rcp import FileResolverInfo, RcpError, RcpInvalidManifestError, ResolvedFile, create_rcp_client, parse_manifest

TOKEN = "upload-token-123"


def _manifest(**tool: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "name": "upload",
        "description": "Uploads an image and a document.",
        "method": "POST",
        "url": "/v1/uploads",
        "params": [
            {"name": "image", "type": "file", "required": True, "mediaTypes": ["image/png"], "maxBytes": 1024},
            {"name": "document", "type": "file", "mediaTypes": ["application/pdf"]},
            {"name": "purpose"},
        ],
        "bodyEncoding": "multipart",
        "body": {"purpose": "{{purpose}}", "image": "{{image}}", "document": "{{document}}"},
    }
    base.update(tool)
    return {"rcpVersion": "0.4", "auth": {"type": "header", "name": "Authorization", "scheme": "Bearer"}, "tools": [base]}


class _Host:
    """The host's attachments per user, and every reference its resolver was asked for."""

    def __init__(self, files: dict[str, ResolvedFile]) -> None:
        self.files = files
        self.asked: list[tuple[str, str]] = []

    def __call__(self, reference: str, ctx: Any, info: FileResolverInfo) -> ResolvedFile | None:
        self.asked.append((reference, info.param))
        return self.files.get(reference) if ctx["user"] == "ada" else None


def _serve(server: LoopbackServer, manifest: dict[str, Any], answer: Answer | None = None) -> str:
    def handle(request: Received) -> Answer:
        if request.path == "/rcp/manifest":
            return json_answer(200, manifest)
        return answer or json_answer(201, {"id": "up-1"})

    server.reset(handle)
    return server.url("/rcp/manifest")


def _client(host: Any, **options: Any) -> Any:
    return create_rcp_client(retry=0, timeout=5, files=host, credentials=lambda request: TOKEN, on_warning=lambda warning, url: None, **options)


ADA = {"user": "ada"}


@pytest.fixture()
def server() -> Iterator[LoopbackServer]:
    instance = LoopbackServer()
    try:
        yield instance
    finally:
        instance.close()


def test_a_png_and_a_pdf_reach_the_server_byte_for_byte_and_prepare_shows_their_digests(server: LoopbackServer) -> None:
    png, pdf = png_bytes(), pdf_bytes()
    host = _Host({"att-png": ResolvedFile("chart.png", "image/png", data=png), "att-pdf": ResolvedFile('q3 "final".pdf', "application/pdf", data=pdf)})
    client = _client(host)
    tool = client.discover(_serve(server, _manifest())).tool("upload")
    args = {"image": "att-png", "document": "att-pdf", "purpose": "assistants"}

    prepared = client.prepare(tool, args, ADA)
    assert server.tool_requests() == []
    assert prepared.headers["content-type"] == "multipart/form-data" and prepared.headers["Authorization"] == "Bearer [redacted]"
    assert prepared.body == {
        "multipart": [
            {"name": "purpose", "value": "assistants"},
            {"name": "image", "param": "image", "filename": "chart.png", "mediaType": "image/png", "size": len(png), "sha256": hashlib.sha256(png).hexdigest()},
            {"name": "document", "param": "document", "filename": 'q3 "final".pdf', "mediaType": "application/pdf", "size": len(pdf), "sha256": hashlib.sha256(pdf).hexdigest()},
        ]
    }

    result = client.execute(tool, json.dumps(args), ADA)
    assert (result.status, result.data) == (201, {"id": "up-1"})
    [received] = server.tool_requests()
    assert (received.method, received.target, received.headers["authorization"]) == ("POST", "/v1/uploads", f"Bearer {TOKEN}")
    assert int(received.headers["content-length"]) == len(received.body)
    assert multipart_parts(received.headers["content-type"], received.body) == [
        {"name": "purpose", "value": "assistants"},
        {"name": "image", "filename": "chart.png", "contentType": "image/png", "sha256": hashlib.sha256(png).hexdigest()},
        {"name": "document", "filename": "q3 %22final%22.pdf", "contentType": "application/pdf", "sha256": hashlib.sha256(pdf).hexdigest()},
    ]
    # The exact bytes: the PNG and the PDF each between their part's blank line and the next delimiter.
    assert b"\r\n\r\n" + png + b"\r\n--" in received.body and b"\r\n\r\n" + pdf + b"\r\n--" in received.body
    boundary = received.headers["content-type"].split("boundary=", 1)[1]
    assert received.body.endswith(f"--{boundary}--\r\n".encode())
    # A random boundary per request.
    client.execute(tool, args, ADA)
    assert server.tool_requests()[1].headers["content-type"] != received.headers["content-type"]
    assert host.asked[:2] == [("att-png", "image"), ("att-pdf", "document")]


def test_a_stream_is_spooled_under_the_limits_and_sent_in_chunks_exactly(server: LoopbackServer) -> None:
    big = bytes(range(256)) * (3 * 4096 + 7)  # 3 MiB and change: past the in-memory spool, on disk
    pulled: list[int] = []

    def chunks() -> Iterator[bytes]:
        for offset in range(0, len(big), 100_000):
            pulled.append(offset)
            yield big[offset : offset + 100_000]

    manifest = _manifest(params=[{"name": "image", "type": "file", "required": True}], body={"image": "{{image}}"})
    host = _Host({"att-big": ResolvedFile("big.bin", "application/octet-stream", stream=chunks(), size=len(big))})
    client = _client(host)
    tool = client.discover(_serve(server, manifest)).tool("upload")
    client.execute(tool, {"image": "att-big"}, ADA)
    [received] = server.tool_requests()
    [part] = multipart_parts(received.headers["content-type"], received.body)
    assert part["sha256"] == hashlib.sha256(big).hexdigest() and received.body.count(big) == 1


def test_a_stream_past_the_upload_limit_is_abandoned_there_and_nothing_is_sent(server: LoopbackServer) -> None:
    pulled: list[int] = []
    closed: list[bool] = []

    class Endless:
        def read(self, size: int) -> bytes:
            pulled.append(size)
            return b"x" * size

        def close(self) -> None:
            closed.append(True)

    manifest = _manifest(params=[{"name": "image", "type": "file", "required": True}], body={"image": "{{image}}"})
    client = _client(_Host({"att-endless": ResolvedFile("log.txt", "text/plain", stream=Endless())}), max_upload_bytes=200_000)
    tool = client.discover(_serve(server, manifest)).tool("upload")
    with pytest.raises(RcpError) as caught:
        client.execute(tool, {"image": "att-endless"}, ADA)
    assert caught.value.code == "RCP_INVALID_ARGUMENTS"
    assert [str(issue) for issue in caught.value.issues] == ["/image the file is larger than the 200000 bytes the client's upload limit leaves"]  # type: ignore[attr-defined]
    assert len(pulled) == 4 and closed == [True]  # 4 × 64 KiB passes 200,000: read no further
    assert server.tool_requests() == []


def test_the_upload_limit_counts_every_file_of_the_call(server: LoopbackServer) -> None:
    png, pdf = png_bytes(), pdf_bytes()
    client = _client(_Host({"att-png": ResolvedFile("chart.png", "image/png", data=png), "att-pdf": ResolvedFile("r.pdf", "application/pdf", data=pdf)}), max_upload_bytes=len(png) + len(pdf) - 1)
    tool = client.discover(_serve(server, _manifest())).tool("upload")
    with pytest.raises(RcpError) as caught:
        client.execute(tool, {"image": "att-png", "document": "att-pdf"}, ADA)
    assert [str(issue) for issue in caught.value.issues] == [f"/document the file is larger than the {len(pdf) - 1} bytes the client's upload limit leaves"]  # type: ignore[attr-defined]
    assert server.tool_requests() == []


@pytest.mark.parametrize(
    "answer, code",
    [
        (ResolvedFile("a.png", "image/png", stream=iter([b"short"]), size=10), "RCP_RESOLVER_FAILED"),
        (ResolvedFile("a.png", "image/png", stream=iter([b"longer than said"]), size=3), "RCP_RESOLVER_FAILED"),
        (ResolvedFile("a.png", "image/png", stream=iter(["text, not bytes"])), "RCP_RESOLVER_FAILED"),  # type: ignore[arg-type]
        (ResolvedFile("", "image/png", data=b"x"), "RCP_RESOLVER_FAILED"),
        (ResolvedFile("a\r\nContent-Type: text/html.png", "image/png", data=b"x"), "RCP_RESOLVER_FAILED"),
        (ResolvedFile("a.png", "image/png; q=1", data=b"x"), "RCP_RESOLVER_FAILED"),
        (ResolvedFile("a.png", "image/png"), "RCP_RESOLVER_FAILED"),
        ({"filename": "a.png", "mediaType": "image/png", "data": b"x"}, "RCP_RESOLVER_FAILED"),
        (None, "RCP_UNRESOLVED"),
    ],
)
def test_a_malformed_or_missing_file_fails_the_call_with_nothing_sent(server: LoopbackServer, answer: object, code: str) -> None:
    client = _client(lambda reference, ctx, info: answer)
    tool = client.discover(_serve(server, _manifest())).tool("upload")
    with pytest.raises(RcpError) as caught:
        client.execute(tool, {"image": "att-1"}, ADA)
    assert caught.value.code == code
    assert server.tool_requests() == []


def test_a_resolver_that_raises_or_a_client_without_one_sends_nothing_and_shows_no_reference(server: LoopbackServer) -> None:
    def broken(reference: str, ctx: Any, info: FileResolverInfo) -> ResolvedFile:
        raise PermissionError(f"secret store path /srv/att/{reference}")

    for client, code in ((_client(broken), "RCP_RESOLVER_FAILED"), (create_rcp_client(retry=0, credentials=lambda request: TOKEN), "RCP_UNRESOLVED")):
        tool = client.discover(_serve(server, _manifest())).tool("upload")
        with pytest.raises(RcpError) as caught:
            client.execute(tool, {"image": "att-private-77"}, ADA)
        assert caught.value.code == code
        assert "att-private-77" not in repr(vars(caught.value)) + str(caught.value) and "/srv" not in str(caught.value)
        assert server.tool_requests() == []
    # Another user's context: the host's resolver has no file for them.
    client = _client(_Host({"att-png": ResolvedFile("chart.png", "image/png", data=png_bytes())}))
    with pytest.raises(RcpError) as other:
        client.execute(client.discover(_serve(server, _manifest())).tool("upload"), {"image": "att-png"}, {"user": "bob"})
    assert other.value.code == "RCP_UNRESOLVED" and server.tool_requests() == []


@pytest.mark.parametrize(
    "reference",
    ["", "/etc/passwd", "../secret.png", "./a", ".", "..", "~", "~/a.png", "a/b", "a\\b", "\\\\server\\share\\a.png", "C:", "c:\\a.png", "C:a.png",
     "file:///etc/passwd", "FILE:a", "data:image/png;base64,AAAA", "att\x00", "att\u0085", "a" * 2049],
)
def test_a_reference_that_is_bytes_or_a_path_is_refused_before_the_resolver_runs(server: LoopbackServer, reference: str) -> None:
    host = _Host({})
    client = _client(host)
    tool = client.discover(_serve(server, _manifest())).tool("upload")
    with pytest.raises(RcpError) as caught:
        client.execute(tool, {"image": reference}, ADA)
    assert caught.value.code == "RCP_INVALID_ARGUMENTS"
    [issue] = caught.value.issues  # type: ignore[attr-defined]
    assert issue.path == "/image" and issue.message.startswith("must be an attachment reference")
    assert host.asked == [] and server.tool_requests() == []


@pytest.mark.parametrize("reference", ["att-1", "file-abc123", "https://attachments.example/a/1", "mcp://host/files/1", "a" * 2048, "chart.png"])
def test_an_id_or_a_uri_reaches_the_resolver(server: LoopbackServer, reference: str) -> None:
    host = _Host({})
    client = _client(host)
    with pytest.raises(RcpError) as caught:
        client.execute(client.discover(_serve(server, _manifest())).tool("upload"), {"image": reference}, ADA)
    assert caught.value.code == "RCP_UNRESOLVED" and host.asked == [(reference, "image")]


def test_a_307_resends_the_same_multipart_body(server: LoopbackServer) -> None:
    png = png_bytes()
    moved: list[bool] = []

    def answer(request: Received) -> Answer:
        if request.path == "/rcp/manifest":
            return json_answer(200, _manifest())
        if not moved:
            moved.append(True)
            return Answer(307, [("Location", "/v2/uploads"), ("Content-Length", "0")], b"")
        return json_answer(201, {"id": "up-2"})

    server.reset(answer)
    client = _client(_Host({"att-png": ResolvedFile("chart.png", "image/png", data=png)}))
    result = client.execute(client.discover(server.url("/rcp/manifest")).tool("upload"), {"image": "att-png"}, ADA)
    first, second = server.tool_requests()
    assert result.data == {"id": "up-2"} and second.target == "/v2/uploads"
    assert first.body == second.body and multipart_parts(second.headers["content-type"], second.body)[0]["sha256"] == hashlib.sha256(png).hexdigest()


def test_the_model_sees_a_string_marked_x_rcp_file(server: LoopbackServer) -> None:
    manifest = _manifest()
    manifest["tools"][0]["params"][0]["description"] = "The chart."
    tool = _client(_Host({})).discover(_serve(server, manifest)).tool("upload")
    properties = tool.input_schema["properties"]
    assert properties["image"] == {
        "type": "string",
        "description": "The chart. An attachment reference: the id or URI of a file you were given in this conversation, never a path or the file's content.",
        "x-rcp-file": {"mediaTypes": ["image/png"], "maxBytes": 1024},
    }
    assert properties["document"]["x-rcp-file"] == {"mediaTypes": ["application/pdf"]}


@pytest.mark.parametrize(
    "change, pointers",
    [
        ({"params": [{"name": "image", "type": "file", "mediaTypes": []}], "body": {"image": "{{image}}"}}, ["/tools/0/params/0/mediaTypes"]),
        ({"params": [{"name": "image", "type": "file", "mediaTypes": ["image/png; q=1", "*/*"]}], "body": {"image": "{{image}}"}}, ["/tools/0/params/0/mediaTypes/0", "/tools/0/params/0/mediaTypes/1"]),
        ({"params": [{"name": "image", "type": "file", "maxBytes": 0}], "body": {"image": "{{image}}"}}, ["/tools/0/params/0/maxBytes"]),
        ({"params": [{"name": "image", "type": "file", "enum": ["a"], "default": "a"}], "body": {"image": "{{image}}"}}, ["/tools/0/params/0/default", "/tools/0/params/0/enum"]),
        ({"params": [{"name": "image", "maxBytes": 5, "mediaTypes": ["image/png"]}], "body": {"image": "{{image}}"}}, ["/tools/0/params/0/maxBytes", "/tools/0/params/0/mediaTypes"]),
        ({"params": [{"name": "image", "type": "file"}], "url": "/v1/{{image}}", "body": {"a": "1"}}, ["/tools/0/url"]),
        ({"params": [{"name": "image", "type": "file"}], "headers": {"X-File": "{{image}}"}, "body": {"a": "1"}}, ["/tools/0/headers/X-File"]),
        ({"params": [{"name": "image", "type": "file"}], "bodyEncoding": "form", "body": {"image": "{{image}}"}}, ["/tools/0/body/image"]),
        ({"params": [{"name": "image", "type": "file"}], "body": {"a": ["{{image}}"]}}, ["/tools/0/body/a/0"]),
        ({"params": [{"name": "image", "type": "file"}], "body": {'say "hi"': "{{image}}", "": "x", "a\nb": "y"}}, ["/tools/0/body/", "/tools/0/body/a\nb", '/tools/0/body/say "hi"']),
        ({"params": [{"name": "image", "type": "file"}], "body": None}, ["/tools/0/bodyEncoding"]),
    ],
)
def test_the_manifest_rules_of_where_a_file_may_go(change: dict[str, Any], pointers: list[str]) -> None:
    manifest = _manifest(**change)
    if change.get("body", "") is None:
        del manifest["tools"][0]["body"]
    with pytest.raises(RcpInvalidManifestError) as caught:
        parse_manifest(json.dumps(manifest))
    assert [issue.path for issue in caught.value.issues] == pointers


def test_the_options_are_checked() -> None:
    for options in ({"max_upload_bytes": 0}, {"max_upload_bytes": True}, {"files": "not a function"}):
        with pytest.raises(RcpError) as caught:
            create_rcp_client(**options)  # type: ignore[arg-type]
        assert caught.value.code == "RCP_INVALID_OPTIONS"


def test_a_host_resolver_may_fill_a_file_param_and_the_model_never_sees_it(server: LoopbackServer) -> None:
    png = png_bytes()
    client = _client(_Host({"att-png": ResolvedFile("chart.png", "image/png", data=png)}), resolvers={"image": lambda ctx, info: "att-png"})
    tool = client.discover(_serve(server, _manifest())).tool("upload")
    assert "image" not in tool.input_schema["properties"]
    client.execute(tool, {"purpose": "p"}, ADA)
    [received] = server.tool_requests()
    assert multipart_parts(received.headers["content-type"], received.body)[1]["sha256"] == hashlib.sha256(png).hexdigest()
