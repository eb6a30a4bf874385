import CourierTransportCore
import OpenAPIRuntime

/// A streamed response body that records `bodyDone` in its call's timeline when it ends, and
/// then calls `ended` (with the error, if it failed).
enum RecordedBody {
    static func wrap(_ body: HTTPBody, recorder: CallRecorder, ended: @escaping @Sendable (NetworkError?) -> Void) -> HTTPBody {
        HTTPBody(Recording(body: body, recorder: recorder, ended: ended), length: body.length, iterationBehavior: body.iterationBehavior)
    }

    struct Recording: AsyncSequence, Sendable {
        typealias Element = ArraySlice<UInt8>
        let body: HTTPBody
        let recorder: CallRecorder
        let ended: @Sendable (NetworkError?) -> Void

        func makeAsyncIterator() -> Iterator {
            Iterator(inner: body.makeAsyncIterator(), recorder: recorder, ended: ended)
        }

        struct Iterator: AsyncIteratorProtocol {
            var inner: HTTPBody.Iterator
            let recorder: CallRecorder
            let ended: @Sendable (NetworkError?) -> Void
            var bytes = 0
            var done = false

            mutating func next() async throws -> ArraySlice<UInt8>? {
                guard !done else { return nil }
                do {
                    guard let chunk = try await inner.next() else {
                        done = true
                        recorder.record(.bodyDone(bytes: bytes))
                        ended(nil)
                        return nil
                    }
                    bytes += chunk.count
                    return chunk
                } catch {
                    done = true
                    ended(Task.isCancelled ? .taskCancelled : NetworkError(error))
                    throw error
                }
            }
        }
    }
}
