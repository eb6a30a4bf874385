import Foundation

/// The `Decoder` used by `ShapeRecorder`.
struct RecordingDecoder: Decoder {
    let node: ShapeNode
    let depth: Int
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(node: ShapeNode, depth: Int) {
        self.node = node
        self.depth = depth
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        if case .unknown = node.kind { node.kind = .object }
        return KeyedDecodingContainer(RecordingKeyedContainer<Key>(node: node, depth: depth))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        RecordingUnkeyedContainer(item: node.itemNode(), depth: depth)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        RecordingSingleValueContainer(node: node, depth: depth)
    }
}

/// Placeholder values for the primitive types, with their shapes.
enum Placeholder {
    static func value<T>(_ type: T.Type) -> (T, Shape)? {
        switch type {
        case is String.Type: return ("" as? T).map { ($0, .string) }
        case is Bool.Type: return (false as? T).map { ($0, .bool) }
        case is Double.Type: return (Double(0) as? T).map { ($0, .number) }
        case is Float.Type: return (Float(0) as? T).map { ($0, .number) }
        case is Int.Type: return (Int(0) as? T).map { ($0, .integer) }
        case is Int8.Type: return (Int8(0) as? T).map { ($0, .integer) }
        case is Int16.Type: return (Int16(0) as? T).map { ($0, .integer) }
        case is Int32.Type: return (Int32(0) as? T).map { ($0, .integer) }
        case is Int64.Type: return (Int64(0) as? T).map { ($0, .integer) }
        case is UInt.Type: return (UInt(0) as? T).map { ($0, .integer) }
        case is UInt8.Type: return (UInt8(0) as? T).map { ($0, .integer) }
        case is UInt16.Type: return (UInt16(0) as? T).map { ($0, .integer) }
        case is UInt32.Type: return (UInt32(0) as? T).map { ($0, .integer) }
        case is UInt64.Type: return (UInt64(0) as? T).map { ($0, .integer) }
        default: return nil
        }
    }

    static func decode<T: Decodable>(_ type: T.Type, into node: ShapeNode, depth: Int) throws -> T {
        if let (value, shape) = value(type) {
            node.kind = .scalar(shape)
            return value
        }
        return try ShapeNode.placeholder(type, node: node, decoder: RecordingDecoder(node: node, depth: depth + 1))
    }
}

struct RecordingKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let node: ShapeNode
    let depth: Int
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { [] }

    func contains(_ key: Key) -> Bool { true }

    func decodeNil(forKey key: Key) throws -> Bool {
        _ = node.child(for: key.stringValue, optional: true)
        return false
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try Placeholder.decode(type, into: node.child(for: key.stringValue, optional: false), depth: depth)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        let child = node.child(for: key.stringValue, optional: true)
        if depth < ShapeRecorder.maxDepth {
            do {
                _ = try Placeholder.decode(type, into: child, depth: depth)
            } catch {
                child.markPartial()
            }
        }
        return nil
    }

    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decode(type as String.Type, key) }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decode(type as Bool.Type, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decode(type as Double.Type, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decode(type as Int.Type, key) }

    private func decode<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T {
        try Placeholder.decode(type, into: node.child(for: key.stringValue, optional: false), depth: depth)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        let child = node.child(for: key.stringValue, optional: false)
        child.kind = .object
        return KeyedDecodingContainer(RecordingKeyedContainer<NestedKey>(node: child, depth: depth + 1))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        RecordingUnkeyedContainer(item: node.child(for: key.stringValue, optional: false).itemNode(), depth: depth + 1)
    }

    func superDecoder() throws -> any Decoder { RecordingDecoder(node: node, depth: depth) }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        RecordingDecoder(node: node.child(for: key.stringValue, optional: false), depth: depth + 1)
    }
}

struct RecordingUnkeyedContainer: UnkeyedDecodingContainer {
    let item: ShapeNode
    let depth: Int
    var codingPath: [any CodingKey] { [] }
    var count: Int? { depth < ShapeRecorder.maxDepth ? 1 : 0 }
    var isAtEnd: Bool { currentIndex >= (count ?? 0) }
    private(set) var currentIndex = 0

    init(item: ShapeNode, depth: Int) {
        self.item = item
        self.depth = depth
    }

    mutating func decodeNil() throws -> Bool { false }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        currentIndex += 1
        return try Placeholder.decode(type, into: item, depth: depth)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        currentIndex += 1
        item.kind = .object
        return KeyedDecodingContainer(RecordingKeyedContainer<NestedKey>(node: item, depth: depth + 1))
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        currentIndex += 1
        return RecordingUnkeyedContainer(item: item.itemNode(), depth: depth + 1)
    }

    mutating func superDecoder() throws -> any Decoder {
        currentIndex += 1
        return RecordingDecoder(node: item, depth: depth + 1)
    }
}

struct RecordingSingleValueContainer: SingleValueDecodingContainer {
    let node: ShapeNode
    let depth: Int
    var codingPath: [any CodingKey] { [] }

    func decodeNil() -> Bool { false }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if let (value, shape) = Placeholder.value(type) {
            node.kind = .scalar(shape)
            return value
        }
        return try ShapeNode.placeholder(type, node: node, decoder: RecordingDecoder(node: node, depth: depth + 1))
    }
}
