import Courier
import CourierTransportCore
import Foundation

/// One satisfiable byte range of a `Range: bytes=…` request field (RFC 9110 §14.1.2), for
/// answering it from a stored complete response.
struct ByteRange: Equatable {
    /// First byte offset.
    let first: Int
    /// Last byte offset (inclusive).
    let last: Int

    /// The single range `value` asks for within `length` bytes; nil for several ranges, another
    /// unit, a malformed or an unsatisfiable range (the request then goes to the origin).
    init?(_ value: String, length: Int) {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        guard trimmed.lowercased().hasPrefix("bytes="), length > 0 else { return nil }
        let spec = trimmed.dropFirst(6).trimmingCharacters(in: .whitespaces)
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return nil }
        let start = spec[..<dash].trimmingCharacters(in: .whitespaces)
        let end = spec[spec.index(after: dash)...].trimmingCharacters(in: .whitespaces)
        guard start.allSatisfy(\.isASCIIDigitCharacter), end.allSatisfy(\.isASCIIDigitCharacter) else { return nil }
        if start.isEmpty {
            guard let suffix = Int(end), suffix > 0 else { return nil }
            first = max(0, length - suffix)
            last = length - 1
        } else {
            guard let from = Int(start), from < length else { return nil }
            let to = end.isEmpty ? length - 1 : Int(end) ?? -1
            guard to >= from else { return nil }
            first = from
            last = min(to, length - 1)
        }
    }
}
