import Foundation
import Hummingbird
import NIOCore

/// Routes that let a test see the server's side of concurrency:
///
/// - `GET /probe/delay/{ms}` answers `{"delayedMs":ms}` after `ms` ms, counted while in flight.
/// - `GET /probe/slow/{ms}` sends the head at once, then a space every 10 ms for `ms` ms, then
///   `{"done":true}`; a client that leaves early is counted as a disconnect.
/// - `GET /probe/stats` → `{"inFlight","maxInFlight","total","disconnects"}`.
/// - `POST /probe/reset` zeroes the counts.
struct ProbeRoutes {
    let counter: ProbeCounter

    func register(on router: Router<SandboxRequestContext>) {
        let counter = self.counter
        router.get("/probe/delay/:ms") { _, context in
            let ms = try context.parameters.require("ms", as: Int.self)
            await counter.enter()
            do {
                try await Task.sleep(for: .milliseconds(min(ms, 60_000)))
            } catch {
                await counter.leave()
                await counter.disconnected()
                throw error
            }
            await counter.leave()
            return JSONResponse.make(["delayedMs": ms])
        }
        router.get("/probe/slow/:ms") { _, context in
            let ms = min(try context.parameters.require("ms", as: Int.self), 60_000)
            await counter.enter()
            return Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: ResponseBody { writer in
                    let end = ContinuousClock.now + .milliseconds(ms)
                    do {
                        while ContinuousClock.now < end {
                            try await writer.write(ByteBuffer(string: " "))
                            try await Task.sleep(for: .milliseconds(10))
                        }
                        try await writer.write(ByteBuffer(string: #"{"done":true}"#))
                        try await writer.finish(nil)
                        await counter.leave()
                    } catch {
                        await counter.leave()
                        await counter.disconnected()
                        throw error
                    }
                })
        }
        router.get("/probe/stats") { _, _ in JSONResponse.make(await counter.snapshot()) }
        router.post("/probe/reset") { _, _ in
            await counter.reset()
            return JSONResponse.make(await counter.snapshot())
        }
        router.get("/items") { request, _ in
            let query = request.uri.queryParameters
            let total = max(0, min(query.get("total", as: Int.self) ?? 10_000, 1_000_000))
            let offset = max(0, query.get("offset", as: Int.self) ?? 0)
            let limit = query.get("limit", as: Int.self) ?? 100
            let delay = query.get("delayMs", as: Int.self) ?? 0
            guard (1...1000).contains(limit) else {
                return JSONResponse.make(["error": "limit must be 1…1000"], status: .badRequest)
            }
            await counter.enter()
            if delay > 0 { try? await Task.sleep(for: .milliseconds(min(delay, 10_000))) }
            await counter.leave()
            let end = min(total, offset + limit)
            let items = offset < end ? (offset..<end).map { SampleItem(id: $0, title: "Item \($0)") } : []
            return JSONResponse.make(ItemPage(total: total, offset: offset, items: items))
        }
    }
}
