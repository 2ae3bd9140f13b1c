"""Manifest validation (SPEC §3–§5, §13, §15): limits first, then the version gate, then every rule."""

from __future__ import annotations

import json
from typing import Any

import pytest

from rcp import RcpInvalidManifestError, RcpManifestLimitError, RcpUnsupportedVersionError, parse_manifest, safe_parse_manifest
from rcp._manifest import SUPPORTED_VERSIONS, VERSION_FEATURES

TOOL: dict[str, Any] = {"name": "t", "description": "A tool.", "method": "GET", "url": "/x"}


def test_every_supported_version_has_its_feature_line() -> None:
    assert set(VERSION_FEATURES) == set(SUPPORTED_VERSIONS) == {"0.1", "0.2", "0.3", "0.4"}
    ordered = [VERSION_FEATURES[version] for version in SUPPORTED_VERSIONS]
    assert all(earlier <= later for earlier, later in zip(ordered, ordered[1:])), "each version is a superset of the one before"


def test_text_may_start_with_a_bom_and_must_be_utf8_json() -> None:
    assert parse_manifest("\ufeff" + json.dumps({"rcpVersion": "0.1", "tools": []})).tools == ()
    assert parse_manifest(b"\xef\xbb\xbf" + json.dumps({"rcpVersion": "0.1", "tools": []}).encode()).tools == ()
    for bad in (b'{"rcpVersion": "0.1", "tools": [], "x": "\xff"}', '{"rcpVersion": "0.1",', "NaN"):
        with pytest.raises(RcpInvalidManifestError) as caught:
            parse_manifest(bad)
        assert [issue.path for issue in caught.value.issues] == [""]


def test_limits_come_before_the_version_gate() -> None:
    deep: object = {}
    for _ in range(70):
        deep = {"a": deep}
    with pytest.raises(RcpManifestLimitError) as caught:
        parse_manifest(json.dumps({"rcpVersion": "9.9", "tools": [], "x": deep}))
    assert caught.value.limit == "depth"
    with pytest.raises(RcpManifestLimitError) as too_big:
        parse_manifest(json.dumps({"rcpVersion": "0.1", "tools": []}), max_bytes=10)
    assert too_big.value.limit == "bytes"
    with pytest.raises(RcpManifestLimitError) as too_many:
        parse_manifest({"rcpVersion": "0.1", "tools": [TOOL, TOOL, TOOL]}, max_tools=2)
    assert too_many.value.limit == "tools"


def test_a_manifest_of_depth_64_is_read() -> None:
    deep: object = 1
    for _ in range(61):
        deep = [deep]
    assert parse_manifest({"rcpVersion": "0.1", "tools": [], "x": deep}).tools == ()


def test_the_version_gate_names_what_it_received_and_supports() -> None:
    with pytest.raises(RcpUnsupportedVersionError) as caught:
        parse_manifest({"rcpVersion": "0.5", "tools": [{"name": "bad name"}]})
    assert caught.value.received == "0.5"
    assert caught.value.supported == ("0.1", "0.2", "0.3", "0.4")


def test_problems_are_reported_at_once_in_pointer_order_and_warnings_come_with_the_error() -> None:
    tools = [dict(TOOL, name=f"t{index}") for index in range(12)]
    tools[2] = dict(TOOL, name="t2", parms=[])
    tools[10] = dict(TOOL, name="t10", method="FETCH")
    tools[9] = dict(TOOL, name="t9", description=" ")
    result = safe_parse_manifest({"rcpVersion": "0.1", "tools": tools})
    assert not result.ok and isinstance(result.error, RcpInvalidManifestError)
    assert [issue.path for issue in result.error.issues] == ["/tools/9/description", "/tools/10/method"]
    assert [warning.path for warning in result.warnings] == ["/tools/2/parms"]


def test_the_validated_manifest_holds_known_fields_only() -> None:
    parsed = parse_manifest({"rcpVersion": "0.1", "$schema": "x", "future": 1, "tools": [dict(TOOL, extra=1, params=[])]})
    assert parsed.manifest == {"rcpVersion": "0.1", "$schema": "x", "tools": [{"name": "t", "description": "A tool.", "method": "GET", "url": "/x", "params": []}]}
    assert [warning.path for warning in parsed.warnings] == ["/future", "/tools/0/extra"]


@pytest.mark.parametrize(
    ("tool", "pointer"),
    [
        ({"params": [{"name": "constructor"}]}, "/tools/0/params/0/name"),
        ({"url": "/x/{{a}}", "params": [{"name": "a", "required": "yes"}]}, "/tools/0/params/0/required"),
        ({"headers": {"Transfer-Encoding": "x"}}, "/tools/0/headers/Transfer-Encoding"),
        ({"headers": {"X-A": "é😀"}}, "/tools/0/headers/X-A"),
        ({"responseMappings": {"": "@a"}}, "/tools/0/responseMappings/"),
        ({"responseMappings": {"a/b": "@x[?"}}, "/tools/0/responseMappings/a~1b"),
        ({"auth": {"type": "header", "name": "Authorization", "scheme": "Bear er"}}, "/tools/0/auth/scheme"),
        ({"url": "/x", "queryParams": {"q": "{{ q}}"}, "params": [{"name": "q"}]}, "/tools/0/queryParams/q"),
    ],
)
def test_each_rule_reports_at_its_pointer(tool: dict[str, object], pointer: str) -> None:
    with pytest.raises(RcpInvalidManifestError) as caught:
        parse_manifest({"rcpVersion": "0.1", "tools": [dict(TOOL, **tool)]})
    assert pointer in [issue.path for issue in caught.value.issues]


def test_a_path_param_is_required_whatever_it_says() -> None:
    parsed = parse_manifest({"rcpVersion": "0.1", "tools": [dict(TOOL, url="/x/{{a}}", params=[{"name": "a", "required": False}])]})
    assert parsed.tools[0].params[0].required is True


def test_file_params_and_multipart_bodies_are_refused_by_name_not_sent_as_text() -> None:
    """RCP 0.4 files (SPEC §20.7) are not implemented here: a tool with a file param or a multipart body is refused with
    a typed error at the field, so no reference is ever sent as JSON text."""
    manifest = {
        "rcpVersion": "0.4",
        "tools": [
            {
                "name": "upload",
                "description": "Uploads a file.",
                "method": "POST",
                "url": "/files",
                "params": [{"name": "file", "type": "file", "required": True}, {"name": "purpose"}],
                "bodyEncoding": "multipart",
                "body": {"purpose": "{{purpose}}", "file": "{{file}}"},
            }
        ],
    }
    with pytest.raises(RcpInvalidManifestError) as caught:
        parse_manifest(json.dumps(manifest))
    issues = [str(issue) for issue in caught.value.issues]
    assert '/tools/0/bodyEncoding is "multipart" (RCP 0.4 files, SPEC §20.7), which this Python client does not support yet' in issues
    assert '/tools/0/params/0/type is "file" (an RCP 0.4 file param, SPEC §20.7), which this Python client does not support yet' in issues
    assert caught.value.code == "RCP_INVALID_MANIFEST"
