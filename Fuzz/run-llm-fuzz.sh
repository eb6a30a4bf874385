#!/usr/bin/env bash
# Builds the CourierLLM libFuzzer target and runs it for a bounded time.
# Usage: Fuzz/run-llm-fuzz.sh SECONDS   (from anywhere; SWIFTC overrides the compiler)
set -euo pipefail
RUN_SECONDS="${1:-60}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="${FUZZ_OUT:-$ROOT/.build/llm-fuzz}"
SWIFTC="${SWIFTC:-swiftc}"
mkdir -p "$OUT/corpus" "$OUT/seeds"

# The parser alone: files that import Courier (the NetworkClient glue) are left out.
SOURCES=()
for file in "$ROOT"/Sources/CourierLLM/*.swift; do
    grep -qx 'import Courier' "$file" || SOURCES+=("$file")
done
"$SWIFTC" -sanitize=fuzzer,address -parse-as-library -O -module-name CourierLLMFuzz \
    "${SOURCES[@]}" "$ROOT/Fuzz/LLMFuzz/LLMFuzzEntry.swift" -o "$OUT/llm-fuzz"

# Seed the fuzzer with the answers of the test corpus, one file each.
FIXTURES="$ROOT/Tests/CourierLLMTests/Fixtures/corpus.json"
if [ -f "$FIXTURES" ] && command -v python3 >/dev/null; then
    python3 - "$FIXTURES" "$OUT/seeds" <<'PY'
import json, sys, os
for i, entry in enumerate(json.load(open(sys.argv[1], encoding="utf-8"))):
    with open(os.path.join(sys.argv[2], "seed-%03d" % i), "w", encoding="utf-8") as f:
        f.write(entry["answer"])
PY
fi

cd "$OUT"
SWIFT_BACKTRACE=enable=no "$OUT/llm-fuzz" -max_total_time="$RUN_SECONDS" -max_len=8192 -timeout=10 -rss_limit_mb=4096 -detect_leaks=0 \
    -print_final_stats=1 "$OUT/corpus" "$OUT/seeds"
