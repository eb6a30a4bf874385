import Foundation

/// Scores how well a parsed value fits an expected shape: 0 means it cannot be that shape,
/// 1 means a perfect fit. Arrays are judged on a sample of their elements, so scoring is
/// linear in the size of the value.
enum ShapeMatcher {
    static func fit(_ value: JSONValue, _ shape: Shape, depth: Int = 0) -> Double {
        switch shape {
        case .any:
            return 1
        case .union(let options):
            return options.map { fit(value, $0, depth: depth) }.max() ?? 0
        case .null:
            if case .null = value { return 1 }
            return 0
        case .string:
            switch value {
            case .string: return 1
            case .null: return 0.5
            case .number, .bool: return 0.2
            default: return 0
            }
        case .number, .integer:
            switch value {
            case .number: return 1
            case .null: return 0.5
            case .string(let text): return Double(text) != nil ? 0.2 : 0.05
            default: return 0
            }
        case .bool:
            switch value {
            case .bool: return 1
            case .null: return 0.5
            case .string, .number: return 0.1
            default: return 0
            }
        case .array(let item):
            guard case .array(let elements) = value else { return 0 }
            if elements.isEmpty { return 0.6 }
            if depth > 12 { return 1 }
            let sample = elements.prefix(4)
            let total = sample.reduce(0.0) { $0 + fit($1, item, depth: depth + 1) }
            return 0.2 + 0.8 * total / Double(sample.count)
        case .object(let object):
            guard case .object(let members) = value else { return 0 }
            if object.keys.isEmpty { return 1 }
            if depth > 12 { return 1 }
            return fitObject(members, object, depth: depth)
        }
    }

    private static func fitObject(_ members: [JSONMember], _ object: ObjectShape, depth: Int) -> Double {
        var byKey: [String: JSONValue] = [:]
        byKey.reserveCapacity(members.count)
        var extra = 0
        for member in members where !member.isOrphanGroup {
            guard let declared = object.declaredKey(for: member.key) else {
                extra += 1
                continue
            }
            if byKey[declared] == nil { byKey[declared] = member.value }
        }
        var total = 0.0
        var matched = 0
        for key in object.keys {
            if let child = byKey[key] {
                matched += 1
                total += fit(child, object.properties[key] ?? .any, depth: depth + 1)
            } else if !object.required.contains(key) {
                total += 0.6
            }
        }
        guard matched > 0 else { return 0 }
        var score = total / Double(object.keys.count)
        if !object.isOpen, extra > 0 {
            score -= 0.3 * Double(extra) / Double(members.count + 1)
        }
        return max(0.01, score)
    }
}
