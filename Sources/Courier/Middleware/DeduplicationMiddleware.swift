public import Foundation
public import HTTPTypes
public import OpenAPIRuntime
import Synchronization

/// Lets identical GET and HEAD calls in flight at the same time share one upstream request:
/// same method, URL and caller-identifying header fields (``identifyingFields``). Each caller
/// gets the whole answer (the body is buffered once, within the client's size limit).
///
/// ```swift
/// let client = NetworkClient(configuration: .init(middlewares: [DeduplicationMiddleware()]))
/// // 100 views asking for the same story at once: one request reaches the server.
/// ```
///
/// A caller that is cancelled leaves at once with ``NetworkError/taskCancelled``; the shared
/// request goes on for the others and is cancelled only when every caller has gone. (The
/// caller that started it returns from its cancelled call once the shared request ends, since
/// a middleware may not let the rest of the chain outlive its call.) Calls whose endpoint sets
/// `CallTraits.deduplicable` to false, calls with a body and event streams always go alone.
public final class DeduplicationMiddleware: ClientMiddleware, CallMiddleware, Sendable {
    /// Header fields whose values tell callers apart: two calls that differ in one of them are
    /// never shared.
    public let identifyingFields: [HTTPField.Name]
    private let flights = Mutex<[String: Flight]>([:])

    /// A middleware that tells callers apart by `identifyingFields` (by default the fields that
    /// carry credentials or change the representation).
    public init(identifyingFields: [HTTPField.Name] = [.authorization, .proxyAuthorization, .cookie, .accept, .acceptLanguage]) {
        self.identifyingFields = identifyingFields
    }

    /// Upstream requests in flight now (for tests and diagnostics).
    public var inFlight: Int { flights.withLock { $0.count } }

    public func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        try await intercept(request, body: body, baseURL: baseURL, operationID: operationID, context: CallContext.current, next: next)
    }

    package func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String,
        context: CallContext?,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        // A streamed answer (server-sent events) is read by one caller as it arrives: never shared.
        guard request.method == .get || request.method == .head, body == nil, context?.traits.deduplicable ?? true,
            context?.streamsResponse != true
        else {
            return try await next(request, body, baseURL)
        }
        let key = self.key(request, baseURL)
        let (flight, caller, leads) = flights.withLock { flights -> (Flight, Int, Bool) in
            if let flight = flights[key] { return (flight, flight.join(), false) }
            let flight = Flight()
            flights[key] = flight
            return (flight, flight.join(), true)
        }
        guard leads else {
            context?.recorder?.record(.joined)
            return try await flight.wait(caller).answer()
        }
        let limit = context?.maxResponseBytes ?? ReplayableBody.limit
        return try await withoutActuallyEscaping(next) { next in
            let upstream = Task {
                let result: Result<Shared, any Error>
                do {
                    let (head, body) = try await next(request, nil, baseURL)
                    var data = Data()
                    if let body { data = try await BodyCollector.collect(body, limit: limit) }
                    result = .success(Shared(head: head, body: data))
                } catch {
                    result = .failure(error)
                }
                self.flights.withLock { flights in
                    if flights[key] === flight { flights[key] = nil }
                }
                flight.finish(result)
            }
            flight.started(upstream) { [self] in
                flights.withLock { flights in
                    if flights[key] === flight { flights[key] = nil }
                }
            }
            let mine = await flight.wait(caller)
            // `next` must not outlive this call: wait for the shared request to end.
            await upstream.value
            return try mine.answer()
        }
    }

    private func key(_ request: HTTPRequest, _ baseURL: URL) -> String {
        var key = request.method.rawValue + " " + URLJoin.join(baseURL, request.path ?? "/")
        for name in identifyingFields {
            key += "\n" + name.canonicalName + ": " + request.headerFields[values: name].joined(separator: ", ")
        }
        return key
    }
}

/// One answer shared by every caller.
private struct Shared: Sendable {
    let head: HTTPResponse
    let body: Data
}

extension Result where Success == Shared, Failure == any Error {
    fileprivate func answer() throws -> (HTTPResponse, HTTPBody?) {
        let shared = try get()
        return (shared.head, HTTPBody(shared.body))
    }
}

/// The callers waiting for one upstream request.
private final class Flight: Sendable {
    private struct State {
        var waiters: [Int: CheckedContinuation<Result<Shared, any Error>, Never>] = [:]
        var departed: Set<Int> = []
        var callers = 0
        var nextID = 0
        var result: Result<Shared, any Error>?
        var upstream: Task<Void, Never>?
        var abandoned: (@Sendable () -> Void)?
    }

    private let state = Mutex(State())

    /// Records the upstream task and what to do when every caller has gone.
    func started(_ upstream: Task<Void, Never>, abandoned: @escaping @Sendable () -> Void) {
        state.withLock {
            $0.upstream = upstream
            $0.abandoned = abandoned
        }
    }

    /// Resumes every caller with `result`.
    func finish(_ result: Result<Shared, any Error>) {
        let waiters = state.withLock { state in
            state.result = result
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume(returning: result) }
    }

    /// A new caller's number.
    func join() -> Int {
        state.withLock { state in
            state.callers += 1
            defer { state.nextID += 1 }
            return state.nextID
        }
    }

    /// The shared result for caller `id`, or `CancellationError` as soon as its task is cancelled.
    func wait(_ id: Int) async -> Result<Shared, any Error> {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> Result<Shared, any Error>? in
                    if let result = state.result { return result }
                    if state.departed.contains(id) { return .failure(CancellationError()) }
                    state.waiters[id] = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            let (waiter, orphaned) = state.withLock { state -> (CheckedContinuation<Result<Shared, any Error>, Never>?, Bool) in
                guard state.result == nil, state.departed.insert(id).inserted else { return (nil, false) }
                state.callers -= 1
                return (state.waiters.removeValue(forKey: id), state.callers == 0)
            }
            waiter?.resume(returning: .failure(CancellationError()))
            if orphaned { abandon() }
        }
    }

    /// Every caller has gone: forget the flight and cancel the upstream request.
    private func abandon() {
        let (upstream, abandoned) = state.withLock { ($0.upstream, $0.abandoned) }
        abandoned?()
        upstream?.cancel()
    }
}
