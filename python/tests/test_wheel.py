"""The package builds a wheel with the standard tools, offline (pip, setuptools: Debian's packages)."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.skipif(importlib.util.find_spec("pip") is None or importlib.util.find_spec("setuptools") is None, reason="needs pip and setuptools (Debian: python3-pip, python3-setuptools)")
def test_a_wheel_builds_offline_and_holds_the_typed_package(tmp_path: Path) -> None:
    source = tmp_path / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns("tests", "build", "dist", "*.egg-info", "__pycache__", ".mypy_cache", "node_modules"))
    # A separate process, as the build tools run; it takes a few seconds of CPU, well under any limit here.
    completed = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-q", "-w", str(tmp_path / "dist"), str(source)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    (wheel,) = (tmp_path / "dist").glob("rcp-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert {"rcp/__init__.py", "rcp/py.typed", "rcp/client.py", "rcp/_jsonpath.py"} <= set(names)
    assert not any(name.startswith("tests/") for name in names)
