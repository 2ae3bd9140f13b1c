"""OpenAI and Anthropic shapes, checked against the fixtures the TypeScript adapters' tests use
(detailsManifest for the provider tables of packages/rcp-openai/docs/behaviour.md, the results API for media,
pages and retry hints).

The provider SDKs are not installable here (no PyPI), so tool calls are written as those APIs return them
(plain JSON) and the answers are checked field by field; every answer is JSON the APIs accept.
"""

from __future__ import annotations

import base64
import hashlib
import json
from typing import Any

from fixtures import DETAILS_MANIFEST, RESULTS_MAX_MEDIA_BYTES, RESULTS_RECORDS, RESULTS_RETRY_AFTER_SECONDS, pdf_bytes, png_bytes, serve_manifest, serve_results_api
from loopback import json_answer, loopback_server
from rcp import create_rcp_client
from rcp.anthropic import anthropic_tool_result, anthropic_tools
from rcp.openai import openai_function_call_output, openai_tool_message, openai_tools, tool_count_warning


def _sha(data: bytes | str) -> str:
    return hashlib.sha256(base64.b64decode(data) if isinstance(data, str) else data).hexdigest()


def test_the_openai_table_strict_mode_keeps_the_documented_keywords_only() -> None:
    with loopback_server() as api:
        client = create_rcp_client(retry=0)
        discovery = client.discover(serve_manifest(api, DETAILS_MANIFEST, lambda request: json_answer(200, {"items": []})))
        search, ping = openai_tools(discovery)
        assert search["type"] == "function" and search["function"]["strict"] is True
        assert search["function"]["parameters"] == {
            "type": "object",
            "properties": {
                "q": {"type": "string", "description": "Search terms"},
                "site": {"type": ["string", "null"], "description": "Only this site"},
                "since": {"type": ["string", "null"], "format": "date-time"},
                "code": {"type": ["string", "null"], "pattern": "^[A-Z]{3}$"},
                "limit": {"type": ["integer", "null"], "minimum": 1, "maximum": 50},
                "status": {"type": ["string", "null"], "enum": ["open", "closed", None]},
                "size": {"type": ["integer", "null"], "enum": [1, 2, None]},
            },
            "required": ["q", "site", "since", "code", "limit", "status", "size"],
            "additionalProperties": False,
        }
        assert ping["function"] == {"name": "ping", "description": "Checks the service.", "parameters": {"type": "object", "properties": {}, "required": [], "additionalProperties": False}, "strict": True}
        responses = openai_tools(discovery, api="responses")
        assert responses[0] == {"type": "function", **search["function"]}
        calls = [
            {"id": "call_1", "type": "function", "function": {"name": "search_items", "arguments": json.dumps({"q": "x" * 41, "site": None, "since": None, "code": None, "limit": None, "status": None, "size": None})}},
            {"id": "call_2", "type": "function", "function": {"name": "search_items", "arguments": json.dumps({"q": "lamps", "site": "https://a.example", "since": None, "code": "ABC", "limit": 5, "status": "open", "size": None})}},
        ]
        answers = [openai_tool_message(client, discovery, call) for call in calls]
        assert answers[0]["role"] == "tool" and answers[0]["tool_call_id"] == "call_1"
        refused = json.loads(answers[0]["content"])
        assert refused["ok"] is False and refused["error"]["code"] == "RCP_INVALID_ARGUMENTS" and "/q" in refused["error"]["message"]
        assert json.loads(answers[1]["content"]) == {"ok": True, "data": {"items": []}}
        assert [request.target for request in api.tool_requests()] == ["/search?q=lamps&site=https%3A%2F%2Fa.example&code=ABC&limit=5&status=open"]


def test_an_object_without_properties_sends_the_tool_whole_and_not_strict() -> None:
    manifest = {"rcpVersion": "0.2", "tools": [{"name": "t", "description": "d", "method": "POST", "url": "/x", "body": {"m": "{{m}}"}, "params": [{"name": "m", "type": "object"}]}]}
    with loopback_server() as api:
        discovery = create_rcp_client().discover(serve_manifest(api, manifest))
        (tool,) = openai_tools(discovery)
        assert tool["function"]["strict"] is False
        assert tool["function"]["parameters"] == discovery.tools[0].input_schema


def test_the_anthropic_table_keeps_every_keyword_non_strict() -> None:
    with loopback_server() as api:
        client = create_rcp_client(retry=0)
        discovery = client.discover(serve_manifest(api, DETAILS_MANIFEST, lambda request: json_answer(200, {"items": []})))
        search, ping = anthropic_tools(discovery)
        assert "strict" not in search
        assert search["input_schema"] == {
            "type": "object",
            "properties": {
                "q": {"type": "string", "description": "Search terms", "minLength": 2, "maxLength": 40},
                "site": {"type": "string", "description": "Only this site", "format": "uri"},
                "since": {"type": "string", "format": "date-time"},
                "code": {"type": "string", "pattern": "^[A-Z]{3}$"},
                "limit": {"type": "integer", "minimum": 1, "maximum": 50, "default": 10},
                "status": {"type": "string", "enum": ["open", "closed"]},
                "size": {"type": "integer", "enum": [1, 2]},
            },
            "required": ["q"],
            "additionalProperties": False,
        }
        assert ping["input_schema"] == {"type": "object", "properties": {}, "required": [], "additionalProperties": False}
        too_short = anthropic_tool_result(client, discovery, {"type": "tool_use", "id": "toolu_1", "name": "search_items", "input": {"q": "x"}})
        good = anthropic_tool_result(client, discovery, {"type": "tool_use", "id": "toolu_2", "name": "search_items", "input": {"q": "lamps", "limit": 5}})
        assert too_short["is_error"] is True and json.loads(too_short["content"])["error"]["code"] == "RCP_INVALID_ARGUMENTS"
        assert good == {"type": "tool_result", "tool_use_id": "toolu_2", "content": '{"ok":true,"data":{"items":[]}}', "is_error": False}
        assert [request.target for request in api.tool_requests()] == ["/search?q=lamps&limit=5"]


def test_media_reach_anthropic_as_image_and_document_blocks_beside_the_text() -> None:
    with loopback_server() as api:
        client = create_rcp_client(retry=0, max_media_bytes=RESULTS_MAX_MEDIA_BYTES)
        discovery = client.discover(serve_results_api(api))
        chart = anthropic_tool_result(client, discovery, {"id": "toolu_1", "name": "get_chart", "input": {}})
        report = anthropic_tool_result(client, discovery, {"id": "toolu_2", "name": "get_report", "input": {}})
        text, image = chart["content"]
        assert chart["is_error"] is False and json.loads(text["text"]) == {"ok": True, "data": None, "media": {"mediaType": "image/png", "size": len(png_bytes())}}
        assert image["type"] == "image" and image["source"]["media_type"] == "image/png" and _sha(image["source"]["data"]) == _sha(png_bytes())
        document = report["content"][1]
        assert document["type"] == "document" and _sha(document["source"]["data"]) == _sha(pdf_bytes())
        archive = anthropic_tool_result(client, discovery, {"id": "toolu_3", "name": "get_archive", "input": {}})
        busy = anthropic_tool_result(client, discovery, {"id": "toolu_4", "name": "get_busy", "input": {}})
        assert archive["is_error"] is True and json.loads(archive["content"]) == {
            "ok": False,
            "error": {"code": "RCP_RESPONSE_TOO_LARGE", "message": f"The tool answered with application/octet-stream of 4096 bytes, more than the {RESULTS_MAX_MEDIA_BYTES} bytes the client passes on."},
        }
        said = json.loads(busy["content"])
        assert busy["is_error"] is True and said["error"]["retryAfterSeconds"] == RESULTS_RETRY_AFTER_SECONDS
        assert said["error"]["message"] == f'The tool\'s server answered HTTP 429. It asks to be called again in {RESULTS_RETRY_AFTER_SECONDS} seconds. Response: {{"error": "slow down"}}'
        assert [request.target for request in api.tool_requests()] == ["/chart.png", "/report.pdf", "/archive.bin", "/busy"]


def test_media_reach_the_responses_api_as_input_image_and_input_file_and_chat_gets_the_text() -> None:
    with loopback_server() as api:
        client = create_rcp_client(retry=0, max_media_bytes=RESULTS_MAX_MEDIA_BYTES)
        discovery = client.discover(serve_results_api(api))
        chart = openai_function_call_output(client, discovery, {"type": "function_call", "call_id": "c1", "name": "get_chart", "arguments": "{}"})
        report = openai_function_call_output(client, discovery, {"type": "function_call", "call_id": "c2", "name": "get_report", "arguments": ""})
        assert chart["type"] == "function_call_output" and chart["call_id"] == "c1"
        text, image = chart["output"]
        assert text["type"] == "input_text" and image["type"] == "input_image"
        assert image["image_url"].startswith("data:image/png;base64,") and _sha(image["image_url"].split(",", 1)[1]) == _sha(png_bytes())
        pdf = report["output"][1]
        assert pdf["type"] == "input_file" and pdf["filename"] == "get_report.pdf" and _sha(pdf["file_data"].split(",", 1)[1]) == _sha(pdf_bytes())
        chat = openai_tool_message(client, discovery, {"id": "c3", "type": "function", "function": {"name": "get_chart", "arguments": "{}"}})
        assert json.loads(chat["content"])["media"] == {"mediaType": "image/png", "size": len(png_bytes())}
        custom = openai_tool_message(client, discovery, {"id": "c4", "type": "custom", "custom": {"name": "get_chart", "input": ""}})
        assert json.loads(custom["content"])["error"]["code"] == "RCP_UNKNOWN_TOOL"


def _walk(run: Any) -> tuple[list[str], dict[str, Any]]:
    """A scripted model: call list_records, then each page's nextArguments, reading only the result text."""
    seen: list[str] = []
    arguments: dict[str, Any] = {}
    said: dict[str, Any] = {}
    for _ in range(8):
        said = json.loads(run(arguments))
        seen.extend(record["id"] for record in said["data"]["records"])
        if not said["page"]["hasMore"]:
            break
        arguments = said["page"]["nextArguments"]
    return seen, said


def test_a_scripted_model_walks_the_pages_on_both_stacks() -> None:
    with loopback_server() as api:
        client = create_rcp_client(retry=0)
        discovery = client.discover(serve_results_api(api))
        anthropic_seen, last = _walk(lambda arguments: anthropic_tool_result(client, discovery, {"id": "t", "name": "list_records", "input": arguments})["content"])
        openai_seen, _ = _walk(lambda arguments: openai_tool_message(client, discovery, {"id": "c", "type": "function", "function": {"name": "list_records", "arguments": json.dumps(arguments)}})["content"])
        expected = [record["id"] for record in RESULTS_RECORDS]
        assert anthropic_seen == expected and openai_seen == expected
        assert last["page"] == {"hasMore": False, "nextArguments": None}
        assert [request.target for request in api.tool_requests()] == ["/records", "/records?cursor=c2", "/records?cursor=c4"] * 2


def test_more_tools_than_openai_takes_get_a_warning() -> None:
    tools = [{"name": f"t{index}", "description": "d", "method": "GET", "url": f"/t{index}"} for index in range(129)]
    with loopback_server() as api:
        discovery = create_rcp_client().discover(serve_manifest(api, {"rcpVersion": "0.1", "tools": tools}))
        assert tool_count_warning(discovery) is not None and tool_count_warning(discovery, limit=200) is None
