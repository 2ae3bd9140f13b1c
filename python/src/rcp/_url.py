"""URLs: hosts as the WHATWG URL parser leaves them, absolute http(s) URLs, origins, references.

The client connects to exactly the host this module computes and checks that same host, so a URL can
never be read one way by a check and another way by the transport.
"""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass
from urllib.parse import unquote, urljoin

DEFAULT_PORTS = {"http": 80, "https": 443}

_FORBIDDEN_HOST = set("\x00\t\n\r #/:<>?@[\\]^|%")
_UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
_SUB_DELIMS = frozenset("!$&'()*+,;=")
#: Characters that may stand as written in a path (RFC 3986 ``pchar`` and ``/``).
PATH_CHARACTERS = _UNRESERVED | _SUB_DELIMS | frozenset(":@/")
#: Characters that may stand as written in a query (RFC 3986 ``query``).
QUERY_CHARACTERS = PATH_CHARACTERS | frozenset("?")
_HEX = frozenset("0123456789abcdefABCDEF")


class UrlError(ValueError):
    """A URL or host that cannot be parsed; the message never quotes user info."""


@dataclass(frozen=True)
class Url:
    """An absolute http(s) URL split into its parts; ``path`` and ``query`` are already percent-encoded."""

    scheme: str
    host: str
    port: int | None
    path: str
    query: str | None
    has_userinfo: bool = False

    @property
    def origin(self) -> str:
        return origin_of(self.scheme, self.host, self.port)

    @property
    def target(self) -> str:
        """The request target: the path and the query as sent."""
        return self.path + ("" if self.query is None else "?" + self.query)

    @property
    def href(self) -> str:
        return self.origin + self.target

    @property
    def hostname(self) -> str:
        """The host without IPv6 brackets (what a resolver and a classifier read)."""
        return self.host[1:-1] if self.host.startswith("[") else self.host

    @property
    def effective_port(self) -> int:
        return self.port if self.port is not None else DEFAULT_PORTS[self.scheme]


def origin_of(scheme: str, host: str, port: int | None) -> str:
    default = DEFAULT_PORTS.get(scheme)
    return f"{scheme}://{host}" if port is None or port == default else f"{scheme}://{host}:{port}"


def _parse_ipv4_number(part: str) -> int | None:
    if part == "":
        return None
    radix = 10
    if len(part) >= 2 and part[:2] in ("0x", "0X"):
        part, radix = part[2:], 16
    elif len(part) >= 2 and part[0] == "0":
        part, radix = part[1:], 8
    if part == "":
        return 0
    digits = {10: "0123456789", 8: "01234567", 16: "0123456789abcdefABCDEF"}[radix]
    if any(char not in digits for char in part):
        return None
    return int(part, radix)


def _ends_in_number(host: str) -> bool:
    parts = host.split(".")
    if parts[-1] == "":
        if len(parts) == 1:
            return False
        parts.pop()
    last = parts[-1]
    if last and all(char in "0123456789" for char in last):
        return True
    return _parse_ipv4_number(last) is not None and last[:2] in ("0x", "0X")


def _parse_ipv4(host: str) -> str:
    parts = host.split(".")
    if parts[-1] == "" and len(parts) > 1:
        parts.pop()
    if len(parts) > 4:
        raise UrlError("an IPv4 address with more than four parts")
    numbers: list[int] = []
    for part in parts:
        number = _parse_ipv4_number(part)
        if number is None:
            raise UrlError("an invalid IPv4 address")
        numbers.append(number)
    if any(number > 255 for number in numbers[:-1]):
        raise UrlError("an IPv4 part out of range")
    if numbers[-1] >= 256 ** (5 - len(numbers)):
        raise UrlError("an IPv4 address out of range")
    address = numbers[-1]
    for index, number in enumerate(numbers[:-1]):
        address += number * 256 ** (3 - index)
    return str(ipaddress.IPv4Address(address))


def parse_host(text: str) -> str:
    """A host as the WHATWG URL parser serialises it: IPv4 as dotted quad, IPv6 bracketed and compressed,
    a name lower-cased and in ASCII (IDNA). Raises :class:`UrlError`.

    >>> parse_host("0xa9fea9fe"), parse_host("[::FFFF:169.254.169.254]"), parse_host("API.Example.COM")
    ('169.254.169.254', '[::ffff:a9fe:a9fe]', 'api.example.com')
    """
    if text.startswith("["):
        if not text.endswith("]"):
            raise UrlError("an unterminated IPv6 address")
        try:
            address = ipaddress.IPv6Address(text[1:-1])
        except ValueError:
            raise UrlError("an invalid IPv6 address") from None
        if address.scope_id:
            raise UrlError("an invalid IPv6 address")
        return f"[{address.compressed}]"
    if text == "":
        raise UrlError("an empty host")
    decoded = unquote(text, errors="strict")
    try:
        ascii_host = decoded.lower() if decoded.isascii() else decoded.encode("idna").decode("ascii").lower()
    except UnicodeError:
        raise UrlError("a host that is not a valid domain name") from None
    if ascii_host == "" or any(char in _FORBIDDEN_HOST or ord(char) < 0x20 or ord(char) == 0x7F for char in ascii_host):
        raise UrlError("a host with a forbidden character")
    if _ends_in_number(ascii_host):
        return _parse_ipv4(ascii_host)
    return ascii_host


def encode_invalid(text: str, allowed: frozenset[str]) -> str:
    """Percent-encode what is not valid as written (UTF-8), upper-case ``%xx``, keep valid escapes.

    >>> encode_invalid("/a b/%2f/100%/é", PATH_CHARACTERS)
    '/a%20b/%2F/100%25/%C3%A9'
    """
    out: list[str] = []
    index = 0
    while index < len(text):
        char = text[index]
        if char == "%" and index + 2 < len(text) and text[index + 1] in _HEX and text[index + 2] in _HEX:
            out.append("%" + text[index + 1 : index + 3].upper())
            index += 3
            continue
        if char in allowed:
            out.append(char)
        else:
            out.append("".join(f"%{byte:02X}" for byte in char.encode("utf-8", "surrogatepass")))
        index += 1
    return "".join(out)


_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.\-]*):")
_STRIP = "\x00\x01\x02\x03\x04\x05\x06\x07\x08\t\n\x0b\x0c\r\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f "


def _clean(text: str) -> str:
    """What the WHATWG parser does first: trim C0 and space, drop tabs and line breaks, ``\\`` as ``/``."""
    cleaned = text.strip(_STRIP).replace("\t", "").replace("\n", "").replace("\r", "")
    return cleaned.replace("\\", "/")


def parse_absolute_url(text: str, *, allow_userinfo: bool = False) -> Url:
    """Parse an absolute ``http:`` / ``https:`` URL (the fragment dropped). Raises :class:`UrlError`.

    >>> parse_absolute_url("HTTP://Example.com:80/a?b=1#f").href
    'http://example.com/a?b=1'
    """
    cleaned = _clean(text)
    match = _SCHEME.match(cleaned)
    if match is None:
        raise UrlError("not an absolute URL")
    scheme = match.group(1).lower()
    if scheme not in DEFAULT_PORTS:
        raise UrlError("not an http(s) URL")
    rest = cleaned[match.end() :]
    rest = rest.lstrip("/") if rest.startswith("/") else rest
    fragment_at = rest.find("#")
    if fragment_at >= 0:
        rest = rest[:fragment_at]
    end = len(rest)
    for stop in ("/", "?"):
        found = rest.find(stop)
        if found >= 0:
            end = min(end, found)
    authority, remainder = rest[:end], rest[end:]
    has_userinfo = "@" in authority
    if has_userinfo:
        if not allow_userinfo:
            raise UrlError("a URL with user info")
        authority = authority[authority.rfind("@") + 1 :]
    host_text, port = _split_port(authority)
    host = parse_host(host_text)
    query_at = remainder.find("?")
    path = remainder if query_at < 0 else remainder[:query_at]
    query = None if query_at < 0 else remainder[query_at + 1 :]
    return Url(
        scheme=scheme,
        host=host,
        port=None if port is None or port == DEFAULT_PORTS[scheme] else port,
        path=encode_invalid(path or "/", PATH_CHARACTERS),
        query=None if query is None else encode_invalid(query, QUERY_CHARACTERS),
        has_userinfo=has_userinfo,
    )


def _split_port(authority: str) -> tuple[str, int | None]:
    if authority.startswith("["):
        close = authority.find("]")
        if close < 0:
            raise UrlError("an unterminated IPv6 address")
        host, after = authority[: close + 1], authority[close + 1 :]
        if after == "":
            return host, None
        if not after.startswith(":"):
            raise UrlError("an invalid port")
        port_text = after[1:]
    else:
        colon = authority.rfind(":")
        if colon < 0:
            return authority, None
        host, port_text = authority[:colon], authority[colon + 1 :]
    if port_text == "":
        return host, None
    if not port_text.isascii() or not port_text.isdigit() or int(port_text) > 65535:
        raise UrlError("an invalid port")
    return host, int(port_text)


def resolve_reference(base: Url, reference: str) -> Url:
    """Resolve a URL reference (a ``Location``, a ``Link`` target) against ``base`` (RFC 3986 §5).

    User info in the result is kept as a flag (``has_userinfo``) so that the caller can refuse it.
    """
    cleaned = _clean(reference)
    if _SCHEME.match(cleaned):
        return parse_absolute_url(cleaned, allow_userinfo=True)
    joined = urljoin(base.href, cleaned)
    return parse_absolute_url(joined, allow_userinfo=True)


def strip_userinfo(text: str) -> str:
    """``text`` with any ``user:pass@`` removed, for messages about an option or URL."""
    return re.sub(r"^([A-Za-z][A-Za-z0-9+.\-]*://)[^/?#@]*@", r"\1", text)


def parse_origin(text: str) -> str:
    """An exact origin (``scheme://host[:port]``, nothing else); raises :class:`UrlError` otherwise."""
    match = re.match(r"^([A-Za-z][A-Za-z0-9+.\-]*)://([^/?#]*)$", text)
    if match is None:
        raise UrlError("not an origin (scheme://host[:port], no path, query or fragment)")
    if "@" in match.group(2):
        raise UrlError("an origin with user info")
    if "*" in match.group(2):
        raise UrlError("an origin with a wildcard")
    url = parse_absolute_url(text)
    return url.origin
