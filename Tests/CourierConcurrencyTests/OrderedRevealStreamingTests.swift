import Courier
import IntegrationTestSupport
import Testing

@testable import CourierConcurrency

/// Sections that report partial values (a streamed LLM answer): revealed at their first partial
/// in their turn, then shown as they come. A manual clock: every time below is exact, in ms.
@Suite struct OrderedRevealStreamingTests {
    typealias Event = OrderedRevealTests.Event

    final class Harness: Sendable {
        let clock = TestClock()
        let events = Recorder<Event>()

        var nowMS: Int {
            let offset = clock.now.offset
            return Int(offset.components.seconds * 1000 + offset.components.attoseconds / 1_000_000_000_000_000)
        }

        /// A section that reports partial `id-1`, `id-2` … at the times in `partialsAt` and ends
        /// with `id` at `finishAt` (times from the start, in ms).
        func section(_ id: String, partialsAt: [Int], finishAt: Int) -> RevealSection {
            RevealSection(
                id,
                operation: { [self] (partial: @escaping @Sendable (String) async -> Void) async throws -> String in
                    for (number, time) in partialsAt.enumerated() {
                        try await clock.sleep(until: .init(offset: .milliseconds(time)))
                        await partial("\(id)-\(number + 1)")
                    }
                    try await clock.sleep(until: .init(offset: .milliseconds(finishAt)))
                    return id
                },
                update: { [self] (state: FetchState<String>) in
                    await events.append(Event(section: id, state: OrderedRevealTests.name(of: state), at: nowMS))
                },
                partialUpdate: { [self] (value: String) in
                    await events.append(Event(section: id, state: "partial(\(value))", at: nowMS))
                })
        }

        func shown() async -> [String] { await events.entries.filter { $0.state != "loading" }.map(\.description) }

        /// Moves the clock to `ms` and waits until `count` states other than loading were shown.
        func advance(to ms: Int, expecting count: Int, sourceLocation: SourceLocation = #_sourceLocation) async {
            await clock.advance(to: .milliseconds(ms))
            await eventually("\(count) states shown by \(ms) ms", sourceLocation: sourceLocation) { await self.shown().count >= count }
        }
    }

    @Test func aSectionAppearsAtItsFirstPartialAndTheNextCountsFromThere() async throws {
        let h = Harness()
        let reveal = OrderedReveal(
            interval: .milliseconds(350), clock: h.clock,
            sections: [
                h.section("overview", partialsAt: [100, 200], finishAt: 600),
                h.section("weekly", partialsAt: [50], finishAt: 300),
                h.section("today", partialsAt: [], finishAt: 100),
            ])
        await reveal.start()
        await eventually { h.clock.sleeperCount == 3 }
        await h.clock.advance(to: .milliseconds(50))
        // weekly's partial waits for its turn: overview has not appeared yet.
        await eventually { await reveal.phase(of: "weekly") == .running }
        #expect(await h.shown().isEmpty)

        await h.advance(to: 100, expecting: 1)
        #expect(await h.shown() == ["overview:partial(overview-1)@100"])
        #expect(await reveal.phase(of: "overview") == .streaming)
        await h.advance(to: 200, expecting: 2)
        await h.advance(to: 300, expecting: 2)  // weekly ends, still not its turn (overview appeared at 100)
        await eventually { await reveal.phase(of: "weekly") == .waitingForTurn }
        await h.advance(to: 449, expecting: 2)
        await h.advance(to: 450, expecting: 3)
        // overview's final state comes as it is: the section is already shown.
        await h.advance(to: 600, expecting: 4)
        await h.advance(to: 799, expecting: 4)
        await h.advance(to: 800, expecting: 5)
        await reveal.waitUntilRevealed()
        #expect(
            await h.shown() == [
                "overview:partial(overview-1)@100", "overview:partial(overview-2)@200", "weekly:success(weekly)@450",
                "overview:success(overview)@600", "today:success(today)@800",
            ])
    }

    @Test func theLatestPartialIsShownWhenTheTurnComesThenEachAsItComes() async throws {
        let h = Harness()
        let reveal = OrderedReveal(
            interval: .milliseconds(350), clock: h.clock,
            sections: [
                h.section("overview", partialsAt: [], finishAt: 100),
                h.section("weekly", partialsAt: [50, 150, 250, 500], finishAt: 700),
            ])
        await reveal.start()
        await eventually { h.clock.sleeperCount == 2 }
        await h.advance(to: 50, expecting: 0)
        await h.advance(to: 100, expecting: 1)
        await h.advance(to: 150, expecting: 1)
        await h.advance(to: 250, expecting: 1)
        await h.advance(to: 450, expecting: 2)
        await h.advance(to: 500, expecting: 3)
        await h.advance(to: 700, expecting: 4)
        await reveal.waitUntilRevealed()
        #expect(
            await h.shown() == [
                "overview:success(overview)@100", "weekly:partial(weekly-3)@450", "weekly:partial(weekly-4)@500",
                "weekly:success(weekly)@700",
            ])
    }

    @Test func cancellingAStreamingSectionStopsItsPartials() async throws {
        let h = Harness()
        let reveal = OrderedReveal(
            interval: .milliseconds(350), clock: h.clock, sections: [h.section("overview", partialsAt: [100, 200, 300], finishAt: 400)])
        await reveal.start()
        await eventually { h.clock.sleeperCount == 1 }
        await h.advance(to: 100, expecting: 1)
        #expect(await reveal.cancel("overview"))
        #expect(await reveal.phase(of: "overview") == .cancelled)
        await h.clock.advance(to: .milliseconds(400))
        await reveal.waitUntilRevealed()
        #expect(await h.shown() == ["overview:partial(overview-1)@100", "overview:cancel@100"])

        // A retry starts over: loading, then partials again in its turn.
        #expect(await reveal.retry("overview"))
        #expect(await h.events.entries.last?.state == "loading")
    }
}
