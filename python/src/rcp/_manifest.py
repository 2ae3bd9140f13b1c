"""The manifest: limits, the version gate, every rule of SPEC §3–§9, §16 and §18, and the compiled tools.

``parse_manifest`` reports every problem at once, as issues at RFC 6901 pointers sorted by pointer; unknown
fields are warnings. The result holds the manifest with known fields only and each tool compiled once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Literal

from ._json import Json, deep_copy, is_safe_integer, json_error_position, parse_json, pointer_sort_key, stringify
from ._jsonpath import JsonPath, JsonPathSyntaxError, parse_json_path
from ._template import (
    TOKEN_NAME,
    BodyNode,
    QueryEntry,
    Template,
    Token,
    UrlTemplate,
    check_header_literal,
    compile_body,
    compile_query_params,
    compile_url,
    template_tokens,
    parse_template,
)
from ._url import UrlError, parse_absolute_url
from ._values import PARAM_TYPES, ValueSchema, compile_value_schema, schema_json
from .errors import (
    Issue,
    RcpInvalidManifestError,
    RcpManifestLimitError,
    RcpTemplateError,
    RcpUnsupportedVersionError,
)

#: The versions this client reads. Each is a strict superset of the one before (SPEC §15).
SUPPORTED_VERSIONS: tuple[str, ...] = ("0.1", "0.2", "0.3", "0.4")

#: What each version adds to the wire; a rule gated on a feature refuses it in an older manifest.
#: A new version is one line here plus its rules (the hook for RCP 0.4).
VERSION_FEATURES: dict[str, frozenset[str]] = {
    "0.1": frozenset(),
    "0.2": frozenset({"form-body", "query-auth"}),
    "0.3": frozenset({"form-body", "query-auth", "response-media-types", "pagination"}),
    "0.4": frozenset({"form-body", "query-auth", "response-media-types", "pagination", "idempotency", "query-styles", "groups", "streams", "operations"}),
}

#: What relative tool URLs resolve against when a manifest is parsed without its URL: checked, never called
#: (``.invalid`` never resolves, RFC 2606). The client always passes the manifest's URL.
UNRESOLVED_ORIGIN = "http://manifest-url.invalid"

DEFAULT_MAX_BYTES = 5 * 1024 * 1024
DEFAULT_MAX_TOOLS = 5000
MAX_DEPTH = 64

METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")
TOOL_NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
HTTP_TOKEN = re.compile(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")
#: Header names neither a tool nor an auth may set (case-insensitive, SPEC §7.3).
FORBIDDEN_HEADERS = frozenset(
    {"host", "content-length", "transfer-encoding", "connection", "cookie", "keep-alive", "proxy-connection", "te", "trailer", "upgrade", "expect", "proxy-authorization"}
)
RESERVED_PARAM_NAMES = frozenset({"__proto__", "constructor", "prototype"})
_RESTRICTED_NAME = r"[A-Za-z0-9][A-Za-z0-9!#$&\-^_.+]{0,126}"
MEDIA_RANGE = re.compile(rf"^(?:{_RESTRICTED_NAME})/(?:{_RESTRICTED_NAME}|\*)$")
_SCOPE_TOKEN = re.compile(r"^[\x21\x23-\x5b\x5d-\x7e]+$")

TOP_LEVEL_KEYS = ("rcpVersion", "auth", "groups", "tools", "$schema")
TOOL_KEYS = (
    "name", "description", "method", "url", "params", "queryParams", "headers", "body", "bodyEncoding", "auth",
    "responseMappings", "effects", "responseMediaTypes", "pagination", "idempotency", "group", "stream", "operation",
)
STREAM_KEYS = ("format", "collect", "field", "maxEvents")
OPERATION_KEYS = ("statusUrl", "state", "done", "failed", "result", "pollSeconds")
GROUP_KEYS = ("name", "description")
EFFECT_KEYS = ("readOnly", "destructive", "idempotent", "openWorld")


@dataclass(frozen=True)
class RcpWarning:
    """A problem that does not stop the manifest: an unknown field, an unused param, a tool the client refuses.

    ``tool`` names the tool for warnings the client adds at discovery (SPEC §2).
    """

    path: str
    message: str
    tool: str | None = None

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


@dataclass(frozen=True)
class Param:
    """A declared param: its name, whether it is required (a path param always is), its schema."""

    name: str
    type: str
    description: str
    required: bool
    schema: ValueSchema
    index: int
    query_style: str = "repeat"  # RCP 0.4 (SPEC §20.4): "repeat", "comma" or "deepObject"

    def json_schema(self) -> dict[str, Json]:
        return schema_json(self.schema)


@dataclass(frozen=True)
class Pagination:
    """A declared cursor (SPEC §18.4)."""

    next_cursor: JsonPath
    param: str
    has_more: JsonPath | None


@dataclass(frozen=True)
class Idempotency:
    """A tool's idempotency declaration (RCP 0.4, SPEC §20.1)."""

    header: str
    expires_after_seconds: int | None


@dataclass(frozen=True)
class Stream:
    """A tool's streamed answer (RCP 0.4, SPEC §20.6): its format and how its events become one result."""

    format: Literal["sse", "ndjson"]
    collect: Literal["concat", "last", "array"]
    #: The singular path taken from each event's JSON, when the tool names one.
    field: JsonPath | None
    max_events: int | None


@dataclass(frozen=True)
class Operation:
    """A tool's long-running operation (RCP 0.4, SPEC §20.8): where a 202 names its status, how a status answer
    says done or failed, where the result is, and the wait between polls."""

    #: The header that names the status URL (lower-cased), or ``None`` when ``status_path`` does.
    status_header: str | None
    status_path: JsonPath | None
    state: JsonPath | None
    done: tuple[str, ...]
    failed: tuple[str, ...]
    result: JsonPath | None
    poll_seconds: float


@dataclass(frozen=True)
class ToolDefinition:
    """One tool of a validated manifest, compiled: its templates, params, auth, mappings, effects."""

    index: int
    name: str
    description: str
    method: str
    url_text: str
    url: UrlTemplate
    params: tuple[Param, ...]
    query_params: tuple[QueryEntry, ...]
    headers: tuple[tuple[str, Template], ...]
    body: BodyNode | None
    body_encoding: Literal["json", "form"]
    auth: dict[str, Json]
    own_auth: dict[str, Json] | None
    mappings: tuple[tuple[str, JsonPath], ...] | None
    effects: dict[str, bool]
    declared_effects: dict[str, bool]
    response_media_types: tuple[str, ...]
    pagination: Pagination | None
    #: RCP 0.4 (SPEC §20.1): the header that carries a write's idempotency key, and how long the server keeps one.
    idempotency: Idempotency | None
    raw: dict[str, Json] = field(compare=False)
    #: RCP 0.4 (SPEC §20.6): the tool answers with a stream of events, collected into one result.
    stream: Stream | None = None
    #: RCP 0.4 (SPEC §20.8): the tool may answer 202 and finish later.
    operation: Operation | None = None

    @property
    def origin(self) -> str:
        return self.url.origin


@dataclass(frozen=True)
class ParsedManifest:
    """A validated manifest: ``manifest`` holds known fields only (a copy), ``tools`` each tool compiled."""

    manifest: dict[str, Json]
    tools: tuple[ToolDefinition, ...]
    warnings: tuple[RcpWarning, ...]


@dataclass(frozen=True)
class SafeParseResult:
    """``safe_parse_manifest``'s answer: ``ok`` with ``value``, or not with ``error``; ``warnings`` on both."""

    ok: bool
    value: ParsedManifest | None
    error: Exception | None
    warnings: tuple[RcpWarning, ...]


def tool_effects(method: str, declared: dict[str, bool]) -> dict[str, bool]:
    """A tool's effects: what its method says, a claim only adding caution (SPEC §18.1, [M25.1]).

    >>> tool_effects("POST", {"readOnly": True})
    {'readOnly': False, 'destructive': False, 'idempotent': False, 'openWorld': True}
    """
    reads = method in ("GET", "HEAD", "OPTIONS")
    return {
        "readOnly": reads and declared.get("readOnly") is not False and declared.get("destructive") is not True,
        "destructive": method == "DELETE" or declared.get("destructive") is True,
        "idempotent": (reads or method in ("PUT", "DELETE")) and declared.get("idempotent") is not False,
        "openWorld": declared.get("openWorld") is not False,
    }


def mapping_query(path: str) -> str:
    """The RFC 9535 query of a mapping path: ``@`` is ``$``; ``@data`` is ``$.data`` (SPEC §9).

    A ``.`` is inserted only before a member name or ``*``: ``@ .a`` stays ``$ .a`` (blank space before a
    segment is RFC 9535 syntax).
    """
    rest = path[1:]
    if rest and (rest[0] == "*" or rest[0] == "_" or (rest[0].isascii() and rest[0].isalpha()) or ord(rest[0]) >= 0x80):
        return "$." + rest
    return "$" + rest


def _decode_text(data: bytes) -> str:
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    return data.decode("utf-8")


def _text_depth_exceeds(text: str, limit: int) -> bool:
    depth = 0
    in_string = False
    escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > limit:
                return True
        elif char in "]}":
            depth -= 1
    return False


def _value_depth_exceeds(value: object, limit: int, depth: int = 1) -> bool:
    if isinstance(value, (dict, list)):
        if depth > limit:
            return True
        children = value.values() if isinstance(value, dict) else value
        return any(_value_depth_exceeds(child, limit, depth + 1) for child in children)
    return False


def read_manifest_input(source: object, *, max_bytes: int = DEFAULT_MAX_BYTES) -> object:
    """Text, bytes or parsed JSON → the parsed value, after the byte and depth limits (SPEC §3, §13)."""
    if isinstance(source, (bytes, bytearray)):
        if len(source) > max_bytes:
            raise RcpManifestLimitError(f"The manifest has more than {max_bytes} bytes.", limit="bytes", max=max_bytes)
        try:
            text = _decode_text(bytes(source))
        except UnicodeDecodeError:
            raise RcpInvalidManifestError("The manifest is not UTF-8 text.", issues=(Issue("", "is not UTF-8 text"),)) from None
        return _parse_text(text, max_bytes, counted=True)
    if isinstance(source, str):
        return _parse_text(source, max_bytes, counted=False)
    if _value_depth_exceeds(source, MAX_DEPTH):
        raise RcpManifestLimitError(f"The manifest nests deeper than {MAX_DEPTH} levels.", limit="depth", max=MAX_DEPTH)
    try:
        size = len(stringify(source).encode("utf-8", "surrogatepass"))
    except ValueError:
        raise RcpInvalidManifestError("The manifest is not JSON data.", issues=(Issue("", "is not JSON data"),)) from None
    if size > max_bytes:
        raise RcpManifestLimitError(f"The manifest has more than {max_bytes} bytes.", limit="bytes", max=max_bytes)
    return source


def _parse_text(text: str, max_bytes: int, *, counted: bool) -> object:
    if text.startswith("\ufeff"):
        text = text[1:]
    if not counted and len(text.encode("utf-8", "surrogatepass")) > max_bytes:
        raise RcpManifestLimitError(f"The manifest has more than {max_bytes} bytes.", limit="bytes", max=max_bytes)
    if _text_depth_exceeds(text, MAX_DEPTH):
        raise RcpManifestLimitError(f"The manifest nests deeper than {MAX_DEPTH} levels.", limit="depth", max=MAX_DEPTH)
    try:
        return parse_json(text)
    except (ValueError, RecursionError) as error:
        position = json_error_position(error)
        raise RcpInvalidManifestError(f"The manifest is not JSON ({position}).", issues=(Issue("", f"is not JSON ({position})"),)) from None


def version_gate(value: object, versions: tuple[str, ...] = SUPPORTED_VERSIONS) -> str:
    """Return the manifest's ``rcpVersion`` if this client supports it, else ``RCP_UNSUPPORTED_VERSION`` (SPEC §15)."""
    received = value.get("rcpVersion") if isinstance(value, dict) else None
    if isinstance(received, str) and received in versions:
        return received
    shown = "missing" if not isinstance(value, dict) or "rcpVersion" not in value else repr(received)[:40]
    raise RcpUnsupportedVersionError(
        f"Unsupported rcpVersion ({shown}); this client supports {', '.join(versions)}.",
        received=received,
        supported=versions,
    )


class _Validator:
    def __init__(self, version: str) -> None:
        self.version = version
        self.features = VERSION_FEATURES[version]
        self.issues: list[Issue] = []
        self.warnings: list[RcpWarning] = []

    def report(self, path: str, message: str) -> None:
        self.issues.append(Issue(path, message))

    def warn(self, path: str, message: str) -> None:
        self.warnings.append(RcpWarning(path, message))

    def unknown(self, value: dict[str, object], known: tuple[str, ...], base: str) -> None:
        for key in value:
            if key not in known:
                self.warn(f"{base}/{_esc(key)}", "is not a field RCP knows; it is ignored")


def _esc(segment: object) -> str:
    return str(segment).replace("~", "~0").replace("/", "~1")


def parse_manifest(
    source: object,
    *,
    max_bytes: int = DEFAULT_MAX_BYTES,
    max_tools: int = DEFAULT_MAX_TOOLS,
    manifest_url: str | None = None,
) -> ParsedManifest:
    """Validate a manifest (text, bytes or parsed JSON) and compile its tools; raises the first of
    ``RCP_MANIFEST_LIMIT``, ``RCP_INVALID_MANIFEST``, ``RCP_UNSUPPORTED_VERSION`` that applies (SPEC §3).

    ``manifest_url`` is what relative tool URLs resolve against (its origin); without it they are checked
    against :data:`UNRESOLVED_ORIGIN`.

    >>> parsed = parse_manifest({"rcpVersion": "0.1", "tools": []})
    >>> parsed.tools, parsed.warnings
    ((), ())
    """
    result = safe_parse_manifest(source, max_bytes=max_bytes, max_tools=max_tools, manifest_url=manifest_url)
    if not result.ok:
        assert result.error is not None
        raise result.error
    assert result.value is not None
    return result.value


def safe_parse_manifest(
    source: object,
    *,
    max_bytes: int = DEFAULT_MAX_BYTES,
    max_tools: int = DEFAULT_MAX_TOOLS,
    manifest_url: str | None = None,
) -> SafeParseResult:
    """:func:`parse_manifest` that never raises an RCP error: the error and the warnings as data."""
    try:
        value = read_manifest_input(source, max_bytes=max_bytes)
        if not isinstance(value, dict):
            raise RcpInvalidManifestError("The manifest must be a JSON object.", issues=(Issue("", "must be a JSON object"),))
        version = version_gate(value)
        tools = value.get("tools")
        if isinstance(tools, list) and len(tools) > max_tools:
            raise RcpManifestLimitError(f"The manifest lists more than {max_tools} tools.", limit="tools", max=max_tools)
    except (RcpManifestLimitError, RcpInvalidManifestError, RcpUnsupportedVersionError) as error:
        return SafeParseResult(False, None, error, ())
    validator = _Validator(version)
    base_origin = UNRESOLVED_ORIGIN
    if manifest_url is not None:
        try:
            base_origin = parse_absolute_url(manifest_url).origin
        except UrlError:
            base_origin = UNRESOLVED_ORIGIN
    parsed = _validate(value, validator, base_origin)
    warnings = tuple(sorted(_dedupe_warnings(validator.warnings), key=lambda w: pointer_sort_key(w.path)))
    if validator.issues:
        issues = _sorted_issues(validator.issues)
        invalid = RcpInvalidManifestError(_issues_message("The manifest is invalid", issues), issues=issues)
        return SafeParseResult(False, None, invalid, warnings)
    assert parsed is not None
    return SafeParseResult(True, replace(parsed, warnings=warnings), None, warnings)


def _dedupe_warnings(warnings: list[RcpWarning]) -> list[RcpWarning]:
    seen: set[tuple[str, str]] = set()
    out: list[RcpWarning] = []
    for warning in warnings:
        key = (warning.path, warning.message)
        if key not in seen:
            seen.add(key)
            out.append(warning)
    return out


def _sorted_issues(issues: list[Issue]) -> tuple[Issue, ...]:
    unique = list(dict.fromkeys(issues))
    return tuple(sorted(unique, key=lambda issue: pointer_sort_key(issue.path)))


def _issues_message(prefix: str, issues: tuple[Issue, ...]) -> str:
    shown = "; ".join(str(issue) if issue.path else issue.message for issue in issues[:5])
    more = f" (and {len(issues) - 5} more)" if len(issues) > 5 else ""
    return f"{prefix}: {shown}{more}"


def _validate(value: dict[str, object], v: _Validator, base_origin: str | None) -> ParsedManifest | None:
    v.unknown(value, TOP_LEVEL_KEYS, "")
    out: dict[str, Json] = {"rcpVersion": v.version}
    server_auth: dict[str, Json] = {"type": "none"}
    if "auth" in value:
        checked = _auth(value["auth"], "/auth", v)
        if checked is not None:
            server_auth = checked
        out["auth"] = deep_copy(server_auth)
    if "$schema" in value:
        out["$schema"] = deep_copy(value["$schema"])
    # RCP 0.4 groups (SPEC §20.3): read in a 0.4 manifest only; an older one's are ignored with a warning (M27.8).
    groups: dict[str, int] | None = None
    if "groups" in value:
        if "groups" in v.features:
            groups, out["groups"] = _groups(value["groups"], v)
        else:
            v.warn("/groups", _ignored_group_message("groups", v.version))
    tools_value = value.get("tools")
    compiled: list[ToolDefinition] = []
    tool_copies: list[Json] = []
    if "tools" not in value:
        v.report("/tools", "is required")
    elif not isinstance(tools_value, list):
        v.report("/tools", "must be an array")
    else:
        names: dict[str, int] = {}
        for index, raw in enumerate(tools_value):
            tool = _tool(raw, index, v, server_auth, base_origin)
            if isinstance(raw, dict) and isinstance(raw.get("name"), str):
                folded = str(raw["name"]).lower()
                if folded in names:
                    v.report(f"/tools/{index}/name", f'duplicates the name of tool {names[folded]} (names are compared regardless of case)')
                else:
                    names[folded] = index
            group = _tool_group(raw, index, v, groups)
            if tool is not None:
                if group is not None:
                    tool.raw["group"] = group
                compiled.append(tool)
                tool_copies.append(tool.raw)
        if groups is not None:
            used = {tool.raw.get("group") for tool in compiled} | {raw.get("group") for raw in tools_value if isinstance(raw, dict)}
            for name, index in groups.items():
                if name not in used:
                    v.warn(f"/groups/{index}", f'group "{name}" is declared but no tool names it')
    out["tools"] = tool_copies
    if v.issues:
        return None
    return ParsedManifest(out, tuple(compiled), ())


def _ignored_group_message(field_name: str, version: str) -> str:
    return f'"{field_name}" needs rcpVersion "0.4": ignored (this manifest says "{version}", whose clients ignore it)'


def _groups(value: object, v: _Validator) -> tuple[dict[str, int], list[Json]]:
    """RCP 0.4 groups (SPEC §20.3, M27.7): names by the tool-name rule, unique regardless of case; the declared
    names (exactly as written) with their index, and the copies (known fields only)."""
    names: dict[str, int] = {}
    folded: dict[str, int] = {}
    copies: list[Json] = []
    if not isinstance(value, list):
        v.report("/groups", "must be an array")
        return names, copies
    for index, raw in enumerate(value):
        base = f"/groups/{index}"
        if not isinstance(raw, dict):
            v.report(base, "must be an object")
            continue
        v.unknown(raw, GROUP_KEYS, base)
        name = raw.get("name")
        description = raw.get("description")
        if "description" in raw and not isinstance(description, str):
            v.report(f"{base}/description", "must be a string")
        if not isinstance(name, str) or not TOOL_NAME.match(name):
            v.report(f"{base}/name", "is required" if "name" not in raw else "must match ^[A-Za-z0-9_-]{1,64}$ (a group is named like a tool)")
            continue
        if name.lower() in folded:
            v.report(f"{base}/name", f"duplicates the name of group {folded[name.lower()]} (names are compared regardless of case)")
            continue
        folded[name.lower()] = index
        names[name] = index
        copy: dict[str, Json] = {"name": name}
        if isinstance(description, str):
            copy["description"] = description
        copies.append(copy)
    return names, copies


def _tool_group(raw: object, index: int, v: _Validator, groups: dict[str, int] | None) -> str | None:
    """A tool's ``group`` (SPEC §20.3): one of the manifest's group names, written the same, in a 0.4 manifest (M27.7);
    ignored with a warning in an older one (M27.8)."""
    if not isinstance(raw, dict) or "group" not in raw:
        return None
    at = f"/tools/{index}/group"
    if "groups" not in v.features:
        v.warn(at, _ignored_group_message("group", v.version))
        return None
    group = raw["group"]
    if not isinstance(group, str) or not TOOL_NAME.match(group):
        v.report(at, "must match ^[A-Za-z0-9_-]{1,64}$ (the name of one of the manifest's groups)")
        return None
    if groups is None or group not in groups:
        name = raw.get("name")
        who = f'tool "{name}"' if isinstance(name, str) and TOOL_NAME.match(name) else "the tool"
        v.report(at, f"{who} names group \"{group}\", which is not one of the manifest's groups")
        return None
    return group


def _auth(value: object, base: str, v: _Validator) -> dict[str, Json] | None:
    if not isinstance(value, dict):
        v.report(base, "must be an object with a type: none, header or query")
        return None
    kind = value.get("type")
    if kind == "none":
        v.unknown(value, ("type",), base)
        return {"type": "none"}
    if kind == "header":
        v.unknown(value, ("type", "name", "scheme", "oauth"), base)
        out: dict[str, Json] = {"type": "header"}
        good = True
        name = value.get("name")
        if not isinstance(name, str) or not HTTP_TOKEN.match(name):
            v.report(f"{base}/name", "must be a header name (an RFC 9110 token)")
            good = False
        elif name.lower() in FORBIDDEN_HEADERS:
            v.report(f"{base}/name", f'"{name}" cannot carry a credential (a connection-level, cookie or proxy header)')
            good = False
        else:
            out["name"] = name
        if "scheme" in value:
            scheme = value["scheme"]
            if not isinstance(scheme, str) or not HTTP_TOKEN.match(scheme):
                v.report(f"{base}/scheme", "must be an RFC 9110 token (such as Bearer)")
                good = False
            else:
                out["scheme"] = scheme
        if "oauth" in value:
            hint = _oauth(value["oauth"], f"{base}/oauth", v)
            if hint is not None:
                out["oauth"] = hint
                if not (isinstance(name, str) and name.lower() == "authorization" and isinstance(value.get("scheme"), str) and str(value["scheme"]).lower() == "bearer"):
                    v.warn(f"{base}/oauth", 'an OAuth hint on an auth that does not send "Authorization: Bearer <token>"')
        return out if good else None
    if kind == "query":
        v.unknown(value, ("type", "name"), base)
        if "query-auth" not in v.features:
            v.report(f"{base}/type", f'"query" auth needs rcpVersion 0.2 or later (this manifest says {v.version})')
            return None
        name = value.get("name")
        if not isinstance(name, str) or not HTTP_TOKEN.match(name):
            v.report(f"{base}/name", "must be a query key (an RFC 9110 token)")
            return None
        return {"type": "query", "name": name}
    v.report(f"{base}/type", "must be one of none, header, query")
    return None


def _oauth(value: object, base: str, v: _Validator) -> dict[str, Json] | None:
    if not isinstance(value, dict):
        v.report(base, "must be an object")
        return None
    v.unknown(value, ("scopes", "issuer", "grantTypes"), base)
    out: dict[str, Json] = {}
    if "scopes" in value:
        scopes = value["scopes"]
        if not isinstance(scopes, list):
            v.report(f"{base}/scopes", "must be an array of scope tokens")
        else:
            for index, scope in enumerate(scopes):
                if not isinstance(scope, str) or not _SCOPE_TOKEN.match(scope):
                    v.report(f"{base}/scopes/{index}", "must be a scope token (printable ASCII without space, \" or \\)")
            out["scopes"] = list(scopes)
    if "issuer" in value:
        issuer = value["issuer"]
        problem = _issuer_problem(issuer)
        if problem is not None:
            v.report(f"{base}/issuer", problem)
        else:
            out["issuer"] = issuer
    if "grantTypes" in value:
        grants = value["grantTypes"]
        if not isinstance(grants, list):
            v.report(f"{base}/grantTypes", "must be an array of strings")
        else:
            for index, grant in enumerate(grants):
                if not isinstance(grant, str) or grant.strip() == "":
                    v.report(f"{base}/grantTypes/{index}", "must be a non-blank string")
            out["grantTypes"] = list(grants)
    return out


def _issuer_problem(issuer: object) -> str | None:
    if not isinstance(issuer, str):
        return "must be a string (an https URL)"
    match = re.match(r"^([A-Za-z][A-Za-z0-9+.\-]*)://([^/?#]*)([^?#]*)(\?[^#]*)?(#.*)?$", issuer)
    if match is None:
        return "must be an absolute https URL"
    if "@" in match.group(2):
        return "must not hold user info"
    if match.group(4) is not None:
        return "must not have a query"
    if match.group(5) is not None:
        return "must not have a fragment"
    try:
        url = parse_absolute_url(issuer)
    except UrlError:
        return "must be an absolute https URL"
    if url.scheme == "https":
        return None
    host = url.hostname
    loopback = host == "localhost" or host == "::1" or re.match(r"^127\.\d+\.\d+\.\d+$", host) is not None
    return None if loopback else "must be an https URL (http only on a loopback host)"


def _tool(raw: object, index: int, v: _Validator, server_auth: dict[str, Json], base_origin: str | None) -> ToolDefinition | None:
    base = f"/tools/{index}"
    before = len(v.issues)
    if not isinstance(raw, dict):
        v.report(base, "must be an object")
        return None
    v.unknown(raw, TOOL_KEYS, base)
    copy: dict[str, Json] = {}
    name = raw.get("name")
    if not isinstance(name, str) or not TOOL_NAME.match(name):
        v.report(f"{base}/name", "must match ^[A-Za-z0-9_-]{1,64}$")
    else:
        copy["name"] = name
    description = raw.get("description")
    if not isinstance(description, str) or description.strip() == "":
        v.report(f"{base}/description", "must be a non-empty string")
    else:
        copy["description"] = description
    method = raw.get("method")
    if not isinstance(method, str) or method not in METHODS:
        v.report(f"{base}/method", "must be one of " + ", ".join(METHODS))
    else:
        copy["method"] = method

    # auth
    own_auth: dict[str, Json] | None = None
    effective_auth = server_auth
    if "auth" in raw:
        own_auth = _auth(raw["auth"], f"{base}/auth", v)
        if own_auth is not None:
            effective_auth = own_auth
            copy["auth"] = deep_copy(own_auth)

    # params
    params: list[Param] = []
    declared: dict[str, int] = {}
    if "params" in raw:
        raw_params = raw["params"]
        if not isinstance(raw_params, list):
            v.report(f"{base}/params", "must be an array")
        else:
            for param_index, raw_param in enumerate(raw_params):
                param = _param(raw_param, f"{base}/params/{param_index}", param_index, v)
                if param is None:
                    if isinstance(raw_param, dict) and isinstance(raw_param.get("name"), str):
                        declared.setdefault(str(raw_param["name"]), param_index)
                    continue
                if param.name in declared:
                    v.report(f"{base}/params/{param_index}/name", f'duplicates param {declared[param.name]}')
                    continue
                declared[param.name] = param_index
                params.append(param)

    used: dict[str, list[str]] = {}

    def use(names: list[str], at: str) -> None:
        for token in names:
            used.setdefault(token, []).append(at)
            if token not in declared:
                v.report(at, f'uses token "{token}", which is not a declared param')

    # url
    url: UrlTemplate | None = None
    url_text = raw.get("url")
    if "url" not in raw:
        v.report(f"{base}/url", "is required")
    elif not isinstance(url_text, str):
        v.report(f"{base}/url", "must be a string")
    else:
        try:
            url = compile_url(url_text, base_origin)
            copy["url"] = url_text
            use(url.tokens, f"{base}/url")
            if effective_auth.get("type") == "query" and any(entry.key == effective_auth.get("name") for entry in url.query):
                v.report(f"{base}/url", f'writes the query key "{effective_auth.get("name")}", which the query auth sends')
        except RcpTemplateError as error:
            v.report(f"{base}/url", error.message)

    # queryParams
    query_params: tuple[QueryEntry, ...] = ()
    if "queryParams" in raw:
        raw_query = raw["queryParams"]
        if not isinstance(raw_query, dict):
            v.report(f"{base}/queryParams", "must be an object of string templates")
        else:
            good: dict[str, str] = {}
            for key, template in raw_query.items():
                at = f"{base}/queryParams/{_esc(key)}"
                if not isinstance(template, str):
                    v.report(at, "must be a string template")
                    continue
                try:
                    use(template_tokens(parse_template(template)), at)
                    good[key] = template
                except RcpTemplateError as error:
                    v.report(at, error.message)
                if effective_auth.get("type") == "query" and key == effective_auth.get("name"):
                    v.report(at, f'is the query key "{key}", which the query auth sends')
            query_params = compile_query_params(good, lambda key: f"{base}/queryParams/{_esc(key)}")
            copy["queryParams"] = dict(good)

    # headers
    headers: list[tuple[str, Template]] = []
    if "headers" in raw:
        raw_headers = raw["headers"]
        if not isinstance(raw_headers, dict):
            v.report(f"{base}/headers", "must be an object of string templates")
        else:
            seen: set[str] = set()
            auth_header = str(effective_auth.get("name", "")).lower() if effective_auth.get("type") == "header" else None
            copy_headers: dict[str, Json] = {}
            for header, template in raw_headers.items():
                at = f"{base}/headers/{_esc(header)}"
                folded = header.lower()
                if not HTTP_TOKEN.match(header):
                    v.report(at, "must be a header name (an RFC 9110 token)")
                elif folded in FORBIDDEN_HEADERS:
                    v.report(at, f'"{header}" cannot be set by a tool (a connection-level, cookie or proxy header)')
                elif folded in seen:
                    v.report(at, "duplicates another header (names are compared regardless of case)")
                elif folded == auth_header:
                    v.report(at, "is the tool's auth header, which only the client sets")
                seen.add(folded)
                if not isinstance(template, str):
                    v.report(at, "must be a string template")
                    continue
                try:
                    parsed = parse_template(template)
                except RcpTemplateError as error:
                    v.report(at, error.message)
                    continue
                problem = check_header_literal(parsed)
                if problem is not None:
                    v.report(at, problem)
                use(template_tokens(parsed), at)
                headers.append((header, parsed))
                copy_headers[header] = template
            copy["headers"] = copy_headers

    # body and its encoding
    body: BodyNode | None = None
    encoding: Literal["json", "form"] = "json"
    if "bodyEncoding" in raw:
        raw_encoding = raw["bodyEncoding"]
        if raw_encoding == "multipart":
            v.report(f"{base}/bodyEncoding", 'is "multipart" (RCP 0.4 files, SPEC §20.7), which this Python client does not support yet')
        elif raw_encoding not in ("json", "form"):
            v.report(f"{base}/bodyEncoding", 'must be "json" or "form"')
        elif raw_encoding == "form" and "form-body" not in v.features:
            v.report(f"{base}/bodyEncoding", f'"form" needs rcpVersion 0.2 or later (this manifest says {v.version})')
        else:
            encoding = "form" if raw_encoding == "form" else "json"
            copy["bodyEncoding"] = encoding
            if encoding == "form" and "body" not in raw:
                v.report(f"{base}/bodyEncoding", 'a "form" body encoding needs a body')
    if "body" in raw:
        raw_body = raw["body"]
        if method == "GET":
            v.report(f"{base}/body", "a GET tool cannot send a body")
        try:

            def on_template(template: Template, path: tuple[str | int, ...]) -> None:
                use(template_tokens(template), base + "/body" + "".join("/" + _esc(segment) for segment in path))

            body = compile_body(raw_body, on_template)
            copy["body"] = deep_copy(raw_body)
        except RcpTemplateError as error:
            v.report(f"{base}/body", error.message)
        if encoding == "form":
            if not isinstance(raw_body, dict):
                v.report(f"{base}/body", "a form body must be an object")
            else:
                _check_form_keys(raw_body, f"{base}/body", v)

    # response mappings
    mappings: list[tuple[str, JsonPath]] | None = None
    if "responseMappings" in raw:
        raw_mappings = raw["responseMappings"]
        if not isinstance(raw_mappings, dict):
            v.report(f"{base}/responseMappings", "must be an object of paths")
        else:
            mappings = []
            for field_name, path in raw_mappings.items():
                at = f"{base}/responseMappings/{_esc(field_name)}"
                if field_name == "" or field_name == "__proto__":
                    v.report(at, "is not a valid output field name")
                    continue
                compiled = _mapping_path(path, at, v)
                if compiled is not None:
                    mappings.append((field_name, compiled))
            copy["responseMappings"] = {field_name: raw_mappings[field_name] for field_name, _ in mappings}

    # effects
    declared_effects: dict[str, bool] = {}
    if "effects" in raw:
        raw_effects = raw["effects"]
        if not isinstance(raw_effects, dict):
            v.report(f"{base}/effects", "must be an object of booleans")
        else:
            v.unknown(raw_effects, EFFECT_KEYS, f"{base}/effects")
            for key in EFFECT_KEYS:
                if key in raw_effects:
                    if isinstance(raw_effects[key], bool):
                        declared_effects[key] = bool(raw_effects[key])
                    else:
                        v.report(f"{base}/effects/{key}", "must be a boolean")
            if declared_effects.get("readOnly") is True:
                if method in ("PUT", "PATCH", "DELETE"):
                    v.report(f"{base}/effects/readOnly", f"a {method} tool cannot be read-only")
                if declared_effects.get("destructive") is True:
                    v.report(f"{base}/effects/destructive", "a read-only tool cannot be destructive")
                if declared_effects.get("idempotent") is False:
                    v.report(f"{base}/effects/idempotent", "a read-only tool is idempotent")
            copy["effects"] = dict(declared_effects)

    # response media types (0.3)
    media_types: list[str] = []
    if "responseMediaTypes" in raw:
        raw_types = raw["responseMediaTypes"]
        at = f"{base}/responseMediaTypes"
        if "response-media-types" not in v.features:
            v.report(at, f"needs rcpVersion 0.3 or later (this manifest says {v.version})")
        elif not isinstance(raw_types, list) or len(raw_types) == 0:
            v.report(at, "must be a non-empty array of media types")
        else:
            for type_index, entry in enumerate(raw_types):
                if not isinstance(entry, str) or not MEDIA_RANGE.match(entry):
                    v.report(f"{at}/{type_index}", "must be a media type (type/subtype or type/*, no parameters; */* is not allowed)")
                else:
                    media_types.append(entry.lower())
            copy["responseMediaTypes"] = list(media_types)

    # pagination (0.3)
    pagination: Pagination | None = None
    if "pagination" in raw:
        raw_pagination = raw["pagination"]
        at = f"{base}/pagination"
        if "pagination" not in v.features:
            v.report(at, f"needs rcpVersion 0.3 or later (this manifest says {v.version})")
        elif not isinstance(raw_pagination, dict):
            v.report(at, "must be an object")
        else:
            v.unknown(raw_pagination, ("nextCursor", "param", "hasMore"), at)
            next_cursor = _singular_path(raw_pagination.get("nextCursor"), f"{at}/nextCursor", v, required=True)
            has_more = _singular_path(raw_pagination.get("hasMore"), f"{at}/hasMore", v, required=False) if "hasMore" in raw_pagination else None
            param_name = raw_pagination.get("param")
            cursor_param = next((param for param in params if param.name == param_name), None)
            if not isinstance(param_name, str) or cursor_param is None:
                v.report(f"{at}/param", "must name a declared param of this tool")
            elif cursor_param.type not in ("string", "integer", "number"):
                v.report(f"{at}/param", "must be a param of type string, integer or number")
            elif next_cursor is not None:
                pagination = Pagination(next_cursor, param_name, has_more)
                copy["pagination"] = {key: raw_pagination[key] for key in ("nextCursor", "param", "hasMore") if key in raw_pagination}

    # idempotency (0.4)
    idempotency: Idempotency | None = None
    if "idempotency" in raw:
        raw_idempotency = raw["idempotency"]
        at = f"{base}/idempotency"
        if "idempotency" not in v.features:
            v.report(at, f"needs rcpVersion 0.4 or later (this manifest says {v.version})")
        elif not isinstance(raw_idempotency, dict):
            v.report(at, "must be an object")
        else:
            idempotency = _idempotency(raw_idempotency, at, method, effective_auth, raw.get("headers"), v)
            if idempotency is not None:
                copy["idempotency"] = {key: raw_idempotency[key] for key in ("header", "expiresAfterSeconds") if key in raw_idempotency}

    # stream (0.4, SPEC §20.6): an older manifest's is ignored with a warning (M27.9), as groups are.
    stream: Stream | None = None
    if "stream" in raw:
        at = f"{base}/stream"
        if "streams" not in v.features:
            v.warn(at, f'"stream" needs rcpVersion "0.4": ignored (this manifest says "{v.version}", whose clients read the answer as text)')
        elif not isinstance(raw["stream"], dict):
            v.report(at, "must be an object")
        else:
            stream = _stream(raw["stream"], at, "responseMappings" in raw, v)
            if stream is not None:
                copy["stream"] = {key: raw["stream"][key] for key in STREAM_KEYS if key in raw["stream"]}

    # operation (0.4, SPEC §20.8): an older manifest's is ignored with a warning (M28.1), as streams are.
    operation: Operation | None = None
    if "operation" in raw:
        at = f"{base}/operation"
        if "operations" not in v.features:
            v.warn(at, f'"operation" needs rcpVersion "0.4": ignored (this manifest says "{v.version}", whose clients return a 202\'s body as the result)')
        elif not isinstance(raw["operation"], dict):
            v.report(at, "must be an object")
        else:
            for beside in ("stream", "pagination"):
                if beside in raw:
                    v.report(at, f'cannot be declared with "{beside}": a tool answers one way')
            operation = _operation(raw["operation"], at, v)
            if operation is not None:
                copy["operation"] = {key: raw["operation"][key] for key in OPERATION_KEYS if key in raw["operation"]}

    # RCP 0.4 queryStyle (SPEC §20.4, M27.5): a styled param is the whole value of a query entry, never part of one.
    styled = [param for param in params if param.query_style != "repeat"]
    if styled:
        entries = [*(url.query if url is not None else ()), *query_params]
        whole: set[str] = set()
        part: set[str] = set()
        for entry in entries:
            if entry.value is None:
                continue
            tokens = [piece.name for piece in entry.value if isinstance(piece, Token)]
            (whole if len(entry.value) == 1 and len(tokens) == 1 else part).update(tokens)
        for param in styled:
            at = f"{base}/params/{param.index}/queryStyle"
            if param.name in part:
                v.report(at, f'applies to "{param.name}" as the whole value of a query entry, but the query uses it inside a longer value')
            elif param.name not in whole:
                v.report(at, f'applies to a query value, but "{param.name}" is not the value of a query entry')

    if len(v.issues) > before or url is None or not isinstance(name, str) or not isinstance(method, str) or not isinstance(description, str):
        return None

    path_tokens = set(url.path_tokens)
    final_params: list[Param] = []
    copy_params: list[Json] = []
    for param in params:
        if param.name not in used:
            v.warn(f"{base}/params/{param.index}", f'declares "{param.name}", which no template uses')
        final_params.append(replace(param, required=param.required or param.name in path_tokens))
        copy_params.append(_param_copy(raw["params"][param.index]))
    if "params" in raw:
        copy["params"] = copy_params
    ordered = {key: copy[key] for key in TOOL_KEYS if key in copy}
    return ToolDefinition(
        index=index,
        name=name,
        description=description,
        method=method,
        url_text=str(url_text),
        url=url,
        params=tuple(final_params),
        query_params=query_params,
        headers=tuple(headers),
        body=body,
        body_encoding=encoding,
        auth=effective_auth,
        own_auth=own_auth,
        mappings=tuple(mappings) if mappings is not None else None,
        effects=tool_effects(method, declared_effects),
        declared_effects=declared_effects,
        response_media_types=tuple(media_types),
        pagination=pagination,
        idempotency=idempotency,
        raw=ordered,
        stream=stream,
        operation=operation,
    )


def _stream(raw: dict[str, Json], at: str, has_mappings: bool, v: _Validator) -> Stream | None:
    """SPEC §20.6 (M27.9): a format and a collection of their values, a singular ``field``, ``maxEvents`` ≥ 1, and no
    response mappings on a ``concat`` (its result is text)."""
    before = len(v.issues)
    v.unknown(raw, STREAM_KEYS, at)
    stream_format = raw.get("format")
    collect = raw.get("collect")
    if stream_format not in ("sse", "ndjson"):
        v.report(f"{at}/format", "is required" if "format" not in raw else 'must be "sse" or "ndjson"')
    if collect not in ("concat", "last", "array"):
        v.report(f"{at}/collect", "is required" if "collect" not in raw else 'must be "concat", "last" or "array"')
    elif collect == "concat" and has_mappings:
        v.report(f"{at}/collect", 'is "concat", whose result is text: responseMappings read JSON (use "array" or "last", or drop the mappings)')
    path = _singular_path(raw.get("field"), f"{at}/field", v, required=False) if "field" in raw else None
    max_events = raw.get("maxEvents")
    whole = (isinstance(max_events, int) and not isinstance(max_events, bool)) or (isinstance(max_events, float) and max_events.is_integer())
    if "maxEvents" in raw and (not whole or max_events < 1):  # type: ignore[operator]
        v.report(f"{at}/maxEvents", "must be an integer ≥ 1")
    if len(v.issues) > before:
        return None
    return Stream(stream_format, collect, path, None if max_events is None else int(max_events))  # type: ignore[arg-type]


def _operation(raw: dict[str, Json], at: str, v: _Validator) -> Operation | None:
    """SPEC §20.8 (M28.1): ``statusUrl`` a header (``header:<Name>``) or a singular path; ``state`` and ``result``
    singular paths; ``done`` with ``state``, ``failed`` only with it; ``pollSeconds`` from 0 to 3600."""
    before = len(v.issues)
    v.unknown(raw, OPERATION_KEYS, at)
    status_url = raw.get("statusUrl")
    header: str | None = None
    status_path: JsonPath | None = None
    if status_url is None:
        v.report(f"{at}/statusUrl", "is required")
    elif isinstance(status_url, str) and status_url.startswith("header:") and HTTP_TOKEN.match(status_url[len("header:"):]):
        header = status_url[len("header:"):].lower()
    elif isinstance(status_url, str) and status_url.startswith("@"):
        status_path = _singular_path(status_url, f"{at}/statusUrl", v, required=True)
    else:
        v.report(f"{at}/statusUrl", 'must be "header:<Name>" (an HTTP header name) or an "@" path into the 202 answer')
    state = _singular_path(raw.get("state"), f"{at}/state", v, required=False) if "state" in raw else None
    result = _singular_path(raw.get("result"), f"{at}/result", v, required=False) if "result" in raw else None
    lists: dict[str, tuple[str, ...]] = {}
    for key in ("done", "failed"):
        if key not in raw:
            continue
        value = raw[key]
        if not isinstance(value, list) or not value:
            v.report(f"{at}/{key}", "must be a non-empty array of strings")
            continue
        for index, entry in enumerate(value):
            if not isinstance(entry, str):
                v.report(f"{at}/{key}/{index}", "must be a string")
        lists[key] = tuple(entry for entry in value if isinstance(entry, str))
        if "state" not in raw:
            v.report(f"{at}/{key}", 'needs "state": the path of the state it is compared with')
    if "state" in raw and "done" not in raw:
        v.report(f"{at}/done", 'is required with "state": the states that mean done')
    poll = raw.get("pollSeconds", 2)
    if isinstance(poll, bool) or not isinstance(poll, (int, float)) or not 0 <= poll <= 3600:
        v.report(f"{at}/pollSeconds", "must be a number from 0 to 3600")
    if len(v.issues) > before:
        return None
    return Operation(header, status_path, state, lists.get("done", ()), lists.get("failed", ()), result, float(poll))


def _idempotency(
    raw: dict[str, Json], at: str, method: object, effective_auth: dict[str, Json], tool_headers: object, v: _Validator
) -> Idempotency | None:
    """A write's key travels in a header the client sets itself: not one the HTTP client controls, not the
    credential's, not one the tool's templates write (the model could choose the key); a GET takes none (§20.1)."""
    before = len(v.issues)
    v.unknown(raw, ("header", "expiresAfterSeconds"), at)
    if method == "GET":
        v.report(at, "a GET request reads: it takes no idempotency key")
    header = raw.get("header")
    if not isinstance(header, str) or not HTTP_TOKEN.match(header):
        v.report(f"{at}/header", "must be a header name (an RFC 9110 token)")
    else:
        folded = header.lower()
        auth_header = str(effective_auth.get("name", "")).lower() if effective_auth.get("type") == "header" else None
        if folded in FORBIDDEN_HEADERS:
            v.report(f"{at}/header", f'"{header}" cannot carry an idempotency key (the HTTP client controls that header)')
        elif folded == auth_header:
            v.report(f"{at}/header", f'"{header}" is the auth header: it carries the credential')
        elif isinstance(tool_headers, dict) and any(isinstance(name, str) and name.lower() == folded for name in tool_headers):
            v.report(f"{at}/header", f'"{header}" is one of the tool\'s headers: the client sets the key itself, never from a template')
    expires: int | None = None
    if "expiresAfterSeconds" in raw:
        value = raw["expiresAfterSeconds"]
        if not is_safe_integer(value) or value < 1:
            v.report(f"{at}/expiresAfterSeconds", "must be an integer of at least 1 (seconds)")
        else:
            expires = int(value)
    if len(v.issues) > before or not isinstance(header, str):
        return None
    return Idempotency(header, expires)


def _param_copy(raw: dict[str, Json]) -> dict[str, Json]:
    from ._values import PARAM_KEYS

    return {key: deep_copy(raw[key]) for key in PARAM_KEYS if key in raw}


def _param(raw: object, base: str, index: int, v: _Validator) -> Param | None:
    if not isinstance(raw, dict):
        v.report(base, "must be an object")
        return None
    before = len(v.issues)
    name = raw.get("name")
    if not isinstance(name, str) or not TOKEN_NAME.match(name):
        v.report(f"{base}/name", "must match ^[A-Za-z_][A-Za-z0-9_]*$")
    elif name in RESERVED_PARAM_NAMES:
        v.report(f"{base}/name", f'"{name}" is not allowed as a param name')
    kind = raw.get("type", "string")
    if kind == "file":
        # RCP 0.4 file params (SPEC §20.7) are not implemented here yet: refused by name, never sent as text.
        v.report(f"{base}/type", 'is "file" (an RCP 0.4 file param, SPEC §20.7), which this Python client does not support yet')
        return None
    if not isinstance(kind, str) or kind not in PARAM_TYPES:
        v.report(f"{base}/type", "must be one of " + ", ".join(PARAM_TYPES))
        kind = "string"
    required = raw.get("required", False)
    if not isinstance(required, bool):
        v.report(f"{base}/required", "must be a boolean")
        required = False
    # RCP 0.4 (SPEC §20.2), informational in any version: who the API expects to fill the param.
    if "filledBy" in raw and raw["filledBy"] != "client":
        v.report(f"{base}/filledBy", 'must be one of "client"')
    query_style = _query_style(raw, base, kind, v)
    schema = compile_value_schema(raw, base, kind=kind, is_param=True, depth=0, report=v.report, warn=v.warn)
    if len(v.issues) > before or not isinstance(name, str):
        return None
    return Param(name=name, type=kind, description=schema.description, required=required, schema=schema, index=index, query_style=query_style)


QUERY_STYLES = ("repeat", "comma", "deepObject")


def _query_style(raw: dict[str, Json], base: str, kind: str, v: _Validator) -> str:
    """RCP 0.4 ``queryStyle`` (SPEC §20.4, M27.4–M27.5): one of three, 0.4 only, on the type it writes."""
    if "queryStyle" not in raw:
        return "repeat"
    style = raw["queryStyle"]
    at = f"{base}/queryStyle"
    if not isinstance(style, str) or style not in QUERY_STYLES:
        v.report(at, "must be one of " + ", ".join(QUERY_STYLES))
        return "repeat"
    if "query-styles" not in v.features:
        v.report(at, f'queryStyle needs rcpVersion "0.4" (this manifest says "{v.version}")')
    if style == "deepObject" and kind != "object":
        v.report(at, 'is "deepObject", which writes an object: the param\'s type must be "object"')
    if style == "comma" and kind != "array":
        v.report(at, 'is "comma", which writes an array: the param\'s type must be "array"')
    return style


def _check_form_keys(value: Json, base: str, v: _Validator) -> None:
    if isinstance(value, dict):
        for key, item in value.items():
            at = f"{base}/{_esc(key)}"
            if "[" in key or "]" in key:
                v.report(at, "a form field name may not hold [ or ] (write nesting as nesting)")
            _check_form_keys(item, at, v)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _check_form_keys(item, f"{base}/{index}", v)


def _mapping_path(path: object, at: str, v: _Validator) -> JsonPath | None:
    if not isinstance(path, str) or not path.startswith("@"):
        v.report(at, 'must be a path starting with "@"')
        return None
    try:
        return parse_json_path(mapping_query(path))
    except JsonPathSyntaxError as error:
        v.report(at, f"is not a valid RFC 9535 query: {error}")
        return None


def _singular_path(path: object, at: str, v: _Validator, *, required: bool) -> JsonPath | None:
    if path is None and not required:
        return None
    if path is None:
        v.report(at, "is required")
        return None
    compiled = _mapping_path(path, at, v)
    if compiled is not None and not compiled.singular:
        v.report(at, "must be a singular path (names and indexes only)")
        return None
    return compiled

