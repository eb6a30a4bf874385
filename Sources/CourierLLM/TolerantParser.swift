import Foundation

/// A single-pass, tolerant JSON parser over UTF-8 bytes.
///
/// It accepts strict JSON unchanged and repairs the usual defects of LLM output as it goes,
/// recording each repair. The repair rules are ``RepairRules``'s, shared with
/// ``StreamingParser``: this parser applies them to a whole text, recursing into containers. It
/// never backtracks over more than a bounded look-ahead, so parsing is linear in the input. It
/// fails (returns `nil`) on text that is not JSON-like, such as a bare word where a value should
/// be, so prose is never turned into JSON.
struct TolerantParser {
    typealias Context = RepairRules.Context

    /// A parsed value, or `missing` when the input ended before a value began.
    enum Parsed {
        case value(JSONValue)
        case missing
    }

    static let maxDepth = RepairRules.maxDepth

    let source: WholeBytes
    /// The repair rules as they apply at `pos`: with the position and the repairs noted so far.
    var rules: RepairRules
    var sawOrphans = false
    var scratch: [UInt8] = []

    init(bytes: [UInt8], start: Int, end: Int) {
        self.source = WholeBytes(bytes: bytes, end: end)
        self.rules = RepairRules(pos: start)
    }

    var bytes: [UInt8] { source.bytes }
    var end: Int { source.end }

    var pos: Int {
        get { rules.pos }
        set { rules.pos = newValue }
    }

    /// The repairs applied so far, each kind once, in the order first applied.
    var repairs: [Repair] { rules.recorder.repairs }
    /// Whether the text ended inside the value.
    var truncated: Bool { rules.truncated }
    /// Where the first container nested past ``maxDepth`` begins, if one was met. The parse
    /// gives up there; a scan resumes from it (see ``CandidateFinder``), not from inside the
    /// levels already tried, so input nested without end costs linear time, not `maxDepth` times it.
    var tooDeepAt: Int? { rules.tooDeepAt }

    mutating func note(_ repair: Repair) {
        rules.note(repair)
    }

    /// Parses one value starting at `pos`; `nil` when the text is not JSON-like.
    mutating func parseTopLevel() -> JSONValue? {
        guard let parsed = parseValue(.topLevel, depth: 0), case .value(let value) = parsed else { return nil }
        return value
    }

    mutating func parseValue(_ context: Context, depth: Int, allowBare: Bool = false) -> Parsed? {
        rules.skipTrivia(source)
        if allowBare, pos < end {
            let start = pos
            if let parsed = parseValue(context, depth: depth) { return parsed }
            pos = start
            return parseBareValue()
        }
        switch rules.startValue(context, source) {
        case .end: return .missing
        case .object: return parseObject(depth: depth + 1).map { .value($0) }
        case .array: return parseArray(depth: depth + 1).map { .value($0) }
        case .link(let url): return .value(.string(url))
        case .string(let kind): return parseString(kind, context)
        case .number: return parseNumber()
        case .word: return parseLiteral()
        case .other: return nil
        }
    }

    mutating func parseObject(depth: Int) -> JSONValue? {
        guard rules.enterContainer(isObject: true, depth: depth) else { return nil }
        defer { rules.leaveContainer(isObject: true) }
        var members: [JSONMember] = []
        var orphans: [JSONValue] = []
        var orphanIndex = 0
        var commas = RepairRules.Commas()
        loop: while true {
            switch rules.nextItem(source, inObject: true, &commas) {
            case .close: break loop
            case .comma: continue loop
            case .item: break
            }
            let byte = bytes[pos]
            if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                guard let parsed = parseValue(.arrayElement, depth: depth) else { return nil }
                guard case .value(let value) = parsed else { break loop }
                if orphans.isEmpty { orphanIndex = members.count }
                sawOrphans = true
                if case .array(let items) = value { orphans.append(contentsOf: items) } else { orphans.append(value) }
            } else {
                let memberStart = pos
                switch parseMember(depth: depth) {
                case .read(let member)?: members.append(member)
                case .ended?: break loop
                case nil:
                    guard rules.closeBefore(memberStart, isObject: true, members: members, elements: []) else { return nil }
                    break loop
                }
            }
            commas.itemRead()
            rules.skipAfterValue(source, inObject: true)
        }
        if !orphans.isEmpty {
            members.insert(JSONMember(key: "", value: .array(orphans), isOrphanGroup: true), at: orphanIndex)
        }
        return .object(members)
    }

    /// A member of an object, or the end of the text inside one.
    private enum Member {
        case read(JSONMember)
        case ended
    }

    /// Parses `key: value` at `pos`; nil when it is not JSON.
    private mutating func parseMember(depth: Int) -> Member? {
        guard let keyParsed = parseKey() else { return nil }
        guard case .value(.string(let key)) = keyParsed else { return .ended }
        let explicitColon: Bool
        switch rules.readColon(source) {
        case .end: return .ended
        case .colon: explicitColon = true
        case .impliedColon: explicitColon = false
        case .other: return nil
        }
        guard let parsed = parseValue(.objectValue, depth: depth, allowBare: explicitColon) else { return nil }
        guard case .value(let value) = parsed else { return .ended }
        return .read(JSONMember(key: key, value: value))
    }

    mutating func parseArray(depth: Int) -> JSONValue? {
        guard rules.enterContainer(isObject: false, depth: depth) else { return nil }
        defer { rules.leaveContainer(isObject: false) }
        var elements: [JSONValue] = []
        var commas = RepairRules.Commas()
        loop: while true {
            switch rules.nextItem(source, inObject: false, &commas) {
            case .close: break loop
            case .comma: continue loop
            case .item: break
            }
            let elementStart = pos
            guard let parsed = parseValue(.arrayElement, depth: depth) else {
                guard rules.closeBefore(elementStart, isObject: false, members: [], elements: elements) else { return nil }
                break loop
            }
            guard case .value(let value) = parsed else { break loop }
            elements.append(value)
            commas.itemRead()
            rules.skipAfterValue(source, inObject: false)
        }
        return .array(elements)
    }

    /// Parses the string whose opening delimiter (of `kind`) was read, as
    /// ``RepairRules/readString(_:_:_:into:)`` reads it; a key the text ended in is missing.
    mutating func parseString(_ kind: QuoteKind, _ context: Context) -> Parsed {
        scratch.removeAll(keepingCapacity: true)
        let closed = rules.readString(kind, context, source, into: &scratch)
        if !closed, context == .objectKey { return .missing }
        return .value(.string(String(decoding: scratch, as: UTF8.self)))
    }

    /// Parses an object key: a quoted string or an unquoted identifier.
    mutating func parseKey() -> Parsed? {
        if let kind = rules.openString(source) { return parseString(kind, .objectKey) }
        guard ByteClass.isWordByte(bytes[pos]) else { return nil }
        let start = pos
        while pos < end, isUnquotedKeyByte(at: pos) { pos += 1 }
        guard pos > start else { return nil }
        note(.quotedKey)
        return .value(.string(String(decoding: bytes[start..<pos], as: UTF8.self)))
    }

    private func isUnquotedKeyByte(at index: Int) -> Bool {
        let byte = bytes[index]
        if byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") { return true }
        guard ByteClass.isWordByte(byte) else { return false }
        return !source.isSmartQuote(at: index)
    }
}
