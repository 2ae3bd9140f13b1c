"""Regular expressions from manifests: the safety rule of SPEC §9 and a translation to Python's ``re``.

A param's ``pattern`` and the pattern of a JSONPath ``match()`` / ``search()`` are written in ECMAScript's
syntax (with the ``u`` flag). They are parsed here once, refused when they could backtrack exponentially
(more than 256 characters, a backreference, a lookaround, a quantifier or alternation inside a repeated
group), and otherwise translated to an equivalent Python expression: Python's ``\\d``, ``\\w``, ``$`` and
``.`` mean other things than ECMAScript's, so nothing is passed through as written.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Literal

MAX_PATTERN_LENGTH = 256

DotMode = Literal["ecmascript", "iregexp"]

_SYNTAX_CHARACTERS = set("^$\\.*+?()[]{}|/")
_JS_WHITESPACE = "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
_WORD = "A-Za-z0-9_"
_WORD_CLASS = "[A-Za-z0-9_]"
_GENERAL_CATEGORIES = {
    "L", "Lu", "Ll", "Lt", "Lm", "Lo", "LC", "M", "Mn", "Mc", "Me", "N", "Nd", "Nl", "No", "P", "Pc", "Pd", "Ps", "Pe",
    "Pi", "Pf", "Po", "S", "Sm", "Sc", "Sk", "So", "Z", "Zs", "Zl", "Zp", "C", "Cc", "Cf", "Cs", "Co", "Cn",
}
_CATEGORY_ALIASES = {
    "Letter": "L", "Cased_Letter": "LC", "Uppercase_Letter": "Lu", "Lowercase_Letter": "Ll", "Titlecase_Letter": "Lt",
    "Modifier_Letter": "Lm", "Other_Letter": "Lo", "Mark": "M", "Nonspacing_Mark": "Mn", "Spacing_Mark": "Mc",
    "Enclosing_Mark": "Me", "Number": "N", "Decimal_Number": "Nd", "digit": "Nd", "Letter_Number": "Nl",
    "Other_Number": "No", "Punctuation": "P", "punct": "P", "Connector_Punctuation": "Pc", "Dash_Punctuation": "Pd",
    "Open_Punctuation": "Ps", "Close_Punctuation": "Pe", "Initial_Punctuation": "Pi", "Final_Punctuation": "Pf",
    "Other_Punctuation": "Po", "Symbol": "S", "Math_Symbol": "Sm", "Currency_Symbol": "Sc", "Modifier_Symbol": "Sk",
    "Other_Symbol": "So", "Separator": "Z", "Space_Separator": "Zs", "Line_Separator": "Zl",
    "Paragraph_Separator": "Zp", "Other": "C", "Control": "Cc", "cntrl": "Cc", "Format": "Cf", "Surrogate": "Cs",
    "Private_Use": "Co", "Unassigned": "Cn",
}


class RegexRefused(Exception):
    """A pattern that is not valid ECMAScript, or that the safety rule refuses; the message says which."""


def _char(code_point: int) -> str:
    """One code point as a Python regex literal, escaped whatever it is."""
    char = chr(code_point)
    if char.isascii() and char.isalnum():
        return char
    return f"\\U{code_point:08x}"


def _category_ranges(category: str) -> str:
    """The code point ranges of a Unicode general category (one or two letters) as class text."""
    parts: list[str] = []
    start = -1
    for code_point in range(0x110000 + 1):
        inside = code_point <= 0x10FFFF and _in_category(code_point, category)
        if inside and start < 0:
            start = code_point
        elif not inside and start >= 0:
            end = code_point - 1
            parts.append(_char(start) if start == end else f"{_char(start)}-{_char(end)}")
            start = -1
    return "".join(parts)


def _in_category(code_point: int, category: str) -> bool:
    actual = unicodedata.category(chr(code_point))
    if category == "LC":
        return actual in ("Lu", "Ll", "Lt")
    return actual == category if len(category) == 2 else actual[0] == category


@dataclass
class _Atom:
    text: str
    is_group: bool = False
    has_quantifier: bool = False
    has_alternation: bool = False


@dataclass
class _ClassItems:
    positive: list[str] = field(default_factory=list)
    extra: list[str] = field(default_factory=list)


class _Parser:
    def __init__(self, source: str, dot: DotMode) -> None:
        self.source = source
        self.position = 0
        self.dot = dot

    def fail(self, message: str) -> RegexRefused:
        return RegexRefused(f"{message} (at character {self.position})")

    def peek(self, offset: int = 0) -> str:
        index = self.position + offset
        return self.source[index] if index < len(self.source) else ""

    def parse(self) -> str:
        atom = self.disjunction()
        if self.position < len(self.source):
            raise self.fail("unbalanced parenthesis")
        return atom.text

    def disjunction(self) -> _Atom:
        alternatives = [self.alternative()]
        while self.peek() == "|":
            self.position += 1
            alternatives.append(self.alternative())
        text = "|".join(alt.text for alt in alternatives)
        return _Atom(
            text=text,
            has_quantifier=any(alt.has_quantifier for alt in alternatives),
            has_alternation=len(alternatives) > 1 or any(alt.has_alternation for alt in alternatives),
        )

    def alternative(self) -> _Atom:
        parts: list[str] = []
        has_quantifier = False
        has_alternation = False
        while self.position < len(self.source) and self.peek() not in ("|", ")"):
            term = self.term()
            parts.append(term.text)
            has_quantifier = has_quantifier or term.has_quantifier
            has_alternation = has_alternation or term.has_alternation
        return _Atom("".join(parts), has_quantifier=has_quantifier, has_alternation=has_alternation)

    def term(self) -> _Atom:
        char = self.peek()
        if char == "^":
            self.position += 1
            return _Atom("^")
        if char == "$":
            self.position += 1
            return _Atom(r"\Z")
        if char == "\\" and self.peek(1) in ("b", "B"):
            boundary = self.peek(1)
            self.position += 2
            inside = f"(?<={_WORD_CLASS})(?!{_WORD_CLASS})|(?<!{_WORD_CLASS})(?={_WORD_CLASS})"
            return _Atom(f"(?:{inside})" if boundary == "b" else f"(?!{inside})")
        atom = self.atom()
        quantifier = self.quantifier()
        if quantifier is None:
            return atom
        text, repeats = quantifier
        if repeats and atom.is_group and (atom.has_quantifier or atom.has_alternation):
            raise self.fail("a quantifier or alternation inside a repeated group can backtrack exponentially")
        return _Atom(f"(?:{atom.text}){text}", has_quantifier=True, has_alternation=atom.has_alternation)

    def quantifier(self) -> tuple[str, bool] | None:
        char = self.peek()
        text: str
        repeats: bool
        if char in ("*", "+"):
            self.position += 1
            text, repeats = char, True
        elif char == "?":
            self.position += 1
            text, repeats = "?", False
        elif char == "{":
            match = re.compile(r"\{(\d+)(,(\d*))?\}").match(self.source, self.position)
            if match is None:
                raise self.fail("a lone '{' is not allowed")
            low = int(match.group(1))
            high = match.group(3)
            if match.group(2) is None:
                repeats = low > 1
            elif high == "":
                repeats = True
            else:
                if int(high) < low:
                    raise self.fail("numbers out of order in a quantifier")
                repeats = int(high) > 1
            self.position = match.end()
            text = match.group(0)
        else:
            return None
        if self.peek() == "?":
            self.position += 1
            text += "?"
        if self.peek() in ("*", "+", "?", "{") and not (self.peek() == "{" and re.compile(r"\{\d").match(self.source, self.position) is None):
            raise self.fail("nothing to repeat")
        return text, repeats

    def atom(self) -> _Atom:
        char = self.peek()
        if char == "(":
            return self.group()
        if char == ".":
            self.position += 1
            return _Atom(r"[^\n\r]" if self.dot == "iregexp" else r"[^\n\r\u2028\u2029]")
        if char == "[":
            return _Atom(self.character_class())
        if char == "\\":
            return _Atom(self.atom_escape())
        if char in ("*", "+", "?"):
            raise self.fail("nothing to repeat")
        if char in ("{", "}", "]"):
            raise self.fail(f"a lone '{char}' is not allowed")
        if char == ")":
            raise self.fail("unbalanced parenthesis")
        code_point = ord(char)
        self.position += 1
        return _Atom(_char(code_point))

    def group(self) -> _Atom:
        self.position += 1
        if self.peek() == "?":
            kind = self.peek(1)
            if kind == ":":
                self.position += 2
            elif kind in ("=", "!") or (kind == "<" and self.peek(2) in ("=", "!")):
                raise self.fail("a lookaround is not allowed")
            elif kind == "<":
                match = re.compile(r"<([A-Za-z_$][A-Za-z0-9_$]*)>").match(self.source, self.position + 1)
                if match is None:
                    raise self.fail("an invalid group name")
                self.position = match.end()
            else:
                raise self.fail("an invalid group")
        inner = self.disjunction()
        if self.peek() != ")":
            raise self.fail("unterminated group")
        self.position += 1
        return _Atom(f"(?:{inner.text})", is_group=True, has_quantifier=inner.has_quantifier, has_alternation=inner.has_alternation)

    def atom_escape(self) -> str:
        self.position += 1
        char = self.peek()
        if char == "":
            raise self.fail("a trailing backslash")
        if char.isdigit() and char != "0":
            raise self.fail("a backreference is not allowed")
        if char == "k":
            raise self.fail("a backreference is not allowed")
        class_escape = self.class_escape_text(char)
        if class_escape is not None:
            return class_escape
        return _char(self.character_escape())

    def class_escape_text(self, char: str) -> str | None:
        """``\\d \\D \\s \\S \\w \\W \\p{…} \\P{…}`` as a Python atom; ``None`` for any other escape."""
        if char == "d":
            self.position += 1
            return "[0-9]"
        if char == "D":
            self.position += 1
            return "[^0-9]"
        if char == "w":
            self.position += 1
            return f"[{_WORD}]"
        if char == "W":
            self.position += 1
            return f"[^{_WORD}]"
        if char == "s":
            self.position += 1
            return "[" + "".join(_char(ord(c)) for c in _JS_WHITESPACE) + "]"
        if char == "S":
            self.position += 1
            return "[^" + "".join(_char(ord(c)) for c in _JS_WHITESPACE) + "]"
        if char in ("p", "P"):
            negated = char == "P"
            match = re.compile(r"\{([A-Za-z_]+)(?:=([A-Za-z_]+))?\}").match(self.source, self.position + 1)
            if match is None:
                raise self.fail("an invalid property escape")
            name, value = match.group(1), match.group(2)
            if value is not None:
                if name not in ("General_Category", "gc"):
                    raise self.fail(f"the property {name} is not supported")
                name = value
            category = _CATEGORY_ALIASES.get(name, name)
            if category not in _GENERAL_CATEGORIES:
                raise self.fail(f"the property {name} is not supported")
            self.position = match.end()
            ranges = _category_ranges(category)
            if not ranges:
                return "[^\\x00-\\U0010ffff]" if not negated else "(?s:.)"
            return f"[{'^' if negated else ''}{ranges}]"
        return None

    def character_escape(self) -> int:
        """A character escape after the backslash; returns its code point."""
        char = self.peek()
        simple = {"t": 9, "n": 10, "v": 11, "f": 12, "r": 13}
        if char in simple:
            self.position += 1
            return simple[char]
        if char == "0":
            if self.peek(1).isdigit():
                raise self.fail("an octal escape is not allowed")
            self.position += 1
            return 0
        if char == "c":
            letter = self.peek(1)
            if not (letter.isascii() and letter.isalpha()):
                raise self.fail("an invalid control escape")
            self.position += 2
            return ord(letter) % 32
        if char == "x":
            match = re.compile(r"[0-9A-Fa-f]{2}").match(self.source, self.position + 1)
            if match is None:
                raise self.fail("an invalid \\x escape")
            self.position = match.end()
            return int(match.group(0), 16)
        if char == "u":
            braced = re.compile(r"\{([0-9A-Fa-f]+)\}").match(self.source, self.position + 1)
            if braced is not None:
                value = int(braced.group(1), 16)
                if value > 0x10FFFF:
                    raise self.fail("a code point above U+10FFFF")
                self.position = braced.end()
                return value
            match = re.compile(r"[0-9A-Fa-f]{4}").match(self.source, self.position + 1)
            if match is None:
                raise self.fail("an invalid \\u escape")
            self.position = match.end()
            value = int(match.group(0), 16)
            if 0xD800 <= value <= 0xDBFF:
                low = re.compile(r"\\u(D[C-Fc-f][0-9A-Fa-f]{2})").match(self.source, self.position)
                if low is not None:
                    self.position = low.end()
                    return 0x10000 + ((value - 0xD800) << 10) + (int(low.group(1), 16) - 0xDC00)
            return value
        if char in _SYNTAX_CHARACTERS or char == "-":
            self.position += 1
            return ord(char)
        raise self.fail(f"an invalid escape \\{char}")

    def character_class(self) -> str:
        self.position += 1
        negated = False
        if self.peek() == "^":
            negated = True
            self.position += 1
        items = _ClassItems()
        while True:
            char = self.peek()
            if char == "":
                raise self.fail("unterminated character class")
            if char == "]":
                self.position += 1
                break
            low = self.class_atom(items)
            if low is None:
                continue
            if self.peek() == "-" and self.peek(1) not in ("]", ""):
                self.position += 1
                high = self.class_atom(items)
                if high is None:
                    raise self.fail("a class escape cannot bound a range")
                if high < low:
                    raise self.fail("range out of order in character class")
                items.positive.append(f"{_char(low)}-{_char(high)}")
            else:
                items.positive.append(_char(low))
        positive = "".join(items.positive)
        if not items.extra:
            if not positive:
                return "(?s:.)" if negated else "[^\\x00-\\U0010ffff]"
            return f"[{'^' if negated else ''}{positive}]"
        alternatives = ([f"[{positive}]"] if positive else []) + items.extra
        union = "|".join(alternatives)
        return f"(?:(?!{union})(?s:.))" if negated else f"(?:{union})"

    def class_atom(self, items: _ClassItems) -> int | None:
        """One class member: its code point, or ``None`` after adding a class escape to ``items``."""
        char = self.peek()
        if char != "\\":
            self.position += 1
            return ord(char)
        self.position += 1
        escaped = self.peek()
        if escaped == "b":
            self.position += 1
            return 8
        if escaped in ("d", "w"):
            self.position += 1
            items.positive.append("0-9" if escaped == "d" else _WORD)
            return None
        if escaped == "s":
            self.position += 1
            items.positive.append("".join(_char(ord(c)) for c in _JS_WHITESPACE))
            return None
        class_escape = self.class_escape_text(escaped)
        if class_escape is not None:
            items.extra.append(class_escape)
            return None
        if escaped.isdigit() and escaped != "0":
            raise self.fail("a backreference is not allowed")
        return self.character_escape()


def _utf16_length(text: str) -> int:
    return len(text) + sum(1 for char in text if ord(char) > 0xFFFF)


def compile_pattern(source: str, *, dot: DotMode = "ecmascript") -> re.Pattern[str]:
    """Parse an ECMAScript (``u`` flag) pattern, apply the safety rule, and compile its Python translation.

    ``dot="iregexp"`` gives ``.`` the meaning of RFC 9485 (every character but CR and LF), as JSONPath's
    ``match()`` and ``search()`` need. Raises :class:`RegexRefused` with the reason.

    >>> bool(compile_pattern("^[A-Z]{2}-[0-9]+$").search("AB-12"))
    True
    """
    if _utf16_length(source) > MAX_PATTERN_LENGTH:
        raise RegexRefused(f"a pattern may have at most {MAX_PATTERN_LENGTH} characters")
    translated = _Parser(source, dot).parse()
    try:
        return re.compile(translated)
    except re.error as error:  # pragma: no cover - the parser only emits valid Python syntax
        raise RegexRefused(f"not a valid regular expression ({error})") from None
