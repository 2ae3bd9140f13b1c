"""What an answer is (SPEC §11 step 7, §18.3): empty, JSON, text, media, or refused — one rule.

JSON is always JSON and text types always text, whatever a tool declares; the types the client passes on
are media parts carrying exactly the bytes received; any other type is text when its bytes are UTF-8
without binary control characters, and otherwise refused, never decoded into garbage.
"""

from __future__ import annotations

import codecs
import re
from typing import Literal, Sequence

DEFAULT_MEDIA_TYPES: tuple[str, ...] = ("image/*", "audio/*", "video/*", "application/pdf", "application/octet-stream")
HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})
_TEXT_APPLICATION_TYPES = frozenset(
    {
        "application/xml",
        "application/javascript",
        "application/ecmascript",
        "application/x-ndjson",
        "application/x-www-form-urlencoded",
        "application/yaml",
        "application/x-yaml",
        "application/csv",
        "application/graphql",
        "application/sql",
        "application/toml",
    }
)
#: Control bytes that mark binary data: all C0 controls but tab, line feed, form feed and carriage return.
_BINARY_CONTROL = re.compile(rb"[\x00-\x08\x0b\x0e-\x1f]")

Kind = Literal["json", "text", "html", "media", "unknown"]


def media_type_of(content_type: str | None) -> str | None:
    """The media type of a ``Content-Type`` (lower-cased, parameters dropped); ``None`` when unreadable."""
    if content_type is None:
        return None
    value = content_type.split(";", 1)[0].strip().lower()
    if not re.fullmatch(r"[a-z0-9!#$&^_.+\-]+/[a-z0-9!#$&^_.+\-]+", value):
        return None
    return value


def is_json_type(media_type: str) -> bool:
    return media_type == "application/json" or media_type.endswith("+json")


def is_text_type(media_type: str) -> bool:
    """Text by definition: ``text/*``, XML (``*/*+xml``), and the ``application/`` types that are text."""
    return media_type.startswith("text/") or media_type.endswith("+xml") or media_type in _TEXT_APPLICATION_TYPES


def matches_range(media_type: str, ranges: Sequence[str]) -> bool:
    """Whether ``media_type`` is one of ``ranges`` (``type/subtype`` or ``type/*``)."""
    main = media_type.split("/", 1)[0]
    return any(entry == media_type or (entry.endswith("/*") and entry[:-2] == main) for entry in ranges)


def kind_of(media_type: str | None, *, media_types: Sequence[str], tool_media_types: Sequence[str]) -> Kind:
    """The kind of an answer by its media type alone (``unknown``: decided by its bytes)."""
    if media_type is None:
        return "unknown"
    if media_type in HTML_TYPES:
        return "html"
    if is_json_type(media_type):
        return "json"
    if is_text_type(media_type):
        return "text"
    if matches_range(media_type, media_types) or matches_range(media_type, tool_media_types):
        return "media"
    return "unknown"


def looks_like_text(data: bytes) -> bool:
    """UTF-8 without binary control characters."""
    if _BINARY_CONTROL.search(data):
        return False
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def charset_of(content_type: str | None) -> str:
    """The declared charset when Python knows it, else UTF-8."""
    if content_type is not None:
        match = re.search(r";\s*charset\s*=\s*\"?([A-Za-z0-9._:\-]+)", content_type, re.IGNORECASE)
        if match is not None:
            try:
                return codecs.lookup(match.group(1)).name
            except LookupError:
                return "utf-8"
    return "utf-8"


def decode_text(data: bytes, charset: str, *, cut: bool) -> str:
    """Decode text; a cut body drops an incomplete last character rather than showing half of one."""
    if data.startswith(b"\xef\xbb\xbf") and charset.replace("_", "-") in ("utf-8", "utf8"):
        data = data[3:]
    decoder = codecs.getincrementaldecoder(charset)(errors="replace")
    return decoder.decode(data, final=not cut)
