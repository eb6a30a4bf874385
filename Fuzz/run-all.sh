#!/usr/bin/env bash
# Builds every fuzz harness, then runs each for SECONDS (default 30), one after another, and
# prints per harness: executions, seconds, coverage (cov/ft), corpus size and whether it crashed.
# Exits non-zero when a build fails or any harness crashes, times out or runs out of memory.
#
# Usage: Fuzz/run-all.sh [SECONDS]        e.g. in CI: Fuzz/run-all.sh 20   (builds included, about
#        FUZZ_HARNESSES="SSEFuzz HeaderFuzz" Fuzz/run-all.sh 300          6 minutes on 2 cores)
#
# Needs a resolved package (.build/checkouts: `swift package resolve`) for swift-http-types and
# swift-openapi-runtime. Knobs: FUZZ_OUT (default .build-fuzz), SWIFTC, FUZZ_TIMEOUT (s per input,
# 10), FUZZ_RSS_MB (2048), and the harness switches documented in Fuzz/README.md.
source "$(dirname "${BASH_SOURCE[0]}")/fuzz-common.sh"
seconds="${1:-30}"
read -r -a harnesses <<<"${FUZZ_HARNESSES:-${ALL_HARNESSES[*]}}"
total_start=$SECONDS

for harness in "${harnesses[@]}"; do build_harness "$harness"; done
log "built ${#harnesses[@]} harnesses in $((SECONDS - total_start)) s; fuzzing each for $seconds s"

failed=()
for harness in "${harnesses[@]}"; do
    if run_harness "$harness" "$seconds"; then
        log "$harness: ok"
    else
        failed+=("$harness")
        log "$harness: FAILED — see $OUT/logs/$harness.log"
    fi
done

echo
print_summary_header
for harness in "${harnesses[@]}"; do print_summary_line "$harness"; done
echo "total: $((SECONDS - total_start)) s (builds included)"
if [ ${#failed[@]} -gt 0 ]; then
    for harness in "${failed[@]}"; do
        echo
        echo "=== $harness: last lines of $OUT/logs/$harness.log"
        grep -E 'FUZZ INVARIANT|ERROR|Fatal error|fatal error|SUMMARY|^    #[0-9]+ |Test unit written|Base64' "$OUT/logs/$harness.log" | head -40 || true
    done
    exit 1
fi
