"""The README's quick start is examples/quickstart.py, verbatim, and it prints what the README shows."""

from __future__ import annotations

import contextlib
import importlib.util
import io
import re
from pathlib import Path

from fixtures import serve_notes_api
from loopback import loopback_server

ROOT = Path(__file__).resolve().parents[1]


def _blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", (ROOT / "README.md").read_text("utf-8"), re.DOTALL)


def test_the_readme_shows_the_example_file_verbatim() -> None:
    assert (ROOT / "examples" / "quickstart.py").read_text("utf-8") in _blocks("python")


def test_the_example_runs_against_the_notes_api_and_prints_the_readme_output() -> None:
    spec = importlib.util.spec_from_file_location("quickstart", ROOT / "examples" / "quickstart.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    with loopback_server() as api:
        url = serve_notes_api(api)
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            module.main(url)
        assert printed.getvalue() in _blocks("text")
        assert [(request.method, request.target, request.headers["authorization"]) for request in api.tool_requests()] == [
            ("GET", "/users/u-1/notes?tag=home", "Bearer notes-token-123")
        ]
