import Foundation

/// The value decoded so far, as a tree whose rightmost path may still be open: what a
/// ``SnapshotMark`` replays into when a snapshot is read. Complete children are shared, not copied.
indirect enum SnapshotNode: Sendable {
    case complete(JSONValue)
    /// A string still being read: its bytes so far.
    case openString([UInt8])
    /// An array still being read: its complete elements, then the open one, if any.
    case openArray([JSONValue], last: SnapshotNode?)
    /// An object still being read: its complete members, then the open one, if any.
    case openObject([JSONMember], lastKey: String?, last: SnapshotNode?)

    /// The value with every open string, array and object closed where it stands.
    var closedValue: JSONValue {
        switch self {
        case .complete(let value): return value
        case .openString(let bytes): return .string(Self.decodedPrefix(bytes))
        case .openArray(let elements, let last):
            guard let last else { return .array(elements) }
            return .array(elements + [last.closedValue])
        case .openObject(let members, let key, let last):
            guard let key, let last else { return .object(members) }
            return .object(members + [JSONMember(key: key, value: last.closedValue)])
        }
    }

    /// The text of the bytes of an open string, without a trailing incomplete UTF-8 sequence
    /// (it may be completed by the next bytes).
    static func decodedPrefix(_ bytes: [UInt8]) -> String {
        var end = bytes.count
        var back = 0
        while back < 4, end - back - 1 >= 0 {
            let byte = bytes[end - back - 1]
            back += 1
            guard byte & 0xC0 == 0x80 else {
                let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
                if length > back { end -= back }
                break
            }
        }
        return String(decoding: bytes[0..<end], as: UTF8.self)
    }

    /// Compact JSON text, and how many of its last bytes close values that are still open.
    func compactText() -> (text: String, openClosers: Int) {
        var writer = JSONWriter()
        var closers: [UInt8] = []
        write(&writer, &closers)
        writer.bytes.append(contentsOf: closers.reversed())
        return (String(decoding: writer.bytes, as: UTF8.self), closers.count)
    }

    private func write(_ writer: inout JSONWriter, _ closers: inout [UInt8]) {
        switch self {
        case .complete(let value):
            writer.write(value)
        case .openString(let bytes):
            writer.writeString(Self.decodedPrefix(bytes))
            writer.bytes.removeLast()
            closers.append(UInt8(ascii: "\""))
        case .openArray(let elements, let last):
            writer.write(.array(elements))
            writer.bytes.removeLast()
            closers.append(UInt8(ascii: "]"))
            if let last {
                if !elements.isEmpty { writer.bytes.append(UInt8(ascii: ",")) }
                last.write(&writer, &closers)
            }
        case .openObject(let members, let key, let last):
            writer.write(.object(members))
            writer.bytes.removeLast()
            closers.append(UInt8(ascii: "}"))
            if let key, let last {
                if !members.isEmpty { writer.bytes.append(UInt8(ascii: ",")) }
                writer.writeString(key)
                writer.bytes.append(UInt8(ascii: ":"))
                last.write(&writer, &closers)
            }
        }
    }
}

extension SnapshotNode {
    /// Whether this value grows `earlier` without changing it (see `JSONSnapshot.extends`).
    func extends(_ earlier: SnapshotNode) -> Bool {
        // The common case at the end of an answer: the final value is the one shown, complete.
        // Values with the same bytes write the same text, without writing it.
        if case .complete(let value) = self, case .complete(let old) = earlier, Self.sameBytes(value, old) { return true }
        let (old, closers) = earlier.compactText()
        let oldBytes = Array(old.utf8)
        let settled = Array(oldBytes.dropLast(closers))
        // Inside an open string any byte may follow; after a number or literal, only a delimiter.
        if closers > 0, oldBytes[settled.count] == ByteClass.quote { return compactText().text.utf8.starts(with: settled) }
        let new = Array(compactText().text.utf8)
        guard new.count >= settled.count, new[0..<settled.count].elementsEqual(settled) else { return false }
        guard let last = settled.last, ByteClass.isWordByte(last) || last == UInt8(ascii: ".") else { return true }
        guard settled.count < new.count else { return true }
        let next = new[settled.count]
        return !(ByteClass.isWordByte(next) || next == UInt8(ascii: ".") || next == UInt8(ascii: "-") || next == UInt8(ascii: "+"))
    }

    /// Whether two values are the same bytes (strings compared as UTF-8, not as Unicode
    /// canonical equivalence as `==` compares them): then their compact texts are equal.
    private static func sameBytes(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.object(let left), .object(let right)):
            guard left.count == right.count else { return false }
            // The same storage (a value compared with itself: the final value is the one shown).
            if sameStorage(left, right) { return true }
            for (a, b) in zip(left, right) {
                guard a.isOrphanGroup == b.isOrphanGroup, sameUTF8(a.key, b.key), sameBytes(a.value, b.value) else {
                    return false
                }
            }
            return true
        case (.array(let left), .array(let right)):
            guard left.count == right.count else { return false }
            return sameStorage(left, right) || zip(left, right).allSatisfy { sameBytes($0, $1) }
        case (.string(let left), .string(let right)), (.number(let left), .number(let right)):
            return sameUTF8(left, right)
        case (.bool(let left), .bool(let right)):
            return left == right
        case (.null, .null):
            return true
        default:
            return false
        }
    }

    /// Whether two arrays of the same count share their storage (then their elements are the same).
    private static func sameStorage<Element>(_ lhs: [Element], _ rhs: [Element]) -> Bool {
        lhs.withUnsafeBufferPointer { left in rhs.withUnsafeBufferPointer { right in left.baseAddress == right.baseAddress } }
    }

    /// Whether two strings have the same UTF-8 bytes: compared in place (`memcmp`), not byte
    /// by byte through the UTF-8 view.
    private static func sameUTF8(_ lhs: String, _ rhs: String) -> Bool {
        guard lhs.utf8.count == rhs.utf8.count else { return false }
        // Native strings lend their bytes without a copy of the string (which costs a retain).
        let inPlace = lhs.utf8.withContiguousStorageIfAvailable { left in
            rhs.utf8.withContiguousStorageIfAvailable { right in
                guard let leftBase = left.baseAddress, let rightBase = right.baseAddress else { return true }
                return memcmp(leftBase, rightBase, left.count) == 0
            }
        }
        if let inPlace, let same = inPlace { return same }
        var lhs = lhs
        var rhs = rhs
        return lhs.withUTF8 { left in
            rhs.withUTF8 { right in
                guard let leftBase = left.baseAddress, let rightBase = right.baseAddress else { return true }
                return memcmp(leftBase, rightBase, left.count) == 0
            }
        }
    }
}
