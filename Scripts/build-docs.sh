#!/usr/bin/env bash
# Builds the documentation of every module that has a DocC catalog (Sources/<Module>/<Module>.docc)
# into one static site, with links between the modules, and fails if DocC warns about anything.
#
#   Scripts/build-docs.sh [OUTPUT]        (default .build/docs-site)
#   python3 -m http.server -d .build/docs-site 8000   → http://127.0.0.1:8000/documentation/
#
# A new module is documented by giving it a catalog: the script finds it by itself.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
out=${1:-.build/docs-site}

targets=()
for catalog in Sources/*/*.docc; do
  targets+=(--target "$(basename "$(dirname "$catalog")")")
done
echo "documenting $(( ${#targets[@]} / 2 )) modules: $(printf '%s ' "${targets[@]}" | sed 's/--target //g')"

log=$(mktemp)
trap 'rm -f "$log"' EXIT
rm -rf "$out"
if ! swift package --enable-all-traits --allow-writing-to-directory "$out" generate-documentation \
    "${targets[@]}" --enable-experimental-combined-documentation \
    --transform-for-static-hosting --output-path "$out" >"$log" 2>&1; then
  cat "$log" >&2
  echo "build-docs: DocC failed" >&2
  exit 1
fi
# Warnings about the project's own sources and catalogs (not about dependencies' packaging).
warnings=$(grep -E "warning:" "$log" | grep -v -e "/.build/checkouts/" -e "which are unhandled" | sort -u || true)
if [ -n "$warnings" ]; then
  echo "$warnings" >&2
  echo "build-docs: $(echo "$warnings" | wc -l) DocC warning(s) — fix them (zero is the rule)" >&2
  exit 1
fi
echo "build-docs: zero warnings; site in $out (serve it: python3 -m http.server -d $out 8000, then open http://127.0.0.1:8000/documentation/)"
