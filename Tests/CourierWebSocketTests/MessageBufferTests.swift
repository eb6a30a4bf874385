import Courier
@testable import CourierWebSocket
import Testing

/// The queue between the socket and the reader, hammered from two tasks: with a small limit
/// the producer keeps racing the reader for the last slot, the window in which a message once
/// got stranded (the reader waited beside it for good) or overtaken by the next one.
@Suite("Message buffer: one producer, one reader")
struct MessageBufferTests {
    @Test(
        "under .suspend every message arrives once and in order, however the two tasks interleave",
        .timeLimit(.minutes(1)), arguments: [1, 2, 4])
    func suspendKeepsOrder(limit: Int) async throws {
        let buffer = MessageBuffer(policy: .suspend(limit: limit))
        let total = 20_000
        let producer = Task {
            for index in 0..<total where !(await buffer.push(.text(String(index)))) { return }
            buffer.finish(.normal(1000))
        }
        var received: [Int] = []
        received.reserveCapacity(total)
        while let message = try await buffer.next() {
            received.append(Int(message.text ?? "") ?? -1)
            if received.count % 97 == 0 { await Task.yield() }
        }
        await producer.value
        #expect(received.count == total)
        #expect(received == Array(0..<total))
        #expect(buffer.dropped == 0)
    }

    @Test(".dropOldest never blocks the producer, keeps order, and counts every drop", .timeLimit(.minutes(1)))
    func dropOldestKeepsOrder() async throws {
        let buffer = MessageBuffer(policy: .dropOldest(limit: 3))
        let total = 20_000
        let producer = Task {
            for index in 0..<total { _ = await buffer.push(.text(String(index))) }
            buffer.finish(.normal(1000))
        }
        var received: [Int] = []
        while let message = try await buffer.next() {
            received.append(Int(message.text ?? "") ?? -1)
            if received.count % 5 == 0 { await Task.yield() }
        }
        await producer.value
        #expect(received == received.sorted())
        #expect(Set(received).count == received.count)
        #expect(received.last == total - 1)
        #expect(received.count + buffer.dropped == total)
    }
}
