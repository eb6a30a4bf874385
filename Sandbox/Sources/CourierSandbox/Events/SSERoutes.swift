import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// Server-sent events for testing a client's stream parser, reconnection and resume.
///
/// | route | answer |
/// |---|---|
/// | `GET /sse/events?count=&intervalMs=&event=&retry=&comments=1&lineEnding=&bom=1&multiline=1&dropAfter=&hangAfter=&key=` | `text/event-stream`, events `1…count` (default 10, at most 1 000 000): `id: n`, `data: {"n":n}`, blank line; each event written and flushed as it happens (see ``SSEStreamPlan``) |
/// | … with `Last-Event-ID: m` | continues with event `m+1`; `204` when `m >= count`; an unparseable value starts from 1 |
/// | `POST /sse/echo?chunk=&intervalMs=` | `text/event-stream` whose body is exactly the request body, in pieces of `chunk` bytes (default: all at once), `intervalMs` apart |
/// | `GET /sse/stats?key=` | ``SSEStats`` of that key (default `default`) |
/// | `POST /sse/reset` | `204`; forgets every key |
///
/// `dropAfter=K` cuts the connection (no final chunk) after `K` events of this response;
/// `hangAfter=K` sends nothing after `K` events but keeps the connection open for up to 120 s,
/// then ends the response. A parameter that is present but wrong answers 400.
///
/// A client that goes away is seen within milliseconds, even while the stream sleeps or hangs:
/// the writer runs inside `Request.untilClientLeaves`, which cancels it when the request's
/// inbound side closes (Hummingbird itself does not cancel a response writer, and a write to a
/// half-closed connection succeeds); stopping the server ends open streams the same way (they
/// count as disconnects). Streams answer `Connection: close`, since Hummingbird ends the
/// connection after such a response.
struct SSERoutes {
    let book = SSEStatsBook()

    /// Bodies of `/sse/echo` larger than this are refused with 413.
    static let maxEchoBytes = 16 * 1024 * 1024

    func register(on router: Router<SandboxRequestContext>) {
        let book = self.book
        router.get("/sse/events") { request, context in try await Self.events(request, context: context, book: book) }
        router.post("/sse/echo") { request, context in try await Self.echo(request, context: context) }
        router.get("/sse/stats") { request, _ in
            JSONResponse.make(await book.stats(QueryReader(request).text("key") ?? "default"))
        }
        router.post("/sse/reset") { _, _ in
            await book.reset()
            return Response(status: .noContent)
        }
    }

    static let streamHeaders: HTTPFields = [.contentType: "text/event-stream", .cacheControl: "no-cache", .connection: "close"]

    static func events(_ request: Request, context: SandboxRequestContext, book: SSEStatsBook) async throws -> Response {
        let plan = try SSEStreamPlan(request)
        if plan.isFinished {
            await book.started(plan.key, lastEventID: plan.lastEventID, streaming: false)
            return Response(status: .noContent, headers: [.cacheControl: "no-cache"])
        }
        return Response(
            status: .ok, headers: streamHeaders,
            body: ResponseBody { writer in
                // Counted once the head is out: a client gone before that never had a stream.
                await book.started(plan.key, lastEventID: plan.lastEventID, streaming: true)
                do {
                    try await request.untilClientLeaves(context) { try await plan.write(to: &writer) }
                    try await writer.finish(nil)
                } catch SandboxFault.droppedOnPurpose {
                    await book.ended(plan.key, .dropped)
                    throw SandboxFault.droppedOnPurpose
                } catch {
                    await book.ended(plan.key, .disconnected)
                    throw error
                }
                await book.ended(plan.key, .completed)
            })
    }

    static func echo(_ request: Request, context: SandboxRequestContext) async throws -> Response {
        let query = QueryReader(request)
        let chunk = try query.integer("chunk", in: 1...Int.max)
        let interval = Duration.milliseconds(try query.integer("intervalMs", in: 0...600_000, default: 0))
        var request = request
        let body: ByteBuffer
        do {
            body = try await request.collectBody(upTo: maxEchoBytes)
        } catch is NIOTooManyBytesError {
            throw HTTPError(.contentTooLarge, message: "at most \(maxEchoBytes) bytes")
        }
        let pieceSize = max(1, chunk ?? body.readableBytes)
        let watched = request
        return Response(
            status: .ok, headers: streamHeaders,
            body: ResponseBody { writer in
                try await watched.untilClientLeaves(context) {
                    var offset = 0
                    while offset < body.readableBytes {
                        if offset > 0, interval > .zero { try await Task.sleep(for: interval) }
                        let length = min(pieceSize, body.readableBytes - offset)
                        try await writer.write(body.getSlice(at: body.readerIndex + offset, length: length) ?? ByteBuffer())
                        offset += length
                    }
                }
                try await writer.finish(nil)
            })
    }
}
