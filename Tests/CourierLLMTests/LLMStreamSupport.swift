import Courier
import CourierLLM
import CourierLLMAdapter
import CourierSandbox
import Foundation
import IntegrationTestSupport
import Testing

/// The coin overview the `/llm/` stand-ins answer by default (in a ```` ```json ```` fence between prose).
struct StreamedOverview: Decodable, Sendable, Equatable {
    var symbol: String
    var websiteURL: String?
    var launchDate: String
    var description: String
}

/// The prompt whose answer is the fenced overview of 비트코인.
let overviewPrompt = "\"비트코인\"에 대한 개요를 JSON으로 알려줘"

/// A `POST` of `body` as JSON to `path` on the sandbox, with `query`.
func llmEndpoint(_ sandbox: RunningSandbox, _ path: String, query: [String: String] = [:], body: [String: Any]) throws -> TestEndpoint {
    let data = try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])
    let json = HTTPTask.requestData(data, contentType: "application/json")
    return TestEndpoint(
        baseURL: sandbox.baseURL, path: path, method: .post, task: query.isEmpty ? json : .requestComposite(query: query, body: json),
        timeout: .seconds(30))
}

/// The `NetworkError` `body` ends with, nil when it ends without one.
func failure(_ body: () async throws -> Void) async -> NetworkError? {
    do {
        try await body()
        return nil
    } catch {
        return error as? NetworkError
    }
}

/// One update of a partial stream and when it arrived.
struct TimedUpdate<T: Sendable>: Sendable {
    var update: LLMPartial<T>
    var at: ContinuousClock.Instant
}

/// Every update of `stream`, timed.
func timedUpdates<S: AsyncSequence, T: Sendable>(_ stream: S) async throws -> [TimedUpdate<T>] where S.Element == LLMPartial<T> {
    var updates: [TimedUpdate<T>] = []
    for try await update in stream { updates.append(TimedUpdate(update: update, at: .now)) }
    return updates
}

/// The concatenated text of `pieces`.
func text<S: AsyncSequence>(of pieces: S) async throws -> String where S.Element == LLMTextPiece {
    var text = ""
    for try await piece in pieces {
        if case .delta(let delta) = piece { text += delta }
    }
    return text
}

/// Checks what every partial stream must show: snapshots that only grow between restarts, then one
/// `.complete` last, equal to the whole-answer decode of `answer`; returns the number of partials.
@discardableResult
func expectGrowingPartials<T: Decodable & Sendable & Equatable>(
    _ updates: [TimedUpdate<T>], answer: String, sourceLocation: SourceLocation = #_sourceLocation
) throws -> Int {
    var previous: JSONSnapshot?
    var partials = 0
    for timed in updates.dropLast() {
        guard case .partial(let snapshot, let restart) = timed.update else {
            Issue.record("a complete value before the end", sourceLocation: sourceLocation)
            continue
        }
        if let previous, !restart { #expect(snapshot.extends(previous), sourceLocation: sourceLocation) }
        previous = snapshot
        partials += 1
    }
    let complete = try #require(updates.last?.update.value, sourceLocation: sourceLocation)
    let whole = try LLMResponseDecoding().decode(T.self, from: Data(answer.utf8), using: JSONDecoder())
    #expect(complete == whole, sourceLocation: sourceLocation)
    return partials
}
