"""JSON as the protocol sees it: JavaScript's number and string forms, strict parsing, pointers.

RCP's wire forms are written in terms of ``JSON.stringify`` and ``String(value)`` (SPEC §7). Python's
``json`` module writes ``1.0`` where JavaScript writes ``1`` and ``1e-07`` where it writes ``1e-7``, so
this module writes numbers and strings the JavaScript way, once, for every position that sends them.
"""

from __future__ import annotations

import json
import math
import re
from decimal import Decimal
from typing import Any

#: A JSON value as parsed by :func:`parse_json` (dict, list, str, int, float, bool or None).
Json = Any

MAX_SAFE_INTEGER = 2**53 - 1


def is_number(value: object) -> bool:
    """True for an int or float that is not a bool (Python's bool is an int)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def is_finite_number(value: object) -> bool:
    """True for a number that is not NaN or ±Infinity."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return True
    return isinstance(value, float) and math.isfinite(value)


def is_safe_integer(value: object) -> bool:
    """JavaScript's ``Number.isSafeInteger``: an integral number within ±(2^53 − 1)."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return abs(value) <= MAX_SAFE_INTEGER
    return isinstance(value, float) and math.isfinite(value) and value.is_integer() and abs(value) <= MAX_SAFE_INTEGER


def json_type_name(value: object) -> str:
    """The JSON type of a value as issue messages name it: ``integer`` for an integral number."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "integer" if math.isfinite(value) and value.is_integer() else "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def js_number(value: int | float) -> str:
    """``String(n)`` of JavaScript for a finite number (the shortest round-trip digits).

    >>> js_number(1.0), js_number(1e-7), js_number(1e21), js_number(0.5)
    ('1', '1e-7', '1e+21', '0.5')
    """
    if isinstance(value, int) and not isinstance(value, bool):
        if abs(value) < 10**21:
            return str(value)
        value = float(value)
    if not math.isfinite(value):
        raise ValueError("not a finite number")
    if value == 0:
        return "0"
    sign = "-" if value < 0 else ""
    decimal = Decimal(repr(abs(value)))
    digits_tuple = decimal.as_tuple()
    digits = "".join(str(d) for d in digits_tuple.digits).rstrip("0") or "0"
    exponent = int(digits_tuple.exponent) + (len(digits_tuple.digits) - len(digits))
    k = len(digits)
    n = exponent + k
    if k <= n <= 21:
        return sign + digits + "0" * (n - k)
    if 0 < n <= 21:
        return sign + digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return sign + "0." + "0" * (-n) + digits
    e = n - 1
    mantissa = digits if k == 1 else digits[0] + "." + digits[1:]
    return f"{sign}{mantissa}e{'+' if e >= 0 else '-'}{abs(e)}"


def js_string(value: object) -> str:
    """``String(value)`` for the scalars a template may place: a string, a finite number, a boolean."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if is_number(value):
        return js_number(value)  # type: ignore[arg-type]
    raise TypeError("not a scalar")


_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}
_NEEDS_ESCAPE = re.compile('["\\\\\x00-\x1f\ud800-\udfff]')


def _escape_char(match: re.Match[str]) -> str:
    char = match.group(0)
    return _ESCAPES.get(char) or f"\\u{ord(char):04x}"


def quote_json_string(text: str) -> str:
    """A JSON string literal as ``JSON.stringify`` writes it (lone surrogates as ``\\udxxx``)."""
    return '"' + _NEEDS_ESCAPE.sub(_escape_char, text) + '"'


def stringify(value: Json) -> str:
    """``JSON.stringify(value)`` for JSON data: compact, numbers and strings as JavaScript writes them.

    Raises ``ValueError`` for NaN, ±Infinity and values that are not JSON (JSON.stringify would throw
    or silently write ``null``: RCP refuses instead).
    """
    parts: list[str] = []
    _write(value, parts, 0)
    return "".join(parts)


def _write(value: Json, parts: list[str], depth: int) -> None:
    if depth > 10_000:
        raise ValueError("too deep to serialise")
    if value is None:
        parts.append("null")
    elif value is True:
        parts.append("true")
    elif value is False:
        parts.append("false")
    elif isinstance(value, str):
        parts.append(quote_json_string(value))
    elif isinstance(value, (int, float)):
        if not is_finite_number(value):
            raise ValueError("a number that is not finite cannot be serialised")
        parts.append(js_number(value))
    elif isinstance(value, (list, tuple)):
        parts.append("[")
        for index, item in enumerate(value):
            if index:
                parts.append(",")
            _write(item, parts, depth + 1)
        parts.append("]")
    elif isinstance(value, dict):
        parts.append("{")
        first = True
        for key, item in value.items():
            if not isinstance(key, str):
                raise ValueError("object keys must be strings")
            if not first:
                parts.append(",")
            first = False
            parts.append(quote_json_string(key))
            parts.append(":")
            _write(item, parts, depth + 1)
        parts.append("}")
    else:
        raise ValueError(f"a {type(value).__name__} is not JSON")


def _refuse_constant(name: str) -> Json:
    raise ValueError(f"{name} is not JSON")


def parse_json(text: str) -> Json:
    """Parse JSON text strictly (no NaN/Infinity), as ``JSON.parse`` would; a leading BOM is not allowed here."""
    return json.loads(text, parse_constant=_refuse_constant)


def json_error_position(error: Exception) -> str:
    """The position of a parse error, never the text around it (the parser may quote the input)."""
    if isinstance(error, json.JSONDecodeError):
        return f"at line {error.lineno} column {error.colno}"
    return "at an unknown position"


def strict_equal(a: object, b: object) -> bool:
    """JavaScript's ``===`` on JSON scalars: a boolean never equals a number."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if is_number(a) and is_number(b):
        return a == b
    if isinstance(a, str) and isinstance(b, str):
        return a == b
    return a is None and b is None


def json_equal(a: object, b: object) -> bool:
    """Deep equality of JSON values with JavaScript's number semantics (``1 == 1.0``, never ``True == 1``)."""
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(json_equal(a[key], b[key]) for key in a)
    if isinstance(a, (list, dict)) or isinstance(b, (list, dict)):
        return False
    return strict_equal(a, b)


def escape_pointer_segment(segment: str | int) -> str:
    """One RFC 6901 reference token (``~`` as ``~0``, ``/`` as ``~1``)."""
    return str(segment).replace("~", "~0").replace("/", "~1")


def pointer(*segments: str | int) -> str:
    """An RFC 6901 JSON Pointer from its segments; no segment is the whole document, ``""``."""
    return "".join("/" + escape_pointer_segment(segment) for segment in segments)


def join_pointer(base: str, *segments: str | int) -> str:
    """``base`` extended by more segments."""
    return base + pointer(*segments)


def pointer_sort_key(path: str) -> tuple[tuple[int, int, str], ...]:
    """Order pointers segment by segment: array indexes numerically, names by code point, a parent first."""
    if path == "":
        return ()
    key: list[tuple[int, int, str]] = []
    for raw in path[1:].split("/"):
        segment = raw.replace("~1", "/").replace("~0", "~")
        if segment.isdigit() and segment.isascii():
            key.append((0, int(segment), ""))
        else:
            key.append((1, 0, segment))
    return tuple(key)


def deep_copy(value: Json) -> Json:
    """A fresh copy of JSON data (dicts and lists), so a result never shares state with its input."""
    if isinstance(value, dict):
        return {key: deep_copy(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [deep_copy(item) for item in value]
    return value
