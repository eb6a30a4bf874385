#!/usr/bin/env bash
# Builds one harness and fuzzes it for SECONDS (default 60); extra arguments go to libFuzzer.
# Usage: Fuzz/run.sh HARNESS [SECONDS] [libFuzzer flags...]
#   Fuzz/run.sh SSEFuzz 300
#   Fuzz/run.sh SeoulFuzz 0 -runs=1 .build-fuzz/artifacts/SeoulFuzz/crash-…   (replay one input)
# The corpus grows in .build-fuzz/corpus/HARNESS, crashes land in .build-fuzz/artifacts/HARNESS,
# the whole libFuzzer output in .build-fuzz/logs/HARNESS.log. Exit status: libFuzzer's.
source "$(dirname "${BASH_SOURCE[0]}")/fuzz-common.sh"
[ $# -ge 1 ] || { sed -n 2,8p "${BASH_SOURCE[0]}"; exit 2; }
harness="$1"
seconds="${2:-60}"
shift $(($# >= 2 ? 2 : 1))
build_harness "$harness"
rc=0
run_harness "$harness" "$seconds" "$@" || rc=$?
print_summary_header
print_summary_line "$harness"
[ "$rc" = 0 ] || { echo "--- tail of $OUT/logs/$harness.log"; tail -40 "$OUT/logs/$harness.log"; }
exit "$rc"
