import Foundation

/// ``TolerantParser`` turned inside out: the same repair rules (``RepairRules``), applied to the
/// bytes received so far, with its recursion kept as an explicit stack of open containers so the
/// parse can stop at any byte and resume when more arrive.
///
/// Strings, whitespace and comments are consumed as they arrive; a rule that needs look-ahead
/// (does this quote close the string? is this `[` a citation?) waits, through ``StreamWindow``,
/// until the bytes it reads are all there, then comes out as ``TolerantParser`` would decide it.
/// Short tokens (numbers, literals, unquoted keys and values) are handed to ``TolerantParser``
/// itself once their end has arrived. Completed values are built once and kept: a snapshot of
/// the value so far costs the depth of the open containers, not the size of the value.
struct StreamingParser {
    typealias Context = RepairRules.Context

    /// One open container.
    struct Frame {
        var isObject: Bool
        var members: [JSONMember] = []
        var elements: [JSONValue] = []
        var commas = RepairRules.Commas()
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

    let start: Int
    private(set) var stack: [Frame] = []
    private(set) var phase: Phase = .value(.topLevel, allowBare: false)
    /// The bytes of the string being read, when it is not shown (a key, or inside an orphan);
    /// a string that is shown is read into the log, from `stringStart`.
    private var text: [UInt8] = []
    private var stringStart = 0
    /// The changes to the visible value: snapshots are marks in it.
    private(set) var log = SnapshotLog()
    /// The value as it stood before a failure dropped part of it, until taken.
    private var shrank: JSONSnapshot?
    /// A step that waited for look-ahead is retried once the bytes reach this index.
    private var retryAt = 0
    /// The repair rules as they apply at `pos`: the repairs ``TolerantParser`` records for the
    /// same text, noted at the same decisions (while not `diverged`).
    private(set) var rules: RepairRules
    /// A failure, orphan or too-deep container was met: the value, where the parse stops and
    /// the repairs may differ from ``TolerantParser``'s, which falls back differently there.
    private(set) var diverged = false

    init(start: Int) {
        self.start = start
        self.rules = RepairRules(pos: start)
    }

    private(set) var pos: Int {
        get { rules.pos }
        set { rules.pos = newValue }
    }

    /// The repairs noted so far, each kind once, in the order first applied.
    var repairs: [Repair] { rules.recorder.repairs }
    /// Whether the text ended inside the value (``TolerantParser/truncated``).
    var truncated: Bool { rules.truncated }
    /// Where the first container nested past ``RepairRules/maxDepth`` began, if one did.
    var tooDeepAt: Int? { rules.tooDeepAt }

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
        guard ByteClass.isSpace(byte), pos + 1 == end, end >= retryAt, rules.trivia == .none else { return false }
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
        try rules.skipTrivia(window)
        switch try rules.startValue(context, window) {
        case .end: missing()
        case .object: push(isObject: true)
        case .array: push(isObject: false)
        case .link(let url): deliver(.string(url))
        case .string(let kind):
            clearText()
            phase = .string(kind, context)
            if isVisible(context) {
                stringStart = log.text.count
                log.log(.openString(stringStart))
            }
        case .number, .word:
            try readToken(context, allowBare: allowBare && ByteClass.isWordByte(window.bytes[pos]), window)
        case .other:
            // After a colon, a word is read as a bare value.
            guard allowBare, ByteClass.isWordByte(window.bytes[pos]) else { return fail() }
            try readToken(context, allowBare: true, window)
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
        rules.follow(parser.rules)
        switch parsed {
        case .value(let value)?: deliver(value)
        case .missing?: missing()
        case nil: fail()
        }
    }

    private mutating func readString(_ kind: QuoteKind, _ context: Context, _ window: StreamWindow) throws(NeedMore) {
        let visible = isVisible(context)
        let closed: Bool
        if visible {
            closed = try rules.readString(kind, context, window, into: &log)
        } else {
            closed = try rules.readString(kind, context, window, into: &text)
        }
        let value = visible ? log.string(from: stringStart) : String(decoding: text, as: UTF8.self)
        clearText()
        if context != .objectKey {
            deliver(.string(value))
        } else if closed {
            setKey(value)
            phase = .afterKey
        } else {
            missing()
        }
    }

    // MARK: Containers

    private mutating func readObjectItem(_ window: StreamWindow) throws(NeedMore) {
        let top = stack.count - 1
        switch try rules.nextItem(window, inObject: true, &stack[top].commas) {
        case .close: return close()
        case .comma: return
        case .item: break
        }
        let bytes = window.bytes
        stack[top].itemStart = pos
        if bytes[pos] == UInt8(ascii: "{") || bytes[pos] == UInt8(ascii: "[") {
            diverged = true
            stack[top].childIsOrphan = true
            phase = .value(.arrayElement, allowBare: false)
            return
        }
        if let kind = try rules.openString(window) {
            clearText()
            phase = .string(kind, .objectKey)
            return
        }
        guard ByteClass.isWordByte(bytes[pos]) else { return closeOrFail() }
        _ = try window.runEnd(from: pos) { byte in
            ByteClass.isWordByte(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        }
        var parser = TolerantParser(bytes: bytes, start: pos, end: window.end)
        guard case .value(.string(let key))? = parser.parseKey() else { return closeOrFail() }
        rules.follow(parser.rules)
        setKey(key)
        phase = .afterKey
    }

    private mutating func readAfterKey(_ window: StreamWindow) throws(NeedMore) {
        switch try rules.readColon(window) {
        case .end:
            setKey(nil)
            close()
        case .colon: phase = .value(.objectValue, allowBare: true)
        case .impliedColon: phase = .value(.objectValue, allowBare: false)
        case .other:
            setKey(nil)
            closeOrFail()
        }
    }

    private mutating func readArrayItem(_ window: StreamWindow) throws(NeedMore) {
        let top = stack.count - 1
        switch try rules.nextItem(window, inObject: false, &stack[top].commas) {
        case .close: close()
        case .comma: return
        case .item:
            stack[top].itemStart = pos
            phase = .value(.arrayElement, allowBare: false)
        }
    }

    private mutating func readAfterValue(_ window: StreamWindow) throws(NeedMore) {
        try rules.skipAfterValue(window, inObject: stack[stack.count - 1].isObject)
        phase = .loop
    }

    // MARK: Stack

    /// Sets the key of the member the innermost object is reading.
    private mutating func setKey(_ key: String?) {
        let top = stack.count - 1
        guard stack[top].key != key else { return }
        stack[top].key = key
        if !stack[top].hidden { log.log(.key(key)) }
    }

    /// Empties `text` (most strings are shown, read into the log: then it is empty already).
    @inline(__always)
    private mutating func clearText() {
        if !text.isEmpty { text.removeAll(keepingCapacity: true) }
    }

    // In line: called on the parser stored in the decoder, a call copies the parser first.
    @inline(__always)
    private func isVisible(_ context: Context) -> Bool {
        // Indexed, not `stack.last`: that copies the frame (a retain per array) on every call.
        guard context != .objectKey, !stack.isEmpty else { return context != .objectKey }
        return !stack[stack.count - 1].hidden && !stack[stack.count - 1].childIsOrphan
    }

    private mutating func push(isObject: Bool) {
        guard rules.enterContainer(isObject: isObject, depth: stack.count + 1) else {
            diverged = true
            fail()
            return
        }
        let hidden = !stack.isEmpty && (stack[stack.count - 1].hidden || stack[stack.count - 1].childIsOrphan)
        stack.append(Frame(isObject: isObject, hidden: hidden))
        phase = .loop
        if !hidden { log.log(.push(isObject: isObject)) }
    }

    /// Closes the innermost container and hands its value to the one around it.
    private mutating func close() {
        let frame = stack.removeLast()
        if !frame.hidden { log.log(.pop) }
        rules.leaveContainer(isObject: frame.isObject)
        let value: JSONValue
        if frame.isObject {
            // Orphans (objects where a key was expected) are placed by the whole-answer decoder at
            // `finish()`, never shown in a snapshot: a group inserted among members already shown
            // would not be a growth of the last snapshot (found by LLMFuzz).
            value = .object(frame.members)
        } else {
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
        stack[top].commas.itemRead()
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
    /// nothing to keep (``RepairRules/closeBefore(_:isObject:members:elements:)``).
    private mutating func closeOrFail() {
        diverged = true
        let top = stack.count - 1
        let frame = stack[top]
        if rules.closeBefore(frame.itemStart, isObject: frame.isObject, members: frame.members, elements: frame.elements) {
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
        rules.leaveContainer(isObject: frame.isObject)
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
