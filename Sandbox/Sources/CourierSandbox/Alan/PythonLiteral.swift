/// Python's `repr` of strings and dicts — what the Alan service puts in its SSE frames
/// (`{'type': 'continue', 'data': {'content': '안'}}`), not JSON.
enum PythonLiteral {
    /// `text` as Python writes a `str`: single quotes, unless the text holds `'` and no `"`;
    /// backslash, the quote, `\n`, `\r`, `\t` and other control characters escaped.
    static func string(_ text: String) -> String {
        let quote: Unicode.Scalar = text.contains("'") && !text.contains("\"") ? "\"" : "'"
        var out = String(quote)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case quote: out += "\\" + String(quote)
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\x" + (hex.count < 2 ? "0" + hex : hex)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out.unicodeScalars.append(quote)
        return out
    }

    /// A dict of string keys in the given order; values are strings or nested dicts.
    static func dict(_ pairs: [(String, Value)]) -> String {
        "{" + pairs.map { "\(string($0.0)): \($0.1.literal)" }.joined(separator: ", ") + "}"
    }

    /// A dict value.
    enum Value {
        case text(String)
        case dict([(String, Value)])

        var literal: String {
            switch self {
            case .text(let text): PythonLiteral.string(text)
            case .dict(let pairs): PythonLiteral.dict(pairs)
            }
        }
    }
}
