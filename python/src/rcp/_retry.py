"""The retry policy (SPEC §11 step 6), in one place: which attempts are retried, and how long to wait.

Only idempotent methods, only network errors and 408, 429, 502, 503, 504 by default; ``Retry-After`` honoured
up to 10 s (longer: no retry, its answer stands); otherwise ``min(100 · 2^(n−1), 1000)`` ms.
"""

from __future__ import annotations

import email.utils
import math
import re
import time
from dataclasses import dataclass, field
from typing import Callable, Union

DEFAULT_RETRY_METHODS = frozenset({"GET", "PUT", "DELETE", "HEAD", "OPTIONS"})
DEFAULT_RETRY_STATUSES = frozenset({408, 429, 502, 503, 504})
MAX_RETRY_AFTER_SECONDS = 10.0


@dataclass(frozen=True)
class StatusReason:
    """An attempt answered ``status``; ``retry_after`` is its ``Retry-After`` in seconds, when readable."""

    status: int
    retry_after: float | None = None


@dataclass(frozen=True)
class ErrorReason:
    """An attempt failed before an answer (a network error)."""

    error: BaseException


RetryReason = Union[StatusReason, ErrorReason]
#: ``delay(attempt, reason)`` → seconds; a non-finite or negative answer falls back to the backoff.
RetryDelay = Callable[[int, RetryReason], float]


@dataclass(frozen=True)
class RetryPolicy:
    """``limit`` retries after the first attempt, for ``methods``, on network errors and ``status_codes``."""

    limit: int = 2
    methods: frozenset[str] = DEFAULT_RETRY_METHODS
    status_codes: frozenset[int] = DEFAULT_RETRY_STATUSES
    delay: RetryDelay | None = field(default=None, compare=False)


def backoff(attempt: int) -> float:
    """The default wait before retry number ``attempt`` (1-based), in seconds."""
    return float(min(0.1 * 2 ** (attempt - 1), 1.0))


def parse_retry_after(value: str | None, now: float | None = None) -> float | None:
    """``Retry-After`` as seconds (a delay or an HTTP date; a past date is 0); ``None`` when unreadable.

    >>> parse_retry_after("120"), parse_retry_after("1.5"), parse_retry_after("Thu, 01 Jan 1970 00:00:00 GMT")
    (120.0, None, 0.0)
    """
    if value is None:
        return None
    text = value.strip()
    if re.fullmatch(r"\d+", text):
        return float(int(text))
    try:
        moment = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return None
    if moment is None or moment.tzinfo is None:
        return None
    current = time.time() if now is None else now
    return max(0.0, moment.timestamp() - current)


def retry_after_seconds(seconds: float | None) -> int | None:
    """The seconds an error reports (rounded up), [M11.1]."""
    return None if seconds is None else int(math.ceil(seconds))


def retry_wait(policy: RetryPolicy, method: str, attempt: int, reason: RetryReason, *, keyed: bool = False) -> float | None:
    """Seconds to wait before retry number ``attempt`` (1-based), or ``None``: no retry.

    ``keyed``: the request carries an idempotency key (SPEC §20.1), so it is retried as an idempotent request
    whatever its method, and on a 409 too (the first request with the key still runs).
    """
    if attempt > policy.limit or not (keyed or method.upper() in policy.methods):
        return None
    if isinstance(reason, StatusReason):
        if reason.status not in policy.status_codes and not (keyed and reason.status == 409):
            return None
        if reason.retry_after is not None:
            if reason.retry_after > MAX_RETRY_AFTER_SECONDS:
                return None
            if policy.delay is None:
                return reason.retry_after
    if policy.delay is not None:
        try:
            chosen = float(policy.delay(attempt, reason))
        except Exception:  # noqa: BLE001 - a failing delay function falls back to the backoff
            chosen = -1.0
        if math.isfinite(chosen) and chosen >= 0:
            return chosen
    return backoff(attempt)
