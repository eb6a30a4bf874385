import CourierTransportCore
import Foundation
import OpenAPIRuntime

/// A file as a request body: read in 256 KiB pieces while it is sent, its length known up front,
/// iterable again (each iteration reopens the file) so a retry can send it once more.
enum FileBody {
    /// How much one read takes.
    static let chunkSize = 256 << 10

    /// The body of the file at `url`; ``NetworkError/encodingError`` when it is not a readable
    /// regular file.
    static func make(_ url: URL) throws(NetworkError) -> HTTPBody {
        guard let status = Platform.status(atPath: url.path), status.isRegularFile else { throw .encodingError }
        let length = status.size
        let body = HTTPBody(Chunks(path: url.path, length: length), length: .known(length), iterationBehavior: .multiple)
        return body
    }

    /// The file's bytes, read lazily; a file that changed length while being sent fails the body.
    struct Chunks: AsyncSequence, Sendable {
        typealias Element = ArraySlice<UInt8>
        let path: String
        let length: Int64

        func makeAsyncIterator() -> Iterator { Iterator(path: path, length: length) }

        final class Iterator: AsyncIteratorProtocol {
            let path: String
            let length: Int64
            private var descriptor: Int32 = -1
            private var offset: Int64 = 0

            init(path: String, length: Int64) {
                self.path = path
                self.length = length
            }

            deinit {
                if descriptor >= 0 { _ = close(descriptor) }
            }

            func next() async throws -> ArraySlice<UInt8>? {
                if descriptor < 0 {
                    descriptor = open(path, O_RDONLY | O_CLOEXEC)
                    guard descriptor >= 0 else { throw NetworkError.encodingError }
                }
                let want = Int(Swift.min(Int64(FileBody.chunkSize), length - offset))
                guard want > 0 else { return nil }
                let chunk = try [UInt8](unsafeUninitializedCapacity: want) { buffer, count in
                    var read = 0
                    while read < want {
                        let got = pread(descriptor, buffer.baseAddress! + read, want - read, off_t(offset) + off_t(read))
                        if got < 0 && errno == EINTR { continue }
                        guard got > 0 else { throw NetworkError.encodingError }  // the file shrank or failed
                        read += got
                    }
                    count = read
                }
                offset += Int64(chunk.count)
                return chunk[...]
            }
        }
    }
}
