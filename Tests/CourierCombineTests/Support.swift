#if Combine  // the `Combine` trait: Package.swift
import Courier
import Foundation
import Synchronization
import Testing
#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif

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
#endif  // Combine
