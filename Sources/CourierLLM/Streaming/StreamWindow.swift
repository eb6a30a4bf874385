import Foundation

/// Thrown by a look-ahead that needs bytes which have not arrived yet.
struct NeedMore: Error {}

/// The bytes of a region received so far, for look-ahead decisions that must come out exactly
/// as ``TolerantParser`` decides them on the whole text: the decisions themselves are shared
/// (``LookAheadBytes``); here, before the region's end is known, a test that reaches the bytes
/// received so far throws ``NeedMore`` instead of answering, so a decision is taken only once
/// the bytes it reads are all there.
struct StreamWindow: LookAheadBytes {
    let bytes: [UInt8]
    /// The end of the bytes that may be read (received and inside the region).
    let end: Int
    /// Whether `end` is the region's true end (the text or the fence is complete).
    let isFinal: Bool

    /// Whether `index` is past the readable bytes; throws when the answer is not known yet.
    @inline(__always)
    func atEnd(_ index: Int) throws(NeedMore) -> Bool {
        if index < end { return false }
        if isFinal { return true }
        throw NeedMore()
    }

    /// The first index at or after `start` whose byte is not in `member`; throws when every
    /// byte received so far is (the token may go on).
    func runEnd(from start: Int, while member: (UInt8) -> Bool) throws(NeedMore) -> Int {
        var cursor = start
        while !(try atEnd(cursor)), member(bytes[cursor]) { cursor += 1 }
        return cursor
    }
}
