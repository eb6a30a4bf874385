import Foundation

/// One member of a parsed JSON object. An orphan group holds objects that appeared where a
/// key was expected; its key is decided later from the expected shape.
struct JSONMember: Sendable, Equatable {
    var key: String
    var value: JSONValue
    var isOrphanGroup: Bool = false
}

/// A parsed JSON value that keeps object keys in their original order.
enum JSONValue: Sendable, Equatable {
    case object([JSONMember])
    case array([JSONValue])
    case string(String)
    case number(String)
    case bool(Bool)
    case null

    /// Whether this is an object or an array.
    var isContainer: Bool {
        switch self {
        case .object, .array: return true
        default: return false
        }
    }

    /// The value of the first member named `key`, if this is an object.
    subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key && !$0.isOrphanGroup }?.value
    }

    /// Compact JSON text for this value.
    func compactText(capacity: Int = 64) -> String {
        var writer = JSONWriter()
        writer.bytes.reserveCapacity(capacity)
        writer.write(self)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// Compact JSON bytes for this value.
    func compactData(capacity: Int = 64) -> Data {
        var writer = JSONWriter()
        writer.bytes.reserveCapacity(capacity)
        writer.write(self)
        return Data(writer.bytes)
    }
}

/// Serialises a `JSONValue` to compact UTF-8 JSON.
struct JSONWriter {
    var bytes: [UInt8] = []

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    mutating func write(_ value: JSONValue) {
        switch value {
        case .null: bytes.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C])
        case .bool(let flag):
            if flag { bytes.append(contentsOf: [0x74, 0x72, 0x75, 0x65]) } else { bytes.append(contentsOf: [0x66, 0x61, 0x6C, 0x73, 0x65]) }
        case .number(let text): bytes.append(contentsOf: text.utf8)
        case .string(let text): writeString(text)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                write(element)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                writeString(member.key)
                bytes.append(UInt8(ascii: ":"))
                write(member.value)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    mutating func writeString(_ text: String) {
        var text = text
        text.withUTF8 { buffer in
            bytes.append(UInt8(ascii: "\""))
            var runStart = 0
            for index in 0..<buffer.count {
                let byte = buffer[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                if index > runStart { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[runStart..<index])) }
                runStart = index + 1
                switch byte {
                case UInt8(ascii: "\""): bytes.append(contentsOf: [0x5C, 0x22])
                case UInt8(ascii: "\\"): bytes.append(contentsOf: [0x5C, 0x5C])
                case 0x0A: bytes.append(contentsOf: [0x5C, 0x6E])
                case 0x0D: bytes.append(contentsOf: [0x5C, 0x72])
                case 0x09: bytes.append(contentsOf: [0x5C, 0x74])
                case 0x08: bytes.append(contentsOf: [0x5C, 0x62])
                case 0x0C: bytes.append(contentsOf: [0x5C, 0x66])
                default:
                    bytes.append(contentsOf: [0x5C, 0x75, 0x30, 0x30])
                    bytes.append(Self.hex[Int(byte >> 4)])
                    bytes.append(Self.hex[Int(byte & 0x0F)])
                }
            }
            if buffer.count > runStart { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[runStart..<buffer.count])) }
            bytes.append(UInt8(ascii: "\""))
        }
    }
}
