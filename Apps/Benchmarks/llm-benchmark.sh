#!/usr/bin/env bash
# CourierLLM benchmark, side by side with Python's json_repair.
# Usage (from anywhere): Benchmarks/llm-benchmark.sh
# Runs `swift run -c release LLMBenchmark` in the apps package (Apps/), then json_repair on the
# same corpus and the same ~1 MB messy answer, and prints one table.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
OUT="${BENCH_OUT:-$ROOT/.build/llm-benchmark}"
CORPUS="$ROOT/../Tests/CourierLLMTests/Fixtures/corpus.json"
mkdir -p "$OUT"

python3 -m pip install --quiet json_repair 2>/dev/null || pip install --quiet json_repair

swift run -c release LLMBenchmark --corpus "$CORPUS" --out "$OUT"

python3 - "$CORPUS" "$OUT" <<'PY'
import json, sys, time
import json_repair

corpus = json.load(open(sys.argv[1], encoding="utf-8"))
out = sys.argv[2]
swift = json.load(open(out + "/results.json"))

def same(a, b):
    # JSON value equality: bool is not a number, key order ignored, numbers by value.
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return type(a) in (int, float) and type(b) in (int, float) and a == b or a == b and type(a) == type(b)

exact = false_positives = 0
for entry in corpus:
    try:
        value = json_repair.loads(entry["answer"])
    except Exception:
        value = ""
    empty = value in ("", None) or value == {} or value == []
    if entry["expected"] is None:
        if empty: exact += 1
        else: false_positives += 1
    elif not empty and same(value, entry["expected"]):
        exact += 1

messy = open(out + "/messy-1mb.txt", encoding="utf-8").read()
size = len(messy.encode("utf-8"))
best = float("inf")
for _ in range(3):
    start = time.perf_counter()
    json_repair.loads(messy)
    best = min(best, time.perf_counter() - start)
jr_mbs = size / 1e6 / best

total = len(corpus)
mb = swift["messy_bytes"] / 1e6
c_extract = mb / swift["messy_extract_s"]
c_decode = mb / swift["messy_decode_s"]
rows = [
    ("corpus exact (schema-guided)", "%d/%d (%.1f%%)" % (swift["corpus_exact"], total, 100.0 * swift["corpus_exact"] / total),
     "%d/%d (%.1f%%)" % (exact, total, 100.0 * exact / total), ""),
    ("corpus exact (no schema)", "%d/%d (%.1f%%)" % (swift["corpus_plain_exact"], total, 100.0 * swift["corpus_plain_exact"] / total), "-", ""),
    ("no-JSON answers given a value", "%d" % swift["corpus_false_positives"], "%d" % false_positives, ""),
    ("valid %.2f MB: decode time" % (swift["valid_bytes"] / 1e6), "%.2f ms" % (swift["valid_courier_s"] * 1e3),
     "JSONDecoder %.2f ms" % (swift["valid_plain_s"] * 1e3), "%.0f%% of JSONDecoder speed" % (100.0 * swift["valid_plain_s"] / swift["valid_courier_s"])),
    ("messy %.2f MB: extract" % mb, "%.1f MB/s" % c_extract, "%.1f MB/s" % jr_mbs, "%.1fx json_repair" % (c_extract / jr_mbs)),
    ("messy %.2f MB: decode to T" % mb, "%.1f MB/s" % c_decode, "-", ""),
    ("linearity: 1 MB / 100 KB time", "%.1fx" % (swift["messy_extract_s"] / swift["messy_small_s"]), "-",
     "size ratio %.1fx" % (swift["messy_bytes"] / swift["messy_small_bytes"])),
]
print()
print("%-34s %-20s %-22s %s" % ("", "CourierLLM", "json_repair " + __import__("importlib.metadata").metadata.version("json_repair"), "ratio"))
for row in rows:
    print("%-34s %-20s %-22s %s" % row)
PY
