import CourierTransportCore
public import Foundation
public import HTTPTypes

/// A rate limit an answer announced: how many requests are left and when the window resets, read
/// from any of the four header families APIs use.
///
/// | family | remaining | reset |
/// |---|---|---|
/// | IETF draft (`RateLimit`, `RateLimit-Policy`) | `RateLimit: "default";r=5;t=1` | `t`, seconds |
/// | IETF, earlier drafts | `RateLimit-Remaining: 5` | `RateLimit-Reset: 1`, seconds |
/// | OpenAI | `x-ratelimit-remaining-requests: 59` | `x-ratelimit-reset-requests: 1h2m3.5s` (`850ms`, `6m0s`) |
/// | Anthropic | `anthropic-ratelimit-requests-remaining: 49` | `anthropic-ratelimit-requests-reset`, RFC 3339 |
/// | GitHub | `X-RateLimit-Remaining: 4999` | `X-RateLimit-Reset`, Unix epoch seconds |
///
/// ```swift
/// if let limit = RateLimitHeaders(response.headerFields), limit.remaining == 0 {
///     print("spent until", limit.reset)
/// }
/// ```
///
/// Every value is hostile until parsed: numbers are ASCII digits that saturate at a cap (never a
/// `Double` converted to an integer: `1e400`, `inf`, `nan`, `-1` and twenty digits are refused or
/// capped), resets are capped at ``maxReset``, and a family whose fields are malformed is ignored.
public struct RateLimitHeaders: Sendable, Equatable {
    /// Which header family announced it.
    public enum Family: String, Sendable, CaseIterable {
        /// The IETF draft's `RateLimit` / `RateLimit-Policy` (or its earlier `RateLimit-Remaining`).
        case ietf
        /// OpenAI's `x-ratelimit-*-requests`.
        case openAI
        /// Anthropic's `anthropic-ratelimit-requests-*`.
        case anthropic
        /// GitHub's `X-RateLimit-*`.
        case gitHub
    }

    /// The family the values came from.
    public var family: Family
    /// Requests left in the window (capped at ``maxCount``).
    public var remaining: Int
    /// Requests the window allows, when the answer said (`q`, `-limit-requests`, `X-RateLimit-Limit`).
    public var limit: Int?
    /// Time from the answer until the window resets (at most ``maxReset``; zero for a reset past).
    public var reset: Duration

    /// The largest count believed.
    public static let maxCount = 1_000_000_000
    /// The longest reset believed: a day; a longer one is capped to it.
    public static let maxReset = Duration.seconds(86_400)

    /// Creates a value.
    public init(family: Family, remaining: Int, limit: Int? = nil, reset: Duration) {
        self.family = family
        self.remaining = min(max(0, remaining), Self.maxCount)
        self.limit = limit.map { min(max(0, $0), Self.maxCount) }
        self.reset = min(max(.zero, reset), Self.maxReset)
    }

    /// The rate limit `fields` announce, trying the IETF draft, OpenAI, Anthropic and GitHub in
    /// that order; nil when no family is there whole and well-formed. `now` is when the answer
    /// arrived (for the families that send a date).
    public init?(_ fields: HTTPFields, now: Date = Date()) {
        guard let value = Self.ietf(fields) ?? Self.openAI(fields) ?? Self.anthropic(fields, now: now) ?? Self.gitHub(fields, now: now)
        else { return nil }
        self = value
    }

    private static func field(_ fields: HTTPFields, _ name: String) -> String? {
        HTTPField.Name(name).flatMap { fields[$0] }
    }

    private static func count(_ text: String?) -> Int? {
        text.flatMap { WireNumber.digits($0, cap: maxCount) }
    }

    private static func seconds(_ text: String?) -> Duration? {
        text.flatMap { WireNumber.digits($0, cap: Int(maxReset.components.seconds)) }.map { .seconds($0) }
    }

    static func ietf(_ fields: HTTPFields) -> RateLimitHeaders? {
        if let text = field(fields, "RateLimit") {
            let policies = field(fields, "RateLimit-Policy").map(StructuredList.parse) ?? []
            // Several policies may apply: the one with least left binds (the later reset on a tie).
            let items = StructuredList.parse(text).compactMap { item -> RateLimitHeaders? in
                guard let remaining = count(item.parameters["r"]), let reset = seconds(item.parameters["t"]) else { return nil }
                let quota = policies.first { $0.name == item.name }.flatMap { count($0.parameters["q"]) }
                return RateLimitHeaders(family: .ietf, remaining: remaining, limit: quota, reset: reset)
            }
            return items.min { ($0.remaining, -$0.reset.milliseconds) < ($1.remaining, -$1.reset.milliseconds) }
        }
        guard let remaining = count(field(fields, "RateLimit-Remaining")), let reset = seconds(field(fields, "RateLimit-Reset")) else {
            return nil
        }
        return RateLimitHeaders(family: .ietf, remaining: remaining, limit: count(field(fields, "RateLimit-Limit")), reset: reset)
    }

    static func openAI(_ fields: HTTPFields) -> RateLimitHeaders? {
        guard let remaining = count(field(fields, "x-ratelimit-remaining-requests")),
            let reset = field(fields, "x-ratelimit-reset-requests").flatMap(GoDuration.parse)
        else { return nil }
        return RateLimitHeaders(family: .openAI, remaining: remaining, limit: count(field(fields, "x-ratelimit-limit-requests")), reset: reset)
    }

    static func anthropic(_ fields: HTTPFields, now: Date) -> RateLimitHeaders? {
        guard let remaining = count(field(fields, "anthropic-ratelimit-requests-remaining")),
            let at = field(fields, "anthropic-ratelimit-requests-reset").flatMap(InternetDate.parse)
        else { return nil }
        let limit = count(field(fields, "anthropic-ratelimit-requests-limit"))
        return RateLimitHeaders(family: .anthropic, remaining: remaining, limit: limit, reset: until(at, from: now))
    }

    static func gitHub(_ fields: HTTPFields, now: Date) -> RateLimitHeaders? {
        guard let remaining = count(field(fields, "X-RateLimit-Remaining")),
            let epoch = field(fields, "X-RateLimit-Reset").flatMap({ WireNumber.digits($0, cap: 1 << 40) })
        else { return nil }
        let limit = count(field(fields, "X-RateLimit-Limit"))
        return RateLimitHeaders(family: .gitHub, remaining: remaining, limit: limit, reset: until(Double(epoch), from: now))
    }

    /// From `now` to `epochSeconds`, in whole milliseconds rounded up, within 0…``maxReset``.
    private static func until(_ epochSeconds: Double, from now: Date) -> Duration {
        let seconds = epochSeconds - now.timeIntervalSince1970
        guard seconds.isFinite, seconds > 0 else { return .zero }
        guard seconds < Double(maxReset.components.seconds) else { return maxReset }
        return .milliseconds(Int64((seconds * 1000).rounded(.up)))
    }
}
