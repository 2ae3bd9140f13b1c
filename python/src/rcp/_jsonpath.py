"""RFC 9535 JSONPath: a parser and an evaluator of this package's own (no code is ever executed).

Response mappings (SPEC §9) and pagination paths (§18.4) are parsed once, when a manifest loads, into a
:class:`JsonPath`. The pattern of ``match()`` / ``search()`` must be a string literal that passes the
regular-expression safety rule (:mod:`rcp._regex`); a pattern taken from the document is refused.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Literal, Union

from ._json import Json, is_number, json_equal
from ._regex import RegexRefused, compile_pattern

MAX_INDEX = 2**53 - 1


class JsonPathSyntaxError(Exception):
    """A query that is not valid RFC 9535 (or whose regular expression is refused); the message says where."""


class _Nothing:
    """The special result "Nothing" of RFC 9535 §2.4.1 (no value)."""

    def __repr__(self) -> str:
        return "Nothing"


NOTHING = _Nothing()

# --- AST -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class NameSelector:
    name: str


@dataclass(frozen=True)
class WildcardSelector:
    pass


@dataclass(frozen=True)
class IndexSelector:
    index: int


@dataclass(frozen=True)
class SliceSelector:
    start: int | None
    end: int | None
    step: int | None


@dataclass(frozen=True)
class FilterSelector:
    expression: "LogicalExpr"


Selector = Union[NameSelector, WildcardSelector, IndexSelector, SliceSelector, FilterSelector]


@dataclass(frozen=True)
class Segment:
    selectors: tuple[Selector, ...]
    descendant: bool


@dataclass(frozen=True)
class Query:
    relative: bool
    segments: tuple[Segment, ...]

    @property
    def singular(self) -> bool:
        return all(
            not segment.descendant and len(segment.selectors) == 1 and isinstance(segment.selectors[0], (NameSelector, IndexSelector))
            for segment in self.segments
        )


@dataclass(frozen=True)
class Literal_:
    value: Json


@dataclass(frozen=True)
class FunctionCall:
    name: str
    arguments: tuple["Expr", ...]
    pattern: object = None  # the compiled pattern of match()/search()


@dataclass(frozen=True)
class Comparison:
    left: "Expr"
    operator: str
    right: "Expr"


@dataclass(frozen=True)
class Not:
    operand: "LogicalExpr"


@dataclass(frozen=True)
class And:
    operands: tuple["LogicalExpr", ...]


@dataclass(frozen=True)
class Or:
    operands: tuple["LogicalExpr", ...]


@dataclass(frozen=True)
class Test:
    """An existence test of a filter query, or a function whose result is logical or a node list."""

    operand: Union[Query, FunctionCall]


LogicalExpr = Union[Comparison, Not, And, Or, Test]
Expr = Union[Literal_, Query, FunctionCall, Comparison, Not, And, Or, Test]

ExprType = Literal["value", "logical", "nodes"]

_FUNCTIONS: dict[str, tuple[tuple[ExprType, ...], ExprType]] = {
    "length": (("value",), "value"),
    "count": (("nodes",), "value"),
    "match": (("value", "value"), "logical"),
    "search": (("value", "value"), "logical"),
    "value": (("nodes",), "value"),
}

# --- parser --------------------------------------------------------------------------------------

_BLANK = " \t\n\r"


def _is_name_first(char: str) -> bool:
    if not char:
        return False
    code = ord(char)
    return char.isascii() and (char.isalpha() or char == "_") or code >= 0x80 and not (0xD800 <= code <= 0xDFFF)


def _is_name_char(char: str) -> bool:
    return _is_name_first(char) or (char.isascii() and char.isdigit())


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.position = 0

    def fail(self, message: str) -> JsonPathSyntaxError:
        return JsonPathSyntaxError(f"{message} at character {self.position}")

    def peek(self, offset: int = 0) -> str:
        index = self.position + offset
        return self.text[index] if index < len(self.text) else ""

    def skip_blank(self) -> None:
        while self.peek() and self.peek() in _BLANK:
            self.position += 1

    def expect(self, literal: str) -> None:
        if not self.text.startswith(literal, self.position):
            raise self.fail(f"expected {literal!r}")
        self.position += len(literal)

    def parse_query(self) -> Query:
        if self.peek() != "$":
            raise self.fail("a query starts with $")
        self.position += 1
        segments = self.segments()
        if self.position != len(self.text):
            raise self.fail("unexpected text")
        return Query(False, segments)

    def segments(self) -> tuple[Segment, ...]:
        segments: list[Segment] = []
        while True:
            mark = self.position
            self.skip_blank()
            char = self.peek()
            if char == "." and self.peek(1) == ".":
                self.position += 2
                segments.append(self.descendant_segment())
            elif char == ".":
                self.position += 1
                segments.append(self.dot_segment(False))
            elif char == "[":
                segments.append(Segment(self.bracketed_selection(), False))
            else:
                self.position = mark
                return tuple(segments)

    def descendant_segment(self) -> Segment:
        if self.peek() == "[":
            return Segment(self.bracketed_selection(), True)
        return self.dot_segment(True)

    def dot_segment(self, descendant: bool) -> Segment:
        if self.peek() == "*":
            self.position += 1
            return Segment((WildcardSelector(),), descendant)
        if not _is_name_first(self.peek()):
            raise self.fail("expected a member name")
        start = self.position
        while _is_name_char(self.peek()):
            self.position += 1
        return Segment((NameSelector(self.text[start : self.position]),), descendant)

    def bracketed_selection(self) -> tuple[Selector, ...]:
        self.expect("[")
        selectors: list[Selector] = []
        while True:
            self.skip_blank()
            selectors.append(self.selector())
            self.skip_blank()
            if self.peek() == ",":
                self.position += 1
                continue
            if self.peek() == "]":
                self.position += 1
                return tuple(selectors)
            raise self.fail("expected ',' or ']'")

    def selector(self) -> Selector:
        char = self.peek()
        if char in ("'", '"'):
            return NameSelector(self.string_literal())
        if char == "*":
            self.position += 1
            return WildcardSelector()
        if char == "?":
            self.position += 1
            self.skip_blank()
            return FilterSelector(self.logical_or())
        if char == ":" or char == "-" or char.isdigit():
            return self.index_or_slice()
        raise self.fail("expected a selector")

    def integer(self) -> int:
        start = self.position
        if self.peek() == "-":
            self.position += 1
        if self.peek() == "0":
            self.position += 1
            if self.text[start] == "-":
                raise self.fail("-0 is not an index")
        elif self.peek().isdigit() and self.peek().isascii():
            while self.peek().isdigit() and self.peek().isascii():
                self.position += 1
        else:
            raise self.fail("expected an integer")
        value = int(self.text[start : self.position])
        if abs(value) > MAX_INDEX:
            raise self.fail("an integer out of range")
        return value

    def index_or_slice(self) -> Selector:
        start: int | None = None
        if self.peek() != ":":
            start = self.integer()
            self.skip_blank()
            if self.peek() != ":":
                return IndexSelector(start)
        self.position += 1
        self.skip_blank()
        end: int | None = None
        step: int | None = None
        if self.peek() == "-" or self.peek().isdigit():
            end = self.integer()
            self.skip_blank()
        if self.peek() == ":":
            self.position += 1
            self.skip_blank()
            if self.peek() == "-" or self.peek().isdigit():
                step = self.integer()
        return SliceSelector(start, end, step)

    def string_literal(self) -> str:
        quote = self.peek()
        self.position += 1
        out: list[str] = []
        while True:
            char = self.peek()
            if char == "":
                raise self.fail("unterminated string")
            if char == quote:
                self.position += 1
                return "".join(out)
            if char == "\\":
                out.append(self.string_escape(quote))
                continue
            if ord(char) < 0x20:
                raise self.fail("a control character in a string")
            out.append(char)
            self.position += 1

    def string_escape(self, quote: str) -> str:
        self.position += 1
        char = self.peek()
        simple = {"b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "/": "/", "\\": "\\", quote: quote}
        if char in simple and char:
            self.position += 1
            return simple[char]
        if char == "u":
            high = self.hex4()
            if 0xDC00 <= high <= 0xDFFF:
                raise self.fail("a lone low surrogate")
            if 0xD800 <= high <= 0xDBFF:
                if not self.text.startswith("\\u", self.position):
                    raise self.fail("a lone high surrogate")
                self.position += 1
                low = self.hex4()
                if not 0xDC00 <= low <= 0xDFFF:
                    raise self.fail("a lone high surrogate")
                return chr(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
            return chr(high)
        raise self.fail("an invalid escape")

    def hex4(self) -> int:
        digits = self.text[self.position + 1 : self.position + 5]
        if len(digits) != 4 or any(c not in "0123456789abcdefABCDEF" for c in digits):
            raise self.fail("an invalid \\u escape")
        self.position += 5
        return int(digits, 16)

    # filter expressions

    def logical_or(self) -> LogicalExpr:
        operands = [self.logical_and()]
        while True:
            mark = self.position
            self.skip_blank()
            if self.text.startswith("||", self.position):
                self.position += 2
                self.skip_blank()
                operands.append(self.logical_and())
            else:
                self.position = mark
                break
        return operands[0] if len(operands) == 1 else Or(tuple(operands))

    def logical_and(self) -> LogicalExpr:
        operands = [self.basic()]
        while True:
            mark = self.position
            self.skip_blank()
            if self.text.startswith("&&", self.position):
                self.position += 2
                self.skip_blank()
                operands.append(self.basic())
            else:
                self.position = mark
                break
        return operands[0] if len(operands) == 1 else And(tuple(operands))

    def basic(self) -> LogicalExpr:
        if self.peek() == "!":
            self.position += 1
            self.skip_blank()
            if self.peek() == "(":
                return Not(self.paren())
            operand = self.primary()
            if isinstance(operand, Literal_):
                raise self.fail("a literal cannot be negated")
            return Not(self.as_test(operand))
        if self.peek() == "(":
            return self.paren()
        left = self.primary()
        mark = self.position
        self.skip_blank()
        operator = self.comparison_operator()
        if operator is None:
            self.position = mark
            if isinstance(left, Literal_):
                raise self.fail("a literal is not a test")
            return self.as_test(left)
        self.skip_blank()
        right = self.primary()
        self.check_comparable(left)
        self.check_comparable(right)
        return Comparison(left, operator, right)

    def paren(self) -> LogicalExpr:
        self.expect("(")
        self.skip_blank()
        inner = self.logical_or()
        self.skip_blank()
        self.expect(")")
        return inner

    def comparison_operator(self) -> str | None:
        for operator in ("==", "!=", "<=", ">=", "<", ">"):
            if self.text.startswith(operator, self.position):
                self.position += len(operator)
                return operator
        return None

    def as_test(self, operand: Union[Literal_, Query, FunctionCall]) -> LogicalExpr:
        if isinstance(operand, FunctionCall):
            if _FUNCTIONS[operand.name][1] == "value":
                raise self.fail(f"{operand.name}() gives a value, not a test")
            return Test(operand)
        if isinstance(operand, Query):
            return Test(operand)
        raise self.fail("expected a test")

    def check_comparable(self, operand: Union[Literal_, Query, FunctionCall]) -> None:
        if isinstance(operand, Query) and not operand.singular:
            raise self.fail("only a singular query can be compared")
        if isinstance(operand, FunctionCall) and _FUNCTIONS[operand.name][1] != "value":
            raise self.fail(f"the result of {operand.name}() cannot be compared")

    def primary(self) -> Union[Literal_, Query, FunctionCall]:
        char = self.peek()
        if char == "@" or char == "$":
            self.position += 1
            return Query(char == "@", self.segments())
        if char in ("'", '"'):
            return Literal_(self.string_literal())
        if char == "-" or (char.isdigit() and char.isascii()):
            return Literal_(self.number())
        for word, value in (("true", True), ("false", False), ("null", None)):
            if self.text.startswith(word, self.position) and not _is_name_char(self.peek(len(word))):
                self.position += len(word)
                return Literal_(value)
        if char.isascii() and char.islower():
            return self.function_call()
        raise self.fail("expected a comparable or a test")

    def number(self) -> int | float:
        start = self.position
        if self.peek() == "-":
            self.position += 1
        if self.peek() == "0":
            self.position += 1
        elif self.peek().isdigit() and self.peek().isascii():
            while self.peek().isdigit() and self.peek().isascii():
                self.position += 1
        else:
            raise self.fail("expected a number")
        is_float = False
        if self.peek() == ".":
            self.position += 1
            if not (self.peek().isdigit() and self.peek().isascii()):
                raise self.fail("expected a digit")
            while self.peek().isdigit() and self.peek().isascii():
                self.position += 1
            is_float = True
        if self.peek() in ("e", "E"):
            self.position += 1
            if self.peek() in ("+", "-"):
                self.position += 1
            if not (self.peek().isdigit() and self.peek().isascii()):
                raise self.fail("expected a digit")
            while self.peek().isdigit() and self.peek().isascii():
                self.position += 1
            is_float = True
        text = self.text[start : self.position]
        return float(text) if is_float else int(text)

    def function_call(self) -> FunctionCall:
        start = self.position
        while self.peek() and (self.peek().isascii() and (self.peek().islower() or self.peek().isdigit() or self.peek() == "_")):
            self.position += 1
        name = self.text[start : self.position]
        if self.peek() != "(":
            raise self.fail("expected '(' after a function name")
        if name not in _FUNCTIONS:
            raise self.fail(f"unknown function {name}()")
        self.position += 1
        self.skip_blank()
        arguments: list[Expr] = []
        if self.peek() != ")":
            while True:
                arguments.append(self.function_argument())
                self.skip_blank()
                if self.peek() == ",":
                    self.position += 1
                    self.skip_blank()
                    continue
                break
        self.expect(")")
        parameter_types, _ = _FUNCTIONS[name]
        if len(arguments) != len(parameter_types):
            raise self.fail(f"{name}() takes {len(parameter_types)} argument(s)")
        for argument, expected in zip(arguments, parameter_types):
            self.check_argument(name, argument, expected)
        pattern: object = None
        if name in ("match", "search"):
            regex = arguments[1]
            if not (isinstance(regex, Literal_) and isinstance(regex.value, str)):
                raise self.fail(f"the pattern of {name}() must be a string literal")
            try:
                pattern = compile_pattern(regex.value, dot="iregexp")
            except RegexRefused as error:
                raise self.fail(f"the pattern of {name}() is refused: {error}") from None
        return FunctionCall(name, tuple(arguments), pattern)

    def function_argument(self) -> Expr:
        mark = self.position
        try:
            expression = self.logical_or()
        except JsonPathSyntaxError:
            self.position = mark
            return self.primary()
        if isinstance(expression, Test):
            return expression.operand
        return expression

    def check_argument(self, name: str, argument: Expr, expected: ExprType) -> None:
        if expected == "value":
            if isinstance(argument, Literal_):
                return
            if isinstance(argument, Query) and argument.singular:
                return
            if isinstance(argument, FunctionCall) and _FUNCTIONS[argument.name][1] == "value":
                return
        elif expected == "nodes":
            if isinstance(argument, Query):
                return
        elif isinstance(argument, (Comparison, Not, And, Or, Test, Query)):
            return
        elif isinstance(argument, FunctionCall) and _FUNCTIONS[argument.name][1] != "value":
            return
        raise self.fail(f"an argument of {name}() of the wrong type")


# --- evaluation ----------------------------------------------------------------------------------


def _children(value: Json) -> list[Json]:
    if isinstance(value, dict):
        return list(value.values())
    if isinstance(value, list):
        return list(value)
    return []


def _descendants(value: Json, out: list[Json]) -> None:
    out.append(value)
    for child in _children(value):
        _descendants(child, out)


def _slice_indexes(length: int, selector: SliceSelector) -> list[int]:
    step = 1 if selector.step is None else selector.step
    if step == 0:
        return []

    def normalize(index: int) -> int:
        return index if index >= 0 else length + index

    if step > 0:
        start = 0 if selector.start is None else normalize(selector.start)
        end = length if selector.end is None else normalize(selector.end)
        lower, upper = min(max(start, 0), length), min(max(end, 0), length)
        return list(range(lower, upper, step))
    start = length - 1 if selector.start is None else normalize(selector.start)
    end = -length - 1 if selector.end is None else normalize(selector.end)
    upper, lower = min(max(start, -1), length - 1), min(max(end, -1), length - 1)
    return list(range(upper, lower, step))


def _select(selector: Selector, value: Json, root: Json, out: list[Json]) -> None:
    if isinstance(selector, NameSelector):
        if isinstance(value, dict) and selector.name in value:
            out.append(value[selector.name])
    elif isinstance(selector, WildcardSelector):
        out.extend(_children(value))
    elif isinstance(selector, IndexSelector):
        if isinstance(value, list):
            index = selector.index if selector.index >= 0 else len(value) + selector.index
            if 0 <= index < len(value):
                out.append(value[index])
    elif isinstance(selector, SliceSelector):
        if isinstance(value, list):
            out.extend(value[index] for index in _slice_indexes(len(value), selector))
    else:
        for child in _children(value):
            if _logical(selector.expression, child, root):
                out.append(child)


def _run(query: Query, current: Json, root: Json) -> list[Json]:
    nodes = [current if query.relative else root]
    for segment in query.segments:
        next_nodes: list[Json] = []
        for node in nodes:
            targets: list[Json] = []
            if segment.descendant:
                _descendants(node, targets)
            else:
                targets = [node]
            for target in targets:
                for selector in segment.selectors:
                    _select(selector, target, root, next_nodes)
        nodes = next_nodes
    return nodes


def _value_of(expression: Expr, current: Json, root: Json) -> object:
    """The value of a comparable or a value-typed argument: a JSON value or NOTHING."""
    if isinstance(expression, Literal_):
        return expression.value
    if isinstance(expression, Query):
        nodes = _run(expression, current, root)
        return nodes[0] if len(nodes) == 1 else NOTHING
    if isinstance(expression, FunctionCall):
        return _call(expression, current, root)
    raise TypeError("not a value")  # pragma: no cover - the parser's type check rules it out


def _nodes_of(expression: Expr, current: Json, root: Json) -> list[Json]:
    if isinstance(expression, Query):
        return _run(expression, current, root)
    raise TypeError("not a node list")  # pragma: no cover


def _call(function: FunctionCall, current: Json, root: Json) -> object:
    name = function.name
    if name == "length":
        value = _value_of(function.arguments[0], current, root)
        if isinstance(value, str):
            return len(value)
        if isinstance(value, (list, dict)):
            return len(value)
        return NOTHING
    if name == "count":
        return len(_nodes_of(function.arguments[0], current, root))
    if name == "value":
        nodes = _nodes_of(function.arguments[0], current, root)
        return nodes[0] if len(nodes) == 1 else NOTHING
    subject = _value_of(function.arguments[0], current, root)
    if not isinstance(subject, str):
        return False
    pattern = function.pattern
    assert isinstance(pattern, re.Pattern)
    if name == "match":
        return pattern.fullmatch(subject) is not None
    return pattern.search(subject) is not None


def _compare(left: object, operator: str, right: object) -> bool:
    if operator == "==":
        return _equal(left, right)
    if operator == "!=":
        return not _equal(left, right)
    if operator == "<":
        return _less(left, right)
    if operator == ">":
        return _less(right, left)
    if operator == "<=":
        return _less(left, right) or _equal(left, right)
    return _less(right, left) or _equal(left, right)


def _equal(left: object, right: object) -> bool:
    if left is NOTHING or right is NOTHING:
        return left is NOTHING and right is NOTHING
    return json_equal(left, right)


def _less(left: object, right: object) -> bool:
    if is_number(left) and is_number(right):
        return bool(left < right)  # type: ignore[operator]
    if isinstance(left, str) and isinstance(right, str):
        return left < right
    return False


def _logical(expression: LogicalExpr, current: Json, root: Json) -> bool:
    if isinstance(expression, Comparison):
        return _compare(_value_of(expression.left, current, root), expression.operator, _value_of(expression.right, current, root))
    if isinstance(expression, Not):
        return not _logical(expression.operand, current, root)
    if isinstance(expression, And):
        return all(_logical(operand, current, root) for operand in expression.operands)
    if isinstance(expression, Or):
        return any(_logical(operand, current, root) for operand in expression.operands)
    operand = expression.operand
    if isinstance(operand, Query):
        return len(_run(operand, current, root)) > 0
    result = _call(operand, current, root)
    if isinstance(result, list):
        return len(result) > 0
    return result is True


# --- public --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class JsonPath:
    """A parsed RFC 9535 query. ``singular`` queries (names and indexes only) select at most one value."""

    text: str
    query: Query
    singular: bool
    select: Callable[[Json], list[Json]]


def parse_json_path(text: str) -> JsonPath:
    """Parse an RFC 9535 query (``$…``) once; raises :class:`JsonPathSyntaxError`.

    >>> path = parse_json_path("$.items[?@.x > 2].x")
    >>> path.select({"items": [{"x": 1}, {"x": 5}]})
    [5]
    """
    query = _Parser(text).parse_query()

    def select(document: Json) -> list[Json]:
        return _run(query, document, document)

    return JsonPath(text, query, query.singular, select)

