import Foundation

/// ``TolerantParser`` turned inside out: the same decisions, taken on the bytes received so far,
/// with its recursion kept as an explicit stack of open containers so the parse can stop at any
/// byte and resume when more arrive.
///
/// Strings, whitespace and comments are consumed as they arrive; a decision that needs look-ahead
/// (does this quote close the string? is this `[` a citation?) waits, through ``StreamWindow``,
/// until the bytes it reads are all there, then comes out as ``TolerantParser`` would decide it.
/// Short tokens (numbers, literals, unquoted keys and values) are handed to ``TolerantParser``
/// itself once their end has arrived. Completed values are built once and kept: a snapshot of
/// the value so far costs the depth of the open containers, not the size of the value.
struct StreamingParser {
    typealias Context = TolerantParser.Context

    /// One open container.
    struct Frame {
        var isObject: Bool
        var members: [JSONMember] = []
        var elements: [JSONValue] = []
        var expecting = true
        /// A comma came since the last item (mirrors `sawComma` of `TolerantParser`'s loops).
        var sawComma = false
        /// The key of the member whose value is being read.
        var key: String?
        /// Where the member or element being read began (the parse falls back there on failure).
        var itemStart = 0
        /// The container being read is an orphan (an object where a key was expected).
        var childIsOrphan = false
        /// The container is inside an orphan: not shown until the whole decoder places it.
        var hidden: Bool
    }

    /// Where the parser is.
    enum Phase {
        case value(Context, allowBare: Bool)
        case string(QuoteKind, Context)
        case loop
        case afterKey
        case afterValue
        case done(JSONValue)
        case failed
    }

    private enum Trivia { case none, lineComment, blockComment }

    let start: Int
    private(set) var pos: Int
    private(set) var stack: [Frame] = []
    private(set) var phase: Phase = .value(.topLevel, allowBare: false)
    /// The bytes of the string being read, when it is not shown (a key, or inside an orphan);
    /// a string that is shown is read into the log, from `stringStart`.
    private var text: [UInt8] = []
    private var stringStart = 0
    private var trivia = Trivia.none
    private var objectDepth = 0
    private var arrayDepth = 0
    /// Where the first container nested past ``TolerantParser/maxDepth`` began, if one did.
    private(set) var tooDeepAt: Int?
    /// The changes to the visible value: snapshots are marks in it.
    private(set) var log = SnapshotLog()
    /// The value as it stood before a failure dropped part of it, until taken.
    private var shrank: JSONSnapshot?
    /// A step that waited for look-ahead is retried once the bytes reach this index.
    private var retryAt = 0
    /// The repairs ``TolerantParser`` records for the same text, noted at the same decisions
    /// (while not `diverged`).
    private(set) var recorder = RepairRecorder()
    /// Whether the text ended inside the value (``TolerantParser/truncated``).
    private(set) var truncated = false
    /// A failure, orphan or too-deep container was met: the value, where the parse stops and
    /// the repairs may differ from ``TolerantParser``'s, which falls back differently there.
    private(set) var diverged = false

    init(start: Int) {
        self.start = start
        self.pos = start
    }

    /// The value as it stood before a failure dropped part of what was shown, once.
    mutating func takeShrank() -> JSONSnapshot? {
        defer { shrank = nil }
        return shrank
    }

    var isDone: Bool {
        if case .done = phase { return true }
        return false
    }

    var isFailed: Bool {
        if case .failed = phase { return true }
        return false
    }

    /// Parses as far as the window allows.
    mutating func advance(_ window: StreamWindow) {
        if !window.isFinal, window.end < retryAt { return }
        while true {
            switch phase {
            case .done, .failed: return
            default: break
            }
            let stepStart = pos
            do {
                try step(window)
            } catch {
                // Waiting for look-ahead: retry once the bytes have grown by half of what the
                // step read, so a long token is re-read a bounded number of times (linear).
                retryAt = window.end + max(1, (window.end - stepStart) / 2)
                return
            }
        }
    }

    /// Whether ``advance(_:)`` would do nothing with the bytes up to `end` (not the region's
    /// final end): a step that waited for look-ahead is retried only from `retryAt`.
    func isWaiting(until end: Int) -> Bool {
        end < retryAt
    }

    /// Reads `chunk`, the bytes from `pos` to `end`, when it only extends the string being read
    /// (no quote, escape or control byte): what ``advance(_:)`` would do with it, without the
    /// window. Returns false, changing nothing, when it does not apply.
    mutating func extendString(_ chunk: UnsafeBufferPointer<UInt8>, end: Int) -> Bool {
        guard case .string(let kind, let context) = phase, pos + chunk.count == end, end >= retryAt else { return false }
        for byte in chunk where !kind.isPlain(byte) { return false }
        if isVisible(context) { log.logText(chunk) } else { text.append(contentsOf: chunk) }
        pos = end
        // As `advance(_:)` sets it when the string runs to the end of the bytes received.
        retryAt = end + max(1, chunk.count / 2)
        return true
    }

    /// ``extendString(_:end:)`` for a chunk of one byte.
    @inline(__always)
    mutating func extendString(_ byte: UInt8, end: Int) -> Bool {
        guard case .string(let kind, let context) = phase, pos + 1 == end, end >= retryAt, kind.isPlain(byte) else { return false }
        if isVisible(context) { log.logText(byte) } else { text.append(byte) }
        pos = end
        retryAt = end + 1
        return true
    }

    /// Reads `byte`, received at `end - 1` right after all the bytes read so far, when it is
    /// whitespace between tokens: what ``advance(_:)`` would do with it (every step but a
    /// string's begins by skipping trivia, which reads it and then waits for the next byte),
    /// without the window. Returns false, changing nothing, when it does not apply.
    @inline(__always)
    mutating func skipSpace(_ byte: UInt8, end: Int) -> Bool {
        guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09, pos + 1 == end, end >= retryAt,
            case .none = trivia
        else { return false }
        switch phase {
        case .value, .loop, .afterKey, .afterValue: break
        case .string, .done, .failed: return false
        }
        pos = end
        // As `advance(_:)` sets it when a step waits right after reading the byte.
        retryAt = end + 1
        return true
    }

    private mutating func step(_ window: StreamWindow) throws(NeedMore) {
        switch phase {
        case .value(let context, let allowBare): try readValue(context, allowBare: allowBare, window)
        case .string(let kind, let context): try readString(kind, context, window)
        case .loop: try stack[stack.count - 1].isObject ? readObjectItem(window) : readArrayItem(window)
        case .afterKey: try readAfterKey(window)
        case .afterValue: try readAfterValue(window)
        case .done, .failed: return
        }
    }

    // MARK: Values

    private mutating func readValue(_ context: Context, allowBare: Bool, _ window: StreamWindow) throws(NeedMore) {
        try skipTrivia(window)
        if try window.atEnd(pos) {
            noteTruncated()
            missing()
            return
        }
        let byte = window.bytes[pos]
        let word = allowBare && ByteClass.isWordByte(byte)
        switch byte {
        case UInt8(ascii: "{"):
            push(isObject: true)
        case UInt8(ascii: "["):
            if context != .topLevel, let (url, after) = try window.markdownLink(at: pos) {
                recorder.note(.convertedMarkdownLink)
                pos = after
                deliver(.string(url))
            } else {
                push(isObject: false)
            }
        case ByteClass.quote, ByteClass.apostrophe, 0xE2:
            if let (kind, length) = try window.quoteKind(at: pos) {
                if kind != .double { recorder.note(.convertedQuotes) }
                pos += length
                clearText()
                phase = .string(kind, context)
                if isVisible(context) {
                    stringStart = log.text.count
                    log.log(.openString(stringStart))
                }
            } else if word {
                try readToken(context, allowBare: true, window)
            } else {
                fail()
            }
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."):
            try readToken(context, allowBare: word, window)
        default:
            if ByteClass.isASCIILetter(byte) || word {
                try readToken(context, allowBare: word, window)
            } else {
                fail()
            }
        }
    }

    /// A number, literal or bare word: read by ``TolerantParser`` once its end has arrived.
    private mutating func readToken(_ context: Context, allowBare: Bool, _ window: StreamWindow) throws(NeedMore) {
        let tokenEnd = try window.runEnd(from: pos) { byte in
            ByteClass.isWordByte(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
        }
        if allowBare {
            _ = try window.runEnd(from: tokenEnd) { byte in
                byte != UInt8(ascii: ",") && byte != UInt8(ascii: "}") && byte != UInt8(ascii: "]") && byte != ByteClass.newline
                    && byte != ByteClass.quote && byte != UInt8(ascii: "{") && byte != UInt8(ascii: "[")
            }
        }
        var parser = TolerantParser(bytes: window.bytes, start: pos, end: window.end)
        let parsed = parser.parseValue(context, depth: stack.count, allowBare: allowBare)
        recorder.note(contentsOf: parser.repairs)
        if parser.truncated { truncated = true }
        pos = parser.pos
        switch parsed {
        case .value(let value)?: deliver(value)
        case .missing?: missing()
        case nil: fail()
        }
    }

    private mutating func readString(_ kind: QuoteKind, _ context: Context, _ window: StreamWindow) throws(NeedMore) {
        let bytes = window.bytes
        let visible = isVisible(context)
        while true {
            let runStart = pos
            while pos < window.end, kind.isPlain(bytes[pos]) { pos += 1 }
            if pos > runStart { appendText(bytes, runStart..<pos, visible) }
            if try window.atEnd(pos) { break }
            let byte = bytes[pos]
            if byte == ByteClass.backslash {
                if try window.atEnd(pos + 1) {
                    pos = window.end
                    break
                }
                // `\u` with a surrogate pair reads 12 bytes, `\U` 10: wait for them (or the end).
                let letter = bytes[pos + 1]
                if let simple = Self.simpleEscape(letter) {
                    // What `TolerantParser.appendEscape(_:)` appends and notes, without a parser.
                    if letter == ByteClass.apostrophe, kind == .double { recorder.note(.fixedInvalidEscape) }
                    withUnsafePointer(to: simple) { appendText(UnsafeBufferPointer(start: $0, count: 1), visible) }
                    pos += 2
                    continue
                }
                if letter == UInt8(ascii: "u") || letter == UInt8(ascii: "x") || letter == UInt8(ascii: "U") {
                    _ = try window.atEnd(pos + 11)
                }
                var parser = TolerantParser(bytes: bytes, start: pos, end: window.end)
                parser.appendEscape(kind)
                recorder.note(contentsOf: parser.repairs)
                appendText(parser.scratch, parser.scratch.indices, visible)
                pos = parser.pos
                continue
            }
            if let closeLength = try window.closingLength(kind, at: pos) {
                if try window.isClosing(after: pos + closeLength, context) {
                    pos += closeLength
                    let value = visible ? log.string(from: stringStart) : String(decoding: text, as: UTF8.self)
                    clearText()
                    if context == .objectKey {
                        setKey(value)
                        phase = .afterKey
                    } else {
                        deliver(.string(value))
                    }
                    return
                }
                recorder.note(.escapedInnerQuote)
                appendText(bytes, pos..<(pos + closeLength), visible)
                pos += closeLength
                continue
            }
            if byte < 0x20 { recorder.note(.escapedControlCharacter) }
            appendText(bytes, pos..<(pos + 1), visible)
            pos += 1
        }
        // The region ended inside the string (`atEnd` only answers true once it is final).
        noteTruncated()
        let value = visible ? log.string(from: stringStart) : String(decoding: text, as: UTF8.self)
        clearText()
        if context == .objectKey {
            missing()
        } else {
            deliver(.string(value))
        }
    }

    // MARK: Containers

    private mutating func readObjectItem(_ window: StreamWindow) throws(NeedMore) {
        try skipTrivia(window)
        if try window.atEnd(pos) {
            noteTruncated()
            close()
            return
        }
        let bytes = window.bytes
        let top = stack.count - 1
        switch bytes[pos] {
        case UInt8(ascii: "}"):
            if stack[top].sawComma { recorder.note(.removedTrailingComma) }
            pos += 1
            close()
        case UInt8(ascii: "]"):
            recorder.note(.fixedMismatchedBracket)
            if arrayDepth == 0 { pos += 1 }
            close()
        case UInt8(ascii: ","):
            if stack[top].expecting { recorder.note(.removedDoubledComma) }
            stack[top].expecting = true
            stack[top].sawComma = true
            pos += 1
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            diverged = true
            stack[top].itemStart = pos
            stack[top].childIsOrphan = true
            phase = .value(.arrayElement, allowBare: false)
        default:
            if !stack[top].expecting { recorder.note(.insertedMissingComma) }
            stack[top].itemStart = pos
            if let (kind, length) = try window.quoteKind(at: pos) {
                if kind != .double { recorder.note(.convertedQuotes) }
                pos += length
                clearText()
                phase = .string(kind, .objectKey)
                return
            }
            guard ByteClass.isWordByte(bytes[pos]) else {
                closeOrFail()
                return
            }
            _ = try window.runEnd(from: pos) { byte in
                ByteClass.isWordByte(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            }
            var parser = TolerantParser(bytes: bytes, start: pos, end: window.end)
            let parsed = parser.parseKey()
            recorder.note(contentsOf: parser.repairs)
            guard case .value(.string(let key))? = parsed else {
                closeOrFail()
                return
            }
            pos = parser.pos
            setKey(key)
            phase = .afterKey
        }
    }

    private mutating func readAfterKey(_ window: StreamWindow) throws(NeedMore) {
        try skipTrivia(window)
        if try window.atEnd(pos) {
            noteTruncated()
            setKey(nil)
            close()
            return
        }
        let byte = window.bytes[pos]
        if byte == UInt8(ascii: ":") {
            pos += 1
            phase = .value(.objectValue, allowBare: true)
        } else if try window.startsValue(at: pos) {
            recorder.note(.insertedMissingColon)
            phase = .value(.objectValue, allowBare: false)
        } else {
            setKey(nil)
            closeOrFail()
        }
    }

    private mutating func readArrayItem(_ window: StreamWindow) throws(NeedMore) {
        try skipTrivia(window)
        if try window.atEnd(pos) {
            noteTruncated()
            close()
            return
        }
        let top = stack.count - 1
        switch window.bytes[pos] {
        case UInt8(ascii: "]"):
            if stack[top].sawComma { recorder.note(.removedTrailingComma) }
            pos += 1
            close()
        case UInt8(ascii: "}"):
            recorder.note(.fixedMismatchedBracket)
            if objectDepth == 0 { pos += 1 }
            close()
        case UInt8(ascii: ","):
            if stack[top].expecting { recorder.note(.removedDoubledComma) }
            stack[top].expecting = true
            stack[top].sawComma = true
            pos += 1
        default:
            if !stack[top].expecting { recorder.note(.insertedMissingComma) }
            stack[top].itemStart = pos
            phase = .value(.arrayElement, allowBare: false)
        }
    }

    private mutating func readAfterValue(_ window: StreamWindow) throws(NeedMore) {
        let inObject = stack[stack.count - 1].isObject
        while true {
            try skipTrivia(window)
            if try window.atEnd(pos) { break }
            let byte = window.bytes[pos]
            if byte == UInt8(ascii: "[") || byte == 0xE3, let next = try window.citationEnd(from: pos, requireLink: !inObject) {
                recorder.note(.removedCitation)
                pos = next
            } else if byte == UInt8(ascii: "("), let next = try window.parenthesisEnd(from: pos) {
                recorder.note(.removedCitation)
                pos = next
            } else {
                break
            }
        }
        phase = .loop
    }

    // MARK: Trivia

    /// Mirrors `TolerantParser.skipTrivia()`, resumable inside a comment.
    private mutating func skipTrivia(_ window: StreamWindow) throws(NeedMore) {
        let bytes = window.bytes
        while true {
            switch trivia {
            case .lineComment:
                while pos < window.end, bytes[pos] != ByteClass.newline { pos += 1 }
                if try window.atEnd(pos) { return }
                trivia = .none
            case .blockComment:
                while pos < window.end {
                    if bytes[pos] == UInt8(ascii: "*") {
                        if try window.atEnd(pos + 1) {
                            pos = window.end
                            return
                        }
                        if bytes[pos + 1] == UInt8(ascii: "/") { break }
                    }
                    pos += 1
                }
                if try window.atEnd(pos) {
                    trivia = .none
                    return
                }
                pos += 2
                trivia = .none
            case .none:
                break
            }
            if try window.atEnd(pos) { return }
            let byte = bytes[pos]
            switch byte {
            case 0x20, 0x0A, 0x0D, 0x09:
                pos += 1
            case UInt8(ascii: "/"):
                guard try window.startsComment(at: pos) else { return }
                recorder.note(.removedComment)
                if bytes[pos + 1] == UInt8(ascii: "/") {
                    trivia = .lineComment
                } else {
                    pos += 2
                    trivia = .blockComment
                }
            case UInt8(ascii: "*"):
                recorder.note(.removedMarkdown)
                pos += 1
            case UInt8(ascii: "#"):
                recorder.note(.removedComment)
                trivia = .lineComment
            case 0xC2, 0xEF, 0xE2:
                let length = byte == 0xC2 ? 2 : 3
                if try window.atEnd(pos + length - 1) { return }
                let isSpace =
                    (byte == 0xC2 && bytes[pos + 1] == 0xA0) || (byte == 0xEF && bytes[pos + 1] == 0xBB && bytes[pos + 2] == 0xBF)
                    || (byte == 0xE2 && bytes[pos + 1] == 0x80 && bytes[pos + 2] == 0x8B)
                guard isSpace else { return }
                pos += length
            default:
                return
            }
        }
    }

    // MARK: Stack

    /// The text ended inside the value (mirrors `TolerantParser.noteTruncated()`).
    private mutating func noteTruncated() {
        truncated = true
        recorder.note(.closedTruncated)
    }

    /// Sets the key of the member the innermost object is reading.
    private mutating func setKey(_ key: String?) {
        let top = stack.count - 1
        guard stack[top].key != key else { return }
        stack[top].key = key
        if !stack[top].hidden { log.log(.key(key)) }
    }

    /// The byte a one-letter escape (`\"`, `\\`, `\/`, `\'`, `\n`, `\t`, `\r`, `\b`, `\f`) stands for, as
    /// `TolerantParser.appendEscape(_:)` decodes it; nil for the others.
    @inline(__always)
    private static func simpleEscape(_ letter: UInt8) -> UInt8? {
        switch letter {
        case ByteClass.quote, ByteClass.backslash, UInt8(ascii: "/"), ByteClass.apostrophe: return letter
        case UInt8(ascii: "n"): return 0x0A
        case UInt8(ascii: "t"): return 0x09
        case UInt8(ascii: "r"): return 0x0D
        case UInt8(ascii: "b"): return 0x08
        case UInt8(ascii: "f"): return 0x0C
        default: return nil
        }
    }

    /// Empties `text` (most strings are shown, read into the log: then it is empty already).
    @inline(__always)
    private mutating func clearText() {
        if !text.isEmpty { text.removeAll(keepingCapacity: true) }
    }

    /// Adds bytes to the string being read: to the log when it is shown, else to `text`.
    private mutating func appendText(_ chunk: UnsafeBufferPointer<UInt8>, _ visible: Bool) {
        if visible { log.logText(chunk) } else { text.append(contentsOf: chunk) }
    }

    /// Adds bytes to the string being read: to the log when it is shown, else to `text`.
    private mutating func appendText(_ bytes: [UInt8], _ range: Range<Int>, _ visible: Bool) {
        if visible {
            bytes.withUnsafeBufferPointer { buffer in log.logText(UnsafeBufferPointer(rebasing: buffer[range])) }
        } else {
            text.append(contentsOf: bytes[range])
        }
    }

    // In line: called on the parser stored in the decoder, a call copies the parser first.
    @inline(__always)
    private func isVisible(_ context: Context) -> Bool {
        // Indexed, not `stack.last`: that copies the frame (a retain per array) on every call.
        guard context != .objectKey, !stack.isEmpty else { return context != .objectKey }
        return !stack[stack.count - 1].hidden && !stack[stack.count - 1].childIsOrphan
    }

    private mutating func push(isObject: Bool) {
        guard stack.count < TolerantParser.maxDepth else {
            if tooDeepAt == nil { tooDeepAt = pos }
            diverged = true
            fail()
            return
        }
        let hidden = !stack.isEmpty && (stack[stack.count - 1].hidden || stack[stack.count - 1].childIsOrphan)
        stack.append(Frame(isObject: isObject, hidden: hidden))
        if isObject { objectDepth += 1 } else { arrayDepth += 1 }
        pos += 1
        phase = .loop
        if !hidden { log.log(.push(isObject: isObject)) }
    }

    /// Closes the innermost container and hands its value to the one around it.
    private mutating func close() {
        let frame = stack.removeLast()
        if !frame.hidden { log.log(.pop) }
        let value: JSONValue
        if frame.isObject {
            objectDepth -= 1
            // Orphans (objects where a key was expected) are placed by the whole-answer decoder at
            // `finish()`, never shown in a snapshot: a group inserted among members already shown
            // would not be a growth of the last snapshot (found by LLMFuzz).
            value = .object(frame.members)
        } else {
            arrayDepth -= 1
            value = .array(frame.elements)
        }
        deliver(value)
    }

    /// A value is complete: it becomes a member, an element, an orphan or the result.
    private mutating func deliver(_ value: JSONValue) {
        guard !stack.isEmpty else {
            phase = .done(value)
            log.log(.append(value))
            return
        }
        let top = stack.count - 1
        if stack[top].isObject {
            if stack[top].childIsOrphan {
                // An orphan: left to the whole decoder (see `close()`).
                stack[top].childIsOrphan = false
            } else {
                stack[top].members.append(JSONMember(key: stack[top].key ?? "", value: value))
                stack[top].key = nil
                if !stack[top].hidden { log.log(.append(value)) }
            }
        } else {
            stack[top].elements.append(value)
            if !stack[top].hidden { log.log(.append(value)) }
        }
        stack[top].expecting = false
        stack[top].sawComma = false
        phase = .afterValue
    }

    /// The region ended before a value began: the container around it closes.
    private mutating func missing() {
        guard !stack.isEmpty else {
            phase = .failed
            return
        }
        setKey(nil)
        stack[stack.count - 1].childIsOrphan = false
        close()
    }

    /// The item being read is not JSON: the container closes before it, or fails when it has
    /// nothing to show (mirrors the fallbacks of `parseObject` and `parseArray`).
    private mutating func closeOrFail() {
        diverged = true
        let top = stack.count - 1
        let keep =
            stack[top].isObject ? !stack[top].members.isEmpty : stack[top].elements.contains(where: \.isContainer)
        if keep {
            pos = stack[top].itemStart
            setKey(nil)
            stack[top].childIsOrphan = false
            close()
        } else {
            failContainer()
        }
    }

    /// The value being read is not JSON.
    private mutating func fail() {
        diverged = true
        guard !stack.isEmpty else {
            phase = .failed
            return
        }
        if stack[stack.count - 1].childIsOrphan {
            failContainer()
        } else {
            closeOrFail()
        }
    }

    /// The innermost container is not JSON: its parent sees a failed value.
    private mutating func failContainer() {
        if shrank == nil { shrank = snapshot() }
        let frame = stack.removeLast()
        if frame.isObject { objectDepth -= 1 } else { arrayDepth -= 1 }
        if !frame.hidden { log.log(.pop) }
        fail()
    }
}

extension StreamingParser {
    /// The value read so far, or nil when nothing of it can be shown yet. Constant time: a mark
    /// in the log, replayed when the snapshot is read.
    func snapshot() -> JSONSnapshot? {
        guard log.showsValue else { return nil }
        return JSONSnapshot(mark: log.mark)
    }

    /// Whether the value read so far is worth showing: more than a `[1]` footnote or a `{`
    /// followed by prose (mirrors `CandidateFinder.isSubstantial`, counting open items).
    var looksSubstantial: Bool {
        if case .done(let value) = phase { return CandidateFinder.isSubstantial(value) }
        guard let root = stack.first else { return false }
        let openChild = stack.count > 1 || { if case .string = phase { return true } else { return false } }()
        if root.isObject { return !root.members.isEmpty || (root.key != nil && openChild) }
        if root.elements.count >= 2 || root.elements.first?.isContainer == true { return true }
        return stack.count > 1
    }
}
