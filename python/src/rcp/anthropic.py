"""Anthropic tool use (Messages API) for RCP tools: definitions and ``tool_result`` blocks.

Tools are sent non-strict with every keyword of their model-facing schema (the Anthropic table of
packages/rcp-anthropic/docs/behaviour.md).
A ``tool_result`` carries ``to_model_text`` of the result, ``is_error`` when the call failed, and an
``image`` (JPEG, PNG, GIF, WebP) or ``document`` (PDF) block beside the text for a media answer.

Example::

    response = anthropic.messages.create(model=..., tools=anthropic_tools(discovery), messages=messages)
    results = [anthropic_tool_result(client, discovery, block, ctx) for block in response.content if block["type"] == "tool_use"]
    messages.append({"role": "user", "content": results})
"""

from __future__ import annotations

from typing import Any, Mapping, Union

from ._json import Json
from .client import CallOutcome, Discovery, RcpClient, RcpTool
from .model import to_model_result, to_model_text
from .tool_set import ToolSet

ANTHROPIC_IMAGE_TYPES = frozenset({"image/jpeg", "image/png", "image/gif", "image/webp"})
_KEPT = ("type", "description", "enum", "items", "properties", "required", "additionalProperties", "format", "pattern", "minimum", "maximum", "minLength", "maxLength", "default")

Source = Union[Discovery, ToolSet]


def _project(schema: Mapping[str, Json]) -> dict[str, Json]:
    out: dict[str, Json] = {}
    for key in _KEPT:
        if key not in schema:
            continue
        value = schema[key]
        if key == "items" and isinstance(value, dict):
            out[key] = _project(value)
        elif key == "properties" and isinstance(value, dict):
            out[key] = {name: _project(item) for name, item in value.items()}
        elif isinstance(value, list):
            out[key] = list(value)
        else:
            out[key] = value
    return out


def to_anthropic_input_schema(schema: Mapping[str, Json]) -> dict[str, Json]:
    """A tool's model-facing schema as ``input_schema``: keyword by keyword from the Anthropic table.

    >>> to_anthropic_input_schema({"type": "object", "properties": {}, "required": [], "additionalProperties": False})
    {'type': 'object', 'properties': {}, 'required': [], 'additionalProperties': False}
    """
    return _project(schema)


def _entries(source: Source) -> list[tuple[str, RcpTool]]:
    if isinstance(source, ToolSet):
        return list(source.entries)
    return [(tool.name, tool) for tool in source.tools]


def anthropic_tools(source: Source) -> list[dict[str, Json]]:
    """The ``tools`` of a Messages request: ``{name, description, input_schema}`` per tool."""
    return [{"name": name, "description": tool.description, "input_schema": to_anthropic_input_schema(tool.input_schema)} for name, tool in _entries(source)]


def tool_result_block(tool_use_id: str, outcome: CallOutcome) -> dict[str, Json]:
    """The ``tool_result`` block of an outcome: the text, ``is_error``, and a media block when Anthropic has one."""
    result = to_model_result(outcome)
    text = to_model_text(result)
    content: Json = text
    media = result.get("media")
    if isinstance(media, dict):
        media_type = str(media["mediaType"])
        data = str(media["data"])
        block: dict[str, Json] | None = None
        if media_type in ANTHROPIC_IMAGE_TYPES:
            block = {"type": "image", "source": {"type": "base64", "media_type": media_type, "data": data}}
        elif media_type == "application/pdf":
            block = {"type": "document", "source": {"type": "base64", "media_type": "application/pdf", "data": data}}
        if block is not None:
            content = [{"type": "text", "text": text}, block]
    return {"type": "tool_result", "tool_use_id": tool_use_id, "content": content, "is_error": not bool(result["ok"])}


def anthropic_tool_result(client: RcpClient, source: Source, tool_use: Mapping[str, Any], ctx: Any = None) -> dict[str, Json]:
    """Run a ``tool_use`` block through ``client.call`` and answer it with its ``tool_result`` block."""
    outcome = client.call(source, str(tool_use.get("name", "")), tool_use.get("input"), ctx)
    return tool_result_block(str(tool_use.get("id", "")), outcome)
