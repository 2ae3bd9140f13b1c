"""Param types and value details (SPEC §5, §16.2): validated once at load, checked on every call.

One rule serves the manifest (is a ``default`` valid?) and the call (are the model's arguments valid?), and
the same compiled schema writes the model-facing JSON Schema.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Callable

from ._json import (
    Json,
    is_finite_number,
    is_safe_integer,
    js_number,
    json_type_name,
    quote_json_string,
    strict_equal,
)
from ._regex import RegexRefused, compile_pattern
from .errors import Issue

PARAM_TYPES = ("string", "number", "integer", "boolean", "array", "object")
MAX_SCHEMA_DEPTH = 16
_ARTICLE = {"string": "a string", "number": "a number", "integer": "a safe integer", "boolean": "a boolean", "array": "an array", "object": "an object"}


@dataclass(frozen=True)
class ValueSchema:
    """A param's or nested value's schema: its type and details."""

    type: str
    description: str = ""
    enum: tuple[Json, ...] | None = None
    items: "ValueSchema | None" = None
    properties: "tuple[tuple[str, ValueSchema], ...] | None" = None
    required: tuple[str, ...] = ()
    format: str | None = None
    minimum: float | int | None = None
    maximum: float | int | None = None
    min_length: int | None = None
    max_length: int | None = None
    pattern: str | None = None
    pattern_regex: re.Pattern[str] | None = field(default=None, compare=False)
    has_default: bool = False
    default: Json = None


def type_matches(kind: str, value: object) -> bool:
    """Whether ``value`` has the param type ``kind`` (``integer``: a safe integer; ``number``: finite; ``file``: a
    reference, a string)."""
    if kind in ("string", "file"):
        return isinstance(value, str)
    if kind == "number":
        return is_finite_number(value)
    if kind == "integer":
        return is_safe_integer(value)
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "array":
        return isinstance(value, list)
    return isinstance(value, dict)


def describe_scalar(value: Json) -> str:
    """A schema value as messages and ``describe_manifest`` write it: strings JSON-quoted."""
    if isinstance(value, str):
        return quote_json_string(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, (int, float)):
        return js_number(value)
    return quote_json_string(str(value))


def _code_points(text: str) -> int:
    return len(text)


def check_value(schema: ValueSchema, value: Json, path: str, issues: list[Issue]) -> None:
    """Append every problem of ``value`` against ``schema`` at its pointer; messages never show the value."""
    if not type_matches(schema.type, value):
        issues.append(Issue(path, f"must be {_ARTICLE[schema.type]} (got {json_type_name(value)})"))
        return
    if schema.enum is not None and not any(strict_equal(value, entry) for entry in schema.enum):
        issues.append(Issue(path, "must be one of " + ", ".join(describe_scalar(entry) for entry in schema.enum)))
    if schema.minimum is not None and value < schema.minimum:
        issues.append(Issue(path, f"must be ≥ {js_number(schema.minimum)}"))
    if schema.maximum is not None and value > schema.maximum:
        issues.append(Issue(path, f"must be ≤ {js_number(schema.maximum)}"))
    if isinstance(value, str):
        length = _code_points(value)
        if schema.min_length is not None and length < schema.min_length:
            issues.append(Issue(path, f"must be at least {schema.min_length} characters long"))
        if schema.max_length is not None and length > schema.max_length:
            issues.append(Issue(path, f"must be at most {schema.max_length} characters long"))
        if schema.pattern_regex is not None and schema.pattern is not None and schema.pattern_regex.search(value) is None:
            issues.append(Issue(path, f"must match the pattern {quote_json_string(schema.pattern)}"))
    if isinstance(value, list) and schema.items is not None:
        for index, item in enumerate(value):
            check_value(schema.items, item, f"{path}/{index}", issues)
    if isinstance(value, dict):
        known = dict(schema.properties) if schema.properties is not None else None
        for key, item in value.items():
            pointer = f"{path}/{_escape(key)}"
            if known is not None and key not in known:
                issues.append(Issue(pointer, "is not a property of this object"))
            elif known is not None:
                check_value(known[key], item, pointer, issues)
        for name in schema.required:
            if name not in value:
                issues.append(Issue(f"{path}/{_escape(name)}", "is required"))


def _escape(segment: str) -> str:
    return segment.replace("~", "~0").replace("/", "~1")


def schema_json(schema: ValueSchema) -> dict[str, Json]:
    """The JSON Schema of a value, every detail included (SPEC §16.2)."""
    out: dict[str, Json] = {"type": schema.type}
    if schema.description:
        out["description"] = schema.description
    if schema.enum is not None:
        out["enum"] = list(schema.enum)
    if schema.items is not None:
        out["items"] = schema_json(schema.items)
    if schema.properties is not None:
        out["properties"] = {name: schema_json(item) for name, item in schema.properties}
        out["required"] = list(schema.required)
        out["additionalProperties"] = False
    if schema.format is not None:
        out["format"] = schema.format
    if schema.minimum is not None:
        out["minimum"] = schema.minimum
    if schema.maximum is not None:
        out["maximum"] = schema.maximum
    if schema.min_length is not None:
        out["minLength"] = schema.min_length
    if schema.max_length is not None:
        out["maxLength"] = schema.max_length
    if schema.pattern is not None:
        out["pattern"] = schema.pattern
    if schema.has_default:
        out["default"] = schema.default
    return out


#: The keys a param may carry; a nested value schema has ``required`` (a list) instead of ``name``,
#: ``required`` (a boolean) and ``requiredProperties``.
PARAM_KEYS = (
    "name", "type", "description", "required", "enum", "items", "properties", "requiredProperties",
    "format", "minimum", "maximum", "minLength", "maxLength", "pattern", "default", "filledBy", "queryStyle",
    "mediaTypes", "maxBytes",
)
VALUE_SCHEMA_KEYS = (
    "type", "description", "enum", "items", "properties", "required",
    "format", "minimum", "maximum", "minLength", "maxLength", "pattern", "default",
)


Report = Callable[[str, str], None]


def compile_value_schema(
    raw: dict[str, object],
    pointer: str,
    *,
    kind: str,
    is_param: bool,
    depth: int,
    report: Report,
    warn: Report,
) -> ValueSchema:
    """Validate the details of a param (``is_param``) or nested value schema of type ``kind`` and compile them.

    Problems go to ``report(pointer, message)``, unknown keys to ``warn``; a schema with problems still
    compiles (its broken details left out), so every problem of a manifest is found in one pass.
    """
    for key in raw:
        if key not in (PARAM_KEYS if is_param else VALUE_SCHEMA_KEYS):
            warn(f"{pointer}/{_escape(key)}", "is not a field RCP knows; it is ignored")
    description = raw.get("description", "")
    if not isinstance(description, str):
        report(f"{pointer}/description", "must be a string")
        description = ""
    enum: tuple[Json, ...] | None = None
    if "enum" in raw:
        entries = raw["enum"]
        if kind in ("array", "object"):
            report(f"{pointer}/enum", f"applies to strings, numbers, integers and booleans, not to an {kind}")
        elif not isinstance(entries, list) or len(entries) == 0:
            report(f"{pointer}/enum", "must be a non-empty array")
        else:
            good = True
            for index, entry in enumerate(entries):
                if not type_matches(kind, entry):
                    report(f"{pointer}/enum/{index}", f"must be {_ARTICLE[kind]}, the param's type")
                    good = False
            enum = tuple(entries) if good else None
    items: ValueSchema | None = None
    if "items" in raw:
        items = _nested(raw["items"], f"{pointer}/items", kind == "array", "items applies to arrays only", depth, report, warn)
    properties: tuple[tuple[str, ValueSchema], ...] | None = None
    if "properties" in raw:
        value = raw["properties"]
        if kind != "object":
            report(f"{pointer}/properties", "applies to objects only")
        elif not isinstance(value, dict):
            report(f"{pointer}/properties", "must be an object of value schemas")
        else:
            compiled: list[tuple[str, ValueSchema]] = []
            for name, item in value.items():
                nested = _nested(item, f"{pointer}/properties/{_escape(name)}", True, "", depth, report, warn)
                if name == "__proto__":
                    report(f"{pointer}/properties/{_escape(name)}", "__proto__ is not a property name")
                elif nested is not None:
                    compiled.append((name, nested))
            properties = tuple(compiled)
    required_key = "requiredProperties" if is_param else "required"
    required: tuple[str, ...] = ()
    if required_key in raw:
        value = raw[required_key]
        if kind != "object":
            report(f"{pointer}/{required_key}", "applies to objects only")
        elif not isinstance(value, list):
            report(f"{pointer}/{required_key}", "must be an array of property names")
        else:
            names = dict(properties or ())
            good_names: list[str] = []
            for index, name in enumerate(value):
                if not isinstance(name, str):
                    report(f"{pointer}/{required_key}/{index}", "must be a string")
                elif name not in names:
                    report(f"{pointer}/{required_key}/{index}", "must name one of the properties")
                else:
                    good_names.append(name)
            required = tuple(good_names)
    format_: str | None = None
    if "format" in raw:
        value = raw["format"]
        if kind not in ("string", "number", "integer"):
            report(f"{pointer}/format", "applies to strings and numbers only")
        elif not isinstance(value, str):
            report(f"{pointer}/format", "must be a string")
        else:
            format_ = value
    minimum = _bound(raw, "minimum", pointer, kind, report)
    maximum = _bound(raw, "maximum", pointer, kind, report)
    if minimum is not None and maximum is not None and minimum > maximum:
        report(f"{pointer}/minimum", "must not be greater than maximum")
        minimum = maximum = None
    min_length = _length(raw, "minLength", pointer, kind, report)
    max_length = _length(raw, "maxLength", pointer, kind, report)
    if min_length is not None and max_length is not None and min_length > max_length:
        report(f"{pointer}/minLength", "must not be greater than maxLength")
        min_length = max_length = None
    pattern: str | None = None
    pattern_regex: re.Pattern[str] | None = None
    if "pattern" in raw:
        value = raw["pattern"]
        if kind != "string":
            report(f"{pointer}/pattern", "applies to strings only")
        elif not isinstance(value, str):
            report(f"{pointer}/pattern", "must be a string")
        else:
            try:
                pattern_regex = compile_pattern(value)
                pattern = value
            except RegexRefused as error:
                report(f"{pointer}/pattern", f"is not a safe regular expression: {error}")
    schema = ValueSchema(
        type=kind,
        description=description,
        enum=enum,
        items=items,
        properties=properties,
        required=required,
        format=format_,
        minimum=minimum,
        maximum=maximum,
        min_length=min_length,
        max_length=max_length,
        pattern=pattern,
        pattern_regex=pattern_regex,
    )
    if "default" in raw:
        default = raw["default"]
        problems: list[Issue] = []
        check_value(schema, default, "", problems)
        if problems:
            report(f"{pointer}/default", "does not satisfy the schema: " + "; ".join(f"{issue.path or 'the value'} {issue.message}".strip() for issue in problems[:3]))
        else:
            schema = replace(schema, has_default=True, default=default)
    return schema


def _nested(raw: object, pointer: str, allowed: bool, not_allowed: str, depth: int, report: Report, warn: Report) -> ValueSchema | None:
    if not allowed:
        report(pointer, not_allowed)
        return None
    if depth + 1 > MAX_SCHEMA_DEPTH:
        report(pointer, f"value schemas nest at most {MAX_SCHEMA_DEPTH} deep")
        return None
    if not isinstance(raw, dict):
        report(pointer, "must be a value schema (an object with a type)")
        return None
    kind = raw.get("type")
    if "type" not in raw:
        report(f"{pointer}/type", "is required in a nested value schema")
        return None
    if not isinstance(kind, str) or kind not in PARAM_TYPES:
        report(f"{pointer}/type", "must be one of " + ", ".join(PARAM_TYPES))
        return None
    return compile_value_schema(raw, pointer, kind=kind, is_param=False, depth=depth + 1, report=report, warn=warn)


def _bound(raw: dict[str, object], key: str, pointer: str, kind: str, report: Report) -> float | int | None:
    if key not in raw:
        return None
    value = raw[key]
    if kind not in ("number", "integer"):
        report(f"{pointer}/{key}", "applies to numbers and integers only")
        return None
    if not is_finite_number(value):
        report(f"{pointer}/{key}", "must be a finite number")
        return None
    return value  # type: ignore[return-value]


def _length(raw: dict[str, object], key: str, pointer: str, kind: str, report: Report) -> int | None:
    if key not in raw:
        return None
    value = raw[key]
    if kind != "string":
        report(f"{pointer}/{key}", "applies to strings only")
        return None
    if not isinstance(value, (int, float)) or not is_safe_integer(value) or value < 0:
        report(f"{pointer}/{key}", "must be an integer ≥ 0")
        return None
    return int(value)
