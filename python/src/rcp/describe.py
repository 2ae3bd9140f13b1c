"""``describe_manifest`` (packages/rcp-client/docs/behaviour.md): the operator's view of a manifest as text, and
terminal-safe text.

Manifest text is untrusted: control characters are printed as spaces, so a manifest cannot forge lines.

Example::

    from rcp import describe_manifest
    print(describe_manifest(discovery.manifest, discovery.tools))
"""

from __future__ import annotations

import re
from typing import Mapping, Sequence

from ._json import Json, stringify
from ._manifest import tool_effects
from ._values import describe_scalar
from .client import RcpTool

_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def terminal_text(text: str, *, escape: bool = False) -> str:
    """``text`` safe for one terminal line: control, line-separator and bidi characters as spaces (or as
    visible escapes such as ``\\x1b`` and ``\\u202e`` with ``escape=True``)."""

    def replace(match: re.Match[str]) -> str:
        if not escape:
            return " "
        code = ord(match.group(0))
        return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"

    return _CONTROL.sub(replace, text)


def describe_auth(auth: Mapping[str, Json] | None) -> str:
    """``none``, ``header "<name>" (scheme: <scheme>)``, ``header "<name>"``, ``query "<name>"``, plus an OAuth hint."""
    if not auth or auth.get("type") == "none":
        return "none"
    kind = auth.get("type")
    name = terminal_text(str(auth.get("name", "")))
    text = f'{kind} "{name}"'
    if kind == "header" and isinstance(auth.get("scheme"), str):
        text += f" (scheme: {terminal_text(str(auth['scheme']))})"
    hint = auth.get("oauth")
    if isinstance(hint, dict):
        parts: list[str] = []
        scopes = hint.get("scopes")
        if isinstance(scopes, list) and scopes:
            parts.append("scopes " + " ".join(terminal_text(str(scope)) for scope in scopes))
        if isinstance(hint.get("issuer"), str):
            parts.append("issuer " + terminal_text(str(hint["issuer"])))
        grants = hint.get("grantTypes")
        if isinstance(grants, list) and grants:
            parts.append("grants " + ", ".join(terminal_text(str(grant)) for grant in grants))
        text += ", OAuth 2" + (f" ({'; '.join(parts)})" if parts else "")
    return text


def _details(details: Mapping[str, Json]) -> list[str]:
    """The value details of SPEC §16.2 as ``describe_manifest`` lists them, in this order."""
    out: list[str] = []
    if isinstance(details.get("enum"), list):
        out.append("one of " + ", ".join(describe_scalar(entry) for entry in details["enum"]))
    items = details.get("items")
    if isinstance(items, dict):
        nested = _details({key: value for key, value in items.items() if key not in ("type", "description")})
        out.append(f"items: {items.get('type', '')}" + (" " + ", ".join(nested) if nested else ""))
    properties = details.get("properties")
    if isinstance(properties, dict):
        listed = details.get("required")
        required = listed if isinstance(listed, list) else []
        out.append("properties: " + ", ".join(name + (" (required)" if name in required else "") for name in properties))
    if "minimum" in details:
        out.append(f"≥ {describe_scalar(details['minimum'])}")
    if "maximum" in details:
        out.append(f"≤ {describe_scalar(details['maximum'])}")
    if "minLength" in details:
        out.append(f"at least {details['minLength']} characters")
    if "maxLength" in details:
        out.append(f"at most {details['maxLength']} characters")
    if "pattern" in details:
        out.append(f"pattern {describe_scalar(details['pattern'])}")
    if "format" in details:
        out.append(f"format {details['format']}")
    if "default" in details:
        out.append(f"default {stringify(details['default'])}")
    return out


def describe_manifest(manifest: Mapping[str, Json], tools: Sequence[RcpTool] | None = None) -> str:
    """The manifest as text for its operator (packages/rcp-client/docs/behaviour.md): the auth, each tool and each
    param, with what a resolver fills and what only looks like an identity. ``tools`` (from the same discovery) add the marks.

    >>> print(describe_manifest({"rcpVersion": "0.1", "tools": [{"name": "t", "description": "A tool.", "method": "GET", "url": "/x"}]}))
    RCP manifest v0.1 — auth: none
    1 tool(s):
    - t (GET) — A tool.
    """
    by_name = {tool.name: tool for tool in tools or () if tool.from_manifest(manifest)}
    raw_tools = manifest.get("tools")
    entries = raw_tools if isinstance(raw_tools, list) else []
    auth = manifest.get("auth")
    lines = [
        f"RCP manifest v{terminal_text(str(manifest.get('rcpVersion', '')))} — auth: {describe_auth(auth if isinstance(auth, dict) else None)}",
    ]
    groups = [group for group in manifest.get("groups") or [] if isinstance(group, dict)]
    tool_entries = [entry for entry in entries if isinstance(entry, dict)]
    if not groups:
        lines.append(f"{len(entries)} tool(s):")
        for entry in tool_entries:
            _describe_tool(entry, by_name, lines)
        return "\n".join(lines)
    # RCP 0.4 (SPEC §20.3): each group's tools under it, in the manifest's order of groups; then the tools in none.
    lines.append(f"{len(entries)} tool(s) in {len(groups)} group(s):")
    for group in groups:
        members = [entry for entry in tool_entries if entry.get("group") == group.get("name")]
        description = group.get("description")
        about = f" — {terminal_text(description)}" if isinstance(description, str) and description else ""
        lines.append(f"group {terminal_text(str(group.get('name', '')))} ({len(members)} tool(s)){about}")
        for entry in members:
            _describe_tool(entry, by_name, lines)
    ungrouped = [entry for entry in tool_entries if "group" not in entry]
    if ungrouped:
        lines.append(f"in no group ({len(ungrouped)} tool(s))")
        for entry in ungrouped:
            _describe_tool(entry, by_name, lines)
    return "\n".join(lines)


def _describe_tool(entry: Mapping[str, Json], by_name: Mapping[str, RcpTool], lines: list[str]) -> None:
    """One tool's lines (its own, then each param's), appended to ``lines``."""
    name = terminal_text(str(entry.get("name", "")))
    method = terminal_text(str(entry.get("method", "")))
    own = entry.get("auth")
    declared = entry.get("effects")
    effects = f", effects: {_effects(str(entry.get('method', '')), declared)}" if isinstance(declared, dict) and declared else ""
    auth_text = f", auth: {describe_auth(own)}" if isinstance(own, dict) else ""
    lines.append(f"- {name} ({method}{effects}{auth_text}) — {terminal_text(str(entry.get('description', '')))}")
    tool = by_name.get(str(entry.get("name")))
    media = entry.get("responseMediaTypes")
    if isinstance(media, list) and media:
        lines.append("    [media: " + ", ".join(terminal_text(str(item)) for item in media) + "]")
    pagination = entry.get("pagination")
    if isinstance(pagination, dict):
        text = f"    [pages: the cursor at {terminal_text(str(pagination.get('nextCursor', '')))} goes in {terminal_text(str(pagination.get('param', '')))}"
        if isinstance(pagination.get("hasMore"), str):
            text += f"; more while {terminal_text(str(pagination['hasMore']))} is true"
        lines.append(text + "]")
    params = entry.get("params")
    infos = {info.name: info for info in tool.params} if tool is not None else {}
    for index, param in enumerate(params if isinstance(params, list) else []):
        if not isinstance(param, dict):
            continue
        param_name = str(param.get("name", ""))
        info = infos.get(param_name)
        kind = str(param.get("type", "string"))
        required = info.required if info is not None else param.get("required") is True or f"{{{{{param_name}}}}}" in str(entry.get("url", "")).split("?")[0]
        detail_source = info.details if info is not None else _param_details(param)
        details = _details(detail_source)
        text = terminal_text(f"    {param_name}: {kind}, {'required' if required else 'optional'}" + "".join(f", {detail}" for detail in details))
        if info is not None and info.resolved:
            text += " [resolved by client, hidden from model]"
        elif info is not None and info.looks_like_identity:
            text += " [warning: looks like an identity, but no resolver fills it — the model chooses it]"
        description = param.get("description")
        if isinstance(description, str) and description:
            text += f" — {terminal_text(description)}"
        lines.append(text)


def _param_details(param: Mapping[str, Json]) -> dict[str, Json]:
    details = {key: value for key, value in param.items() if key not in ("name", "type", "description", "required", "requiredProperties")}
    if "requiredProperties" in param:
        details["required"] = param["requiredProperties"]
    return details


def _effects(method: str, declared: Mapping[str, Json]) -> str:
    """``writes, destructive, idempotent``, ``closed world``, and the claims the method rule set aside (SPEC §18.1)."""
    claims = {key: value for key, value in declared.items() if isinstance(value, bool)}
    effects = tool_effects(method, claims)
    words = ["read-only" if effects["readOnly"] else "writes"]
    if effects["destructive"]:
        words.append("destructive")
    if effects["idempotent"]:
        words.append("idempotent")
    if not effects["openWorld"]:
        words.append("closed world")
    set_aside: list[str] = []
    if claims.get("readOnly") is True and not effects["readOnly"]:
        set_aside.append("read-only")
    if claims.get("destructive") is False and effects["destructive"]:
        set_aside.append("not destructive")
    if claims.get("idempotent") is True and not effects["idempotent"]:
        set_aside.append("idempotent")
    text = ", ".join(words)
    if set_aside:
        text += f" (claims {', '.join(set_aside)}: not taken for a {method})"
    return text
