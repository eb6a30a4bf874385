public import Courier
import CourierTransportCore
import Synchronization

/// The progress of one download or upload, as an `AsyncSequence` of snapshots that exists before
/// the transfer starts — so no event is lost, whenever the reader begins.
///
/// ```swift
/// let progress = TransferProgress()
/// async let saved = client.download(Assets.poster(id), to: fileURL, progress: progress)
/// for await snapshot in progress {
///     print(snapshot.bytesDone, snapshot.fractionCompleted ?? "?")
/// }
/// let file = try await saved
/// ```
///
/// Snapshots come at most every ``interval`` (the first and the last always); a slow reader gets
/// the newest one, never a backlog. The sequence ends when the transfer ends, successfully or
/// not; the last snapshot of a finished transfer has ``Snapshot/isFinished`` set. One reader:
/// iterate it once. A transfer started over (a server that answered a resume with the whole
/// body) reports from zero again. Nobody reading costs one lock and one clock read per chunk.
public final class TransferProgress: AsyncSequence, ByteProgress {
    public typealias Element = Snapshot
    public typealias Failure = Never

    /// One moment of a transfer.
    public struct Snapshot: Sendable, Equatable {
        /// Bytes transferred so far (for a resumed download, the bytes kept from before included).
        public var bytesDone: Int64
        /// The total when the server or the source declared it; nil when unknown.
        public var bytesExpected: Int64?
        /// Bytes per second since this transfer (or its resumption) started.
        public var bytesPerSecond: Double
        /// Whether the transfer has completed.
        public var isFinished: Bool

        /// Creates a snapshot.
        public init(bytesDone: Int64, bytesExpected: Int64?, bytesPerSecond: Double, isFinished: Bool) {
            self.bytesDone = bytesDone
            self.bytesExpected = bytesExpected
            self.bytesPerSecond = bytesPerSecond
            self.isFinished = isFinished
        }

        /// From 0 to 1; nil when the total is unknown.
        public var fractionCompleted: Double? {
            guard let bytesExpected, bytesExpected > 0 else { return bytesExpected == 0 ? 1 : nil }
            return Swift.min(1, Double(bytesDone) / Double(bytesExpected))
        }

        /// The time left at the current rate; nil when the total or the rate is unknown.
        public var estimatedTimeRemaining: Duration? {
            guard let bytesExpected, bytesPerSecond > 0 else { return nil }
            let seconds = Double(Swift.max(0, bytesExpected - bytesDone)) / bytesPerSecond
            return seconds.isFinite && seconds < 1e9 ? .milliseconds(Int64(seconds * 1000)) : nil
        }
    }

    /// The shortest time between two snapshots.
    public let interval: Duration

    private struct State {
        var done: Int64 = 0
        var expected: Int64?
        /// Bytes counted at ``started`` (kept from before a resume), for the rate.
        var doneAtStart: Int64 = 0
        var started: ContinuousClock.Instant?
        var lastSent: ContinuousClock.Instant?
        var ended = false
    }

    private let state = Mutex(State())
    private let stream: AsyncStream<Snapshot>
    private let continuation: AsyncStream<Snapshot>.Continuation

    /// Progress that reports at most once per `interval` (100 ms by default).
    public init(interval: Duration = .milliseconds(100)) {
        self.interval = interval
        (stream, continuation) = AsyncStream.makeStream(of: Snapshot.self, bufferingPolicy: .bufferingNewest(1))
    }

    public func makeAsyncIterator() -> AsyncStream<Snapshot>.Iterator {
        stream.makeAsyncIterator()
    }

    /// The transfer (re)starts with `done` bytes already there, `expected` in all when known.
    package func begin(done: Int64, expected: Int64?) {
        let snapshot = state.withLock { state -> Snapshot? in
            guard !state.ended else { return nil }
            let now = ContinuousClock.now
            state.done = done
            state.doneAtStart = done
            state.expected = expected
            state.started = now
            state.lastSent = now
            return Self.snapshot(state, now: now, finished: false)
        }
        if let snapshot { continuation.yield(snapshot) }
    }

    /// `count` more bytes transferred.
    package func add(_ count: Int) {
        let snapshot = state.withLock { state -> Snapshot? in
            state.done += Int64(count)
            let now = ContinuousClock.now
            if let last = state.lastSent, now - last < interval { return nil }
            if state.ended { return nil }
            state.lastSent = now
            return Self.snapshot(state, now: now, finished: false)
        }
        if let snapshot { continuation.yield(snapshot) }
    }

    /// The transfer ended: a last snapshot (finished when `success`), then the sequence ends.
    func end(success: Bool) {
        let snapshot = state.withLock { state -> Snapshot? in
            guard !state.ended else { return nil }
            state.ended = true
            return Self.snapshot(state, now: .now, finished: success)
        }
        if let snapshot { continuation.yield(snapshot) }
        continuation.finish()
    }

    private static func snapshot(_ state: State, now: ContinuousClock.Instant, finished: Bool) -> Snapshot {
        var rate = 0.0
        if let started = state.started {
            let seconds = (now - started).seconds
            if seconds > 0.001 { rate = Double(state.done - state.doneAtStart) / seconds }
        }
        return Snapshot(bytesDone: state.done, bytesExpected: state.expected, bytesPerSecond: rate, isFinished: finished)
    }
}
