import Courier
import IntegrationTestSupport
import Testing

@testable import CourierConcurrency

@Suite struct LatestTaskTests {
    @Test func startingAgainCancelsTheRunInFlight() async throws {
        let latest = LatestTask<String>()
        let events = Recorder<String>()
        let first = Task {
            try await latest.run {
                do {
                    try await Task.sleep(for: .seconds(30))
                } catch {
                    await events.append("first cancelled")
                    throw error
                }
                return "first"
            }
        }
        await eventually { await latest.isRunning }
        let second = try await latest.run { "second" }
        #expect(second == "second")
        await #expect(throws: NetworkError.taskCancelled) { try await first.value }
        await eventually { await events.entries == ["first cancelled"] }
        #expect(await latest.isRunning == false)
    }

    @Test func aSupersededRunNeverDeliversEvenIfItIgnoresCancellation() async throws {
        let latest = LatestTask<Int>()
        let gate = Gate()
        let first = Task {
            try await latest.run {
                try? await gate.wait()  // swallows cancellation
                return 1
            }
        }
        await eventually { await gate.waiting == 1 }
        let second = Task { try await latest.run { 2 } }
        #expect(try await second.value == 2)
        await gate.open()
        await #expect(throws: NetworkError.taskCancelled) { try await first.value }
    }

    @Test func cancellingTheCallerOrCallingCancelCancelsTheOperation() async {
        let latest = LatestTask<Int>()
        let cancelled = Recorder<String>()
        func slow(_ name: String) -> @Sendable () async throws -> Int {
            {
                do {
                    try await Task.sleep(for: .seconds(30))
                } catch {
                    await cancelled.append(name)
                    throw error
                }
                return 0
            }
        }
        let byCaller = Task { try await latest.run(slow("caller")) }
        await eventually { await latest.isRunning }
        byCaller.cancel()
        await #expect(throws: NetworkError.taskCancelled) { try await byCaller.value }

        let byCancel = Task { try await latest.run(slow("cancel()")) }
        await eventually { await latest.isRunning }
        await latest.cancel()
        await #expect(throws: NetworkError.taskCancelled) { try await byCancel.value }
        await eventually { Set(await cancelled.entries) == ["cancel()", "caller"] }
    }

    @Test func errorsComeBackAsNetworkErrors() async {
        struct Odd: Error {}
        let latest = LatestTask<Int>()
        await #expect(throws: NetworkError.notFound(404)) { try await latest.run { throw NetworkError.notFound(404) } }
        do {
            _ = try await latest.run { throw Odd() }
            Issue.record("expected an error")
        } catch {
            #expect(error.caseName == "networkError")
        }
    }
}

@Suite struct SingleFlightTests {
    @Test func concurrentIdenticalCallsShareOneUpstreamCall() async throws {
        let flight = SingleFlight<String, Int>()
        let upstream = Recorder<Int>()
        let gate = Gate()
        let callers = (0..<100).map { _ in
            Task {
                try await flight.value(for: "token") {
                    await upstream.append(1)
                    try await gate.wait()
                    return 42
                }
            }
        }
        await eventually { await flight.waiterCount(for: "token") == 100 }
        await gate.open()
        for caller in callers {
            #expect(try await caller.value == 42)
        }
        #expect(await upstream.count == 1)
        #expect(await flight.inFlightKeys.isEmpty)
    }

    @Test func differentKeysDoNotShareAndNothingIsCached() async throws {
        let flight = SingleFlight<Int, Int>()
        let upstream = Recorder<Int>()
        async let a = flight.value(for: 1) {
            await upstream.append(1)
            return 10
        }
        async let b = flight.value(for: 2) {
            await upstream.append(2)
            return 20
        }
        #expect(try await [a, b] == [10, 20])
        #expect(
            try await flight.value(for: 1) {
                await upstream.append(1)
                return 11
            } == 11)
        #expect(await upstream.entries.sorted() == [1, 1, 2])
    }

    @Test func errorsAreSharedByEveryWaiter() async {
        let flight = SingleFlight<String, Int>()
        let gate = Gate()
        let callers = (0..<5).map { _ in
            Task {
                try await flight.value(for: "k") {
                    try await gate.wait()
                    throw NetworkError.unauthorized(401)
                }
            }
        }
        await eventually { await flight.waiterCount(for: "k") == 5 }
        await gate.open()
        for caller in callers {
            await #expect(throws: NetworkError.unauthorized(401)) { try await caller.value }
        }
    }

    @Test func oneWaiterCancellingLeavesTheSharedCallRunning() async throws {
        let flight = SingleFlight<String, Int>()
        let gate = Gate()
        let upstreamCancelled = Recorder<Bool>()
        let operation: @Sendable () async throws -> Int = {
            do {
                try await gate.wait()
            } catch {
                await upstreamCancelled.append(true)
                throw error
            }
            return 7
        }
        let leaving = Task { try await flight.value(for: "k", operation) }
        let staying = Task { try await flight.value(for: "k", operation) }
        await eventually { await flight.waiterCount(for: "k") == 2 }
        leaving.cancel()
        await #expect(throws: NetworkError.taskCancelled) { try await leaving.value }  // returns at once
        #expect(await flight.waiterCount(for: "k") == 1)
        await gate.open()
        #expect(try await staying.value == 7)
        #expect(await upstreamCancelled.count == 0)
    }

    @Test func theSharedCallIsCancelledWhenEveryWaiterHasCancelled() async throws {
        let flight = SingleFlight<String, Int>()
        let upstreamCancelled = Recorder<Bool>()
        let callers = (0..<3).map { _ in
            Task {
                try await flight.value(for: "k") {
                    do {
                        try await Task.sleep(for: .seconds(30))
                    } catch {
                        await upstreamCancelled.append(true)
                        throw error
                    }
                    return 1
                }
            }
        }
        await eventually { await flight.waiterCount(for: "k") == 3 }
        for caller in callers { caller.cancel() }
        for caller in callers {
            await #expect(throws: NetworkError.taskCancelled) { try await caller.value }
        }
        await eventually { await upstreamCancelled.count == 1 }
        #expect(await flight.inFlightKeys.isEmpty)
        // A later call starts afresh.
        #expect(try await flight.value(for: "k") { 2 } == 2)
    }
}
