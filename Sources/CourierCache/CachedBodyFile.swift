import Courier
import CourierTransportCore
public import Foundation

/// A stored body that a ``DiskCacheStorage`` keeps in a file of its own (a large body, or one
/// written to disk as it streamed in): served in chunks of 64 KiB, never read whole.
///
/// It holds the file open from the moment the entry is looked up, so the body stays readable
/// even when another process replaces or evicts the entry meanwhile.
///
/// ```swift
/// if let file = storage.variants(for: url).first?.bodyFile {
///     for try await chunk in file.chunks() { sink.write(chunk) }
/// }
/// ```
public final class CachedBodyFile: Sendable {
    /// Where the file is.
    public let path: String
    /// The body's length in bytes.
    public let length: Int
    /// For a body that is a hard link to a downloaded file: the SHA-256 (hex) its bytes must have.
    let sha256: String?
    private let descriptor: Int32
    /// How much one read takes: large enough for few system calls, small enough to keep memory flat.
    static let chunkSize = 64 << 10

    /// Opens the file at `path`; nil unless it holds exactly `length` bytes (a shorter or longer
    /// file is a damaged entry).
    convenience init?(path: String, length: Int, sha256: String? = nil) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { return nil }
        guard let status = Platform.status(of: descriptor), status.size == Int64(length) else {
            close(descriptor)
            return nil
        }
        self.init(path: path, descriptor: descriptor, length: length, sha256: sha256)
    }

    /// A file already open on `descriptor` (which it now owns).
    init(path: String, descriptor: Int32, length: Int, sha256: String? = nil) {
        self.path = path
        self.descriptor = descriptor
        self.length = length
        self.sha256 = sha256
    }

    /// The open file's status (`fstat`): which inode, its size and times — nil when it fails.
    func status() -> FileStatus? {
        Platform.status(of: descriptor)
    }

    deinit { close(descriptor) }

    /// The body's bytes in `range` (all of them by default), in chunks of at most 64 KiB read as
    /// they are asked for. Iterating fails if the file no longer holds them.
    public func chunks(in range: Range<Int>? = nil) -> Chunks {
        let bounds = range.map { $0.clamped(to: 0..<length) } ?? 0..<length
        return Chunks(file: self, range: bounds)
    }

    /// The whole body in memory (what ``CachedResponse/body`` answers for a body in a file); nil
    /// when the file cannot be read whole.
    public func readAll() -> Data? {
        readData(in: 0..<length)
    }

    /// The bytes in `range` without a copy: the file mapped, its pages read as the caller touches
    /// them (the copy of 1 MB was a fifth of a 304 from disk). Only for a file the store alone
    /// writes, which is never shortened in place (reading a mapped file past its new end faults);
    /// a body linked to a download — its owner may truncate it — is read, not mapped. Falls back
    /// to a read when mapping fails.
    func data(in range: Range<Int>) -> Data? {
        guard sha256 == nil, range.count >= Self.chunkSize, range.upperBound <= length else { return readData(in: range) }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let start = range.lowerBound / page * page
        let mapped = range.upperBound - start
        guard let base = mmap(nil, mapped, PROT_READ, MAP_PRIVATE, descriptor, off_t(start)), base != MAP_FAILED else {
            return readData(in: range)
        }
        return Data(bytesNoCopy: base + (range.lowerBound - start), count: range.count, deallocator: .custom { _, _ in munmap(base, mapped) })
    }

    /// The bytes in `range` in one read; nil when the file does not hold them all.
    func readData(in range: Range<Int>) -> Data? {
        var data = Data(count: range.count)
        let filled = data.withUnsafeMutableBytes { buffer in fill(buffer, at: range.lowerBound) }
        return filled == range.count ? data : nil
    }

    /// Reads `count` bytes at `offset`.
    func read(at offset: Int, count: Int) throws -> ArraySlice<UInt8> {
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            initialized = fill(UnsafeMutableRawBufferPointer(buffer), at: offset)
        }
        guard bytes.count == count else { throw ReadError(path: path) }
        return bytes[...]
    }

    /// Fills `buffer` from `offset`; the count read (short at the end of the file or on an error).
    private func fill(_ buffer: UnsafeMutableRawBufferPointer, at offset: Int) -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        var done = 0
        while done < buffer.count {
            let count = pread(descriptor, base + done, buffer.count - done, off_t(offset + done))
            if count < 0, errno == EINTR { continue }
            if count <= 0 { break }
            done += count
        }
        return done
    }

    /// A stored body file that ended before its recorded length.
    struct ReadError: Error, CustomStringConvertible {
        let path: String
        var description: String { "cached body file \(path) is shorter than its recorded length" }
    }

    /// A range of a ``CachedBodyFile`` as chunks of at most 64 KiB; may be iterated many times.
    public struct Chunks: AsyncSequence, Sendable {
        public typealias Element = ArraySlice<UInt8>
        let file: CachedBodyFile
        let range: Range<Int>

        public func makeAsyncIterator() -> Iterator { Iterator(file: file, offset: range.lowerBound, end: range.upperBound) }

        /// Reads the next chunk when asked.
        public struct Iterator: AsyncIteratorProtocol {
            let file: CachedBodyFile
            var offset: Int
            let end: Int

            public mutating func next() async throws -> ArraySlice<UInt8>? {
                guard offset < end else { return nil }
                let count = Swift.min(CachedBodyFile.chunkSize, end - offset)
                let chunk = try file.read(at: offset, count: count)
                offset += count
                return chunk
            }
        }
    }
}

extension CachedBodyFile: Equatable {
    /// Two handles on the same file and length.
    public static func == (lhs: CachedBodyFile, rhs: CachedBodyFile) -> Bool {
        lhs.path == rhs.path && lhs.length == rhs.length
    }
}
