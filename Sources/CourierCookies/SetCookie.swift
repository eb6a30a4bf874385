import Courier
import CourierTransportCore
import Foundation

/// One `Set-Cookie` field value parsed as RFC 6265 §5.2 says: the name and value before the first
/// `;`, then attributes, each `name=value` or a bare name, names in any case, the last of each kind
/// winning. Unknown attributes are ignored; so is a field without `=` in its first part or with an
/// empty name (RFC 6265; 6265bis would keep a nameless cookie, which the IETF suite does not).
struct SetCookie: Equatable {
    var name: String
    var value: String
    /// The last valid `Expires`.
    var expires: Date?
    /// The last valid `Max-Age`, in seconds (a value ≤ 0 expires the cookie).
    var maxAge: Int64?
    /// The last non-empty `Domain`, leading dot removed, lowercase.
    var domain: String?
    /// The last `Path` that starts with `/` (another sets the default path: nil here).
    var path: String?
    var secure = false
    var httpOnly = false
    var sameSite: String?

    /// The most bytes of name and value together (RFC 6265bis §5.6); a longer cookie is ignored.
    static let maxNameValueBytes = 4096
    /// The most bytes of one attribute's value; a longer attribute is ignored.
    static let maxAttributeBytes = 1024

    /// Parses `field`; nil when it is to be ignored whole.
    init?(_ field: String) {
        // RFC 6265bis §5.6 step 1: control characters (but tab) anywhere refuse the field.
        guard !field.utf8.contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) else { return nil }
        let pairEnd = field.firstIndex(of: ";") ?? field.endIndex
        let pair = field[..<pairEnd]
        guard let equals = pair.firstIndex(of: "=") else { return nil }
        name = Self.trimmed(pair[..<equals])
        value = Self.trimmed(pair[pair.index(after: equals)...])
        guard !name.isEmpty, name.utf8.count + value.utf8.count <= Self.maxNameValueBytes else { return nil }
        guard pairEnd < field.endIndex else { return }
        for attribute in field[field.index(after: pairEnd)...].split(separator: ";", omittingEmptySubsequences: false) {
            let (key, text): (String, String)
            if let equals = attribute.firstIndex(of: "=") {
                key = Self.trimmed(attribute[..<equals]).lowercased()
                text = Self.trimmed(attribute[attribute.index(after: equals)...])
            } else {
                key = Self.trimmed(attribute).lowercased()
                text = ""
            }
            guard text.utf8.count <= Self.maxAttributeBytes else { continue }
            apply(key, text)
        }
    }

    private mutating func apply(_ key: String, _ text: String) {
        switch key {
        case "expires":
            if let date = CookieDate.parse(text) { expires = date }
        case "max-age":
            guard let first = text.utf8.first, first == UInt8(ascii: "-") || (0x30...0x39).contains(first) else { return }
            let digits = first == UInt8(ascii: "-") ? text.utf8.dropFirst() : text.utf8[...]
            guard !digits.isEmpty, digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return }
            // Saturating: a huge number is a far expiry (the 400-day cap then applies), never an overflow.
            let magnitude = digits.reduce(Int64(0)) { total, digit in
                let (times, overflow) = total.multipliedReportingOverflow(by: 10)
                return overflow ? Int64.max : times.addingReportingOverflow(Int64(digit - 0x30)).overflow ? Int64.max : times + Int64(digit - 0x30)
            }
            maxAge = first == UInt8(ascii: "-") ? -magnitude : magnitude
        case "domain":
            guard !text.isEmpty else { return }
            domain = (text.hasPrefix(".") ? String(text.dropFirst()) : text).lowercased()
        case "path":
            path = text.hasPrefix("/") ? text : nil
        case "secure":
            secure = true
        case "httponly":
            httpOnly = true
        case "samesite":
            let known = ["strict": "Strict", "lax": "Lax", "none": "None"]
            sameSite = known[text.lowercased()] ?? sameSite
        default:
            break
        }
    }

    /// `text` without leading and trailing spaces and tabs (RFC 6265's WSP).
    private static func trimmed(_ text: Substring) -> String {
        String(text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
