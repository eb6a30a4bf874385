import Courier
import IntegrationTestSupport
import Testing

@testable import CourierConcurrency

/// Ordered reveal with a manual clock: every time below is exact, in milliseconds.
@Suite struct OrderedRevealTests {
    struct Event: Sendable, Equatable, CustomStringConvertible {
        let section: String
        let state: String
        let at: Int
        var description: String { "\(section):\(state)@\(at)" }
    }

    /// `loading`, `success(value)`, `cancel`, `failure(case)`.
    static func name(of state: FetchState<String>) -> String {
        switch state {
        case .loading: "loading"
        case .success(let value): "success(\(value))"
        case .cancel: "cancel"
        case .failure(let error): "failure(\(error.caseName))"
        }
    }

    /// A harness: sections whose operations sleep on the test clock and record start,
    /// end and cancellation; sinks record every state with the clock's time.
    final class Harness: Sendable {
        let clock = TestClock()
        let events = Recorder<Event>()
        let starts = Recorder<Event>()
        let attempts = Recorder<String>()

        func ms(_ offset: Duration) -> Int { Int(offset.components.seconds * 1000 + offset.components.attoseconds / 1_000_000_000_000_000) }
        var nowMS: Int { ms(clock.now.offset) }

        /// A section that takes `duration` of test-clock time; it fails with `failure` on the
        /// attempts listed in `failOn` (1-based).
        func section(_ id: String, takes duration: Duration, failOn: Set<Int> = [], failure: NetworkError = .serverError(500)) -> RevealSection {
            RevealSection(
                id,
                operation: { [self] () async throws -> String in
                    await attempts.append(id)
                    let attempt = await attempts.entries.filter { $0 == id }.count
                    await starts.append(Event(section: id, state: "start", at: nowMS))
                    do {
                        try await clock.sleep(for: duration)
                    } catch {
                        await starts.append(Event(section: id, state: "op-cancelled", at: nowMS))
                        throw error
                    }
                    await starts.append(Event(section: id, state: "op-done", at: nowMS))
                    if failOn.contains(attempt) { throw failure }
                    return "\(id)\(attempt)"
                },
                update: { [self] state in
                    await events.append(Event(section: id, state: OrderedRevealTests.name(of: state), at: nowMS))
                })
        }

        func finals() async -> [Event] { await events.entries.filter { $0.state != "loading" } }

        func waitForFinals(_ count: Int) async {
            // A wait for the tasks to run, not a bound on them (the clock is manual): generous, for a loaded machine.
            await eventually(timeout: .seconds(60), "\(count) final states") { await self.finals().count >= count }
        }

        /// An ordered reveal of `sections`, 350 ms apart, on this harness's clock.
        func reveal(_ sections: RevealSection...) -> OrderedReveal<TestClock> {
            OrderedReveal(interval: .milliseconds(350), clock: clock, sections: sections)
        }

        /// Starts `reveal` and waits until `sleepers` operations are running (asleep on the clock).
        func start(_ reveal: OrderedReveal<TestClock>, sleepers: Int, sourceLocation: SourceLocation = #_sourceLocation) async {
            await reveal.start()
            await eventually(sourceLocation: sourceLocation) { self.clock.sleeperCount == sleepers }
        }

        /// Waits until the revealer sleeps until `ms`, moves the clock there, and waits for the
        /// `finals`-th final state.
        func revealNext(at ms: Int, finals: Int, sourceLocation: SourceLocation = #_sourceLocation) async {
            await eventually(sourceLocation: sourceLocation) { self.clock.deadlines == [.milliseconds(ms)] }
            await clock.advance(to: .milliseconds(ms))
            await waitForFinals(finals)
        }
    }

    @Test func revealsInDeclaredOrderExactlyIntervalApartAfterASlowFirstSection() async throws {
        let h = Harness()
        let reveal = h.reveal(
            h.section("overview", takes: .milliseconds(500)),
            h.section("weekly", takes: .milliseconds(100)),
            h.section("today", takes: .milliseconds(200))
        )
        await reveal.start()
        #expect(await h.events.entries.map(\.description) == ["overview:loading@0", "weekly:loading@0", "today:loading@0"])

        // All three operations start at once, at t = 0.
        await eventually { h.clock.sleeperCount == 3 }
        #expect(await h.starts.entries.map(\.description).sorted() == ["overview:start@0", "today:start@0", "weekly:start@0"])

        // weekly and today finish first, but wait for overview: their requests were not delayed, their reveal is.
        await h.clock.advance(to: .milliseconds(200))
        await eventually { await reveal.phase(of: "today") == .waitingForTurn }
        #expect(await reveal.phase(of: "weekly") == .waitingForTurn)
        await h.clock.advance(to: .milliseconds(499))
        #expect(await h.finals().isEmpty)

        await h.clock.advance(to: .milliseconds(500))
        await h.waitForFinals(1)
        await eventually { h.clock.deadlines == [.milliseconds(850)] }
        await h.clock.advance(to: .milliseconds(849))
        #expect(await h.finals().count == 1)
        await h.clock.advance(to: .milliseconds(850))
        await h.waitForFinals(2)
        await h.revealNext(at: 1200, finals: 3)
        await reveal.waitUntilRevealed()

        #expect(
            await h.finals().map(\.description) == [
                "overview:success(overview1)@500", "weekly:success(weekly1)@850", "today:success(today1)@1200",
            ])
        #expect(
            await h.starts.entries.filter { $0.state == "op-done" }.map(\.description).sorted()
                == ["overview:op-done@500", "today:op-done@200", "weekly:op-done@100"])
    }

    @Test func instantSectionsRevealAtZeroThenEveryInterval() async {
        let h = Harness()
        let reveal = h.reveal(h.section("a", takes: .zero), h.section("b", takes: .zero), h.section("c", takes: .zero))
        await reveal.start()
        await h.waitForFinals(1)
        await h.revealNext(at: 350, finals: 2)
        await h.revealNext(at: 700, finals: 3)
        #expect(await h.finals().map(\.description) == ["a:success(a1)@0", "b:success(b1)@350", "c:success(c1)@700"])
    }

    @Test func aSectionReadyAfterTheIntervalIsRevealedWhenReady() async {
        let h = Harness()
        let reveal = h.reveal(h.section("a", takes: .milliseconds(100)), h.section("b", takes: .milliseconds(1000)))
        await h.start(reveal, sleepers: 2)
        await h.clock.advance(to: .milliseconds(100))
        await h.waitForFinals(1)
        await h.clock.advance(to: .milliseconds(1000))
        await h.waitForFinals(2)
        #expect(await h.finals().map(\.description) == ["a:success(a1)@100", "b:success(b1)@1000"])
    }

    @Test func cancellingOneSectionShowsCancelAtOnceAndLeavesTheOthersAlone() async {
        let h = Harness()
        let reveal = h.reveal(
            h.section("overview", takes: .milliseconds(500)),
            h.section("weekly", takes: .milliseconds(300)),
            h.section("today", takes: .milliseconds(400))
        )
        await h.start(reveal, sleepers: 3)
        await h.clock.advance(to: .milliseconds(100))

        #expect(await reveal.cancel("weekly"))
        // Already visible when cancel returns, at t = 100.
        #expect(await h.finals().map(\.description) == ["weekly:cancel@100"])
        await eventually { await h.starts.entries.contains(Event(section: "weekly", state: "op-cancelled", at: 100)) }
        #expect(await reveal.phase(of: "overview") == .running)
        #expect(await reveal.phase(of: "today") == .running)
        #expect(await reveal.cancel("weekly") == false)

        await h.clock.advance(to: .milliseconds(500))
        await h.waitForFinals(2)
        await h.revealNext(at: 850, finals: 3)
        await reveal.waitUntilRevealed()
        #expect(
            await h.finals().map(\.description) == [
                "weekly:cancel@100", "overview:success(overview1)@500", "today:success(today1)@850",
            ])
        let cancelledOps = await h.starts.entries.filter { $0.state == "op-cancelled" }.map(\.section)
        #expect(cancelledOps == ["weekly"])
    }

    @Test func cancellingTheSectionEveryoneWaitsForUnblocksTheNext() async {
        let h = Harness()
        let reveal = h.reveal(h.section("slow", takes: .milliseconds(1000)), h.section("fast", takes: .milliseconds(100)))
        await h.start(reveal, sleepers: 2)
        await h.clock.advance(to: .milliseconds(200))
        await eventually { await reveal.phase(of: "fast") == .waitingForTurn }
        await reveal.cancel("slow")
        await h.waitForFinals(2)
        await reveal.waitUntilRevealed()
        #expect(await h.finals().map(\.description) == ["slow:cancel@200", "fast:success(fast1)@200"])
    }

    @Test func retryAfterAFailureShowsLoadingThenTheNewResult() async {
        let h = Harness()
        let reveal = h.reveal(h.section("a", takes: .zero), h.section("b", takes: .zero, failOn: [1]), h.section("c", takes: .zero))
        await reveal.start()
        await h.waitForFinals(1)
        await h.revealNext(at: 350, finals: 2)
        await h.revealNext(at: 700, finals: 3)
        await reveal.waitUntilRevealed()
        #expect(await reveal.retry("b"))
        await h.revealNext(at: 1050, finals: 4)
        await reveal.waitUntilRevealed()
        #expect(
            await h.events.entries.filter { $0.section == "b" }.map(\.description) == [
                "b:loading@0", "b:failure(serverError)@350", "b:loading@700", "b:success(b2)@1050",
            ])
        #expect(await reveal.retry("nope") == false)
    }

    @Test func retryAfterCancelTakesItsTurnBehindTheWaitingSections() async {
        let h = Harness()
        let reveal = h.reveal(
            h.section("overview", takes: .milliseconds(500)),
            h.section("weekly", takes: .milliseconds(300)),
            h.section("today", takes: .milliseconds(400))
        )
        await h.start(reveal, sleepers: 3)
        await h.clock.advance(to: .milliseconds(100))
        await reveal.cancel("weekly")
        await eventually { h.clock.sleeperCount == 2 }
        await h.clock.advance(to: .milliseconds(150))
        await reveal.retry("weekly")  // runs 150…450
        await eventually { h.clock.sleeperCount == 3 }
        await h.clock.advance(to: .milliseconds(500))
        await h.waitForFinals(2)
        await h.revealNext(at: 850, finals: 3)
        await h.revealNext(at: 1200, finals: 4)
        await reveal.waitUntilRevealed()
        #expect(
            await h.events.entries.map(\.description) == [
                "overview:loading@0", "weekly:loading@0", "today:loading@0",
                "weekly:cancel@100", "weekly:loading@150",
                "overview:success(overview1)@500", "today:success(today1)@850", "weekly:success(weekly2)@1200",
            ])
    }

    @Test func startingAgainCancelsTheRunsInFlightAndDropsTheirResults() async {
        let h = Harness()
        let reveal = h.reveal(h.section("a", takes: .seconds(10)), h.section("b", takes: .milliseconds(100)))
        await h.start(reveal, sleepers: 2)
        await reveal.start()
        await eventually { await h.starts.entries.filter { $0.state == "op-cancelled" }.count == 2 }
        await eventually { h.clock.sleeperCount == 2 }
        await h.clock.advance(to: .milliseconds(100))
        await eventually { await reveal.phase(of: "b") == .waitingForTurn }
        await reveal.cancel("a")
        await h.waitForFinals(2)
        await reveal.waitUntilRevealed()
        #expect(await h.finals().map(\.description) == ["a:cancel@100", "b:success(b2)@100"])
    }

    @Test func nonNetworkErrorsAndCancellationInsideTheOperationAreVisible() async {
        struct Odd: Error {}
        let clock = TestClock()
        let states = Recorder<String>()
        let reveal = OrderedReveal(
            interval: .milliseconds(350), clock: clock,
            sections: [
                RevealSection("odd", operation: { () async throws -> Int in throw Odd() }) { await states.append("odd \($0)") },
                RevealSection("self-cancel", operation: { () async throws -> Int in throw CancellationError() }) { await states.append("sc \($0)") },
            ])
        await reveal.start()
        await eventually { await states.count == 3 }
        await eventually { clock.sleeperCount == 1 }
        await clock.advance(by: .milliseconds(350))
        await reveal.waitUntilRevealed()
        let entries = await states.entries
        #expect(entries.count == 4)
        #expect(entries[2].hasPrefix("odd failure("))
        #expect(entries[3] == "sc cancel(taskCancelled)")
    }

    @Test func cancellingTheRunCallCancelsEverySection() async {
        let h = Harness()
        let reveal = h.reveal(h.section("a", takes: .seconds(10)), h.section("b", takes: .seconds(10)))
        let run = Task { await reveal.run() }
        await eventually { h.clock.sleeperCount == 2 }
        run.cancel()
        await run.value
        #expect(await h.finals().map(\.state) == ["cancel", "cancel"])
        await eventually { await h.starts.entries.filter { $0.state == "op-cancelled" }.count == 2 }
    }

    @Test func runReturnsOnceEverySectionIsRevealedInRealTime() async {
        let values = Recorder<String>()
        let reveal = OrderedReveal(
            interval: .milliseconds(20),
            sections: [
                RevealSection("x", operation: { "x" }) { if case .success(let v) = $0 { await values.append(v) } },
                RevealSection("y", operation: { "y" }) { if case .success(let v) = $0 { await values.append(v) } },
            ])
        let started = ContinuousClock.now
        await reveal.run()
        #expect(await values.entries == ["x", "y"])
        #expect(ContinuousClock.now - started >= .milliseconds(20))
    }
}
