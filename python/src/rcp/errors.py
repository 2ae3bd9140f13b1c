"""Typed errors with the stable ``RCP_*`` codes of SPEC §14.

Every error is an :class:`RcpError` with a ``code``, the underlying error as ``__cause__`` and read-only
data fields. :func:`is_rcp_error` recognises one by a marker attribute rather than ``isinstance`` alone,
so it also works when two copies of the package are loaded.

Example::

    from rcp import is_rcp_error
    try:
        client.execute(tool, {"q": 1})
    except Exception as error:
        if is_rcp_error(error, "RCP_INVALID_ARGUMENTS"):
            print([str(issue) for issue in error.issues])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

RcpErrorCode = Literal[
    "RCP_TEMPLATE_SYNTAX",
    "RCP_TEMPLATE_VALUE",
    "RCP_TEMPLATE_MISSING",
    "RCP_UNSUPPORTED_VERSION",
    "RCP_INVALID_MANIFEST",
    "RCP_MANIFEST_LIMIT",
    "RCP_INVALID_OPTIONS",
    "RCP_DISCOVERY_FAILED",
    "RCP_RESOLVER_MISMATCH",
    "RCP_UNBOUND_PARAM",
    "RCP_INVALID_ARGUMENTS",
    "RCP_UNRESOLVED",
    "RCP_RESOLVER_FAILED",
    "RCP_MISSING_CREDENTIALS",
    "RCP_ORIGIN_NOT_ALLOWED",
    "RCP_RESPONSE_TOO_LARGE",
    "RCP_TIMEOUT",
    "RCP_ABORTED",
    "RCP_HTTP_ERROR",
    "RCP_NETWORK_ERROR",
    "RCP_INVALID_RESPONSE",
    "RCP_UNKNOWN_TOOL",
    "RCP_TOOL_NOT_IN_STAGE",
    "RCP_INVALID_TOOL",
    "RCP_OPERATION_FAILED",
    "RCP_INVALID_HANDLE",
]

#: The marker every RCP error class carries (the Python counterpart of ``Symbol.for('rcp-sdk.error')``).
RCP_ERROR_MARK = "rcp-sdk.error"


@dataclass(frozen=True)
class Issue:
    """One problem at an RFC 6901 JSON Pointer (``path``), as manifest and argument errors list them.

    >>> str(Issue("/tools/0/name", "must match ^[A-Za-z0-9_-]{1,64}$"))
    '/tools/0/name must match ^[A-Za-z0-9_-]{1,64}$'
    """

    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path} {self.message}"


class RcpError(Exception):
    """The base of every RCP error: a stable ``code``, a message that never holds a secret, a chained cause.

    >>> error = RcpError("RCP_TIMEOUT", "The call took longer than 30000 ms.")
    >>> error.code, str(error)
    ('RCP_TIMEOUT', 'The call took longer than 30000 ms.')
    """

    __rcp_error_mark__ = RCP_ERROR_MARK

    def __init__(self, code: RcpErrorCode, message: str, *, cause: BaseException | None = None) -> None:
        super().__init__(message)
        self.code: RcpErrorCode = code
        self.message = message
        if cause is not None:
            self.__cause__ = cause

    @property
    def cause(self) -> BaseException | None:
        """The underlying error (``__cause__``)."""
        return self.__cause__


def is_rcp_error(value: object, code: RcpErrorCode | None = None) -> bool:
    """Whether ``value`` is an RCP error (of ``code``, when given), across duplicate installs.

    >>> is_rcp_error(RcpError("RCP_ABORTED", "aborted"), "RCP_ABORTED")
    True
    """
    if getattr(type(value), "__rcp_error_mark__", None) != RCP_ERROR_MARK:
        return False
    return code is None or getattr(value, "code", None) == code


class RcpCause(Exception):
    """A value-free stand-in for an underlying error: its class name, its code, its redacted message."""

    def __init__(self, name: str, message: str, code: str | None = None) -> None:
        super().__init__(message)
        self.name = name
        self.code = code


class RcpTemplateError(RcpError):
    """``RCP_TEMPLATE_SYNTAX`` / ``RCP_TEMPLATE_VALUE`` / ``RCP_TEMPLATE_MISSING`` (SPEC §6–§7).

    ``offset`` is the UTF-16 offset of a syntax error; ``token`` the token a value or missing error is about.
    """

    def __init__(
        self,
        code: Literal["RCP_TEMPLATE_SYNTAX", "RCP_TEMPLATE_VALUE", "RCP_TEMPLATE_MISSING"],
        message: str,
        *,
        offset: int | None = None,
        token: str | None = None,
        cause: BaseException | None = None,
    ) -> None:
        super().__init__(code, message, cause=cause)
        self.offset = offset
        self.token = token


class RcpUnsupportedVersionError(RcpError):
    """``RCP_UNSUPPORTED_VERSION``: a missing, non-string or unknown ``rcpVersion`` (SPEC §15)."""

    def __init__(self, message: str, *, received: object, supported: tuple[str, ...]) -> None:
        super().__init__("RCP_UNSUPPORTED_VERSION", message)
        self.received = received
        self.supported = supported


class RcpInvalidManifestError(RcpError):
    """``RCP_INVALID_MANIFEST``: every rule violation at once, as ``issues`` sorted by pointer (SPEC §3)."""

    def __init__(self, message: str, *, issues: tuple[Issue, ...], cause: BaseException | None = None) -> None:
        super().__init__("RCP_INVALID_MANIFEST", message, cause=cause)
        self.issues = issues


class RcpManifestLimitError(RcpError):
    """``RCP_MANIFEST_LIMIT``: the manifest's bytes, tools or depth over the limit (SPEC §13)."""

    def __init__(self, message: str, *, limit: Literal["bytes", "tools", "depth"], max: int) -> None:
        super().__init__("RCP_MANIFEST_LIMIT", message)
        self.limit = limit
        self.max = max


class RcpInvalidOptionsError(RcpError):
    """``RCP_INVALID_OPTIONS``: a bad client option or a program's mistake in a call (not the model's)."""

    def __init__(self, message: str) -> None:
        super().__init__("RCP_INVALID_OPTIONS", message)


class RcpDiscoveryError(RcpError):
    """``RCP_DISCOVERY_FAILED``: the manifest could not be fetched (SPEC §2)."""

    def __init__(self, message: str, *, cause: BaseException | None = None) -> None:
        super().__init__("RCP_DISCOVERY_FAILED", message, cause=cause)


class RcpResolverMismatchError(RcpError):
    """``RCP_RESOLVER_MISMATCH``: a resolver's name nearly matches a param it does not fill (SPEC §10)."""

    def __init__(self, message: str, *, tool: str, param: str, resolver: str, path: str) -> None:
        super().__init__("RCP_RESOLVER_MISMATCH", message)
        self.tool = tool
        self.param = param
        self.resolver = resolver
        self.path = path


class RcpUnboundParamError(RcpError):
    """``RCP_UNBOUND_PARAM``: a param that must be resolved has no resolver (SPEC §10)."""

    def __init__(self, message: str, *, tool: str, param: str, path: str) -> None:
        super().__init__("RCP_UNBOUND_PARAM", message)
        self.tool = tool
        self.param = param
        self.path = path


class RcpInvalidArgumentsError(RcpError):
    """``RCP_INVALID_ARGUMENTS``: the model's arguments do not fit the tool's schema (SPEC §11 step 1)."""

    def __init__(self, message: str, *, issues: tuple[Issue, ...], tool: str | None = None, cause: BaseException | None = None) -> None:
        super().__init__("RCP_INVALID_ARGUMENTS", message, cause=cause)
        self.issues = issues
        self.tool = tool


class RcpUnresolvedError(RcpError):
    """``RCP_UNRESOLVED``: a resolver had no value (SPEC §10)."""

    def __init__(self, message: str, *, param: str, cause: BaseException | None = None) -> None:
        super().__init__("RCP_UNRESOLVED", message, cause=cause)
        self.param = param


class RcpResolverFailedError(RcpError):
    """``RCP_RESOLVER_FAILED``: a resolver raised, or returned a value of the wrong type (SPEC §10)."""

    def __init__(self, message: str, *, param: str, cause: BaseException | None = None) -> None:
        super().__init__("RCP_RESOLVER_FAILED", message, cause=cause)
        self.param = param


class RcpMissingCredentialsError(RcpError):
    """``RCP_MISSING_CREDENTIALS``: the tool needs a credential and none usable was supplied (SPEC §8)."""

    def __init__(self, message: str, *, cause: BaseException | None = None) -> None:
        super().__init__("RCP_MISSING_CREDENTIALS", message, cause=cause)


class RcpOriginNotAllowedError(RcpError):
    """``RCP_ORIGIN_NOT_ALLOWED``: secrets to an untrusted origin, a refused destination or redirect (SPEC §12)."""

    def __init__(self, message: str, *, origin: str | None = None, cause: BaseException | None = None) -> None:
        super().__init__("RCP_ORIGIN_NOT_ALLOWED", message, cause=cause)
        self.origin = origin


class RcpResponseError(RcpError):
    """``RCP_INVALID_RESPONSE`` or ``RCP_RESPONSE_TOO_LARGE`` about a response (SPEC §11 steps 6–7, §18.3).

    ``problem`` says which: ``"bad-json"``, ``"html"``, ``"mapping-not-json"``, ``"media-not-allowed"``,
    ``"media-too-large"``, ``"too-large"`` or ``"bad-encoding"``; for a streamed answer (SPEC §20.6)
    ``"not-a-stream"``, ``"stream-error"`` or ``"stream-malformed"``, with ``event``, the 1-based index of the event.
    """

    def __init__(
        self,
        code: Literal["RCP_INVALID_RESPONSE", "RCP_RESPONSE_TOO_LARGE"],
        message: str,
        *,
        problem: str,
        media_type: str | None = None,
        size: int | None = None,
        limit: int | None = None,
        reason: str | None = None,
        event: int | None = None,
        cause: BaseException | None = None,
    ) -> None:
        super().__init__(code, message, cause=cause)
        self.problem = problem
        self.event = event
        self.media_type = media_type
        self.size = size
        self.limit = limit
        self.reason = reason


class RcpTimeoutError(RcpError):
    """``RCP_TIMEOUT``: the call's one deadline passed (SPEC §13)."""

    def __init__(self, message: str, *, cause: BaseException | None = None) -> None:
        super().__init__("RCP_TIMEOUT", message, cause=cause)


class RcpAbortedError(RcpError):
    """``RCP_ABORTED``: the caller's abort signal fired."""

    def __init__(self, message: str, *, cause: BaseException | None = None) -> None:
        super().__init__("RCP_ABORTED", message, cause=cause)


class RcpNetworkError(RcpError):
    """``RCP_NETWORK_ERROR``: the connection failed, or too many redirects."""

    def __init__(self, message: str, *, cause: BaseException | None = None) -> None:
        super().__init__("RCP_NETWORK_ERROR", message, cause=cause)


class RcpHttpError(RcpError):
    """``RCP_HTTP_ERROR``: a non-2xx answer, with a bounded, redacted excerpt of its body (SPEC §11 step 6).

    ``url`` is origin and path only; ``retry_after_seconds`` the server's ``Retry-After`` when readable.
    """

    def __init__(
        self,
        message: str,
        *,
        status: int,
        status_text: str,
        body_excerpt: str,
        url: str,
        retry_after_seconds: int | None,
    ) -> None:
        super().__init__("RCP_HTTP_ERROR", message)
        self.status = status
        self.status_text = status_text
        self.body_excerpt = body_excerpt
        self.url = url
        self.retry_after_seconds = retry_after_seconds


class RcpUnknownToolError(RcpError):
    """``RCP_UNKNOWN_TOOL``: no tool of that name in the source (``available`` lists the names there)."""

    def __init__(self, message: str, *, tool: str, available: tuple[str, ...]) -> None:
        super().__init__("RCP_UNKNOWN_TOOL", message)
        self.tool = tool
        self.available = available


class RcpToolNotInStageError(RcpError):
    """``RCP_TOOL_NOT_IN_STAGE``: the tool exists, but not in the subset a call went through
    (packages/rcp-client/docs/behaviour.md)."""

    def __init__(self, tool: str, stage: str | None = None) -> None:
        where = f'stage "{stage}"' if stage else "this stage"
        super().__init__("RCP_TOOL_NOT_IN_STAGE", f'Tool "{tool}" is not available in {where}.')
        self.tool = tool
        self.stage = stage


class RcpInvalidToolError(RcpError):
    """``RCP_INVALID_TOOL``: a tool object this client did not discover, or tool names that clash."""

    def __init__(self, message: str) -> None:
        super().__init__("RCP_INVALID_TOOL", message)


class RcpOperationFailedError(RcpError):
    """``RCP_OPERATION_FAILED``: a long-running operation's status said it failed (SPEC §20.8); ``state`` is the
    server's word, cleaned and cut."""

    def __init__(self, message: str, *, state: str) -> None:
        super().__init__("RCP_OPERATION_FAILED", message)
        self.state = state


class RcpInvalidHandleError(RcpError):
    """``RCP_INVALID_HANDLE``: an operation handle this client cannot resume (altered, expired, of another secret
    or tool set, or for another caller); nothing was sent (SPEC §20.8)."""

    def __init__(self, message: str) -> None:
        super().__init__("RCP_INVALID_HANDLE", message)
