#!/usr/bin/env bash
# The README's test command: every test of every package in this repository, none skipped.
#
#   Scripts/test.sh            (from anywhere; a fresh clone needs nothing else)
#
# 1. Python's test peers (icalendar, websockets: Scripts/test-requirements.txt) in a virtual
#    environment of the repository's own, .build-python/, put first on PATH for the tests.
# 2. The library's tests, every trait on (Combine, WebSocket, SQLite), against the sandbox
#    server (Sandbox/, by path).
# 3. The apps' tests (Apps/: the `courier` command-line tool, its binary run as a person runs it).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

venv="$root/.build-python"
if ! "$venv/bin/python3" -c "import icalendar, websockets.asyncio.server" 2>/dev/null; then
  echo "test.sh: installing the Python test peers into .build-python (Scripts/test-requirements.txt)"
  python3 -m venv "$venv"
  "$venv/bin/python3" -m pip install --quiet --disable-pip-version-check -r Scripts/test-requirements.txt
fi
export PATH="$venv/bin:$PATH"

echo "test.sh: the library (swift test --enable-all-traits)"
swift test --enable-all-traits "$@"
echo "test.sh: the apps (swift test --package-path Apps)"
swift test --package-path Apps "$@"
echo "test.sh: every package's tests passed"
