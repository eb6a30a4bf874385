import Courier
import Foundation
import HTTPTypes

/// How one test ended (test-engine/lib/results.mjs).
enum Outcome: Sendable, Equatable {
    case pass
    /// A check failed: fail (required), optional fail (optimal) or "no" (check).
    case assertion(String)
    /// A check marked as setup failed: the result says nothing about conformance.
    case setup(String)
    /// The cache sent one request to the origin twice.
    case retry
    /// The request itself failed (a transport error, a timeout).
    case harness(String)
}

/// A failed check, thrown to end a test.
struct Failure: Error {
    let outcome: Outcome

    static func check(_ isSetup: Bool, _ condition: Bool, _ message: @autoclosure () -> String) throws {
        if condition { return }
        throw Failure(outcome: isSetup ? .setup(message()) : .assertion(message()))
    }
}

/// Runs a test's requests through a client with the cache, and judges them as the suite's
/// test-engine/client/test.mjs does.
struct ConformanceEngine: Sendable {
    /// Sends one request through the cache: a `NetworkClient` in this process, or one `courier
    /// request --cache DIR --include` process per request (``CLIFetcher``).
    let fetch: @Sendable (ConformanceEndpoint) async throws -> NetworkResponse
    let origin: OriginState
    let baseURL: URL

    func run(_ test: ConformanceTest) async -> Outcome {
        let uuid = UUID().uuidString.lowercased()
        await origin.configure(uuid, test.steps)
        var responses: [NetworkResponse] = []
        do {
            for (index, step) in test.steps.enumerated() {
                let number = index + 1
                let endpoint = ConformanceEndpoint(
                    test: test, step: step, number: number, uuid: uuid, baseURL: baseURL,
                    previous: responses.last)
                let response: NetworkResponse
                do {
                    response = try await fetch(endpoint)
                } catch {
                    return .harness("request \(number): \(error)")
                }
                responses.append(response)
                try ResponseChecks(step: step, number: number, uuid: uuid, response: response).run()
                if step.pauseAfter { try? await Task.sleep(for: .seconds(3)) }
            }
            try checkServer(test.steps, responses, await origin.state(uuid))
            return .pass
        } catch let failure as Failure {
            return failure.outcome
        } catch {
            return .harness("\(error)")
        }
    }

    /// What the origin saw (checkServerRequests).
    private func checkServer(_ steps: [TestStep], _ responses: [NetworkResponse], _ records: [OriginState.Record]) throws {
        var seen = 0
        for (index, step) in steps.enumerated() {
            let number = index + 1
            let typeSetup = step.isSetup("expected_type")
            var validators: [String] = []
            if step.expectedType == "cached" { continue }
            let record = records.indices.contains(seen) ? records[seen] : nil
            if step.expectedType == "not_cached" {
                try Failure.check(
                    typeSetup, record?.requestNumber == number,
                    "Response \(number) comes from cache (\(record?.requestNumber.map(String.init) ?? "none") on server)")
            }
            if step.expectedType == "etag_validated" { validators.append("if-none-match") }
            if step.expectedType == "lm_validated" { validators.append("if-modified-since") }
            seen += 1
            for validator in validators {
                try Failure.check(typeSetup, record != nil, "request \(number) wasn't sent to server")
                try Failure.check(typeSetup, record?.headers[validator] != nil, "request \(number) doesn't have \(validator) header")
            }
            let presentSetup = step.isSetup("expected_request_headers")
            for (name, value) in step.expectedRequestHeaders {
                let received = record?.headers[name.lowercased()]
                if let value {
                    try Failure.check(
                        presentSetup, received == value, "Request \(number) header \(name) is \"\(received ?? "undefined")\", not \"\(value)\"")
                } else {
                    try Failure.check(presentSetup, received != nil, "Request \(number) \(name) header not present.")
                }
            }
            let missingSetup = step.isSetup("expected_request_headers_missing")
            for (name, value) in step.expectedRequestHeadersMissing {
                let received = record?.headers[name.lowercased()]
                if let value {
                    try Failure.check(missingSetup, received != value, "Request \(number) header \(name) is \"\(value)\"")
                } else {
                    try Failure.check(missingSetup, received == nil, "Request \(number) \(name) header present.")
                }
            }
            if let record, responses.indices.contains(index) {
                for (name, expected) in record.responseHeaders where !["date", "set-cookie", "set-cookie2"].contains(name) {
                    let received = responses[index].headers[raw: name]
                    try Failure.check(
                        false, received == expected, "Response \(number) header \(name) is \"\(received ?? "null")\", not \"\(expected)\"")
                }
            }
            if let method = step.expectedMethod {
                try Failure.check(
                    step.isSetup("expected_method"), record?.method == method,
                    "Request \(number) had method \(record?.method ?? "none"), not \(method)")
            }
        }
    }
}

/// The checks of one response (checkResponse).
struct ResponseChecks {
    let step: TestStep
    let number: Int
    let uuid: String
    let response: NetworkResponse

    func run() throws {
        let headers = response.headers
        let served = headers[raw: Fields.serverRequestCount].flatMap { Int($0) }
        if let numbers = headers[raw: Fields.requestNumbers]?.split(separator: " "), Set(numbers).count != numbers.count {
            throw Failure(outcome: .retry)
        }
        let typeSetup = step.isSetup("expected_type")
        if step.expectedType == "cached", !(response.statusCode == 304 && served == nil) {
            try Failure.check(typeSetup, (served ?? .max) < number, "Response \(number) does not come from cache")
        }
        if step.expectedType == "not_cached" {
            try Failure.check(typeSetup, served == number, "Response \(number) comes from cache")
        }
        let status = response.statusCode
        if let expected = step.expectedStatus {
            if let expected {
                try Failure.check(step.isSetup("expected_status"), status == expected, "Response \(number) status is \(status), not \(expected)")
            }
        } else if let configured = step.responseStatus {
            try Failure.check(true, status == configured.0, "Response \(number) status is \(status), not \(configured.0)")
        } else if status == 999 {
            try Failure.check(typeSetup, false, "Request \(number) should have been conditional, but it was not.")
        } else {
            try Failure.check(true, status == 200, "Response \(number) status is \(status), not 200")
        }
        try checkHeaders()
        try checkBody()
    }

    private func checkHeaders() throws {
        let headers = response.headers
        let present = step.isSetup("expected_response_headers")
        for expected in step.expectedHeaders {
            switch expected {
            case .present(let name):
                try Failure.check(present, headers[raw: name] != nil, "Response \(number) \(name) header not present.")
            case .sameAs(let name, let other):
                try Failure.check(present, headers[raw: name] != nil, "Response \(number) \(name) header not present.")
                try Failure.check(
                    present, headers[raw: name] == headers[raw: other],
                    "Response \(number) header \(name) is \(headers[raw: name] ?? "null"), should match \(other)")
            case .greater(let name, let bound):
                try Failure.check(present, headers[raw: name] != nil, "Response \(number) \(name) header not present.")
                let value = headers[raw: name].flatMap { Double($0.prefix { $0.isNumber || $0 == "-" }) }
                try Failure.check(
                    present, (value ?? -.infinity) > bound,
                    "Response \(number) header \(name) is \(headers[raw: name] ?? "null"), should be bigger than \(bound)")
            case .equals(let spec):
                let value = HeaderFixup.value(
                    spec, serverNowMs: headers[raw: Fields.serverNow].flatMap { Int($0) },
                    baseURL: headers[raw: Fields.serverBaseURL], step: step)
                try Failure.check(
                    present, headers[raw: spec.name] == value,
                    "Response \(number) header \(spec.name) is \"\(headers[raw: spec.name] ?? "null")\", not \"\(value)\"")
            }
        }
        let missing = step.isSetup("expected_response_headers_missing")
        for name in step.expectedHeadersMissing {
            try Failure.check(
                missing, headers[raw: name] == nil, "Response \(number) includes unexpected header \(name): \"\(headers[raw: name] ?? "")\"")
        }
    }

    private func checkBody() throws {
        let text = String(decoding: response.body, as: UTF8.self)
        if !step.checkBody { return }
        if let expected = step.expectedText {
            if let expected {
                try Failure.check(step.isSetup("expected_response_text"), text == expected, "Response body is \"\(text)\", not \"\(expected)\"")
            }
        } else if let body = step.responseBody {
            try Failure.check(true, text == body, "Response body is \"\(text)\", not \"\(body)\"")
        } else if ![204, 304].contains(response.statusCode), step.method != "HEAD" {
            try Failure.check(true, text == uuid, "Response body is \"\(text.prefix(60))\", not \"\(uuid)\"")
        }
    }
}
