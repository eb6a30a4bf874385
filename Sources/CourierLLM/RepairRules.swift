/// The JSON repair rules, each written once for both parsers: ``TolerantParser`` applies them to
/// a whole text (``WholeBytes``), ``StreamingParser`` to the bytes received so far
/// (``StreamWindow``), where a rule whose look-ahead has not arrived yet throws and is applied
/// again when more bytes come (a rule only notes and moves on once its decision is taken).
///
/// A rule reads the bytes at `pos`, moves `pos` past what it consumed, notes the repairs it makes
/// and says what it found; what a parser makes of that — a value, or a change logged for a
/// snapshot — is the parser's. The look-ahead decisions the rules take are ``LookAheadBytes``'s.
///
/// The rules are generic over the bytes and specialised for each parser; the small ones are
/// `@inline(__always)`, as the parsers' own copies were in line: called, the shared rules cost
/// the streaming parser 3% more instructions (callgrind, 100 KB in 16-byte chunks, 30 runs:
/// 543 M before, 560 M called, 544 M in line).
struct RepairRules {
    /// Containers nested deeper are not read: no recursion without bound.
    static let maxDepth = 96

    /// Where a value is being read; decides how an ambiguous quote is read.
    enum Context { case topLevel, objectKey, objectValue, arrayElement }

    /// What begins where a value is expected.
    enum ValueStart {
        /// The bytes ended first (noted as truncated).
        case end
        /// A `{` or a `[` (not consumed).
        case object, array
        /// A Markdown link used as a value (consumed), by its URL.
        case link(String)
        /// A string, whose opening delimiter was consumed.
        case string(QuoteKind)
        /// A number or a word, such as a literal (not consumed).
        case number, word
        /// Nothing a value begins with.
        case other
    }

    /// What comes next inside an open container.
    enum ItemStart {
        /// The container ends: at its closing bracket (consumed), a bracket that does not match it
        /// (consumed when no container of that kind is open) or the end of the bytes.
        case close
        /// A comma (consumed).
        case comma
        /// An item (not consumed).
        case item
    }

    /// What follows an object's key.
    enum KeyEnd {
        /// The bytes ended first (noted as truncated).
        case end
        /// A colon (consumed).
        case colon
        /// A value, with no colon before it (noted).
        case impliedColon
        /// Neither.
        case other
    }

    /// The commas of an open container: whether its next item needs one first, whether one came.
    struct Commas {
        /// No item since the container opened or since the last comma.
        var expecting = true
        /// A comma came since the last item.
        var sawComma = false

        /// An item was read.
        mutating func itemRead() {
            expecting = false
            sawComma = false
        }
    }

    /// Where ``skipTrivia(_:)`` stopped: inside a comment when the bytes ended in one.
    enum Trivia { case none, lineComment, blockComment }

    var pos: Int
    private(set) var recorder = RepairRecorder()
    /// Whether the text ended inside the value.
    private(set) var truncated = false
    /// Where the first container nested past ``maxDepth`` begins, if one was met.
    private(set) var tooDeepAt: Int?
    /// Inside a comment, when the bytes ended in one (read by ``StreamingParser``'s fast path).
    var trivia = Trivia.none
    private var objectDepth = 0
    private var arrayDepth = 0

    init(pos: Int) {
        self.pos = pos
    }

    @inline(__always)
    mutating func note(_ repair: Repair) {
        recorder.note(repair)
    }

    /// The text ended inside the value: what is open is closed.
    @inline(__always)
    mutating func noteTruncated() {
        truncated = true
        note(.closedTruncated)
    }

    /// Continues where a parse of the next token (`token`, from `pos`) stopped, with its repairs.
    @inline(__always)
    mutating func follow(_ token: RepairRules) {
        recorder.note(contentsOf: token.recorder.repairs)
        if token.truncated { truncated = true }
        pos = token.pos
    }

    // MARK: Values

    /// What begins at `pos`, where a value is expected (after trivia): a Markdown link stands for
    /// its URL except at the top, and any quote a string accepts opens one (noted unless `"`).
    @inline(__always)
    mutating func startValue<Bytes: LookAheadBytes>(_ context: Context, _ source: Bytes) throws(Bytes.Shortage) -> ValueStart {
        if try source.isPast(pos) {
            noteTruncated()
            return .end
        }
        let byte = source.bytes[pos]
        switch byte {
        case UInt8(ascii: "{"):
            return .object
        case UInt8(ascii: "["):
            guard context != .topLevel, let (url, after) = try source.markdownLink(at: pos) else { return .array }
            note(.convertedMarkdownLink)
            pos = after
            return .link(url)
        case ByteClass.quote, ByteClass.apostrophe, 0xE2:
            guard let kind = try openString(source) else { return .other }
            return .string(kind)
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."):
            return .number
        default:
            return ByteClass.isASCIILetter(byte) ? .word : .other
        }
    }

    /// Consumes the opening delimiter of a string at `pos` (noted unless `"`): its kind, or nil
    /// when none is there.
    @inline(__always)
    mutating func openString<Bytes: LookAheadBytes>(_ source: Bytes) throws(Bytes.Shortage) -> QuoteKind? {
        guard let (kind, length) = try source.quoteKind(at: pos) else { return nil }
        if kind != .double { note(.convertedQuotes) }
        pos += length
        return kind
    }

    // MARK: Containers

    /// Opens the container whose bracket is at `pos`, `depth` levels deep (1 at the top); false,
    /// noting where in `tooDeepAt`, past ``maxDepth``.
    @inline(__always)
    mutating func enterContainer(isObject: Bool, depth: Int) -> Bool {
        guard depth <= Self.maxDepth else {
            if tooDeepAt == nil { tooDeepAt = pos }
            return false
        }
        if isObject { objectDepth += 1 } else { arrayDepth += 1 }
        pos += 1
        return true
    }

    /// The innermost container was closed (or given up).
    @inline(__always)
    mutating func leaveContainer(isObject: Bool) {
        if isObject { objectDepth -= 1 } else { arrayDepth -= 1 }
    }

    /// What comes next in the innermost open container (after trivia): its end, a comma or an
    /// item. A comma before the end, a doubled comma and a missing one are noted; a bracket that
    /// does not match closes the container (and is left for an open container it matches).
    @inline(__always)
    mutating func nextItem<Bytes: LookAheadBytes>(
        _ source: Bytes, inObject: Bool, _ commas: inout Commas
    ) throws(Bytes.Shortage) -> ItemStart {
        try skipTrivia(source)
        if try source.isPast(pos) {
            noteTruncated()
            return .close
        }
        let byte = source.bytes[pos]
        if byte == (inObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
            if commas.sawComma { note(.removedTrailingComma) }
            pos += 1
            return .close
        }
        if byte == (inObject ? UInt8(ascii: "]") : UInt8(ascii: "}")) {
            note(.fixedMismatchedBracket)
            if (inObject ? arrayDepth : objectDepth) == 0 { pos += 1 }
            return .close
        }
        if byte == UInt8(ascii: ",") {
            if commas.expecting { note(.removedDoubledComma) }
            commas.expecting = true
            commas.sawComma = true
            pos += 1
            return .comma
        }
        if !commas.expecting { note(.insertedMissingComma) }
        return .item
    }

    /// What follows an object's key (after trivia): a colon, or a value with the colon missing.
    @inline(__always)
    mutating func readColon<Bytes: LookAheadBytes>(_ source: Bytes) throws(Bytes.Shortage) -> KeyEnd {
        try skipTrivia(source)
        if try source.isPast(pos) {
            noteTruncated()
            return .end
        }
        if source.bytes[pos] == UInt8(ascii: ":") {
            pos += 1
            return .colon
        }
        guard try source.startsValue(at: pos) else { return .other }
        note(.insertedMissingColon)
        return .impliedColon
    }

    /// Skips trivia and citation markers after a value (noted): a link `[text](url)`, `【…】`, a
    /// short parenthesised note and, in an object, a short bracketed note such as `[1]`.
    @inline(__always)
    mutating func skipAfterValue<Bytes: LookAheadBytes>(_ source: Bytes, inObject: Bool) throws(Bytes.Shortage) {
        while true {
            try skipTrivia(source)
            if try source.isPast(pos) { return }
            let byte = source.bytes[pos]
            if byte == UInt8(ascii: "[") || byte == 0xE3, let next = try source.citationEnd(from: pos, requireLink: !inObject) {
                note(.removedCitation)
                pos = next
            } else if byte == UInt8(ascii: "("), let next = try source.parenthesisEnd(from: pos) {
                note(.removedCitation)
                pos = next
            } else {
                return
            }
        }
    }

    /// An item from `itemStart` is not JSON: the container closes before it (noted) when it has
    /// something to keep — an object a member, an array an element that is a container — and
    /// fails otherwise (false).
    mutating func closeBefore(_ itemStart: Int, isObject: Bool, members: [JSONMember], elements: [JSONValue]) -> Bool {
        guard isObject ? !members.isEmpty : elements.contains(where: \.isContainer) else { return false }
        pos = itemStart
        note(.closedUnterminated)
        return true
    }
}
