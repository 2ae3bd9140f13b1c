"""Streamed answers (SPEC §20.6): Server-Sent Events or NDJSON parsed chunk by chunk as the body arrives, each
event's value collected into one result — joined text, the last value, or all of them."""

from __future__ import annotations

import codecs
import re

from ._json import Json, parse_json
from ._manifest import Stream
from .errors import RcpResponseError

#: The media types each format is answered with (lower-case, no parameters).
STREAM_MEDIA_TYPES: dict[str, tuple[str, ...]] = {
    "sse": ("text/event-stream",),
    "ndjson": ("application/x-ndjson", "application/ndjson", "application/jsonl", "application/x-jsonlines"),
}

#: The data an SSE stream sends to say it is over (OpenAI's convention, widely copied): no event.
_DONE = "[DONE]"
_NOTHING = object()
_LINE_END = re.compile(r"\r\n|\r|\n")


def stream_accept(stream_format: str) -> str:
    """The ``Accept`` header a streamed call sends unless the tool sets one."""
    if stream_format == "sse":
        return "text/event-stream"
    return ", ".join(STREAM_MEDIA_TYPES["ndjson"]) + ", application/json;q=0.5"


def _malformed(index: int, what: str) -> RcpResponseError:
    return RcpResponseError("RCP_INVALID_RESPONSE", f"Event {index} of the tool's stream {what}.", problem="stream-malformed", event=index)


class StreamCollector:
    """Feed it the decoded body's bytes as they come; :meth:`feed` says when to stop (``maxEvents`` or ``[DONE]``)."""

    def __init__(self, stream: Stream) -> None:
        self._stream = stream
        self._decoder = codecs.getincrementaldecoder("utf-8-sig")(errors="replace")
        self._pending = ""
        self._scanned = 0
        self._data: list[str] | None = None
        self._event_type = ""
        self._parts: list[str] = []
        self._values: list[Json] = []
        self._last: Json = None
        self.events = 0
        #: The stream said it is over (``[DONE]``): stopping there is no cut.
        self.ended = False

    @property
    def value(self) -> Json:
        collect = self._stream.collect
        if collect == "array":
            return list(self._values)
        if collect == "last":
            return self._last
        return "".join(self._parts)

    def feed(self, chunk: bytes, *, final: bool = False) -> bool:
        """Parse ``chunk`` (and, when ``final``, what is left); True when reading must stop."""
        text = self._pending + self._decoder.decode(chunk, final)
        start = 0
        # A long line is searched once: the search resumes where the last one ended.
        for match in _LINE_END.finditer(text, self._scanned):
            # A CR at the very end may be the first half of a CRLF: wait for the next chunk.
            if match.group() == "\r" and match.end() == len(text) and not final:
                self._pending, self._scanned = text[start:], match.start() - start
                return False
            stop = self._line(text[start : match.start()])
            start = match.end()
            if stop:
                self._pending, self._scanned = text[start:], 0
                return True
        self._pending = text[start:]
        self._scanned = len(self._pending)
        if final and self._pending:
            rest, self._pending, self._scanned = self._pending, "", 0
            # NDJSON's last line may lack its line feed; an SSE event without its blank line is not dispatched.
            return self._line(rest)
        return False

    def _line(self, line: str) -> bool:
        if self._stream.format == "ndjson":
            return False if line.strip() == "" else self._dispatch(line, "")
        if line == "":
            if self._data is None:
                self._event_type = ""
                return False
            data, event_type = "\n".join(self._data), self._event_type
            self._data, self._event_type = None, ""
            return self._dispatch(data, event_type)
        if line.startswith(":"):
            return False
        name, colon, value = line.partition(":")
        if colon and value.startswith(" "):
            value = value[1:]
        if name == "data":
            if self._data is None:
                self._data = []
            self._data.append(value)
        elif name == "event":
            self._event_type = value
        # ``id`` and ``retry`` tell a reconnecting browser where to resume: one call never reconnects.
        return False

    def _dispatch(self, data: str, event_type: str) -> bool:
        stream = self._stream
        if stream.format == "sse" and data == _DONE:
            self.ended = True
            return True
        self.events += 1
        index = self.events
        if event_type == "error":
            raise RcpResponseError(
                "RCP_INVALID_RESPONSE", f"The tool's server sent an error event (event {index}) in its stream.", problem="stream-error", event=index
            )
        value: object
        if stream.field is None and stream.format == "sse":
            value = data
        else:
            try:
                document = parse_json(data)
            except (ValueError, RecursionError):
                raise _malformed(index, "is not valid JSON") from None
            if stream.field is None:
                value = document
            else:
                matches = stream.field.select(document)
                value = matches[0] if matches else _NOTHING
        if value is not _NOTHING:
            collect = stream.collect
            if collect == "array":
                self._values.append(value)
            elif collect == "last":
                self._last = value
            elif isinstance(value, str):
                self._parts.append(value)
            else:
                raise _malformed(index, "is not text to concatenate")
        return stream.max_events is not None and index >= stream.max_events
