"""Long-running operations (SPEC §20.8): the status URL a 202 names, what a status answer says, and the sealed
handle a pending operation is resumed from."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
from dataclasses import dataclass
from typing import Any

from ._jsonpath import JsonPath
from ._manifest import Operation
from ._retry import parse_retry_after
from ._url import Url, resolve_reference
from .errors import RcpInvalidHandleError, RcpInvalidOptionsError, RcpOperationFailedError, RcpOriginNotAllowedError, RcpResponseError

Json = Any

#: The longest ``Retry-After`` a status answer is obeyed for, in seconds (a longer one is cut to it).
MAX_POLL_WAIT = 3600.0
#: How long a handle opens, in seconds: a day (each check still pending issues a new one).
HANDLE_LIFETIME = 86_400.0
_PREFIX = "rcp1."
_ADDITIONAL_DATA = b"rcp-operation-handle/1"
_MAX_HANDLE = 16_384


@dataclass(frozen=True)
class Pending:
    """A long-running operation that outlived its call (SPEC §20.8): the sealed handle that resumes it and the
    seconds to wait before checking again (at least 1)."""

    handle: str
    check_after_seconds: int

    def to_json(self) -> dict[str, Json]:
        return {"handle": self.handle, "checkAfterSeconds": self.check_after_seconds}


@dataclass(frozen=True)
class HandleContent:
    """What a handle holds: the tool, its manifest, the status URL, the poll headers, who may resume it, until when."""

    manifest_url: str
    tool: str
    status_url: str
    headers: tuple[tuple[str, str], ...]
    binding: str
    expires_at: float


class Sealer:
    """Seals and opens handles under a key derived (HKDF-SHA-256) from the client's secret; keys the caller binding."""

    def __init__(self, secret: bytes) -> None:
        self._secret = secret
        self._cipher: Any = None

    def _aead(self) -> Any:
        """AES-256-GCM under the derived key, from the ``cryptography`` package (the ``operations`` extra), loaded
        when a handle is first sealed or opened: the rest of the client needs only the standard library."""
        if self._cipher is None:
            try:
                from cryptography.hazmat.primitives import hashes
                from cryptography.hazmat.primitives.ciphers.aead import AESGCM
                from cryptography.hazmat.primitives.kdf.hkdf import HKDF
            except ImportError:
                raise RcpInvalidOptionsError(
                    "Operation handles (SPEC §20.8) are sealed with the 'cryptography' package: install rcp[operations] (Debian: python3-cryptography)."
                ) from None
            key = HKDF(algorithm=hashes.SHA256(), length=32, salt=b"", info=b"rcp-operation-handle").derive(self._secret)
            self._cipher = AESGCM(key)
        return self._cipher

    def binding(self, caller: Json, resolved: list[Json]) -> str:
        """A keyed fingerprint of the caller and the tool's resolver values (who may resume a handle)."""
        text = json.dumps(["rcp-operation-caller", [caller, resolved]], ensure_ascii=False, separators=(",", ":"), sort_keys=True)
        return hmac.new(self._secret, text.encode("utf-8"), hashlib.sha256).hexdigest()

    def seal(self, content: HandleContent) -> str:
        plain = json.dumps(
            {
                "manifestUrl": content.manifest_url,
                "tool": content.tool,
                "statusUrl": content.status_url,
                "headers": [list(pair) for pair in content.headers],
                "binding": content.binding,
                "expiresAt": content.expires_at,
            },
            separators=(",", ":"),
        ).encode("utf-8")
        iv = os.urandom(12)
        sealed = self._aead().encrypt(iv, plain, _ADDITIONAL_DATA)
        return _PREFIX + base64.urlsafe_b64encode(iv + sealed).decode("ascii").rstrip("=")

    def open(self, handle: object) -> HandleContent:
        """The handle's content, or ``RCP_INVALID_HANDLE`` (altered, of another secret, not a handle)."""
        refused = RcpInvalidHandleError("The operation handle cannot be resumed: it was not issued by a client sharing this secret, or it was altered; nothing was sent.")
        if not isinstance(handle, str) or not handle.startswith(_PREFIX) or len(handle) > _MAX_HANDLE:
            raise refused
        text = handle[len(_PREFIX):]
        if not text or any(char not in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_" for char in text):
            raise refused
        aead = self._aead()
        try:
            raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
            plain = aead.decrypt(raw[:12], raw[12:], _ADDITIONAL_DATA)
            value = json.loads(plain.decode("utf-8"))
            headers = tuple((str(name), str(entry)) for name, entry in value["headers"])
            return HandleContent(str(value["manifestUrl"]), str(value["tool"]), str(value["statusUrl"]), headers, str(value["binding"]), float(value["expiresAt"]))
        except Exception:  # noqa: BLE001 - any failure to open is the same refusal
            raise refused from None


def status_url_of(plan: Operation, header: str | None, document: Json, answered: Url, tool: str, origin: str) -> str:
    """The status URL a 202 names (its header, or the path in its JSON), resolved against the URL that answered; on
    the tool's origin only (M28.2)."""
    location: object = header if plan.status_header is not None else (_take(plan.status_path, document) if plan.status_path is not None else None)
    where = f"its {plan.status_header} header" if plan.status_header is not None else "its JSON"
    if not isinstance(location, str) or location.strip() == "":
        raise RcpResponseError("RCP_INVALID_RESPONSE", f'Tool "{tool}" answered 202 without a status URL in {where}.', problem="no-status-location")
    try:
        url = resolve_reference(answered, location.strip())
    except Exception:  # noqa: BLE001 - not a URL
        raise RcpResponseError("RCP_INVALID_RESPONSE", f'Tool "{tool}" answered 202 with a status URL that is not a URL.', problem="no-status-location") from None
    if url.origin != origin or url.scheme not in ("http", "https") or url.has_userinfo:
        raise RcpOriginNotAllowedError(f'Tool "{tool}" answered 202 with a status URL on another origin; it is not polled (only {origin} is).', origin=url.origin)
    return url.href


def wait_of(plan: Operation, retry_after: str | None) -> float:
    """The wait an answer asks for: its ``Retry-After`` (at most an hour), else the tool's ``pollSeconds``."""
    asked = parse_retry_after(retry_after)
    return plan.poll_seconds if asked is None else min(asked, MAX_POLL_WAIT)


def reading(plan: Operation, status: int, document: Json) -> tuple[str, Json]:
    """What one status answer says (M28.3): ``("pending", data)``, ``("done", result)``, or ``RCP_OPERATION_FAILED``."""
    if status == 202:
        return "pending", document
    if plan.state is not None:
        state = _state_text(_take(plan.state, document))
        if state is not None and state in plan.failed:
            shown = "".join(char if char.isprintable() else f"\\x{ord(char):02x}" for char in state)[:64]
            raise RcpOperationFailedError(f'The operation failed (state "{shown}").', state=shown)
        if state is None or state not in plan.done:
            return "pending", document
    if plan.result is None:
        return "done", document
    taken = _take(plan.result, document)
    return "done", taken


def _state_text(value: Json) -> str | None:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    if isinstance(value, (int, float)):
        return json.dumps(value)
    return None


def _take(path: JsonPath | None, document: Json) -> Json:
    if path is None:
        return None
    found = path.select(document)
    return found[0] if found else None
