import Courier
import IntegrationTestSupport
import Testing

@testable import CourierConcurrency

@Suite struct ConcurrentMapTests {
    @Test(arguments: [1, 3, 8, 200])
    func keepsOrderAndNeverExceedsTheLimit(limit: Int) async throws {
        let gauge = ConcurrencyGauge()
        let output = try await Array(0..<100).concurrentMap(limit: limit) { value in
            await gauge.enter()
            try await Task.sleep(for: .microseconds(200 * (value % 7)))
            await gauge.leave()
            return value * 2
        }
        #expect(output == (0..<100).map { $0 * 2 })
        #expect(await gauge.highest <= limit)
        #expect(await gauge.total == 100)
    }

    @Test func runsExactlyLimitAtOnceWhenTransformsBlock() async throws {
        let gauge = ConcurrencyGauge()
        let gate = Gate()
        let task = Task {
            try await Array(0..<20).concurrentMap(limit: 6) { value -> Int in
                await gauge.enter()
                try await gate.wait()
                await gauge.leave()
                return value
            }
        }
        await eventually { await gauge.current == 6 }
        try await Task.sleep(for: .milliseconds(20))
        #expect(await gauge.current == 6)
        await gate.open()
        #expect(try await task.value == Array(0..<20))
        #expect(await gauge.highest == 6)
    }

    @Test func readsTheSequenceLazily() async throws {
        let gate = Gate()
        let pulled = Recorder<Int>()
        let source = (0..<1_000_000).lazy.map { $0 }
        let task = Task {
            try await source.concurrentMap(limit: 4) { value -> Int in
                await pulled.append(value)
                try await gate.wait()
                return value
            }
        }
        await eventually { await pulled.count == 4 }
        try await Task.sleep(for: .milliseconds(20))
        #expect(await pulled.count == 4)  // not a million child tasks
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
    }

    @Test func firstErrorCancelsTheRestAndIsRethrown() async {
        let cancelled = Recorder<Int>()
        await #expect(throws: NetworkError.notFound(404)) {
            _ = try await Array(0..<20).concurrentMap(limit: 5) { value -> Int in
                if value == 2 { throw NetworkError.notFound(404) }
                do {
                    // Long enough that only the cancellation ends it, however loaded the machine.
                    try await Task.sleep(for: .seconds(120))
                } catch {
                    await cancelled.append(value)
                    throw error
                }
                return value
            }
        }
        #expect(await cancelled.count >= 1)
    }

    @Test func emptyAndZeroLimit() async throws {
        #expect(try await [Int]().concurrentMap(limit: 4) { $0 } == [])
        #expect(try await [1, 2, 3].concurrentMap(limit: 0) { $0 + 1 } == [2, 3, 4])
    }
}

@Suite struct MergedResultsTests {
    @Test func streamsInCompletionOrderWithinTheLimit() async {
        let clock = TestClock()
        let gauge = ConcurrencyGauge()
        // Element i takes (6 - i) × 10 ms, so with everything running at once they finish in reverse.
        let stream = Array(0..<6).mergedResults(limit: 6) { value -> Int in
            await gauge.enter()
            try await clock.sleep(for: .milliseconds(10 * (6 - value)))
            await gauge.leave()
            return value
        }
        let collector = Task {
            var order: [Int] = []
            for await finished in stream { order.append(finished.index) }
            return order
        }
        await eventually { clock.sleeperCount == 6 }
        for step in 1...6 {
            await clock.advance(to: .milliseconds(10 * step))
        }
        #expect(await collector.value == [5, 4, 3, 2, 1, 0])
        #expect(await gauge.highest == 6)
    }

    @Test func limitIsNeverExceeded() async {
        let gauge = ConcurrencyGauge()
        var count = 0
        for await finished in Array(0..<60).mergedResults(
            limit: 5,
            { value -> Int in
                await gauge.enter()
                try await Task.sleep(for: .microseconds(300 * (value % 5)))
                await gauge.leave()
                return value
            })
        {
            #expect(finished.value == finished.element)
            count += 1
        }
        #expect(count == 60)
        #expect(await gauge.highest == 5)
    }

    @Test func failuresAreCollectedAsNetworkErrors() async {
        struct Odd: Error {}
        var values: [Int] = []
        var failures: [Int: NetworkError] = [:]
        for await finished in Array(0..<10).mergedResults(
            limit: 3,
            { value -> Int in
                if value == 3 { throw NetworkError.serverError(502) }
                if value == 7 { throw Odd() }
                return value
            })
        {
            switch finished.result {
            case .success(let value): values.append(value)
            case .failure(let error): failures[finished.element] = error
            }
        }
        #expect(values.sorted() == [0, 1, 2, 4, 5, 6, 8, 9])
        #expect(failures[3] == .serverError(502))
        #expect(failures[7]?.caseName == "networkError")
    }

    @Test func mergedValuesSkipsFailuresLikeTheSeed() async throws {
        var stories: [Int] = []
        for try await story in Array(1000..<1010).mergedValues(
            limit: 4,
            { id -> Int in
                if id.isMultiple(of: 3) { throw NetworkError.notFound(404) }
                return id
            })
        {
            stories.append(story)
        }
        #expect(stories.sorted() == [1000, 1001, 1003, 1004, 1006, 1007, 1009].map { $0 })
    }

    @Test func mergedValuesFailFastEndsWithTheError() async {
        await #expect(throws: NetworkError.self) {
            for try await _ in Array(0..<50).mergedValues(
                limit: 4, onFailure: .failFast,
                { value -> Int in
                    if value == 10 { throw NetworkError.serverError(500) }
                    try await Task.sleep(for: .milliseconds(1))
                    return value
                })
            {}
        }
    }

    @Test func stoppingIterationCancelsTheTransformsInFlight() async {
        let cancelled = Recorder<Int>()
        func firstIndex(of stream: AsyncStream<IndexedResult<Int, Int>>) async -> Int? {
            for await first in stream { return first.index }
            return nil
        }
        let first = await firstIndex(
            of: Array(0..<10).mergedResults(limit: 4) { value -> Int in
                if value == 0 { return 0 }
                do {
                    try await Task.sleep(for: .seconds(30))
                } catch {
                    await cancelled.append(value)
                    throw error
                }
                return value
            })
        #expect(first == 0)
        // 1…3 were running when 0 finished and 4 took 0's slot; nothing starts after the stop.
        await eventually { await cancelled.count == 4 }
        try? await Task.sleep(for: .milliseconds(20))
        #expect(await cancelled.entries.sorted() == [1, 2, 3, 4])
    }
}
