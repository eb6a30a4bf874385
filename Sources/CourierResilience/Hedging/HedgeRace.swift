import Courier
import CourierTransportCore
import HTTPTypes
import OpenAPIRuntime

/// One hedged exchange: the first attempt, and after `delay` — when it is still running and the
/// budget has a token — a second; the first good answer wins and the other is cancelled.
struct HedgeRace: Sendable {
    typealias Answer = (HTTPResponse, HTTPBody?)

    let delay: Duration
    let budget: RetryPolicy.Budget
    let recorder: CallRecorder?
    let sleep: @Sendable (Duration) async throws -> Void
    let send: @Sendable () async throws -> Answer

    /// What the race ended with.
    struct Settled: Sendable {
        var outcome: Result<Answer, any Error>
        /// Whether a hedge was sent.
        var hedged: Bool
        /// Whether the hedge's answer won.
        var hedgeWon: Bool
        /// Whether the outcome is an answer that is not a failure (a head under 500).
        var answered: Bool
    }

    private enum Branch: Sendable {
        case first, hedge, timer
    }

    private struct Finished: Sendable {
        let branch: Branch
        let outcome: Result<Answer, any Error>

        var isGood: Bool {
            if case .success(let answer) = outcome { return answer.0.status.code < 500 }
            return false
        }
    }

    func run() async -> Settled {
        await withTaskGroup(of: Finished.self) { group in
            group.addTask { await Finished(branch: .first, outcome: Self.capture(send)) }
            group.addTask {
                do { try await sleep(delay) } catch {}
                return Finished(branch: .timer, outcome: .failure(CancellationError()))
            }
            var running = 1
            var hedged = false
            var failed: Finished?
            while let finished = await group.next() {
                switch finished.branch {
                case .timer:
                    guard running == 1, !hedged, !Task.isCancelled, budget.withdraw() else { continue }
                    hedged = true
                    running += 1
                    recorder?.record(.hedgeSent(delay: delay))
                    group.addTask { await Finished(branch: .hedge, outcome: Self.capture(send)) }
                case .first, .hedge:
                    running -= 1
                    guard finished.isGood || running == 0 else {
                        failed = failed ?? finished
                        continue
                    }
                    group.cancelAll()
                    let winner = finished.isGood ? finished : (failed ?? finished)
                    if hedged, winner.isGood { recorder?.record(.hedgeWon(byHedge: winner.branch == .hedge)) }
                    return Settled(outcome: winner.outcome, hedged: hedged, hedgeWon: hedged && winner.branch == .hedge, answered: winner.isGood)
                }
            }
            // Not reached: the first attempt always finishes.
            return Settled(outcome: .failure(CancellationError()), hedged: hedged, hedgeWon: false, answered: false)
        }
    }

    private static func capture(_ send: @Sendable () async throws -> Answer) async -> Result<Answer, any Error> {
        do { return .success(try await send()) } catch { return .failure(error) }
    }
}
