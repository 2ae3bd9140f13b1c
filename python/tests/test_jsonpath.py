"""RFC 9535 JSONPath: the compliance test suite, run through the response-path compiler.

The suite's selectors are ``$…``; response mappings are written ``@…`` (SPEC §9), so each selector is
converted and compiled exactly as a manifest's mapping would be.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rcp._json import stringify
from rcp._jsonpath import JsonPathSyntaxError, parse_json_path
from rcp._manifest import mapping_query

SUITE = Path(__file__).resolve().parents[2] / "test" / "test-utils" / "fixtures" / "jsonpath-cts.json"

#: Valid cases whose match()/search() pattern is not a string literal: refused at load on purpose (SPEC §9).
DELIBERATELY_REFUSED = {
    "functions, match, regex from the document",
    "functions, match, non-string second arg",
    "functions, match, arg is a function expression",
    "functions, search, regex from the document",
    "functions, search, non-string second arg",
    "functions, search, arg is a function expression",
}


def _tests() -> list[dict[str, Any]]:
    return [test for test in json.loads(SUITE.read_text("utf-8"))["tests"] if test["selector"].startswith("$")]


def _compile(selector: str) -> Any:
    return parse_json_path(mapping_query("@" + selector[1:]))


def test_the_suite_passes_every_valid_case_but_the_refused_patterns_and_rejects_every_invalid_one() -> None:
    tests = _tests()
    valid = [test for test in tests if not test.get("invalid_selector")]
    invalid = [test for test in tests if test.get("invalid_selector")]
    assert len(valid) == 456 and len(invalid) == 246
    passed, failed, refused = 0, [], []
    for test in valid:
        try:
            path = _compile(test["selector"])
        except JsonPathSyntaxError:
            refused.append(test["name"])
            continue
        expected = [test["result"]] if "result" in test else test["results"]
        actual = stringify(path.select(test["document"]))
        if any(actual == stringify(candidate) for candidate in expected):
            passed += 1
        else:
            failed.append(test["name"])
    assert failed == []
    assert set(refused) == DELIBERATELY_REFUSED
    assert passed == 450
    accepted = []
    for test in invalid:
        try:
            _compile(test["selector"])
            accepted.append(test["selector"])
        except JsonPathSyntaxError:
            pass
    assert accepted == []


@pytest.mark.parametrize(
    ("mapping", "query"),
    [("@", "$"), ("@data", "$.data"), ("@.data", "$.data"), ("@[0]", "$[0]"), ("@data.courses[*].title", "$.data.courses[*].title")],
)
def test_a_mapping_path_is_the_query_after_dollar(mapping: str, query: str) -> None:
    assert mapping_query(mapping) == query


@pytest.mark.parametrize(("query", "singular"), [("$.a.b", True), ("$.a[0]['b'][-1]", True), ("$.a[*]", False), ("$..a", False), ("$.a[0:1]", False), ("$.a[?@.x]", False), ("$['a','b']", False)])
def test_singular_queries_are_names_and_indexes_only(query: str, singular: bool) -> None:
    assert parse_json_path(query).singular is singular


@pytest.mark.parametrize(
    "query",
    [
        "$[?match(@.a, '(a+)+$')]",
        "$[?search(@.a, '(a|aa)*')]",
        "$[?match(@.a, '(x)\\\\1')]",
        "$[?match(@.a, '(?=a)a')]",
        "$[?match(@.a, @.pattern)]",
        "$[?match(@.a, '" + "a" * 257 + "')]",
    ],
)
def test_patterns_that_could_backtrack_or_come_from_the_document_are_refused(query: str) -> None:
    with pytest.raises(JsonPathSyntaxError):
        parse_json_path(query)


def test_safe_patterns_are_kept_and_evaluated() -> None:
    path = parse_json_path("$[?match(@.e, '^[a-z]+@[a-z]+$') && search(@.t, '(ab)+')].e")
    assert path.select([{"e": "ann@example", "t": "xabab"}, {"e": "bob@ex", "t": "zz"}, {"e": "Bad@x", "t": "ab"}]) == ["ann@example"]


def test_an_and_chain_of_three_is_read_as_and() -> None:
    path = parse_json_path("$[?@.a && @.b && @.c]")
    assert path.select([{"a": 1, "b": 1, "c": 1}, {"a": 1, "b": 1}, {"a": 1, "c": 1}]) == [{"a": 1, "b": 1, "c": 1}]
