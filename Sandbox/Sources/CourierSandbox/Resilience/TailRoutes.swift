import Foundation
import HTTPTypes
import Hummingbird

/// A route whose answers are mostly fast and now and then slow — a latency tail: for testing
/// hedged requests, where a client sends a second copy of a request that is late and cancels
/// the copy that loses.
///
/// | route | answer |
/// |---|---|
/// | `GET, HEAD /tail/{key}?p=&slowMs=&fastMs=` | each request is drawn slow with probability `p` (default 0.04, within 0…1); a slow one waits `slowMs` (default 1000), a fast one `fastMs` (default 0), both within 0…60000; then 200 `{"key","request","slow","waitMs"}` (`request`: the key's 1-based request count) and `Connection: close` |
/// | `GET /tail/{key}/stats` | ``TailStats`` |
/// | `POST /tail/reset` | `204`; forgets every key (so `reset` is not usable as a key) |
///
/// Its numbers saturate, as a hostile upstream's would be read: one out of range is clamped into
/// it (`p=7` is 1, `slowMs=-5` is 0, `slowMs=99999999999999999999` is 60000) and one that is not a
/// number is the default. The wait runs inside `Request.untilClientLeaves`, as in
/// ``CountedRoutes``: it ends within milliseconds when the client goes away, and the request is
/// counted as `disconnected` instead of `completed`.
struct TailRoutes {
    let ledger = TailLedger()

    func register(on router: Router<SandboxRequestContext>) {
        let ledger = self.ledger
        for method in [HTTPRequest.Method.get, .head] {
            router.on("/tail/:key", method: method) { request, context in
                try await Self.tail(request, context: context, key: try context.parameters.require("key"), ledger: ledger)
            }
        }
        router.get("/tail/:key/stats") { _, context in
            JSONResponse.make(await ledger.stats(try context.parameters.require("key")))
        }
        router.post("/tail/reset") { _, _ in
            await ledger.reset()
            return Response(status: .noContent)
        }
    }

    static func tail(_ request: Request, context: SandboxRequestContext, key: String, ledger: TailLedger) async throws -> Response {
        let query = QueryReader(request)
        let p = query.saturatingFraction("p", default: 0.04)
        let slowMs = query.saturatingInteger("slowMs", in: 0...60_000, default: 1000)
        let fastMs = query.saturatingInteger("fastMs", in: 0...60_000, default: 0)
        // In 0..<1, so p = 0 is never slow and p = 1 always.
        let slow = Double.random(in: 0..<1) < p
        let wait = slow ? slowMs : fastMs
        let (number, generation) = await ledger.enter(key, slow: slow)
        do {
            try await request.untilClientLeaves(context) { try await Task.sleep(for: .milliseconds(wait)) }
        } catch {
            await ledger.leave(key, generation: generation, disconnected: true)
            throw error
        }
        await ledger.leave(key, generation: generation, disconnected: false)
        let response = JSONResponse.make(Answer(key: key, request: number, slow: slow, waitMs: wait), headers: [.connection: "close"])
        return request.method == .head ? response.createHeadResponse() : response
    }

    /// The body of an answer.
    struct Answer: Encodable {
        var key: String
        var request: Int
        var slow: Bool
        var waitMs: Int
    }
}
