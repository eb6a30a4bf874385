#!/usr/bin/env bash
# The outbox's crash test: `kill -9` of a flushing `courier outbox flush` at random instants, then
# two flushes of one directory at once; afterwards every write is delivered exactly once by the
# server's count, none was sent with two keys, and no temporary file is left behind.
#
#   Scripts/outbox-crash-test.sh [KILLS] [WRITES]     (defaults: 60 kills, 60 writes)
#
# Uses the debug `courier` binary of Apps/ (built if missing) and starts the sandbox itself
# (`courier serve`) on a free port. Each write is first queued the way a flaky network queues it:
# sent with a 100 ms timeout to a route that takes 300 ms (the server does the work, the answer is
# lost: exit 75). Replays carry the same key, so the server replays its stored answer.
set -euo pipefail
cd "$(dirname "$0")/.."
kills=${1:-60}
writes=${2:-60}
courier=Apps/.build/debug/courier
[ -x "$courier" ] || swift build --package-path Apps --product courier >/dev/null
work=$(mktemp -d)
trap 'kill $server 2>/dev/null || true; rm -rf "$work"' EXIT
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$courier" serve --port "$port" --data-dir "$work/data" >"$work/serve.log" 2>&1 &
server=$!
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/status/200" >/dev/null && break; sleep 0.1; done
base="http://127.0.0.1:$port"

# stats STORE → "created requests distinct-keys max-requests-per-key"
stats() {
    curl -sf "$base/idempotent/$1/stats" | python3 -c '
import json, sys
s = json.load(sys.stdin); keys = s["keys"]
print(s["created"], s["requests"], len({k["key"] for k in keys}), max([k["requests"] for k in keys] or [0]))'
}

# queue STORE DIR N: N writes queued in DIR (their first answers lost)
queue() {
    for i in $(seq "$3"); do
        code=0
        "$courier" request POST "$base/idempotent/$1?delayMs=300" --json "{\"n\":$i}" --outbox "$2" --timeout 0.1 >/dev/null 2>&1 || code=$?
        [ "$code" = 75 ] || { echo "write $i: exit $code, expected 75 (queued)"; exit 1; }
    done
}

# flush_all DIR: flushes until nothing is queued (a 409 while a killed attempt's request is still being processed is transient)
flush_all() {
    for _ in $(seq 60); do
        code=0
        "$courier" outbox flush "$1" >/dev/null 2>&1 || code=$?
        [ "$code" = 0 ] && return 0
        [ "$code" = 75 ] || { echo "flush: exit $code"; exit 1; }
        sleep 0.3
    done
    echo "flush: still queued after 60 flushes"; exit 1
}

echo "== kill -9 of a flushing process, $kills times, $writes writes"
store="crash-$RANDOM$RANDOM"
dir="$work/outbox"
queue "$store" "$dir" "$writes"
killed=0
for k in $(seq "$kills"); do
    "$courier" outbox flush "$dir" >/dev/null 2>&1 &
    pid=$!
    sleep "$(python3 -c 'import random; print(round(random.uniform(0.02, 0.6), 3))')"
    if kill -9 "$pid" 2>/dev/null; then killed=$((killed + 1)); fi
    wait "$pid" 2>/dev/null || true
done
left=$(ls "$dir" | grep -c '\.entry$' || true)
echo "killed $killed flushes mid-run ($((kills - killed)) had ended first); $left of $writes writes still queued before the last flush"
flush_all "$dir"
read -r created requests distinct most <<<"$(stats "$store")"
temporaries=$(ls -a "$dir" | grep -c '^\.tmp-' || true)
unreadable=$(ls "$dir" | grep -c '\.unreadable$' || true)
remaining=$(ls "$dir" | grep -c '\.entry$' || true)
echo "server: $created created, $requests requests, $distinct distinct keys (most requests for one key: $most)"
echo "outbox: $remaining entries left, $temporaries temporary files, $unreadable unreadable entries"
[ "$created" = "$writes" ] && [ "$distinct" = "$writes" ] && [ "$temporaries" = 0 ] && [ "$unreadable" = 0 ] && [ "$remaining" = 0 ] \
    || { echo "FAIL: expected $writes created with $writes keys, nothing left"; exit 1; }

echo "== two flushes of one directory at once"
store2="twice-$RANDOM$RANDOM"
dir2="$work/outbox2"
queue "$store2" "$dir2" 30
sleep 0.5   # the lost first attempts finish on the server
code1=0; code2=0
"$courier" outbox flush "$dir2" >"$work/f1.log" 2>&1 & p1=$!
"$courier" outbox flush "$dir2" >"$work/f2.log" 2>&1 & p2=$!
wait $p1 || code1=$?
wait $p2 || code2=$?
read -r created requests distinct most <<<"$(stats "$store2")"
d1=$(grep -c '^delivered' "$work/f1.log" || true)
d2=$(grep -c '^delivered' "$work/f2.log" || true)
echo "flush 1: exit $code1, $d1 delivered; flush 2: exit $code2, $d2 delivered"
echo "server: $created created, $requests requests, $distinct distinct keys (most requests for one key: $most)"
[ "$created" = 30 ] && [ "$requests" = 60 ] && [ "$most" = 2 ] && [ $((d1 + d2)) = 30 ] \
    || { echo "FAIL: every write must be sent once by exactly one flush (2 requests per key: the lost one and the flush)"; exit 1; }
echo "PASS"
