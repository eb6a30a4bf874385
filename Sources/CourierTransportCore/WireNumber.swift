/// Numbers read from the network: ASCII digits only, saturating at a cap instead of trapping.
///
/// Every number a server sends (`Retry-After`, `Age`, `max-age`, `Content-Length`, SSE `retry:`,
/// sizes in API answers) is hostile until parsed: `1e19`, `inf`, twenty digits or `-1` must not
/// become a trap in a conversion. Nothing here goes through `Double`, so no untrusted
/// floating-point value is ever converted to an integer.
package enum WireNumber {
    /// The cap for delta-seconds values (RFC 9111 §1.2.2: 2³¹ seconds, about 68 years).
    package static let maxDeltaSeconds = 2_147_483_648

    /// The value of `text` when it is one or more ASCII digits (surrounding spaces and tabs
    /// allowed), at most `cap`; nil for anything else — a sign, a decimal point, an exponent,
    /// letters, or nothing. More digits than fit saturate at `cap`.
    package static func digits(_ text: some StringProtocol, cap: Int = .max) -> Int? {
        var value = 0
        var seen = false
        var trailing = false
        for byte in text.utf8 {
            switch byte {
            case 0x30...0x39:
                guard !trailing else { return nil }
                seen = true
                // Saturate: once past the cap, later digits only keep it there.
                let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
                let (plus, overflow2) = times.addingReportingOverflow(Int(byte &- 0x30))
                value = overflow1 || overflow2 ? cap : min(plus, cap)
            case 0x20, 0x09:
                if seen { trailing = true }
            default:
                return nil
            }
        }
        return seen ? min(value, cap) : nil
    }

    /// Delta-seconds (`Retry-After`, `Age`, `max-age` …): digits capped at ``maxDeltaSeconds``.
    package static func deltaSeconds(_ text: some StringProtocol) -> Int? {
        digits(text, cap: maxDeltaSeconds)
    }

    /// `value` as an `Int`, saturating at the bounds and 0 for NaN — for a `Double` that came from
    /// outside (a user's value, an answer's field) and must be shown or compared as an integer.
    package static func saturating(_ value: Double) -> Int {
        if value.isNaN { return 0 }
        if value >= 9.2e18 { return .max }
        if value <= -9.2e18 { return .min }
        return Int(value)
    }
}
