import Courier
import Foundation
import SeoulCultureAPI

/// The Raon part of `courier demo`: Seoul's cultural programs from the sandbox's stand-in —
/// the count probe and all pages at once, the filters, and a rejected key.
enum RaonDemo {
    /// How the walk went.
    struct Summary: Sendable {
        /// Steps taken.
        var steps = 0
        /// Steps that did not go as expected.
        var failures = 0
    }

    /// Walks Raon against the sandbox at `baseURL`, sending each line to `output`.
    static func run(baseURL: URL, output: (String) -> Void) async -> Summary {
        var summary = Summary()
        output("\n── Raon: Seoul's cultural programs from the stand-in ──")
        let root = baseURL.appendingPathComponent("seoul")
        let today = SeoulDay(year: 2026, month: 11, day: 20) ?? SeoulDay.today()
        let seoul = SeoulCultureClient(key: RaonOptions.sandboxKey, baseURL: root, today: { today })
        summary.steps += 1
        let start = ContinuousClock.now
        do {
            let programs = try await seoul.allPrograms()
            let elapsed = ContinuousClock.now - start
            output(
                "✓ probe + all pages in parallel: \(programs.count) current or upcoming programs on \(today) in \(elapsed.formatted(.units(allowed: [.milliseconds])))"
            )
            summary.steps += 1
            let free = ProgramQuery(category: "클래식", isFreeOnly: true).apply(to: programs)
            output("✓ free 클래식 programs: \(free.count)\(free.first.map { ", first: \($0.startDate) \($0.title)" } ?? "")")
            if free.isEmpty { summary.failures += 1 }
        } catch {
            output("✗ load failed: \(error)")
            summary.failures += 1
        }
        summary.steps += 1
        do {
            _ = try await SeoulCultureClient(key: "wrong-key", baseURL: root).totalCount()
            output("✗ a wrong key was accepted")
            summary.failures += 1
        } catch {
            output(error == .invalidAPIKey ? "✓ a wrong key (answered in XML) → invalidAPIKey, key not shown" : "✗ a wrong key gave \(error)")
            if error != .invalidAPIKey { summary.failures += 1 }
        }
        return summary
    }
}
