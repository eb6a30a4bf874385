import Courier
import CourierSandbox
import Foundation
import IntegrationTestSupport
import SeoulCultureAPI
import Testing

/// Every Seoul suite, one test at a time (`.serialized` reaches the nested suites), on one shared
/// stand-in (``withSeoulSandbox(_:)``). In the whole `swift test`, all suites run at once on two
/// cores; the Seoul tests side by side, each starting a sandbox (and with it a bcrypt warm-up on
/// the accounts' shared hashing pool), pushed the Accounts suites' calls past their timeouts.
@Suite(.serialized) enum SeoulSuite {}

/// The Seoul suites' one sandbox, started on first use and kept for the test run.
actor SharedSeoulSandbox {
    static let shared = SharedSeoulSandbox()
    private var starting: Task<RunningSandbox, any Error>?

    func sandbox() async throws -> RunningSandbox {
        if let starting { return try await starting.value }
        let task = Task { try await SandboxServer.start() }
        starting = task
        return try await task.value
    }
}

/// Runs `body` against the shared stand-in with its knobs and counters reset (the Seoul suites
/// run one test at a time, so nothing else uses it meanwhile).
func withSeoulSandbox<T>(_ body: (RunningSandbox) async throws -> T) async throws -> T {
    let sandbox = try await SharedSeoulSandbox.shared.sandbox()
    let reset = TestEndpoint(baseURL: sandbox.baseURL, path: "/seoul/_reset", method: .post, task: .requestPlain)
    _ = try await NetworkClient().response(reset)
    return try await body(sandbox)
}

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
    func seoul(
        key: String = testKey, today: SeoulDay = anchorDay, configuration: NetworkClient.Configuration = .init(timeout: .seconds(120)),
        pageSize: Int = 1000
    ) -> SeoulCultureClient {
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

/// What parsing `body` with `reading` ends in (the scanner, or JSONDecoder as the reference).
func parsedAnswer(_ body: Data, _ reading: SeoulAnswerParser.JSONReading) -> Result<CulturalEventAnswer, SeoulAPIError> {
    do throws(SeoulAPIError) {
        return .success(try SeoulAnswerParser.parse(body, reading: reading))
    } catch {
        return .failure(error)
    }
}

/// ``parsedAnswer(_:_:)`` of a text body.
func parsedAnswer(_ body: String, _ reading: SeoulAnswerParser.JSONReading) -> Result<CulturalEventAnswer, SeoulAPIError> {
    parsedAnswer(Data(body.utf8), reading)
}

/// What reading `body` into programs ends in with `reading`: with `.foundation`, JSONDecoder's
/// rows made programs one by one — the reference the direct scan must match.
func parsedPrograms(_ body: Data, _ reading: SeoulAnswerParser.JSONReading) -> Result<CulturalProgramAnswer, SeoulAPIError> {
    do throws(SeoulAPIError) {
        return .success(try SeoulAnswerParser.programs(body, reading: reading))
    } catch {
        return .failure(error)
    }
}
