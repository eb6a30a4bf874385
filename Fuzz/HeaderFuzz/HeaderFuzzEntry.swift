import CourierTransportCore
import Foundation
import HTTPTypes

@testable import Courier
@testable import CourierCache
@testable import CourierTransfers

// libFuzzer entry for the parsers of header values, all fed the same input text (and each of its
// lines): WireNumber.digits / deltaSeconds, Retry-After (HTTPResponse.retryAfter and the error it
// maps to, with its messages), HTTPDate, Cache-Control, Age / Expires / Date / Last-Modified
// freshness, Vary lists, byte ranges, storability. Every function called is the real one, from
// the module compiled out of Sources/ (see Fuzz/fuzz-common.sh).
//
// Courier parses no ETag list and no Content-Type parameter: ETags are only compared whole
// (CacheMiddleware), Content-Type only prefix-matched (`text/event-stream`); the one parameter
// parser, the sandbox's multipart `boundary=`, is fuzzed by MultipartFuzz.

private let fieldNames: [HTTPField.Name] = [
    .retryAfter, .cacheControl, .date, .expires, .age, .lastModified, .vary, HTTPField.Name("Pragma")!, .eTag,
    .contentType, .range, .authorization,
]

private let fixedNow = Date(timeIntervalSince1970: 1_750_000_000)

@_cdecl("LLVMFuzzerTestOneInput")
public func headerFuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = fuzzBytes(data, size)
    let text = String(decoding: bytes, as: UTF8.self)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)

    for value in [text] + (lines.count > 1 ? lines : []) {
        checkDigits(value)
        checkRetryAfter(value)
        checkDate(value)
        checkCacheControl([value])
        checkByteRange(value, byteSeed: bytes.first ?? 0)
        checkContentRange(value)
        _ = CacheFreshness.parseAge(value).map { age in
            guard age >= 0, age <= 2_147_483_648 else { fuzzFailure("Age \(value.debugDescription) → \(age)") }
        }
        _ = CachedResponse.varyNames(value)
        checkRequestTarget(value)
    }
    checkCacheControl(lines)
    checkFields(bytes, lines: lines)
    checkLines(bytes)
    return 0
}

/// A URL given whole or a `Location` (untrusted): what goes on the request line holds only bytes
/// a URL may carry (no space, no control, no non-ASCII), its `%` always starts an escape, and
/// normalizing again changes nothing.
private func checkRequestTarget(_ value: String) {
    let target = RequestTarget.normalized(value)
    let reference = RequestTarget.reference(value)
    // A reference's authority is Foundation's to parse (IPv6, international names): checked only
    // for an absolute path, which has none.
    let absolutePath = value.hasPrefix("/") && !value.hasPrefix("//")
    for text in absolutePath ? [target, reference] : [target] {
        let bytes = Array(text.utf8)
        for (index, byte) in bytes.enumerated() {
            guard byte > 0x20, byte < 0x7F, byte != UInt8(ascii: "#") else {
                fuzzFailure("RequestTarget(\(value.debugDescription)) sends byte \(byte) in \(text.debugDescription)")
            }
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, bytes[index + 1].isHexDigit, bytes[index + 2].isHexDigit else {
                    fuzzFailure("RequestTarget(\(value.debugDescription)): a bare % in \(text.debugDescription)")
                }
            }
        }
    }
    guard RequestTarget.normalized(target) == target else { fuzzFailure("RequestTarget.normalized not idempotent on \(value.debugDescription)") }
}

/// Content-Range: what it returns is a range a download can add one to and compare, never a
/// trap: first ≤ last < Int64.max, last < total when both are known.
private func checkContentRange(_ value: String) {
    guard let range = ContentRange(value) else { return }
    if let first = range.first, let last = range.last {
        guard first >= 0, first <= last, last < Int64.max, range.total.map({ last < $0 }) ?? true else {
            fuzzFailure("ContentRange(\(value.debugDescription)) = \(first)-\(last)/\(String(describing: range.total))")
        }
        _ = last + 1
    } else {
        guard range.first == nil, range.last == nil, let total = range.total, total >= 0, total < Int64.max else {
            fuzzFailure("ContentRange(\(value.debugDescription)) without a range but total \(String(describing: range.total))")
        }
    }
}

/// Lines split from the bytes in pieces of any size: the same lines as split whole, none over
/// the limit, nothing lost but the line ends.
private func checkLines(_ bytes: [UInt8]) {
    let limit = 64
    let step = max(1, Int(bytes.last ?? 7) % 17)
    var whole = LineSplitter(limit: limit)
    var pieces = LineSplitter(limit: limit)
    var expected = try? whole.feed(bytes[...])
    if expected != nil {
        do { if let last = try whole.finish() { expected?.append(last) } } catch { expected = nil }
    }
    var got: [Data]? = []
    var index = 0
    while index < bytes.count {
        let end = min(bytes.count, index + step)
        guard let lines = try? pieces.feed(bytes[index..<end]) else {
            got = nil
            break
        }
        got?.append(contentsOf: lines)
        index = end
    }
    if got != nil {
        do { if let last = try pieces.finish() { got?.append(last) } } catch { got = nil }
    }
    if let lines = got, lines.contains(where: { $0.count > limit }) { fuzzFailure("a line over the limit") }
    // Split in pieces, a line over the limit may be refused earlier than split whole, never later.
    if let expected, let lines = got, lines != expected { fuzzFailure("lines differ when split in pieces of \(step)") }
    if expected == nil, got != nil { fuzzFailure("a line over the limit accepted in pieces of \(step)") }
}

/// Digits only, saturating at the cap, never a trap; agrees with Int parsing where that fits.
private func checkDigits(_ value: String) {
    for cap in [Int.max, WireNumber.maxDeltaSeconds, 86_400_000, 0, 7] {
        guard let number = WireNumber.digits(value, cap: cap) else { continue }
        guard number >= 0, number <= cap else { fuzzFailure("digits(\(value.debugDescription), cap: \(cap)) = \(number)") }
        let trimmed = value.trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
        guard trimmed.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), !trimmed.isEmpty else {
            fuzzFailure("digits accepted \(value.debugDescription) = \(number)")
        }
        if trimmed.utf8.count <= 18, let exact = Int(trimmed), min(exact, cap) != number {
            fuzzFailure("digits(\(value.debugDescription), cap: \(cap)) = \(number), expected \(min(exact, cap))")
        }
    }
    if let seconds = WireNumber.deltaSeconds(value), !(0...WireNumber.maxDeltaSeconds).contains(seconds) {
        fuzzFailure("deltaSeconds(\(value.debugDescription)) = \(seconds)")
    }
}

/// Retry-After as the retry middleware and the 429 mapping read it, and the error's messages
/// (the issue's crash was a trap in both).
private func checkRetryAfter(_ value: String) {
    var fields = HTTPFields()
    fields.append(HTTPField(name: .retryAfter, lenientValue: Array(value.utf8)))
    let response = HTTPResponse(status: .tooManyRequests, headerFields: fields)
    switch response.retryAfter {
    case .seconds(let seconds):
        guard (0...WireNumber.maxDeltaSeconds).contains(seconds) else { fuzzFailure("Retry-After \(value.debugDescription) → \(seconds) s") }
    case .absent, .unreadable: break
    }
    if let seconds = response.retryAfterSeconds, !(seconds >= 0 && seconds <= Double(WireNumber.maxDeltaSeconds)) {
        fuzzFailure("retryAfterSeconds \(value.debugDescription) → \(seconds)")
    }
    guard let error = StatusMapping.standard.error(for: response, body: Data(value.utf8)) else {
        fuzzFailure("429 mapped to success")
    }
    for language in NetworkError.MessageLanguage.allCases { _ = error.userMessage(in: language) }
    _ = error.log()
    _ = error.errorDescription
    // A server's own Retry-After as a Double from elsewhere (a user's value) must not trap either.
    for raw in [Double.nan, .infinity, -.infinity, 1e19, -1e19, 1e308, Double(value.utf8.count) * 1e17] {
        let error = NetworkError.rateLimited(retryAfter: raw)
        for language in NetworkError.MessageLanguage.allCases { _ = error.userMessage(in: language) }
    }
}

/// HTTPDate: a date it reads is a whole second, and written back in each of the three forms
/// (by this file's own formatter) reads as the same instant — the fast IMF-fixdate path and the
/// general path agree.
private func checkDate(_ value: String) {
    guard let date = HTTPDate.parse(value) else { return }
    let seconds = date.timeIntervalSince1970
    guard seconds.isFinite, seconds.rounded(.down) == seconds, abs(seconds) < 1e12 else {
        fuzzFailure("HTTPDate.parse(\(value.debugDescription)) = \(seconds)")
    }
    let whole = Int(seconds)
    let days = Int((Double(whole) / 86_400).rounded(.down))
    let second = whole - days * 86_400
    let (year, month, day) = civilFromDays(days)
    guard (1...9999).contains(year) else { return }
    let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
    let weekday = weekdays[((days % 7) + 7) % 7]
    let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    func two(_ number: Int) -> String { number < 10 ? "0\(number)" : "\(number)" }
    func four(_ number: Int) -> String { String(repeating: "0", count: 4 - String(number).count) + String(number) }
    let clock = "\(two(second / 3600)):\(two(second / 60 % 60)):\(two(second % 60))"
    var forms = [
        "\(weekday), \(two(day)) \(months[month - 1]) \(four(year)) \(clock) GMT",  // IMF-fixdate (fast path)
        "\(weekday) \(months[month - 1]) \(day < 10 ? " \(day)" : "\(day)") \(clock) \(four(year))",  // asctime
    ]
    if (1970...2069).contains(year) {
        let longDays = ["Thursday", "Friday", "Saturday", "Sunday", "Monday", "Tuesday", "Wednesday"]
        forms.append("\(longDays[((days % 7) + 7) % 7]), \(two(day))-\(months[month - 1])-\(two(year % 100)) \(clock) GMT")  // RFC 850
    }
    for form in forms where HTTPDate.parse(form) != date {
        fuzzFailure(
            "HTTPDate.parse(\(value.debugDescription)) = \(date) but \(form.debugDescription) reads as \(String(describing: HTTPDate.parse(form)))")
    }
}

/// Days since 1970-01-01 → proleptic Gregorian date (Hinnant's civil_from_days: the inverse of the
/// parser's days_from_civil, written independently).
private func civilFromDays(_ daysSinceEpoch: Int) -> (year: Int, month: Int, day: Int) {
    let z = daysSinceEpoch + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let day = doy - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
}

/// Cache-Control: every number is non-negative delta-seconds capped at 2³¹ (or nil / invalid).
private func checkCacheControl(_ values: [String]) {
    let directives = CacheControl(values)
    let numbers: [(String, Double?)] = [
        ("max-age", directives.maxAge), ("min-fresh", directives.minFresh), ("stale-while-revalidate", directives.staleWhileRevalidate),
        ("stale-if-error", directives.staleIfError), ("s-maxage", directives.seconds("s-maxage")),
    ]
    for (name, number) in numbers {
        if let number, !(number >= 0 && number <= 2_147_483_648) { fuzzFailure("\(name) of \(values) = \(number)") }
    }
    if let maxStale = directives.maxStale, !(maxStale >= 0) { fuzzFailure("max-stale of \(values) = \(maxStale)") }
    _ = (
        directives.noStore, directives.noCache, directives.mustRevalidate, directives.isPublic, directives.isPrivate,
        directives.onlyIfCached, directives.immutable
    )
    for name in directives.directives.keys where name != name.lowercased() || name.isEmpty {
        fuzzFailure("directive name \(name.debugDescription) not lowercased")
    }
}

/// Byte ranges: a range it returns lies inside the body.
private func checkByteRange(_ value: String, byteSeed: UInt8) {
    for length in [1, 2, 100, 65_536, Int.max, Int(byteSeed) + 1] {
        guard let range = ByteRange(value, length: length) else { continue }
        guard range.first >= 0, range.first <= range.last, range.last < length else {
            fuzzFailure("ByteRange(\(value.debugDescription), length: \(length)) = \(range.first)-\(range.last)")
        }
    }
}

/// The lines as header fields of a stored response and of a request: freshness, storability and
/// Vary matching never trap and stay sane.
private func checkFields(_ bytes: [UInt8], lines: [String]) {
    let offset = Int(bytes.first ?? 0)
    var responseFields = HTTPFields()
    var requestFields = HTTPFields()
    for (index, line) in lines.enumerated() {
        let name = fieldNames[(offset + index) % fieldNames.count]
        responseFields.append(HTTPField(name: name, lenientValue: Array(line.utf8)))
        requestFields.append(HTTPField(name: fieldNames[(offset + index * 7 + 3) % fieldNames.count], lenientValue: Array(line.utf8)))
    }
    let status = [200, 203, 206, 304, 404, 500, 599][offset % 7]
    let response = HTTPResponse(status: .init(code: status), headerFields: responseFields)
    let request = HTTPRequest(method: .get, scheme: "https", authority: "example.com", path: "/", headerFields: requestFields)
    let requestTime = fixedNow.addingTimeInterval(-Double(offset))
    let vary = responseFields[values: .vary].joined(separator: ", ")
    let entry = CachedResponse(
        url: "https://example.com/", head: response, body: Data(), requestTime: requestTime, responseTime: fixedNow,
        varyValues: CachedResponse.varyValues(requestFields, vary: vary.isEmpty ? nil : vary))
    for now in [fixedNow, fixedNow.addingTimeInterval(86_400 * 365), Date(timeIntervalSince1970: 0)] {
        let age = entry.age(at: now)
        // The cache serves `Int(min(age, 2³¹).rounded(.down))` as Age: NaN or -∞ would trap there.
        guard age >= 0, !age.isNaN else { fuzzFailure("age \(age) for \(lines)") }
        let freshness = CacheFreshness(entry, now: now)
        guard freshness.lifetime >= 0, !freshness.lifetime.isNaN else { fuzzFailure("lifetime \(freshness.lifetime) for \(lines)") }
        _ = (entry.isFresh(at: now), freshness.staleness)
    }
    _ = entry.matches(requestFields)
    _ = entry.head
    _ = CacheStorability.isStorable(request, response, requestDirectives: CacheControl(requestFields))
}

extension UInt8 {
    fileprivate var isHexDigit: Bool {
        (0x30...0x39).contains(self) || (0x61...0x66).contains(self | 0x20)
    }
}
