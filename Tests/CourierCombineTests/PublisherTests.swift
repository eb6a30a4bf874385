#if Combine  // the `Combine` trait: Package.swift
import Courier
import IntegrationTestSupport
import CourierCombine
import CourierSandbox
import Foundation
import Synchronization
import Testing
#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif

/// `NetworkClient` publishers over real sockets (OpenCombine on Linux).
@Suite("Publishers", .serialized)
struct PublisherTests {
    @Test func emitsTheDecodedValueThenFinishes() async throws {
        try await withSandbox { sandbox, client in
            let (values, completion) = await collect(client.publisher(for: sandbox.get("/probe/delay/10"), as: Delayed.self))
            #expect(values == [Delayed(delayedMs: 10)])
            #expect(completion.error == nil)
        }
    }

    @Test func failsWithTheNetworkError() async throws {
        try await withSandbox { sandbox, client in
            let (values, completion) = await collect(client.publisher(for: sandbox.get("/status/404"), as: Delayed.self))
            #expect(values.isEmpty)
            #expect(completion.error == .notFound(404))
            let (_, decoding) = await collect(client.publisher(for: sandbox.get("/wrong-type"), as: Delayed.self))
            #expect(decoding.error?.caseName == "decodingError")
        }
    }

    @Test func responsePublisherGivesStatusAndBody() async throws {
        try await withSandbox { sandbox, client in
            let (values, _) = await collect(client.responsePublisher(for: sandbox.get("/probe/delay/1")))
            #expect(values.first?.statusCode == 200)
            #expect(values.first?.text?.contains("delayedMs") == true)
        }
    }

    @Test func nothingIsSentUntilASubscriberAsks() async throws {
        try await withSandbox { sandbox, client in
            let publisher = client.publisher(for: sandbox.get("/probe/delay/1"), as: Delayed.self)
            // A subscriber that takes the subscription but requests nothing yet.
            let subscriber = PatientSubscriber<Delayed>()
            publisher.subscribe(subscriber)
            try await Task.sleep(for: .milliseconds(100))
            #expect(try await sandbox.stats(client).total == 0)
            subscriber.request(.max(1))
            await eventually { subscriber.received.completion != nil }
            #expect(subscriber.received.values == [Delayed(delayedMs: 1)])
            #expect(try await sandbox.stats(client).total == 1)
        }
    }

    @Test func cancellingTheSubscriptionCancelsTheRequest() async throws {
        try await withSandbox { sandbox, client in
            let received = Received<Delayed>()
            // /probe/slow streams its body, so the server notices when the client goes away.
            let cancellable = client.publisher(for: sandbox.get("/probe/slow/5000"), as: Delayed.self)
                .sink(receiveCompletion: { received.finish($0) }, receiveValue: { received.append($0) })
            await eventually { (try? await sandbox.stats(client).inFlight) == 1 }
            cancellable.cancel()
            // The server sees the client leave; the subscriber hears nothing more.
            await eventually { (try? await sandbox.stats(client)).map { $0.disconnects == 1 && $0.inFlight == 0 } ?? false }
            try await Task.sleep(for: .milliseconds(50))
            #expect(received.values.isEmpty && received.completion == nil)
        }
    }

    @Test func droppingTheCancellableCancelsToo() async throws {
        try await withSandbox { sandbox, client in
            var cancellable: AnyCancellable? = client.publisher(for: sandbox.get("/probe/slow/5000"), as: Delayed.self)
                .sink(receiveCompletion: { _ in }, receiveValue: { _ in })
            await eventually { (try? await sandbox.stats(client).inFlight) == 1 }
            #expect(cancellable != nil)
            cancellable = nil
            await eventually { (try? await sandbox.stats(client).disconnects) == 1 }
        }
    }
}

/// The bounded merge over real sockets.
@Suite("Merge many", .serialized, .tags(.timing))
struct MergeManyTests {
    @Test func neverExceedsMaxConcurrentAndEmitsEveryValue() async throws {
        try await withSandbox { sandbox, client in
            let endpoints = (0..<30).map { sandbox.get("/probe/delay/\(20 + $0 % 3 * 10)") }
            let (values, completion) = await collect(client.mergedPublisher(for: endpoints, as: Delayed.self, maxConcurrent: 4))
            #expect(values.count == 30)
            #expect(values.map(\.delayedMs).sorted() == endpoints.map { Int($0.path.split(separator: "/").last ?? "") ?? 0 }.sorted())
            #expect(completion.error == nil)
            let stats = try await sandbox.stats(client)
            #expect(stats.total == 30)
            #expect(stats.maxInFlight <= 4)
            #expect(stats.maxInFlight >= 2)
        }
    }

    @Test func skippingFailuresKeepsTheRest() async throws {
        try await withSandbox { sandbox, client in
            let endpoints = (0..<12).map { sandbox.get($0 % 4 == 0 ? "/status/500" : "/probe/delay/\($0)") }
            let (values, completion) = await collect(client.mergedPublisher(for: endpoints, as: Delayed.self, maxConcurrent: 3, skipFailures: true))
            #expect(values.map(\.delayedMs).sorted() == [1, 2, 3, 5, 6, 7, 9, 10, 11])
            #expect(completion.error == nil)
        }
    }

    @Test func theFirstFailureEndsTheMergeAndCancelsTheRequestsInFlight() async throws {
        struct Done: Decodable, Sendable { var done: Bool }
        try await withSandbox { sandbox, client in
            // Three slow streams, and after 300 ms an answer that does not decode as `Done`.
            let slow = sandbox.get("/probe/slow/5000")
            let endpoints = [slow, slow, slow, sandbox.get("/probe/delay/300")]
            let start = ContinuousClock.now
            let (values, completion) = await collect(client.mergedPublisher(for: endpoints, as: Done.self, maxConcurrent: 4))
            #expect(values.isEmpty)
            #expect(completion.error?.caseName == "decodingError")
            #expect(ContinuousClock.now - start < .seconds(4))
            // The three slow requests were cut: the server saw each client go away.
            await eventually { (try? await sandbox.stats(client)).map { $0.disconnects == 3 && $0.inFlight == 0 } ?? false }
        }
    }

    @Test func genericMergeManyBoundsAnyPublishers() async throws {
        try await withSandbox { sandbox, client in
            let publishers = (0..<10).map { client.publisher(for: sandbox.get("/probe/delay/\(30 + $0)"), as: Delayed.self) }
            let (values, _) = await collect(Publishers.mergeMany(publishers, maxConcurrent: 1))
            // One at a time: completion order is the input order.
            #expect(values.map(\.delayedMs) == Array(30..<40))
            let stats = try await sandbox.stats(client)
            #expect(stats.maxInFlight == 1)
        }
    }
}
#endif  // Combine
