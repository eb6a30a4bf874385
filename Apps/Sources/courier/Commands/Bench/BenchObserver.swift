import Courier
import CourierTransportCore
import Synchronization

/// Counts what the resilience middlewares did during a `courier bench` run, from each call's
/// steps when it ends (one item per call on the observer's feed, not one per step): hedges written
/// to a connection and won by the hedge, breaker openings and rejections, and the time calls were held by the
/// pacer.
final class BenchObserver: CallObserver {
    /// The counts so far.
    struct Counts: Sendable, Equatable {
        /// Calls whose timeline arrived.
        var calls = 0
        var hedgesSent = 0
        var hedgesWon = 0
        var breakerOpened = 0
        var breakerRejected = 0
        /// The pacer's waits, summed over every call.
        var paced: Duration = .zero
    }

    private let counts = Mutex(Counts())

    var observesEachStep: Bool { false }

    func callEnded(_ steps: [CallStep]) {
        var call = Counts()
        // A hedge counts as sent once written to a connection: the exchange started after a
        // `hedgeSent` is the hedge, and the transport notes the connection its head went out on.
        // A transport that notes no connections (URLSession) counts the exchange's start.
        var hedgeExchanges: [Int] = []
        var hedgesDue = 0
        var connected: Set<Int> = []
        for step in steps {
            switch step.kind {
            case .hedgeSent: hedgesDue += 1
            case .attemptStarted where hedgesDue > 0:
                hedgesDue -= 1
                hedgeExchanges.append(step.attempt)
            case .connection: connected.insert(step.attempt)
            case .hedgeWon(let byHedge) where byHedge: call.hedgesWon += 1
            case .breaker(.opened): call.breakerOpened += 1
            case .breaker(.rejected): call.breakerRejected += 1
            case .paced(let wait): call.paced += wait
            default: break
            }
        }
        call.hedgesSent = connected.isEmpty ? hedgeExchanges.count : hedgeExchanges.filter(connected.contains).count
        counts.withLock {
            $0.calls += 1
            $0.hedgesSent += call.hedgesSent
            $0.hedgesWon += call.hedgesWon
            $0.breakerOpened += call.breakerOpened
            $0.breakerRejected += call.breakerRejected
            $0.paced += call.paced
        }
    }

    /// The counts so far.
    var snapshot: Counts { counts.withLock { $0 } }

    /// The counts once the timelines of `calls` calls have arrived — observers are fed on a
    /// thread of their own, a little after each call ends — or after `limit`, whichever is first.
    func settled(calls: Int, within limit: Duration = .seconds(2)) async -> Counts {
        let end = ContinuousClock.now + limit
        while snapshot.calls < calls, ContinuousClock.now < end {
            try? await Task.sleep(for: .milliseconds(5))
        }
        return snapshot
    }
}
