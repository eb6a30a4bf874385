import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// A stand-in for the Alan LLM API (ESTsoft) under `/alan/` — point a client's base URL at
/// `http://127.0.0.1:PORT/alan`. The "model" is ``AlanModel``: deterministic answers to the coin
/// report's prompts with the seeds' breakages.
///
/// | route | answer |
/// |---|---|
/// | `GET /alan/api/v1/question?content=&client_id=` | `{"action":{"name","speak"},"content"}` |
/// | `GET /alan/api/v1/question/sse-streaming?content=&client_id=` | `text/event-stream`: `id: <ms>`, `event: response`, data a Python dict: one `action` (`speak`), a `continue` per token, one `complete` with the whole answer |
/// | `DELETE /alan/api/v1/reset-state` with `{"client_id":…}` | `null`; the client's conversation starts over (a body not declared `application/json`: 415) |
/// | `POST /alan/control?quota=&failNext=&overviewMs=&weeklyMs=&todayMs=&otherMs=&tokenDelayMs=` | sets the per-client quota (default 1000), how many next questions answer 500, the model's time per section, the pause between tokens; answers ``AlanStats`` |
/// | `GET /alan/stats?client_id=` | ``AlanStats`` (with that client's turns and quota use) |
/// | `POST /alan/reset` | `204`; forgets clients, counters and settings |
///
/// Like the service: a missing parameter is FastAPI's 422 `{"detail":[{"loc","msg","type"}]}`;
/// a request target over 8 192 bytes is 414; a client over its quota gets 401. The model's wait
/// runs inside `Request.untilClientLeaves` (a client that goes away stops it), so those answers
/// carry `Connection: close`.
struct AlanRoutes: SandboxRouteGroup {
    let ledger: AlanLedger

    /// The longest request target (path and query) accepted.
    static let maxTargetBytes = 8 * 1024

    func register(on router: Router<SandboxRequestContext>) async throws {
        let ledger = self.ledger
        router.get("/alan/api/v1/question") { request, context in
            try await Self.question(request, context: context, ledger: ledger, streaming: false)
        }
        router.get("/alan/api/v1/question/sse-streaming") { request, context in
            try await Self.question(request, context: context, ledger: ledger, streaming: true)
        }
        router.delete("/alan/api/v1/reset-state") { request, _ in
            await ledger.countRequest()
            guard JSONMediaType.matches(request.headers[.contentType]) else {
                return JSONResponse.make(["detail": "Unsupported Media Type: the body must be application/json"], status: .unsupportedMediaType)
            }
            var request = request
            let body = try await request.collectBody(upTo: 64 * 1024)
            let object = try? JSONSerialization.jsonObject(with: Data(body.readableBytesView)) as? [String: Any]
            guard let clientID = object?["client_id"] as? String else {
                return Self.missing("body", "client_id")
            }
            await ledger.resetConversation(clientID)
            return JSONResponse.raw(Data("null".utf8))
        }
        router.post("/alan/control") { request, _ in
            let query = QueryReader(request)
            var latencies: [String: Int] = [:]
            for kind in ["overview", "weekly", "today", "other"] {
                if let ms = try query.integer("\(kind)Ms", in: AlanSandboxControl.latenciesMs) { latencies[kind] = ms }
            }
            await ledger.configure(
                quota: try query.integer("quota", in: AlanSandboxControl.quotas),
                failNext: try query.integer("failNext", in: AlanSandboxControl.failures),
                latencies: latencies,
                tokenDelayMs: try query.integer("tokenDelayMs", in: AlanSandboxControl.tokenDelaysMs))
            return JSONResponse.make(await ledger.stats(clientID: nil))
        }
        router.get("/alan/stats") { request, _ in
            JSONResponse.make(await ledger.stats(clientID: QueryReader(request).text("client_id")))
        }
        router.post("/alan/reset") { _, _ in
            await ledger.reset()
            return Response(status: .noContent)
        }
    }

    static func question(_ request: Request, context: SandboxRequestContext, ledger: AlanLedger, streaming: Bool) async throws -> Response {
        await ledger.countRequest()
        guard request.uri.string.utf8.count <= maxTargetBytes else {
            return JSONResponse.make(["detail": "URI Too Long"], status: .uriTooLong)
        }
        let query = QueryReader(request)
        guard let content = query.text("content") else { return missing("query", "content") }
        guard let clientID = query.text("client_id"), !clientID.isEmpty else { return missing("query", "client_id") }
        switch await ledger.admit(clientID, streaming: streaming) {
        case .refusedQuota:
            return JSONResponse.make(["detail": "Unauthorized: the quota of this client_id is used up"], status: .unauthorized)
        case .failedOnPurpose:
            return JSONResponse.raw(Data("Internal Server Error".utf8), status: .internalServerError, contentType: "text/plain; charset=utf-8")
        case .admitted(let turn):
            let answer = AlanModel.answer(to: content, turn: turn)
            let latency = await ledger.latency(for: AlanModel.kind(of: content).rawValue)
            if !streaming {
                if latency > 0 {
                    try await request.untilClientLeaves(context) { try await Task.sleep(for: .milliseconds(latency)) }
                }
                let body: [String: Any] = ["action": ["name": answer.actionName, "speak": answer.speak], "content": answer.content]
                let data = try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys, .withoutEscapingSlashes])
                return JSONResponse.raw(data, headers: latency > 0 ? [.connection: "close"] : [:])
            }
            let tokenDelay = await ledger.tokenDelayMs
            return Response(
                status: .ok, headers: SSERoutes.streamHeaders,
                body: ResponseBody { writer in
                    try await request.untilClientLeaves(context) {
                        if latency > 0 { try await Task.sleep(for: .milliseconds(latency)) }
                        try await AlanStreamWriter(answer: answer, tokenDelayMs: tokenDelay).write(to: &writer)
                    }
                    try await writer.finish(nil)
                })
        }
    }

    /// FastAPI's answer for a missing parameter.
    static func missing(_ location: String, _ name: String) -> Response {
        let detail: [String: Any] = ["detail": [["loc": [location, name], "msg": "Field required", "type": "missing", "input": NSNull()]]]
        let data = (try? JSONSerialization.data(withJSONObject: detail, options: [.sortedKeys])) ?? Data()
        return JSONResponse.raw(data, status: .unprocessableContent)
    }
}
