import Foundation
import Synchronization

/// The ticker stand-in's shared state: the price feed, the fault knobs and what it saw.
final class TickerHub: Sendable {
    /// Fault knobs, set with `POST /ticker/faults`.
    struct Faults: Codable, Sendable, Equatable {
        /// Drop every connection this many milliseconds after its first subscription (0: never).
        /// Counted from the subscription, not the opening: on a loaded machine a connection
        /// dropped before its subscription was read would never have subscribed at all.
        var dropAfterMs: Int = 0
        /// How to drop: `abrupt` (TCP closed, no close frame) or `close` (close frame 1012).
        var dropMode: String = "abrupt"
        /// Stop sending and stop reading (so pings go unanswered) on every connection.
        var silent: Bool = false
        /// Refuse this many more handshakes (answered 503).
        var refuse: Int = 0
        /// Send a malformed frame (`utf8`: text that is not UTF-8; `continuation`: a continuation
        /// frame with no message to continue; `rsv`: reserved bits set) to this many more
        /// connections, right after their snapshot.
        var malformed: Int = 0
        /// What the malformed frame is.
        var malformedKind: String = "utf8"
    }

    /// What the stand-in saw since the last reset.
    struct Stats: Codable, Sendable, Equatable {
        /// Upgrade requests, refused ones included.
        var handshakes = 0
        /// Handshakes refused by the `refuse` knob.
        var refused = 0
        /// Connections opened (ticker and echo).
        var opened = 0
        /// Connections open now.
        var open = 0
        /// Connections the client ended (its close frame or its socket).
        var closedByClient = 0
        /// Connections the server dropped (knobs).
        var droppedByServer = 0
        /// Subscription messages received.
        var subscriptions = 0
        /// Ticker messages sent.
        var messagesSent = 0
    }

    let feed = TickerFeed()
    private let faults = Mutex(Faults())
    private let stats = Mutex(Stats())

    var currentFaults: Faults { faults.withLock { $0 } }
    var currentStats: Stats { stats.withLock { $0 } }

    func setFaults(_ update: (inout Faults) -> Void) {
        faults.withLock { update(&$0) }
    }

    func record(_ update: (inout Stats) -> Void) {
        stats.withLock { update(&$0) }
    }

    /// Counts a handshake; true when it must be refused.
    func admitHandshake() -> Bool {
        let refuse = faults.withLock { faults -> Bool in
            guard faults.refuse > 0 else { return false }
            faults.refuse -= 1
            return true
        }
        record {
            $0.handshakes += 1
            if refuse { $0.refused += 1 }
        }
        return !refuse
    }

    /// The malformed-frame kind for a new connection, if the knob is armed.
    func takeMalformed() -> String? {
        faults.withLock { faults in
            guard faults.malformed > 0 else { return nil }
            faults.malformed -= 1
            return faults.malformedKind
        }
    }

    func reset() {
        faults.withLock { $0 = Faults() }
        stats.withLock { $0 = Stats() }
    }
}
