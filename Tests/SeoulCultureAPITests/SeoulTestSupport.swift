import Courier
import CourierSandbox
import CourierTestSupport
import Foundation
import SeoulCultureAPI
import Testing

/// Every Seoul suite, one test at a time (`.serialized` reaches the nested suites): the whole
/// `swift test` runs all suites at once on two cores, and the Seoul tests side by side (each with
/// a sandbox, several loading thousands of rows, two starting `courier` processes) took enough
/// CPU to push the Accounts suites' bcrypt-bound calls past their timeouts.
@Suite(.serialized) enum SeoulSuite {}

/// A valid stand-in key (20+ letters and digits).
let testKey = "CourierTestKey0123456789abcdef"

/// The day the stand-in's data is centred on.
let anchorDay = SeoulDay(year: 2026, month: 11, day: 20)!

/// A day before every program ends: nothing is filtered out as past.
let longAgo = SeoulDay(year: 2000, month: 1, day: 1)!

extension RunningSandbox {
    /// The stand-in's service root.
    var seoulRoot: URL { baseURL.appendingPathComponent("seoul") }

    /// A client of the stand-in with fast retries.
    func seoul(key: String = testKey, today: SeoulDay = anchorDay, configuration: NetworkClient.Configuration = .init(timeout: .seconds(120)), pageSize: Int = 1000) -> SeoulCultureClient {
        SeoulCultureClient(
            key: key, baseURL: seoulRoot, configuration: configuration,
            retryPolicy: RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(20)), pageSize: pageSize, today: { today })
    }

    /// Sets the stand-in's knobs.
    func seoulControl(_ query: RequestParameters) async throws {
        let endpoint = TestEndpoint(baseURL: baseURL, path: "/seoul/_control", method: .post, task: .requestParameters(query, encoding: .url))
        _ = try await NetworkClient().response(endpoint)
    }

    /// The stand-in's counters.
    func seoulStats() async throws -> SeoulStats {
        try await NetworkClient().request(get("/seoul/_stats"), as: SeoulStats.self)
    }
}
