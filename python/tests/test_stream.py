"""The stream parser of SPEC §20.6, fed the way a socket delivers: any split of the bytes gives the same events."""

from __future__ import annotations

import pytest

from rcp._jsonpath import parse_json_path
from rcp._manifest import Stream, mapping_query
from rcp._stream import StreamCollector
from rcp.errors import RcpResponseError

SSE = b"\xef\xbb\xbf" + b'id: 1\r\nevent: delta\r\ndata: {"t":\r\ndata: "a\xc3\xa9"}\r\n\r\n: ping\r\rdata: {"t":"b"}\n\ndata: [DONE]\n\ndata: {"t":"late"}\n\n'


def _collect(stream: Stream, body: bytes, size: int) -> StreamCollector:
    collector = StreamCollector(stream)
    for start in range(0, len(body), size):
        if collector.feed(body[start : start + size]):
            return collector
    collector.feed(b"", final=True)
    return collector


@pytest.mark.parametrize("size", [1, 2, 3, 7, 1000])
def test_sse_any_split(size: int) -> None:
    stream = Stream("sse", "concat", parse_json_path(mapping_query("@t")), None)
    collector = _collect(stream, SSE, size)
    assert (collector.value, collector.events, collector.ended) == ("aéb", 2, True)


@pytest.mark.parametrize("size", [1, 5, 1000])
def test_ndjson_any_split_last_line_without_feed(size: int) -> None:
    stream = Stream("ndjson", "array", None, None)
    collector = _collect(stream, b'{"n":1}\r\n\n{"n":2}\r{"n":3}', size)
    assert collector.value == [{"n": 1}, {"n": 2}, {"n": 3}]


def test_max_events_stops() -> None:
    stream = Stream("ndjson", "last", None, 2)
    collector = StreamCollector(stream)
    assert collector.feed(b'{"n":1}\n{"n":2}\n{"n":3}\n') is True
    assert (collector.value, collector.events, collector.ended) == ({"n": 2}, 2, False)


def test_error_event_and_malformed_line_name_the_event() -> None:
    with pytest.raises(RcpResponseError) as error:
        _collect(Stream("sse", "concat", None, None), b"data: a\n\nevent: error\ndata: secret text\n\n", 1000)
    assert (error.value.problem, error.value.event) == ("stream-error", 2)
    assert "secret" not in str(error.value)
    with pytest.raises(RcpResponseError) as malformed:
        _collect(Stream("ndjson", "array", None, None), b"{}\nnope\n", 1000)
    assert (malformed.value.problem, malformed.value.event) == ("stream-malformed", 2)
