"""Tool sets (packages/rcp-client/docs/behaviour.md): tools of several discoveries under unique names, and stages
(subsets) of them.

A name found in one discovery keeps its name; a name found in several becomes ``<namespace>__<name>`` in
every one of them (the namespace defaults to the manifest's host). ``client.call(tool_set, name, …)`` looks
names up in the set, so a stage's set never reaches another tool.

Example::

    tools = create_tool_set([notes, calendar])
    browse = tools.select(["search_notes"], stage="browse")
    outcome = client.call(browse, "delete_note", "{}", ctx)   # RCP_TOOL_NOT_IN_STAGE, nothing sent
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Sequence, Union

from ._binding import fold, is_near_miss
from ._json import stringify
from ._url import parse_absolute_url
from .client import Discovery, RcpTool, ToolSource
from .errors import RcpInvalidToolError, RcpToolNotInStageError, RcpUnknownToolError

_NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
_TOOL_POINTER = re.compile(r"^/tools/(\d+)(?:/|$)")

#: ``namespace(discovery)`` → the prefix of clashing names from that discovery.
Namespace = Callable[[Discovery], str]
Selection = Union[Sequence[str], Callable[[str, RcpTool], bool]]


def default_namespace(discovery: Discovery) -> str:
    """The manifest URL's host (with a non-default port), every run of other characters as ``_``."""
    url = parse_absolute_url(discovery.manifest_url)
    host = url.hostname + (f":{url.port}" if url.port is not None else "")
    return re.sub(r"[^A-Za-z0-9-]+", "_", host)


@dataclass(frozen=True)
class _Warning:
    line: str
    tool: RcpTool | None


class ToolSet(ToolSource):
    """Named tools; :meth:`select` makes a stage that remembers the whole set it came from."""

    def __init__(self, entries: tuple[tuple[str, RcpTool], ...], whole: "ToolSet | None", stage: str | None, warnings: tuple[_Warning, ...]) -> None:
        self._entries = entries
        self._whole = whole
        self.stage = stage
        self._warnings = warnings

    @property
    def names(self) -> tuple[str, ...]:
        """The names the model sees, in order."""
        return tuple(name for name, _ in self._entries)

    @property
    def entries(self) -> tuple[tuple[str, RcpTool], ...]:
        """``(name, tool)`` pairs: the name the model sees, the discovered tool."""
        return self._entries

    @property
    def warnings(self) -> tuple[str, ...]:
        """The discoveries' warnings as ``<pointer>: <message>`` lines, minus those of tools left out."""
        return tuple(warning.line for warning in self._warnings)

    def find(self, name: str) -> RcpTool:
        for entry_name, tool in self._entries:
            if entry_name == name:
                return tool
        if self._whole is not None and name in self._whole.names:
            raise RcpToolNotInStageError(name, self.stage)
        raise unknown_tool(name, self.names)

    def select(self, selection: Selection, *, stage: str | None = None) -> "ToolSet":
        """A subset in the order given (names) or of the tools a predicate keeps; an unknown name is ``RCP_UNKNOWN_TOOL``."""
        if callable(selection):
            chosen = tuple((name, tool) for name, tool in self._entries if selection(name, tool))
        else:
            by_name = dict(self._entries)
            picked: list[tuple[str, RcpTool]] = []
            for name in selection:
                if name not in by_name:
                    raise unknown_tool(name, self.names)
                if all(existing != name for existing, _ in picked):
                    picked.append((name, by_name[name]))
            chosen = tuple(picked)
        kept = {id(tool) for _, tool in chosen}
        warnings = tuple(warning for warning in self._warnings if warning.tool is None or id(warning.tool) in kept)
        return ToolSet(chosen, self._whole or self, stage, warnings)


def unknown_tool(name: str, available: Sequence[str]) -> RcpUnknownToolError:
    """``RCP_UNKNOWN_TOOL`` for ``name``, naming the closest available name and at most 20 of them."""
    text = name if isinstance(name, str) else str(name)
    shown = stringify(text[:64] + "…") if len(text) > 64 else stringify(text)
    closest = next((candidate for candidate in available if fold(candidate) == fold(text) or is_near_miss(candidate, text)), None)
    hint = f" Did you mean {stringify(closest)}?" if closest else ""
    if not available:
        return RcpUnknownToolError(f"Unknown tool {shown}.{hint} No tools are available.", tool=text, available=())
    listed = ", ".join(available[:20]) + (f" (and {len(available) - 20} more)" if len(available) > 20 else "")
    return RcpUnknownToolError(f"Unknown tool {shown}.{hint} Available tools: {listed}.", tool=text, available=tuple(available))


def create_tool_set(discoveries: Sequence[Discovery], *, namespace: Namespace | None = None) -> ToolSet:
    """One set of the tools of several discoveries, each under a name unique in the set
    (packages/rcp-client/docs/behaviour.md)."""
    counts: dict[str, int] = {}
    for discovery in discoveries:
        for tool in discovery.tools:
            counts[tool.name] = counts.get(tool.name, 0) + 1
    entries: list[tuple[str, RcpTool]] = []
    seen: set[str] = set()
    warnings: list[_Warning] = []
    for discovery in discoveries:
        prefix = (namespace or default_namespace)(discovery)
        if not isinstance(prefix, str) or not re.fullmatch(r"[A-Za-z0-9_-]+", prefix):
            raise RcpInvalidToolError("A namespace must match ^[A-Za-z0-9_-]+$.")
        for tool in discovery.tools:
            name = tool.name
            if counts[name] > 1:
                room = 64 - len(name) - 2
                if room < 1:
                    raise RcpInvalidToolError(f'The tool name "{name}" is too long to be namespaced within 64 characters.')
                name = f"{prefix[:room]}__{name}"
            if not _NAME.match(name) or name in seen:
                raise RcpInvalidToolError(f'Two tools would be called "{name}" in one tool set.')
            seen.add(name)
            entries.append((name, tool))
        for warning in discovery.warnings:
            match = _TOOL_POINTER.match(warning.path)
            owner = discovery.tools[int(match.group(1))] if match and int(match.group(1)) < len(discovery.tools) else None
            warnings.append(_Warning(f"{warning.path}: {warning.message}", owner))
    return ToolSet(tuple(entries), None, None, tuple(warnings))
