#!/usr/bin/env bash
# Builds the CourierLLM libFuzzer target and runs it for a bounded time.
# Usage: Fuzz/run-llm-fuzz.sh SECONDS   (from anywhere; SWIFTC overrides the compiler)
# Kept for the README's command line: the same as `Fuzz/run.sh LLMFuzz SECONDS` (corpus, seeds from
# Tests/CourierLLMTests/Fixtures and build outputs under .build-fuzz/; see Fuzz/README.md).
exec "$(dirname "${BASH_SOURCE[0]}")/run.sh" LLMFuzz "${1:-60}"
