import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// A route that fails, then recovers: for testing retries, backoff and `Retry-After`.
///
/// | route | answer |
/// |---|---|
/// | `GET, HEAD, POST, PUT, PATCH, DELETE /flaky/{key}?failures=&failForMs=&status=&retryAfter=&delayMs=` | the key's first `failures` requests (default 2) fail, later ones succeed; with `failForMs=T` instead, every request within `T` ms of the key's first request fails |
/// | — a failure | `status` (default 503, 400…599), `{"key","attempt","error":"flaky"}`, `Retry-After: retryAfter` verbatim when given |
/// | — a success | 200 `{"key","attempt","method","body"}`: `attempt` is the key's 1-based request count, `body` the request body as UTF-8 text |
/// | `GET /flaky/{key}/stats` | ``FlakyStats`` (each attempt's time and `traceparent`) |
/// | `POST /flaky/reset` | `204`; forgets every key (so `reset` is not usable as a key) |
///
/// Every request waits `delayMs` (default 0) before it is answered. HEAD answers the same
/// status and headers without a body. A parameter that is present but wrong answers 400.
struct FlakyRoutes {
    let ledger = FlakyLedger()

    /// Request bodies larger than this are refused with 413.
    static let maxBodyBytes = 1024 * 1024

    func register(on router: Router<SandboxRequestContext>) {
        let ledger = self.ledger
        for method in [HTTPRequest.Method.get, .head, .post, .put, .patch, .delete] {
            router.on("/flaky/:key", method: method) { request, context in
                try await Self.flaky(request, key: try context.parameters.require("key"), ledger: ledger)
            }
        }
        router.get("/flaky/:key/stats") { _, context in
            JSONResponse.make(await ledger.stats(try context.parameters.require("key")))
        }
        router.post("/flaky/reset") { _, _ in
            await ledger.reset()
            return Response(status: .noContent)
        }
    }

    static func flaky(_ request: Request, key: String, ledger: FlakyLedger) async throws -> Response {
        let query = QueryReader(request)
        let failures = try query.integer("failures", in: 0...Int.max, default: 2)
        let window = try query.integer("failForMs", in: 0...86_400_000)
        let status = try query.integer("status", in: 400...599, default: 503)
        let retryAfter = try query.line("retryAfter")
        let delay = try query.integer("delayMs", in: 0...60_000, default: 0)
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: maxBodyBytes)
        } catch is NIOTooManyBytesError {
            throw HTTPError(.contentTooLarge, message: "at most \(maxBodyBytes) bytes")
        }

        let rule: FlakyLedger.Rule = window.map { .window(.milliseconds($0)) } ?? .firstRequests(failures)
        let traceParent = HTTPField.Name("traceparent").flatMap { request.headers[$0] }
        let (attempt, fails) = await ledger.attempt(key, rule: rule, traceParent: traceParent)
        if delay > 0 { try await Task.sleep(for: .milliseconds(delay)) }

        let response: Response
        if fails {
            var headers = HTTPFields()
            if let retryAfter { headers[.retryAfter] = retryAfter }
            response = JSONResponse.make(Failure(key: key, attempt: attempt), status: .init(code: status), headers: headers)
        } else {
            let text = String(decoding: body.readableBytesView, as: UTF8.self)
            response = JSONResponse.make(Success(key: key, attempt: attempt, method: request.method.rawValue, body: text))
        }
        return request.method == .head ? response.createHeadResponse() : response
    }

    /// A success's body.
    struct Success: Encodable {
        var key: String
        var attempt: Int
        var method: String
        var body: String
    }

    /// A failure's body.
    struct Failure: Encodable {
        var key: String
        var attempt: Int
        var error = "flaky"
    }
}
