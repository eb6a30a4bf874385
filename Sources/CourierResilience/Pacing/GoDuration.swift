/// Durations in Go's `time.Duration` text form, as OpenAI sends its resets: `850ms`, `1.2s`,
/// `6m0s`, `1h2m3.5s` (units `h`, `m`, `s`, `ms`, `us`/`µs`, `ns`). Integer arithmetic only, every
/// step saturating at ``RateLimitHeaders/maxReset``: a huge value is capped, never a trap.
enum GoDuration {
    static func parse(_ text: String) -> Duration? {
        let bytes = Array(text.trimmingSpaces.utf8)
        guard !bytes.isEmpty, bytes.count <= 64 else { return nil }
        if bytes == [0x30] { return .zero }  // "0" is the one value Go writes without a unit
        let cap = RateLimitHeaders.maxReset.components.seconds * 1_000_000_000
        var total: Int64 = 0
        var index = 0
        while index < bytes.count {
            var whole: Int64 = 0
            var digits = 0
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) {
                whole = min(cap, whole &* 10 &+ Int64(bytes[index] - 0x30))
                digits += 1
                index += 1
            }
            var fraction: Int64 = 0
            var fractionDigits = 0
            if index < bytes.count, bytes[index] == 0x2E {
                index += 1
                while index < bytes.count, (0x30...0x39).contains(bytes[index]) {
                    if fractionDigits < 9 {
                        fraction = fraction * 10 + Int64(bytes[index] - 0x30)
                        fractionDigits += 1
                    }
                    digits += 1
                    index += 1
                }
            }
            guard digits > 0, let (unit, length) = unit(bytes, at: index) else { return nil }
            index += length
            var scale: Int64 = 1
            for _ in 0..<fractionDigits { scale *= 10 }
            let (product, overflow) = whole.multipliedReportingOverflow(by: unit)
            let part = overflow ? cap : min(cap, min(cap, product) + (unit / scale) * fraction)
            total = min(cap, total + part)
        }
        return .nanoseconds(total)
    }

    /// The unit at `index` in nanoseconds, and its length in bytes.
    private static func unit(_ bytes: [UInt8], at index: Int) -> (Int64, Int)? {
        let rest = bytes[index...]
        if rest.starts(with: Array("ms".utf8)) { return (1_000_000, 2) }
        if rest.starts(with: Array("us".utf8)) { return (1_000, 2) }
        if rest.starts(with: Array("µs".utf8)) { return (1_000, "µs".utf8.count) }
        if rest.starts(with: Array("ns".utf8)) { return (1, 2) }
        switch rest.first {
        case UInt8(ascii: "h"): return (3_600_000_000_000, 1)
        case UInt8(ascii: "m"): return (60_000_000_000, 1)
        case UInt8(ascii: "s"): return (1_000_000_000, 1)
        default: return nil
        }
    }
}
