"""Where secrets may go (SPEC §12) and the private-network boundary (§12.1), in one place.

* :func:`classify_host` — the class of a host (``local``, ``private``, ``link-local``, ``public``), by address
  or by name, with IPv4 embedded in IPv6 classified by the IPv4 address.
* :class:`PublicSuffixList` — registrable domains for the same-site rule, never string matching.
* :class:`TrustPolicy` — one manifest's decisions: is an origin trusted with secrets, may a tool reach a host.
"""

from __future__ import annotations

import ipaddress
import os
from dataclasses import dataclass
from typing import Callable, Literal, Sequence

from ._url import Url

AddressClass = Literal["local", "private", "link-local", "public"]
#: An operator's own classifier: a host name (no brackets) → a class, or ``None`` for the built-in rule.
ClassifyAddress = Callable[[str], "AddressClass | None"]

_RANK = {"public": 0, "private": 1, "local": 2}
_PRIVATE_SUFFIXES = (".local", ".internal", ".home.arpa", ".lan")
_METADATA_NAMES = frozenset({"metadata", "metadata.google.internal", "metadata.goog", "instance-data", "instance-data.ec2.internal"})
_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")
_EC2_METADATA = ipaddress.IPv6Address("fd00:ec2::254")
_CGNAT = ipaddress.IPv4Network("100.64.0.0/10")

#: Where Debian's ``publicsuffix`` package installs the Public Suffix List.
SYSTEM_PUBLIC_SUFFIX_LIST = "/usr/share/publicsuffix/public_suffix_list.dat"


def classify_ip(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> AddressClass:
    """The class of an IP address (SPEC §12.1).

    >>> classify_ip(ipaddress.ip_address("::ffff:169.254.169.254")), classify_ip(ipaddress.ip_address("100.64.0.1"))
    ('link-local', 'private')
    """
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return classify_ip(address.ipv4_mapped)
        if address in _NAT64:
            return classify_ip(ipaddress.IPv4Address(int(address) & 0xFFFFFFFF))
        if address.sixtofour is not None:
            return classify_ip(address.sixtofour)
        if address == _EC2_METADATA:
            return "link-local"
    if address.is_loopback:
        return "local"
    if address.is_link_local:
        return "link-local"
    if isinstance(address, ipaddress.IPv4Address) and address in _CGNAT:
        return "private"
    if address.is_global and not address.is_multicast and not address.is_reserved and not address.is_unspecified:
        return "public"
    return "private"


def classify_name(host: str) -> AddressClass:
    """The class of a host name before any address is known (SPEC §12.1)."""
    name = host.rstrip(".").lower()
    if name == "localhost" or name.endswith(".localhost"):
        return "local"
    if name in _METADATA_NAMES:
        return "link-local"
    if any(name.endswith(suffix) for suffix in _PRIVATE_SUFFIXES):
        return "private"
    return "public"


def classify_host(hostname: str, classify_address: ClassifyAddress | None = None) -> AddressClass:
    """The class of a host as the URL parser leaves it (no brackets): the operator's classifier first,
    then the address, else the name.

    >>> classify_host("169.254.169.254"), classify_host("metadata.google.internal"), classify_host("example.com")
    ('link-local', 'link-local', 'public')
    """
    if classify_address is not None:
        answer = classify_address(hostname)
        if answer is not None:
            return answer
    try:
        return classify_ip(ipaddress.ip_address(hostname))
    except ValueError:
        return classify_name(hostname)


class PublicSuffixList:
    """The Public Suffix List (ICANN and private sections alike: ``a.github.io`` and ``b.github.io`` are two sites)."""

    def __init__(self, text: str) -> None:
        self._rules: set[str] = set()
        self._wildcards: set[str] = set()
        self._exceptions: set[str] = set()
        for line in text.splitlines():
            rule = line.strip().split(" ")[0] if line.strip() else ""
            if not rule or rule.startswith("//"):
                continue
            rule = _ascii_domain(rule)
            if rule.startswith("!"):
                self._exceptions.add(rule[1:])
            elif rule.startswith("*."):
                self._wildcards.add(rule[2:])
            else:
                self._rules.add(rule)

    def registrable_domain(self, host: str) -> str | None:
        """eTLD+1 of a domain name; ``None`` for an IP address, ``localhost`` or a public suffix itself."""
        name = host.rstrip(".").lower()
        if not name or name == "localhost" or name.endswith(".localhost") or _is_ip(name):
            return None
        labels = name.split(".")
        suffix_length = 1
        for start in range(len(labels)):
            candidate = ".".join(labels[start:])
            if candidate in self._exceptions:
                suffix_length = len(labels) - start - 1
                break
            parent = ".".join(labels[start + 1 :])
            if candidate in self._rules or (start + 1 < len(labels) and parent in self._wildcards):
                suffix_length = len(labels) - start
                break
        if len(labels) <= suffix_length:
            return None
        return ".".join(labels[-(suffix_length + 1) :])


def _ascii_domain(rule: str) -> str:
    prefix = ""
    for marker in ("!", "*."):
        if rule.startswith(marker):
            prefix, rule = marker, rule[len(marker) :]
    try:
        return prefix + (rule if rule.isascii() else rule.encode("idna").decode("ascii")).lower()
    except UnicodeError:
        return prefix + rule.lower()


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name.strip("[]"))
        return True
    except ValueError:
        return False


def load_public_suffix_list(path: str = SYSTEM_PUBLIC_SUFFIX_LIST) -> PublicSuffixList | None:
    """Read a Public Suffix List file; ``None`` when there is none (then no origin is trusted by site)."""
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as handle:
        return PublicSuffixList(handle.read())


@dataclass(frozen=True)
class Boundary:
    """The private-network rule for one manifest: its class and the operator's opt-ins."""

    manifest_class: AddressClass
    allow_private_network: bool | tuple[str, ...]
    classify_address: ClassifyAddress | None

    def listed(self, origin: str) -> bool:
        return isinstance(self.allow_private_network, tuple) and origin in self.allow_private_network

    def allows_class(self, origin: str, target: AddressClass) -> bool:
        """Whether a destination of class ``target`` may be called (a listed origin always may)."""
        if self.listed(origin):
            return True
        if target == "link-local":
            return False
        if target == "public" or self.allow_private_network is True:
            return True
        return _RANK[target] <= _RANK[self.manifest_class] if self.manifest_class != "link-local" else False

    def allows(self, url: Url) -> bool:
        return self.allows_class(url.origin, classify_host(url.hostname, self.classify_address))


class TrustPolicy:
    """Whether an origin may receive secrets for one manifest (SPEC §12): its own origin; for an ``https``
    manifest, an ``https`` origin of the same registrable domain; or an origin the operator lists."""

    def __init__(self, manifest_url: Url, trusted_origins: Sequence[str], public_suffixes: Callable[[], PublicSuffixList | None]) -> None:
        self._manifest = manifest_url
        self._trusted = frozenset(trusted_origins)
        self._public_suffixes = public_suffixes

    def trusts(self, url: Url) -> bool:
        if url.origin == self._manifest.origin or url.origin in self._trusted:
            return True
        if self._manifest.scheme != "https" or url.scheme != "https":
            return False
        if url.hostname == self._manifest.hostname:
            return True
        suffixes = self._public_suffixes()
        if suffixes is None:
            return False
        mine = suffixes.registrable_domain(self._manifest.hostname)
        return mine is not None and mine == suffixes.registrable_domain(url.hostname)
