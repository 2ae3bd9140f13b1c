"""Redaction, once (SPEC §14): every secret of a call, in every form an encoder writes it, becomes ``[redacted]``.

A secret is matched as written; JSON-escaped by any encoder (each character as itself or ``\\uXXXX`` in
either case of hex, astral characters as surrogate pairs, ``/`` as ``\\/``, ``"`` and ``\\`` escaped); the
same escaped once more (a JSON string inside a JSON string); percent-encoded; and lower-cased.
"""

from __future__ import annotations

import re
from typing import Iterable

from ._json import Json
from ._template import percent_encode

REDACTED = "[redacted]"
_SHORT_ESCAPES = {"\b": "b", "\f": "f", "\n": "n", "\r": "r", "\t": "t", '"': '"', "\\": "\\", "/": "/"}


def _hex_class(digit: str) -> str:
    return f"[{digit.lower()}{digit.upper()}]" if digit.isalpha() else digit


def _code_units(char: str) -> list[int]:
    code = ord(char)
    if code <= 0xFFFF:
        return [code]
    code -= 0x10000
    return [0xD800 + (code >> 10), 0xDC00 + (code & 0x3FF)]


def _json_spellings(char: str) -> list[str]:
    """Regex alternatives for one character inside a JSON string (one level of escaping)."""
    options: list[str] = []
    if char not in ('"', "\\") and ord(char) >= 0x20:
        options.append(re.escape(char))
    if char in _SHORT_ESCAPES:
        options.append(re.escape("\\" + _SHORT_ESCAPES[char]))
    units = _code_units(char)
    options.append("".join(re.escape("\\u") + "".join(_hex_class(d) for d in f"{unit:04x}") for unit in units))
    return options


def _escape_again(pattern_alternative: str) -> str:
    """An alternative of level one, escaped once more: each backslash doubled, each quote escaped."""
    return pattern_alternative.replace(re.escape("\\"), re.escape("\\\\")).replace(re.escape('"'), re.escape('\\"'))


def _secret_pattern(secret: str) -> str:
    level_one = [_json_spellings(char) for char in secret]
    plain = re.escape(secret)
    json_once = "".join(f"(?:{'|'.join(options)})" for options in level_one)
    json_twice = "".join(f"(?:{'|'.join(_escape_again(option) for option in options)})" for options in level_one)
    forms = [plain, json_once, json_twice, re.escape(secret.lower())]
    try:
        forms.append(_percent_pattern(percent_encode(secret)))
        forms.append(_percent_pattern(percent_encode(secret.lower())))
    except UnicodeEncodeError:
        pass
    return "|".join(f"(?:{form})" for form in sorted(set(forms), key=len, reverse=True))


def _percent_pattern(encoded: str) -> str:
    """The percent-encoded form, its hex digits in either case."""
    out: list[str] = []
    index = 0
    while index < len(encoded):
        if encoded[index] == "%":
            out.append("%" + _hex_class(encoded[index + 1]) + _hex_class(encoded[index + 2]))
            index += 3
        else:
            out.append(re.escape(encoded[index]))
            index += 1
    return "".join(out)


class Redactor:
    """Replaces every form of a call's secrets; built once per call from the credential and resolver values."""

    def __init__(self, secrets: Iterable[str]) -> None:
        unique = sorted({secret for secret in secrets if secret}, key=len, reverse=True)
        self.secrets = tuple(unique)
        self._pattern = re.compile("|".join(f"(?:{_secret_pattern(secret)})" for secret in unique)) if unique else None

    def __bool__(self) -> bool:
        return self._pattern is not None

    def text(self, value: str) -> str:
        """``value`` with every secret replaced."""
        return value if self._pattern is None else self._pattern.sub(REDACTED, value)

    def found_in(self, value: str) -> bool:
        return self._pattern is not None and self._pattern.search(value) is not None

    def data(self, value: Json) -> Json:
        """A copy of JSON data with every string (keys too) redacted."""
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, list):
            return [self.data(item) for item in value]
        if isinstance(value, dict):
            return {self.text(key): self.data(item) for key, item in value.items()}
        return value


def scalar_secret(value: object) -> str | None:
    """The text form of a resolver value that is redacted as a secret (strings, numbers, booleans; objects as JSON leaves)."""
    from ._json import is_finite_number, js_string

    if isinstance(value, str):
        return value
    if isinstance(value, bool) or is_finite_number(value):
        return js_string(value)
    return None


def secret_strings(value: object) -> list[str]:
    """Every scalar inside a resolver value, as text (an object's or array's leaves are secrets too)."""
    if isinstance(value, dict):
        return [text for item in value.values() for text in secret_strings(item)]
    if isinstance(value, list):
        return [text for item in value for text in secret_strings(item)]
    text = scalar_secret(value)
    return [text] if text else []
