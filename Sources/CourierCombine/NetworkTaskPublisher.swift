#if Combine  // the `Combine` trait: Package.swift
public import Courier
import Foundation
#if canImport(Combine)
public import Combine
#else
public import OpenCombine
#endif

/// A publisher that runs one async Courier call per subscription and emits its value, then
/// finishes — or fails with the call's `NetworkError`.
///
/// The call starts when the subscriber first asks for a value (a `sink` does so at once), runs
/// in a `Task` (never on the main actor), and is cancelled — with its transport request — when
/// the subscription is cancelled. Values and completion arrive on that task's thread: in
/// main-actor code add `.receive(on: DispatchQueue.main)` (Combine) or
/// `.receive(on: DispatchQueue.main.ocombine)` (OpenCombineDispatch) before touching UI state.
///
/// ```swift
/// let stories = NetworkTaskPublisher { () async throws(NetworkError) -> Story in
///     try await client.request(HackerNewsAPI.item(1000), as: Story.self)
/// }
/// ```
public struct NetworkTaskPublisher<Output: Sendable>: Publisher {
    /// Every failure is a `NetworkError`.
    ///
    /// ```swift
    /// let failure: NetworkTaskPublisher<Story>.Failure = .taskCancelled
    /// ```
    public typealias Failure = NetworkError

    private let operation: @Sendable () async throws(NetworkError) -> Output

    /// A publisher that runs `operation` once per subscription.
    ///
    /// ```swift
    /// NetworkTaskPublisher { () async throws(NetworkError) in try await client.response(endpoint) }
    /// ```
    public init(_ operation: @escaping @Sendable () async throws(NetworkError) -> Output) {
        self.operation = operation
    }

    /// Attaches `subscriber`; the call starts on its first demand.
    ///
    /// ```swift
    /// publisher.subscribe(subscriber)
    /// ```
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == NetworkError {
        subscriber.receive(subscription: NetworkTaskSubscription(subscriber: AnySubscriber(subscriber), operation: operation))
    }
}

// @unchecked: every mutable field is read and written under `lock`; the subscriber is called
// outside the lock, at most once for a value and once for completion, from a single task.
// The subscriber is type-erased so the task does not capture a generic subscriber type.
final class NetworkTaskSubscription<Output: Sendable>: Subscription, @unchecked Sendable {  // mutable state is behind `lock` (see above)
    private let lock = NSLock()
    private var subscriber: AnySubscriber<Output, NetworkError>?
    private var operation: (@Sendable () async throws(NetworkError) -> Output)?
    private var task: Task<Void, Never>?

    init(subscriber: AnySubscriber<Output, NetworkError>, operation: @escaping @Sendable () async throws(NetworkError) -> Output) {
        self.subscriber = subscriber
        self.operation = operation
    }

    func request(_ demand: Subscribers.Demand) {
        guard demand > 0 else { return }
        lock.lock()
        defer { lock.unlock() }
        guard subscriber != nil, let operation else { return }
        self.operation = nil
        task = Task {
            let result: Result<Output, NetworkError>
            do throws(NetworkError) {
                result = .success(try await operation())
            } catch {
                result = .failure(error)
            }
            self.deliver(result)
        }
    }

    func cancel() {
        lock.lock()
        let task = self.task
        self.task = nil
        subscriber = nil
        operation = nil
        lock.unlock()
        task?.cancel()
    }

    private func deliver(_ result: Result<Output, NetworkError>) {
        lock.lock()
        let subscriber = self.subscriber
        self.subscriber = nil
        task = nil
        lock.unlock()
        guard let subscriber else { return }  // cancelled meanwhile
        switch result {
        case .success(let value):
            _ = subscriber.receive(value)
            subscriber.receive(completion: .finished)
        case .failure(let error):
            subscriber.receive(completion: .failure(error))
        }
    }
}
#endif  // Combine
