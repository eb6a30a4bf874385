import Courier
import CourierTransportCore
import Foundation

/// A `Content-Range` answer field (RFC 9110 §14.4): `bytes FIRST-LAST/TOTAL`, `bytes FIRST-LAST/*`
/// or, on a 416, `bytes */TOTAL`. Numbers are read as wire numbers (digits only, saturating).
struct ContentRange: Equatable {
    /// The first and last byte offsets sent; nil for `*` (a 416).
    var first: Int64?
    var last: Int64?
    /// The whole representation's length; nil for `*`.
    var total: Int64?

    init?(_ value: String) {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        guard trimmed.lowercased().hasPrefix("bytes ") else { return nil }
        let spec = trimmed.dropFirst(6)
        guard let slash = spec.firstIndex(of: "/") else { return nil }
        let range = spec[..<slash].trimmingCharacters(in: .whitespaces)
        let total = spec[spec.index(after: slash)...].trimmingCharacters(in: .whitespaces)
        if total == "*" {
            self.total = nil
        } else {
            guard let number = WireNumber.digits(total), number < Int.max else { return nil }
            self.total = Int64(number)
        }
        if range == "*" {
            guard self.total != nil else { return nil }
            first = nil
            last = nil
        } else {
            guard let dash = range.firstIndex(of: "-"), let from = WireNumber.digits(range[..<dash]),
                let to = WireNumber.digits(range[range.index(after: dash)...]), from <= to, to < Int.max
            else { return nil }
            first = Int64(from)
            last = Int64(to)
            if let whole = self.total, Int64(to) >= whole { return nil }
        }
    }
}
