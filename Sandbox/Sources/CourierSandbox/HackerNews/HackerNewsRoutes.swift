import Foundation
import HTTPTypes
import Hummingbird

/// A stand-in for the Hacker News API (v0) with bundled, deterministic data
/// (``HackerNewsDataset``), under `/hn/v0/` — point a client's base URL at
/// `http://127.0.0.1:PORT/hn/v0/`.
///
/// | route | answer |
/// |---|---|
/// | `GET /hn/v0/item/{id}.json` | the item, or `null` (as the real API: also for a malformed id); waits the latency first; item 41000998 answers broken JSON (a failing fetch in the front page); stories 40000001 and 40000002 (in no list) link to `javascript:alert(document.cookie)` and `file:///etc/passwd`, the first with an escape sequence and line breaks in its title |
/// | `GET /hn/v0/{top,new,best,ask,show,job}stories.json` | the list's ids |
/// | `GET /hn/v0/maxitem.json`, `GET /hn/v0/updates.json` | the largest id; recent items and profiles |
/// | `GET /hn/v0/user/{name}.json` | the user, or `null` |
/// | `GET /hn/v0/{anything else}.json` | `null`, as Firebase answers |
/// | `POST /hn/control?latencyMs=N&keepAlive=0\|1` | sets the latency of item calls (0…60000; default 0) and whether delayed calls keep their connection (default 0: disconnects are watched, connections close), answers ``HackerNewsStats`` |
/// | `GET /hn/stats` | ``HackerNewsStats``: item calls, in flight now and at most, disconnects |
/// | `POST /hn/reset` | `204`; zeroes the counters (keeps the latency) |
///
/// With a latency, an item call waits inside `Request.untilClientLeaves`, so a client that
/// goes away is counted as a disconnect within milliseconds; such answers carry
/// `Connection: close` (see ``CountedRoutes``). With `keepAlive=1` it just waits, and the
/// connection serves the next call, as with the real API (for benchmarks).
struct HackerNewsRoutes: SandboxRouteGroup {
    let ledger = HackerNewsLedger()

    func register(on router: Router<SandboxRequestContext>) async throws {
        let ledger = self.ledger
        // The data is made on the first Hacker News call, not when a sandbox starts.
        var data: HackerNewsDataset { HackerNewsDataset.shared }
        router.get("/hn/v0/item/:file") { request, context in
            let id = Self.stem(try context.parameters.require("file")).flatMap { Int($0) }
            return try await Self.item(id.flatMap { data.items[$0] }, request: request, context: context, ledger: ledger)
        }
        router.get("/hn/v0/user/:file") { _, context in
            let name = Self.stem(try context.parameters.require("file"))
            return JSONResponse.raw(name.flatMap { data.users[$0] } ?? Self.null)
        }
        router.get("/hn/v0/:file") { _, context in
            switch Self.stem(try context.parameters.require("file")) {
            case "maxitem": return JSONResponse.raw(Data(String(data.maxItem).utf8))
            case "updates": return JSONResponse.raw(data.updates)
            case let name?: return data.lists[name].map { JSONResponse.make($0) } ?? JSONResponse.raw(Self.null)
            case nil: return JSONResponse.raw(Self.null)
            }
        }
        router.post("/hn/control") { request, _ in
            let query = QueryReader(request)
            let latency = try query.integer("latencyMs", in: 0...60_000)
            let keepAlive = query.text("keepAlive") == nil ? nil : try query.flag("keepAlive")
            await ledger.setLatency(latency, keepAlive: keepAlive)
            return JSONResponse.make(await ledger.snapshot())
        }
        router.get("/hn/stats") { _, _ in JSONResponse.make(await ledger.snapshot()) }
        router.post("/hn/reset") { _, _ in
            await ledger.reset()
            return Response(status: .noContent)
        }
    }

    static let null = Data("null".utf8)

    /// `8863` for `8863.json`; nil without the `.json` suffix.
    static func stem(_ file: String) -> String? {
        guard file.hasSuffix(".json"), file.count > 5 else { return nil }
        return String(file.dropLast(5))
    }

    /// Answers an item call after the configured latency, counting it.
    static func item(_ body: Data?, request: Request, context: SandboxRequestContext, ledger: HackerNewsLedger) async throws -> Response {
        let (latency, keepAlive) = await ledger.latency
        await ledger.enter()
        guard latency > 0 else {
            await ledger.leave(disconnected: false)
            return JSONResponse.raw(body ?? null)
        }
        if keepAlive {
            // As the real API: the connection stays open for the next call; a client that leaves is not noticed.
            try? await Task.sleep(for: .milliseconds(latency))
            await ledger.leave(disconnected: false)
            return JSONResponse.raw(body ?? null)
        }
        do {
            try await request.untilClientLeaves(context) { try await Task.sleep(for: .milliseconds(latency)) }
        } catch {
            await ledger.leave(disconnected: true)
            throw error
        }
        await ledger.leave(disconnected: false)
        return JSONResponse.raw(body ?? null, headers: [.connection: "close"])
    }
}
