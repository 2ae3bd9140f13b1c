"""The ``{{token}}`` grammar and per-position encoding (SPEC §6, §7, §16.1): compile once, render per call.

Values are placed by position, never by splicing text: a path value is one percent-encoded segment, a query
value one component, a header value a checked Latin-1 string, a body value a typed JSON value. Nothing a
value holds can add a segment, an entry, a header or structure.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Mapping, Union

from ._json import Json, is_finite_number, js_string
from ._url import (
    DEFAULT_PORTS,
    PATH_CHARACTERS,
    QUERY_CHARACTERS,
    UrlError,
    encode_invalid,
    origin_of,
    parse_host,
)
from .errors import RcpTemplateError

TOKEN_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_NAME_FIRST = re.compile(r"[A-Za-z_]")
_NAME_CHAR = re.compile(r"[A-Za-z0-9_]")
_UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
_HEADER_FORBIDDEN = re.compile("[\x00-\x1f\x7f]|[^\x00-\xff]")


@dataclass(frozen=True)
class Token:
    """A ``{{name}}`` in a template."""

    name: str


Part = Union[str, Token]
Template = tuple[Part, ...]


def _utf16_offset(text: str, index: int) -> int:
    return index + sum(1 for char in text[:index] if ord(char) > 0xFFFF)


def parse_template(text: str, *, base_offset: int = 0) -> Template:
    """Split a templated string into literal text and tokens; raises ``RCP_TEMPLATE_SYNTAX`` with the offset.

    ``{{`` always opens a token; a token is ``{{name}}`` with no space and no operator. ``offset`` counts
    UTF-16 code units, as SPEC §6 says.

    >>> parse_template("/users/{{id}}")
    ('/users/', Token(name='id'))
    """
    parts: list[Part] = []
    literal: list[str] = []
    index = 0
    while index < len(text):
        if text.startswith("{{", index):
            start = index
            cursor = index + 2
            if cursor >= len(text):
                raise _syntax(text, start, base_offset, "an unterminated token")
            if not _NAME_FIRST.match(text[cursor]):
                raise _syntax(text, cursor, base_offset, "a token name must start with a letter or _ and hold no space or operator")
            while cursor < len(text) and _NAME_CHAR.match(text[cursor]):
                cursor += 1
            if cursor >= len(text) or (text[cursor] == "}" and cursor + 1 >= len(text)):
                raise _syntax(text, start, base_offset, "an unterminated token")
            if not text.startswith("}}", cursor):
                raise _syntax(text, cursor, base_offset, "a token name may hold only letters, digits and _, and ends with }}")
            if literal:
                parts.append("".join(literal))
                literal = []
            parts.append(Token(text[start + 2 : cursor]))
            index = cursor + 2
            continue
        literal.append(text[index])
        index += 1
    if literal:
        parts.append("".join(literal))
    return tuple(parts)


def _syntax(text: str, index: int, base_offset: int, reason: str) -> RcpTemplateError:
    offset = base_offset + _utf16_offset(text, index)
    return RcpTemplateError("RCP_TEMPLATE_SYNTAX", f"Template syntax error at offset {offset}: {reason}.", offset=offset)


def template_tokens(template: Template) -> list[str]:
    """The token names of a template, in order."""
    return [part.name for part in template if isinstance(part, Token)]


def percent_encode(text: str) -> str:
    """Percent-encode every UTF-8 byte except RFC 3986 unreserved characters (``%XX`` upper-case).

    Raises ``ValueError`` for a string with a lone surrogate (it has no UTF-8 form).

    >>> percent_encode("a b/é")
    'a%20b%2F%C3%A9'
    """
    out: list[str] = []
    for char in text:
        if char in _UNRESERVED:
            out.append(char)
        else:
            out.append("".join(f"%{byte:02X}" for byte in char.encode("utf-8")))
    return "".join(out)


# --- values --------------------------------------------------------------------------------------

Args = Mapping[str, Json]


class _Missing:
    def __repr__(self) -> str:
        return "MISSING"


MISSING = _Missing()


def read_value(args: Args, name: str) -> object:
    """The argument's own value, or ``MISSING`` (absent or ``None``: SPEC §6)."""
    value = args.get(name) if name in args else None
    return MISSING if value is None else value


def _is_scalar(value: object) -> bool:
    return isinstance(value, (str, bool)) or is_finite_number(value)


def _scalar_text(value: object, name: str, where: str) -> str:
    if isinstance(value, (list, dict)):
        kind = "an array" if isinstance(value, list) else "an object"
        raise RcpTemplateError("RCP_TEMPLATE_VALUE", f'Token "{name}" in the {where}: {kind} is not allowed here (only a string, a finite number or a boolean)', token=name)
    if not _is_scalar(value):
        raise RcpTemplateError("RCP_TEMPLATE_VALUE", f'Token "{name}" in the {where}: the value is not a string, a finite number or a boolean', token=name)
    text = js_string(value)
    if re.search("[\ud800-\udfff]", text):
        raise RcpTemplateError("RCP_TEMPLATE_VALUE", f'Token "{name}" in the {where}: the text is not well-formed Unicode (lone surrogate)', token=name)
    return text


# --- the URL -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class QueryEntry:
    """One entry of the URL's own query (``key`` as written) or of ``queryParams`` (``key`` encoded)."""

    key: str
    value: Template | None  # None: a key written without "="
    literal_encoded: bool
    pointer: str


@dataclass(frozen=True)
class UrlTemplate:
    """A tool URL compiled once: a fixed origin, path segments, query entries (SPEC §6)."""

    scheme: str
    host: str
    port: int | None
    segments: tuple[Template, ...]
    query: tuple[QueryEntry, ...]

    @property
    def origin(self) -> str:
        return origin_of(self.scheme, self.host, self.port)

    @property
    def path_tokens(self) -> list[str]:
        return [name for segment in self.segments for name in template_tokens(segment)]

    @property
    def tokens(self) -> list[str]:
        return self.path_tokens + [name for entry in self.query for name in template_tokens(entry.value or ())]


def compile_url(template_text: str, base_origin: str | None) -> UrlTemplate:
    """Compile a tool URL template: absolute http(s), or relative from exactly one ``/`` against
    ``base_origin``. Raises ``RCP_TEMPLATE_SYNTAX`` for every refusal of SPEC §4 and §6.
    """
    whole = parse_template(template_text)
    for index, char in enumerate(template_text):
        if char == "\\":
            raise _syntax(template_text, index, 0, "a backslash is not allowed in a URL (parsers read it as /)")
        if char == " " or ord(char) < 0x20 or ord(char) == 0x7F:
            raise _syntax(template_text, index, 0, "a space or control character is not allowed in a URL")
        if char == "#":
            raise _syntax(template_text, index, 0, "a URL may not contain a fragment")
    first_token = _first_token_index(template_text, whole)
    if template_text.startswith("/"):
        if template_text.startswith("//"):
            raise _syntax(template_text, 0, 0, "a scheme-relative URL (//host) is not allowed; write an absolute URL or a path")
        if base_origin is None:
            raise _syntax(template_text, 0, 0, "a relative URL needs the manifest's URL")
        from ._url import parse_absolute_url

        base = parse_absolute_url(base_origin)
        scheme, host, port = base.scheme, base.host, base.port
        rest_start = 0
    else:
        match = re.match(r"^([A-Za-z][A-Za-z0-9+.\-]*)://", template_text)
        if match is None or match.group(1).lower() not in DEFAULT_PORTS:
            if first_token is not None and (match is None or first_token < match.end()):
                raise _syntax(template_text, first_token, 0, "a token may not appear before the path")
            raise _syntax(template_text, 0, 0, "a tool URL must be an absolute http(s) URL or start with /")
        scheme = match.group(1).lower()
        authority_start = match.end()
        authority_end = len(template_text)
        for stop in ("/", "?"):
            found = template_text.find(stop, authority_start)
            if found >= 0:
                authority_end = min(authority_end, found)
        if first_token is not None and first_token < authority_end:
            raise _syntax(template_text, first_token, 0, "a token may not appear before the path (scheme, host or port)")
        authority = template_text[authority_start:authority_end]
        if "@" in authority:
            raise _syntax(template_text, authority_start, 0, "user info (user:pass@) is not allowed in a URL")
        host_text, port = _split_authority(template_text, authority, authority_start)
        try:
            host = parse_host(host_text)
        except UrlError as error:
            raise _syntax(template_text, authority_start, 0, f"the host is not valid ({error})") from None
        if port == DEFAULT_PORTS[scheme]:
            port = None
        rest_start = authority_end
    rest = template_text[rest_start:]
    query_at = rest.find("?")
    path_text = rest if query_at < 0 else rest[:query_at]
    query_text = None if query_at < 0 else rest[query_at + 1 :]
    path_offset = rest_start
    segments = _compile_path(template_text, path_text or "/", path_offset)
    query = _compile_url_query(template_text, query_text, rest_start + (query_at + 1 if query_at >= 0 else 0))
    return UrlTemplate(scheme, host, port, segments, query)


def _first_token_index(text: str, whole: Template) -> int | None:
    found = text.find("{{")
    return found if found >= 0 and any(isinstance(part, Token) for part in whole) else None


def _split_authority(text: str, authority: str, start: int) -> tuple[str, int | None]:
    if authority.startswith("["):
        close = authority.find("]")
        host, after = authority[: close + 1], authority[close + 1 :] if close >= 0 else ""
        port_text = after[1:] if after.startswith(":") else None
        if close < 0 or (after and port_text is None):
            raise _syntax(text, start, 0, "the host is not valid")
    else:
        colon = authority.rfind(":")
        host, port_text = (authority, None) if colon < 0 else (authority[:colon], authority[colon + 1 :])
    if port_text is None or port_text == "":
        return host, None
    if not (port_text.isascii() and port_text.isdigit()) or int(port_text) > 65535:
        raise _syntax(text, start, 0, "the port is not valid")
    return host, int(port_text)


def _normalise(template: Template, allowed: frozenset[str]) -> Template:
    return tuple(encode_invalid(part, allowed) if isinstance(part, str) else part for part in template)


def _compile_path(text: str, path: str, offset: int) -> tuple[Template, ...]:
    segments: list[Template] = []
    position = offset
    for raw in path.split("/")[1:]:
        position += 1
        segments.append(_normalise(parse_template(raw, base_offset=position), PATH_CHARACTERS))
        position += len(raw)
    return tuple(segments)


def _compile_url_query(text: str, query: str | None, offset: int) -> tuple[QueryEntry, ...]:
    if query is None:
        return ()
    entries: list[QueryEntry] = []
    position = offset
    for raw in query.split("&"):
        if raw != "":
            equals = raw.find("=")
            key_text = raw if equals < 0 else raw[:equals]
            if "{{" in key_text:
                raise _syntax(text, position + key_text.find("{{"), 0, "a token may not appear in a query key")
            value_text = "" if equals < 0 else raw[equals + 1 :]
            value = _normalise(parse_template(value_text, base_offset=position + equals + 1), QUERY_CHARACTERS)
            key = encode_invalid(key_text, QUERY_CHARACTERS)
            entries.append(QueryEntry(key, value if equals >= 0 else None, False, ""))
        position += len(raw) + 1
    return tuple(entries)


def compile_query_params(query_params: Mapping[str, str], pointer_of: Callable[[str], str]) -> tuple[QueryEntry, ...]:
    """``queryParams`` entries: literal keys, value templates whose literal text is encoded too (SPEC §7.2)."""
    return tuple(QueryEntry(key, parse_template(value), True, pointer_of(key)) for key, value in query_params.items())


@dataclass(frozen=True)
class RenderedUrl:
    """A rendered request URL: the origin and the request target (path and query), plus query entries."""

    origin: str
    path: str
    query: tuple[str, ...]

    @property
    def target(self) -> str:
        return self.path + ("?" + "&".join(self.query) if self.query else "")

    @property
    def href(self) -> str:
        return self.origin + self.target


_DOT_SEGMENT = re.compile(r"^(?:\.|%2[eE]){0,2}$")


def render_path(url: UrlTemplate, args: Args) -> str:
    """The path, each token's value one percent-encoded segment; dot and empty segments refused (SPEC §7.1)."""
    rendered: list[str] = []
    for segment in url.segments:
        parts: list[str] = []
        names: list[str] = []
        for part in segment:
            if isinstance(part, str):
                parts.append(part)
                continue
            names.append(part.name)
            value = read_value(args, part.name)
            if value is MISSING:
                raise RcpTemplateError("RCP_TEMPLATE_MISSING", f'Token "{part.name}" in the path has no value', token=part.name)
            parts.append(percent_encode(_scalar_text(value, part.name, "path")))
        text = "".join(parts)
        if names and _DOT_SEGMENT.match(text):
            raise RcpTemplateError(
                "RCP_TEMPLATE_VALUE",
                f'Token "{names[0]}" in the path: the path segment would be empty, "." or "..", which URL parsers remove or collapse',
                token=names[0],
            )
        rendered.append(text)
    return "/" + "/".join(rendered)


def render_query_entry(entry: QueryEntry, args: Args, styles: Mapping[str, str] | None = None) -> list[str]:
    """The ``key=value`` texts of one entry: none when a token is missing, one per element of a whole-token array
    (or, with an RCP 0.4 ``queryStyle``, one comma-joined entry, or the bracket form of a ``deepObject``)."""
    key = percent_encode(entry.key) if entry.literal_encoded else entry.key
    if entry.value is None:
        return [key]
    tokens = [part for part in entry.value if isinstance(part, Token)]
    if len(entry.value) == 1 and len(tokens) == 1:
        name = tokens[0].name
        value = read_value(args, name)
        if value is MISSING:
            return []
        style = (styles or {}).get(name, "repeat")
        if style == "deepObject":
            if not isinstance(value, dict):
                raise RcpTemplateError("RCP_TEMPLATE_VALUE", f'Token "{name}" in the query: a deepObject query value must be an object', token=name)
            out_deep: list[str] = []
            _bracket_entries(key, value, out_deep, name, 0)
            return out_deep
        if style == "comma" and isinstance(value, list):
            elements: list[str] = []
            for element in value:
                if element is None or isinstance(element, (list, dict)) or not _is_scalar(element):
                    raise RcpTemplateError("RCP_TEMPLATE_VALUE", f'Token "{name}" in the query: array elements must be strings, finite numbers or booleans', token=name)
                elements.append(percent_encode(_scalar_text(element, name, "query")))
            return [f"{key}={','.join(elements)}"] if elements else []
        if isinstance(value, list):
            out: list[str] = []
            for element in value:
                if element is None or isinstance(element, (list, dict)) or not _is_scalar(element):
                    raise RcpTemplateError("RCP_TEMPLATE_VALUE", f'Token "{name}" in the query: array elements must be strings, finite numbers or booleans', token=name)
                out.append(f"{key}={percent_encode(_scalar_text(element, name, 'query'))}")
            return out
        return [f"{key}={percent_encode(_scalar_text(value, name, 'query'))}"]
    texts: list[str] = []
    for part in entry.value:
        if isinstance(part, str):
            texts.append(percent_encode(part) if entry.literal_encoded else part)
            continue
        value = read_value(args, part.name)
        if value is MISSING:
            return []
        texts.append(percent_encode(_scalar_text(value, part.name, "query")))
    return [f"{key}={''.join(texts)}"]


def _bracket_entries(path: str, value: Json, out: list[str], name: str, depth: int) -> None:
    """The bracket form of a value under an encoded ``path`` (SPEC §16.1, §20.4): objects by ``%5Bkey%5D``, scalar
    arrays repeated, arrays of objects or arrays indexed, ``null`` and empty values left out."""
    if depth > 64:
        raise RcpTemplateError("RCP_TEMPLATE_VALUE", f'Token "{name}" in the query is nested too deeply', token=name)
    if value is None:
        return
    if isinstance(value, dict):
        for key, item in value.items():
            if "[" in key or "]" in key:
                raise RcpTemplateError("RCP_TEMPLATE_VALUE", f'Token "{name}" in the query: an object key inside its value contains "[" or "]"', token=name)
            _bracket_entries(f"{path}%5B{percent_encode(key)}%5D", item, out, name, depth + 1)
        return
    if isinstance(value, list):
        for index, item in enumerate(value):
            if isinstance(item, (dict, list)):
                _bracket_entries(f"{path}%5B{index}%5D", item, out, name, depth + 1)
            else:
                _bracket_entries(path, item, out, name, depth + 1)
        return
    if not _is_scalar(value):
        raise RcpTemplateError("RCP_TEMPLATE_VALUE", f'Token "{name}" in the query holds a value that is not JSON', token=name)
    out.append(f"{path}={percent_encode(_scalar_text(value, name, 'query'))}")


def render_header(name: str, template: Template, args: Args) -> str | None:
    """A header value, or ``None`` when a token is missing; control and non-Latin-1 characters refused (SPEC §7.3)."""
    texts: list[str] = []
    for part in template:
        if isinstance(part, str):
            texts.append(part)
            continue
        value = read_value(args, part.name)
        if value is MISSING:
            return None
        text = _scalar_text(value, part.name, "header")
        if _HEADER_FORBIDDEN.search(text):
            raise RcpTemplateError(
                "RCP_TEMPLATE_VALUE",
                f'Token "{part.name}" in the header: the value contains a control character (CR, LF, NUL, ...) or a character above U+00FF',
                token=part.name,
            )
        texts.append(text)
    return "".join(texts)


def check_header_literal(template: Template) -> str | None:
    """Why literal header text is refused, or ``None``."""
    for part in template:
        if isinstance(part, str) and _HEADER_FORBIDDEN.search(part):
            return "a header value may not hold a control character or a character above U+00FF"
    return None


# --- the body ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BodyConst:
    value: Json


@dataclass(frozen=True)
class BodyToken:
    name: str


@dataclass(frozen=True)
class BodyText:
    template: Template


@dataclass(frozen=True)
class BodyObject:
    entries: tuple[tuple[str, "BodyNode"], ...]


@dataclass(frozen=True)
class BodyArray:
    items: tuple["BodyNode", ...]


BodyNode = Union[BodyConst, BodyToken, BodyText, BodyObject, BodyArray]


def compile_body(value: Json, on_template: Callable[[Template, tuple[str | int, ...]], None] | None = None, path: tuple[str | int, ...] = ()) -> BodyNode:
    """Compile a body template tree; ``on_template`` sees each templated string with its path (for pointers)."""
    if isinstance(value, str):
        template = parse_template(value)
        if not any(isinstance(part, Token) for part in template):
            return BodyConst(value)
        if on_template is not None:
            on_template(template, path)
        if len(template) == 1 and isinstance(template[0], Token):
            return BodyToken(template[0].name)
        return BodyText(template)
    if isinstance(value, dict):
        return BodyObject(tuple((key, compile_body(item, on_template, path + (key,))) for key, item in value.items()))
    if isinstance(value, list):
        return BodyArray(tuple(compile_body(item, on_template, path + (index,)) for index, item in enumerate(value)))
    return BodyConst(value)


def body_tokens(node: BodyNode) -> list[str]:
    if isinstance(node, BodyToken):
        return [node.name]
    if isinstance(node, BodyText):
        return template_tokens(node.template)
    if isinstance(node, BodyObject):
        return [name for _, item in node.entries for name in body_tokens(item)]
    if isinstance(node, BodyArray):
        return [name for item in node.items for name in body_tokens(item)]
    return []


def _typed(value: object, name: str) -> Json:
    if isinstance(value, (str, bool, list, dict)) or is_finite_number(value):
        return _fresh(value)
    raise RcpTemplateError("RCP_TEMPLATE_VALUE", f'Token "{name}" in the body: the value is not JSON', token=name)


def _fresh(value: object) -> Json:
    if isinstance(value, dict):
        return {key: _fresh(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_fresh(item) for item in value]
    return value


def _render_node(node: BodyNode, args: Args) -> object:
    if isinstance(node, BodyConst):
        return _fresh(node.value)
    if isinstance(node, BodyToken):
        value = read_value(args, node.name)
        return MISSING if value is MISSING else _typed(value, node.name)
    if isinstance(node, BodyText):
        texts: list[str] = []
        for part in node.template:
            if isinstance(part, str):
                texts.append(part)
                continue
            value = read_value(args, part.name)
            if value is MISSING:
                return MISSING
            texts.append(_scalar_text(value, part.name, "body"))
        return "".join(texts)
    if isinstance(node, BodyObject):
        out: dict[str, Json] = {}
        for key, item in node.entries:
            rendered = _render_node(item, args)
            if rendered is not MISSING:
                out[key] = rendered
        return out
    items: list[Json] = []
    for item in node.items:
        rendered = _render_node(item, args)
        if rendered is not MISSING:
            items.append(rendered)
    return items


def render_body(node: BodyNode, args: Args) -> Json:
    """The body as a fresh JSON tree; a body that is one missing token is ``RCP_TEMPLATE_MISSING`` (SPEC §7.4)."""
    rendered = _render_node(node, args)
    if rendered is MISSING:
        names = body_tokens(node)
        name = names[0] if names else None
        raise RcpTemplateError("RCP_TEMPLATE_MISSING", f'Token "{name}" in the body has no value: the whole body is this token, so it cannot be left out', token=name)
    return rendered


def encode_form_body(value: Json) -> str:
    """``application/x-www-form-urlencoded`` of a rendered object body (SPEC §16.1): brackets for objects,
    repeated names for scalar arrays, indexes for objects and arrays inside arrays.

    >>> encode_form_body({"metadata": {"order": "1"}, "To": ["+1", "+2"]})
    'metadata%5Border%5D=1&To=%2B1&To=%2B2'
    """
    entries: list[str] = []
    if isinstance(value, dict):
        for key, item in value.items():
            _form_entries(key, item, entries, top=True)
    return "&".join(entries)


def _form_entries(name: str, value: Json, entries: list[str], top: bool = False) -> None:
    if value is None:
        return
    if isinstance(value, dict):
        for key, item in value.items():
            if "[" in key or "]" in key:
                raise RcpTemplateError("RCP_TEMPLATE_VALUE", "A form body object key may not hold [ or ] (it could pass for nesting).")
            _form_entries(f"{name}[{key}]", item, entries)
        return
    if isinstance(value, list):
        for index, item in enumerate(value):
            if isinstance(item, (dict, list)):
                _form_entries(f"{name}[{index}]", item, entries)
            else:
                _form_entries(name, item, entries)
        return
    if not _is_scalar(value):
        raise RcpTemplateError("RCP_TEMPLATE_VALUE", "A form body value must be a string, a finite number or a boolean.")
    try:
        entries.append(f"{percent_encode(name)}={percent_encode(js_string(value))}")
    except UnicodeEncodeError:
        raise RcpTemplateError("RCP_TEMPLATE_VALUE", "A form body string has a lone surrogate, which has no UTF-8 form.") from None
