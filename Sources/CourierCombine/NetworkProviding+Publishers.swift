#if Combine  // the `Combine` trait: Package.swift
public import Courier
import Foundation
#if canImport(Combine)
public import Combine
#else
public import OpenCombine
#endif

extension NetworkProviding {
    /// A publisher that sends `endpoint`, decodes the answer as `T`, emits it and finishes.
    ///
    /// Nothing is sent until a subscriber asks for a value; cancelling the subscription
    /// cancels the request (the server sees the connection close). Values arrive on a
    /// background thread — see ``NetworkTaskPublisher`` for getting back to the main thread.
    ///
    /// ```swift
    /// client.publisher(for: HackerNewsAPI.item(1000), as: Story.self)
    ///     .receive(on: DispatchQueue.main)
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0.title) })
    ///     .store(in: &subscriptions)
    /// ```
    public func publisher<T: Decodable & Sendable>(for endpoint: some Endpoint, as type: T.Type = T.self) -> AnyPublisher<T, NetworkError> {
        NetworkTaskPublisher { () async throws(NetworkError) -> T in
            try await self.request(endpoint, as: type)
        }
        .eraseToAnyPublisher()
    }

    /// A publisher of the whole `NetworkResponse` (status, headers, bytes) for `endpoint`.
    ///
    /// ```swift
    /// client.responsePublisher(for: UserAPI.delete(id: 7)).map(\.statusCode)
    /// ```
    public func responsePublisher(for endpoint: some Endpoint) -> AnyPublisher<NetworkResponse, NetworkError> {
        NetworkTaskPublisher { () async throws(NetworkError) -> NetworkResponse in
            try await self.response(endpoint)
        }
        .eraseToAnyPublisher()
    }

    /// Sends every endpoint, at most `maxConcurrent` at once, and emits each decoded value as
    /// it arrives (completion order) — Raon's `MergeMany` of page requests, bounded.
    ///
    /// By default the first failure ends the stream and cancels the requests in flight; with
    /// `skipFailures` failed requests are left out (the seed's `mergedStories`).
    ///
    /// ```swift
    /// client.mergedPublisher(for: ids.map(HackerNewsAPI.item), as: Story.self, maxConcurrent: 8, skipFailures: true)
    ///     .scan([Story]()) { $0 + [$1] }
    ///     .sink(receiveCompletion: { _ in }, receiveValue: { print($0.count) })
    /// ```
    public func mergedPublisher<E: Endpoint, T: Decodable & Sendable>(
        for endpoints: [E],
        as type: T.Type = T.self,
        maxConcurrent: Int,
        skipFailures: Bool = false
    ) -> AnyPublisher<T, NetworkError> {
        let publishers = endpoints.map { endpoint -> AnyPublisher<T, NetworkError> in
            let single = publisher(for: endpoint, as: type)
            guard skipFailures else { return single }
            return single.catch { _ in Empty<T, NetworkError>() }.eraseToAnyPublisher()
        }
        return Publishers.mergeMany(publishers, maxConcurrent: maxConcurrent)
    }
}

extension Publishers {
    /// Like `Publishers.MergeMany`, but subscribed to at most `maxConcurrent` publishers at a
    /// time; the next one is subscribed when one finishes. Values are emitted in completion
    /// order; the first failure ends the merge and cancels the rest. A limit below 1 is
    /// treated as 1.
    ///
    /// With ``NetworkTaskPublisher``s (which start on subscription) this bounds the number of
    /// requests in flight.
    ///
    /// ```swift
    /// let pages = (0..<count).map { client.publisher(for: SeoulAPI.page($0), as: ProgramPage.self) }
    /// Publishers.mergeMany(pages, maxConcurrent: 6)
    ///     .sink(receiveCompletion: { _ in }, receiveValue: { rows.append(contentsOf: $0.rows) })
    /// ```
    public static func mergeMany<P: Publisher>(_ publishers: [P], maxConcurrent: Int) -> AnyPublisher<P.Output, P.Failure> {
        publishers.publisher
            .setFailureType(to: P.Failure.self)
            .flatMap(maxPublishers: .max(Swift.max(1, maxConcurrent))) { $0 }
            .eraseToAnyPublisher()
    }
}
#endif  // Combine
