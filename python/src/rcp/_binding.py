"""Binding checks at discovery (SPEC §10): near-miss resolver names and identity-looking params."""

from __future__ import annotations

_IDENTITY_WORDS = (
    "user", "tenant", "account", "org", "organization", "organisation", "customer", "learner", "member", "owner",
    "principal", "workspace", "student", "employee", "patient", "caller", "requester", "viewer", "actor", "person",
    "subject",
)
_IDENTITY_NAMES = frozenset(
    {word + suffix for word in _IDENTITY_WORDS for suffix in ("id", "uuid", "guid")}
    | {"uid", "email", "emailaddress"}
    | {word + email for word in _IDENTITY_WORDS for email in ("email", "emailaddress")}
)


def fold(name: str) -> str:
    """Lower case, without ``_`` and ``-``: ``user_ID`` → ``userid``."""
    return name.lower().replace("_", "").replace("-", "")


def looks_like_identity(name: str) -> bool:
    """Whether a param name looks like an identity (``userId``, ``tenant_id``, ``customer_email``, ``uid``).

    >>> looks_like_identity("userId"), looks_like_identity("org-uuid"), looks_like_identity("id")
    (True, True, False)
    """
    return fold(name) in _IDENTITY_NAMES


def _one_edit_apart(a: str, b: str) -> bool:
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        return sum(1 for x, y in zip(a, b) if x != y) == 1
    shorter, longer = (a, b) if len(a) < len(b) else (b, a)
    for index in range(len(longer)):
        if longer[:index] + longer[index + 1 :] == shorter:
            return True
    return False


def is_near_miss(resolver: str, param: str) -> bool:
    """Whether a resolver name nearly matches a param it does not fill (equal folded, or one edit apart
    when both folded names have at least 5 characters).

    >>> is_near_miss("usrId", "userId"), is_near_miss("lang", "long")
    (True, False)
    """
    if resolver == param:
        return False
    a, b = fold(resolver), fold(param)
    if a == b:
        return True
    return len(a) >= 5 and len(b) >= 5 and _one_edit_apart(a, b)
