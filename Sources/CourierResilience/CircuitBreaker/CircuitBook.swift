import CourierTransportCore

/// The breakers of every origin and their transitions, on milliseconds of the middleware's clock:
/// a value type the middleware keeps under a lock, testable on its own.
struct CircuitBook {
    /// One origin's breaker.
    struct Circuit {
        enum Phase: Equatable {
            case closed
            case open(untilMs: Int64)
            /// Past the break: `probing` while the one probe is out.
            case halfOpen(probing: Bool)
        }

        var phase = Phase.closed
        var window: HealthWindow
    }

    /// What to do with a call.
    enum Admission: Equatable {
        /// Send it; `probe` when it is the half-open breaker's one probe.
        case send(probe: Bool)
        /// Refuse it; the breaker lets a call through again in this many milliseconds.
        case refuse(retryInMs: Int64)
    }

    let policy: CircuitBreakerPolicy
    private var table: OriginTable<Circuit>

    init(policy: CircuitBreakerPolicy) {
        self.policy = policy
        table = OriginTable(capacity: policy.maxOrigins)
    }

    /// Origins tracked now.
    var count: Int { table.count }

    private var newCircuit: Circuit {
        Circuit(window: HealthWindow(windowMs: max(1, policy.samplingDuration.milliseconds), count: policy.buckets))
    }

    /// Decides on a call to `origin` at `nowMs`.
    mutating func admit(_ origin: OriginKey, nowMs: Int64) -> Admission {
        let fresh = newCircuit
        return table.with(origin, make: { fresh }) { circuit in
            switch circuit.phase {
            case .closed:
                return .send(probe: false)
            case .open(let until) where nowMs < until:
                return .refuse(retryInMs: until - nowMs)
            case .open, .halfOpen(probing: false):
                circuit.phase = .halfOpen(probing: true)
                return .send(probe: true)
            case .halfOpen(probing: true):
                // The probe is out: its answer decides, any moment now.
                return .refuse(retryInMs: 0)
            }
        }
    }

    /// A call admitted at `admit` ended: `failure` by the policy, or nil when it says nothing
    /// about the origin (cancelled).
    mutating func record(_ origin: OriginKey, probe: Bool, failure: Bool?, nowMs: Int64) {
        let breakMs = policy.breakDuration.milliseconds
        let (ratio, minimum) = (policy.failureRatio, policy.minimumThroughput)
        let fresh = newCircuit
        table.with(origin, make: { fresh }) { circuit in
            if probe {
                switch failure {
                case nil: circuit.phase = .halfOpen(probing: false)  // the next call probes
                case true?: circuit.phase = .open(untilMs: nowMs &+ breakMs)
                case false?:
                    circuit.phase = .closed
                    circuit.window.clear()
                }
                return
            }
            // An answer to a call sent before the breaker opened says nothing new.
            guard circuit.phase == .closed, let failure else { return }
            circuit.window.record(failure: failure, nowMs: nowMs)
            let (calls, failures) = circuit.window.totals(nowMs: nowMs)
            if calls >= minimum, Double(failures) >= ratio * Double(calls), failures > 0 {
                circuit.phase = .open(untilMs: nowMs &+ breakMs)
                circuit.window.clear()
            }
        }
    }

    /// The phase of `origin` at `nowMs` without changing anything (an open breaker past its break
    /// reads as half-open: the next call probes).
    func phase(of origin: OriginKey, nowMs: Int64) -> Circuit.Phase {
        switch table.peek(origin)?.phase ?? .closed {
        case .open(let until) where nowMs >= until: .halfOpen(probing: false)
        case let phase: phase
        }
    }
}
