public import Courier
import CourierTransportCore
import Foundation

/// A response body's lines as they arrive (LF or CRLF ends a line; the last line may have none),
/// decoded as UTF-8 (an invalid byte becomes U+FFFD). A line longer than the client's
/// `maxResponseBytes` ends the stream with `NetworkError/responseTooLarge(limit:)`. Otherwise
/// as ``ByteStream``.
public struct LineStream: AsyncSequence, Sendable {
    public typealias Element = String
    public typealias Failure = NetworkError

    let bytes: ByteStream
    let limit: Int

    public func makeAsyncIterator() -> Iterator {
        Iterator(lines: RawLines(bytes: bytes.makeAsyncIterator(), splitter: LineSplitter(limit: limit)))
    }

    /// Reads lines one at a time.
    public struct Iterator: AsyncIteratorProtocol {
        var lines: RawLines

        public mutating func next() async throws(NetworkError) -> String? {
            try await next(isolation: nil)
        }

        public mutating func next(isolation actor: isolated (any Actor)?) async throws(NetworkError) -> String? {
            let next: Data?
            if let ready = lines.nextReady() { next = ready } else { next = try await lines.next(isolation: actor) }
            guard let line = next else { return nil }
            return String(decoding: line, as: UTF8.self)
        }
    }
}

/// The lines of a ``ByteStream`` as bytes: what ``LineStream`` and ``JSONLineStream`` read.
struct RawLines {
    var bytes: ByteStream.Iterator
    var splitter: LineSplitter
    var ready: [Data] = []
    var index = 0
    var ended = false

    /// A line already split, without suspending (most calls: a network read holds many lines).
    mutating func nextReady() -> Data? {
        guard index < ready.count else { return nil }
        defer { index += 1 }
        return ready[index]
    }

    mutating func next(isolation actor: isolated (any Actor)?) async throws(NetworkError) -> Data? {
        while true {
            if index < ready.count {
                defer { index += 1 }
                return ready[index]
            }
            if ended { return nil }
            guard let chunk = try await bytes.next(isolation: actor) else {
                ended = true
                ready = try splitter.finish().map { [$0] } ?? []
                index = 0
                continue
            }
            ready = try splitter.feed(chunk)
            index = 0
        }
    }
}
