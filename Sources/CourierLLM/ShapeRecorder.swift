import Foundation

/// Learns the shape a `Decodable` type expects by running its `init(from:)` against a
/// recording decoder that answers every request with a placeholder and notes the keys,
/// nesting and scalar types asked for. Best effort: when a type rejects the placeholders
/// the keys recorded so far are kept and the object is marked open.
enum ShapeRecorder {
    static let maxDepth = 12

    static func shape<T: Decodable>(of type: T.Type) -> Shape? {
        if let special = ShapeNode.specialShape(for: type) { return special }
        let root = ShapeNode()
        let decoder = RecordingDecoder(node: root, depth: 0)
        do {
            _ = try ShapeNode.placeholder(type, node: root, decoder: decoder)
        } catch {
            root.markPartial()
        }
        let shape = root.shape
        return shape == .any ? nil : shape
    }
}

/// A node of the shape being recorded.
final class ShapeNode {
    enum Kind {
        case unknown
        case scalar(Shape)
        case object
        case array(ShapeNode)
    }

    var kind: Kind = .unknown
    var keys: [String] = []
    var children: [String: ShapeNode] = [:]
    var optionalKeys: Set<String> = []
    var partial = false

    func child(for key: String, optional: Bool) -> ShapeNode {
        if case .unknown = kind { kind = .object }
        if optional { optionalKeys.insert(key) }
        if let existing = children[key] { return existing }
        let node = ShapeNode()
        keys.append(key)
        children[key] = node
        return node
    }

    func itemNode() -> ShapeNode {
        if case .array(let item) = kind { return item }
        let item = ShapeNode()
        kind = .array(item)
        return item
    }

    func markPartial() {
        partial = true
        for child in children.values { child.markPartial() }
    }

    var shape: Shape {
        switch kind {
        case .unknown: return .any
        case .scalar(let shape): return shape
        case .array(let item): return .array(item.shape)
        case .object:
            let required = Set(keys.filter { !optionalKeys.contains($0) })
            return .object(
                ObjectShape(
                    keys: keys, properties: children.mapValues(\.shape),
                    required: partial ? [] : required, isOpen: partial))
        }
    }

    /// Shapes of Foundation types whose JSON form depends on decoder strategies.
    static func specialShape<T>(for type: T.Type) -> Shape? {
        if type == Date.self || type == Data.self { return .any }
        if type == URL.self || type == UUID.self { return .string }
        if type == Decimal.self { return .number }
        return nil
    }

    static func specialValue<T>(for type: T.Type) -> T? {
        if type == Date.self { return Date(timeIntervalSince1970: 0) as? T }
        if type == Data.self { return Data() as? T }
        if type == URL.self { return URL(fileURLWithPath: "/") as? T }
        if type == UUID.self { return UUID() as? T }
        if type == Decimal.self { return Decimal(0) as? T }
        return nil
    }

    /// A placeholder value of `type`, recording its shape into `node`.
    static func placeholder<T: Decodable>(_ type: T.Type, node: ShapeNode, decoder: RecordingDecoder) throws -> T {
        if let special = specialShape(for: type), let value = specialValue(for: type) {
            node.kind = .scalar(special)
            return value
        }
        if let caseType = type as? any CaseIterable.Type, let value = firstCase(caseType) as? T {
            node.kind = .scalar(rawShape(of: value))
            return value
        }
        guard decoder.depth <= ShapeRecorder.maxDepth else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "shape recording too deep"))
        }
        return try T(from: decoder)
    }

    private static func firstCase<C: CaseIterable>(_ type: C.Type) -> Any? { type.allCases.first }

    private static func rawShape(of value: Any) -> Shape {
        guard let raw = value as? any RawRepresentable else { return .any }
        switch raw.rawValue {
        case is String: return .string
        case is Int, is Int8, is Int16, is Int32, is Int64, is UInt, is UInt8, is UInt16, is UInt32, is UInt64: return .integer
        case is Double, is Float: return .number
        case is Bool: return .bool
        default: return .any
        }
    }
}
