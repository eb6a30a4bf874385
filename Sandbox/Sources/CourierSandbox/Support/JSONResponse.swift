import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// Small helpers for JSON answers.
enum JSONResponse {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// `value` encoded as JSON with `status`.
    static func make(_ value: some Encodable, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        return raw(data, status: status, headers: headers)
    }

    /// `data` as a JSON body.
    static func raw(
        _ data: Data, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:], contentType: String = "application/json; charset=utf-8"
    ) -> Response {
        var fields = headers
        fields[.contentType] = contentType
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

/// Logs method, path (never the query: it may hold keys), status and time of each request.
struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    let logger: Logger

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        do {
            let response = try await next(request, context)
            logger.info("\(request.method) \(request.uri.path) → \(response.status.code) in \(Self.ms(since: start)) ms")
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            logger.info("\(request.method) \(request.uri.path) → \(status) in \(Self.ms(since: start)) ms")
            throw error
        }
    }

    static func ms(since start: ContinuousClock.Instant) -> Int {
        let elapsed = ContinuousClock.now - start
        return Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
    }
}
