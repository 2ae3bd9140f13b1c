"""What the model may be told (SPEC §14): one rule, :func:`to_model_result`, and its text, :func:`to_model_text`.

The model reads the data of a success, and of a failure only what speaks of what it sent (its arguments,
tool names) or a fixed sentence; never a URL, an origin, a credential or a resolver's value.

Example::

    outcome = client.call(discovery, "get_note", '{"noteId": "n-1"}', ctx)
    text = to_model_text(to_model_result(outcome))   # what goes back in the tool message
"""

from __future__ import annotations

import base64
import secrets
from typing import Any, Mapping

from ._json import Json, stringify
from .client import CallOutcome, RcpResult
from .errors import RcpError, RcpHttpError, RcpResponseError, RcpTemplateError, is_rcp_error

#: The fixed sentence per code for failures whose message is the operator's, not the model's.
FIXED_SENTENCES: Mapping[str, str] = {
    "RCP_UNRESOLVED": "A value the client must supply is unavailable.",
    "RCP_RESOLVER_FAILED": "A value the client must supply could not be obtained.",
    "RCP_MISSING_CREDENTIALS": "The client has no credentials for this tool.",
    "RCP_ORIGIN_NOT_ALLOWED": "The client does not allow calls to this tool's destination.",
    "RCP_TIMEOUT": "The tool did not answer in time.",
    "RCP_ABORTED": "The tool call was cancelled.",
    "RCP_NETWORK_ERROR": "The tool's server could not be reached.",
    "RCP_RESPONSE_TOO_LARGE": "The tool's response was too large.",
    "RCP_INVALID_RESPONSE": "The tool's response could not be read.",
    "RCP_TEMPLATE_VALUE": "A value could not be placed in the request.",
    "RCP_TEMPLATE_MISSING": "A value could not be placed in the request.",
    "RCP_OPERATION_FAILED": "The tool's operation failed.",
    "RCP_INVALID_HANDLE": "The operation handle cannot be checked here: it expired, was altered, or belongs to another user.",
}
_PASSED_THROUGH = frozenset({"RCP_INVALID_ARGUMENTS", "RCP_UNKNOWN_TOOL", "RCP_TOOL_NOT_IN_STAGE"})
GENERIC = "The tool could not be called."


def _error_message(error: RcpError, model_params: frozenset[str]) -> str:
    code = error.code
    if code in _PASSED_THROUGH:
        return error.message
    if isinstance(error, RcpHttpError):
        text = f"The tool's server answered HTTP {error.status}."
        if error.retry_after_seconds is not None:
            text += f" It asks to be called again in {error.retry_after_seconds} seconds."
        if error.body_excerpt:
            text += f" Response: {error.body_excerpt}"
        return text
    if isinstance(error, RcpResponseError):
        if error.problem == "media-too-large":
            return f"The tool answered with {error.media_type} of {error.size} bytes, more than the {error.limit} bytes the client passes on."
        if error.problem == "media-not-allowed":
            return f"The tool answered with {error.media_type}, which the client does not pass on."
    if isinstance(error, RcpTemplateError) and error.token is not None and error.token in model_params:
        return error.message
    return FIXED_SENTENCES.get(code, GENERIC)


def to_model_result(outcome: CallOutcome | RcpResult | BaseException, *, mark_untrusted_text: bool | None = None) -> dict[str, Json]:
    """The object the model reads for a call (SPEC §14).

    * success: ``{"ok": True, "data": …}`` with ``media`` ``{mediaType, size, data}`` (base64), ``page``
      ``{hasMore, nextArguments}`` and ``truncated: True`` when they apply;
    * failure: ``{"ok": False, "error": {"code", "message"}}`` (``retryAfterSeconds`` for an HTTP error that
      asked for it); an error that is not an RCP error is ``UNKNOWN_ERROR``.

    ``mark_untrusted_text`` adds a fresh ``boundary`` (96 random bits) for :func:`to_model_text`; by default
    it follows the client that made the outcome.
    """
    result: dict[str, Json]
    if isinstance(outcome, CallOutcome):
        mark = outcome.marked if mark_untrusted_text is None else mark_untrusted_text
        if outcome.ok and outcome.result is not None:
            result = _success(outcome.result)
        else:
            result = _failure(outcome.error, frozenset(_model_params(outcome)))
    elif isinstance(outcome, RcpResult):
        mark = bool(mark_untrusted_text)
        result = _success(outcome)
    else:
        mark = bool(mark_untrusted_text)
        result = _failure(outcome, frozenset())
    if mark:
        result["boundary"] = secrets.token_hex(12)
    return result


def _model_params(outcome: CallOutcome) -> list[str]:
    tool = outcome.tool
    if tool is None:
        return []
    return [param.name for param in tool.params if not param.resolved]


def _success(result: RcpResult) -> dict[str, Json]:
    out: dict[str, Json] = {"ok": True, "data": result.data}
    if result.media is not None:
        out["media"] = {
            "mediaType": result.media.media_type,
            "size": len(result.media.bytes),
            "data": base64.b64encode(result.media.bytes).decode("ascii"),
        }
    if result.page is not None:
        out["page"] = result.page.to_json()
    if result.truncated:
        out["truncated"] = True
    if result.pending is not None:
        out["pending"] = result.pending.to_json()
    return out


def _failure(error: object, model_params: frozenset[str]) -> dict[str, Json]:
    if not is_rcp_error(error) or not isinstance(error, RcpError):
        return {"ok": False, "error": {"code": "UNKNOWN_ERROR", "message": GENERIC}}
    body: dict[str, Json] = {"code": error.code, "message": _error_message(error, model_params)}
    if isinstance(error, RcpHttpError) and error.retry_after_seconds is not None:
        body["retryAfterSeconds"] = error.retry_after_seconds
    return {"ok": False, "error": body}


def _without_media_bytes(result: Mapping[str, Any]) -> dict[str, Json]:
    shown = {key: value for key, value in result.items() if key != "boundary"}
    media = shown.get("media")
    if isinstance(media, dict):
        shown["media"] = {key: value for key, value in media.items() if key != "data"}
    return shown


def to_model_text(result: Mapping[str, Any]) -> str:
    """The text of a model result: its JSON without a media part's bytes (``mediaType`` and ``size`` stay);
    with a ``boundary``, wrapped in ``<untrusted-…>`` lines and every ``<`` / ``>`` inside escaped.

    >>> to_model_text({"ok": True, "data": {"a": 1}})
    '{"ok":true,"data":{"a":1}}'
    """
    text = stringify(_without_media_bytes(result))
    boundary = result.get("boundary")
    if not isinstance(boundary, str):
        return text
    inner = text.replace("<", "\\u003c").replace(">", "\\u003e")
    return f"<untrusted-{boundary}>\n{inner}\n</untrusted-{boundary}>"

