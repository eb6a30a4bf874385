import Foundation

/// RFC 3986 percent-encoding. Only the unreserved characters (`A–Z a–z 0–9 - . _ ~`) stay as
/// they are, so `+`, `&`, `=`, `/`, spaces, Korean text and emoji all survive a round trip
/// whatever the server's parser does with `+`.
package enum PercentEncoding {
    /// Percent-encodes `text` for use as one query name/value or one path segment.
    package static func encode(_ text: String) -> String {
        var out = [UInt8]()
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isUnreserved(byte) {
                out.append(byte)
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0x0F)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `name=value&…` with each name and value encoded; keys sorted for stable URLs, arrays as repeated keys.
    package static func query(_ parameters: RequestParameters) -> String {
        var parts: [String] = []
        for key in parameters.keys.sorted() {
            guard let value = parameters[key] else { continue }
            for item in flatten(value) {
                parts.append(encode(key) + "=" + encode(item))
            }
        }
        return parts.joined(separator: "&")
    }

    /// The text form of a parameter value (arrays give several).
    static func flatten(_ value: Any) -> [String] {
        switch value {
        case let array as [Any]: return array.flatMap(flatten)
        case let bool as Bool: return [bool ? "true" : "false"]
        case let string as String: return [string]
        case let optional as any OptionalParameter:
            return optional.wrappedParameter.map(flatten) ?? []
        default: return ["\(value)"]
        }
    }

    private static let hex = Array("0123456789ABCDEF".utf8)

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "_"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }
}

/// Lets `nil` parameters be left out instead of rendered as "nil".
protocol OptionalParameter {
    var wrappedParameter: Any? { get }
}

extension Optional: OptionalParameter {
    var wrappedParameter: Any? {
        switch self {
        case .some(let value): value
        case .none: nil
        }
    }
}
