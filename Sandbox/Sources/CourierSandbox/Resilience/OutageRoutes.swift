import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// A route that is healthy, then down for a while, then healthy again: for testing circuit
/// breakers (how many requests reach a failing upstream, how soon one is let through after it
/// recovers).
///
/// | route | answer |
/// |---|---|
/// | `GET, HEAD, POST /outage/{key}?afterMs=&forMs=&status=` | the outage starts `afterMs` (default 1000) after the key's first request and lasts `forMs` (default 4000), both within 0…600000 |
/// | — before or after the outage | 200 `{"key","request","phase"}`: `request` is the key's 1-based request count, `phase` `before` or `after` |
/// | — during the outage | `status` (default 503, within 500…599), `{"key","request","phase":"during","error":"outage"}` |
/// | `GET /outage/{key}/stats` | ``OutageStats`` |
/// | `POST /outage/reset` | `204`; forgets every key (so `reset` is not usable as a key) |
///
/// The key's first request since a reset sets its window and status; later requests' parameters
/// are not read again. Its numbers saturate, as a hostile upstream's would be read: one out of
/// range is clamped into it (`status=700` is 599, `forMs=-1` is 0) and one that is not a number is
/// the default. A POST body (at most ``FlakyRoutes/maxBodyBytes``) is read and dropped. HEAD
/// answers the same status and headers without a body.
struct OutageRoutes {
    let ledger = OutageLedger()

    func register(on router: Router<SandboxRequestContext>) {
        let ledger = self.ledger
        for method in [HTTPRequest.Method.get, .head, .post] {
            router.on("/outage/:key", method: method) { request, context in
                try await Self.outage(request, key: try context.parameters.require("key"), ledger: ledger)
            }
        }
        router.get("/outage/:key/stats") { _, context in
            JSONResponse.make(await ledger.stats(try context.parameters.require("key")))
        }
        router.post("/outage/reset") { _, _ in
            await ledger.reset()
            return Response(status: .noContent)
        }
    }

    static func outage(_ request: Request, key: String, ledger: OutageLedger) async throws -> Response {
        let query = QueryReader(request)
        let asked = OutageLedger.Window(
            afterMs: query.saturatingInteger("afterMs", in: 0...600_000, default: 1000),
            forMs: query.saturatingInteger("forMs", in: 0...600_000, default: 4000),
            status: query.saturatingInteger("status", in: 500...599, default: 503))
        do {
            _ = try await request.body.collect(upTo: FlakyRoutes.maxBodyBytes)
        } catch is NIOTooManyBytesError {
            throw HTTPError(.contentTooLarge, message: "at most \(FlakyRoutes.maxBodyBytes) bytes")
        }

        let (number, phase, window) = await ledger.arrive(key, window: asked)
        let response =
            phase == .during
            ? JSONResponse.make(Failure(key: key, request: number), status: .init(code: window.status))
            : JSONResponse.make(Success(key: key, request: number, phase: phase.rawValue))
        return request.method == .head ? response.createHeadResponse() : response
    }

    /// A healthy answer's body.
    struct Success: Encodable {
        var key: String
        var request: Int
        var phase: String
    }

    /// An answer's body during the outage.
    struct Failure: Encodable {
        var key: String
        var request: Int
        var phase = "during"
        var error = "outage"
    }
}
