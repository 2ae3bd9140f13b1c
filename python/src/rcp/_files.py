"""RCP 0.4 files (SPEC §20.7): the reference rule, the host's resolved file, and the multipart body.

The model names a file by a **reference** (an id or URI the host gave), never by bytes or a path; the client's
``files`` resolver turns it into a :class:`ResolvedFile` under the host's rules. Each file is checked against its
param's ``mediaTypes`` and ``maxBytes`` and what is left of the client's ``max_upload_bytes``, hashed (SHA-256, what
``prepare`` shows) and only then sent, as one part of a ``multipart/form-data`` body (RFC 7578) streamed in chunks.
Nothing here opens a socket; every refusal happens before the request starts.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import tempfile
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator, Protocol, Union

from ._json import Json, is_finite_number, js_number, stringify
from ._manifest import MEDIA_RANGE, FileField
from .errors import Issue, RcpInvalidArgumentsError, RcpResolverFailedError, RcpTemplateError, RcpUnresolvedError

#: Longest reference accepted, in characters: an id or a URI, never a file's bytes.
FILE_REFERENCE_MAX_LENGTH = 2048
#: The client's default upload limit: every file part of one call together.
DEFAULT_MAX_UPLOAD_BYTES = 32 * 1024 * 1024
#: A stream is spooled in memory up to this size, then to a temporary file (never held whole past it).
SPOOL_IN_MEMORY_BYTES = 1024 * 1024
_CHUNK = 64 * 1024

# C0 controls, DEL and C1 controls: never in an id or a URI a host issued.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
# A URI scheme of two characters or more (``C:`` is a drive, not a scheme).
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]+):")
_DRIVE = re.compile(r"^[A-Za-z]:")
_FILENAME_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def file_reference_problem(reference: str) -> str | None:
    """Why a model's file reference is refused (SPEC §20.7, M27.15), or ``None`` when the resolver may see it.

    Refused: the empty string; more than 2,048 characters; a control character; a ``data:`` or ``file:`` URI; a
    drive (``C:``); and, without a scheme of two or more characters, any ``/`` or ``\\``, a leading ``~``, ``.`` or
    ``..``. The message names the rule, never the reference.

    >>> file_reference_problem("file-abc123") is None
    True
    >>> file_reference_problem("../uploads/chart.png")
    'must be an attachment reference, not a path'
    """
    if reference == "":
        return "must be an attachment reference (it is empty)"
    if len(reference.encode("utf-16-le")) // 2 > FILE_REFERENCE_MAX_LENGTH:
        return f"must be an attachment reference of at most {FILE_REFERENCE_MAX_LENGTH} characters, never the file's bytes"
    if _CONTROL.search(reference):
        return "must be an attachment reference (it contains a control character)"
    match = _SCHEME.match(reference)
    scheme = match.group(1).lower() if match else None
    if scheme == "data":
        return "must be an attachment reference, not the file's bytes (a data: URI)"
    if scheme == "file":
        return "must be an attachment reference, not a path (a file: URI)"
    if scheme is not None:
        return None
    if _DRIVE.match(reference) or "/" in reference or "\\" in reference or reference.startswith("~") or reference in (".", ".."):
        return "must be an attachment reference, not a path"
    return None


class BinaryReader(Protocol):
    """What a file stream must offer: ``read(size)`` → up to ``size`` bytes, ``b""`` at the end (an open binary file)."""

    def read(self, size: int, /) -> bytes: ...


@dataclass(frozen=True)
class ResolvedFile:
    """A file the ``files`` resolver hands over: its ``filename``, ``media_type`` and content — ``data`` (bytes), or
    ``stream`` (a binary file object with ``read``, or an iterable of bytes) with its ``size`` when known.

    A stream is read once, before the request starts (the review's SHA-256 covers it), counted against the limits and
    abandoned as soon as it passes one; the client closes it when it has a ``close``. A stream that yields another
    number of bytes than its ``size`` fails the call (``RCP_RESOLVER_FAILED``), nothing sent.

    >>> ResolvedFile(filename="chart.png", media_type="image/png", data=b"\\x89PNG...").media_type
    'image/png'
    """

    filename: str
    media_type: str
    data: bytes | None = None
    stream: Union[BinaryReader, Iterable[bytes], None] = None
    size: int | None = None


@dataclass(frozen=True)
class FileResolverInfo:
    """What a file resolver is told: the tool, the file param and the param's limits."""

    tool: str
    param: str
    media_types: tuple[str, ...] | None
    max_bytes: int | None


#: ``files(reference, ctx, info)`` → the file the reference names for this ``ctx``'s user, or ``None`` (no file).
FileResolver = Callable[[str, Any, FileResolverInfo], Union[ResolvedFile, None]]


class StreamedBody(Protocol):
    """A request body sent in chunks: its exact length, and its chunks from the start (again for a retry)."""

    @property
    def length(self) -> int: ...

    def chunks(self) -> Iterator[bytes]: ...


class _Content(Protocol):
    def read_all(self) -> Iterator[bytes]: ...

    def close(self) -> None: ...


class _BytesContent:
    def __init__(self, data: bytes) -> None:
        self._data = data

    def read_all(self) -> Iterator[bytes]:
        for offset in range(0, len(self._data), _CHUNK):
            yield self._data[offset : offset + _CHUNK]

    def close(self) -> None:
        pass


class _SpooledContent:
    """A stream's bytes, as read once: in memory up to a megabyte, then in a temporary file."""

    def __init__(self, spool: "tempfile.SpooledTemporaryFile[bytes]") -> None:
        self._spool = spool

    def read_all(self) -> Iterator[bytes]:
        self._spool.seek(0)
        while True:
            chunk = self._spool.read(_CHUNK)
            if not chunk:
                return
            yield chunk

    def close(self) -> None:
        self._spool.close()


@dataclass(frozen=True)
class _TextPart:
    name: str
    text: str


@dataclass(frozen=True)
class _FilePart:
    name: str
    filename: str
    media_type: str
    content: _Content
    size: int


class MultipartBody:
    """A built ``multipart/form-data`` body: its Content-Type (with the boundary), its length, its chunks, and what a
    person is shown (``shown``: each text value; each file's param, filename, media type, size and SHA-256)."""

    def __init__(self, parts: list[_TextPart | _FilePart], shown: list[dict[str, Json]]) -> None:
        # A random boundary per request, 128 bits: no content can guess it (RFC 2046's characters, 36 of 70).
        self.boundary = "rcp-" + secrets.token_hex(16)
        self.content_type = f"multipart/form-data; boundary={self.boundary}"
        self.shown: dict[str, Json] = {"multipart": shown}
        self._parts = parts
        self._heads = [self._head(part) for part in parts]
        self._tail = f"--{self.boundary}--\r\n".encode("ascii")
        self.length = sum(len(head) for head in self._heads) + sum(part.size + 2 for part in parts if isinstance(part, _FilePart)) + len(self._tail)

    def _head(self, part: _TextPart | _FilePart) -> bytes:
        head = f'--{self.boundary}\r\nContent-Disposition: form-data; name="{_quoted(part.name)}"'
        if isinstance(part, _FilePart):
            head += f'; filename="{_quoted(part.filename)}"\r\nContent-Type: {part.media_type}\r\n\r\n'
        else:
            head += f"\r\n\r\n{part.text}\r\n"
        return head.encode("utf-8")

    def chunks(self) -> Iterator[bytes]:
        for head, part in zip(self._heads, self._parts):
            yield head
            if isinstance(part, _FilePart):
                yield from part.content.read_all()
                yield b"\r\n"
        yield self._tail

    def close(self) -> None:
        """Drop the spooled streams (a temporary file past a megabyte)."""
        for part in self._parts:
            if isinstance(part, _FilePart):
                part.content.close()


def _quoted(text: str) -> str:
    """A name or filename inside a quoted Content-Disposition parameter: ``"`` CR LF as the WHATWG encoder writes them."""
    return text.replace("\r", "%0D").replace("\n", "%0A").replace('"', "%22")


def field_text(value: Json) -> str | None:
    """The text of a multipart field that is not a file: a string as written, a number as ECMAScript writes it,
    ``true``/``false``, an object or array as its JSON; a missing value is no part (``None``).

    >>> field_text({"a": [1, "x"]})
    '{"a":[1,"x"]}'
    """
    if value is None:
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        if not is_finite_number(value):
            raise RcpTemplateError("RCP_TEMPLATE_VALUE", "A multipart field cannot carry a number that is not finite")
        return js_number(value)
    return stringify(value)


def _refused(tool: str, param: str, message: str) -> RcpInvalidArgumentsError:
    issue = Issue(f"/{param}", message)
    return RcpInvalidArgumentsError(f'Invalid arguments for tool "{tool}": {issue}', issues=(issue,), tool=tool)


def _too_large(tool: str, entry: FileField, limit: int) -> RcpInvalidArgumentsError:
    whose = "this param accepts" if entry.max_bytes is not None and limit == entry.max_bytes else "the client's upload limit leaves"
    return _refused(tool, entry.param, f"the file is larger than the {limit} bytes {whose}")


def _failed(tool: str, param: str, why: str) -> RcpResolverFailedError:
    return RcpResolverFailedError(f'The file resolver for param "{param}" of tool "{tool}" {why}; nothing was sent.', param=param)


def _accepts(ranges: tuple[str, ...] | None, media_type: str) -> bool:
    if ranges is None:
        return True
    return any(media_type.startswith(entry[:-1]) if entry.endswith("/*") else media_type == entry for entry in ranges)


def _close_stream(stream: object) -> None:
    close = getattr(stream, "close", None)
    if callable(close):
        try:
            close()
        except Exception:  # noqa: BLE001 - a stream that cannot close is the host's; the call's outcome stands
            pass


def _checked(tool: str, entry: FileField, answer: object) -> ResolvedFile:
    """The resolver's answer checked field by field; none of its values reaches a message."""
    if answer is None:
        raise RcpUnresolvedError(f'The file for param "{entry.param}" of tool "{tool}" could not be resolved: the file resolver returned nothing; nothing was sent.', param=entry.param)
    if not isinstance(answer, ResolvedFile):
        raise _failed(tool, entry.param, f"returned a {type(answer).__name__}, not a ResolvedFile")
    filename = answer.filename
    if not isinstance(filename, str) or filename == "" or len(filename) > 255 or _FILENAME_CONTROL.search(filename):
        raise _failed(tool, entry.param, "returned a file without a usable filename (1 to 255 characters, no control characters)")
    if not isinstance(answer.media_type, str) or not MEDIA_RANGE.match(answer.media_type) or answer.media_type.endswith("/*"):
        raise _failed(tool, entry.param, 'returned a file without a media type ("type/subtype", no parameters)')
    has_data = isinstance(answer.data, (bytes, bytearray, memoryview))
    if has_data == (answer.stream is not None):
        raise _failed(tool, entry.param, "must return a file with exactly one of data (bytes) and stream")
    if answer.stream is not None:
        if answer.size is not None and (isinstance(answer.size, bool) or not isinstance(answer.size, int) or answer.size < 0):
            raise _failed(tool, entry.param, "returned a stream whose size is not a whole number of bytes")
        if not (callable(getattr(answer.stream, "read", None)) or isinstance(answer.stream, Iterable)) or isinstance(answer.stream, (str, bytes)):
            raise _failed(tool, entry.param, "returned a stream that is neither a binary file object nor an iterable of bytes")
    return answer


def _stream_chunks(stream: Union[BinaryReader, Iterable[bytes]]) -> Iterator[object]:
    if callable(getattr(stream, "read", None)):
        reader: BinaryReader = stream  # type: ignore[assignment]
        while True:
            chunk = reader.read(_CHUNK)
            if not chunk:
                return
            yield chunk
    else:
        iterable: Iterable[bytes] = stream  # type: ignore[assignment]
        yield from iterable


def _spool(tool: str, entry: FileField, file: ResolvedFile, limit: int, digest: "hashlib._Hash") -> tuple[_SpooledContent, int]:
    """A stream read once under ``limit`` (abandoned as soon as it passes it), hashed as it is read, spooled."""
    assert file.stream is not None
    if file.size is not None and file.size > limit:
        _close_stream(file.stream)
        raise _too_large(tool, entry, limit)
    spool: "tempfile.SpooledTemporaryFile[bytes]" = tempfile.SpooledTemporaryFile(max_size=SPOOL_IN_MEMORY_BYTES)
    total = 0
    try:
        for chunk in _stream_chunks(file.stream):
            if not isinstance(chunk, (bytes, bytearray, memoryview)):
                raise _failed(tool, entry.param, "returned a stream that yielded something other than bytes")
            total += len(chunk)
            if total > limit:
                raise _too_large(tool, entry, limit)
            if file.size is not None and total > file.size:
                raise _failed(tool, entry.param, "returned a stream longer than the size it declared")
            digest.update(chunk)
            spool.write(chunk)
        if file.size is not None and total != file.size:
            raise _failed(tool, entry.param, "returned a stream shorter than the size it declared")
    except (RcpInvalidArgumentsError, RcpResolverFailedError):
        spool.close()
        raise
    except Exception as error:  # noqa: BLE001 - the host's stream failed while read: the resolver's failure
        spool.close()
        raise RcpResolverFailedError(
            f'The file resolver for param "{entry.param}" of tool "{tool}" returned a stream that failed while it was read ({type(error).__name__}); nothing was sent.',
            param=entry.param,
        ) from None
    finally:
        _close_stream(file.stream)
    return _SpooledContent(spool), total


def build_multipart(
    tool: str, fields: tuple[FileField, ...], rendered: Json, resolver: FileResolver | None, ctx: Any, max_upload_bytes: int
) -> MultipartBody:
    """The multipart body of one call from its rendered body (an object of fields, in order): each file field's
    reference resolved, checked and hashed, one after another, each under what is left of ``max_upload_bytes``.

    Raises before anything is sent: ``RCP_UNRESOLVED`` (no resolver, no file), ``RCP_RESOLVER_FAILED`` (a throw, a
    malformed file), ``RCP_INVALID_ARGUMENTS`` at the param (a media type or a size the limits refuse).
    """
    assert isinstance(rendered, dict)
    by_field = {entry.field: entry for entry in fields}
    parts: list[_TextPart | _FilePart] = []
    shown: list[dict[str, Json]] = []
    left = max_upload_bytes
    try:
        for name, value in rendered.items():
            entry = by_field.get(name)
            if entry is None:
                text = field_text(value)
                if text is not None:
                    parts.append(_TextPart(name, text))
                    shown.append({"name": name, "value": text})
                continue
            if not isinstance(value, str):
                continue  # not given: no part (the argument check took only strings)
            if resolver is None:
                raise RcpUnresolvedError(f'The file for param "{entry.param}" of tool "{tool}" could not be resolved: the client has no "files" option; nothing was sent.', param=entry.param)
            try:
                answer = resolver(value, ctx, FileResolverInfo(tool, entry.param, entry.media_types, entry.max_bytes))
            except Exception as error:  # noqa: BLE001 - the resolver's failure is the call's, its text never shown
                raise RcpResolverFailedError(f'The file resolver for param "{entry.param}" of tool "{tool}" failed ({type(error).__name__}); nothing was sent.', param=entry.param) from None
            file = _checked(tool, entry, answer)
            media_type = file.media_type.lower()
            limit = left if entry.max_bytes is None else min(left, entry.max_bytes)
            if not _accepts(entry.media_types, media_type):
                if file.stream is not None:
                    _close_stream(file.stream)
                raise _refused(tool, entry.param, f"the file's media type is not one this param accepts ({', '.join(entry.media_types or ())})")
            digest = hashlib.sha256()
            content: _Content
            if file.data is not None:
                data = bytes(file.data)
                if len(data) > limit:
                    raise _too_large(tool, entry, limit)
                digest.update(data)
                content, size = _BytesContent(data), len(data)
            else:
                content, size = _spool(tool, entry, file, limit, digest)
            left -= size
            parts.append(_FilePart(name, file.filename, media_type, content, size))
            shown.append({"name": name, "param": entry.param, "filename": file.filename, "mediaType": media_type, "size": size, "sha256": digest.hexdigest()})
    except BaseException:
        for part in parts:
            if isinstance(part, _FilePart):
                part.content.close()
        raise
    return MultipartBody(parts, shown)
