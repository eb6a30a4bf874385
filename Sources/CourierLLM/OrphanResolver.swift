import Foundation

/// Puts objects that appeared where a key was expected (the missing `"articles": [` case)
/// under the one array key they fit, guided by the expected shape.
enum OrphanResolver {
    static func resolve(_ value: JSONValue, _ shape: Shape?, _ repairs: inout [Repair]) -> JSONValue {
        switch value {
        case .array(let elements):
            let item = shape?.itemShape
            var result: [JSONValue] = []
            result.reserveCapacity(elements.count)
            for element in elements {
                let (kept, siblings) = hoistSiblings(element, item)
                if !siblings.isEmpty { repairs.append(.fixedMismatchedBracket) }
                result.append(resolve(kept, item, &repairs))
                result.append(contentsOf: siblings.map { resolve($0, item, &repairs) })
            }
            return .array(result)
        case .object(var members):
            let object = shape?.objectShape
            var groupIndex: Int?
            for index in members.indices {
                if members[index].isOrphanGroup {
                    groupIndex = index
                    continue
                }
                let childShape = object.flatMap { shape in shape.declaredKey(for: members[index].key).flatMap { shape.properties[$0] } }
                members[index].value = resolve(members[index].value, childShape, &repairs)
            }
            guard let groupIndex, case .array(let orphans) = members[groupIndex].value else { return .object(members) }
            let key = chooseKey(orphans, members, object)
            let itemShape = object.flatMap { $0.properties[key] }?.itemShape
            let resolved = orphans.map { resolve($0, itemShape, &repairs) }
            if let existing = members.firstIndex(where: { !$0.isOrphanGroup && $0.key == key }),
                case .array(let current) = members[existing].value
            {
                members[existing].value = .array(current + resolved)
                members.remove(at: groupIndex)
            } else if let existing = members.firstIndex(where: { !$0.isOrphanGroup && $0.key == key }),
                case .object = members[existing].value
            {
                // The key is there but its `[` is not (`"articles": {…}, {…}]`): its object is the
                // array's first element, the orphans that follow are the rest.
                members[existing].value = .array([resolve(members[existing].value, itemShape, &repairs)] + resolved)
                members.remove(at: groupIndex)
            } else {
                members[groupIndex] = JSONMember(key: key, value: .array(resolved))
            }
            repairs.append(.wrappedOrphanedObjects(key: key))
            return .object(members)
        default:
            return value
        }
    }

    /// An array element whose closing `}` is missing swallows the next elements as orphans;
    /// when they look like siblings (no array key of the item fits them), they are put back.
    private static func hoistSiblings(_ element: JSONValue, _ item: Shape?) -> (JSONValue, [JSONValue]) {
        guard case .object(var members) = element,
            let groupIndex = members.firstIndex(where: \.isOrphanGroup),
            case .array(let orphans) = members[groupIndex].value
        else { return (element, []) }
        let ownKeys = Set(members.filter { !$0.isOrphanGroup }.map(\.key))
        let siblingLike = orphans.allSatisfy { orphan in
            guard case .object(let fields) = orphan else { return false }
            return !fields.isEmpty && fields.allSatisfy { $0.isOrphanGroup || ownKeys.contains($0.key) }
        }
        if let object = item?.objectShape {
            let fits = object.keys.contains { key in
                guard let property = object.properties[key], property.itemShape != nil else { return false }
                return ShapeMatcher.fit(.array(orphans), property) > 0.5
            }
            guard !fits, siblingLike || object.keys.allSatisfy({ object.properties[$0]?.itemShape == nil }) else { return (element, []) }
        } else if !siblingLike {
            return (element, [])
        }
        members.remove(at: groupIndex)
        return (.object(members), orphans)
    }

    private static func chooseKey(_ orphans: [JSONValue], _ members: [JSONMember], _ object: ObjectShape?) -> String {
        if let object {
            let present = Set(members.filter { !$0.isOrphanGroup }.map { object.declaredKey(for: $0.key) ?? $0.key })
            var best: (key: String, score: Double)?
            for key in object.keys {
                guard let property = object.properties[key], property.itemShape != nil else { continue }
                var score = ShapeMatcher.fit(.array(orphans), property)
                if present.contains(key) { score *= 0.5 }
                if score > 0, score > (best?.score ?? 0) { best = (key, score) }
            }
            if let best { return best.key }
        }
        let arrays = members.filter { member in
            guard !member.isOrphanGroup, case .array(let elements) = member.value else { return false }
            return elements.first.map { if case .object = $0 { return true } else { return false } } ?? true
        }
        return arrays.count == 1 ? arrays[0].key : "items"
    }
}
