#!/usr/bin/env bash
# The consumer check: packages outside the repository that depend on a tagged clone of it by
# URL and version (`from: "0.9.0"`), one for `Courier`, one for `CourierLLM`: their
# Package.resolved pin counts (each at most 26 on Linux: 26 with swift-metrics and swift-w3c-trace-context), then each built and run — the Courier
# one makes a request to a local server. Commits only; uncommitted changes are not in the clone.
#
#   Scripts/consumer-check.sh [REPOSITORY]      (default: this one)
set -euo pipefail
REPO=${1:-$(cd "$(dirname "$0")/.." && pwd)}
W=${CONSUMER_CHECK_DIR:-/tmp/courier-consumer-check}
rm -rf $W && mkdir -p $W
git clone -q "$REPO" $W/courier && git -C $W/courier tag 0.9.0 && git clone -q --bare $W/courier $W/courier.git
mk() { # name product code
  mkdir -p $W/$1/Sources/App
  cat > $W/$1/Package.swift <<EOP
// swift-tools-version:6.1
import PackageDescription
let package = Package(
    name: "App",
    platforms: [.macOS(.v15)],
    dependencies: [.package(url: "file://$W/courier.git", from: "0.9.0")],
    targets: [.executableTarget(name: "App", dependencies: [.product(name: "$2", package: "courier")])]
)
EOP
  printf '%s\n' "$3" > $W/$1/Sources/App/main.swift
}
mk courier-consumer Courier 'import Courier
import Foundation
struct Hello: Endpoint {
    let baseURL: URL
    var path: String { "/hello.json" }
    var method: HTTPMethod { .get }
    var task: HTTPTask { .requestPlain }
}
struct Greeting: Decodable { let greeting: String }
let port = CommandLine.arguments[1]
let greeting: Greeting = try await NetworkClient().request(Hello(baseURL: URL(string: "http://127.0.0.1:\(port)")!))
print("Courier consumer got:", greeting.greeting)'
mk llm-consumer CourierLLM 'import CourierLLM
struct Weekly: Decodable { let trend: String; let score: Int }
let answer = "Sure! Here it is:\n```json\n{\"trend\": \"up\", \"score\": 7,}\n```\nAnything else?"
let weekly = try LLMAnswerDecoder().decode(Weekly.self, fromAnswer: answer).value
print("CourierLLM consumer decoded:", weekly.trend, weekly.score)'
for c in courier-consumer llm-consumer; do
  (cd $W/$c && swift package resolve >/dev/null 2>&1)
  echo "$c: $(python3 -c "import json;print(len(json.load(open('$W/$c/Package.resolved'))['pins']))") pins: $(python3 -c "import json;print(' '.join(sorted(p['identity'] for p in json.load(open('$W/$c/Package.resolved'))['pins'])))")"
done
mkdir -p $W/www && echo '{"greeting":"안녕하세요"}' > $W/www/hello.json
python3 -m http.server 18931 --bind 127.0.0.1 -d $W/www >/dev/null 2>&1 & server=$!
trap 'kill $server' EXIT
(cd $W/llm-consumer && swift build 2>&1 | tail -1 && swift run --quiet App)
(cd $W/courier-consumer && swift build 2>&1 | tail -1 && swift run --quiet App 18931)
