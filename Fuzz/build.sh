#!/usr/bin/env bash
# Builds the libFuzzer harnesses (all, or the ones named) into .build-fuzz/bin/.
# Usage: Fuzz/build.sh [HARNESS...]      (SWIFTC, FUZZ_OUT, FUZZ_SWIFTC_FLAGS override; see fuzz-common.sh)
source "$(dirname "${BASH_SOURCE[0]}")/fuzz-common.sh"
harnesses=("$@")
[ ${#harnesses[@]} -gt 0 ] || harnesses=("${ALL_HARNESSES[@]}")
for harness in "${harnesses[@]}"; do build_harness "$harness"; done
log "built: ${harnesses[*]} (in $OUT/bin)"
