"""The {{token}} grammar and per-position encoding (SPEC §6, §7, §16.1)."""

from __future__ import annotations

import pytest

from rcp._json import js_number, stringify
from rcp._template import (
    Token,
    compile_url,
    encode_form_body,
    parse_template,
    percent_encode,
    render_path,
    render_query_entry,
)
from rcp.errors import RcpTemplateError


@pytest.mark.parametrize(
    ("text", "offset"),
    [("{{+x}}", 2), ("{{x|y}}", 3), ("{{ x }}", 2), ("{{1x}}", 2), ("a{{x", 1), ("{{{x}}}", 2), ("😀{{ x}}", 4), ("{{x}", 0), ("{{", 0)],
)
def test_a_syntax_error_names_its_utf16_offset(text: str, offset: int) -> None:
    with pytest.raises(RcpTemplateError) as caught:
        parse_template(text)
    assert caught.value.code == "RCP_TEMPLATE_SYNTAX"
    assert caught.value.offset == offset


def test_lone_braces_are_literal_text() -> None:
    assert parse_template("a{b}c}}d{") == ("a{b}c}}d{",)
    assert parse_template("x{{a}}y{{b_2}}") == ("x", Token("a"), "y", Token("b_2"))


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("https://a.com\\@evil/x", "backslash"),
        ("http{{s}}://a.com/x", "before the path"),
        ("https://{{h}}.example.com/x", "before the path"),
        ("https://a.com:{{p}}/x", "before the path"),
        ("//evil.example/x", "scheme-relative"),
        ("https://u:p@a.com/x", "user info"),
        ("/x?{{k}}=1", "query key"),
        ("/x#f", "fragment"),
        ("/a b", "space"),
        ("ftp://a.com/x", "absolute http(s)"),
    ],
)
def test_url_templates_that_could_change_the_destination_are_refused(url: str, reason: str) -> None:
    with pytest.raises(RcpTemplateError) as caught:
        compile_url(url, "https://api.example.com")
    assert caught.value.code == "RCP_TEMPLATE_SYNTAX"
    assert reason in caught.value.message


def test_literal_url_text_is_normalised_once() -> None:
    url = compile_url("HTTPS://API.Example.COM:443/a%2f/é/../c?x=1&&y=%7e", None)
    assert url.origin == "https://api.example.com"
    assert render_path(url, {}) == "/a%2F/%C3%A9/../c"
    assert [entry.key for entry in url.query] == ["x", "y"]
    assert render_query_entry(url.query[1], {}) == ["y=%7E"]


@pytest.mark.parametrize(("template", "value"), [("/items/{{x}}/v", "."), ("/items/{{x}}/v", ".."), ("/items/{{x}}/v", ""), ("/items/%2e{{x}}", ""), ("/items/%2E{{x}}", "."), ("/items/{{x}}", "")])
def test_a_path_segment_that_parsers_would_collapse_is_refused(template: str, value: str) -> None:
    url = compile_url(template, "https://a.example")
    with pytest.raises(RcpTemplateError) as caught:
        render_path(url, {"x": value})
    assert caught.value.code == "RCP_TEMPLATE_VALUE"


def test_values_that_have_no_utf8_form_or_are_not_finite_are_refused_in_every_position() -> None:
    url = compile_url("/items/{{x}}", "https://a.example")
    for value in ("\ud800", float("nan"), float("inf")):
        with pytest.raises(RcpTemplateError):
            render_path(url, {"x": value})


def test_percent_encoding_keeps_only_unreserved_characters() -> None:
    assert percent_encode("A-z_0.9~ /?#%@\\+&=é😀") == "A-z_0.9~%20%2F%3F%23%25%40%5C%2B%26%3D%C3%A9%F0%9F%98%80"


def test_numbers_are_written_as_javascript_writes_them() -> None:
    assert [js_number(value) for value in (1.0, 1.5, -0.0, 1e21, 1e-7, 123456789012345680000.0, 0.000001, 2**53 - 1)] == [
        "1", "1.5", "0", "1e+21", "1e-7", "123456789012345680000", "0.000001", "9007199254740991",
    ]
    assert stringify({"a": [1.0, True, None, "é\u2028\"\\\x01"]}) == '{"a":[1,true,null,"é\u2028\\"\\\\\\u0001"]}'


def test_form_bodies_cannot_gain_a_field_or_a_level() -> None:
    assert encode_form_body({"q": "a&b=c", "m": {"x": ["1", {"y": None, "z": 2.5}]}, "e": [], "t": True}) == (
        "q=a%26b%3Dc&m%5Bx%5D=1&m%5Bx%5D%5B1%5D%5Bz%5D=2.5&t=true"
    )
    with pytest.raises(RcpTemplateError):
        encode_form_body({"m": {"a]&x=[": "1"}})
