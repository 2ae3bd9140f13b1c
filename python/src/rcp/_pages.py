"""Pages (SPEC §18.4): whether there is more, and the exact arguments of the call that asks for it.

A declared cursor is read from the JSON answer as sent; otherwise a ``Link: <…>; rel="next"`` target is
mapped back to the tool's params where its query entries are one whole token, and kept only when rendering
those arguments gives exactly the link's origin, path and query. The link itself never reaches the model.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Mapping
from urllib.parse import unquote

from ._json import Json, is_finite_number, is_safe_integer, js_number
from ._jsonpath import JsonPath
from ._manifest import Param, ToolDefinition
from ._template import Token
from ._url import Url, UrlError, resolve_reference


@dataclass(frozen=True)
class Page:
    """``has_more``, and ``next_arguments`` for the next call (``None``: there is more, but not askable)."""

    has_more: bool
    next_arguments: dict[str, Json] | None

    def to_json(self) -> dict[str, Json]:
        return {"hasMore": self.has_more, "nextArguments": self.next_arguments}


#: ``check(arguments)`` → the arguments when the tool's argument rule accepts them and they carry no
#: credential, else ``None``.
CheckArguments = Callable[[dict[str, Json]], "dict[str, Json] | None"]
#: ``render(arguments)`` → the URL this call would request with them (this call's resolver values).
RenderUrl = Callable[[dict[str, Json]], Url]


def _select_one(path: JsonPath, document: Json) -> tuple[bool, Json]:
    found = path.select(document)
    return (True, found[0]) if found else (False, None)


def _as_param_value(param: Param, value: Json) -> tuple[bool, Json]:
    """A cursor or link value as the param's type; ``(False, _)`` when the param cannot take it."""
    if param.type == "string":
        if isinstance(value, str):
            return True, value
        if is_finite_number(value):
            return True, js_number(value)
        return False, None
    if param.type in ("integer", "number"):
        number: Json = value
        if isinstance(value, str):
            try:
                number = float(value) if re.fullmatch(r"-?\d+(\.\d+)?([eE][+-]?\d+)?", value) else None
            except ValueError:
                number = None
            if number is None or not is_finite_number(number) or js_number(number) != value:
                return False, None
            if isinstance(number, float) and number.is_integer():
                number = int(number)
        if not is_finite_number(number):
            return False, None
        if param.type == "integer" and not is_safe_integer(number):
            return False, None
        return True, number
    if param.type == "boolean" and value in ("true", "false"):
        return True, value == "true"
    return False, None


def cursor_page(
    tool: ToolDefinition,
    document: Json,
    arguments: Mapping[str, Json],
    resolved: frozenset[str],
    check: CheckArguments,
) -> Page:
    """The page of a tool with a declared cursor, from the answer as sent (before mappings)."""
    pagination = tool.pagination
    assert pagination is not None
    present, cursor = _select_one(pagination.next_cursor, document)
    if pagination.has_more is not None:
        _, flag = _select_one(pagination.has_more, document)
        more = flag is True
    else:
        more = present and cursor is not None and cursor != "" and cursor is not False
    if not more:
        return Page(False, None)
    param = next(param for param in tool.params if param.name == pagination.param)
    if not present or param.name in resolved:
        return Page(True, None)
    ok, value = _as_param_value(param, cursor)
    if not ok:
        return Page(True, None)
    next_arguments = {key: item for key, item in arguments.items() if item is not None}
    next_arguments[param.name] = value
    return Page(True, check(next_arguments))


_LINK = re.compile(r'\s*<([^>]*)>((?:\s*;\s*[^;,=\s]+\s*(?:=\s*(?:"(?:[^"\\]|\\.)*"|[^;,"\s]*))?)*)\s*(?:,|$)')
_LINK_PARAM = re.compile(r'\s*;\s*([^;,=\s]+)\s*(?:=\s*("(?:[^"\\]|\\.)*"|[^;,"\s]*))?')


def next_link(header: str | None) -> str | None:
    """The target of the first ``rel="next"`` link of a ``Link`` header (RFC 8288), or ``None``."""
    if not header:
        return None
    position = 0
    while position < len(header):
        match = _LINK.match(header, position)
        if match is None:
            return None
        position = match.end()
        for parameter in _LINK_PARAM.finditer(match.group(2)):
            if parameter.group(1).lower() != "rel" or parameter.group(2) is None:
                continue
            value = parameter.group(2)
            if value.startswith('"'):
                value = re.sub(r"\\(.)", r"\1", value[1:-1])
            if "next" in value.lower().split():
                return match.group(1)
        if match.end() == match.start():
            return None
    return None


def _query_pairs(query: str | None, skip: str | None) -> list[tuple[str, str]]:
    pairs: list[tuple[str, str]] = []
    for entry in (query or "").split("&"):
        if entry == "":
            continue
        key, _, value = entry.partition("=")
        key, value = unquote(key), unquote(value)
        if skip is not None and key == skip:
            continue
        pairs.append((key, value))
    return pairs


def link_page(
    tool: ToolDefinition,
    header: str | None,
    answered: Url,
    arguments: Mapping[str, Json],
    resolved: frozenset[str],
    query_auth_key: str | None,
    render: RenderUrl,
    check: CheckArguments,
) -> Page | None:
    """The page a ``Link: rel="next"`` header gives; ``None`` when the answer says nothing about pages."""
    target_text = next_link(header)
    if target_text is None:
        return None
    try:
        target = resolve_reference(answered, target_text)
    except UrlError:
        return Page(True, None)
    if target.has_userinfo:
        return Page(True, None)
    whole_tokens: dict[str, str] = {}
    literal_keys: set[str] = set()
    for entry in tool.url.query:
        _index_entry(unquote(entry.key), entry.value, whole_tokens, literal_keys)
    for entry in tool.query_params:
        _index_entry(entry.key, entry.value, whole_tokens, literal_keys)
    params = {param.name: param for param in tool.params}
    link_pairs = _query_pairs(target.query, query_auth_key)
    next_arguments = {key: item for key, item in arguments.items() if item is not None}
    for name in set(whole_tokens.values()):
        if name not in resolved:
            next_arguments.pop(name, None)
    values: dict[str, list[str]] = {}
    for key, value in link_pairs:
        if key in whole_tokens:
            values.setdefault(key, []).append(value)
        elif key not in literal_keys:
            return Page(True, None)
    for key, texts in values.items():
        name = whole_tokens[key]
        if name in resolved:
            continue
        param = params.get(name)
        if param is None:
            return Page(True, None)
        if param.type == "array":
            item_type = param.schema.items.type if param.schema.items is not None else "string"
            converted: list[Json] = []
            for text in texts:
                ok, value = _as_param_value(Param(param.name, item_type, "", False, param.schema, param.index), text)
                if not ok:
                    return Page(True, None)
                converted.append(value)
            next_arguments[name] = converted
        else:
            if len(texts) != 1:
                return Page(True, None)
            ok, value = _as_param_value(param, texts[0])
            if not ok:
                return Page(True, None)
            next_arguments[name] = value
    checked = check(next_arguments)
    if checked is None:
        return Page(True, None)
    try:
        rendered = render(checked)
    except Exception:  # noqa: BLE001 - arguments that do not render are not the next call
        return Page(True, None)
    same = (
        rendered.origin == target.origin
        and unquote(rendered.path) == unquote(target.path)
        and sorted(_query_pairs(rendered.query, query_auth_key)) == sorted(link_pairs)
    )
    return Page(True, checked if same else None)


def _index_entry(key: str, value: tuple[object, ...] | None, whole_tokens: dict[str, str], literal_keys: set[str]) -> None:
    if value is not None and len(value) == 1 and isinstance(value[0], Token):
        whole_tokens[key] = value[0].name
    else:
        literal_keys.add(key)
