"""OpenAI function calling (Chat Completions and Responses) for RCP tools: definitions and results.

Tool definitions are strict by default (the OpenAI table of packages/rcp-openai/docs/behaviour.md): every property
in ``required``, optional
ones ``[T, "null"]``, ``additionalProperties: false`` at every object, only the keywords strict mode
supports. A tool with an ``object`` param without ``properties`` or an ``array`` without ``items`` is sent
whole with ``strict: false``. Results are ``to_model_text`` of ``to_model_result``; a PNG or PDF answer goes
beside the text as an ``input_image`` / ``input_file`` part in the Responses API.

Example (Chat Completions)::

    tools = openai_tools(discovery)                          # for chat.completions.create(tools=...)
    for call in message["tool_calls"]:
        messages.append(openai_tool_message(client, discovery, call, ctx))
"""

from __future__ import annotations

from typing import Any, Literal, Mapping, Union

from ._json import Json, deep_copy
from .client import CallOutcome, Discovery, RcpClient, RcpTool
from .model import to_model_result, to_model_text
from .tool_set import ToolSet

#: The formats strict mode supports (others are left out of what the model sees).
STRICT_FORMATS = frozenset({"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"})
OPENAI_IMAGE_TYPES = frozenset({"image/png", "image/jpeg", "image/webp", "image/gif"})

Source = Union[Discovery, ToolSet]


def _entries(source: Source) -> list[tuple[str, RcpTool]]:
    if isinstance(source, ToolSet):
        return list(source.entries)
    return [(tool.name, tool) for tool in source.tools]


def _strict_possible(schema: Mapping[str, Json]) -> bool:
    kind = schema.get("type")
    if kind == "object":
        properties = schema.get("properties")
        if not isinstance(properties, dict):
            return False
        return all(_strict_possible(item) for item in properties.values())
    if kind == "array":
        items = schema.get("items")
        return isinstance(items, dict) and _strict_possible(items)
    return True


def _strict_value(schema: Mapping[str, Json], optional: bool) -> dict[str, Json]:
    out: dict[str, Json] = {}
    kind = schema.get("type")
    out["type"] = [kind, "null"] if optional else kind
    if "description" in schema:
        out["description"] = schema["description"]
    if "enum" in schema and isinstance(schema["enum"], list):
        out["enum"] = list(schema["enum"]) + ([None] if optional else [])
    if "items" in schema and isinstance(schema["items"], dict):
        out["items"] = _strict_value(schema["items"], False)
    if kind == "object" and isinstance(schema.get("properties"), dict):
        out.update(_strict_object(schema))
    if "pattern" in schema:
        out["pattern"] = schema["pattern"]
    if schema.get("format") in STRICT_FORMATS:
        out["format"] = schema["format"]
    for key in ("minimum", "maximum"):
        if key in schema:
            out[key] = schema[key]
    return out


def _strict_object(schema: Mapping[str, Json]) -> dict[str, Json]:
    properties = schema.get("properties")
    assert isinstance(properties, dict)
    required = set(schema.get("required") or [])
    return {
        "properties": {name: _strict_value(item, name not in required) for name, item in properties.items()},
        "required": list(properties),
        "additionalProperties": False,
    }


def to_openai_schema(schema: Mapping[str, Json]) -> tuple[dict[str, Json], bool]:
    """A tool's model-facing schema as OpenAI takes it: ``(schema, strict)``.

    >>> to_openai_schema({"type": "object", "properties": {"q": {"type": "string", "minLength": 2}}, "required": [], "additionalProperties": False})
    ({'type': 'object', 'properties': {'q': {'type': ['string', 'null']}}, 'required': ['q'], 'additionalProperties': False}, True)
    """
    if not _strict_possible(schema):
        return deep_copy(dict(schema)), False
    return {"type": "object", **_strict_object(schema)}, True


def openai_tools(source: Source, *, api: Literal["chat", "responses"] = "chat") -> list[dict[str, Json]]:
    """The function tools of a discovery or tool set, in the Chat Completions or the Responses shape."""
    tools: list[dict[str, Json]] = []
    for name, tool in _entries(source):
        parameters, strict = to_openai_schema(tool.input_schema)
        function: dict[str, Json] = {"name": name, "description": tool.description, "parameters": parameters, "strict": strict}
        tools.append({"type": "function", "function": function} if api == "chat" else {"type": "function", **function})
    return tools


def _call_parts(call: Mapping[str, Any]) -> tuple[str, str, Any]:
    """``(id, name, arguments)`` of a Chat ``tool_calls`` entry or a Responses ``function_call`` item."""
    if "function" in call and isinstance(call["function"], Mapping):
        return str(call.get("id", "")), str(call["function"].get("name", "")), call["function"].get("arguments")
    return str(call.get("call_id", call.get("id", ""))), str(call.get("name", "")), call.get("arguments")


def openai_call(client: RcpClient, source: Source, call: Mapping[str, Any], ctx: Any = None) -> tuple[str, CallOutcome]:
    """Run one tool call of a model answer through ``client.call``: ``(call id, outcome)``.

    A call that is not a function call gets the unknown-tool answer (packages/rcp-openai/docs/behaviour.md).
    """
    call_id, name, arguments = _call_parts(call)
    if call.get("type") not in (None, "function", "function_call"):
        name = str(call.get("type"))
    return call_id, client.call(source, name, arguments, ctx)


def openai_tool_message(client: RcpClient, source: Source, call: Mapping[str, Any], ctx: Any = None) -> dict[str, Json]:
    """The Chat Completions ``tool`` message answering a ``tool_calls`` entry (text only: Chat has no media)."""
    call_id, outcome = openai_call(client, source, call, ctx)
    return {"role": "tool", "tool_call_id": call_id, "content": to_model_text(to_model_result(outcome))}


def function_call_output(call_id: str, outcome: CallOutcome) -> dict[str, Json]:
    """The Responses API ``function_call_output`` item: the text, and a PNG/JPEG/WebP/GIF or PDF part beside it."""
    result = to_model_result(outcome)
    text = to_model_text(result)
    media = result.get("media")
    if isinstance(media, dict):
        media_type = str(media["mediaType"])
        data = str(media["data"])
        part: dict[str, Json] | None = None
        if media_type in OPENAI_IMAGE_TYPES:
            part = {"type": "input_image", "image_url": f"data:{media_type};base64,{data}"}
        elif media_type == "application/pdf" and outcome.tool is not None:
            part = {"type": "input_file", "filename": f"{outcome.tool.name}.pdf", "file_data": f"data:application/pdf;base64,{data}"}
        if part is not None:
            return {"type": "function_call_output", "call_id": call_id, "output": [{"type": "input_text", "text": text}, part]}
    return {"type": "function_call_output", "call_id": call_id, "output": text}


def openai_function_call_output(client: RcpClient, source: Source, call: Mapping[str, Any], ctx: Any = None) -> dict[str, Json]:
    """Run a Responses API ``function_call`` item and answer it with its ``function_call_output``."""
    call_id, outcome = openai_call(client, source, call, ctx)
    return function_call_output(call_id, outcome)


def tool_count_warning(source: Source, limit: int = 128) -> str | None:
    """A warning when a tool set is larger than OpenAI takes (128 tools): select fewer, per stage."""
    count = len(_entries(source))
    if count <= limit:
        return None
    return f"{count} tools is more than the {limit} OpenAI accepts in one request: select a stage's tools (tool_set.select) for each request."

