import Foundation

extension TolerantParser {
    /// Literal words accepted as values, with their JSON meaning.
    static let literals: [String: JSONValue] = [
        "true": .bool(true), "false": .bool(false), "null": .null,
        "True": .bool(true), "False": .bool(false), "TRUE": .bool(true), "FALSE": .bool(false),
        "None": .null, "NULL": .null, "Null": .null, "nil": .null, "undefined": .null,
        "NaN": .null, "Infinity": .null,
    ]

    mutating func parseLiteral() -> Parsed? {
        let start = pos
        while pos < end, ByteClass.isASCIILetter(bytes[pos]) { pos += 1 }
        if pos < end, ByteClass.isWordByte(bytes[pos]) { return nil }
        let word = String(decoding: bytes[start..<pos], as: UTF8.self)
        if let value = Self.literals[word] {
            if word != "true" && word != "false" && word != "null" { note(.convertedLiteral(word)) }
            return .value(value)
        }
        if pos >= end, let full = ["true", "false", "null"].first(where: { $0.hasPrefix(word) }) {
            rules.noteTruncated()
            return Self.literals[full].map { .value($0) }
        }
        return nil
    }

    /// An unquoted text value after `key:` — up to the next `,`, `}`, `]` or line end.
    mutating func parseBareValue() -> Parsed? {
        let start = pos
        guard pos < end, ByteClass.isWordByte(bytes[pos]), !source.isSmartQuote(at: pos) else { return nil }
        while pos < end {
            let byte = bytes[pos]
            if byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") || byte == ByteClass.newline
                || byte == ByteClass.quote || byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[")
            {
                break
            }
            pos += 1
        }
        var stop = pos
        while stop > start, ByteClass.isSpace(bytes[stop - 1]) { stop -= 1 }
        guard stop > start, pos < end, bytes[pos] != ByteClass.quote, bytes[pos] != UInt8(ascii: "{"),
            bytes[pos] != UInt8(ascii: "[")
        else {
            pos = start
            return nil
        }
        note(.quotedValue)
        return .value(.string(String(decoding: bytes[start..<stop], as: UTF8.self)))
    }

    mutating func parseNumber() -> Parsed? {
        let start = pos
        var text: [UInt8] = []
        var changed = false
        if bytes[pos] == UInt8(ascii: "+") {
            changed = true
            pos += 1
        } else if bytes[pos] == UInt8(ascii: "-") {
            text.append(UInt8(ascii: "-"))
            pos += 1
        }
        guard pos < end else {
            rules.noteTruncated()
            return .missing
        }
        if ByteClass.isASCIILetter(bytes[pos]) {
            guard let literal = parseLiteral(), case .value(.null) = literal else { return nil }
            return literal
        }
        let intStart = pos
        while pos < end, ByteClass.isDigit(bytes[pos]) { pos += 1 }
        if pos == intStart {
            guard pos < end, bytes[pos] == UInt8(ascii: "."), pos + 1 < end, ByteClass.isDigit(bytes[pos + 1]) else { return nil }
            text.append(UInt8(ascii: "0"))
            changed = true
        } else {
            var firstSignificant = intStart
            while firstSignificant < pos - 1, bytes[firstSignificant] == UInt8(ascii: "0") { firstSignificant += 1 }
            if firstSignificant > intStart { changed = true }
            text.append(contentsOf: bytes[firstSignificant..<pos])
        }
        if pos < end, bytes[pos] == UInt8(ascii: ".") {
            var cursor = pos + 1
            while cursor < end, ByteClass.isDigit(bytes[cursor]) { cursor += 1 }
            if cursor > pos + 1 { text.append(contentsOf: bytes[pos..<cursor]) } else { changed = true }
            pos = cursor
        }
        if pos < end, bytes[pos] == UInt8(ascii: "e") || bytes[pos] == UInt8(ascii: "E") {
            var cursor = pos + 1
            if cursor < end, bytes[cursor] == UInt8(ascii: "+") || bytes[cursor] == UInt8(ascii: "-") { cursor += 1 }
            let digits = cursor
            while cursor < end, ByteClass.isDigit(bytes[cursor]) { cursor += 1 }
            if cursor > digits { text.append(contentsOf: bytes[pos..<cursor]) } else { changed = true }
            pos = cursor
            if let value = Double(String(decoding: text, as: UTF8.self)), !value.isFinite {
                if pos < end, ByteClass.isWordByte(bytes[pos]) || bytes[pos] == UInt8(ascii: ".") { return nil }
                note(.normalizedNumber(String(decoding: bytes[start..<pos], as: UTF8.self)))
                return .value(.null)
            }
        }
        if pos < end, ByteClass.isWordByte(bytes[pos]) || bytes[pos] == UInt8(ascii: ".") { return nil }
        if changed { note(.normalizedNumber(String(decoding: bytes[start..<pos], as: UTF8.self))) }
        return .value(.number(String(decoding: text, as: UTF8.self)))
    }
}
