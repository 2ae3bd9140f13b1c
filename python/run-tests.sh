#!/usr/bin/env bash
# The Python client's checks: mypy --strict, then pytest, on Debian's python3 (the packages python3-pytest and mypy;
# PyPI is not needed). Outside CI, a machine without them skips with a notice; with CI=true they must run.
set -euo pipefail
cd "$(dirname "$0")"
missing=()
[ -x /usr/bin/mypy ] || missing+=(mypy)
/usr/bin/python3 -c 'import pytest' >/dev/null 2>&1 || missing+=(python3-pytest)
if [ "${#missing[@]}" -gt 0 ]; then
  if [ "${CI:-}" = "true" ]; then
    echo "rcp-python: missing Debian packages: ${missing[*]} (.ci/run installs them)" >&2
    exit 1
  fi
  echo "rcp-python: SKIPPED — the Python client's tests need Debian's ${missing[*]} (sudo apt-get install python3-pytest mypy python3-setuptools python3-wheel)" >&2
  exit 0
fi
/usr/bin/mypy --strict
# The JUnit report gives each test's time to scripts/test-times.mjs (the slowest tests, at the end of .ci/run).
/usr/bin/python3 -m pytest --junitxml=../.test-reports/python.xml
