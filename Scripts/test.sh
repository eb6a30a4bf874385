#!/usr/bin/env bash
# The README's test command: every test of every package in this repository, none skipped.
#
#   Scripts/test.sh            (from anywhere; a fresh clone needs nothing else)
#
# 1. Python's test peers (icalendar, websockets, pproxy, haralyzer: Scripts/test-requirements.txt) in a virtual
#    environment of the repository's own, .build-python/, put first on PATH for the tests.
# 2. The library's tests, every trait on (Combine, WebSocket, SQLite), against the sandbox
#    server (Sandbox/, by path): every suite in parallel, then the suites tagged `.timing` (their
#    assertions have wall-clock upper bounds) one test at a time. Arguments (e.g. --filter X) give
#    one pass with them instead.
# 3. The apps' tests (Apps/: the `courier` command-line tool, its binary run as a person runs it).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

venv="$root/.build-python"
if ! "$venv/bin/python3" -c "import icalendar, websockets.asyncio.server, pproxy, haralyzer" 2>/dev/null; then
  echo "test.sh: installing the Python test peers into .build-python (Scripts/test-requirements.txt)"
  python3 -m venv "$venv"
  "$venv/bin/python3" -m pip install --quiet --disable-pip-version-check -r Scripts/test-requirements.txt
fi
export PATH="$venv/bin:$PATH"

if [ $# -gt 0 ]; then
  echo "test.sh: the library (swift test --enable-all-traits $*)"
  swift test --enable-all-traits "$@"
else
  # Suites tagged `.timing` (Tests/IntegrationTestSupport/TimingTag.swift: wall-clock upper bounds)
  # or `.cpuBound` (seconds of parsing that would hold the few threads the other suites need)
  # run in a second pass, one test at a time, so that the first pass's hundred parallel suites
  # cannot stall them for seconds; their names are read off the tag, never listed by hand.
  timed=$(awk '/@Suite\(.*\.tags\(.*\.(timing|cpuBound)/ {f=1; next}
    f && match($0, /(struct|class|enum) [A-Za-z0-9_]+/) {s=substr($0, RSTART, RLENGTH); sub(/.* /, "", s); print s; f=0}' \
    $(grep -rlE --include='*.swift' 'tags\(.*\.(timing|cpuBound)' Tests) | sort | paste -sd'|')
  [ -n "$timed" ] || { echo "test.sh: no suite tagged .timing found" >&2; exit 1; }
  pattern="\.($timed)(/|\$)"
  echo "test.sh: the library, every suite but the timed ones (swift test --enable-all-traits --skip '$pattern')"
  swift test --enable-all-traits --skip "$pattern"
  echo "test.sh: the library's timed suites, one test at a time (swift test --enable-all-traits --no-parallel --filter '$pattern')"
  swift test --enable-all-traits --no-parallel --filter "$pattern"
fi
echo "test.sh: the apps (swift test --package-path Apps)"
swift test --package-path Apps "$@"
echo "test.sh: every package's tests passed"
