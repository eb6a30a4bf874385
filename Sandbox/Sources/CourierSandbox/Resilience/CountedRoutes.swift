import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// A slow route that counts its callers: for testing that a client de-duplicates identical
/// requests, and cancels the one upstream request when every caller has gone.
///
/// | route | answer |
/// |---|---|
/// | `GET, HEAD /counted/{key}?delayMs=&bytes=&slowHits=` | after `delayMs` (default 50; only for the key's first `slowHits` hits when given, the later ones at once): 200 `{"key","hit"}`, or with `bytes=B` exactly `B` bytes of `application/octet-stream` where byte i is i mod 256; `X-Hit: n` (the key's 1-based hit count) and `Connection: close` either way |
/// | `GET /counted/{key}/stats` | ``CountedStats`` |
/// | `POST /counted/reset` | `204`; forgets every key (so `reset` is not usable as a key) |
///
/// A request is in flight while it waits. A client that goes away while its request waits is
/// counted as a disconnect within milliseconds: Hummingbird does not cancel a handler's
/// `Task.sleep` when the client leaves, so the wait runs inside `Request.untilClientLeaves`, which
/// cancels it when the request's inbound side closes. (The other way, streaming the head first as
/// `/probe/slow` does, only sees a write fail once the peer's reset is back, and a HEAD or a
/// `Content-Length` body has nothing to write early.) Hummingbird then ends the connection, hence
/// `Connection: close`. A parameter that is present but wrong answers 400.
struct CountedRoutes {
    let ledger = CountedLedger()

    static let hitField = HTTPField.Name("X-Hit")

    func register(on router: Router<SandboxRequestContext>) {
        let ledger = self.ledger
        for method in [HTTPRequest.Method.get, .head] {
            router.on("/counted/:key", method: method) { request, context in
                try await Self.counted(request, context: context, key: try context.parameters.require("key"), ledger: ledger)
            }
        }
        router.get("/counted/:key/stats") { _, context in
            JSONResponse.make(await ledger.stats(try context.parameters.require("key")))
        }
        router.post("/counted/reset") { _, _ in
            await ledger.reset()
            return Response(status: .noContent)
        }
    }

    static func counted(_ request: Request, context: SandboxRequestContext, key: String, ledger: CountedLedger) async throws -> Response {
        let query = QueryReader(request)
        let delay = try query.integer("delayMs", in: 0...120_000, default: 50)
        let bytes = try query.integer("bytes", in: 0...(256 * 1024 * 1024))
        let slowHits = try query.integer("slowHits", in: 0...1_000_000)
        let hit = await ledger.enter(key)
        let wait = (slowHits.map { hit <= $0 } ?? true) ? delay : 0
        do {
            try await request.untilClientLeaves(context) { try await Task.sleep(for: .milliseconds(wait)) }
        } catch {
            await ledger.leave(key, disconnected: true)
            throw error
        }
        await ledger.leave(key, disconnected: false)

        var headers: HTTPFields = [.connection: "close"]
        if let hitField { headers[hitField] = String(hit) }
        let response: Response
        if let bytes {
            headers[.contentType] = "application/octet-stream"
            response = Response(status: .ok, headers: headers, body: FaultRoutes.patternBody(length: bytes))
        } else {
            response = JSONResponse.make(Answer(key: key, hit: hit), headers: headers)
        }
        return request.method == .head ? response.createHeadResponse() : response
    }

    /// The default body.
    struct Answer: Encodable {
        var key: String
        var hit: Int
    }
}
