#!/usr/bin/env bash
# Shared by Fuzz/build.sh, Fuzz/run.sh and Fuzz/run-all.sh (sourced, not run).
#
# How the harnesses reach the real code: each library module a harness needs is compiled with
# plain `swiftc` from the files under Sources/ themselves (never a copy), as a static library of
# the same module name, with `-enable-testing` so a harness can `@testable import` it and see its
# internal and `package` symbols (every module shares `-package-name courier`). Project modules are
# instrumented (`-sanitize=fuzzer,address`: coverage feedback + ASan); the two dependencies they
# need, swift-http-types and swift-openapi-runtime, are compiled from SwiftPM's checkouts without
# instrumentation. Where a module is too heavy to build whole (Courier needs AsyncHTTPClient, the
# sandbox needs Hummingbird), only the listed files of it are compiled: a listed file that gains a
# dependency fails the build loudly, it can never drift. SwiftPM is not involved, so a fuzz build
# never waits for (or breaks) someone's `.build` lock.
#
# Everything goes under $FUZZ_OUT (default .build-fuzz/, ignored by git's `.build*/`):
#   modules/   .swiftmodule + lib<Module>.a      bin/       one libFuzzer binary per harness
#   stamps/    input hashes (a module is rebuilt only when its files, flags or deps change)
#   corpus/<Harness>/   what the fuzzer learnt     artifacts/<Harness>/   crash-*, timeout-*, oom-*
#   logs/<Harness>.log  the last run               generated/  seeds and sources made at build time

set -euo pipefail

FUZZ_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$FUZZ_DIR/.." && pwd)"
OUT="${FUZZ_OUT:-$ROOT/.build-fuzz}"
SWIFTC="${SWIFTC:-swiftc}"
CHECKOUTS="${FUZZ_CHECKOUTS:-$ROOT/.build/checkouts}"
SRC="$ROOT/Sources"
# The sandbox server is a package of its own (Sandbox/); its sources are read from there.
SANDBOX_SRC="$ROOT/Sandbox/Sources"

# Every harness, in the order run-all runs them.
ALL_HARNESSES=(HeaderFuzz SSEFuzz DiskEntryFuzz OutboxEntryFuzz SeoulFuzz HTMLTextFuzz AlanFrameFuzz MultipartFuzz LLMFuzz RateLimitHeadersFuzz)

# The modules each harness links, dependents before their dependencies.
harness_modules() {
    case "$1" in
        HeaderFuzz | DiskEntryFuzz) echo "CourierCache CourierTransfers Courier CourierTransportCore OpenAPIRuntime HTTPTypes Crypto" ;;
        OutboxEntryFuzz) echo "CourierOutbox CourierTransportCore OpenAPIRuntime HTTPTypes Crypto" ;;
        RateLimitHeadersFuzz) echo "CourierResilience CourierTransportCore OpenAPIRuntime HTTPTypes Crypto" ;;
        SSEFuzz) echo "CourierTransfers Courier CourierTransportCore OpenAPIRuntime HTTPTypes Crypto" ;;
        SeoulFuzz) echo "SeoulCultureAPI Courier CourierTransportCore OpenAPIRuntime HTTPTypes Crypto" ;;
        HTMLTextFuzz) echo "HackerNewsAPI" ;;
        AlanFrameFuzz) echo "AlanAPI CourierSandbox CourierLLMAdapter CourierLLM CourierTransfers Courier CourierTransportCore OpenAPIRuntime HTTPTypes Crypto" ;;
        MultipartFuzz) echo "CourierSandbox Courier CourierTransportCore OpenAPIRuntime HTTPTypes Crypto" ;;
        LLMFuzz) echo "CourierLLM" ;;
        *) echo "unknown harness: $1 (known: ${ALL_HARNESSES[*]})" >&2; return 1 ;;
    esac
}

# The direct module dependencies of a module (for rebuild stamps).
module_deps() {
    case "$1" in
        HTTPTypes) echo "" ;;
        OpenAPIRuntime) echo "HTTPTypes" ;;
        CourierTransportCore) echo "OpenAPIRuntime HTTPTypes Crypto" ;;
        Courier) echo "CourierTransportCore OpenAPIRuntime HTTPTypes" ;;
        CourierCache) echo "Courier CourierTransportCore Crypto" ;;
        CourierTransfers) echo "Courier CourierTransportCore" ;;
        CourierOutbox) echo "CourierTransportCore HTTPTypes" ;;
        CourierResilience) echo "CourierTransportCore HTTPTypes" ;;
        SeoulCultureAPI) echo "Courier" ;;
        CourierLLMAdapter) echo "Courier CourierLLM CourierTransfers" ;;
        AlanAPI) echo "CourierLLMAdapter CourierLLM CourierTransfers" ;;
        CourierLLM | HackerNewsAPI | CourierSandbox | Crypto) echo "" ;;
    esac
}

# libFuzzer's -max_len per harness (bytes).
harness_max_len() {
    case "$1" in
        SeoulFuzz | LLMFuzz) echo 16384 ;;
        DiskEntryFuzz | OutboxEntryFuzz | MultipartFuzz | SSEFuzz) echo 8192 ;;
        *) echo 4096 ;;
    esac
}

# The files of each module, one per line.
module_sources() {
    local c="$SRC/Courier"
    case "$1" in
        HTTPTypes) ls "$CHECKOUTS"/swift-http-types/Sources/HTTPTypes/*.swift ;;
        OpenAPIRuntime) find "$CHECKOUTS/swift-openapi-runtime/Sources/OpenAPIRuntime" -name '*.swift' | LC_ALL=C sort ;;
        Crypto) ls "$FUZZ_DIR"/Shims/Crypto/*.swift ;;  # a stand-in (real SHA-256, the rest traps), see the file
        CourierTransportCore)
            # Everything but the C shim's caller (the write-back of downloads is not fuzzed).
            ls "$SRC"/CourierTransportCore/*.swift
            printf '%s\n' "$SRC"/CourierTransportCore/Platform/{Platform,FileStatus,SerialWorker}.swift
            ;;
        Courier)
            # The parsers of network bytes and what they need — not the client, transports or
            # middlewares (AsyncHTTPClient, swift-log).
            printf '%s\n' "$c/Exports.swift" \
                "$c"/Errors/{NetworkError,NetworkError+Mapping,NetworkError+Messages,WebSocketFailure,FileFailure,StatusMapping,DecodingDiagnostics,TaskCancellation}.swift \
                "$c"/Middleware/HTTPDate.swift \
                "$c/Decoding/ResponseDecoding.swift" "$c/Endpoint/MultipartFormData.swift" "$c/Endpoint/RequestTarget.swift"
            ;;
        CourierCache)
            # The cache's parsers: headers, the disk entry format, freshness — not the middleware or the stores.
            printf '%s\n' "$SRC"/CourierCache/{CacheControl,ByteRange,DiskEntryFormat,CachedResponse,CachedResponse+Freshness,CacheFreshness,CacheStorability,CachedBodyFile,CacheCredentials}.swift
            ;;
        CourierOutbox)
            # The journal's entry file format only — not the outbox, its journal or locks (Courier, swift-log).
            printf '%s\n' "$SRC"/CourierOutbox/{OutboxEntryFormat,OutboxEntry,OutboxLimits}.swift
            ;;
        CourierResilience)
            # The rate-limit header parsers only — not the pacer, the breaker or their middlewares (Courier, swift-log).
            printf '%s\n' "$SRC"/CourierResilience/Pacing/{RateLimitHeaders,StructuredList,GoDuration,InternetDate}.swift
            ;;
        CourierTransfers) printf '%s\n' "$SRC"/CourierTransfers/{ContentRange,LineSplitter}.swift "$SRC"/CourierTransfers/ServerSentEvents/{EventStreamParser,ServerEvent}.swift ;;
        CourierLLM) find "$SRC/CourierLLM" -name '*.swift' | LC_ALL=C sort ;;
        CourierLLMAdapter) ls "$SRC"/CourierLLMAdapter/*.swift ;;
        SeoulCultureAPI)
            ls "$SRC"/SeoulCultureAPI/SeoulJSONScanner*.swift
            printf '%s\n' "$SRC"/SeoulCultureAPI/{SeoulAnswerParser,SeenKeys,CulturalEventRow,CulturalProgram,CulturalEventAnswer,SharedTexts,StableID,SeoulDay,FieldText,SeoulAPIError}.swift
            ;;
        HackerNewsAPI) ls "$SRC"/HackerNewsAPI/HTMLText*.swift ;;
        AlanAPI) printf '%s\n' "$SRC/AlanAPI/AlanFrame.swift" ;;
        CourierSandbox)
            # The sandbox's multipart reader lives in a Hummingbird route file: its `enum
            # MultipartText` is cut out of that file at build time (see extract_multipart_text).
            printf '%s\n' "$SANDBOX_SRC/CourierSandbox/HTTPBin/EchoAnswer.swift" "$SANDBOX_SRC/CourierSandbox/Alan/PythonLiteral.swift" \
                "$OUT/generated/MultipartText.swift"
            ;;
    esac
}

# Compiler flags per module (beyond the common ones).
module_flags() {
    case "$1" in
        HTTPTypes)
            # What swift-http-types' Package.swift sets: availability macros and a trait.
            local version
            for version in $(grep -rhoE 'HTTPTypes 1\.[0-9]+' "$CHECKOUTS/swift-http-types/Sources/HTTPTypes" | sort -u | sed 's/HTTPTypes //'); do
                printf '%s\n' -enable-experimental-feature "AvailabilityMacro=HTTPTypes $version: macOS 10.0"
            done
            printf '%s\n' -enable-upcoming-feature InternalImportsByDefault -D FoundationURL -O
            ;;
        Crypto) printf '%s\n' -O ;;  # uninstrumented; optimised for the SHA-256 of every outbox body
        OpenAPIRuntime)
            printf '%s\n' -enable-upcoming-feature ExistentialAny -enable-upcoming-feature MemberImportVisibility \
                -enable-upcoming-feature InternalImportsByDefault -D FullFoundation -Onone
            ;;
        *)
            # Courier's own modules: as Package.swift builds them, plus instrumentation.
            printf '%s\n' -enable-upcoming-feature ExistentialAny -package-name courier -enable-testing \
                -sanitize=fuzzer,address -O -g
            ;;
    esac
}

log() { printf '[fuzz] %s\n' "$*" >&2; }

hash_of() { sha256sum | cut -c1-16; }

# Cuts `enum MultipartText { … }` (to its closing brace in column 0) out of the sandbox's echo
# route file, which also imports Hummingbird. Fails when the enum is not found.
extract_multipart_text() {
    local from="$SANDBOX_SRC/CourierSandbox/HTTPBin/EchoRoutes.swift" to="$OUT/generated/MultipartText.swift"
    mkdir -p "$OUT/generated"
    {
        echo "// GENERATED by Fuzz/fuzz-common.sh from Sandbox/Sources/CourierSandbox/HTTPBin/EchoRoutes.swift — do not edit."
        echo "import Foundation"
        awk '/^(public |package |internal )?enum MultipartText[ {]/ { on = 1 } on { print } on && /^}/ { exit }' "$from"
    } >"$to.tmp"
    if ! grep -q 'static func parts' "$to.tmp" || ! grep -q '^}' "$to.tmp"; then
        log "could not cut enum MultipartText out of $from (renamed or moved?)"
        return 1
    fi
    if ! cmp -s "$to.tmp" "$to"; then mv "$to.tmp" "$to"; else rm -f "$to.tmp"; fi
}

STAMP_SWIFTC=""
swiftc_version() {
    [ -n "$STAMP_SWIFTC" ] || STAMP_SWIFTC="$("$SWIFTC" --version 2>&1 | head -1)"
    echo "$STAMP_SWIFTC"
}

# Builds module $1 (and, first, its dependencies) unless its stamp is current.
declare -A BUILT=()
build_module() {
    local module="$1"
    [ -n "${BUILT[$module]:-}" ] && return 0
    local dep
    for dep in $(module_deps "$module"); do build_module "$dep"; done
    [ "$module" = CourierSandbox ] && extract_multipart_text
    if [ "$module" = HTTPTypes ] || [ "$module" = OpenAPIRuntime ]; then
        [ -d "$CHECKOUTS/swift-http-types" ] && [ -d "$CHECKOUTS/swift-openapi-runtime" ] || {
            log "no package checkouts in $CHECKOUTS: run 'swift package resolve' first (or set FUZZ_CHECKOUTS)"
            return 1
        }
    fi
    mkdir -p "$OUT/modules" "$OUT/stamps"
    local -a sources flags
    mapfile -t sources < <(module_sources "$module")
    mapfile -t flags < <(module_flags "$module")
    local file
    for file in "${sources[@]}"; do
        [ -f "$file" ] || { log "$module: missing source $file"; return 1; }
    done
    local stamp
    stamp="$({
        swiftc_version
        printf '%s\n' "${flags[@]}" "${FUZZ_SWIFTC_FLAGS:-}"
        for dep in $(module_deps "$module"); do cat "$OUT/stamps/$dep"; done
        for file in "${sources[@]}"; do echo "$file"; cat "$file"; done
    } | hash_of)"
    if [ -f "$OUT/stamps/$module" ] && [ "$(cat "$OUT/stamps/$module")" = "$stamp" ] && [ -f "$OUT/modules/lib$module.a" ]; then
        BUILT[$module]=1
        return 0
    fi
    log "building module $module (${#sources[@]} files)"
    local start=$SECONDS
    rm -f "$OUT/stamps/$module"
    # shellcheck disable=SC2086
    "$SWIFTC" -emit-library -static -emit-module -parse-as-library -wmo -module-name "$module" \
        -I "$OUT/modules" "${flags[@]}" ${FUZZ_SWIFTC_FLAGS:-} \
        -emit-module-path "$OUT/modules/$module.swiftmodule" \
        "${sources[@]}" -o "$OUT/modules/lib$module.a"
    echo "$stamp" >"$OUT/stamps/$module"
    log "built module $module in $((SECONDS - start)) s"
    BUILT[$module]=1
}

# Builds the libFuzzer binary of harness $1 into $OUT/bin/$1.
build_harness() {
    local harness="$1"
    local -a modules
    read -r -a modules <<<"$(harness_modules "$harness")"
    local module
    for module in "${modules[@]}"; do build_module "$module"; done
    local -a entries
    mapfile -t entries < <(ls "$FUZZ_DIR/$harness"/*.swift "$FUZZ_DIR"/Shared/*.swift)
    local stamp
    stamp="$({
        swiftc_version
        echo "${FUZZ_SWIFTC_FLAGS:-}"
        for module in "${modules[@]}"; do cat "$OUT/stamps/$module"; done
        for file in "${entries[@]}"; do echo "$file"; cat "$file"; done
    } | hash_of)"
    mkdir -p "$OUT/bin"
    if [ -f "$OUT/stamps/bin-$harness" ] && [ "$(cat "$OUT/stamps/bin-$harness")" = "$stamp" ] && [ -x "$OUT/bin/$harness" ]; then
        return 0
    fi
    log "building harness $harness"
    local start=$SECONDS
    local -a libs=()
    for module in "${modules[@]}"; do libs+=("-l$module"); done
    # lld when the toolchain has it: gold warns about every ASan helper symbol.
    local swiftc_dir
    swiftc_dir="$(dirname "$(command -v "$SWIFTC")")"
    if [ -x "$swiftc_dir/ld.lld" ] || command -v ld.lld >/dev/null; then libs+=(-use-ld=lld); fi
    rm -f "$OUT/stamps/bin-$harness"
    # shellcheck disable=SC2086
    "$SWIFTC" -sanitize=fuzzer,address -parse-as-library -O -g -module-name "$harness" -package-name courier \
        -enable-upcoming-feature ExistentialAny ${FUZZ_SWIFTC_FLAGS:-} \
        -I "$OUT/modules" -L "$OUT/modules" "${entries[@]}" "${libs[@]}" -o "$OUT/bin/$harness"
    echo "$stamp" >"$OUT/stamps/bin-$harness"
    log "built harness $harness in $((SECONDS - start)) s"
}

# Seed directories of harness $1: its committed seeds, plus seeds made at run time.
harness_seed_dirs() {
    local harness="$1"
    [ -d "$FUZZ_DIR/$harness/seeds" ] && echo "$FUZZ_DIR/$harness/seeds"
    case "$harness" in
        DiskEntryFuzz | OutboxEntryFuzz)
            # Entries written by the real encoder (DiskEntryFormat.encode, OutboxEntryFormat.encode),
            # so a format change never leaves stale seeds behind.
            local dir="$OUT/generated/seeds-$harness"
            rm -rf "$dir" && mkdir -p "$dir"
            FUZZ_WRITE_SEEDS="$dir" SWIFT_BACKTRACE=enable=no "$OUT/bin/$harness" -runs=0 >/dev/null 2>&1 || true
            [ -n "$(ls -A "$dir")" ] || { log "$harness wrote no seeds"; return 1; }
            echo "$dir"
            ;;
        LLMFuzz)
            # The answers of CourierLLM's test corpus, one file each.
            local fixtures="$ROOT/Tests/CourierLLMTests/Fixtures/corpus.json" dir="$OUT/generated/seeds-$harness"
            if [ -f "$fixtures" ] && command -v python3 >/dev/null; then
                rm -rf "$dir" && mkdir -p "$dir"
                python3 - "$fixtures" "$dir" <<'PY'
import json, sys, os
for i, entry in enumerate(json.load(open(sys.argv[1], encoding="utf-8"))):
    with open(os.path.join(sys.argv[2], "seed-%03d" % i), "w", encoding="utf-8") as f:
        f.write(entry["answer"])
PY
                echo "$dir"
            fi
            ;;
    esac
}

# Runs harness $1 for $2 seconds (extra libFuzzer arguments after), writing $OUT/logs/$1.log and
# one summary line to $OUT/logs/$1.summary: name, exit code, executions, seconds, cov, ft, corpus
# units, outcome, artifact.
run_harness() {
    local harness="$1" seconds="$2"
    shift 2
    local corpus="$OUT/corpus/$harness" artifacts="$OUT/artifacts/$harness" logfile="$OUT/logs/$harness.log"
    mkdir -p "$corpus" "$artifacts" "$OUT/logs"
    local -a seeds dict=()
    mapfile -t seeds < <(harness_seed_dirs "$harness")
    [ -f "$FUZZ_DIR/$harness/$harness.dict" ] && dict=("-dict=$FUZZ_DIR/$harness/$harness.dict")
    local start=$SECONDS rc=0
    (
        cd "$artifacts"
        SWIFT_BACKTRACE=enable=no ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0:handle_abort=1:symbolize=1}" \
            "$OUT/bin/$harness" -max_total_time="$seconds" -max_len="$(harness_max_len "$harness")" \
            -timeout="${FUZZ_TIMEOUT:-10}" -rss_limit_mb="${FUZZ_RSS_MB:-2048}" -detect_leaks=0 -print_final_stats=1 \
            -artifact_prefix="$artifacts/" ${dict[@]+"${dict[@]}"} "$@" "$corpus" ${seeds[@]+"${seeds[@]}"}
    ) >"$logfile" 2>&1 || rc=$?
    local elapsed=$((SECONDS - start))
    local execs cov ft units outcome artifact
    execs="$(grep -oE 'stat::number_of_executed_units: [0-9]+' "$logfile" | tail -1 | grep -oE '[0-9]+$' || true)"
    [ -n "$execs" ] || execs="$(grep -oE '^#[0-9]+' "$logfile" | tail -1 | tr -d '#' || true)"
    cov="$(grep -oE 'cov: [0-9]+' "$logfile" | tail -1 | grep -oE '[0-9]+' || true)"
    ft="$(grep -oE 'ft: [0-9]+' "$logfile" | tail -1 | grep -oE '[0-9]+' || true)"
    units="$(grep -oE 'corp: [0-9]+' "$logfile" | tail -1 | grep -oE '[0-9]+' || true)"
    artifact="$(grep -oE 'Test unit written to [^ ]+' "$logfile" | tail -1 | sed 's/Test unit written to //' || true)"
    if [ "$rc" = 0 ]; then
        outcome=ok
    elif grep -q 'ERROR: libFuzzer: timeout' "$logfile"; then
        outcome=TIMEOUT
    elif grep -q 'ERROR: libFuzzer: out-of-memory' "$logfile"; then
        outcome=OOM
    elif grep -qE 'ERROR: (libFuzzer: deadly signal|AddressSanitizer)|Fatal error|fatal error' "$logfile"; then
        outcome=CRASH
    else
        outcome="FAILED(rc=$rc)"
    fi
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$harness" "$rc" "${execs:-?}" "$elapsed" "${cov:-?}" "${ft:-?}" \
        "${units:-?}" "$outcome" "${artifact:--}" >"$OUT/logs/$harness.summary"
    return "$rc"
}

print_summary_header() {
    printf '%-14s %12s %8s %7s %7s %7s  %-8s %s\n' harness executions seconds cov ft corpus outcome artifact
}

print_summary_line() {
    local harness rc execs elapsed cov ft units outcome artifact
    IFS=$'\t' read -r harness rc execs elapsed cov ft units outcome artifact <"$OUT/logs/$1.summary"
    printf '%-14s %12s %8s %7s %7s %7s  %-8s %s\n' "$harness" "$execs" "$elapsed" "$cov" "$ft" "$units" "$outcome" "$artifact"
}
