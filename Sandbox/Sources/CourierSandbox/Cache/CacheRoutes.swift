import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// Routes that answer with the cache header fields a test asks for, honour conditional requests,
/// and count what they see: for testing an HTTP cache (``CacheStats``).
///
/// | route | answer |
/// |---|---|
/// | `GET, HEAD /cache/{key}?cc=&etag=&lastModified=&expires=&age=&vary=&status=&bytes=&json=` | `status` (default 200) with `Cache-Control: cc`, `ETag: "etag"`, `Last-Modified` `lastModified` seconds before the key's first request, `Expires` `expires` seconds from now (`expires=invalid` sends `0`), `Age: age`, `Vary: vary`, `X-Hit: n`; body `{"key","hit","variant"}` (`variant` is the request's value of the `vary` field), `bytes` bytes (paced to `mbps` megabits per second when given: a link slower than loopback), or a JSON document of about `json` bytes (``CacheDocument``); `304` when `If-None-Match` names the ETag or `If-Modified-Since` is not before `Last-Modified` |
/// | `POST, PUT, DELETE /cache/{key}?location=` | `200` (`Location`/`Content-Location: location` when given); counted as a hit |
/// | `GET /cache/{key}/stats` | ``CacheStats`` |
///
/// The request fields `X-Set-Cache-Control`, `X-Set-Status` and `X-Set-Location` override `cc`,
/// `status` and `location`, so
/// one URL's answers can change from request to request (a cache keys by URL, not by these).
struct CacheRoutes: SandboxRouteGroup {
    let ledger = CacheLedger()
    static let setCacheControl = HTTPField.Name("X-Set-Cache-Control")
    static let setStatus = HTTPField.Name("X-Set-Status")
    static let setLocation = HTTPField.Name("X-Set-Location")

    func register(on router: Router<SandboxRequestContext>) async throws {
        let ledger = self.ledger
        for method in [HTTPRequest.Method.get, .head] {
            router.on("/cache/:key", method: method) { request, context in
                try await Self.answer(request, key: try context.parameters.require("key"), ledger: ledger)
            }
        }
        for method in [HTTPRequest.Method.post, .put, .delete] {
            router.on("/cache/:key", method: method) { request, context in
                let key = try context.parameters.require("key")
                _ = await ledger.record(key, conditional: false, notModified: false)
                var headers = HTTPFields()
                let query = try QueryReader(request).line("location")
                if let location = Self.setLocation.flatMap({ request.headers[$0] }) ?? query {
                    headers[.location] = location
                    headers[.contentLocation] = location
                }
                return Response(status: .ok, headers: headers)
            }
        }
        router.get("/cache/:key/stats") { _, context in
            JSONResponse.make(await ledger.stats(try context.parameters.require("key")))
        }
    }

    static func answer(_ request: Request, key: String, ledger: CacheLedger) async throws -> Response {
        let query = QueryReader(request)
        let now = Date()
        var headers = HTTPFields()
        let cacheControl = try query.line("cc")
        if let cc = Self.setCacheControl.flatMap({ request.headers[$0] }) ?? cacheControl { headers[.cacheControl] = cc }
        let varyName = try query.line("vary")
        let variant = varyName.flatMap { HTTPField.Name($0) }.flatMap { request.headers[$0] }
        // Each variant has its own validator, as a real origin's would.
        let etag = try query.line("etag").map { "\"\($0)\(variant.map { "-" + $0 } ?? "")\"" }
        if let etag { headers[.eTag] = etag }
        // Counted back from the key's first request, so every answer names the same instant.
        let origin = await ledger.origin(key)
        let lastModified = try query.integer("lastModified", in: 0...(100 * 365 * 86_400)).map {
            origin.addingTimeInterval(-Double($0).rounded(.down))
        }
        if let lastModified { headers[.lastModified] = Self.format(lastModified) }
        if query.text("expires") == "invalid" {
            headers[.expires] = "0"
        } else if let expires = try query.integer("expires", in: -(100 * 365 * 86_400)...(100 * 365 * 86_400)) {
            headers[.expires] = Self.format(now.addingTimeInterval(Double(expires)))
        }
        headers[.date] = Self.format(now)
        if let age = try query.line("age") { headers[.age] = age }
        if let varyName { headers[.vary] = varyName }

        let inm = request.headers[.ifNoneMatch]
        let ims = request.headers[.ifModifiedSince].flatMap(Self.parse)
        let matches =
            (etag != nil && inm?.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces) == etag || $0 == "*" } == true)
            || (inm == nil && lastModified != nil && ims != nil && (ims ?? .distantPast) >= (lastModified ?? .distantFuture).addingTimeInterval(-1))
        let hit = await ledger.record(key, conditional: inm != nil || ims != nil, notModified: matches)
        if let hitField = CountedRoutes.hitField { headers[hitField] = String(hit) }
        if matches { return Response(status: .notModified, headers: headers) }

        let status = try Self.setStatus.flatMap({ request.headers[$0] }).flatMap { Int($0) } ?? query.integer("status", in: 200...599, default: 200)
        let response: Response
        if let bytes = try query.integer("bytes", in: 0...(64 * 1024 * 1024)) {
            headers[.contentType] = "application/octet-stream"
            let body = try query.integer("mbps", in: 1...100_000).map { Self.pacedBody(length: bytes, megabitsPerSecond: $0) }
            response = Response(status: .init(code: status), headers: headers, body: body ?? FaultRoutes.patternBody(length: bytes))
        } else if let size = try query.integer("json", in: 0...(16 * 1024 * 1024)) {
            response = JSONResponse.make(CacheDocument(key: key, hit: hit, approximateBytes: size), status: .init(code: status), headers: headers)
        } else {
            response = JSONResponse.make(Answer(key: key, hit: hit, variant: variant), status: .init(code: status), headers: headers)
        }
        return request.method == .head ? response.createHeadResponse() : response
    }

    /// ``FaultRoutes/patternBody(length:)`` paced to `megabitsPerSecond`: each 64 KiB piece
    /// leaves when a link of that speed would have carried the ones before it.
    static func pacedBody(length: Int, megabitsPerSecond: Int) -> ResponseBody {
        ResponseBody(contentLength: length) { writer in
            let clock = ContinuousClock()
            let start = clock.now
            let bytesPerSecond = Double(megabitsPerSecond) * 125_000
            var sent = 0
            while sent < length {
                let count = min(length - sent, FaultRoutes.pattern.readableBytes)
                try await writer.write(FaultRoutes.pattern.getSlice(at: 0, length: count) ?? ByteBuffer())
                sent += count
                try await clock.sleep(until: start.advanced(by: .seconds(Double(sent) / bytesPerSecond)))
            }
            try await writer.finish(nil)
        }
    }

    /// The default body.
    struct Answer: Encodable {
        var key: String
        var hit: Int
        var variant: String?
    }

    /// An IMF-fixdate, e.g. `Sun, 06 Nov 1994 08:49:37 GMT` — by arithmetic (a `DateFormatter`
    /// made per answer cost more than the rest of the answer).
    static func format(_ date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let time = seconds - days * 86_400
        let (year, month, day) = CivilDay.civil(days)
        let weekday = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"][((days % 7) + 7) % 7]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(weekday), \(two(day)) \(months[month - 1]) \(year) \(two(time / 3600)):\(two(time / 60 % 60)):\(two(time % 60)) GMT"
    }

    /// An IMF-fixdate's instant.
    static func parse(_ text: String) -> Date? { formatter().date(from: text) }

    private static func formatter() -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter
    }
}
