"""The RCP client: discover a manifest, execute a model's calls safely, prepare a request for review.

``execute`` runs SPEC §11's steps in order — validate the arguments, resolve, ask for the credential, render
and check the destination, send, read, decode — and no HTTP request is made before the send.

Example::

    from rcp import create_rcp_client, to_model_result

    client = create_rcp_client(
        resolvers={"userId": lambda ctx, info: ctx["user_id"]},
        credentials=lambda request: "my-token",
    )
    discovery = client.discover("https://api.example.com/rcp/manifest")
    outcome = client.call(discovery, "list_notes", '{"tag": "work"}', {"user_id": "u-1"})
    print(to_model_result(outcome))
"""

from __future__ import annotations

import hmac
import math
import os
import sys
import threading
import time
import weakref
import uuid
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Mapping, Sequence, Union

from ._binding import fold, is_near_miss, looks_like_identity
from ._files import DEFAULT_MAX_UPLOAD_BYTES, FileResolver, MultipartBody, build_multipart, file_reference_problem
from ._deadline import AbortSignal, Clock, Deadline, Sleep
from ._decode import (
    DEFAULT_MEDIA_TYPES,
    charset_of,
    decode_text,
    kind_of,
    looks_like_text,
    media_type_of,
)
from ._json import Json, deep_copy, json_error_position, json_type_name, parse_json, pointer_sort_key, stringify
from ._manifest import (
    DEFAULT_MAX_BYTES,
    DEFAULT_MAX_TOOLS,
    FORBIDDEN_HEADERS,
    HTTP_TOKEN,
    MEDIA_RANGE,
    ParsedManifest,
    RcpWarning,
    ToolDefinition,
    parse_manifest,
)
from ._pages import Page, cursor_page, link_page
from ._redact import REDACTED, Redactor, secret_strings
from ._retry import RetryPolicy, parse_retry_after, retry_after_seconds
from ._send import LiveResponse, Request, Resolve, SendOptions, _wait as wait_within, send, system_resolve
from ._stream import STREAM_MEDIA_TYPES, StreamCollector, stream_accept
from ._operation import HANDLE_LIFETIME, HandleContent, Pending, Sealer, reading, status_url_of, wait_of
from .errors import RcpInvalidHandleError
from ._template import (
    encode_form_body,
    percent_encode,
    render_body,
    render_header,
    render_path,
    render_query_entry,
)
from ._trust import (
    AddressClass,
    Boundary,
    ClassifyAddress,
    PublicSuffixList,
    TrustPolicy,
    classify_host,
    load_public_suffix_list,
)
from ._url import Url, UrlError, parse_absolute_url, parse_origin, strip_userinfo
from ._values import check_value, type_matches
from .errors import (
    Issue,
    RcpCause,
    RcpDiscoveryError,
    RcpError,
    RcpHttpError,
    RcpInvalidArgumentsError,
    RcpInvalidOptionsError,
    RcpInvalidToolError,
    RcpManifestLimitError,
    RcpMissingCredentialsError,
    RcpOriginNotAllowedError,
    RcpResolverFailedError,
    RcpResolverMismatchError,
    RcpResponseError,
    RcpTimeoutError,
    RcpUnboundParamError,
    RcpUnknownToolError,
    RcpUnresolvedError,
)

DEFAULT_TIMEOUT = 30.0
DEFAULT_MAX_RESPONSE_BYTES = 10 * 1024 * 1024
DEFAULT_MAX_MEDIA_BYTES = 5 * 1024 * 1024
ERROR_EXCERPT_READ_BYTES = 64 * 1024
ERROR_EXCERPT_CHARACTERS = 1024
DEFAULT_ACCEPT = "application/json, */*;q=0.8"
#: Headers the client-wide ``headers`` option may not set: they would go to every origin, or they describe the connection.
_CLIENT_HEADERS_REFUSED = frozenset({"authorization", "proxy-authorization", "cookie", "host", "content-length", "transfer-encoding", "connection"})

#: ``resolver(ctx, info)`` → the value of a param the model never sees (``None``: no value).
Resolver = Callable[[Any, "ResolverInfo"], Any]
#: ``credentials(request)`` → the bare credential for a tool, or ``None``.
Credentials = Callable[["CredentialRequest"], Union[str, None]]
#: ``on_warning(warning, manifest_url)`` sees each distinct discovery warning once per client.
OnWarning = Callable[[RcpWarning, str], None]
RequireResolved = Union[bool, Sequence[str], None]


@dataclass(frozen=True)
class ResolverInfo:
    """What a resolver is told: the tool's name and the param it fills."""

    tool: str
    param: str


@dataclass(frozen=True)
class CredentialRequest:
    """What the credentials provider is told: where the credential will go and for which tool."""

    manifest_url: str
    origin: str
    tool: str
    auth: Mapping[str, Json]
    ctx: Any


@dataclass(frozen=True)
class ParamInfo:
    """A param as the operator sees it: filled by a resolver, or by the model."""

    name: str
    type: str
    description: str
    required: bool
    resolved: bool
    looks_like_identity: bool
    details: Mapping[str, Json]


@dataclass(frozen=True, eq=False)
class RcpTool:
    """A discovered tool: what the model is shown (``name``, ``description``, ``input_schema``) and what the
    operator needs to know. Its compiled internals stay with the client that discovered it: a copy or a
    look-alike is refused with ``RCP_INVALID_TOOL``.
    """

    name: str
    description: str
    method: str
    url: str
    origin: str
    manifest_url: str
    resolved_params: tuple[str, ...]
    params: tuple[ParamInfo, ...]
    effects: Mapping[str, bool]
    declared_effects: Mapping[str, bool]
    auth: Mapping[str, Json]
    own_auth: Mapping[str, Json] | None
    response_media_types: tuple[str, ...]
    pagination: Mapping[str, Json] | None
    _input_schema: dict[str, Json] = field(repr=False)
    _output_schema: dict[str, Json] | None = field(repr=False)
    _manifest: Mapping[str, Json] = field(repr=False)
    #: RCP 0.4 (SPEC §20.3): the tool's group, ``{"name", "description"}`` (``""`` when the manifest gives none); the
    #: description is the server's text (untrusted). ``None`` for a tool in no group.
    group: Mapping[str, str] | None = None

    def from_manifest(self, manifest: Mapping[str, Json]) -> bool:
        """Whether this tool came from the discovery that returned exactly this ``manifest`` object."""
        return self._manifest is manifest

    @property
    def input_schema(self) -> dict[str, Json]:
        """The model-facing JSON Schema (a fresh copy): declared params minus every resolver-bound one."""
        return deep_copy(self._input_schema)  # type: ignore[no-any-return]

    @property
    def output_schema(self) -> dict[str, Json] | None:
        """The JSON Schema of the result's ``data`` for a tool with response mappings (SPEC §9)."""
        return None if self._output_schema is None else deep_copy(self._output_schema)


@dataclass(frozen=True)
class Discovery:
    """One discovered manifest: the validated ``manifest``, its ``tools``, the ``warnings``."""

    manifest_url: str
    manifest: Mapping[str, Json]
    tools: tuple[RcpTool, ...]
    warnings: tuple[RcpWarning, ...]

    def tool(self, name: str) -> RcpTool:
        """The tool of that exact name, or ``RCP_UNKNOWN_TOOL``."""
        return find_tool(self.tools, name)


@dataclass(frozen=True)
class MediaPart:
    """A binary answer passed on as media (SPEC §18.3): its media type and exactly the bytes received."""

    media_type: str
    bytes: bytes


@dataclass(frozen=True)
class RcpResult:
    """A successful call: ``data`` after response mappings (``None`` for an empty body or a media answer)."""

    status: int
    data: Json
    content_type: str | None
    media: MediaPart | None = None
    page: Page | None = None
    truncated: bool = False
    #: A streamed answer (SPEC §20.6): how many events were read; ``None`` otherwise.
    events: int | None = None
    #: A long-running operation still going on when the deadline came (SPEC §20.8): its handle; ``None`` otherwise.
    pending: Pending | None = None


@dataclass(frozen=True)
class PreparedRequest:
    """The request ``execute`` would send, the credential replaced by ``[redacted]`` (resolver values shown);
    ``body`` is the JSON value, or a form body's encoded text."""

    method: str
    url: str
    headers: Mapping[str, str]
    body: Json


@dataclass(frozen=True)
class CallOutcome:
    """What ``call`` answers, never raising for an RCP error: ``ok`` with ``result``, or not with ``error``."""

    ok: bool
    tool: RcpTool | None
    result: RcpResult | None = None
    error: RcpError | None = None
    #: Whether the client marks untrusted text (its ``mark_untrusted_text`` option, SPEC §14).
    marked: bool = False


@dataclass(frozen=True)
class _Compiled:
    definition: ToolDefinition
    manifest_url: Url
    trust: TrustPolicy
    boundary: Boundary
    resolved: tuple[str, ...]
    carries_secrets: bool
    refusal: str | None
    client: "RcpClient"


@dataclass(frozen=True)
class _Rendered:
    request: Request
    prepared: PreparedRequest
    credential: str | None
    redactor: Redactor
    arguments: dict[str, Json]
    resolved_values: dict[str, Json]
    #: The credential alone: what is taken out of a 2xx answer (resolver values are legitimate data there).
    credential_redactor: Redactor | None
    #: A multipart body (SPEC §20.7), closed when the call ends (it may spool a stream to a temporary file).
    multipart: MultipartBody | None = None


class RcpClient:
    """An RCP client. Create it with :func:`create_rcp_client`; it holds no cache of manifests, only what
    it was configured with, the tools it discovered (weakly) and the warnings it has reported."""

    def __init__(
        self,
        *,
        resolvers: Mapping[str, Resolver],
        credentials: Credentials | None,
        trusted_origins: tuple[str, ...],
        allow_origin: Callable[[str], bool] | None,
        timeout: float,
        retry: RetryPolicy,
        max_response_bytes: int,
        max_manifest_bytes: int,
        max_manifest_tools: int,
        headers: tuple[tuple[str, str], ...],
        media_types: tuple[str, ...],
        max_media_bytes: int,
        mark_untrusted_text: bool,
        allow_html_responses: bool,
        allow_private_network: bool | tuple[str, ...],
        classify_address: ClassifyAddress | None,
        resolve: Resolve,
        require_resolved: RequireResolved,
        model_filled_params: frozenset[str],
        on_warning: OnWarning | None,
        public_suffix_list: PublicSuffixList | None,
        clock: Clock,
        sleep: Sleep,
        secret: bytes,
        files: FileResolver | None = None,
        max_upload_bytes: int = DEFAULT_MAX_UPLOAD_BYTES,
    ) -> None:
        self._sealer = Sealer(secret)
        self._files = files
        self._max_upload_bytes = max_upload_bytes
        self._resolvers = dict(resolvers)
        self._credentials = credentials
        self._trusted_origins = trusted_origins
        self._allow_origin = allow_origin
        self._timeout = timeout
        self._retry = retry
        self._max_response_bytes = max_response_bytes
        self._max_manifest_bytes = max_manifest_bytes
        self._max_manifest_tools = max_manifest_tools
        self._headers = headers
        self._media_types = media_types
        self._max_media_bytes = max_media_bytes
        self._mark_untrusted_text = mark_untrusted_text
        self._allow_html = allow_html_responses
        self._allow_private_network = allow_private_network
        self._classify_address = classify_address
        self._resolve = resolve
        self._require_resolved = require_resolved
        self._model_filled = model_filled_params
        self._on_warning = on_warning
        self._public_suffix_list = public_suffix_list
        self._public_suffix_loaded = public_suffix_list is not None
        self._clock = clock
        self._sleep = sleep
        self._lock = threading.Lock()
        self._tools: "weakref.WeakKeyDictionary[RcpTool, _Compiled]" = weakref.WeakKeyDictionary()
        self._reported: set[tuple[str, str | None, str, str]] = set()

    @property
    def timeout(self) -> float:
        """The one deadline of each call, in seconds."""
        return self._timeout

    @property
    def mark_untrusted_text(self) -> bool:
        """Whether model results of this client's calls are marked as untrusted text (SPEC §14)."""
        return self._mark_untrusted_text

    # --- discovery ---------------------------------------------------------------------------------

    def discover(
        self,
        manifest_url: str,
        *,
        trusted_origins: Sequence[str] | None = None,
        require_resolved: RequireResolved = None,
        signal: AbortSignal | None = None,
    ) -> Discovery:
        """Fetch a manifest (``GET``, ``Accept: application/json``, never a credential), validate it and
        compile its tools (SPEC §2). Failures to fetch are ``RCP_DISCOVERY_FAILED``.

        ``trusted_origins`` replaces the client's list for this manifest.
        """
        try:
            url = parse_absolute_url(manifest_url)
        except UrlError as error:
            raise RcpDiscoveryError(f"The manifest URL is not an absolute http(s) URL without user info ({error}); nothing was sent.") from None
        shown = url.origin + url.path
        trusted = self._check_origins(trusted_origins) if trusted_origins is not None else self._trusted_origins
        options = SendOptions(retry=self._retry, resolve=self._resolve, allow_origin=self._allow_origin, clock=self._clock, sleep=self._sleep)
        deadline = Deadline(self._timeout, self._clock, signal)
        request = Request("GET", url, (("Accept", "application/json"),), None)
        try:
            response = send(request, options, deadline)
            if not 200 <= response.status < 300:
                response.close()
                raise RcpDiscoveryError(f"The manifest at {shown} answered HTTP {response.status}.")
            try:
                body = response.read(self._max_manifest_bytes, cut=False)
            except RcpResponseError:
                raise RcpManifestLimitError(
                    f"The manifest has more than {self._max_manifest_bytes} bytes.", limit="bytes", max=self._max_manifest_bytes
                ) from None
        except RcpError as error:
            redirected_away = isinstance(error, RcpOriginNotAllowedError) and error.origin != url.origin
            if error.code in ("RCP_ORIGIN_NOT_ALLOWED", "RCP_ABORTED", "RCP_MANIFEST_LIMIT", "RCP_DISCOVERY_FAILED") and not redirected_away:
                raise
            raise RcpDiscoveryError(f"The manifest at {shown} could not be fetched: {error.message}", cause=_value_free(error)) from None
        try:
            text = body.data.decode("utf-8")
            if text.startswith("\ufeff"):
                text = text[1:]
            document = parse_json(text)
        except (UnicodeDecodeError, ValueError, RecursionError) as error:
            raise RcpDiscoveryError(f"The manifest at {shown} is not JSON ({json_error_position(error)}).") from None
        return self._discovery(document, url, trusted, require_resolved, source_class=None)

    def load(
        self,
        manifest: object,
        *,
        manifest_url: str,
        source_class: AddressClass | None = None,
        trusted_origins: Sequence[str] | None = None,
        require_resolved: RequireResolved = None,
    ) -> Discovery:
        """Everything :meth:`discover` does after the fetch, for a manifest you already have (its JSON text or
        the parsed object), as if fetched from ``manifest_url``. ``source_class`` says how private the place
        it came from is (``"local"`` for a file on this machine). Nothing is fetched."""
        try:
            url = parse_absolute_url(manifest_url)
        except UrlError as error:
            raise RcpInvalidOptionsError(f"manifest_url must be an absolute http(s) URL without user info ({error}).") from None
        if source_class is not None and source_class not in ("local", "private", "public", "link-local"):
            raise RcpInvalidOptionsError('source_class must be "local", "private", "link-local" or "public".')
        trusted = self._check_origins(trusted_origins) if trusted_origins is not None else self._trusted_origins
        return self._discovery(manifest, url, trusted, require_resolved, source_class=source_class)

    def _check_origins(self, origins: Sequence[str]) -> tuple[str, ...]:
        return _exact_origins(origins, "trusted_origins")

    def _public_suffixes(self) -> PublicSuffixList | None:
        with self._lock:
            if not self._public_suffix_loaded:
                self._public_suffix_list = load_public_suffix_list()
                self._public_suffix_loaded = True
            return self._public_suffix_list

    def _discovery(self, source: object, url: Url, trusted: tuple[str, ...], require_resolved: RequireResolved, source_class: AddressClass | None) -> Discovery:
        parsed = parse_manifest(source, max_bytes=self._max_manifest_bytes, max_tools=self._max_manifest_tools, manifest_url=url.href)
        manifest_class = source_class or classify_host(url.hostname, self._classify_address)
        boundary = Boundary(manifest_class, self._allow_private_network, self._classify_address)
        trust = TrustPolicy(url, trusted, self._public_suffixes)
        warnings: list[RcpWarning] = list(parsed.warnings)
        requirement = require_resolved if require_resolved is not None else self._require_resolved
        self._binding_checks(parsed, warnings, requirement)
        tools: list[RcpTool] = []
        compiled: list[_Compiled] = []
        for definition in parsed.tools:
            resolved = tuple(param.name for param in definition.params if param.name in self._resolvers)
            needs_credential = definition.auth.get("type") in ("header", "query")
            carries_secrets = needs_credential or bool(resolved)
            tool_url = Url(definition.url.scheme, definition.url.host, definition.url.port, "/", None)
            refusal: str | None = None
            if not boundary.allows(tool_url):
                refusal = "boundary"
                warnings.append(RcpWarning(f"/tools/{definition.index}", f"points at {tool_url.origin}, which the private-network rule refuses for this manifest; calling it fails", definition.name))
            elif self._allow_origin is not None and not _allowed(self._allow_origin, tool_url.origin + "/"):
                refusal = "allow-origin"
                warnings.append(RcpWarning(f"/tools/{definition.index}", f"points at {tool_url.origin}, which allowOrigin refuses; calling it fails", definition.name))
            elif carries_secrets and not trust.trusts(tool_url):
                refusal = "untrusted"
                warnings.append(RcpWarning(f"/tools/{definition.index}", f"needs secrets but points at {tool_url.origin}, which is not trusted for this manifest; calling it fails", definition.name))
            if definition.pagination is not None and definition.pagination.param in resolved:
                warnings.append(RcpWarning(f"/tools/{definition.index}/pagination/param", "is filled by a resolver, so the model cannot ask for the next page", definition.name))
            tool = self._public_tool(definition, url, resolved, parsed.manifest)
            tools.append(tool)
            compiled.append(_Compiled(definition, url, trust, boundary, resolved, carries_secrets, refusal, self))
        with self._lock:
            for tool, inner in zip(tools, compiled):
                self._tools[tool] = inner
        ordered = tuple(warnings)
        self._report(ordered, url.href)
        return Discovery(url.href, parsed.manifest, tuple(tools), ordered)

    def _binding_checks(self, parsed: ParsedManifest, warnings: list[RcpWarning], requirement: RequireResolved) -> None:
        names = list(self._resolvers)
        if requirement is None:
            required_folded: set[str] | bool = bool(names)
        elif requirement is True:
            required_folded = True
        elif requirement is False:
            required_folded = False
        else:
            required_folded = {fold(name) for name in requirement}
        for definition in parsed.tools:
            for param in definition.params:
                if param.name in self._resolvers or param.name in self._model_filled:
                    continue
                path = f"/tools/{definition.index}/params/{param.index}"
                for resolver in names:
                    if is_near_miss(resolver, param.name):
                        raise RcpResolverMismatchError(
                            f'Tool "{definition.name}": the resolver "{resolver}" nearly matches the param "{param.name}", which no resolver fills. '
                            f'Rename the resolver, or list "{param.name}" in model_filled_params.',
                            tool=definition.name,
                            param=param.name,
                            resolver=resolver,
                            path=path,
                        )
                identity = looks_like_identity(param.name)
                must = (required_folded is True and identity) or (isinstance(required_folded, set) and (fold(param.name) in required_folded or (identity and bool(names))))
                if must:
                    raise RcpUnboundParamError(
                        f'Tool "{definition.name}": the param "{param.name}" must be filled by a resolver, and none is registered for it '
                        f'(register one, or list it in model_filled_params).',
                        tool=definition.name,
                        param=param.name,
                        path=path,
                    )
                if identity:
                    warnings.append(RcpWarning(path, f'"{param.name}" looks like an identity, but no resolver fills it: the model chooses it', definition.name))

    def _public_tool(self, definition: ToolDefinition, manifest_url: Url, resolved: tuple[str, ...], manifest: Mapping[str, Json]) -> RcpTool:
        model_params = [param for param in definition.params if param.name not in resolved]
        input_schema: dict[str, Json] = {
            "type": "object",
            "properties": {param.name: param.json_schema() for param in model_params},
            "required": [param.name for param in model_params if param.required],
            "additionalProperties": False,
        }
        output_schema: dict[str, Json] | None = None
        if definition.mappings is not None:
            output_schema = {
                "type": "object",
                "properties": {name: ({} if path.singular else {"type": "array"}) for name, path in definition.mappings},
                "required": [name for name, path in definition.mappings if not path.singular],
                "additionalProperties": False,
            }
        params = tuple(
            ParamInfo(
                name=param.name,
                type=param.type,
                description=param.description,
                required=param.required,
                resolved=param.name in resolved,
                looks_like_identity=param.name not in resolved and param.name not in self._model_filled and looks_like_identity(param.name),
                details={key: value for key, value in param.json_schema().items() if key not in ("type", "description")},
            )
            for param in definition.params
        )
        pagination = definition.raw.get("pagination")
        group_name = definition.raw.get("group")
        group = next(
            (
                {"name": str(entry["name"]), "description": str(entry.get("description", ""))}
                for entry in (manifest.get("groups") or [])
                if isinstance(entry, dict) and entry.get("name") == group_name
            ),
            None,
        )
        return RcpTool(
            name=definition.name,
            description=definition.description,
            method=definition.method,
            url=definition.url_text,
            origin=definition.origin,
            manifest_url=manifest_url.href,
            resolved_params=resolved,
            params=params,
            effects=dict(definition.effects),
            declared_effects=dict(definition.declared_effects),
            auth=deep_copy(definition.auth),
            own_auth=deep_copy(definition.own_auth),
            response_media_types=definition.response_media_types,
            pagination=deep_copy(pagination) if isinstance(pagination, dict) else None,
            _input_schema=input_schema,
            _output_schema=output_schema,
            _manifest=manifest,
            group=group,
        )

    def _report(self, warnings: tuple[RcpWarning, ...], manifest_url: str) -> None:
        for warning in warnings:
            key = (manifest_url, warning.tool, warning.path, warning.message)
            with self._lock:
                if key in self._reported:
                    continue
                self._reported.add(key)
            try:
                if self._on_warning is not None:
                    self._on_warning(warning, manifest_url)
                else:
                    from .describe import terminal_text

                    sys.stderr.write(f"rcp: {terminal_text(manifest_url)}{warning.path}: {terminal_text(warning.message)}\n")
            except Exception:  # noqa: BLE001 - a failing warning handler never fails the discovery
                pass

    # --- execution ---------------------------------------------------------------------------------

    def _compiled(self, tool: object) -> _Compiled:
        if tool is None:
            raise RcpInvalidToolError("No tool was given (a look-up that found nothing?).")
        inner = self._tools.get(tool) if isinstance(tool, RcpTool) else None
        if inner is None:
            raise RcpInvalidToolError("This tool was not discovered by this client (a copy, a look-alike, or another client's tool).")
        return inner

    def validate_arguments(self, tool: RcpTool, args: object = None) -> dict[str, Json]:
        """Check a model's arguments against the tool's model-facing schema (step 1); the validated copy."""
        return self._validate(self._compiled(tool), args)

    def _validate(self, inner: _Compiled, args: object) -> dict[str, Json]:
        definition = inner.definition
        if args is None:
            args = {}
        if isinstance(args, (str, bytes)):
            text = args.decode("utf-8", "replace") if isinstance(args, bytes) else args
            if text.strip() == "":
                args = {}
            else:
                try:
                    args = parse_json(text)
                except (ValueError, RecursionError):
                    issue = Issue("", "are not valid JSON")
                    raise RcpInvalidArgumentsError(_arguments_message(definition.name, (issue,)), issues=(issue,), tool=definition.name) from None
        if not isinstance(args, dict):
            issue = Issue("", f"must be an object (got {json_type_name(args)})")
            raise RcpInvalidArgumentsError(_arguments_message(definition.name, (issue,)), issues=(issue,), tool=definition.name)
        issues: list[Issue] = []
        params = {param.name: param for param in definition.params if param.name not in inner.resolved}
        for key in args:
            if key not in params:
                issues.append(Issue("/" + _escape(key), "is not a parameter of this tool"))
        validated: dict[str, Json] = {}
        for param in params.values():
            value = args.get(param.name)
            if value is None:
                if param.required:
                    issues.append(Issue("/" + _escape(param.name), "is required"))
                continue
            before = len(issues)
            check_value(param.schema, value, "/" + _escape(param.name), issues)
            if len(issues) == before and param.type == "file" and isinstance(value, str):
                # SPEC §20.7 (M27.15): a reference, never bytes or a path — refused here, before any resolver runs.
                problem = file_reference_problem(value)
                if problem is not None:
                    issues.append(Issue("/" + _escape(param.name), problem))
            if len(issues) == before:
                validated[param.name] = deep_copy(value)
        if issues:
            ordered = tuple(sorted(dict.fromkeys(issues), key=lambda issue: pointer_sort_key(issue.path)))
            raise RcpInvalidArgumentsError(_arguments_message(definition.name, ordered), issues=ordered, tool=definition.name)
        return validated

    def _destination_check(self, inner: _Compiled) -> None:
        if inner.refusal == "boundary":
            raise RcpOriginNotAllowedError(
                f'Tool "{inner.definition.name}" points at {inner.definition.origin}, which the private-network rule refuses for this manifest; nothing was sent.',
                origin=inner.definition.origin,
            )
        if inner.refusal == "allow-origin":
            raise RcpOriginNotAllowedError(f'Tool "{inner.definition.name}": allowOrigin refuses {inner.definition.origin}; nothing was sent.', origin=inner.definition.origin)
        if inner.refusal == "untrusted":
            raise RcpOriginNotAllowedError(
                f'Tool "{inner.definition.name}" needs secrets but points at {inner.definition.origin}, which is not trusted for this manifest; nothing was sent.',
                origin=inner.definition.origin,
            )

    def _resolve_values(self, inner: _Compiled, ctx: Any, deadline: Deadline) -> dict[str, Json]:
        definition = inner.definition
        values: dict[str, Json] = {}
        problems: list[RcpError] = []
        params = {param.name: param for param in definition.params}
        for name in inner.resolved:
            param = params[name]
            resolver = self._resolvers[name]
            try:
                value = resolver(ctx, ResolverInfo(definition.name, name))
            except Exception as error:  # noqa: BLE001 - a resolver's failure is the call's error, with its cause
                if ctx is None:
                    problems.append(RcpUnresolvedError(f'The resolver for "{name}" had no value: the call was given no context.', param=name, cause=error))
                else:
                    problems.append(RcpResolverFailedError(f'The resolver for "{name}" failed ({type(error).__name__}).', param=name, cause=error))
                continue
            if value is None:
                problems.append(RcpUnresolvedError(f'The resolver for "{name}" had no value; nothing was sent.', param=name))
            elif not type_matches(param.type, value):
                problems.append(RcpResolverFailedError(f'The resolver for "{name}" returned a value that is not {_article(param.type)}.', param=name))
            else:
                values[name] = deep_copy(value)
        if problems:
            raise problems[0]
        if deadline.remaining() <= 0:
            raise RcpTimeoutError(f"The resolvers took longer than the call's deadline of {round(deadline.timeout * 1000)} ms; nothing was sent.")
        return values

    def _credential(self, inner: _Compiled, ctx: Any, deadline: Deadline) -> str | None:
        definition = inner.definition
        auth = definition.auth
        if auth.get("type") not in ("header", "query"):
            return None
        if self._credentials is None:
            raise RcpMissingCredentialsError(f'Tool "{definition.name}" needs a credential and the client has no credentials provider; nothing was sent.')
        try:
            credential = self._credentials(CredentialRequest(inner.manifest_url.href, definition.origin, definition.name, deep_copy(auth), ctx))
        except Exception as error:  # noqa: BLE001
            raise RcpMissingCredentialsError(
                f'The credentials provider failed for tool "{definition.name}" ({type(error).__name__}); nothing was sent.', cause=_value_free(error)
            ) from None
        if not isinstance(credential, str) or credential.strip() == "":
            raise RcpMissingCredentialsError(f'Tool "{definition.name}" needs a credential and none was supplied; nothing was sent.')
        if any(ord(char) < 0x20 or ord(char) == 0x7F or ord(char) > 0xFF for char in credential):
            raise RcpMissingCredentialsError(f'The credential for tool "{definition.name}" holds a control or non-Latin-1 character; nothing was sent.')
        scheme = auth.get("scheme")
        if isinstance(scheme, str) and credential.lower().startswith(scheme.lower() + " "):
            raise RcpMissingCredentialsError(
                f'The credential for tool "{definition.name}" already begins with its scheme "{scheme}": return the bare token, the client adds "{scheme} ". Nothing was sent.'
            )
        if deadline.remaining() <= 0:
            raise RcpTimeoutError("The credentials provider took longer than the call's deadline; nothing was sent.")
        return credential

    def _render(self, inner: _Compiled, arguments: dict[str, Json], resolved_values: dict[str, Json], credential: str | None) -> _Rendered:
        definition = inner.definition
        values = {**arguments, **resolved_values}
        path = render_path(definition.url, values)
        entries: list[str] = []
        styles = {param.name: param.query_style for param in definition.params if param.query_style != "repeat"}
        for entry in definition.url.query:
            entries.extend(render_query_entry(entry, values, styles))
        for entry in definition.query_params:
            entries.extend(render_query_entry(entry, values, styles))
        shown_entries = list(entries)
        auth = definition.auth
        if auth.get("type") == "query" and credential is not None:
            key = percent_encode(str(auth["name"]))
            entries.append(f"{key}={percent_encode(credential)}")
            shown_entries.append(f"{key}={REDACTED}")
        query = "&".join(entries) if entries else None
        url = Url(definition.url.scheme, definition.url.host, definition.url.port, path, query)
        shown_url = Url(definition.url.scheme, definition.url.host, definition.url.port, path, "&".join(shown_entries) if shown_entries else None)
        headers: dict[str, tuple[str, str]] = {}
        for name, value in self._headers:
            headers[name.lower()] = (name, value)
        shown_headers: dict[str, tuple[str, str]] = {}
        for name, template in definition.headers:
            rendered = render_header(name, template, values)
            if rendered is not None:
                headers[name.lower()] = shown_headers[name.lower()] = (name, rendered)
        headers.setdefault("accept", ("Accept", DEFAULT_ACCEPT if definition.stream is None else stream_accept(definition.stream.format)))
        headers.setdefault("accept-encoding", ("Accept-Encoding", "gzip, deflate"))
        body_value: Json = None
        body_bytes: bytes | None = None
        if definition.body is not None:
            body_value = render_body(definition.body, values)
            if definition.body_encoding == "multipart":
                # Built with its files by ``_with_files`` (SPEC §20.7): the rendered fields hold the references.
                content_type = "multipart/form-data"
            elif definition.body_encoding == "form":
                body_value = encode_form_body(body_value)
                body_bytes = body_value.encode("ascii")
                content_type = "application/x-www-form-urlencoded"
            else:
                try:
                    body_bytes = stringify(body_value).encode("utf-8")
                except (ValueError, UnicodeEncodeError):
                    issue = Issue("", "cannot be serialised as a JSON request body")
                    raise RcpInvalidArgumentsError(_arguments_message(definition.name, (issue,)), issues=(issue,), tool=definition.name) from None
                content_type = "application/json"
            for target in (headers, shown_headers):
                target.setdefault("content-type", ("content-type", content_type))
        if auth.get("type") == "header" and credential is not None:
            scheme = auth.get("scheme")
            name = str(auth["name"])
            headers[name.lower()] = (name, f"{scheme} {credential}" if isinstance(scheme, str) else credential)
            shown_headers[name.lower()] = (name, f"{scheme} {REDACTED}" if isinstance(scheme, str) else REDACTED)
        secrets: list[str] = [] if credential is None else [credential]
        for value in resolved_values.values():
            secrets.extend(secret_strings(value))
        redactor = Redactor(secrets)
        request = Request(definition.method, url, tuple(headers.values()), body_bytes)
        prepared = PreparedRequest(
            method=definition.method,
            url=shown_url.href,
            headers={name: value for name, value in shown_headers.values()},
            body=body_value,
        )
        credential_redactor = Redactor([credential]) if credential is not None else None
        return _Rendered(request, prepared, credential, redactor, arguments, resolved_values, credential_redactor)

    def _build(self, tool: RcpTool, args: object, ctx: Any, deadline: Deadline) -> tuple[_Compiled, _Rendered]:
        inner = self._compiled(tool)
        arguments = self._validate(inner, args)
        self._destination_check(inner)
        deadline.check()
        resolved_values = self._resolve_values(inner, ctx, deadline)
        credential = self._credential(inner, ctx, deadline)
        rendered = self._render(inner, arguments, resolved_values, credential)
        if self._allow_origin is not None and not _allowed(self._allow_origin, rendered.request.url.href):
            raise RcpOriginNotAllowedError("The client's allowOrigin policy refused this destination; nothing was sent.", origin=inner.definition.origin)
        if rendered.request.url.origin != inner.definition.origin:  # pragma: no cover - the template fixes the origin
            raise RcpOriginNotAllowedError("The rendered URL left the tool's origin; nothing was sent.", origin=inner.definition.origin)
        if inner.definition.body_encoding == "multipart" and rendered.prepared.body is not None:
            rendered = self._with_files(inner, rendered, ctx, deadline)
        return inner, rendered

    def _with_files(self, inner: _Compiled, rendered: _Rendered, ctx: Any, deadline: Deadline) -> _Rendered:
        """SPEC §20.7: the multipart body built from the rendered fields, each file resolved, checked and hashed —
        all before anything is sent. ``prepare`` shows its parts; the request carries it in chunks."""
        definition = inner.definition
        multipart = build_multipart(definition.name, definition.file_fields, rendered.prepared.body, self._files, ctx, self._max_upload_bytes)
        if deadline.remaining() <= 0:
            multipart.close()
            raise RcpTimeoutError("The file resolver took longer than the call's deadline; nothing was sent.")
        headers = tuple((name, multipart.content_type) if name.lower() == "content-type" else (name, value) for name, value in rendered.request.headers)
        return replace(
            rendered,
            request=replace(rendered.request, headers=headers, body=multipart),
            prepared=replace(rendered.prepared, body=multipart.shown),
            multipart=multipart,
        )

    def prepare(self, tool: RcpTool, args: object = None, ctx: Any = None) -> PreparedRequest:
        """Steps 1–4 of ``execute``: the request it would send, the credential ``[redacted]``; nothing is sent."""
        deadline = Deadline(self._timeout, self._clock)
        _, rendered = self._build(tool, args, ctx, deadline)
        if rendered.multipart is not None:
            rendered.multipart.close()
        return rendered.prepared

    def execute(self, tool: RcpTool, args: object = None, ctx: Any = None, *, signal: AbortSignal | None = None) -> RcpResult:
        """Run a model's call (SPEC §11): ``args`` may be a dict or the JSON text of one. Raises an
        :class:`~rcp.errors.RcpError`; nothing is sent before every check has passed."""
        deadline = Deadline(self._timeout, self._clock, signal)
        inner, rendered = self._build(tool, args, ctx, deadline)
        redactor = rendered.redactor
        definition = inner.definition
        options = SendOptions(
            retry=self._retry,
            resolve=self._resolve,
            check_address=lambda url, address: inner.boundary.allows_class(url.origin, classify_host(address, None)),
            allow_origin=self._allow_origin,
            clock=self._clock,
            sleep=self._sleep,
        )
        request = rendered.request
        idempotency = definition.idempotency
        keyed = idempotency is not None and definition.method != "GET"
        if idempotency is not None and keyed:
            # SPEC §20.1: one key per call, an sf-string, the same on every retry of the call.
            request = replace(request, headers=request.headers + ((idempotency.header, f'"{uuid.uuid4()}"'),))
        try:
            response = send(request, options, deadline, keyed=keyed)
            if not 200 <= response.status < 300:
                raise self._http_error(response, rendered)
            if definition.operation is not None and response.status == 202:
                return self._follow(inner, rendered, response, deadline, options)
            return self._read_result(inner, rendered, response)
        except RcpError as error:
            raise _redacted(error, redactor) from None
        finally:
            if rendered.multipart is not None:
                rendered.multipart.close()

    # --- long-running operations (SPEC §20.8) --------------------------------------------------------

    def _send_options(self, inner: _Compiled) -> SendOptions:
        return SendOptions(
            retry=self._retry,
            resolve=self._resolve,
            check_address=lambda url, address: inner.boundary.allows_class(url.origin, classify_host(address, None)),
            allow_origin=self._allow_origin,
            clock=self._clock,
            sleep=self._sleep,
        )

    def _status_document(self, response: LiveResponse) -> tuple[Json, str | None]:
        """A status answer's body: JSON parsed, other text decoded, nothing for an empty one."""
        media_type = media_type_of(response.header("content-type"))
        body = response.read(self._max_response_bytes, cut=False)
        if not body.data:
            return None, media_type
        if media_type is not None and (media_type == "application/json" or media_type.endswith("+json")):
            try:
                text = body.data.decode("utf-8")
                return parse_json(text[1:] if text.startswith("\ufeff") else text), media_type
            except (UnicodeDecodeError, ValueError, RecursionError) as error:
                raise RcpResponseError("RCP_INVALID_RESPONSE", f"The status answer's JSON does not parse ({json_error_position(error)}).", problem="bad-json", media_type=media_type) from None
        return decode_text(body.data, charset_of(response.header("content-type")), cut=False), media_type

    def _follow(self, inner: _Compiled, rendered: _Rendered, response: LiveResponse, deadline: Deadline, options: SendOptions) -> RcpResult:
        """A 202 of a tool that declares an operation: its status URL polled within the call's deadline (M28.2–M28.4)."""
        definition = inner.definition
        plan = definition.operation
        assert plan is not None
        header = response.header(plan.status_header) if plan.status_header is not None else None
        retry_after = response.header("retry-after")
        document, media_type = self._status_document(response)
        status_url = status_url_of(plan, header, document, response.url, definition.name, definition.origin)
        if self._allow_origin is not None and not _allowed(self._allow_origin, status_url):
            raise RcpOriginNotAllowedError("The client's allowOrigin policy refuses the status URL; nothing was sent there.", origin=definition.origin)
        dropped = {"content-type", "content-length", "accept", "accept-encoding"}
        if definition.auth.get("type") == "header":
            dropped.add(str(definition.auth["name"]).lower())
        if definition.idempotency is not None:
            dropped.add(definition.idempotency.header.lower())
        headers = tuple((name, value) for name, value in rendered.request.headers if name.lower() not in dropped)
        binding = self._binding(inner, rendered.credential, rendered.resolved_values)
        content = HandleContent(inner.manifest_url.href, definition.name, status_url, headers, binding, time.time() + HANDLE_LIFETIME)
        return self._poll(inner, content, rendered.credential, rendered.redactor, deadline, options, (document, media_type, wait_of(plan, retry_after)))

    def _binding(self, inner: _Compiled, credential: str | None, resolved_values: dict[str, Json]) -> str:
        """Who may resume: the credential (this client has no approval subject) and the resolver values."""
        return self._sealer.binding(["credential", credential or ""], [resolved_values.get(name) for name in inner.resolved])

    def _poll(
        self,
        inner: _Compiled,
        content: HandleContent,
        credential: str | None,
        redactor: Redactor,
        deadline: Deadline,
        options: SendOptions,
        first: tuple[Json, str | None, float] | None,
    ) -> RcpResult:
        definition = inner.definition
        plan = definition.operation
        assert plan is not None
        auth = definition.auth
        url = parse_absolute_url(content.status_url)
        headers = list(content.headers)
        if credential is not None and auth.get("type") == "query":
            entry = f"{percent_encode(str(auth['name']))}={percent_encode(credential)}"
            url = replace(url, query=entry if url.query is None else f"{url.query}&{entry}")
        elif credential is not None and auth.get("type") == "header":
            scheme = auth.get("scheme")
            headers.append((str(auth["name"]), f"{scheme} {credential}" if isinstance(scheme, str) else credential))
        headers.append(("Accept", DEFAULT_ACCEPT))
        request = Request("GET", url, tuple(headers), None)
        last_data, last_type, last_status = (None, None, 202) if first is None else (first[0], first[1], 202)
        wait = 0.0 if first is None else first[2]
        while True:
            if not deadline.fits(wait):
                return self._pending(content, last_status, last_data, last_type, wait, credential)
            try:
                if wait > 0:
                    wait_within(wait, deadline, self._sleep)
                deadline.check()
                answer = send(request, options, deadline)
            except RcpTimeoutError:
                return self._pending(content, last_status, last_data, last_type, plan.poll_seconds, credential)
            if not 200 <= answer.status < 300:
                raise self._http_error(answer, _PollRendered(request, redactor))  # type: ignore[arg-type]
            retry_after = answer.header("retry-after")
            document, media_type = self._status_document(answer)
            kind, value = reading(plan, answer.status, document)
            if kind == "done":
                data: Json = value
                if definition.mappings is not None:
                    mapped = {name: _map(path, value) for name, path in definition.mappings}
                    data = {name: entry for name, entry in mapped.items() if entry is not _LEFT_OUT}
                if credential is not None:
                    found = Redactor([credential])
                    if found.found_in(data if isinstance(data, str) else stringify(data)):
                        data = found.data(data)
                return RcpResult(status=answer.status, data=data, content_type=media_type)
            last_data, last_type, last_status = document, media_type, answer.status
            wait = wait_of(plan, retry_after)

    def _pending(self, content: HandleContent, status: int, data: Json, media_type: str | None, wait: float, credential: str | None) -> RcpResult:
        if credential is not None:
            found = Redactor([credential])
            if found.found_in(data if isinstance(data, str) else stringify(data)):
                data = found.data(data)
        handle = self._sealer.seal(replace(content, expires_at=time.time() + HANDLE_LIFETIME))
        return RcpResult(status=status, data=data, content_type=media_type, pending=Pending(handle, max(1, math.ceil(wait))))

    def resume(self, source: "Discovery | ToolSource | Sequence[RcpTool]", handle: str, ctx: Any = None, *, signal: AbortSignal | None = None) -> RcpResult:
        """Check an operation a call left pending (SPEC §20.8): the handle opened, its tool found in ``source``, the
        caller checked (the same credential and resolver values), then polled under a new deadline. Raises
        ``RCP_INVALID_HANDLE`` (nothing sent) for a handle altered, expired, of another secret or tool set, or for
        another caller; ``RCP_OPERATION_FAILED`` when the operation failed."""
        content = self._sealer.open(handle)
        if content.expires_at <= time.time():
            raise RcpInvalidHandleError("The operation handle cannot be resumed: it has expired; nothing was sent.")
        entries = getattr(source, "entries", None)
        tools = [tool for _, tool in entries] if entries is not None else (source.tools if isinstance(source, Discovery) else list(source))  # type: ignore[arg-type]
        tool = next((entry for entry in tools if isinstance(entry, RcpTool) and entry.name == content.tool and entry.manifest_url == content.manifest_url), None)
        if tool is None:
            raise RcpInvalidHandleError(f'The operation handle names tool "{content.tool}", which these tools do not hold; nothing was sent.')
        inner = self._compiled(tool)
        if inner.definition.operation is None:
            raise RcpInvalidHandleError("The operation handle cannot be resumed: its tool no longer declares an operation; nothing was sent.")
        deadline = Deadline(self._timeout, self._clock, signal)
        self._destination_check(inner)
        resolved_values = self._resolve_values(inner, ctx, deadline)
        credential = self._credential(inner, ctx, deadline)
        if not hmac.compare_digest(self._binding(inner, credential, resolved_values), content.binding):
            raise RcpInvalidHandleError("The operation handle cannot be resumed: it was issued for another caller; nothing was sent.")
        secrets: list[str] = [] if credential is None else [credential]
        for value in resolved_values.values():
            secrets.extend(secret_strings(value))
        redactor = Redactor(secrets)
        try:
            return self._poll(inner, content, credential, redactor, deadline, self._send_options(inner), None)
        except RcpError as error:
            raise _redacted(error, redactor) from None

    def _http_error(self, response: LiveResponse, rendered: _Rendered) -> RcpHttpError:
        redactor = rendered.redactor
        try:
            body = response.read(ERROR_EXCERPT_READ_BYTES, cut=True)
            text = decode_text(body.data, charset_of(response.header("content-type")), cut=body.cut)
        except RcpError:
            text = ""
        excerpt = redactor.text(text)[:ERROR_EXCERPT_CHARACTERS]
        retry_after = retry_after_seconds(parse_retry_after(response.header("retry-after")))
        status_text = _clean_reason(redactor.text(response.reason))
        url = redactor.text(response.url.origin + response.url.path)
        message = f"The tool's server answered HTTP {response.status}{' ' + status_text if status_text else ''} for {rendered.request.method} {url}."
        return RcpHttpError(message, status=response.status, status_text=status_text, body_excerpt=excerpt, url=url, retry_after_seconds=retry_after)

    def _read_stream(self, inner: _Compiled, rendered: _Rendered, response: LiveResponse) -> RcpResult:
        """A tool that declares a stream (SPEC §20.6): refused unless answered with the format's media type (nothing
        read); otherwise its events collected as they arrive, under the size cap, ``maxEvents`` and the deadline."""
        definition = inner.definition
        stream = definition.stream
        assert stream is not None
        media_type = media_type_of(response.header("content-type"))
        if media_type not in STREAM_MEDIA_TYPES[stream.format]:
            response.close()
            shown = media_type or "no media type"
            raise RcpResponseError("RCP_INVALID_RESPONSE", f"The tool was to answer with a stream but answered with {shown}.", problem="not-a-stream", media_type=media_type)
        collector = StreamCollector(stream)
        cut = response.read_stream(self._max_response_bytes, collector.feed, lambda: collector.events > 0)
        if not cut:
            collector.feed(b"", final=True)
        data = collector.value
        if definition.mappings is not None:
            mapped = {name: _map(path, data) for name, path in definition.mappings}
            data = {name: value for name, value in mapped.items() if value is not _LEFT_OUT}
        if rendered.credential_redactor is not None and rendered.credential_redactor.found_in(data if isinstance(data, str) else stringify(data)):
            data = rendered.credential_redactor.data(data)
        return RcpResult(status=response.status, data=data, content_type=media_type, truncated=cut and not collector.ended, events=collector.events)

    def _read_result(self, inner: _Compiled, rendered: _Rendered, response: LiveResponse) -> RcpResult:
        definition = inner.definition
        if definition.stream is not None:
            return self._read_stream(inner, rendered, response)
        content_type = response.header("content-type")
        media_type = media_type_of(content_type)
        kind = kind_of(media_type, media_types=self._media_types, tool_media_types=definition.response_media_types)
        limit = self._max_response_bytes
        length = response.content_length()
        if response.status in (204, 205) or length == 0:
            response.close()
            return self._finish(inner, rendered, response, media_type, None, None, False, document=None, json_answer=False)
        if kind == "html" and self._allow_html:
            kind = "text"
        if kind == "html":
            response.close()
            raise RcpResponseError("RCP_INVALID_RESPONSE", f"The tool answered with {media_type}, an HTML page, not data.", problem="html", media_type=media_type)
        cut_allowed = kind == "text"
        if length is not None and length > limit and not cut_allowed:
            response.close()
            raise RcpResponseError("RCP_RESPONSE_TOO_LARGE", f"The response declares {length} bytes, more than the limit of {limit}.", problem="too-large", limit=limit, size=length)
        body = response.read(limit, cut=cut_allowed)
        data_bytes = body.data
        if kind == "unknown":
            if looks_like_text(data_bytes):
                kind = "text"
            else:
                if media_type is None:
                    media_type = "application/octet-stream"
                    kind = kind_of(media_type, media_types=self._media_types, tool_media_types=definition.response_media_types)
                if kind != "media":
                    raise RcpResponseError(
                        "RCP_INVALID_RESPONSE",
                        f"The tool answered with {media_type}, which the client does not pass on.",
                        problem="media-not-allowed",
                        media_type=media_type,
                    )
        if len(data_bytes) == 0:
            return self._finish(inner, rendered, response, media_type, None, None, False, document=None, json_answer=False)
        if kind == "media":
            assert media_type is not None
            if definition.mappings is not None:
                raise RcpResponseError("RCP_INVALID_RESPONSE", "The tool has response mappings but answered with media, not JSON.", problem="mapping-not-json", media_type=media_type)
            if len(data_bytes) > self._max_media_bytes:
                raise RcpResponseError(
                    "RCP_RESPONSE_TOO_LARGE",
                    f"The tool answered with {media_type} of {len(data_bytes)} bytes, more than the {self._max_media_bytes} bytes the client passes on.",
                    problem="media-too-large",
                    media_type=media_type,
                    size=len(data_bytes),
                    limit=self._max_media_bytes,
                )
            return self._finish(inner, rendered, response, media_type, None, MediaPart(media_type, data_bytes), False, document=None, json_answer=False)
        if kind == "json":
            try:
                text = data_bytes.decode("utf-8")
                if text.startswith("\ufeff"):
                    text = text[1:]
                document = parse_json(text)
            except (UnicodeDecodeError, ValueError, RecursionError) as error:
                raise RcpResponseError("RCP_INVALID_RESPONSE", f"The tool's JSON answer does not parse ({json_error_position(error)}).", problem="bad-json", media_type=media_type) from None
            data = document
            if definition.mappings is not None:
                data = {name: _map(path, document) for name, path in definition.mappings}
                data = {name: value for name, value in data.items() if value is not _LEFT_OUT}
            if rendered.credential_redactor is not None and rendered.credential_redactor.found_in(text):
                data = rendered.credential_redactor.data(data)
            return self._finish(inner, rendered, response, media_type, data, None, False, document=document, json_answer=True)
        text = decode_text(data_bytes, charset_of(content_type), cut=body.cut)
        if body.cut and rendered.credential is not None:
            text = text[: max(0, len(text) - 12 * len(rendered.credential))]
        if definition.mappings is not None:
            raise RcpResponseError("RCP_INVALID_RESPONSE", "The tool has response mappings but did not answer with JSON.", problem="mapping-not-json", media_type=media_type)
        if rendered.credential_redactor is not None:
            text = rendered.credential_redactor.text(text)
        return self._finish(inner, rendered, response, media_type, text, None, body.cut, document=None, json_answer=False)

    def _finish(
        self,
        inner: _Compiled,
        rendered: _Rendered,
        response: LiveResponse,
        media_type: str | None,
        data: Json,
        media: MediaPart | None,
        truncated: bool,
        *,
        document: Json,
        json_answer: bool,
    ) -> RcpResult:
        page = self._page(inner, rendered, response, document, json_answer)
        return RcpResult(status=response.status, data=data, content_type=media_type, media=media, page=page, truncated=truncated)

    def _page(self, inner: _Compiled, rendered: _Rendered, response: LiveResponse, document: Json, json_answer: bool) -> Page | None:
        definition = inner.definition
        resolved = frozenset(inner.resolved)
        credential_check = rendered.credential_redactor

        def check(arguments: dict[str, Json]) -> dict[str, Json] | None:
            try:
                validated = self._validate(inner, arguments)
            except RcpError:
                return None
            if credential_check is not None and credential_check.found_in(stringify(validated)):
                return None
            return validated

        if definition.pagination is not None:
            if not json_answer:
                return Page(False, None)
            return cursor_page(definition, document, rendered.arguments, resolved, check)
        query_key = str(definition.auth["name"]) if definition.auth.get("type") == "query" else None

        def render(arguments: dict[str, Json]) -> Url:
            return self._render(inner, arguments, rendered.resolved_values, None).request.url

        return link_page(definition, response.header("link"), response.url, rendered.arguments, resolved, query_key, render, check)

    # --- call by name ------------------------------------------------------------------------------

    def call(
        self,
        source: "Discovery | ToolSource | Sequence[RcpTool]",
        name: str,
        arguments: object = None,
        ctx: Any = None,
        *,
        signal: AbortSignal | None = None,
    ) -> CallOutcome:
        """Look a tool up by exact name in a discovery, a tool set or a list of tools, then execute it.

        Never raises for an RCP error: the outcome carries it. ``RCP_INVALID_OPTIONS`` (a source that is
        none of those) and errors that are not RCP errors (bugs) are raised.
        """
        marked = self._mark_untrusted_text
        try:
            tool = _look_up(source, name)
        except RcpError as error:
            if error.code == "RCP_INVALID_OPTIONS":
                raise
            return CallOutcome(False, None, error=error, marked=marked)
        try:
            return CallOutcome(True, tool, result=self.execute(tool, arguments, ctx, signal=signal), marked=marked)
        except RcpError as error:
            return CallOutcome(False, tool, error=error, marked=marked)


class ToolSource:
    """Something :meth:`RcpClient.call` looks tools up in by name: a tool set or a stage of one
    (:func:`rcp.create_tool_set`)."""

    def find(self, name: str) -> RcpTool:  # pragma: no cover - implemented by ToolSet
        """The tool called ``name`` here; ``RCP_UNKNOWN_TOOL`` or ``RCP_TOOL_NOT_IN_STAGE`` otherwise."""
        raise NotImplementedError


_LEFT_OUT = object()


def _map(path: Any, document: Json) -> Json:
    found = path.select(document)
    if path.singular:
        return deep_copy(found[0]) if found else _LEFT_OUT
    return deep_copy(found)


def _look_up(source: object, name: str) -> RcpTool:
    if isinstance(source, Discovery):
        return find_tool(source.tools, name)
    if isinstance(source, ToolSource):
        return source.find(name)
    if isinstance(source, (list, tuple)) and all(isinstance(tool, RcpTool) for tool in source):
        return find_tool(tuple(source), name)
    raise RcpInvalidOptionsError("call() takes a Discovery, a tool set or a list of discovered tools.")


def find_tool(tools: Sequence[RcpTool], name: str) -> RcpTool:
    """The tool of that exact name; ``RCP_UNKNOWN_TOOL`` (naming the closest name) when none or several."""
    from .tool_set import unknown_tool

    found = [tool for tool in tools if tool.name == name]
    if len(found) == 1:
        return found[0]
    available = tuple(tool.name for tool in tools)
    if len(found) > 1:
        raise RcpUnknownToolError(f"Tool {stringify(name[:64])} is ambiguous: more than one tool has this name.", tool=name, available=available)
    raise unknown_tool(name, available)


def _escape(segment: str) -> str:
    return segment.replace("~", "~0").replace("/", "~1")


def _article(kind: str) -> str:
    return {"string": "a string", "file": "a file reference (a string)", "number": "a number", "integer": "a safe integer", "boolean": "a boolean", "array": "an array", "object": "an object"}[kind]


def _arguments_message(tool: str, issues: tuple[Issue, ...]) -> str:
    shown = "; ".join(str(issue) if issue.path else f"the arguments {issue.message}" for issue in issues[:5])
    more = f" (and {len(issues) - 5} more)" if len(issues) > 5 else ""
    return f'Invalid arguments for tool "{tool}": {shown}{more}'


def _allowed(policy: Callable[[str], bool], href: str) -> bool:
    try:
        return policy(href) is True
    except Exception:  # noqa: BLE001 - a policy that raises refuses
        return False


def _clean_reason(reason: str) -> str:
    from .describe import terminal_text

    return terminal_text(reason, escape=True)[:128]


def _value_free(error: BaseException) -> RcpCause:
    code = getattr(error, "code", None)
    return RcpCause(type(error).__name__, f"{type(error).__name__}" if code is None else str(getattr(error, "message", "")), code if isinstance(code, str) else None)


def _redacted(error: RcpError, redactor: Redactor) -> RcpError:
    """The error with every secret redacted from its message and fields, its cause value-free."""
    if not redactor:
        return error
    error.message = redactor.text(error.message)
    error.args = (error.message,)
    for name, value in list(vars(error).items()):
        if isinstance(value, str) and name != "code":
            setattr(error, name, redactor.text(value))
    cause = error.__cause__
    if cause is not None:
        error.__cause__ = RcpCause(type(cause).__name__, redactor.text(str(cause)), getattr(cause, "code", None))
    return error


def _exact_origins(origins: Sequence[str], option: str) -> tuple[str, ...]:
    checked: list[str] = []
    for origin in origins:
        if not isinstance(origin, str):
            raise RcpInvalidOptionsError(f"{option}: every entry must be a string.")
        try:
            checked.append(parse_origin(origin))
        except UrlError as error:
            raise RcpInvalidOptionsError(f"{option}: {strip_userinfo(origin)[:100]!r} is not an exact origin ({error}).") from None
    return tuple(checked)


def create_rcp_client(
    *,
    resolvers: Mapping[str, Resolver] | None = None,
    credentials: Credentials | None = None,
    trusted_origins: Sequence[str] = (),
    allow_origin: Callable[[str], bool] | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    retry: int | RetryPolicy = 2,
    max_response_bytes: int = DEFAULT_MAX_RESPONSE_BYTES,
    max_manifest_bytes: int = DEFAULT_MAX_BYTES,
    max_manifest_tools: int = DEFAULT_MAX_TOOLS,
    headers: Mapping[str, str] | None = None,
    media_types: Sequence[str] | None = None,
    max_media_bytes: int = DEFAULT_MAX_MEDIA_BYTES,
    mark_untrusted_text: bool = False,
    allow_html_responses: bool = False,
    allow_private_network: bool | Sequence[str] = False,
    classify_address: ClassifyAddress | None = None,
    resolve: Resolve | None = None,
    require_resolved: RequireResolved = None,
    model_filled_params: Sequence[str] = (),
    on_warning: OnWarning | None = None,
    public_suffix_list: PublicSuffixList | None = None,
    clock: Clock | None = None,
    sleep: Sleep | None = None,
    approval_secret: str | bytes | None = None,
    files: FileResolver | None = None,
    max_upload_bytes: int = DEFAULT_MAX_UPLOAD_BYTES,
) -> RcpClient:
    """Create a client; every option is checked here (``RCP_INVALID_OPTIONS``).

    * ``resolvers`` — ``{param: resolver(ctx, info)}``: values the model never sees (SPEC §10).
    * ``credentials`` — ``credentials(request)`` → the bare credential (SPEC §8).
    * ``trusted_origins`` — exact origins that may receive secrets besides the manifest's own (SPEC §12).
    * ``allow_origin(url)`` — an SSRF policy gating every request and redirect.
    * ``timeout`` — the one deadline per call, in seconds (default 30).
    * ``retry`` — retries after the first attempt (default 2), or a :class:`~rcp.RetryPolicy`.
    * ``allow_private_network`` — ``True``, or a list of origins, to reach private addresses (SPEC §12.1).
    * ``classify_address(host)`` — the operator's own address classes, consulted first.
    * ``resolve(host, port)`` — the operator's own name resolution (default ``getaddrinfo``); every address
      it gives is checked before a connection is made.
    * ``public_suffix_list`` — for the same-site rule; by default the system's list
      (``/usr/share/publicsuffix``) is read when first needed, and without one no origin is trusted by site.
    * ``clock`` / ``sleep`` — the monotonic clock and the sleep the deadline and retries use.
    * ``approval_secret`` — the key (32 bytes or more) operation handles are sealed under (SPEC §20.8): clients
      given the same one resume each other's handles; by default a random key of this client.
    * ``files(reference, ctx, info)`` — turns a model's file reference into a :class:`~rcp.ResolvedFile` for this
      ``ctx``'s user, or ``None`` (SPEC §20.7); it only sees references that are not bytes or paths.
    * ``max_upload_bytes`` — the most file bytes one call uploads, every file part together (default 32 MiB).

    >>> client = create_rcp_client(timeout=5, retry=0)
    >>> client.timeout
    5
    """
    resolvers = dict(resolvers or {})
    for name, resolver in resolvers.items():
        if not isinstance(name, str) or not callable(resolver):
            raise RcpInvalidOptionsError("resolvers: each entry maps a param name to a function (ctx, info) -> value.")
    if credentials is not None and not callable(credentials):
        raise RcpInvalidOptionsError("credentials must be a function (request) -> str.")
    if allow_origin is not None and not callable(allow_origin):
        raise RcpInvalidOptionsError("allow_origin must be a function (url) -> bool.")
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not timeout > 0:
        raise RcpInvalidOptionsError("timeout must be a positive number of seconds.")
    if isinstance(retry, bool) or not isinstance(retry, (int, RetryPolicy)) or (isinstance(retry, int) and retry < 0):
        raise RcpInvalidOptionsError("retry must be a number ≥ 0 or a RetryPolicy.")
    policy = retry if isinstance(retry, RetryPolicy) else RetryPolicy(limit=retry)
    for option, limit in (("max_response_bytes", max_response_bytes), ("max_manifest_bytes", max_manifest_bytes), ("max_manifest_tools", max_manifest_tools), ("max_media_bytes", max_media_bytes)):
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 0:
            raise RcpInvalidOptionsError(f"{option} must be an integer ≥ 0.")
    client_headers: list[tuple[str, str]] = []
    for name, value in (headers or {}).items():
        if not isinstance(name, str) or not HTTP_TOKEN.match(name) or name.lower() in _CLIENT_HEADERS_REFUSED or name.lower() in FORBIDDEN_HEADERS:
            raise RcpInvalidOptionsError(f"headers: {str(name)[:60]!r} cannot be a client-wide header.")
        if not isinstance(value, str) or any(ord(char) < 0x20 or ord(char) == 0x7F or ord(char) > 0xFF for char in value):
            raise RcpInvalidOptionsError(f"headers: the value of {name!r} must be Latin-1 text without control characters.")
        client_headers.append((name, value))
    ranges = tuple(media_types) if media_types is not None else DEFAULT_MEDIA_TYPES
    for entry in ranges:
        if not isinstance(entry, str) or not MEDIA_RANGE.match(entry):
            raise RcpInvalidOptionsError(f"media_types: {str(entry)[:60]!r} is not a media type or a range of one type.")
    private: bool | tuple[str, ...]
    if isinstance(allow_private_network, bool):
        private = allow_private_network
    else:
        private = _exact_origins(allow_private_network, "allow_private_network")
    if files is not None and not callable(files):
        raise RcpInvalidOptionsError("files must be a function (reference, ctx, info) -> ResolvedFile | None.")
    if isinstance(max_upload_bytes, bool) or not isinstance(max_upload_bytes, int) or max_upload_bytes < 1:
        raise RcpInvalidOptionsError("max_upload_bytes must be an integer ≥ 1.")
    if require_resolved is not None and not isinstance(require_resolved, bool):
        if isinstance(require_resolved, str) or not all(isinstance(name, str) for name in require_resolved):
            raise RcpInvalidOptionsError("require_resolved must be True, False or a list of param names.")
    return RcpClient(
        resolvers=resolvers,
        credentials=credentials,
        trusted_origins=_exact_origins(trusted_origins, "trusted_origins"),
        allow_origin=allow_origin,
        timeout=timeout,
        retry=policy,
        max_response_bytes=max_response_bytes,
        max_manifest_bytes=max_manifest_bytes,
        max_manifest_tools=max_manifest_tools,
        headers=tuple(client_headers),
        media_types=tuple(entry.lower() for entry in ranges),
        max_media_bytes=max_media_bytes,
        mark_untrusted_text=mark_untrusted_text,
        allow_html_responses=allow_html_responses,
        allow_private_network=private,
        classify_address=classify_address,
        resolve=resolve or system_resolve,
        require_resolved=require_resolved,
        model_filled_params=frozenset(model_filled_params),
        on_warning=on_warning,
        public_suffix_list=public_suffix_list,
        clock=clock or time.monotonic,
        sleep=sleep or time.sleep,
        secret=_secret_of(approval_secret),
        files=files,
        max_upload_bytes=max_upload_bytes,
    )


def _secret_of(secret: str | bytes | None) -> bytes:
    """The client's one secret (SPEC §19/§20.8): the operator's (32 bytes or more), else a random one of its own."""
    if secret is None:
        return os.urandom(32)
    raw = secret.encode("utf-8") if isinstance(secret, str) else secret
    if not isinstance(raw, bytes) or len(raw) < 32:
        raise RcpInvalidOptionsError("approval_secret must be text or bytes of at least 32 bytes.")
    return raw



@dataclass(frozen=True)
class _PollRendered:
    """What :meth:`RcpClient._http_error` reads of a poll: its request and the call's redactor."""

    request: Request
    redactor: Redactor
