import Foundation
import HTTPTypes
import Hummingbird

/// A route that announces its rate limit in one of four header families and enforces it: for
/// testing pacing (`RateLimitPacer`).
///
/// | route | answer |
/// |---|---|
/// | `GET /ratelimit/{key}?family=ietf\|openai\|anthropic\|github&limit=20&windowMs=2000` | 200 `{"key","remaining"}` while the key's window has room, else 429 with `Retry-After`; both with the family's headers |
/// | `GET /ratelimit/{key}/stats` | ``RateLimitStats`` |
///
/// A fixed window opens at a key's first request after the last window closed. Resets are rounded
/// up, as servers do, so that a client resuming at the announced reset is never early: to whole
/// seconds for the IETF draft (`t`), Anthropic (an RFC 3339 date) and GitHub (epoch seconds), to
/// the millisecond for OpenAI (`1.234s`, `850ms`).
struct RateLimitRoutes {
    let ledger = RateLimitLedger()

    func register(on router: Router<SandboxRequestContext>) {
        let ledger = self.ledger
        router.get("/ratelimit/:key") { request, context in
            try await Self.answer(request, key: try context.parameters.require("key"), ledger: ledger)
        }
        router.get("/ratelimit/:key/stats") { _, context in
            JSONResponse.make(await ledger.stats(try context.parameters.require("key")))
        }
    }

    static func answer(_ request: Request, key: String, ledger: RateLimitLedger) async throws -> Response {
        let query = QueryReader(request)
        let family = query.text("family") ?? "ietf"
        guard ["ietf", "openai", "anthropic", "github"].contains(family) else {
            throw HTTPError(.badRequest, message: "family must be ietf, openai, anthropic or github")
        }
        let limit = try query.integer("limit", in: 1...1_000_000, default: 20)
        let windowMs = try query.integer("windowMs", in: 1...86_400_000, default: 2000)
        let (allowed, remaining, left) = await ledger.take(key, limit: limit, window: .milliseconds(windowMs))
        let leftMs = Int((left / .milliseconds(1)).rounded(.up))
        var headers = Self.headers(family, limit: limit, remaining: remaining, leftMs: leftMs, windowMs: windowMs)
        guard allowed else {
            headers[.retryAfter] = String(Self.wholeSeconds(leftMs))
            return JSONResponse.make(["key": key, "error": "rate limited"], status: .tooManyRequests, headers: headers)
        }
        return JSONResponse.make(Answer(key: key, remaining: remaining), headers: headers)
    }

    static func headers(_ family: String, limit: Int, remaining: Int, leftMs: Int, windowMs: Int) -> HTTPFields {
        var fields = HTTPFields()
        func set(_ name: String, _ value: String) {
            if let name = HTTPField.Name(name) { fields[name] = value }
        }
        let resetEpoch = Int((Date().timeIntervalSince1970 + Double(leftMs) / 1000).rounded(.up))
        switch family {
        case "openai":
            set("x-ratelimit-limit-requests", String(limit))
            set("x-ratelimit-remaining-requests", String(remaining))
            set("x-ratelimit-reset-requests", leftMs < 1000 ? "\(leftMs)ms" : "\(leftMs / 1000).\(String(format: "%03d", leftMs % 1000))s")
        case "anthropic":
            set("anthropic-ratelimit-requests-limit", String(limit))
            set("anthropic-ratelimit-requests-remaining", String(remaining))
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime]
            set("anthropic-ratelimit-requests-reset", formatter.string(from: Date(timeIntervalSince1970: Double(resetEpoch))))
        case "github":
            set("X-RateLimit-Limit", String(limit))
            set("X-RateLimit-Remaining", String(remaining))
            set("X-RateLimit-Used", String(limit - remaining))
            set("X-RateLimit-Reset", String(resetEpoch))
        default:
            set("RateLimit-Policy", "\"default\";q=\(limit);w=\(wholeSeconds(windowMs))")
            set("RateLimit", "\"default\";r=\(remaining);t=\(wholeSeconds(leftMs))")
        }
        return fields
    }

    static func wholeSeconds(_ milliseconds: Int) -> Int { (milliseconds + 999) / 1000 }

    /// An allowed request's body.
    struct Answer: Encodable {
        var key: String
        var remaining: Int
    }
}
