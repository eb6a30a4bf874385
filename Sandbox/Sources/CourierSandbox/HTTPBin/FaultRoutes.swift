import CompressNIO
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// httpbin-style routes that produce every kind of answer and failure a client must survive.
///
/// | route | answer |
/// |---|---|
/// | `/status/{code}?body=…&retryAfter=…&contentType=…` | that status, optional body and `Retry-After` |
/// | `/delay/{ms}` | JSON after `ms` milliseconds |
/// | `/redirect/{n}` | `n` hops of 302, then JSON |
/// | `/redirect-loop` | 302 to itself, forever |
/// | `/bytes/{n}` | `n` bytes with a `Content-Length` |
/// | `/gzip` | a gzip-encoded JSON object |
/// | `/gzip-bomb/{mib}` | `mib` MiB of zeros, gzip-encoded (a tiny body that expands enormously) |
/// | `/drop` | a chunked body cut off after 1 KiB (connection closed) |
/// | `/truncated` | `Content-Length: 2048` but only 512 bytes, then closed |
/// | `/invalid-json` | 200 with JSON cut in the middle |
/// | `/wrong-type` | 200 with JSON whose fields have the wrong types |
/// | `/drip?bytes=…&intervalMs=…` | one byte at a time, slowly |
/// | `/empty/{code}` | 204 or 205 with no body |
struct FaultRoutes {
    func register(on router: Router<SandboxRequestContext>) {
        for method in [HTTPRequest.Method.get, .post, .put, .patch, .delete] {
            router.on("/status/:code", method: method) { request, context in try Self.status(request, context) }
        }
        router.get("/delay/:ms") { _, context in
            let ms = try context.parameters.require("ms", as: Int.self)
            try await Task.sleep(for: .milliseconds(min(ms, 120_000)))
            return JSONResponse.make(["delayedMs": ms])
        }
        router.get("/redirect/:n") { _, context in
            let n = try context.parameters.require("n", as: Int.self)
            if n <= 0 { return JSONResponse.make(["redirected": true]) }
            return Response(status: .found, headers: [.location: "/redirect/\(n - 1)"])
        }
        router.get("/redirect-loop") { _, _ in
            Response(status: .found, headers: [.location: "/redirect-loop"])
        }
        router.get("/bytes/:n") { _, context in
            let n = min(try context.parameters.require("n", as: Int.self), 256 * 1024 * 1024)
            return Response(status: .ok, headers: [.contentType: "application/octet-stream"], body: Self.patternBody(length: n))
        }
        router.get("/gzip") { _, _ in
            let json = #"{"gzipped":true,"message":"압축된 응답","items":[1,2,3]}"#
            return try Self.gzipped(ByteBuffer(string: json), contentType: "application/json")
        }
        router.get("/gzip-bomb/:mib") { _, context in
            let mib = min(try context.parameters.require("mib", as: Int.self), 512)
            return try Self.gzipped(ByteBuffer(repeating: 0, count: mib * 1024 * 1024), contentType: "application/octet-stream")
        }
        router.get("/drop") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: ResponseBody { writer in
                    try await writer.write(ByteBuffer(string: "[" + String(repeating: "1,", count: 512)))
                    try await Task.sleep(for: .milliseconds(20))
                    throw SandboxFault.droppedOnPurpose
                })
        }
        router.get("/truncated") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: ResponseBody(contentLength: 2048) { writer in
                    try await writer.write(ByteBuffer(string: "{\"data\":\"" + String(repeating: "x", count: 503)))
                    try await Task.sleep(for: .milliseconds(20))
                    throw SandboxFault.droppedOnPurpose
                })
        }
        router.get("/invalid-json") { _, _ in
            JSONResponse.raw(Data(#"{"id": 1, "name": "Courier", "tags": ["a", "#.utf8))
        }
        router.get("/wrong-type") { _, _ in
            JSONResponse.raw(Data(#"{"id": 7, "name": 42, "tags": ["a"]}"#.utf8))
        }
        router.get("/drip") { request, _ in
            let query = request.uri.queryParameters
            let bytes = min(query.get("bytes", as: Int.self) ?? 10, 100_000)
            let interval = query.get("intervalMs", as: Int.self) ?? 100
            return Response(
                status: .ok, headers: [.contentType: "application/octet-stream"],
                body: ResponseBody(contentLength: bytes) { writer in
                    for _ in 0..<bytes {
                        try await writer.write(ByteBuffer(string: "*"))
                        try await Task.sleep(for: .milliseconds(interval))
                    }
                    try await writer.finish(nil)
                })
        }
        router.get("/empty/:code") { _, context in
            let code = try context.parameters.require("code", as: Int.self)
            return Response(status: .init(code: code == 205 ? 205 : 204))
        }
    }

    /// 64 KiB of 0, 1, … 255, 0, 1 …
    static let pattern = ByteBuffer(bytes: (0..<(64 * 1024)).map { UInt8(truncatingIfNeeded: $0) })

    /// `length` bytes where byte i is i mod 256, streamed in 64 KiB pieces (never built whole,
    /// never a tight loop per byte), with a `Content-Length`.
    static func patternBody(length: Int) -> ResponseBody {
        ResponseBody(contentLength: length) { writer in
            var remaining = length
            while remaining > 0 {
                let count = min(remaining, pattern.readableBytes)
                try await writer.write(pattern.getSlice(at: 0, length: count) ?? ByteBuffer())
                remaining -= count
            }
            try await writer.finish(nil)
        }
    }

    static func status(_ request: Request, _ context: SandboxRequestContext) throws -> Response {
        let code = try context.parameters.require("code", as: Int.self)
        guard (200...599).contains(code) else { throw HTTPError(.badRequest, message: "status must be 200–599") }
        let query = request.uri.queryParameters
        var headers = HTTPFields()
        if let after = query.get("retryAfter") { headers[.retryAfter] = String(after) }
        let contentType = query.get("contentType").map { String($0) } ?? "text/plain; charset=utf-8"
        if query.get("binary") != nil {
            headers[.contentType] = "application/octet-stream"
            return Response(status: .init(code: code), headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: [0xFF, 0xFE, 0xC3, 0x28])))
        }
        guard let body = query.get("body") else { return Response(status: .init(code: code), headers: headers) }
        headers[.contentType] = contentType
        let text = String(body).removingPercentEncoding ?? String(body)
        return Response(status: .init(code: code), headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    static func gzipped(_ buffer: ByteBuffer, contentType: String) throws -> Response {
        var input = buffer
        let compressed = try input.compress(with: .gzip())
        return Response(
            status: .ok,
            headers: [.contentType: contentType, .contentEncoding: "gzip"],
            body: .init(byteBuffer: compressed)
        )
    }
}

/// Errors the sandbox throws on purpose to cut a connection.
enum SandboxFault: Error {
    case droppedOnPurpose
}
