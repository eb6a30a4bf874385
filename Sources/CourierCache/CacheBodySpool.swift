import Courier
import CourierTransportCore
import Foundation
import OpenAPIRuntime

/// A response body passed on to the caller chunk by chunk while a ``CacheBodyWriter`` copies it
/// to disk: when it ends whole (its declared length, if any, reached; not cancelled) the file is
/// committed and handed to `complete`; when it fails, is cut short or is abandoned, the
/// temporary file goes and nothing is stored.
struct CacheBodySpool: AsyncSequence, Sendable {
    typealias Element = HTTPBody.ByteChunk
    let source: Source

    /// A spool of `upstream` (of which `prefix` was already read) into `writer`.
    init(
        prefix: ArraySlice<UInt8>, upstream: HTTPBody.AsyncIterator, expected: Int?, writer: CacheBodyWriter,
        complete: @escaping @Sendable (CachedBodyFile) -> Void
    ) {
        source = Source(prefix: prefix, upstream: upstream, expected: expected, writer: writer, complete: complete)
    }

    func makeAsyncIterator() -> Iterator { Iterator(source: source) }

    /// Reads through the shared source.
    struct Iterator: AsyncIteratorProtocol {
        let source: Source

        mutating func next() async throws -> HTTPBody.ByteChunk? { try await source.next() }
    }

    /// The one iteration of the upstream body (HTTPBody's iterator; the body is `.single`-iteration).
    final class Source: @unchecked Sendable {  // unchecked: one task at a time calls next()
        private var pending: ArraySlice<UInt8>?
        private var upstream: HTTPBody.AsyncIterator
        private var writer: CacheBodyWriter?
        private let expected: Int?
        private let complete: @Sendable (CachedBodyFile) -> Void

        init(
            prefix: ArraySlice<UInt8>, upstream: HTTPBody.AsyncIterator, expected: Int?, writer: CacheBodyWriter,
            complete: @escaping @Sendable (CachedBodyFile) -> Void
        ) {
            self.pending = prefix
            self.upstream = upstream
            self.expected = expected
            self.writer = writer
            self.complete = complete
        }

        // Released before the end (the caller stopped reading): the writer's file goes.
        deinit { writer?.discard() }

        func next() async throws -> HTTPBody.ByteChunk? {
            if let prefix = pending {
                pending = nil
                if !prefix.isEmpty {
                    keep(prefix)
                    return prefix
                }
            }
            let chunk: HTTPBody.ByteChunk?
            do {
                chunk = try await upstream.next()
            } catch {
                abandon()
                throw error
            }
            guard let chunk else {
                finish()
                return nil
            }
            keep(chunk)
            return chunk
        }

        private func keep(_ chunk: HTTPBody.ByteChunk) {
            if let writer, !writer.write(chunk) { self.writer = nil }
        }

        private func abandon() {
            writer?.discard()
            writer = nil
        }

        private func finish() {
            guard let writer else { return }
            self.writer = nil
            // A cancelled read may end early without an error: only a whole body is stored.
            if Task.isCancelled || expected.map({ $0 != writer.count }) == true {
                writer.discard()
                return
            }
            if let file = writer.commit() { complete(file) }
        }
    }
}
