import Foundation
import HTTPTypes
import Testing

@testable import CourierResilience

/// The four header families, and what a hostile server may send in them.
@Suite("Rate-limit headers: four families, hostile values")
struct RateLimitHeadersTests {
    /// 2023-11-14T22:13:20Z.
    static let now = Date(timeIntervalSince1970: 1_700_000_000)

    static func parse(_ pairs: [String: String]) -> RateLimitHeaders? {
        var fields = HTTPFields()
        for (name, value) in pairs { fields[HTTPField.Name(name)!] = value }
        return RateLimitHeaders(fields, now: now)
    }

    @Test("IETF draft: RateLimit and RateLimit-Policy as structured fields; the most restrictive policy binds; earlier drafts too")
    func ietf() {
        #expect(
            Self.parse(["RateLimit-Policy": "\"default\";q=20;w=2", "RateLimit": "\"default\";r=5;t=1"])
                == RateLimitHeaders(family: .ietf, remaining: 5, limit: 20, reset: .seconds(1)))
        #expect(
            Self.parse(["RateLimit": "\"burst\";r=0;t=3, \"daily\";r=100;t=3600", "RateLimit-Policy": "\"burst\";q=10;w=3, \"daily\";q=1000;w=86400"])
                == RateLimitHeaders(family: .ietf, remaining: 0, limit: 10, reset: .seconds(3)))
        #expect(Self.parse(["RateLimit": "default;r=7;t=2"])?.remaining == 7, "a token name, as early drafts wrote it")
        #expect(
            Self.parse(["RateLimit-Limit": "100", "RateLimit-Remaining": "9", "RateLimit-Reset": "30"])
                == RateLimitHeaders(family: .ietf, remaining: 9, limit: 100, reset: .seconds(30)))
    }

    @Test(
        "OpenAI: remaining requests and a Go duration reset",
        arguments: [
            ("850ms", Duration.milliseconds(850)), ("1.2s", .milliseconds(1200)), ("6m0s", .seconds(360)),
            ("1h2m3.5s", .milliseconds(3_723_500)), ("0s", .zero), ("20ms", .milliseconds(20)), ("1m30.25s", .milliseconds(90_250)),
        ])
    func openAI(_ reset: String, _ expected: Duration) {
        let limit = Self.parse(["x-ratelimit-limit-requests": "60", "x-ratelimit-remaining-requests": "59", "x-ratelimit-reset-requests": reset])
        #expect(limit == RateLimitHeaders(family: .openAI, remaining: 59, limit: 60, reset: expected))
    }

    @Test("Anthropic: remaining requests and an RFC 3339 reset, any offset, fractional seconds")
    func anthropic() {
        for (reset, expected) in [
            ("2023-11-14T22:13:30Z", Duration.seconds(10)), ("2023-11-15T07:13:30+09:00", .seconds(10)),
            ("2023-11-14T22:13:20.500Z", .milliseconds(500)), ("2023-11-14T22:13:00Z", .zero),
        ] {
            let limit = Self.parse(["anthropic-ratelimit-requests-remaining": "49", "anthropic-ratelimit-requests-reset": reset])
            #expect(limit == RateLimitHeaders(family: .anthropic, remaining: 49, reset: expected), "\(reset)")
        }
    }

    @Test("GitHub: X-RateLimit-Remaining and an epoch-seconds reset")
    func gitHub() {
        #expect(
            Self.parse(["X-RateLimit-Limit": "5000", "X-RateLimit-Remaining": "4999", "X-RateLimit-Reset": "1700000060"])
                == RateLimitHeaders(family: .gitHub, remaining: 4999, limit: 5000, reset: .seconds(60)))
        #expect(Self.parse(["X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1600000000"])?.reset == .zero, "a reset in the past")
    }

    @Test(
        "hostile counts: twenty digits are capped, signs, exponents, inf and nan are refused",
        arguments: [
            "-1", "1e400", "inf", "nan", "", "5.5", "0x10", "+3", "1 2", "٣",
        ])
    func hostileCounts(_ value: String) {
        #expect(Self.parse(["x-ratelimit-remaining-requests": value, "x-ratelimit-reset-requests": "1s"]) == nil)
        #expect(Self.parse(["X-RateLimit-Remaining": value, "X-RateLimit-Reset": "1700000060"]) == nil)
        #expect(Self.parse(["RateLimit": "\"default\";r=\(value);t=1"]) == nil)
        #expect(Self.parse(["RateLimit": "\"default\";r=1;t=\(value)"]) == nil)
    }

    @Test("hostile numbers saturate: a count at the cap, a reset at a day")
    func saturating() {
        let huge = "99999999999999999999"
        #expect(
            Self.parse(["X-RateLimit-Remaining": huge, "X-RateLimit-Reset": huge])
                == RateLimitHeaders(
                    family: .gitHub, remaining: RateLimitHeaders.maxCount, reset: RateLimitHeaders.maxReset))
        #expect(Self.parse(["RateLimit": "\"d\";r=\(huge);t=\(huge)"])?.reset == RateLimitHeaders.maxReset)
        #expect(
            Self.parse(["x-ratelimit-remaining-requests": "1", "x-ratelimit-reset-requests": "\(huge)h\(huge)m"])?.reset == RateLimitHeaders.maxReset)
        #expect(
            Self.parse(["x-ratelimit-remaining-requests": "1", "x-ratelimit-reset-requests": "9223372036854775807s"])?.reset
                == RateLimitHeaders.maxReset)
        #expect(
            Self.parse(["anthropic-ratelimit-requests-remaining": "1", "anthropic-ratelimit-requests-reset": "9999-12-31T23:59:59Z"])?.reset
                == RateLimitHeaders.maxReset)
    }

    @Test(
        "malformed resets are ignored",
        arguments: [
            "1e400s", "inf", "nan", "-1s", "5", "s", "1x", "1h-2m", ".5s", "1..2s",
        ])
    func malformedDurations(_ reset: String) {
        #expect(GoDuration.parse(reset) == (reset == ".5s" ? .milliseconds(500) : nil), "\(reset)")
    }

    @Test("malformed dates and structured fields are ignored")
    func malformedOthers() {
        for date in ["2023-13-01T00:00:00Z", "2023-11-14", "tomorrow", "2023-11-14T25:00:00Z", "2023-11-14T22:13:30", "2023-11-14T22:13:30+0900"] {
            #expect(InternetDate.parse(date) == nil, "\(date)")
        }
        #expect(StructuredList.parse("\"unterminated;r=1;t=1").isEmpty)
        #expect(StructuredList.parse(String(repeating: "a", count: 5000)).isEmpty)
        #expect(
            StructuredList.parse("\"a,b\";r=1;t=2, c;r=3") == [
                .init(name: "a,b", parameters: ["r": "1", "t": "2"]), .init(name: "c", parameters: ["r": "3"]),
            ])
        #expect(Self.parse(["RateLimit": "garbage", "X-RateLimit-Remaining": "3", "X-RateLimit-Reset": "1700000001"])?.family == .gitHub)
    }

    @Test("a parameter without a key (`;=`, `;==`, `;=5`) makes its member unreadable, never a trap (RateLimitHeadersFuzz)")
    func parameterWithoutKey() {
        for parameter in ["=", "==", "=5", " = "] {
            #expect(StructuredList.parse("a;r=1;t=1;\(parameter)").isEmpty, "\(parameter)")
            #expect(Self.parse(["RateLimit": "a;r=1;t=1;\(parameter)"]) == nil, "\(parameter)")
            #expect(
                Self.parse(["RateLimit": "\"a\";r=0;t=1;\(parameter), \"b\";r=2;t=2"])
                    == RateLimitHeaders(family: .ietf, remaining: 2, reset: .seconds(2)), "\(parameter): the other member is read")
        }
        #expect(StructuredList.parse("a;r=") == [.init(name: "a", parameters: ["r": ""])], "an empty value is read as empty, not as `?1`")
        #expect(StructuredList.parse("a;r==5") == [.init(name: "a", parameters: ["r": "=5"])])
    }
}
