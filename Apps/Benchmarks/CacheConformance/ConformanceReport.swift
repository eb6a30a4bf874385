/// Passed/total by kind, the published peers beside, and every failing test with its reason.
struct ConformanceReport {
    let tests: [ConformanceTest]
    let outcomes: [String: Outcome]

    /// Published and measured totals on the same 300 tests (shared/conformance/README.md, issue 16).
    static let peers: [(String, Int)] = [
        ("Chrome 143", 202), ("Firefox 146", 207), ("Safari 26.2", 196), ("hishel 2.0", 210), ("CacheControl 0.14", 175),
    ]

    func print() {
        let passed = tests.filter { outcomes[$0.id] == .pass }
        Swift.print("kind        passed / total")
        for kind in ["required", "optimal", "check"] {
            let ofKind = tests.filter { $0.kind == kind }
            Swift.print("\(kind.padding(toLength: 11, withPad: " ", startingAt: 0)) \(passed.filter { $0.kind == kind }.count) / \(ofKind.count)")
        }
        Swift.print("all         \(passed.count) / \(tests.count)   (\"passed\" = results exactly true, as the suite counts)\n")
        Swift.print("peers on the same 300 tests:")
        for (name, score) in Self.peers {
            let ratio = Double(passed.count) / Double(score)
            Swift.print(
                "  \(name.padding(toLength: 18, withPad: " ", startingAt: 0)) \(score)   Courier \(passed.count) (\(String(format: "%.2f", ratio))×, \(passed.count - score >= 0 ? "+" : "")\(passed.count - score))"
            )
        }
        for browser in ["Chrome", "Firefox", "Safari"] {
            let theirs = tests.filter { $0.browsersPassed[browser] == true }
            let required = theirs.filter { $0.kind == "required" }
            Swift.print("  \(browser): required \(required.count), of which Courier passes \(required.filter { outcomes[$0.id] == .pass }.count)")
        }
        let missed = tests.filter { $0.kind == "required" && $0.browsersPassed.values.contains(true) && outcomes[$0.id] != .pass }
        Swift.print("\nrequired tests some browser passes that Courier does not: \(missed.count)")
        for test in missed { Swift.print("  \(test.id): \(describe(outcomes[test.id]))") }

        Swift.print("\nnot passed (\(tests.count - passed.count)):")
        for test in tests where outcomes[test.id] != .pass {
            let dependency = test.dependsOn.first { outcomes[$0] != .pass }.map { " [depends on \($0), not passed]" } ?? ""
            Swift.print("  [\(test.kind)] \(test.id): \(describe(outcomes[test.id]))\(dependency)")
        }
    }

    private func describe(_ outcome: Outcome?) -> String {
        switch outcome {
        case .pass: "pass"
        case .assertion(let message): message
        case .setup(let message): "setup failure: \(message)"
        case .retry: "retry (the cache sent a request twice)"
        case .harness(let message): "harness failure: \(message)"
        case nil: "not run"
        }
    }
}
