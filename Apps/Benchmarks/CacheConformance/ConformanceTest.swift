import Foundation

/// One test of http-tests/cache-tests, read from `cache-tests.json` (see its README).
struct ConformanceTest: Sendable {
    var id: String
    var name: String
    var kind: String
    var dependsOn: [String]
    var browsersPassed: [String: Bool]
    var steps: [TestStep]
}

/// A header field a test names: a value or a number of seconds relative to the origin's now.
struct HeaderSpec: Sendable {
    enum Value: Sendable {
        case text(String)
        case delta(Int)
    }

    var name: String
    var value: Value
    /// Whether the client checks it arrives unchanged (the third element; true when absent).
    var checked: Bool
}

/// What a test expects of a response header field.
enum ExpectedHeader: Sendable {
    case present(String)
    case equals(HeaderSpec)
    case sameAs(String, String)
    case greater(String, Double)
}

/// One request of a test and what the origin answers and the client checks.
struct TestStep: Sendable {
    var method = "GET"
    var requestHeaders: [HeaderSpec] = []
    var requestBody: String?
    var queryArg: String?
    var filename: String?
    var fetchCache: String?
    var magicIMS = false
    var magicLocations = false
    var rfc850: [String] = []
    var responseStatus: (Int, String)?
    var responseHeaders: [HeaderSpec] = []
    var responseBody: String?
    var responsePause: Double?
    var disconnect = false
    var pauseAfter = false
    var setup = false
    var setupTests: [String] = []
    var expectedType: String?
    /// nil: absent; `.some(nil)`: `null` (not checked).
    var expectedStatus: Int??
    var expectedText: String??
    var checkBody = true
    var expectedHeaders: [ExpectedHeader] = []
    var expectedHeadersMissing: [String] = []
    var expectedRequestHeaders: [(String, String?)] = []
    var expectedRequestHeadersMissing: [(String, String?)] = []
    var expectedMethod: String?

    /// Whether a failure of check `member` is a setup failure.
    func isSetup(_ member: String) -> Bool { setup || setupTests.contains(member) }
}

/// Reads the data file's private selection.
enum ConformanceData {
    static func load(_ url: URL) throws -> [ConformanceTest] {
        let root = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any] ?? [:]
        var tests: [ConformanceTest] = []
        for suite in root["suites"] as? [[String: Any]] ?? [] {
            for test in suite["tests"] as? [[String: Any]] ?? [] where test["private_selection"] as? Bool == true {
                tests.append(
                    ConformanceTest(
                        id: test["id"] as? String ?? "?", name: test["name"] as? String ?? "",
                        kind: test["kind"] as? String ?? "required", dependsOn: test["depends_on"] as? [String] ?? [],
                        browsersPassed: test["browsers_passed"] as? [String: Bool] ?? [:],
                        steps: (test["requests"] as? [[String: Any]] ?? []).map(step)))
            }
        }
        return tests
    }

    private static func step(_ raw: [String: Any]) -> TestStep {
        var step = TestStep()
        step.method = raw["request_method"] as? String ?? "GET"
        step.requestHeaders = headers(raw["request_headers"])
        step.requestBody = raw["request_body"] as? String
        step.queryArg = raw["query_arg"] as? String
        step.filename = raw["filename"] as? String
        step.fetchCache = raw["cache"] as? String
        step.magicIMS = raw["magic_ims"] as? Bool ?? false
        step.magicLocations = raw["magic_locations"] as? Bool ?? false
        step.rfc850 = (raw["rfc850date"] as? [String] ?? []).map { $0.lowercased() }
        if let status = raw["response_status"] as? [Any], let code = status.first as? Int {
            step.responseStatus = (code, status.count > 1 ? status[1] as? String ?? "" : "")
        }
        step.responseHeaders = headers(raw["response_headers"])
        step.responseBody = raw["response_body"] as? String
        step.responsePause = (raw["response_pause"] as? NSNumber)?.doubleValue
        step.disconnect = raw["disconnect"] as? Bool ?? false
        step.pauseAfter = raw["pause_after"] as? Bool ?? false
        step.setup = raw["setup"] as? Bool ?? false
        step.setupTests = raw["setup_tests"] as? [String] ?? []
        step.expectedType = raw["expected_type"] as? String
        if raw.keys.contains("expected_status") { step.expectedStatus = .some(raw["expected_status"] as? Int) }
        if raw.keys.contains("expected_response_text") { step.expectedText = .some(raw["expected_response_text"] as? String) }
        step.checkBody = raw["check_body"] as? Bool ?? true
        step.expectedHeaders = (raw["expected_response_headers"] as? [Any] ?? []).compactMap(expected)
        step.expectedHeadersMissing = (raw["expected_response_headers_missing"] as? [Any] ?? []).compactMap { $0 as? String }
        step.expectedRequestHeaders = pairs(raw["expected_request_headers"])
        step.expectedRequestHeadersMissing = pairs(raw["expected_request_headers_missing"])
        step.expectedMethod = raw["expected_method"] as? String
        return step
    }

    private static func value(_ raw: Any?) -> HeaderSpec.Value {
        if let text = raw as? String { return .text(text) }
        if let number = raw as? NSNumber { return .delta(number.intValue) }
        return .text("")
    }

    private static func headers(_ raw: Any?) -> [HeaderSpec] {
        (raw as? [[Any]] ?? []).compactMap { item in
            guard let name = item.first as? String, item.count > 1 else { return nil }
            return HeaderSpec(name: name, value: value(item[1]), checked: item.count < 3 || item[2] as? Bool == true)
        }
    }

    private static func expected(_ raw: Any) -> ExpectedHeader? {
        if let name = raw as? String { return .present(name) }
        guard let item = raw as? [Any], let name = item.first as? String, item.count > 1 else { return nil }
        if item.count > 2, let op = item[1] as? String {
            if op == "=" { return .sameAs(name, item[2] as? String ?? "") }
            return .greater(name, (item[2] as? NSNumber)?.doubleValue ?? 0)
        }
        return .equals(HeaderSpec(name: name, value: value(item[1]), checked: true))
    }

    private static func pairs(_ raw: Any?) -> [(String, String?)] {
        (raw as? [Any] ?? []).compactMap { item in
            if let name = item as? String { return (name, nil) }
            guard let pair = item as? [Any], let name = pair.first as? String else { return nil }
            return (name, pair.count > 1 ? pair[1] as? String : nil)
        }
    }
}
