import Foundation

/// Decodes the JSON in an LLM answer while the answer streams in: feed it chunks of any size
/// and after each one it gives the value decoded so far, repaired as ``LLMAnswerDecoder``
/// repairs whole answers.
///
/// Between restarts the value only grows: strings grow, arrays gain elements, objects gain
/// members, and a member once complete never changes (see ``JSONSnapshot/extends(_:)``).
/// When later text changes which JSON in the answer wins — a fenced block after bare JSON, a
/// larger value after a small one, an object re-homed by the final repair — the update says so
/// with ``PartialJSONUpdate/isRestart``. ``finish()`` gives exactly what
/// ``LLMAnswerDecoder/extract(fromAnswer:schema:)`` gives for the whole text.
///
/// The work is linear in the answer's bytes, however it is chunked: the parse state of every
/// completed value is kept, only the new bytes are read, and a snapshot costs constant time (a
/// mark in an append-only record of the value, shared by all snapshots and built into a value
/// only when read). The whole-answer decoder runs once, in ``finish()``, and does not parse the
/// answer again when it held a single JSON value, already parsed as that decoder parses it
/// (with the same repairs): then it only ranks it.
///
/// ```swift
/// var decoder = PartialJSONDecoder()
/// for try await token in stream {
///     if let update = decoder.feed(token) { show(update.snapshot.decode(Card.self)) }
/// }
/// let final = try decoder.finish()
/// ```
public struct PartialJSONDecoder: Sendable {
    /// The schema the JSON should fit, as for ``LLMAnswerDecoder/extract(fromAnswer:schema:)``.
    public let schema: JSONSchema?
    /// How many times the value shown so far was replaced rather than extended.
    public private(set) var restarts = 0

    private let shape: Shape?
    private var bytes: [UInt8] = []
    private var tracker = RegionTracker()
    private var scanPos = 0
    private var active = Candidate(parser: StreamingParser(start: 0), inFence: false, isShown: false)
    private var hasActive = false
    private var shown = Shown.none
    private var shownChange = -1
    private var best: Rank?
    private var finished = false
    /// How many candidates were begun (a `{` or `[` handed to a parser in a region).
    private var candidatesBegun = 0
    /// The first candidate that was parsed to its end as ``TolerantParser`` parses it (not
    /// diverged): with no other candidate begun, `finish()` needs no second parse.
    private var firstParsed: (value: JSONValue, parse: CandidateFinder.Parse, start: Int, inFence: Bool)?

    /// The candidate being parsed, when `hasActive`. Stored inline, not as an optional, so
    /// that a snapshot reads its parser in place and a step advances it in place: a copy of the
    /// parser costs a retain per field, more than the rest of a one-byte feed.
    private struct Candidate {
        var parser: StreamingParser
        var inFence: Bool
        var isShown: Bool
    }

    /// What the caller has seen.
    private enum Shown {
        case none
        /// The active candidate: its current state extends everything shown.
        case active
        /// A complete value, or the last state of a candidate that failed.
        case fixed(JSONSnapshot)
    }

    /// How the whole-answer decoder ranks a complete candidate (score, then fence, then size).
    private struct Rank {
        var score: Double
        var inFence: Bool
        var size: Int
    }

    /// Creates a decoder for one answer.
    public init(schema: JSONSchema? = nil) {
        self.schema = schema
        self.shape = schema?.shape
    }

    /// The value decoded so far, or nil when no JSON has been seen yet.
    public var snapshot: JSONSnapshot? {
        if case .active = shown { return hasActive ? active.parser.snapshot() : nil }
        if case .fixed(let snapshot) = shown { return snapshot }
        return nil
    }

    /// Adds a chunk of the answer; returns the new value when what is decoded so far changed.
    public mutating func feed(_ chunk: String) -> PartialJSONUpdate? {
        feed(chunk.utf8)
    }

    /// Adds a chunk of the answer's UTF-8 bytes (a character may be split across chunks).
    @inlinable
    public mutating func feed(_ chunk: some Sequence<UInt8>) -> PartialJSONUpdate? {
        if let update = chunk.withContiguousStorageIfAvailable({ feed(buffer: $0) }) { return update }
        return Array(chunk).withUnsafeBufferPointer { feed(buffer: $0) }
    }

    /// Adds a chunk of bytes from contiguous storage.
    @usableFromInline
    mutating func feed(buffer chunk: UnsafeBufferPointer<UInt8>) -> PartialJSONUpdate? {
        precondition(!finished, "feed after finish")
        return chunk.count == 1 ? feed(byte: chunk[0]) : feed(chunk: chunk)
    }

    /// Adds a chunk of more than one byte (a function of its own: a one-byte feed does not pay
    /// for setting up its frame).
    @inline(never)
    private mutating func feed(chunk: UnsafeBufferPointer<UInt8>) -> PartialJSONUpdate? {
        let oldCount = bytes.count
        bytes.append(contentsOf: chunk)
        // The common small chunks: more of the string being read, with nothing in it that ends
        // the string or the region, appended where `pump` would append it; or bytes the parser
        // is not ready to read (it waits for look-ahead), which `pump` would only scan for a
        // fence. Either way without a scan, a window or a step.
        if hasActive, active.isShown, tracker.isPlain(chunk, at: oldCount),
            active.parser.isWaiting(until: bytes.count) || active.parser.extendString(chunk, end: bytes.count)
        {
            tracker.skipPlain(to: bytes.count)
            return grownUpdate()
        }
        return pump(final: false)
    }

    /// Adds a one-byte chunk: the same as a chunk of any size, with the common cases (a byte
    /// of the string being read, a byte the parser waits for, whitespace between tokens) taken
    /// in line.
    private mutating func feed(byte: UInt8) -> PartialJSONUpdate? {
        let end = bytes.count + 1
        bytes.append(byte)
        if hasActive, active.isShown, tracker.isPlain(byte, at: end - 1),
            active.parser.isWaiting(until: end) || active.parser.extendString(byte, end: end)
                || active.parser.skipSpace(byte, end: end)
        {
            tracker.skipPlain(to: end)
            return grownUpdate()
        }
        return pump(final: false)
    }

    /// Replaces the text fed so far with `answer`, the whole of it (a service that sends the
    /// complete answer after its tokens, which may differ from them): decoded afresh, the update
    /// a restart unless its value extends the last one; nil when no JSON has been seen in it yet.
    public mutating func replaceText(with answer: String) -> PartialJSONUpdate? {
        precondition(!finished, "replaceText after finish")
        let previous = snapshot
        let restarts = self.restarts
        self = PartialJSONDecoder(schema: schema)
        self.restarts = restarts
        guard let update = feed(answer) else { return nil }
        let restart = update.isRestart || previous.map { !update.snapshot.extends($0) } ?? false
        if restart, !update.isRestart { self.restarts += 1 }
        return PartialJSONUpdate(snapshot: update.snapshot, isRestart: restart, report: update.report)
    }

    /// Ends the answer: the final value, equal to what ``LLMAnswerDecoder`` extracts from the
    /// whole text, with its repair report. `isRestart` when it does not extend the last value.
    ///
    /// - Throws: What ``LLMAnswerDecoder/extract(fromAnswer:schema:)`` throws for the text.
    public mutating func finish() throws(LLMDecodingError) -> PartialJSONUpdate {
        _ = pump(final: true)
        finished = true
        // The whole decoder reads the bytes of the answer as a `String`: the same bytes when they
        // are well-formed UTF-8 (checked without making the `String`), with the fences the
        // tracker found in them; else repaired, and its fences found afresh.
        var fences: [CandidateFinder.Fence]? = tracker.fences(count: bytes.count)
        if !UTF8Validator.isValid(bytes) {
            bytes = Array(String(decoding: bytes, as: UTF8.self).utf8)
            fences = nil
        }
        let extractor = AnswerExtractor(shape: shape)
        let result: AnswerExtractor.Result
        if let known = knownCandidates(fences) {
            result = extractor.run(bytes: bytes, candidates: known)
            assert(Self.same(result, extractor.run(bytes: bytes, fences: fences)), "the candidate parsed differs from the whole decoder's")
        } else {
            result = extractor.run(bytes: bytes, fences: fences)
        }
        guard let winner = result.interpretations.first, winner.score > 0 else {
            _ = try LLMAnswerDecoder(schema: schema).extract(fromAnswer: String(decoding: bytes, as: UTF8.self))
            throw .noJSON(modelText: result.modelText)
        }
        let final = JSONSnapshot(node: .complete(winner.value))
        let restart = isRestart(to: final)
        if restart { restarts += 1 }
        shown = .fixed(final)
        hasActive = false
        return PartialJSONUpdate(snapshot: final, isRestart: restart, report: winner.report)
    }

    /// The candidates the whole decoder finds, without parsing them again, when they are known:
    /// a single candidate was begun in the whole answer and parsed as ``TolerantParser`` parses
    /// it (then the whole decoder's scan begins the same single parse, with the same result),
    /// in the same bytes (`fences` not nil), scalars not allowed. Nil otherwise.
    private func knownCandidates(_ fences: [CandidateFinder.Fence]?) -> [CourierLLM.Candidate]? {
        guard let fences, shape?.isScalar != true, candidatesBegun == 1, let parsed = firstParsed else { return nil }
        return CandidateFinder(bytes: bytes, fences: fences).onlyCandidate(
            parsed.value, parsed.parse, start: parsed.start, inFence: parsed.inFence)
    }

    /// Whether two extractions give the same answer: the best value's JSON and its report.
    private static func same(_ lhs: AnswerExtractor.Result, _ rhs: AnswerExtractor.Result) -> Bool {
        guard let left = lhs.interpretations.first, let right = rhs.interpretations.first else {
            return lhs.interpretations.isEmpty && rhs.interpretations.isEmpty
        }
        return left.score == right.score && left.report == right.report
            && left.value.compactText(capacity: left.size + 64) == right.value.compactText(capacity: right.size + 64)
    }

    // MARK: Driving

    private mutating func pump(final: Bool) -> PartialJSONUpdate? {
        var restart = false
        var changed = false
        while true {
            let extent = tracker.scan(bytes, final: final)
            if tracker.kind == .header { break }
            if scanPos < tracker.regionStart { scanPos = tracker.regionStart }
            var end = extent.end
            if extent.isFinal {
                while end > scanPos, ByteClass.isSpace(bytes[end - 1]) { end -= 1 }
            }
            runCandidates(StreamWindow(bytes: bytes, end: end, isFinal: extent.isFinal), &restart, &changed)
            guard extent.isBoundary else { break }
            tracker.nextRegion()
        }
        return update(restart: restart, changed: changed)
    }

    /// `update(restart: false, changed: false)` in line, for the chunks read in line: the active
    /// candidate's value when it grew, else nil.
    @inline(__always)
    private mutating func grownUpdate() -> PartialJSONUpdate? {
        guard case .active = shown, hasActive else { return nil }
        let count = active.parser.log.changeCount
        guard count != shownChange else { return nil }
        shownChange = count
        return active.parser.snapshot().map { PartialJSONUpdate(snapshot: $0, isRestart: false, report: nil) }
    }

    /// The update for what the caller has seen, or nil when it did not change.
    private mutating func update(restart: Bool, changed: Bool) -> PartialJSONUpdate? {
        var changed = changed
        if case .active = shown, hasActive, active.parser.log.changeCount != shownChange {
            shownChange = active.parser.log.changeCount
            changed = true
        }
        guard changed, let snapshot else { return nil }
        return PartialJSONUpdate(snapshot: snapshot, isRestart: restart, report: nil)
    }

    /// Parses candidates in the current region as far as the window reaches. The active
    /// candidate is advanced in place: a copy of its parser would share its log.
    private mutating func runCandidates(_ window: StreamWindow, _ restart: inout Bool, _ changed: inout Bool) {
        while true {
            if !hasActive {
                while scanPos < window.end, bytes[scanPos] != UInt8(ascii: "{"), bytes[scanPos] != UInt8(ascii: "[") {
                    scanPos += 1
                }
                guard scanPos < window.end else { return }
                active = Candidate(parser: StreamingParser(start: scanPos), inFence: tracker.kind == .fence, isShown: false)
                hasActive = true
                candidatesBegun += 1
            }
            active.parser.advance(window)
            if let shrank = active.parser.takeShrank(), active.isShown {
                // The candidate dropped part of what was shown (a value turned out not to be JSON).
                if let now = active.parser.snapshot() ?? Optional(shrank), !now.extends(shrank) { restart = true }
                changed = true
                if active.parser.isFailed { shown = .fixed(shrank) }
            }
            if active.parser.isDone || active.parser.isFailed {
                let candidate = active
                hasActive = false
                let parser = candidate.parser
                scanPos = max(parser.pos, parser.start + 1, parser.tooDeepAt ?? 0)
                if case .done(let value) = parser.phase {
                    if candidatesBegun == 1, !parser.diverged {
                        let parse = CandidateFinder.Parse(
                            end: parser.pos, repairs: parser.repairs, truncated: parser.truncated, sawOrphans: false)
                        firstParsed = (value, parse, parser.start, candidate.inFence)
                    }
                    complete(value, candidate, window, &restart, &changed)
                }
                if candidate.isShown, parser.isFailed, case .active = shown { shown = .none }
                continue
            }
            if !active.isShown, shouldShowActive() {
                showActive(&restart)
                changed = true
            }
            return
        }
    }

    private mutating func complete(
        _ value: JSONValue, _ candidate: Candidate, _ window: StreamWindow, _ restart: inout Bool, _ changed: inout Bool
    ) {
        var stop = candidate.parser.pos
        while stop > candidate.parser.start, ByteClass.isSpace(bytes[stop - 1]) { stop -= 1 }
        let rank = Rank(
            score: shape.map { ShapeMatcher.fit(value, $0) } ?? 1, inFence: candidate.inFence, size: stop - candidate.parser.start)
        if candidate.isShown {
            shown = .fixed(JSONSnapshot(node: .complete(value)))
            best = rank
            changed = true
            return
        }
        guard CandidateFinder.isSubstantial(value) || candidate.inFence else { return }
        if let best, !Self.ranksBefore(rank, best) { return }
        let snapshot = JSONSnapshot(node: .complete(value))
        if isRestart(to: snapshot) {
            restart = true
            restarts += 1
        }
        shown = .fixed(snapshot)
        best = rank
        changed = true
    }

    /// Whether the active candidate, still being read, should replace what is shown.
    private func shouldShowActive() -> Bool {
        guard hasActive else { return false }
        let inFence = active.inFence
        guard active.parser.looksSubstantial || (inFence && !active.parser.stack.isEmpty) else { return false }
        guard let best else { return true }
        if shape != nil { return false }
        if inFence != best.inFence { return inFence }
        return active.parser.pos - active.parser.start > best.size
    }

    private mutating func showActive(_ restart: inout Bool) {
        if let snapshot = (hasActive ? active.parser.snapshot() : nil), isRestart(to: snapshot) {
            restart = true
            restarts += 1
        }
        shown = .active
        shownChange = active.parser.log.changeCount
        active.isShown = true
        best = nil
    }

    private func isRestart(to snapshot: JSONSnapshot) -> Bool {
        switch shown {
        case .none: return false
        case .fixed(let old): return !snapshot.extends(old)
        case .active:
            guard let old = (hasActive ? active.parser.snapshot() : nil) else { return false }
            return !snapshot.extends(old)
        }
    }

    private static func ranksBefore(_ lhs: Rank, _ rhs: Rank) -> Bool {
        if lhs.score != rhs.score { return lhs.score > rhs.score }
        if lhs.inFence != rhs.inFence { return lhs.inFence }
        return lhs.size >= rhs.size
    }
}
