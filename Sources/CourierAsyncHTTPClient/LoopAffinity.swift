import NIOCore
import Synchronization

/// Picks the event loop a request prefers so that it usually finds an idle pooled connection
/// on that same loop.
///
/// AsyncHTTPClient runs a request's delegate on the request's event loop; when the pooled
/// connection lives on another loop, every response event crosses threads. `.indifferent`
/// round-robins the loops, so one request at a time alternates loops while its one connection
/// stays put (measured: about 10% of throughput at 1 in flight). Here the n-th request in
/// flight prefers loop n mod loops: one at a time always prefers the same loop, and many at
/// once spread evenly (connections are created on the preferred loop), each slot tending to
/// reuse the connection it had.
final class LoopAffinity: Sendable {
    private let loops: [any EventLoop]
    private let busy = Mutex<[UInt64]>([0, 0, 0, 0])

    /// A slot in flight; hand it back with ``release(_:)``.
    struct Lease {
        let slot: Int?
        let loop: any EventLoop
    }

    init(group: any EventLoopGroup) {
        var loops: [any EventLoop] = []
        for loop in group.makeIterator() { loops.append(loop) }
        self.loops = loops
    }

    /// The lowest free slot and its loop; past 256 in flight, a round-robin loop.
    func acquire(fallback: @autoclosure () -> any EventLoop) -> Lease {
        guard !loops.isEmpty else { return Lease(slot: nil, loop: fallback()) }
        let slot: Int? = busy.withLock { words in
            for index in words.indices where words[index] != .max {
                let bit = (~words[index]).trailingZeroBitCount
                words[index] |= 1 << UInt64(bit)
                return index * 64 + bit
            }
            return nil
        }
        guard let slot else { return Lease(slot: nil, loop: fallback()) }
        return Lease(slot: slot, loop: loops[slot % loops.count])
    }

    /// Frees the lease's slot.
    func release(_ lease: Lease) {
        guard let slot = lease.slot else { return }
        busy.withLock { words in
            words[slot / 64] &= ~(1 << UInt64(slot % 64))
        }
    }
}
