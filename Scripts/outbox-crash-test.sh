#!/usr/bin/env bash
# The outbox's crash test: `kill -9` of a flushing `courier outbox flush` at random instants, then
# two flushes of one directory at once; afterwards every write is delivered exactly once by the
# server's count, none was sent with two keys, and no temporary file is left behind.
#
#   Scripts/outbox-crash-test.sh [KILLS] [WRITES]     (defaults: 60 kills of a running flush, 100 writes)
#
# Uses the debug `courier` binary of Apps/ (built if missing). The writes are queued while their
# server is down (`courier request --outbox`: refused, exit 75); then the sandbox (`courier serve`)
# starts on that port and the flushes begin. Each write's route takes 300 ms, so a kill lands
# before, during or after a request the server completes anyway: the next flush sends the write
# again with its one key, and the server answers 409 (still in progress) or replays its answer.
set -euo pipefail
cd "$(dirname "$0")/.."
kills=${1:-60}
writes=${2:-100}
courier=Apps/.build/debug/courier
[ -x "$courier" ] || swift build --package-path Apps --product courier >/dev/null
work=$(mktemp -d)
server=0
trap '[ "$server" = 0 ] || kill $server 2>/dev/null || true; rm -rf "$work"' EXIT
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
base="http://127.0.0.1:$port"

# stats STORE → "created requests distinct-keys max-requests-per-key"
stats() {
    curl -sf "$base/idempotent/$1/stats" | python3 -c '
import json, sys
s = json.load(sys.stdin); keys = s["keys"]
print(s["created"], s["requests"], len({k["key"] for k in keys}), max([k["requests"] for k in keys] or [0]))'
}

# queue STORE DIR N DELAY: N writes queued in DIR while the server is down (each taking DELAY ms once it is up)
queue() {
    for i in $(seq "$3"); do
        code=0
        "$courier" request POST "$base/idempotent/$1?delayMs=$4" --json "{\"n\":$i}" --outbox "$2" --timeout 1 >/dev/null 2>&1 || code=$?
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

store="crash-$RANDOM$RANDOM"
dir="$work/outbox"
store2="twice-$RANDOM$RANDOM"
dir2="$work/outbox2"
echo "== $writes + 30 writes queued while the server is down"
queue "$store" "$dir" "$writes" 300
queue "$store2" "$dir2" 30 20
[ "$(ls "$dir" | grep -c '\.entry$')" = "$writes" ] || { echo "FAIL: not every write queued"; exit 1; }
"$courier" serve --port "$port" --data-dir "$work/data" >"$work/serve.log" 2>&1 &
server=$!
for _ in $(seq 100); do curl -sf "$base/status/200" >/dev/null && break; sleep 0.1; done

echo "== kill -9 of a flushing process, $kills times"
killed=0
ended=0
# Until KILLS flushes were killed while running (one that ended before its kill does not count).
while [ "$killed" -lt "$kills" ] && ls "$dir" | grep -q '\.entry$'; do
    "$courier" outbox flush "$dir" >/dev/null 2>&1 &
    pid=$!
    sleep "$(python3 -c 'import random; print(round(random.uniform(0.02, 0.5), 3))')"
    if kill -9 "$pid" 2>/dev/null; then killed=$((killed + 1)); else ended=$((ended + 1)); fi
    wait "$pid" 2>/dev/null || true
done
left=$(ls "$dir" | grep -c '\.entry$' || true)
echo "killed $killed flushes while running ($ended had ended before their kill); $left of $writes writes still queued before the last flush"
[ "$killed" -ge "$kills" ] || { echo "FAIL: only $killed kills landed (every write was delivered first): use more writes"; exit 1; }
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
[ "$created" = 30 ] && [ "$requests" = 30 ] && [ "$most" = 1 ] && [ $((d1 + d2)) = 30 ] \
    || { echo "FAIL: every write must be sent once, by exactly one of the flushes"; exit 1; }
echo "PASS"
