import Courier
import CourierSandbox
import Foundation
import Synchronization
import Testing
#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif

/// Runs `body` against a fresh sandbox (its own probe counters) on an ephemeral loopback port.
func withSandbox<T>(_ body: (RunningSandbox, NetworkClient) async throws -> T) async throws -> T {
    try await SandboxServer.withRunning { try await body($0, NetworkClient()) }
}

/// Any GET against the sandbox.
struct SandboxGet: Endpoint {
    var baseURL: URL
    var path: String

    var method: HTTPMethod { .get }
    var task: HTTPTask { .requestPlain }
}

struct Delayed: Decodable, Sendable, Equatable {
    var delayedMs: Int
}

extension RunningSandbox {
    func get(_ path: String) -> SandboxGet { SandboxGet(baseURL: baseURL, path: path) }

    func stats(_ client: NetworkClient) async throws -> ProbeStats {
        try await client.request(get("/probe/stats"), as: ProbeStats.self)
    }
}

/// What a subscription received, collected from whatever thread Combine calls on.
final class Received<Output: Sendable>: Sendable {
    private let state = Mutex<(values: [Output], completion: Subscribers.Completion<NetworkError>?)>(([], nil))

    var values: [Output] { state.withLock { $0.values } }
    var completion: Subscribers.Completion<NetworkError>? { state.withLock { $0.completion } }

    func append(_ value: Output) { state.withLock { $0.values.append(value) } }
    func finish(_ completion: Subscribers.Completion<NetworkError>) { state.withLock { $0.completion = completion } }
}

/// Subscribes with `sink` and waits for completion; returns the values and the completion.
func collect<T: Sendable>(_ publisher: AnyPublisher<T, NetworkError>) async -> ([T], Subscribers.Completion<NetworkError>) {
    let received = Received<T>()
    var cancellable: AnyCancellable?
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        cancellable = publisher.sink(
            receiveCompletion: { completion in
                received.finish(completion)
                continuation.resume()
            },
            receiveValue: { received.append($0) }
        )
    }
    withExtendedLifetime(cancellable) {}
    return (received.values, received.completion ?? .finished)
}

/// Waits (in real time, up to `timeout`) until `condition` holds; records an issue otherwise.
func eventually(
    timeout: Duration = .seconds(10),
    sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: @Sendable () async -> Bool
) async {
    let end = ContinuousClock.now + timeout
    while ContinuousClock.now < end {
        if await condition() { return }
        try? await Task.sleep(for: .milliseconds(2))
    }
    if await condition() { return }
    Issue.record("condition not met within \(timeout)", sourceLocation: sourceLocation)
}

extension Subscribers.Completion where Failure == NetworkError {
    /// The failure's error, or nil for `.finished`.
    var error: NetworkError? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

/// A subscriber that requests nothing until told to.
final class PatientSubscriber<Input: Sendable>: Subscriber, @unchecked Sendable {  // `subscription` is only read and written under `lock`.
    typealias Failure = NetworkError

    let received = Received<Input>()
    private let lock = NSLock()
    private var subscription: (any Subscription)?

    func receive(subscription: any Subscription) {
        lock.withLock { self.subscription = subscription }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        received.append(input)
        return .none
    }

    func receive(completion: Subscribers.Completion<NetworkError>) {
        received.finish(completion)
    }

    func request(_ demand: Subscribers.Demand) {
        let subscription = lock.withLock { self.subscription }
        subscription?.request(demand)
    }
}
