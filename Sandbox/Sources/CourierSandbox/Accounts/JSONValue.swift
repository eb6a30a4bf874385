import Foundation

/// Any JSON value, decoded without losing the difference between a number, a string and a
/// boolean, so validation can say exactly which field has the wrong type.
enum JSONValue: Decodable, Sendable, Equatable {
    case null
    case bool(Bool)
    case integer(Int)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// The JSON type's name, for messages.
    var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .integer, .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}

/// A JSON object body checked field by field; every problem names its field.
struct JSONObjectReader {
    private let fields: [String: JSONValue]

    /// Parses `data` as a JSON object whose keys are all in `allowed`.
    init(_ data: Data, allowed: [String]) throws(AccountsFailure) {
        guard !data.isEmpty else { throw .badRequest("body", "JSON 객체가 필요합니다") }
        let value: JSONValue
        do {
            value = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw .badRequest("body", "올바른 JSON이 아닙니다")
        }
        guard case .object(let fields) = value else {
            throw .badRequest("body", "JSON 객체가 필요합니다 (받은 값: \(value.typeName))")
        }
        if let unknown = fields.keys.filter({ !allowed.contains($0) }).sorted().first {
            throw .badRequest(Self.printable(unknown), "알 수 없는 필드입니다 (허용: \(allowed.joined(separator: ", ")))")
        }
        self.fields = fields
    }

    /// Whether the body has `name` at all (`null` counts as absent).
    func has(_ name: String) -> Bool {
        if case .some(.null) = fields[name] { return false }
        return fields[name] != nil
    }

    /// A required string.
    func string(_ name: String) throws(AccountsFailure) -> String {
        guard let value = try optionalString(name) else { throw .badRequest(name, "필수 항목입니다") }
        return value
    }

    /// An optional string (`null` or absent → nil).
    func optionalString(_ name: String) throws(AccountsFailure) -> String? {
        switch fields[name] {
        case .none, .some(.null): return nil
        case .some(.string(let value)): return value
        case .some(let other): throw .badRequest(name, "문자열이어야 합니다 (받은 값: \(other.typeName))")
        }
    }

    /// A required integer.
    func integer(_ name: String) throws(AccountsFailure) -> Int {
        guard let value = try optionalInteger(name) else { throw .badRequest(name, "필수 항목입니다") }
        return value
    }

    /// An optional integer (`null` or absent → nil); `25.5`, `"25"` and `true` are wrong types.
    func optionalInteger(_ name: String) throws(AccountsFailure) -> Int? {
        switch fields[name] {
        case .none, .some(.null): return nil
        case .some(.integer(let value)): return value
        case .some(let other): throw .badRequest(name, "정수여야 합니다 (받은 값: \(other.typeName))")
        }
    }

    /// A field name safe to echo in a message: control characters dropped, at most 40 characters.
    private static func printable(_ name: String) -> String {
        let cleaned = String(name.unicodeScalars.filter { !CharacterSet.controlCharacters.contains($0) }.map(Character.init))
        return cleaned.count > 40 ? String(cleaned.prefix(40)) + "…" : cleaned
    }
}
