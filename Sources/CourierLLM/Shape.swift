import Foundation

/// The shape a caller expects: learned from a `Decodable` type or given as a JSON Schema.
indirect enum Shape: Sendable, Equatable {
    case any
    case string, number, integer, bool, null
    case array(Shape)
    case object(ObjectShape)
    case union([Shape])

    /// Whether values of this shape are scalars (no object or array possible).
    var isScalar: Bool {
        switch self {
        case .string, .number, .integer, .bool, .null: return true
        case .union(let options): return options.allSatisfy(\.isScalar)
        case .any, .array, .object: return false
        }
    }

    /// The object shape, when this shape is (or may be) an object.
    var objectShape: ObjectShape? {
        switch self {
        case .object(let object): return object
        case .union(let options): return options.lazy.compactMap(\.objectShape).first
        default: return nil
        }
    }

    /// The item shape, when this shape is (or may be) an array.
    var itemShape: Shape? {
        switch self {
        case .array(let item): return item
        case .union(let options): return options.lazy.compactMap(\.itemShape).first
        default: return nil
        }
    }

    /// Whether arrays of objects are expected here.
    var expectsArrayOfObjects: Bool { itemShape?.objectShape != nil }
}

/// The expected keys of an object.
struct ObjectShape: Sendable, Equatable {
    /// Keys in declaration order.
    var keys: [String]
    var properties: [String: Shape]
    var required: Set<String>
    /// Keys are not known (a dictionary, or a type that could only be partly probed).
    var isOpen: Bool

    init(keys: [String], properties: [String: Shape], required: Set<String>, isOpen: Bool = false) {
        self.keys = keys
        self.properties = properties
        self.required = required
        self.isOpen = isOpen
    }

    /// Looks up the declared key matching `key` exactly or after ignoring case, `_` and `-`.
    func declaredKey(for key: String) -> String? {
        if properties[key] != nil { return key }
        let folded = Self.fold(key)
        return keys.first { Self.fold($0) == folded }
    }

    static func fold(_ key: String) -> String {
        String(key.lowercased().filter { $0 != "_" && $0 != "-" })
    }
}
