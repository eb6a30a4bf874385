import Foundation

/// A JSON value found in an answer, with where it was and what had to be repaired.
struct Candidate {
    var value: JSONValue
    var repairs: [Repair]
    var truncated: Bool
    var hasOrphans: Bool
    var start: Int
    var end: Int
    var inFence: Bool
    /// The candidate is all of its fence's (or the whole answer's) non-blank text.
    var coversRegion: Bool
}

/// Finds JSON candidates in an answer: fenced blocks first, then JSON values found by a
/// scan that hands each `{` or `[` to the tolerant parser and resumes after what it
/// consumed (or where it failed), so the whole scan is linear.
struct CandidateFinder {
    let bytes: [UInt8]
    /// The first and last non-whitespace byte indices (`count` and `-1` when all blank).
    private let firstText: Int
    private let lastText: Int
    /// The fences of `bytes`, when already found (``PartialJSONDecoder``'s region tracker).
    private let knownFences: [Fence]?

    /// A finder over `bytes`; `fences`, when given, must be what ``fences()`` finds in them.
    init(bytes: [UInt8], fences: [Fence]? = nil) {
        self.bytes = bytes
        self.knownFences = fences
        var first = 0
        while first < bytes.count, ByteClass.isSpace(bytes[first]) { first += 1 }
        var last = bytes.count - 1
        while last >= first, ByteClass.isSpace(bytes[last]) { last -= 1 }
        self.firstText = first
        self.lastText = last
    }

    /// A fenced block: the whole fence and its content.
    struct Fence: Equatable {
        var outerStart: Int
        var contentStart: Int
        var contentEnd: Int
        var outerEnd: Int
    }

    func fences() -> [Fence] {
        var result: [Fence] = []
        var index = 0
        let count = bytes.count
        while let open = findTicks(from: index, opening: true) {
            var contentStart = open + 3
            var lineEnd = contentStart
            while lineEnd < count, bytes[lineEnd] != ByteClass.newline, bytes[lineEnd] != UInt8(ascii: "{"),
                bytes[lineEnd] != UInt8(ascii: "[")
            { lineEnd += 1 }
            if lineEnd < count, bytes[lineEnd] == ByteClass.newline { contentStart = lineEnd + 1 } else { contentStart = lineEnd }
            if let close = findTicks(from: contentStart) {
                result.append(Fence(outerStart: open, contentStart: contentStart, contentEnd: close, outerEnd: close + 3))
                index = close + 3
            } else {
                result.append(Fence(outerStart: open, contentStart: contentStart, contentEnd: count, outerEnd: count))
                break
            }
        }
        return result
    }

    /// The next triple backtick at or after `start`; an opening one must begin its line.
    private func findTicks(from start: Int, opening: Bool = false) -> Int? {
        var index = start
        let tick = UInt8(ascii: "`")
        while index + 2 < bytes.count {
            if bytes[index] == tick, bytes[index + 1] == tick, bytes[index + 2] == tick {
                if !opening || startsLine(index) { return index }
                index += 3
                continue
            }
            index += 1
        }
        return nil
    }

    private func startsLine(_ index: Int) -> Bool {
        var cursor = index
        while cursor > 0 {
            let byte = bytes[cursor - 1]
            if byte == ByteClass.newline { return true }
            if byte != 0x20 && byte != 0x09 && byte != UInt8(ascii: ">") { return false }
            cursor -= 1
        }
        return true
    }

    /// All candidates, in text order. `allowScalars` lets a region that is a lone scalar count.
    func candidates(allowScalars: Bool) -> [Candidate] {
        var result: [Candidate] = []
        var cursor = 0
        assert(knownFences == nil || knownFences == fences(), "the fences given differ from the text's")
        let fences = knownFences ?? fences()
        for fence in fences {
            scan(cursor, fence.outerStart, fence: nil, allowScalars: allowScalars, into: &result)
            scan(fence.contentStart, fence.contentEnd, fence: fence, allowScalars: allowScalars, into: &result)
            cursor = fence.outerEnd
        }
        scan(cursor, bytes.count, fence: nil, allowScalars: allowScalars, into: &result)
        if result.isEmpty, !fences.isEmpty {
            scan(0, bytes.count, fence: nil, allowScalars: allowScalars, into: &result)
        }
        return result
    }

    private func trimmed(_ lower: Int, _ upper: Int) -> (Int, Int) {
        var low = lower
        var high = upper
        while low < high, ByteClass.isSpace(bytes[low]) { low += 1 }
        while high > low, ByteClass.isSpace(bytes[high - 1]) { high -= 1 }
        return (low, high)
    }

    private func scan(_ lower: Int, _ upper: Int, fence: Fence?, allowScalars: Bool, into result: inout [Candidate]) {
        guard upper > lower else { return }
        let (low, high) = trimmed(lower, upper)
        let isWhole = fence != nil || (lower == 0 && upper == bytes.count)
        if allowScalars, isWhole, low < high, bytes[low] != UInt8(ascii: "{"), bytes[low] != UInt8(ascii: "[") {
            var parser = TolerantParser(bytes: bytes, start: low, end: high)
            if let value = parser.parseTopLevel(), parser.pos == high, !parser.truncated {
                result.append(make(value, Parse(parser), low, high, region: (low, high), fence: fence, covers: true))
                return
            }
        }
        var index = low
        while index < high {
            while index < high, bytes[index] != UInt8(ascii: "{"), bytes[index] != UInt8(ascii: "[") { index += 1 }
            guard index < high else { break }
            var parser = TolerantParser(bytes: bytes, start: index, end: high)
            if let value = parser.parseTopLevel(),
                let candidate = kept(value, Parse(parser), from: index, region: (low, high), isWhole: isWhole, fence: fence)
            {
                result.append(candidate)
            }
            // Past a value nested too deep, the scan goes on from where it got too deep: the
            // levels above were tried once already (trying each again is `maxDepth` times the work).
            index = max(parser.pos, index + 1, parser.tooDeepAt ?? 0)
        }
    }

    /// What a parse of a candidate gave besides its value (``TolerantParser``'s, or the same
    /// from ``StreamingParser``).
    struct Parse {
        var end: Int
        var repairs: [Repair]
        var truncated: Bool
        var sawOrphans: Bool

        init(end: Int, repairs: [Repair], truncated: Bool, sawOrphans: Bool) {
            self.end = end
            self.repairs = repairs
            self.truncated = truncated
            self.sawOrphans = sawOrphans
        }

        init(_ parser: TolerantParser) {
            self.init(end: parser.pos, repairs: parser.repairs, truncated: parser.truncated, sawOrphans: parser.sawOrphans)
        }
    }

    /// The candidate the scan keeps for `value`, parsed from `index` in the trimmed region
    /// `region` (the whole region or fence when `isWhole`), or nil when it is not kept.
    private func kept(_ value: JSONValue, _ parse: Parse, from index: Int, region: (Int, Int), isWhole: Bool, fence: Fence?)
        -> Candidate?
    {
        var stop = parse.end
        while stop > index, ByteClass.isSpace(bytes[stop - 1]) { stop -= 1 }
        let covers = isWhole && index == region.0 && stop >= region.1
        guard covers || Self.isSubstantial(value) else { return nil }
        return make(value, parse, index, stop, region: region, fence: fence, covers: covers)
    }

    /// What ``candidates(allowScalars:)`` gives (scalars not allowed) when the regions it scans
    /// hold a single `{` or `[`, at `start`, whose parse gave `value` and `parse` (as
    /// ``TolerantParser`` parses it there, up to the region's end); `inFence` says which kind
    /// of region holds `start`. Nil when that is not the case or the candidate is not kept: then
    /// ``candidates(allowScalars:)`` must run.
    func onlyCandidate(_ value: JSONValue, _ parse: Parse, start: Int, inFence: Bool) -> [Candidate]? {
        var cursor = 0
        var region: (lower: Int, upper: Int, fence: Fence?)?
        for fence in knownFences ?? fences() {
            if !inFence, start >= cursor, start < fence.outerStart { region = (cursor, fence.outerStart, nil) }
            if inFence, start >= fence.contentStart, start < fence.contentEnd { region = (fence.contentStart, fence.contentEnd, fence) }
            cursor = fence.outerEnd
        }
        if !inFence, start >= cursor { region = (cursor, bytes.count, nil) }
        guard let region, region.upper > region.lower else { return nil }
        let (low, high) = trimmed(region.lower, region.upper)
        guard start >= low, start < high, parse.end <= high, bytes[start] == UInt8(ascii: "{") || bytes[start] == UInt8(ascii: "[")
        else { return nil }
        let isWhole = region.fence != nil || (region.lower == 0 && region.upper == bytes.count)
        return kept(value, parse, from: start, region: (low, high), isWhole: isWhole, fence: region.fence).map { [$0] }
    }

    /// Whether a value found inside prose is more than a footnote-like `[1]` or an empty `{}`.
    static func isSubstantial(_ value: JSONValue) -> Bool {
        switch value {
        case .object(let members): return !members.isEmpty
        case .array(let elements):
            if elements.count >= 2 { return true }
            return elements.first?.isContainer ?? false
        default: return false
        }
    }

    private func make(
        _ value: JSONValue, _ parse: Parse, _ start: Int, _ end: Int, region: (Int, Int), fence: Fence?, covers: Bool
    ) -> Candidate {
        var repairs: [Repair] = []
        if fence != nil { repairs.append(.strippedFence) }
        var prose = start > region.0 || end < region.1
        if let fence {
            prose = prose || firstText < fence.outerStart || lastText >= fence.outerEnd
        } else {
            prose = prose || firstText < start || lastText >= end
        }
        if prose { repairs.append(.strippedProse) }
        repairs.append(contentsOf: parse.repairs)
        return Candidate(
            value: value, repairs: repairs, truncated: parse.truncated, hasOrphans: parse.sawOrphans,
            start: start, end: end, inFence: fence != nil, coversRegion: covers)
    }

    /// The answer with JSON string escapes decoded (for answers that are escaped JSON text
    /// outside any string, e.g. `{\"a\": 1}`); `nil` when it has no escaped quotes.
    static func unescaped(_ bytes: [UInt8]) -> [UInt8]? {
        var found = false
        for index in 0..<max(0, bytes.count - 1) where bytes[index] == ByteClass.backslash && bytes[index + 1] == ByteClass.quote {
            found = true
            break
        }
        guard found else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == ByteClass.backslash, index + 1 < bytes.count {
                let next = bytes[index + 1]
                switch next {
                case ByteClass.quote, ByteClass.backslash, UInt8(ascii: "/"): output.append(next)
                case UInt8(ascii: "n"): output.append(0x0A)
                case UInt8(ascii: "t"): output.append(0x09)
                case UInt8(ascii: "r"): output.append(0x0D)
                default: output.append(contentsOf: [byte, next])
                }
                index += 2
            } else {
                output.append(byte)
                index += 1
            }
        }
        return output
    }
}
