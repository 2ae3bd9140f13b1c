"""The manifests and media the TypeScript adapters' tests use (test/test-utils: fixtures.ts,
details-manifest.ts, results-api.ts, media.ts), as data, so both implementations are checked against the
same fixtures.
"""

from __future__ import annotations

import base64
import json
from typing import Any
from urllib.parse import parse_qs

from loopback import Answer, Handler, LoopbackServer, Received, json_answer

SEED_MANIFEST: dict[str, Any] = {
    "rcpVersion": "0.1",
    "auth": {"type": "none"},
    "tools": [
        {
            "name": "get_learner_profile",
            "description": "Fetches a learner's plan and progress by id.",
            "method": "GET",
            "url": "https://api.example.com/learners/{{learnerId}}/profile",
            "params": [{"name": "learnerId", "type": "string", "description": "The learner's id"}],
            "responseMappings": {"name": "@data.name", "progress": "@data.progress.percent"},
        },
        {
            "name": "search_courses",
            "description": "Searches the course catalog by free-text query.",
            "method": "GET",
            "url": "https://api.example.com/courses/search",
            "queryParams": {"q": "{{query}}"},
            "params": [{"name": "query", "type": "string", "description": "Free-text search term", "required": True}],
        },
    ],
}

RESOLVER_SEED_MANIFEST: dict[str, Any] = {
    "rcpVersion": "0.1",
    "auth": {"type": "header", "name": "Authorization", "scheme": "Bearer"},
    "tools": [
        {
            "name": "get_profile",
            "description": "Get the current user's profile.",
            "method": "GET",
            "url": "/users/{{userId}}",
            "params": [{"name": "userId", "type": "string", "description": "the user's id", "required": True}],
        }
    ],
}

DETAILS_MANIFEST: dict[str, Any] = {
    "rcpVersion": "0.2",
    "tools": [
        {
            "name": "search_items",
            "description": "Searches the catalog.",
            "method": "GET",
            "url": "/search",
            "queryParams": {"q": "{{q}}", "site": "{{site}}", "since": "{{since}}", "code": "{{code}}", "limit": "{{limit}}", "status": "{{status}}", "size": "{{size}}"},
            "params": [
                {"name": "q", "required": True, "description": "Search terms", "minLength": 2, "maxLength": 40},
                {"name": "site", "description": "Only this site", "format": "uri"},
                {"name": "since", "format": "date-time"},
                {"name": "code", "pattern": "^[A-Z]{3}$"},
                {"name": "limit", "type": "integer", "minimum": 1, "maximum": 50, "default": 10},
                {"name": "status", "enum": ["open", "closed"]},
                {"name": "size", "type": "integer", "enum": [1, 2]},
            ],
        },
        {"name": "ping", "description": "Checks the service.", "method": "GET", "url": "/ping"},
    ],
}

RESULTS_RECORDS = [{"id": "r-1", "title": "Alpha"}, {"id": "r-2", "title": "Beta"}, {"id": "r-3", "title": "Gamma"}, {"id": "r-4", "title": "Delta"}, {"id": "r-5", "title": "Epsilon"}]
RESULTS_ARCHIVE_BYTES = 4096
RESULTS_MAX_MEDIA_BYTES = 2048
RESULTS_RETRY_AFTER_SECONDS = 120

RESULTS_MANIFEST: dict[str, Any] = {
    "rcpVersion": "0.3",
    "tools": [
        {"name": "get_chart", "description": "Gets the sales chart as an image.", "method": "GET", "url": "/chart.png", "effects": {"readOnly": True}},
        {"name": "get_report", "description": "Gets the monthly report as a PDF.", "method": "GET", "url": "/report.pdf", "responseMediaTypes": ["application/pdf"]},
        {"name": "get_archive", "description": "Downloads the whole archive.", "method": "GET", "url": "/archive.bin", "responseMediaTypes": ["application/octet-stream"]},
        {
            "name": "list_records",
            "description": "Lists records, two per page.",
            "method": "GET",
            "url": "/records",
            "params": [{"name": "cursor", "type": "string", "description": "Where the page starts (from the previous page)"}],
            "queryParams": {"cursor": "{{cursor}}"},
            "responseMappings": {"records": "@items[*]", "next": "@next"},
            "pagination": {"nextCursor": "@next", "param": "cursor"},
        },
        {"name": "get_busy", "description": "Gets the queue status.", "method": "GET", "url": "/busy"},
        {
            "name": "get_record",
            "description": "Gets one record.",
            "method": "GET",
            "url": "/records/{{id}}",
            "params": [{"name": "id", "type": "string", "required": True, "description": "A record id from list_records"}],
            "responseMappings": {"id": "@id", "title": "@title"},
        },
    ],
}


def png_bytes() -> bytes:
    """A valid 1×1 PNG: 70 bytes."""
    return base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==")


def pdf_bytes() -> bytes:
    """A valid one-page PDF 1.4 with a binary comment line and real cross-reference offsets."""
    objects = ["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>", "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 72 72] >>"]
    text = "%PDF-1.4\n%\xe2\xe3\xcf\xd3\n"
    offsets: list[int] = []
    for index, body in enumerate(objects):
        offsets.append(len(text.encode("latin-1")))
        text += f"{index + 1} 0 obj\n{body}\nendobj\n"
    xref = len(text.encode("latin-1"))
    text += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n"
    for offset in offsets:
        text += f"{offset:010d} 00000 n \n"
    text += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n"
    return text.encode("latin-1")


def serve_results_api(server: LoopbackServer) -> str:
    """Answer the results API on ``server``; returns the manifest URL."""

    def handle(request: Received) -> Answer:
        path = request.path
        if path == "/rcp/manifest":
            return json_answer(200, RESULTS_MANIFEST)
        if path == "/chart.png":
            return Answer(200, [("Content-Type", "image/png")], png_bytes())
        if path == "/report.pdf":
            return Answer(200, [("Content-Type", "application/pdf")], pdf_bytes())
        if path == "/archive.bin":
            return Answer(200, [("Content-Type", "application/octet-stream")], bytes([7]) * RESULTS_ARCHIVE_BYTES)
        if path == "/records":
            query = parse_qs(request.target.partition("?")[2])
            start = int(query["cursor"][0][1:]) if "cursor" in query else 0
            end = start + 2
            return json_answer(200, {"items": RESULTS_RECORDS[start:end], "next": f"c{end}" if end < len(RESULTS_RECORDS) else None})
        if path == "/busy":
            return json_answer(429, {"error": "slow down"}, [("Retry-After", str(RESULTS_RETRY_AFTER_SECONDS))])
        for record in RESULTS_RECORDS:
            if path == f"/records/{record['id']}":
                return json_answer(200, {**record, "internal": "x"})
        return Answer(404, [("Content-Type", "application/json")], json.dumps({"error": "not found"}).encode())

    server.handler = handle
    return server.url("/rcp/manifest")


def serve_manifest(server: LoopbackServer, manifest: dict[str, Any], answer: Handler | None = None) -> str:
    """Serve ``manifest`` at /rcp/manifest and ``answer`` (default ``{}``) to anything else."""
    server.handler = lambda request: json_answer(200, manifest) if request.path == "/rcp/manifest" else (answer(request) if answer else json_answer(200, {}))
    return server.url("/rcp/manifest")


NOTES_TOKEN = "notes-token-123"

NOTES_MANIFEST: dict[str, Any] = {
    "rcpVersion": "0.1",
    "auth": {"type": "header", "name": "Authorization", "scheme": "Bearer"},
    "tools": [
        {
            "name": "list_notes",
            "description": "Lists the user's notes.",
            "method": "GET",
            "url": "/users/{{userId}}/notes",
            "queryParams": {"tag": "{{tag}}"},
            "params": [{"name": "userId", "required": True, "description": "Whose notes"}, {"name": "tag", "description": "Only notes with this tag"}],
        },
        {
            "name": "get_note",
            "description": "Gets one note.",
            "method": "GET",
            "url": "/users/{{userId}}/notes/{{noteId}}",
            "params": [{"name": "userId", "required": True}, {"name": "noteId", "required": True, "description": "A note id from list_notes"}],
        },
        {
            "name": "create_note",
            "description": "Creates a note.",
            "method": "POST",
            "url": "/users/{{userId}}/notes",
            "body": {"title": "{{title}}", "text": "{{text}}", "pinned": "{{pinned}}"},
            "params": [
                {"name": "userId", "required": True},
                {"name": "title", "required": True, "description": "The title"},
                {"name": "text", "description": "The body text"},
                {"name": "pinned", "type": "boolean", "description": "Keep it on top"},
            ],
        },
        {
            "name": "delete_note",
            "description": "Deletes a note.",
            "method": "DELETE",
            "url": "/users/{{userId}}/notes/{{noteId}}",
            "params": [{"name": "userId", "required": True}, {"name": "noteId", "required": True}],
        },
    ],
}


def serve_notes_api(server: LoopbackServer) -> str:
    """The notes API (test/test-utils notes-api.ts): user u-1, note n-1, bearer NOTES_TOKEN."""

    def handle(request: Received) -> Answer:
        authorised = request.headers.get("authorization") == f"Bearer {NOTES_TOKEN}"
        route = f"{request.method} {request.path}"
        if route == "GET /rcp/manifest":
            return json_answer(200, NOTES_MANIFEST)
        if route == "GET /users/u-1/notes":
            return json_answer(200, [{"id": "n-1", "title": "Groceries"}]) if authorised else json_answer(401, {"error": "unauthorised"})
        if route == "GET /users/u-1/notes/n-1":
            return json_answer(200, {"id": "n-1", "title": "Groceries", "text": "eggs"}) if authorised else json_answer(401, {})
        if route == "POST /users/u-1/notes":
            return json_answer(201, {"id": "n-2", **json.loads(request.body or b"{}")})
        if route == "DELETE /users/u-1/notes/n-1":
            return Answer(204, [], b"")
        return json_answer(404, {"error": "not found"})

    server.handler = handle
    return server.url("/rcp/manifest")
