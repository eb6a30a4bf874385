#!/usr/bin/env bash
# Instructions per request, Courier vs raw AsyncHTTPClient, counted by valgrind's callgrind:
# repeatable where wall-clock ratios on a shared 2-core machine swing ±15%.
#
#   Benchmarks/callgrind.sh [N1 N2]      (needs valgrind: apt-get install valgrind)
#   CALLGRIND_CONTENDERS="0 2 9 10" Benchmarks/callgrind.sh     (some contenders; 0 and 2 always)
#
# The sandbox runs in another process (`courier serve`, not under valgrind), so the count is the
# client's alone. Each contender runs twice under callgrind, with N1 and N2 measured requests
# (after the same warm-up); instructions per request = (I(N2) − I(N1)) / (N2 − N1), so start-up,
# warm-up and shut-down cancel out. One request in flight (CourierBenchmarks' COURIER_BENCH_ONLY).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
n1=${1:-200}
n2=${2:-1200}
contenders="0 2 $(echo "${CALLGRIND_CONTENDERS:-8 3 4 9 10}" | tr ' ' '\n' | grep -vx '[02]' | tr '\n' ' ')"
command -v valgrind >/dev/null || { echo "valgrind is not installed (apt-get install valgrind)" >&2; exit 1; }

swift build -c release --product courier >/dev/null
swift build -c release --product CourierBenchmarks >/dev/null
bin=$(swift build -c release --show-bin-path)
# Valgrind 3.19 (Debian 12) cannot read the DWARF 5 that Swift 6.3 writes ("Possibly corrupted
# debuginfo file … Giving up"): count a copy without debug info (symbols stay).
bench=$(mktemp)
cp "$bin/CourierBenchmarks" "$bench" && strip --strip-debug "$bench" && chmod +x "$bench"

port=$(( 20000 + RANDOM % 20000 ))
data=$(mktemp -d)
"$bin/courier" serve --port "$port" --data-dir "$data" >/dev/null 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$data" "$bench"' EXIT
for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$port/json" && break; sleep 0.2; done

# instructions <contender index> <requests>
instructions() {
  local out
  out=$(mktemp)
  COURIER_BENCH_SERVER="http://127.0.0.1:$port" COURIER_BENCH_ONLY=$1 \
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bench" "$2" >/dev/null 2>"$out"
  local count
  count=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$out")
  if [ -z "$count" ]; then echo "valgrind did not finish contender $1:" >&2; tail -n 20 "$out" >&2; exit 1; fi
  rm -f "$out"
  echo "$count"
}

echo "instructions per request (callgrind; GET /json decoded, 1 in flight; ($n2 − $n1) requests):"
declare -A per
for index in $contenders; do
  a=$(instructions "$index" "$n1")
  b=$(instructions "$index" "$n2")
  [ -n "$a" ] && [ -n "$b" ] || exit 1
  per[$index]=$(( (b - a) / (n2 - n1) ))
done
name() { case $1 in 0) echo "raw AsyncHTTPClient";; 2) echo "Courier (HTTPClientTransport)";; 3) echo "Courier + a middleware (streamed body)";; 8) echo "Courier, body as HTTPBody (no buffered path)";; 4) echo "Courier (stock OpenAPI AHC transport)";; 9) echo "Courier + MetricsObserver";; 10) echo "Courier + metrics + tracing (no-op tracer)";; esac; }
for index in $contenders; do
  printf '  %-42s %9d  %.3f×\n' "$(name "$index")" "${per[$index]}" "$(echo "${per[$index]} / ${per[0]}" | bc -l)"
done
ratio=$(echo "${per[2]} / ${per[0]}" | bc -l)
verdict=$(echo "$ratio <= 1.05" | bc -l)
printf 'Courier %.3f× raw AsyncHTTPClient instructions per request — goal (≤ 1.05×) %s\n' "$ratio" "$([ "$verdict" = 1 ] && echo met || echo 'NOT met')"
