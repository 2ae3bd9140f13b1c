"""RCP for Python: discover an RCP manifest, let a model call its plain HTTP tools safely.

A second implementation of the protocol in ``SPEC.md``, written from it and its conformance cases, on the
standard library only. Every name below is the public API; modules starting with ``_`` are private.

Example::

    from rcp import create_rcp_client, to_model_result, to_model_text

    client = create_rcp_client(resolvers={"userId": lambda ctx, info: ctx["user_id"]})
    discovery = client.discover("https://api.example.com/rcp/manifest")
    outcome = client.call(discovery, "list_notes", '{"tag": "work"}', {"user_id": "u-1"})
    print(to_model_text(to_model_result(outcome)))
"""

from ._deadline import AbortController, AbortSignal
from ._files import FileResolver, FileResolverInfo, ResolvedFile
from ._manifest import (
    SUPPORTED_VERSIONS,
    ParsedManifest,
    RcpWarning,
    SafeParseResult,
    parse_manifest,
    safe_parse_manifest,
    tool_effects,
)
from ._pages import Page
from ._retry import RetryPolicy
from ._trust import PublicSuffixList, classify_host, load_public_suffix_list
from .client import (
    CallOutcome,
    CredentialRequest,
    Discovery,
    MediaPart,
    ParamInfo,
    PreparedRequest,
    RcpClient,
    RcpResult,
    RcpTool,
    ResolverInfo,
    create_rcp_client,
    find_tool,
)
from .describe import describe_manifest, terminal_text
from .errors import (
    Issue,
    RcpAbortedError,
    RcpDiscoveryError,
    RcpError,
    RcpHttpError,
    RcpInvalidArgumentsError,
    RcpInvalidManifestError,
    RcpInvalidOptionsError,
    RcpInvalidToolError,
    RcpManifestLimitError,
    RcpMissingCredentialsError,
    RcpNetworkError,
    RcpOriginNotAllowedError,
    RcpResolverFailedError,
    RcpResolverMismatchError,
    RcpResponseError,
    RcpTemplateError,
    RcpTimeoutError,
    RcpToolNotInStageError,
    RcpUnboundParamError,
    RcpUnknownToolError,
    RcpUnresolvedError,
    RcpUnsupportedVersionError,
    is_rcp_error,
)
from .model import to_model_result, to_model_text
from .tool_set import ToolSet, create_tool_set

__all__ = [
    "SUPPORTED_VERSIONS",
    "AbortController",
    "AbortSignal",
    "CallOutcome",
    "CredentialRequest",
    "Discovery",
    "FileResolver",
    "FileResolverInfo",
    "Issue",
    "MediaPart",
    "Page",
    "ParamInfo",
    "ParsedManifest",
    "PreparedRequest",
    "PublicSuffixList",
    "RcpAbortedError",
    "RcpClient",
    "RcpDiscoveryError",
    "RcpError",
    "RcpHttpError",
    "RcpInvalidArgumentsError",
    "RcpInvalidManifestError",
    "RcpInvalidOptionsError",
    "RcpInvalidToolError",
    "RcpManifestLimitError",
    "RcpMissingCredentialsError",
    "RcpNetworkError",
    "RcpOriginNotAllowedError",
    "RcpResolverFailedError",
    "RcpResolverMismatchError",
    "RcpResponseError",
    "RcpResult",
    "RcpTemplateError",
    "RcpTimeoutError",
    "RcpTool",
    "RcpToolNotInStageError",
    "RcpUnboundParamError",
    "RcpUnknownToolError",
    "RcpUnresolvedError",
    "RcpUnsupportedVersionError",
    "RcpWarning",
    "ResolvedFile",
    "ResolverInfo",
    "RetryPolicy",
    "SafeParseResult",
    "ToolSet",
    "classify_host",
    "create_rcp_client",
    "create_tool_set",
    "describe_manifest",
    "find_tool",
    "is_rcp_error",
    "load_public_suffix_list",
    "parse_manifest",
    "safe_parse_manifest",
    "terminal_text",
    "to_model_result",
    "to_model_text",
    "tool_effects",
]
