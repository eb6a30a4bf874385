#if WebSocket  // the `WebSocket` trait: Package.swift
import Courier
@testable import CourierWebSocket
import Foundation
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

    @Test(
        "the queue is bounded in bytes too: under .suspend a push waits once the bytes are taken, and is let in as they are read",
        .timeLimit(.minutes(1)))
    func suspendBoundedInBytes() async throws {
        let megabyte = 1 << 20
        let buffer = MessageBuffer(policy: .suspend(limit: 64), byteLimit: 4 * megabyte)
        let message = WebSocketMessage.binary(Data(count: megabyte))
        for _ in 0..<4 { #expect(await buffer.push(message)) }
        let fifth = Task { await buffer.push(.binary(Data([5]) + Data(count: megabyte - 1))) }
        try await Task.sleep(for: .milliseconds(100))
        #expect(buffer.state.withLock { ($0.count, $0.bytes, $0.producer != nil) } == (4, 4 * megabyte, true))
        _ = try await buffer.next()
        #expect(await fifth.value)
        #expect(buffer.state.withLock { ($0.count, $0.bytes) } == (4, 4 * megabyte))
        for _ in 0..<3 { _ = try await buffer.next() }
        #expect(try await buffer.next()?.data.first == 5)
        #expect(buffer.state.withLock { $0.bytes } == 0)
    }

    @Test("a message larger than the byte bound is let into an empty queue, and waits for it to empty otherwise", .timeLimit(.minutes(1)))
    func oversizeMessageWaitsForEmptyQueue() async throws {
        let buffer = MessageBuffer(policy: .suspend(limit: 64), byteLimit: 100)
        #expect(await buffer.push(.text("small")))
        let big = Task { await buffer.push(.binary(Data(count: 1_000))) }
        try await Task.sleep(for: .milliseconds(100))
        #expect(buffer.state.withLock { $0.producer != nil })
        #expect(try await buffer.next() == .text("small"))
        #expect(await big.value)
        #expect(try await buffer.next()?.data.count == 1_000)
    }

    @Test(".dropOldest drops as many of the oldest as a big message needs (and no more), and counts them")
    func dropOldestBoundedInBytes() async throws {
        let buffer = MessageBuffer(policy: .dropOldest(limit: 100), byteLimit: 10)
        for text in ["aaa", "bbb", "ccc"] { #expect(await buffer.push(.text(text))) }
        #expect(await buffer.push(.text("dddddd")))
        #expect(buffer.dropped == 2)
        #expect(buffer.state.withLock { ($0.count, $0.bytes) } == (2, 9))
        buffer.finish(.normal(1000))
        var left: [String] = []
        while let message = try await buffer.next() { left.append(message.text ?? "") }
        #expect(left == ["ccc", "dddddd"])
    }
}
#endif  // WebSocket
