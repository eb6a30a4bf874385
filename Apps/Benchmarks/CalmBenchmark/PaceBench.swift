import Courier
import CourierAsyncHTTPClient
import CourierResilience
import Foundation
import Synchronization

/// 60 calls at 4 in flight against 20 per 2 s announced in each header family, without and with the pacer.
struct PaceBench {
    let base: URL
    let rounds: Int
    let calls = 60
    let inFlight = 4

    func run() async throws {
        print("pace: \(calls) calls at \(inFlight) in flight, 20 per 2 s announced (minimum wall time 4 s); \(rounds) rounds, alternating")
        print(cell("family", 10) + cell("contender", 10) + cell("429s (min/med/max)", 22) + cell("wall s (min/med/max)", 26) + "paced ms (median)")
        var verdicts: [String] = []
        for family in ["ietf", "openai", "anthropic", "github"] {
            var plain: [(limited: Int, wall: Double, paced: Int)] = []
            var paced: [(limited: Int, wall: Double, paced: Int)] = []
            for round in 0..<rounds {
                for pacer in round % 2 == 0 ? [false, true] : [true, false] {
                    let result = try await measure(family, pacer: pacer, round: round)
                    if pacer { paced.append(result) } else { plain.append(result) }
                }
            }
            for (name, rows) in [("none", plain), ("pacer", paced)] {
                print(
                    cell(family, 10) + cell(name, 10) + cell(Spread(rows.map { Double($0.limited) }).text(0), 22)
                        + cell(Spread(rows.map(\.wall)).text(2), 26) + "\(Spread(rows.map { Double($0.paced) }).median)")
            }
            let worst429 = paced.map(\.limited).max() ?? 0
            let wall = Spread(paced.map(\.wall)).median
            // GitHub's resets are whole seconds, and so are the sandbox's RFC 3339 Anthropic resets
            // (no fractional seconds): up to 1 s more per window, two windows waited.
            let allowed = family == "github" || family == "anthropic" ? 4.0 * 1.1 + 2 : 4.0 * 1.1
            verdicts.append(
                "\(family): 429s \(worst429) (goal 0), wall \(format(wall)) s (goal ≤ \(format(allowed, 1)) s): \(worst429 == 0 && wall <= allowed ? "met" : "NOT met")"
            )
        }
        for verdict in verdicts { print("verdict " + verdict) }
        print("")
    }

    private func measure(_ family: String, pacer: Bool, round: Int) async throws -> (limited: Int, wall: Double, paced: Int) {
        let key = "pace-\(family)-\(pacer)-\(round)-\(UInt32.random(in: 0...UInt32.max))"
        let transport = HTTPClientTransport()
        let counter = StepCounter()
        var configuration = NetworkClient.Configuration(transport: transport)
        if pacer { configuration.middlewares = [RateLimitPacer()] }
        configuration.observers = [counter]
        let client = NetworkClient(configuration: configuration)
        let endpoint = Get(baseURL: base, path: "/ratelimit/\(key)", query: ["family": family, "limit": 20, "windowMs": 2000])
        let tally = RoundTally()
        let calls = self.calls
        let start = ContinuousClock.now
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<inFlight {
                group.addTask {
                    while tally.next.add(1, ordering: .relaxed).newValue <= calls {
                        do {
                            let response = try await client.response(endpoint)
                            if ProcessInfo.processInfo.environment["COURIER_CALM_TRACE"] != nil {
                                let fields = response.headers.filter { $0.name.rawName.lowercased().contains("ratelimit") }.map {
                                    "\($0.name)=\($0.value)"
                                }
                                print(
                                    "\(format(milliseconds(ContinuousClock.now - start) / 1000, 3)) s \(response.statusCode) \(fields.joined(separator: " "))"
                                )
                            }
                            if response.statusCode == 429 { tally.limited.add(1, ordering: .relaxed) }
                        } catch {
                            if NetworkError(error).statusCode == 429 { tally.limited.add(1, ordering: .relaxed) }
                        }
                    }
                }
            }
        }
        let wall = milliseconds(ContinuousClock.now - start) / 1000
        try await transport.shutdown()
        return (tally.limited.load(ordering: .relaxed), wall, counter.snapshot.pacedMs)
    }
}
