import Crypto
import HTTPTypes
import Hummingbird
import NIOCore

/// Routes for testing downloads, resumption, uploads and line-delimited streams.
///
/// | route | answer |
/// |---|---|
/// | `GET, HEAD /files/{name}?size=&seed=&version=&validator=&weak=1&ranges=&pace=&cutAt=&cuts=&changing=&maxAge=&key=` | `size` bytes (default 1 MiB, at most 8 GiB) of ``SandboxFileContent`` for `seed` (default 0) and `version` (default 1, at most 1 000 000); `application/octet-stream`, `Content-Length`, `Accept-Ranges: bytes`, `ETag: "size-seed-version"` and `Last-Modified` (2026-01-01 00:00:00 GMT plus `version` hours) |
/// | … with `Range: bytes=a-b`, `bytes=a-` or `bytes=-n` (GET only) | `206` with `Content-Range: bytes a-b/size` and those bytes; `416` with `Content-Range: bytes */size` and no body when `a >= size` (or `-0`); several ranges, another unit or a malformed field: `200` whole |
/// | … with `If-None-Match` naming the ETag (weak comparison) | `304` with the validators, no body |
/// | … with `If-Range` | the range is honoured only when the field is exactly the strong ETag sent, or an HTTP date exactly the `Last-Modified` sent with no ETag; otherwise `200` whole |
/// | `POST, PUT /upload?key=` | reads the body as it streams (any size, never held whole): ``UploadReceipt`` `{"bytes","sha256","declaredLength","contentType"}` |
/// | `GET /ndjson?count=&interval=&hangAfter=&format=&key=` | `count` records (default 10, at most 10 000 000) `{"index":i,"text":"line i 서울"}\n`, i = 0 … count−1, `interval` ms apart (default 0, at most 10 000); `application/x-ndjson`, or with `format=jsonseq` `application/json-seq`, each record after 0x1E (RFC 7464) |
/// | `GET /files/stats?key=` | ``TransferStats`` of that key (default `default`) |
///
/// The parameters of `/files/{name}` (the name itself is only a name: any name serves the same bytes):
/// - `validator=etag|last-modified|both|none` (default `both`): the validators sent; `weak=1`
///   sends the ETag as `W/"…"`, which never satisfies `If-Range`.
/// - `ranges=ignore`: no `Accept-Ranges`, and `Range` is ignored (always `200` whole).
/// - `pace=N` (1 … 2⁴⁰): at most `N` bytes a second, in pieces of `N/20` bytes (at most 64 KiB).
/// - `cutAt=N` (0 … 8 GiB): when the answer covers offset `N` (its first byte before `N`, its
///   last after), the body stops at file offset `N` and the connection is cut, short of the
///   `Content-Length`; an answer that starts at or after `N` (a resume past the cut) is whole.
///   With `cuts=M` (and `key`), only while the key has had fewer than `M` cuts (`cuts=1`: the
///   first answer is cut, a resume from anywhere is whole).
/// - `maxAge=N`: `Cache-Control: max-age=N` (no `Cache-Control` by default).
/// - `changing=C`: the version is not `version=` but 1 + the number of earlier `/files` requests
///   with `changing=C` — validators (and bytes) that change from one request to the next.
/// - `key=K` (every route here): counts the request in ``TransferStats``.
///
/// `/files/stats` is a route of its own (a file cannot be named `stats`). `/ndjson` with
/// `hangAfter=K` sends nothing after `K` records but keeps the connection open for up to 120 s,
/// then ends the response; it runs inside `Request.untilClientLeaves`, so it ends as soon as the
/// client goes away, and answers `Connection: close`. The ledger keeps at most 1 000 keys (and
/// 1 000 `changing` values), forgetting the oldest first. A parameter that is present but wrong
/// answers 400.
struct TransferRoutes {
    let ledger = TransferLedger()

    func register(on router: Router<SandboxRequestContext>) {
        let ledger = self.ledger
        // A constant segment outranks a parameter in Hummingbird's trie: /files/stats is never a file.
        router.get("/files/stats") { request, _ in
            JSONResponse.make(await ledger.stats(QueryReader(request).text("key") ?? "default"))
        }
        for method in [HTTPRequest.Method.get, .head] {
            router.on("/files/:name", method: method) { request, _ in try await Self.file(request, ledger: ledger) }
        }
        for method in [HTTPRequest.Method.post, .put] {
            router.on("/upload", method: method) { request, _ in try await Self.upload(request, ledger: ledger) }
        }
        router.get("/ndjson") { request, context in try await Self.ndjson(request, context: context, ledger: ledger) }
    }

    static func file(_ request: Request, ledger: TransferLedger) async throws -> Response {
        var plan = try FileTransferPlan(request)
        if let changing = plan.changing { plan.version = UInt64(await ledger.nextVersion(changing)) }
        if let key = plan.key {
            if let maxCuts = plan.maxCuts, await ledger.stats(key).cuts >= maxCuts { plan.cutAt = nil }
            await ledger.request(key, range: plan.rangeField, ifRange: plan.ifRangeField)
        }
        let selection = plan.selection
        let headers = plan.headers(for: selection)
        let response: Response
        switch selection {
        case .whole:
            response = Response(status: .ok, headers: headers, body: plan.body(0..<plan.size, of: plan.content, ledger: ledger))
        case .partial(let range):
            response = Response(status: .partialContent, headers: headers, body: plan.body(range, of: plan.content, ledger: ledger))
        case .unsatisfiable:
            response = Response(status: .rangeNotSatisfiable, headers: headers)
        case .notModified:
            response = Response(status: .notModified, headers: headers)
        }
        if let key = plan.key { await ledger.answered(key, response.status) }
        return request.method == .head ? response.createHeadResponse() : response
    }

    static func upload(_ request: Request, ledger: TransferLedger) async throws -> Response {
        let key = QueryReader(request).text("key")
        if let key { await ledger.request(key) }
        var hasher = SHA256()
        var bytes = 0
        do {
            for try await buffer in request.body {
                buffer.withUnsafeReadableBytes { hasher.update(bufferPointer: $0) }
                bytes += buffer.readableBytes
            }
        } catch {
            if let key { await ledger.received(bytes, key: key) }
            throw error
        }
        let receipt = UploadReceipt(
            bytes: bytes, sha256: hex(hasher.finalize()), declaredLength: request.headers[.contentLength].flatMap { Int($0) },
            contentType: request.headers[.contentType])
        if let key {
            await ledger.received(bytes, key: key)
            await ledger.answered(key, .ok)
        }
        return JSONResponse.make(receipt)
    }

    static func ndjson(_ request: Request, context: SandboxRequestContext, ledger: TransferLedger) async throws -> Response {
        let plan = try NDJSONStreamPlan(request)
        if let key = plan.key {
            await ledger.request(key)
            await ledger.answered(key, .ok)
        }
        var headers: HTTPFields = [.contentType: plan.format.contentType, .cacheControl: "no-cache"]
        // HTTP/1.1 only: `Connection` is a connection-specific field, which HTTP/2 forbids (RFC 9113 §8.2.2).
        if !String(describing: type(of: context.channel)).contains("HTTP2") { headers[.connection] = "close" }
        return Response(
            status: .ok, headers: headers,
            body: ResponseBody { writer in
                try await request.untilClientLeaves(context) {
                    try await plan.write(to: &writer) { bytes in
                        if let key = plan.key { await ledger.wrote(bytes, key: key) }
                    }
                }
                try await writer.finish(nil)
            })
    }

    /// Lowercase hex digits of `bytes`.
    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
