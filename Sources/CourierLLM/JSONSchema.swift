public import Foundation

/// A small subset of JSON Schema that describes the JSON an answer should contain.
///
/// Supported: `type` (a string or an array of strings among object, array, string, number,
/// integer, boolean, null), `properties`, `items`, `required`, `anyOf`/`oneOf` and `nullable`.
/// Other keywords are ignored.
public struct JSONSchema: Sendable, Decodable, Equatable {
    /// The allowed JSON types; empty when the schema does not say.
    public let types: [String]
    /// The schemas of the object's properties.
    public let properties: [String: JSONSchema]
    /// The property names that must be present.
    public let required: [String]
    /// Alternatives (`anyOf` or `oneOf`).
    public let alternatives: [JSONSchema]
    private let itemStorage: [JSONSchema]

    /// The schema of the array's items, if given.
    public var items: JSONSchema? { itemStorage.first }

    /// The type names a schema may use.
    public static let knownTypes: Set<String> = ["object", "array", "string", "number", "integer", "boolean", "null"]

    /// Creates a schema from its parts.
    public init(
        types: [String] = [], properties: [String: JSONSchema] = [:], required: [String] = [],
        items: JSONSchema? = nil, alternatives: [JSONSchema] = []
    ) {
        self.types = types
        self.properties = properties
        self.required = required
        self.itemStorage = items.map { [$0] } ?? []
        self.alternatives = alternatives
    }

    /// Parses a schema from JSON data; throws `JSONSchemaError` when it is not a valid schema.
    public init(data: Data) throws {
        do {
            self = try JSONDecoder().decode(JSONSchema.self, from: data)
        } catch let error as JSONSchemaError {
            throw error
        } catch {
            throw JSONSchemaError(message: "not a JSON Schema object: \(error)")
        }
    }

    private enum CodingKeys: String, CodingKey {
        case type, properties, required, items, anyOf, oneOf, nullable
    }

    /// Decodes a schema; `type` may be a string or an array of strings.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        var types: [String] = []
        if container.contains(.type) {
            if let single = try? container.decode(String.self, forKey: .type) {
                types = [single]
            } else if let many = try? container.decode([String].self, forKey: .type) {
                types = many
            } else {
                throw JSONSchemaError(message: "\"type\" must be a string or an array of strings")
            }
        }
        for type in types where !Self.knownTypes.contains(type) {
            throw JSONSchemaError(message: "unknown type \"\(type)\"")
        }
        if (try? container.decodeIfPresent(Bool.self, forKey: .nullable)) == true, !types.isEmpty, !types.contains("null") {
            types.append("null")
        }
        self.types = types
        self.properties = try container.decodeIfPresent([String: JSONSchema].self, forKey: .properties) ?? [:]
        self.required = (try? container.decodeIfPresent([String].self, forKey: .required)) ?? []
        if let single = try? container.decodeIfPresent(JSONSchema.self, forKey: .items) {
            self.itemStorage = [single]
        } else if let tuple = try? container.decodeIfPresent([JSONSchema].self, forKey: .items) {
            self.itemStorage = Array(tuple.prefix(1))
        } else {
            self.itemStorage = []
        }
        let anyOf = try container.decodeIfPresent([JSONSchema].self, forKey: .anyOf) ?? []
        let oneOf = try container.decodeIfPresent([JSONSchema].self, forKey: .oneOf) ?? []
        self.alternatives = anyOf + oneOf
    }

    /// The schema a `Decodable` type expects, learned by recording what its `init(from:)`
    /// asks for; `nil` when the type cannot be probed.
    public static func inferred<T: Decodable>(from type: T.Type) -> JSONSchema? {
        ShapeRecorder.shape(of: type).map(JSONSchema.init(shape:))
    }

    init(shape: Shape) {
        switch shape {
        case .any: self.init()
        case .string: self.init(types: ["string"])
        case .number: self.init(types: ["number"])
        case .integer: self.init(types: ["integer"])
        case .bool: self.init(types: ["boolean"])
        case .null: self.init(types: ["null"])
        case .array(let item): self.init(types: ["array"], items: JSONSchema(shape: item))
        case .union(let options): self.init(alternatives: options.map(JSONSchema.init(shape:)))
        case .object(let object):
            self.init(
                types: ["object"], properties: object.properties.mapValues(JSONSchema.init(shape:)),
                required: object.keys.filter { object.required.contains($0) })
        }
    }

    /// The internal shape this schema describes.
    var shape: Shape {
        var options: [Shape] = []
        let implied: [String]
        if types.isEmpty {
            implied = !properties.isEmpty ? ["object"] : (items != nil ? ["array"] : [])
        } else {
            implied = types
        }
        for type in implied {
            switch type {
            case "object":
                let keys = properties.keys.sorted()
                options.append(
                    .object(
                        ObjectShape(
                            keys: keys, properties: properties.mapValues(\.shape),
                            required: Set(required), isOpen: properties.isEmpty)))
            case "array": options.append(.array(items?.shape ?? .any))
            case "string": options.append(.string)
            case "number": options.append(.number)
            case "integer": options.append(.integer)
            case "boolean": options.append(.bool)
            case "null": options.append(.null)
            default: break
            }
        }
        options.append(contentsOf: alternatives.map(\.shape))
        if options.isEmpty { return .any }
        return options.count == 1 ? options[0] : .union(options)
    }
}

/// Why a JSON Schema could not be read.
public struct JSONSchemaError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong with the schema.
    public let message: String

    /// Creates an error with a message.
    public init(message: String) { self.message = message }

    /// The message.
    public var description: String { "invalid JSON Schema: \(message)" }
}
