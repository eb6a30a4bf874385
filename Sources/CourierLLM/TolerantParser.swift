import Foundation

/// A single-pass, tolerant JSON parser over UTF-8 bytes.
///
/// It accepts strict JSON unchanged and repairs the usual defects of LLM output as it goes,
/// recording each repair. It never backtracks over more than a bounded look-ahead, so parsing
/// is linear in the input. It fails (returns `nil`) on text that is not JSON-like, such as a
/// bare word where a value should be, so prose is never turned into JSON.
struct TolerantParser {
    /// Where a value is being parsed; decides how an ambiguous quote is read.
    enum Context { case topLevel, objectKey, objectValue, arrayElement }

    /// A parsed value, or `missing` when the input ended before a value began.
    enum Parsed {
        case value(JSONValue)
        case missing
    }

    static let maxDepth = 96

    let bytes: [UInt8]
    let end: Int
    var pos: Int
    private var recorder = RepairRecorder()
    /// The repairs applied so far, each kind once, in the order first applied.
    var repairs: [Repair] { recorder.repairs }
    var truncated = false
    /// Where the first container nested past ``maxDepth`` begins, if one was met. The parse
    /// gives up there; a scan resumes from it (see ``CandidateFinder``), not from inside the
    /// levels already tried, so input nested without end costs linear time, not `maxDepth` times it.
    var tooDeepAt: Int?
    var sawOrphans = false
    var objectDepth = 0
    var arrayDepth = 0
    var scratch: [UInt8] = []

    init(bytes: [UInt8], start: Int, end: Int) {
        self.bytes = bytes
        self.pos = start
        self.end = end
    }

    mutating func note(_ repair: Repair) {
        recorder.note(repair)
    }

    mutating func noteTruncated() {
        truncated = true
        note(.closedTruncated)
    }

    /// Parses one value starting at `pos`; `nil` when the text is not JSON-like.
    mutating func parseTopLevel() -> JSONValue? {
        guard let parsed = parseValue(.topLevel, depth: 0), case .value(let value) = parsed else { return nil }
        return value
    }

    mutating func parseValue(_ context: Context, depth: Int, allowBare: Bool = false) -> Parsed? {
        skipTrivia()
        if allowBare, pos < end {
            let start = pos
            if let parsed = parseValue(context, depth: depth) { return parsed }
            pos = start
            return parseBareValue()
        }
        guard pos < end else {
            noteTruncated()
            return .missing
        }
        let byte = bytes[pos]
        switch byte {
        case UInt8(ascii: "{"):
            return parseObject(depth: depth + 1).map { .value($0) }
        case UInt8(ascii: "["):
            if context != .topLevel, let url = markdownLink() {
                note(.convertedMarkdownLink)
                return .value(.string(url))
            }
            return parseArray(depth: depth + 1).map { .value($0) }
        case ByteClass.quote, ByteClass.apostrophe, 0xE2:
            return parseString(context)
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."):
            return parseNumber()
        default:
            if ByteClass.isASCIILetter(byte) { return parseLiteral() }
            return nil
        }
    }

    mutating func parseObject(depth: Int) -> JSONValue? {
        guard depth <= Self.maxDepth else { return refuseTooDeep() }
        pos += 1
        objectDepth += 1
        defer { objectDepth -= 1 }
        var members: [JSONMember] = []
        var orphans: [JSONValue] = []
        var orphanIndex = 0
        var expectingMember = true
        var sawComma = false
        loop: while true {
            skipTrivia()
            guard pos < end else {
                noteTruncated()
                break
            }
            let byte = bytes[pos]
            switch byte {
            case UInt8(ascii: "}"):
                if sawComma { note(.removedTrailingComma) }
                pos += 1
                break loop
            case UInt8(ascii: "]"):
                note(.fixedMismatchedBracket)
                if arrayDepth == 0 { pos += 1 }
                break loop
            case UInt8(ascii: ","):
                if expectingMember { note(.removedDoubledComma) }
                expectingMember = true
                sawComma = true
                pos += 1
            default:
                if !expectingMember { note(.insertedMissingComma) }
                if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                    guard let parsed = parseValue(.arrayElement, depth: depth) else { return nil }
                    guard case .value(let value) = parsed else { break loop }
                    if orphans.isEmpty { orphanIndex = members.count }
                    sawOrphans = true
                    if case .array(let items) = value { orphans.append(contentsOf: items) } else { orphans.append(value) }
                } else {
                    let memberStart = pos
                    guard let keyParsed = parseKey() else {
                        if members.isEmpty { return nil }
                        pos = memberStart
                        note(.closedUnterminated)
                        break loop
                    }
                    guard case .value(.string(let key)) = keyParsed else { break loop }
                    skipTrivia()
                    guard pos < end else {
                        noteTruncated()
                        break loop
                    }
                    var explicitColon = false
                    if bytes[pos] == UInt8(ascii: ":") {
                        pos += 1
                        explicitColon = true
                    } else if startsValue(at: pos) {
                        note(.insertedMissingColon)
                    } else {
                        if members.isEmpty { return nil }
                        pos = memberStart
                        note(.closedUnterminated)
                        break loop
                    }
                    guard let parsed = parseValue(.objectValue, depth: depth, allowBare: explicitColon) else {
                        if members.isEmpty { return nil }
                        pos = memberStart
                        note(.closedUnterminated)
                        break loop
                    }
                    guard case .value(let value) = parsed else { break loop }
                    members.append(JSONMember(key: key, value: value))
                }
                expectingMember = false
                sawComma = false
                skipAfterValue(inObject: true)
            }
        }
        if !orphans.isEmpty {
            members.insert(JSONMember(key: "", value: .array(orphans), isOrphanGroup: true), at: orphanIndex)
        }
        return .object(members)
    }

    mutating func parseArray(depth: Int) -> JSONValue? {
        guard depth <= Self.maxDepth else { return refuseTooDeep() }
        pos += 1
        arrayDepth += 1
        defer { arrayDepth -= 1 }
        var elements: [JSONValue] = []
        var expecting = true
        var sawComma = false
        loop: while true {
            skipTrivia()
            guard pos < end else {
                noteTruncated()
                break
            }
            let byte = bytes[pos]
            switch byte {
            case UInt8(ascii: "]"):
                if sawComma { note(.removedTrailingComma) }
                pos += 1
                break loop
            case UInt8(ascii: "}"):
                note(.fixedMismatchedBracket)
                if objectDepth == 0 { pos += 1 }
                break loop
            case UInt8(ascii: ","):
                if expecting { note(.removedDoubledComma) }
                expecting = true
                sawComma = true
                pos += 1
            default:
                if !expecting { note(.insertedMissingComma) }
                let elementStart = pos
                guard let parsed = parseValue(.arrayElement, depth: depth) else {
                    guard elements.contains(where: \.isContainer) else { return nil }
                    pos = elementStart
                    note(.closedUnterminated)
                    break loop
                }
                guard case .value(let value) = parsed else { break loop }
                elements.append(value)
                expecting = false
                sawComma = false
                skipAfterValue(inObject: false)
            }
        }
        return .array(elements)
    }

    /// A container nested past ``maxDepth``: not read (no recursion without bound), and noted.
    private mutating func refuseTooDeep() -> JSONValue? {
        if tooDeepAt == nil { tooDeepAt = pos }
        return nil
    }

    /// Parses an object key: a quoted string or an unquoted identifier.
    mutating func parseKey() -> Parsed? {
        if ByteClass.quoteKind(in: bytes, at: pos, end: end) != nil { return parseString(.objectKey) }
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
        return !ByteClass.isSmartQuote(in: bytes, at: index, end: end)
    }
}
