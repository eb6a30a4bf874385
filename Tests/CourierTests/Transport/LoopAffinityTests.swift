import Foundation
import NIOCore
import NIOPosix
import Testing

@testable import CourierAsyncHTTPClient

@Suite("LoopAffinity: which event loop a request prefers")
struct LoopAffinityTests {
    @Test("one request at a time always prefers the same loop; many at once spread evenly; a freed slot is reused first")
    func slots() throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 3)
        defer { try? group.syncShutdownGracefully() }
        let loops = Array(group.makeIterator())
        let affinity = LoopAffinity(group: group)
        let fallback = group.next()

        // One at a time: slot 0 every time, so always the first loop (its connection stays matched).
        for _ in 0..<10 {
            let lease = affinity.acquire(fallback: fallback)
            #expect(lease.slot == 0)
            #expect(lease.loop === loops[0])
            affinity.release(lease)
        }

        // 30 at once: slots 0…29, ten per loop.
        var leases = (0..<30).map { _ in affinity.acquire(fallback: fallback) }
        #expect(leases.map(\.slot) == Array(0..<30))
        for loop in loops {
            #expect(leases.filter { $0.loop === loop }.count == 10)
        }

        // Free slot 7: the next request takes it (and its loop), not slot 30.
        affinity.release(leases[7])
        let again = affinity.acquire(fallback: fallback)
        #expect(again.slot == 7)
        #expect(again.loop === loops[7 % 3])
        leases[7] = again

        // Past 256 in flight the fallback loop is used and nothing is recorded.
        leases += (30..<256).map { _ in affinity.acquire(fallback: fallback) }
        let overflow = affinity.acquire(fallback: fallback)
        #expect(overflow.slot == nil)
        #expect(overflow.loop === fallback)
        affinity.release(overflow)
        for lease in leases { affinity.release(lease) }
        #expect(affinity.acquire(fallback: fallback).slot == 0)
    }
}
