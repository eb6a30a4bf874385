import NIOCore

/// The bytes of `GET /files/{name}?size=&seed=&version=`: a pure function of seed, version and
/// offset, so a test can check any range of a download (or a resumed one) without the server.
///
/// Byte `i` is `pattern[i % 65_521]`, where the pattern is drawn from SplitMix64 seeded by
/// `seed` and `version`. The period is a prime, so it never lines up with a power-of-two chunk:
/// a piece written at the wrong offset does not match by accident. Two versions of the same seed
/// differ at almost every offset (255 in 256), so bytes of two versions spliced together are
/// detectable.
///
/// ```swift
/// let file = SandboxFileContent(size: 10_000_000, seed: 7, version: 2)
/// #expect(downloaded == file.bytes(in: 0..<file.size))
/// #expect(Array(downloaded[5_000...5_099]) == file.bytes(in: 5_000..<5_100))
/// ```
public struct SandboxFileContent: Sendable {
    /// The length of the repeating pattern: 65,521, the largest prime below 64 KiB.
    public static let period = 65_521

    /// The longest piece ``chunk(at:length:)`` hands out without copying.
    static let chunkLimit = 64 * 1024

    /// The file's length in bytes.
    public let size: Int64
    /// Chooses the pattern, with ``version``.
    public let seed: UInt64
    /// Chooses the pattern, with ``seed``: another version is another file of the same size.
    public let version: UInt64

    /// One period of the pattern.
    private let pattern: [UInt8]
    /// The pattern repeated over `period + chunkLimit` bytes: any piece of up to ``chunkLimit`` bytes is one slice of it.
    private let tiled: ByteBuffer

    /// The file of `size` bytes (a negative size is 0) drawn from `seed` and `version`.
    public init(size: Int64, seed: UInt64, version: UInt64) {
        self.size = max(0, size)
        self.seed = seed
        self.version = version
        // The seed's own draw, then the version on top: for one seed, every version starts
        // SplitMix64 from a different state.
        var seeded = SplitMix(state: seed)
        var mixed = SplitMix(state: seeded.next() ^ version)
        var generator = SplitMix(state: mixed.next())
        var pattern = [UInt8]()
        pattern.reserveCapacity(Self.period + 7)
        while pattern.count < Self.period {
            let word = generator.next()
            for shift in stride(from: 0, to: 64, by: 8) { pattern.append(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
        }
        pattern.removeLast(pattern.count - Self.period)
        self.pattern = pattern
        var tiled = ByteBuffer()
        tiled.reserveCapacity(Self.period + Self.chunkLimit)
        while tiled.readableBytes < Self.period + Self.chunkLimit {
            tiled.writeBytes(pattern.prefix(Self.period + Self.chunkLimit - tiled.readableBytes))
        }
        self.tiled = tiled
    }

    /// The byte at `offset` (the pattern's, even past ``size``).
    public func byte(at offset: Int64) -> UInt8 {
        pattern[Self.patternIndex(offset)]
    }

    /// The bytes of `range`, clamped to `0..<size`.
    public func bytes(in range: Range<Int64>) -> [UInt8] {
        let clamped = range.clamped(to: 0..<size)
        var result = [UInt8]()
        result.reserveCapacity(clamped.count)
        forEachPiece(of: clamped) { result.append(contentsOf: $0) }
        return result
    }

    /// Appends the bytes of `range`, clamped to `0..<size`, to `buffer`.
    public func write(_ range: Range<Int64>, into buffer: inout ByteBuffer) {
        let clamped = range.clamped(to: 0..<size)
        buffer.reserveCapacity(minimumWritableBytes: clamped.count)
        forEachPiece(of: clamped) { buffer.writeBytes($0) }
    }

    /// The `length` bytes (at most ``chunkLimit``) from `offset`, as a slice of one shared buffer:
    /// what the route writes, without copying.
    func chunk(at offset: Int64, length: Int) -> ByteBuffer {
        tiled.getSlice(at: Self.patternIndex(offset), length: min(max(0, length), Self.chunkLimit)) ?? ByteBuffer()
    }

    /// Hands `range` to `body` in pieces of the pattern, in order.
    private func forEachPiece(of range: Range<Int64>, _ body: (ArraySlice<UInt8>) -> Void) {
        var offset = range.lowerBound
        while offset < range.upperBound {
            let start = Self.patternIndex(offset)
            let length = Int(min(Int64(Self.period - start), range.upperBound - offset))
            body(pattern[start..<(start + length)])
            offset += Int64(length)
        }
    }

    /// Where `offset` falls in the pattern (a negative offset counts back from 0).
    private static func patternIndex(_ offset: Int64) -> Int {
        let index = Int(offset % Int64(period))
        return index < 0 ? index + period : index
    }
}
