/// The part of RFC 8941 structured-field lists the IETF rate-limit draft needs:
/// `"default";r=5;t=1, "daily";r=100;t=3600` — a list of members, each a string or token with
/// parameters. Anything else in a member makes that member unreadable (skipped), never a trap.
enum StructuredList {
    struct Item: Equatable {
        var name: String
        var parameters: [String: String]
    }

    /// Fields longer than this are not read at all.
    static let maxLength = 4096
    /// Members beyond this many are ignored.
    static let maxItems = 32

    static func parse(_ text: String) -> [Item] {
        guard text.utf8.count <= maxLength else { return [] }
        return members(text).prefix(maxItems).compactMap(item)
    }

    /// `text` split at commas outside quoted strings.
    private static func members(_ text: String) -> [Substring] {
        var parts: [Substring] = []
        var start = text.startIndex
        var quoted = false
        var escaped = false
        for index in text.indices {
            let character = text[index]
            if escaped {
                escaped = false
            } else if quoted && character == "\\" {
                escaped = true
            } else if character == "\"" {
                quoted.toggle()
            } else if character == "," && !quoted {
                parts.append(text[start..<index])
                start = text.index(after: index)
            }
        }
        parts.append(text[start...])
        return parts
    }

    private static func item(_ member: Substring) -> Item? {
        let member = member.trimmingSpaces
        guard !member.isEmpty else { return nil }
        var rest = member[...]
        let name: String
        if rest.first == "\"" {
            guard let (string, after) = quotedString(rest) else { return nil }
            (name, rest) = (string, after)
        } else {
            let end = rest.firstIndex(of: ";") ?? rest.endIndex
            name = String(rest[..<end]).trimmingSpaces
            rest = rest[end...]
            guard !name.isEmpty, !name.contains(where: { $0 == " " || $0 == "\"" }) else { return nil }
        }
        var parameters: [String: String] = [:]
        for parameter in rest.split(separator: ";", omittingEmptySubsequences: true) {
            // Empty pieces kept, so `=`, `==` and `=5` have an empty key and make the member
            // unreadable (omitted, `=` and `==` split into nothing: a trap at `pair[0]`, found by
            // RateLimitHeadersFuzz).
            let pair = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = String(pair[0]).trimmingSpaces.lowercased()
            guard !key.isEmpty else { return nil }
            var value = pair.count > 1 ? String(pair[1]).trimmingSpaces : "?1"
            if value.hasPrefix("\""), let (string, after) = quotedString(value[...]), after.isEmpty { value = string }
            // The first occurrence of a key is kept; a member naming one twice keeps its first value.
            if parameters[key] == nil { parameters[key] = value }
        }
        return Item(name: name, parameters: parameters)
    }

    /// A quoted sf-string at the start of `text` (`\"` and `\\` escapes) and what follows it.
    private static func quotedString(_ text: Substring) -> (String, Substring)? {
        var result = ""
        var index = text.index(after: text.startIndex)
        var escaped = false
        while index < text.endIndex {
            let character = text[index]
            if escaped {
                guard character == "\"" || character == "\\" else { return nil }
                result.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "\"" {
                return (result, text[text.index(after: index)...])
            } else {
                result.append(character)
            }
            index = text.index(after: index)
        }
        return nil
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
