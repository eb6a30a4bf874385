import Foundation

/// Finds, as bytes arrive, the regions ``CandidateFinder`` scans: prose between fences and the
/// content of each fenced block. It mirrors `CandidateFinder.fences()` (an opening fence begins
/// its line; a fence closes at the next triple backtick, wherever it is), so a candidate is
/// parsed up to the same end as in the whole answer.
struct RegionTracker {
    enum Kind { case prose, header, fence }

    private(set) var kind = Kind.prose
    /// Where the current region's text begins.
    private(set) var regionStart = 0
    private var cursor = 0
    private var openAt = 0
    /// The fences closed so far, as `CandidateFinder.fences()` finds them in the whole text.
    private var closed: [CandidateFinder.Fence] = []

    /// The current region's bytes known so far: up to `end`, and whether that is its true end.
    struct Extent {
        var end: Int
        var isFinal: Bool
        /// The region ends at `end` and another begins there (a fence opens or closes).
        var isBoundary = false
    }

    /// Scans the bytes received so far; in `.header` state, moves to the fence when its first
    /// line is complete. Returns the current region's extent.
    mutating func scan(_ bytes: [UInt8], final: Bool) -> Extent {
        if kind == .header {
            var lineEnd = openAt + 3
            while lineEnd < bytes.count, bytes[lineEnd] != ByteClass.newline, bytes[lineEnd] != UInt8(ascii: "{"),
                bytes[lineEnd] != UInt8(ascii: "[")
            { lineEnd += 1 }
            if lineEnd >= bytes.count, !final { return Extent(end: openAt, isFinal: false) }
            regionStart = lineEnd < bytes.count && bytes[lineEnd] == ByteClass.newline ? lineEnd + 1 : lineEnd
            kind = .fence
            cursor = regionStart
        }
        let opening = kind == .prose
        let tick = UInt8(ascii: "`")
        while cursor + 2 < bytes.count {
            // Straight to the next backtick that could begin a triple one.
            cursor = Self.firstTick(bytes, from: cursor, to: bytes.count - 2)
            guard cursor + 2 < bytes.count else { break }
            if bytes[cursor + 1] == tick, bytes[cursor + 2] == tick {
                if !opening || Self.startsLine(bytes, cursor) { return Extent(end: cursor, isFinal: true, isBoundary: true) }
                cursor += 3
                continue
            }
            cursor += 1
        }
        // Only a trailing run of backticks may still become a fence.
        var safe = bytes.count
        while safe > cursor, bytes[safe - 1] == UInt8(ascii: "`") { safe -= 1 }
        return Extent(end: final ? bytes.count : safe, isFinal: final)
    }

    /// Whether `chunk`, received after the `count` bytes already scanned, cannot open or close
    /// a region: no backtick in it, and the scan stopped before it (then ``skipPlain(to:)``
    /// stands for ``scan(_:final:)``, which would only move past it).
    func isPlain(_ chunk: UnsafeBufferPointer<UInt8>, at count: Int) -> Bool {
        guard kind != .header, cursor + 2 >= count else { return false }
        if chunk.count == 1 { return chunk[0] != UInt8(ascii: "`") }
        guard let base = chunk.baseAddress else { return true }
        return memchr(base, Int32(UInt8(ascii: "`")), chunk.count) == nil
    }

    /// The index of the first backtick in `bytes[start..<end]`, or `end` (`memchr`).
    private static func firstTick(_ bytes: [UInt8], from start: Int, to end: Int) -> Int {
        guard start < end else { return end }
        return bytes.withUnsafeBufferPointer { buffer in
            let base = buffer.baseAddress!
            guard let found = memchr(base + start, Int32(UInt8(ascii: "`")), end - start) else { return end }
            return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
    }

    /// ``isPlain(_:at:)`` for a chunk of one byte.
    @inline(__always)
    func isPlain(_ byte: UInt8, at count: Int) -> Bool {
        kind != .header && cursor + 2 >= count && byte != UInt8(ascii: "`")
    }

    /// Moves past a chunk that ``isPlain(_:at:)`` accepted, now the bytes end at `count`.
    mutating func skipPlain(to count: Int) {
        cursor = max(cursor, count - 2)
    }

    /// The current region ended at the boundary ``scan(_:final:)`` returned: moves to the next.
    mutating func nextRegion() {
        switch kind {
        case .prose:
            openAt = cursor
            kind = .header
        case .fence, .header:
            closed.append(
                CandidateFinder.Fence(outerStart: openAt, contentStart: regionStart, contentEnd: cursor, outerEnd: cursor + 3))
            regionStart = cursor + 3
            cursor = regionStart
            kind = .prose
        }
    }

    /// The fences of the whole text, as `CandidateFinder.fences()` finds them, once ``scan(_:final:)``
    /// has seen all of its `count` bytes (`final`): a fence still open runs to the end.
    func fences(count: Int) -> [CandidateFinder.Fence] {
        guard kind == .fence else { return closed }
        return closed + [CandidateFinder.Fence(outerStart: openAt, contentStart: regionStart, contentEnd: count, outerEnd: count)]
    }

    private static func startsLine(_ bytes: [UInt8], _ index: Int) -> Bool {
        var cursor = index
        while cursor > 0 {
            let byte = bytes[cursor - 1]
            if byte == ByteClass.newline { return true }
            if byte != 0x20 && byte != 0x09 && byte != UInt8(ascii: ">") { return false }
            cursor -= 1
        }
        return true
    }
}
