import Foundation

/// One way to read an answer: a value, the repairs it took, and how well it fits the shape.
struct Interpretation {
    var value: JSONValue
    var repairs: [Repair]
    var truncated: Bool
    var score: Double
    var structural: Int
    var inFence: Bool
    var size: Int
    var order: Int

    var report: RepairReport {
        var report = RepairReport(repairs: repairs)
        if truncated { report.add(.closedTruncated) }
        return report
    }
}

/// Runs the candidate stages over an answer and ranks the interpretations by how well they
/// fit the expected shape (best first).
struct AnswerExtractor {
    let shape: Shape?

    static let messageKeys = ["content", "answer", "message", "text", "response", "result", "output", "error", "detail"]

    struct Result {
        var interpretations: [Interpretation]
        var candidates: [Candidate]
        /// The answer's bytes.
        var answer: [UInt8]
        var found: [Candidate]

        /// The model's own text, for `noJSON` (computed only when needed).
        var modelText: String { AnswerExtractor.modelText(String(decoding: answer, as: UTF8.self), found) }
    }

    func run(_ answer: String) -> Result {
        run(bytes: Array(answer.utf8))
    }

    /// Runs on the UTF-8 bytes of an answer: they must be well-formed (the bytes of a `String`),
    /// then the result is the same as for the `String`. `fences`, when given, must be what
    /// `CandidateFinder.fences()` finds in the bytes.
    func run(bytes: [UInt8], fences: [CandidateFinder.Fence]? = nil) -> Result {
        var candidates = CandidateFinder(bytes: bytes, fences: fences).candidates(allowScalars: shape?.isScalar == true)
        var sourceBytes = bytes
        if candidates.isEmpty, let unescaped = CandidateFinder.unescaped(bytes) {
            candidates = CandidateFinder(bytes: unescaped).candidates(allowScalars: false).map { candidate in
                var copy = candidate
                copy.repairs.insert(.unwrappedNestedString, at: 0)
                return copy
            }
            sourceBytes = unescaped
        }
        return interpret(candidates, in: sourceBytes, answer: bytes)
    }

    /// ``run(bytes:fences:)`` for an answer whose candidates are known already: `candidates`
    /// must be what `CandidateFinder.candidates(allowScalars:)` finds in `bytes`, not empty.
    func run(bytes: [UInt8], candidates: [Candidate]) -> Result {
        precondition(!candidates.isEmpty, "no candidates: the answer's unescaped text must be tried")
        return interpret(candidates, in: bytes, answer: bytes)
    }

    /// The interpretations of `candidates`, found in `sourceBytes` (the answer, or its unescaped text).
    private func interpret(_ candidates: [Candidate], in sourceBytes: [UInt8], answer bytes: [UInt8]) -> Result {
        var candidates = candidates
        let found = candidates
        if shape == nil { candidates = Self.openingEnvelopes(candidates) }
        var list: [Interpretation] = []
        for (order, candidate) in candidates.enumerated() {
            let meta = Meta(inFence: candidate.inFence, size: candidate.end - candidate.start, order: order)
            expand(candidate.value, candidate.repairs, candidate.truncated, candidate.hasOrphans, level: 0, meta, into: &list)
        }
        if shape == nil || shape?.itemShape != nil {
            addSequences(candidates, sourceBytes, into: &list)
        }
        list.sort(by: Self.ranksBefore)
        return Result(interpretations: list, candidates: candidates, answer: bytes, found: found)
    }

    private struct Meta {
        var inFence: Bool
        var size: Int
        var order: Int
    }

    static func ranksBefore(_ lhs: Interpretation, _ rhs: Interpretation) -> Bool {
        if lhs.score != rhs.score { return lhs.score > rhs.score }
        if lhs.structural != rhs.structural { return lhs.structural < rhs.structural }
        if lhs.inFence != rhs.inFence { return lhs.inFence }
        if lhs.size != rhs.size { return lhs.size > rhs.size }
        return lhs.order > rhs.order
    }

    private func add(
        _ value: JSONValue, _ repairs: [Repair], _ truncated: Bool, _ hasOrphans: Bool, structural: Int,
        _ meta: Meta, into list: inout [Interpretation]
    ) {
        var resolved = value
        var allRepairs = repairs
        if hasOrphans { resolved = OrphanResolver.resolve(value, shape, &allRepairs) }
        let score = shape.map { ShapeMatcher.fit(resolved, $0) } ?? 1
        list.append(
            Interpretation(
                value: resolved, repairs: allRepairs, truncated: truncated, score: score,
                structural: structural, inFence: meta.inFence, size: meta.size, order: meta.order))
    }

    private func expand(
        _ value: JSONValue, _ repairs: [Repair], _ truncated: Bool, _ hasOrphans: Bool, level: Int,
        _ meta: Meta, into list: inout [Interpretation]
    ) {
        add(value, repairs, truncated, hasOrphans, structural: level, meta, into: &list)
        guard let shape, level < 2 else { return }
        switch value {
        case .object(let members):
            for member in members where !member.isOrphanGroup {
                switch member.value {
                case .object, .array:
                    expand(member.value, repairs + [.unwrappedField(member.key)], truncated, hasOrphans, level: level + 1, meta, into: &list)
                case .string(let text) where text.utf8.contains(UInt8(ascii: "{")) || text.utf8.contains(UInt8(ascii: "[")):
                    let inner = CandidateFinder(bytes: Array(text.utf8)).candidates(allowScalars: false)
                    for candidate in inner {
                        let nested = repairs + [.unwrappedField(member.key), .unwrappedNestedString] + candidate.repairs
                        expand(
                            candidate.value, nested, truncated || candidate.truncated, candidate.hasOrphans,
                            level: level + 1, meta, into: &list)
                    }
                default:
                    break
                }
            }
            if shape.itemShape != nil {
                add(.array([value]), repairs + [.wrappedInArray], truncated, hasOrphans, structural: level + 1, meta, into: &list)
            }
        case .array(let elements) where elements.count == 1 && shape.itemShape == nil:
            expand(elements[0], repairs + [.unwrappedSingleElementArray], truncated, hasOrphans, level: level + 1, meta, into: &list)
        default:
            break
        }
    }

    /// Top-level objects separated only by commas and whitespace, read as one array.
    private func addSequences(_ candidates: [Candidate], _ bytes: [UInt8], into list: inout [Interpretation]) {
        var index = 0
        while index < candidates.count {
            var last = index
            while last + 1 < candidates.count, Self.onlySeparators(bytes, candidates[last].end, candidates[last + 1].start) {
                last += 1
            }
            if last > index {
                let group = candidates[index...last]
                let repairs = [Repair.wrappedInArray] + group.flatMap(\.repairs)
                let meta = Meta(
                    inFence: group.allSatisfy(\.inFence), size: group.reduce(0) { $0 + $1.end - $1.start },
                    order: last)
                add(
                    .array(group.map(\.value)), repairs, group.contains(where: \.truncated), group.contains(where: \.hasOrphans),
                    structural: shape == nil ? 0 : 1, meta, into: &list)
            }
            index = last + 1
        }
    }

    /// Whether only whitespace, commas and Markdown list markers (`-`, `*`, `1.`) lie between.
    private static func onlySeparators(_ bytes: [UInt8], _ lower: Int, _ upper: Int) -> Bool {
        guard lower <= upper, upper - lower < 64 else { return false }
        for index in lower..<upper {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: ","), UInt8(ascii: "-"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: ")"):
                continue
            default:
                if ByteClass.isSpace(byte) || ByteClass.isDigit(byte) { continue }
                return false
            }
        }
        return true
    }

    /// Keys an API envelope around a model's message may have besides the message itself.
    static let envelopeKeys: Set<String> = [
        "action", "role", "type", "id", "model", "status", "name", "speak", "created",
        "usage", "finish_reason", "index", "object",
    ]

    /// Without a shape, an API envelope such as `{"action": …, "content": "…"}` is not the
    /// answer: the JSON inside its message is (or, when there is none, nothing is).
    static func openingEnvelopes(_ candidates: [Candidate], depth: Int = 0) -> [Candidate] {
        var result: [Candidate] = []
        for candidate in candidates {
            guard case .object(let members) = candidate.value,
                let message = members.first(where: { member in
                    if case .string = member.value { return messageKeys.contains(member.key) }
                    return false
                }),
                case .string(let text) = message.value,
                members.allSatisfy({ $0.key == message.key || envelopeKeys.contains($0.key) })
            else {
                result.append(candidate)
                continue
            }
            guard depth < 4 else { continue }
            let innerCandidates = openingEnvelopes(CandidateFinder(bytes: Array(text.utf8)).candidates(allowScalars: false), depth: depth + 1)
            for inner in innerCandidates {
                var copy = inner
                copy.repairs = candidate.repairs + [.unwrappedField(message.key), .unwrappedNestedString] + inner.repairs
                copy.truncated = copy.truncated || candidate.truncated
                copy.start = candidate.start
                copy.end = candidate.end
                copy.coversRegion = false
                result.append(copy)
            }
        }
        return result
    }

    /// The text to show when there is no usable JSON: the message field of a wrapper object,
    /// or the whole answer, trimmed.
    static func modelText(_ answer: String, _ candidates: [Candidate]) -> String {
        for candidate in candidates where candidate.coversRegion && !candidate.inFence {
            if let text = messageText(of: candidate.value) { return text }
        }
        return answer.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func messageText(of value: JSONValue) -> String? {
        for key in messageKeys {
            if case .string(let text)? = value[key] { return text.trimmingCharacters(in: .whitespacesAndNewlines) }
        }
        return nil
    }
}
