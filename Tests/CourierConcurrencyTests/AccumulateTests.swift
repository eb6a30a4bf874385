import Courier
import Synchronization
import Testing

@testable import CourierConcurrency

@Suite struct AccumulateTests {
    struct Story: Sendable, Equatable {
        let id: Int
        let time: Int
    }

    @Test func growsInArrivalOrderLikeScan() async {
        let source = AsyncStream<Int> { c in
            for value in [3, 1, 2] { c.yield(value) }
            c.finish()
        }
        var emitted: [[Int]] = []
        for await snapshot in source.accumulated() { emitted.append(snapshot.array) }
        #expect(emitted == [[3], [3, 1], [3, 1, 2]])
    }

    @Test func newestFirstLikeTheSeedsSortedStories() async {
        let stories = [Story(id: 1, time: 100), Story(id: 2, time: 300), Story(id: 3, time: 200), Story(id: 4, time: 300)]
        let source = AsyncStream<Story> { c in
            for story in stories { c.yield(story) }
            c.finish()
        }
        var emitted: [[Int]] = []
        for await snapshot in source.accumulated(sortedBy: { $0.time > $1.time }) {
            emitted.append(snapshot.map(\.id))
        }
        // Equal times keep arrival order (2 before 4).
        #expect(emitted == [[1], [2, 1], [2, 3, 1], [2, 4, 3, 1]])
    }

    @Test func earlierSnapshotsNeverChange() {
        var accumulator = Accumulator<Int>(sortedBy: <)
        var snapshots: [AccumulatedSnapshot<Int>] = []
        var values: [Int] = []
        var generator = SplitMix(seed: 7)
        for _ in 0..<2000 {
            let value = Int(generator.next() % 500)
            accumulator.add(value)
            values.append(value)
            if values.count.isMultiple(of: 97) { snapshots.append(accumulator.snapshot) }
        }
        for (index, snapshot) in snapshots.enumerated() {
            let count = (index + 1) * 97
            #expect(snapshot.array == values.prefix(count).sorted())
        }
    }

    @Test func matchesAStableSortForManyRandomInsertions() {
        struct Keyed: Sendable, Equatable {
            let key: Int
            let arrival: Int
        }
        var accumulator = Accumulator<Keyed>(sortedBy: { $0.key < $1.key })
        var generator = SplitMix(seed: 42)
        var reference: [Keyed] = []
        for arrival in 0..<5000 {
            let item = Keyed(key: Int(generator.next() % 300), arrival: arrival)
            accumulator.add(item)
            reference.append(item)
        }
        let expected = reference.sorted { ($0.key, $0.arrival) < ($1.key, $1.arrival) }
        let snapshot = accumulator.snapshot
        #expect(snapshot.count == 5000)
        #expect(snapshot.array == expected)
        // Random access agrees with iteration.
        for index in stride(from: 0, to: 5000, by: 37) {
            #expect(snapshot[index] == expected[index])
        }
    }

    @Test func appendOrderAtScaleWithRandomAccess() {
        var accumulator = Accumulator<Int>()
        accumulator.add(contentsOf: 0..<10_000)
        let snapshot = accumulator.snapshot
        #expect(snapshot.array == Array(0..<10_000))
        #expect(snapshot[0] == 0 && snapshot[5_123] == 5_123 && snapshot[9_999] == 9_999)
        #expect(snapshot.last == 9_999)
    }

    /// The cost per element stays logarithmic: comparisons per insertion grow with log n, and
    /// the tree (whose path is all that is copied per insertion) stays shallow.
    @Test func costPerElementIsLogarithmic() {
        func run(_ n: Int) -> (comparisonsPerElement: Double, height: Int) {
            let comparisons = Atomic<Int>(0)
            var accumulator = Accumulator<Int>(sortedBy: { a, b in
                comparisons.add(1, ordering: .relaxed)
                return a > b
            })
            var generator = SplitMix(seed: UInt64(n))
            for _ in 0..<n { accumulator.add(Int(generator.next() % 1_000_000)) }
            return (Double(comparisons.load(ordering: .relaxed)) / Double(n), accumulator.snapshot.root.height)
        }
        let small = run(1_000)
        let large = run(10_000)
        // A binary search per level: ≈ log2(n) + a few; a sorted Array rebuilt per element would be ≈ n log n.
        #expect(small.comparisonsPerElement < 12)
        #expect(large.comparisonsPerElement < 16)
        #expect(large.height <= 4)
    }

    @Test func batchingEmitsEveryNthAndTheRemainder() async {
        let source = AsyncStream<Int> { c in
            for value in 0..<10 { c.yield(value) }
            c.finish()
        }
        var counts: [Int] = []
        for await snapshot in source.accumulated(every: 4) { counts.append(snapshot.count) }
        #expect(counts == [4, 8, 10])
    }

    @Test func emptySourceEmitsNothingAndErrorsPassThrough() async {
        let empty = AsyncStream<Int> { $0.finish() }
        var emissions = 0
        for await _ in empty.accumulated() { emissions += 1 }
        #expect(emissions == 0)

        let failing = AsyncThrowingStream<Int, any Error> { c in
            c.yield(1)
            c.finish(throwing: NetworkError.serverError(500))
        }
        var seen: [[Int]] = []
        await #expect(throws: NetworkError.serverError(500)) {
            for try await snapshot in failing.accumulatedSorted() { seen.append(snapshot.array) }
        }
        #expect(seen == [[1]])
    }

    @Test func snapshotsCompareByContents() {
        var a = Accumulator<Int>()
        var b = Accumulator<Int>(sortedBy: <)
        a.add(contentsOf: [1, 2, 3])
        b.add(contentsOf: [3, 1, 2])
        #expect(a.snapshot == b.snapshot)
        #expect(a.snapshot.description == "[1, 2, 3]")
        #expect(AccumulatedSnapshot<Int>().isEmpty)
    }
}

/// A small deterministic random generator for reproducible tests.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
