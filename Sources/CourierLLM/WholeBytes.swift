/// A whole text for the look-ahead decisions (``LookAheadBytes``): every byte up to `end` is
/// there, so a decision is always taken at once (`Shortage` is `Never`). What
/// ``TolerantParser`` applies the repair rules to.
struct WholeBytes: LookAheadBytes {
    typealias Shortage = Never

    let bytes: [UInt8]
    /// The end of the bytes that may be read.
    let end: Int

    @inline(__always)
    func atEnd(_ index: Int) -> Bool { index >= end }
}
