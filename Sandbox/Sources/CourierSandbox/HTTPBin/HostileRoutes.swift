import CompressNIO
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// Routes that behave as a malicious server would, for the tests that show no answer can crash,
/// exhaust or deceive a client. Everything is streamed: a 4 GiB answer costs the sandbox only
/// what the client reads.
///
/// | Route | What it sends |
/// |---|---|
/// | `/hostile/gzip-bomb?mib=…` | `mib` MiB of zeros (4096 by default: 4 GiB) gzip-encoded, compressed as it is sent |
/// | `/hostile/endless?mib=…` | a chunked body that never ends (or ends after `mib` MiB) |
/// | `/hostile/declared?bytes=…&send=…` | a `Content-Length` of `bytes` (4 GiB by default), then bytes until the client leaves (or `send` bytes, then the connection is cut) |
/// | `GET, POST /hostile/headers?count=…&size=…&status=200` | `count` extra header fields with `size`-byte values, answered with `status` (200…599) |
/// | `/hostile/redirect?to=URL&status=302` | a redirect to any `Location`, verbatim (another origin, `file:`, garbage) |
/// | `/hostile/retry-after?value=…&status=503` | `status` with `Retry-After: value`, verbatim |
struct HostileRoutes {
    func register(on router: Router<SandboxRequestContext>) {
        router.get("/hostile/gzip-bomb") { request, _ in
            let mib = min(request.uri.queryParameters.get("mib", as: Int.self) ?? 4096, 64 * 1024)
            return Response(
                status: .ok, headers: [.contentType: "application/octet-stream", .contentEncoding: "gzip"],
                body: Self.gzipBomb(mib: mib))
        }
        router.get("/hostile/endless") { request, _ in
            // `mib` stops it after that many MiB (tests); without it, it never ends.
            let chunks = request.uri.queryParameters.get("mib", as: Int.self).map { max(0, $0) * 16 } ?? .max
            return Response(
                status: .ok, headers: [.contentType: "application/octet-stream"],
                body: ResponseBody { writer in
                    var sent = 0
                    while sent < chunks {
                        try await writer.write(FaultRoutes.pattern)
                        sent += 1
                    }
                    try await writer.finish(nil)
                })
        }
        router.get("/hostile/declared") { request, _ in
            let declared = max(0, request.uri.queryParameters.get("bytes", as: Int.self) ?? 4 * 1024 * 1024 * 1024)
            // `send` stops after that many bytes (tests), then cuts the connection: the lie is told.
            let sent = min(declared, max(0, request.uri.queryParameters.get("send", as: Int.self) ?? declared))
            return Response(
                status: .ok, headers: [.contentType: "application/octet-stream"],
                body: ResponseBody(contentLength: declared) { writer in
                    var remaining = sent
                    while remaining > 0 {
                        let count = min(remaining, FaultRoutes.pattern.readableBytes)
                        try await writer.write(FaultRoutes.pattern.getSlice(at: 0, length: count) ?? ByteBuffer())
                        remaining -= count
                    }
                    if sent < declared { throw SandboxFault.droppedOnPurpose }
                    try await writer.finish(nil)
                })
        }
        for method in [HTTPRequest.Method.get, .post] {
            router.on("/hostile/headers", method: method) { request, _ in Self.headerFlood(request) }
        }
        for method in [HTTPRequest.Method.get, .head, .post, .put, .delete] {
            router.on("/hostile/redirect", method: method) { request, _ in Self.redirect(request) }
        }
        for method in [HTTPRequest.Method.get, .post, .put] {
            router.on("/hostile/retry-after", method: method) { request, _ in
                let query = request.uri.queryParameters
                let status = query.get("status", as: Int.self).flatMap { (400...599).contains($0) ? $0 : nil } ?? 503
                var headers = HTTPFields()
                headers[.retryAfter] = query.get("value").map { String($0).removingPercentEncoding ?? String($0) } ?? "1e19"
                return Response(status: .init(code: status), headers: headers)
            }
        }
    }

    /// `count` extra header fields of `size` bytes each, answered with `status`.
    static func headerFlood(_ request: Request) -> Response {
        let query = request.uri.queryParameters
        let count = min(max(0, query.get("count", as: Int.self) ?? 1000), 100_000)
        let size = min(max(1, query.get("size", as: Int.self) ?? 16), 64 * 1024)
        var headers = HTTPFields()
        let value = String(repeating: "v", count: size)
        for index in 0..<count {
            if let name = HTTPField.Name("x-flood-\(index)") { headers.append(HTTPField(name: name, value: value)) }
        }
        headers[.contentType] = "application/json"
        let status = min(max(200, query.get("status", as: Int.self) ?? 200), 599)
        return Response(status: .init(code: status), headers: headers, body: .init(byteBuffer: ByteBuffer(string: #"{"flood":true}"#)))
    }

    /// A redirect to `to`, verbatim, with `status` (302 by default).
    static func redirect(_ request: Request) -> Response {
        let query = request.uri.queryParameters
        let status = query.get("status", as: Int.self).flatMap { (300...399).contains($0) ? $0 : nil } ?? 302
        let target = query.get("to").map { String($0).removingPercentEncoding ?? String($0) } ?? "/echo"
        var headers = HTTPFields()
        headers[.location] = target
        return Response(status: .init(code: status), headers: headers)
    }

    /// `mib` MiB of zeros as one gzip stream, deflated 1 MiB at a time as the client reads —
    /// about 1 KiB on the wire per MiB it expands to.
    static func gzipBomb(mib: Int) -> ResponseBody {
        ResponseBody { writer in
            let compressor = CompressionAlgorithm.gzip().compressor
            try compressor.startStream()
            defer { try? compressor.finishStream() }
            let zeros = ByteBuffer(repeating: 0, count: 1024 * 1024)
            for index in 0..<mib {
                var input = zeros
                let output = try input.compressStream(with: compressor, flush: index == mib - 1 ? .finish : .sync)
                try await writer.write(output)
            }
            try await writer.finish(nil)
        }
    }
}
