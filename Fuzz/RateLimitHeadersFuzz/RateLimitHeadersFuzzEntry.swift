import CourierTransportCore
import Foundation
import HTTPTypes

@testable import CourierResilience

// libFuzzer entry for the rate-limit headers an answer announces (RateLimitHeaders, with its
// helpers StructuredList, GoDuration and InternetDate). The input is header lines, `name: value`
// (a repeated name is one field of joined values, as HTTPFields reads it); every line is also fed
// to each helper as a bare value. Parsed at three fixed instants — a day before the seeds' resets,
// 1970 and the year 9999 — so a reset far in the past or future is met too. Every function called
// is the real one, from the module compiled out of Sources/ (see Fuzz/fuzz-common.sh).

/// 2026-11-29T05:59:00Z: the seeds' Anthropic and GitHub resets are a minute later.
private let fixedNows = [Date(timeIntervalSince1970: 1_795_931_940), Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 253_402_300_799)]

private let maxResetSeconds = Int(RateLimitHeaders.maxReset.components.seconds)

@_cdecl("LLVMFuzzerTestOneInput")
public func rateLimitHeadersFuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = fuzzBytes(data, size)
    let text = String(decoding: bytes, as: UTF8.self)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.hasSuffix("\r") ? String($0.dropLast()) : String($0) }

    var fields = HTTPFields()
    for line in lines {
        guard let colon = line.firstIndex(of: ":") else { continue }
        guard let name = HTTPField.Name(String(line[..<colon]).trimmingSpaces) else { continue }
        fields.append(HTTPField(name: name, lenientValue: Array(line[line.index(after: colon)...].utf8)))
    }
    for now in fixedNows { checkHeaders(fields, now: now) }

    let values = lines.compactMap { line in line.firstIndex(of: ":").map { String(line[line.index(after: $0)...]) } }
    for value in [text] + lines + values {
        checkGoDuration(value)
        checkInternetDate(value)
        checkStructuredList(value)
    }
    return 0
}

/// The whole parse: values within their documented caps, the families tried in their documented
/// order, and GitHub's reset exactly the epoch's distance from `now`, clamped.
private func checkHeaders(_ fields: HTTPFields, now: Date) {
    let parsed = RateLimitHeaders(fields, now: now)
    let expected =
        RateLimitHeaders.ietf(fields) ?? RateLimitHeaders.openAI(fields) ?? RateLimitHeaders.anthropic(fields, now: now)
        ?? RateLimitHeaders.gitHub(fields, now: now)
    guard parsed == expected else {
        fuzzFailure("RateLimitHeaders \(String(describing: parsed)) ≠ the families in order \(String(describing: expected))")
    }
    guard let limit = parsed else { return }
    guard (0...RateLimitHeaders.maxCount).contains(limit.remaining) else { fuzzFailure("remaining \(limit.remaining) of \(fields)") }
    if let quota = limit.limit, !(0...RateLimitHeaders.maxCount).contains(quota) { fuzzFailure("limit \(quota) of \(fields)") }
    guard limit.reset >= .zero, limit.reset <= RateLimitHeaders.maxReset else { fuzzFailure("reset \(limit.reset) of \(fields)") }
    _ = limit.reset.milliseconds

    if limit.family == .gitHub {
        guard let text = HTTPField.Name("X-RateLimit-Reset").flatMap({ fields[$0] }), let epoch = WireNumber.digits(text, cap: 1 << 40) else {
            fuzzFailure("GitHub's family without a readable X-RateLimit-Reset in \(fields)")
        }
        let seconds = min(max(0, epoch - Int(now.timeIntervalSince1970)), maxResetSeconds)
        guard limit.reset == .seconds(seconds) else {
            fuzzFailure("X-RateLimit-Reset \(text.debugDescription) at \(now) → \(limit.reset), expected \(seconds) s")
        }
    }
}

/// Go durations: within 0…maxReset, never a trap; `<digits><unit>` read exactly (saturating).
private func checkGoDuration(_ value: String) {
    guard let duration = GoDuration.parse(value) else { return }
    guard duration >= .zero, duration <= RateLimitHeaders.maxReset else { fuzzFailure("GoDuration(\(value.debugDescription)) = \(duration)") }
    let trimmed = value.trimmingSpaces
    let units: [(String, Int64)] = [
        ("ms", 1_000_000), ("us", 1_000), ("ns", 1), ("h", 3_600_000_000_000), ("m", 60_000_000_000), ("s", 1_000_000_000),
    ]
    guard let (unit, scale) = units.first(where: { trimmed.hasSuffix($0.0) }) else { return }
    let number = trimmed.dropLast(unit.count)
    guard !number.isEmpty, number.utf8.count <= 12, number.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let whole = Int64(number) else { return }
    let cap = Int64(maxResetSeconds) * 1_000_000_000
    let (product, overflow) = whole.multipliedReportingOverflow(by: scale)
    guard duration == .nanoseconds(overflow ? cap : min(product, cap)) else { fuzzFailure("GoDuration(\(value.debugDescription)) = \(duration)") }
}

/// RFC 3339 dates: finite; a valid `YYYY-MM-DDTHH:MM:SSZ` from 1900 on is the instant a
/// Gregorian calendar in UTC names.
private func checkInternetDate(_ value: String) {
    guard let seconds = InternetDate.parse(value) else { return }
    guard seconds.isFinite else { fuzzFailure("InternetDate(\(value.debugDescription)) = \(seconds)") }
    let bytes = Array(value.trimmingSpaces.utf8)
    guard bytes.count == 20, bytes[19] == UInt8(ascii: "Z") || bytes[19] == UInt8(ascii: "z") else { return }
    func number(_ start: Int, _ length: Int) -> Int { bytes[start..<start + length].reduce(0) { $0 * 10 + Int($1 - 0x30) } }
    let (year, month, day, hour, minute, second) = (number(0, 4), number(5, 2), number(8, 2), number(11, 2), number(14, 2), number(17, 2))
    guard year >= 1900, second < 60 else { return }
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    guard let date = calendar.date(from: components), calendar.dateComponents([.year, .month, .day], from: date).day == day else { return }
    guard date.timeIntervalSince1970 == seconds else {
        fuzzFailure("InternetDate(\(value.debugDescription)) = \(seconds), the calendar says \(date.timeIntervalSince1970)")
    }
}

/// Structured lists: nothing read past the length limit, at most maxItems members, every
/// parameter key non-empty and lower-case.
private func checkStructuredList(_ value: String) {
    let items = StructuredList.parse(value)
    if value.utf8.count > StructuredList.maxLength, !items.isEmpty { fuzzFailure("a list over \(StructuredList.maxLength) bytes read") }
    guard items.count <= StructuredList.maxItems else { fuzzFailure("\(items.count) members read from \(fuzzShow(value.utf8))") }
    for item in items {
        for key in item.parameters.keys where key.isEmpty || key != key.lowercased() {
            fuzzFailure("parameter key \(key.debugDescription) from \(fuzzShow(value.utf8))")
        }
    }
}
