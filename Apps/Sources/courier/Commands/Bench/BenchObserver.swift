import Courier
import CourierTransportCore
import Synchronization

/// Counts what the resilience middlewares did during a `courier bench` run, from each call's
/// steps when it ends (one item per call on the observer's feed, not one per step): hedges sent
/// and won by the hedge, breaker openings and rejections, and the time calls were held by the
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
        for step in steps {
            switch step.kind {
            case .hedgeSent: call.hedgesSent += 1
            case .hedgeWon(let byHedge) where byHedge: call.hedgesWon += 1
            case .breaker(.opened): call.breakerOpened += 1
            case .breaker(.rejected): call.breakerRejected += 1
            case .paced(let wait): call.paced += wait
            default: break
            }
        }
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
