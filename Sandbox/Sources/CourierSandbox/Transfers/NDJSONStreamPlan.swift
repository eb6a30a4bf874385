import Hummingbird
import NIOCore

/// What one `GET /ndjson` request asked for, and the bytes of its stream.
///
/// Record `i` (0 … count−1) is `{"index":i,"text":"line i 서울"}` ended by `\n`; in `jsonseq`
/// (RFC 7464) it is also preceded by the record separator 0x1E. Records go out in batches of
/// about 64 KiB when they follow each other at once, one per write when `interval` spaces them.
struct NDJSONStreamPlan: Sendable {
    /// The framing of the records.
    enum Format: String, Sendable {
        /// Newline-delimited JSON, `application/x-ndjson`.
        case ndjson
        /// JSON text sequences (RFC 7464), `application/json-seq`.
        case jsonseq

        var contentType: String {
            switch self {
            case .ndjson: "application/x-ndjson"
            case .jsonseq: "application/json-seq"
            }
        }
    }

    /// The most records one stream may ask for.
    static let maxCount = 10_000_000
    /// The longest `interval`, in milliseconds.
    static let maxIntervalMs = 10_000
    /// The longest a hanging stream stays silent before it ends.
    static let longestHang = Duration.seconds(120)
    /// Records are gathered into writes of about this many bytes.
    static let batchBytes = 64 * 1024

    /// Records 0 … count−1.
    var count: Int
    /// Sleep between two records.
    var interval: Duration
    /// Go silent (connection open) after this many records.
    var hangAfter: Int?
    var format: Format
    /// Counts this stream in ``TransferStats``.
    var key: String?

    /// The plan for `request`; 400 for a parameter that is present but wrong.
    init(_ request: Request) throws {
        let query = QueryReader(request)
        count = try query.integer("count", in: 0...Self.maxCount, default: 10)
        interval = .milliseconds(try query.integer("interval", in: 0...Self.maxIntervalMs, default: 0))
        hangAfter = try query.integer("hangAfter", in: 0...Self.maxCount)
        let format = query.text("format") ?? Format.ndjson.rawValue
        guard let format = Format(rawValue: format) else {
            throw HTTPError(.badRequest, message: "format must be ndjson or jsonseq")
        }
        self.format = format
        key = query.text("key")
    }

    /// Appends record `index` to `buffer`.
    func append(_ index: Int, to buffer: inout ByteBuffer) {
        if format == .jsonseq { buffer.writeInteger(UInt8(0x1E)) }
        buffer.writeString("{\"index\":\(index),\"text\":\"line \(index) 서울\"}\n")
    }

    /// Writes the records, `interval` apart, handing `wrote` the size of each write; at
    /// `hangAfter` stays silent until cancelled or ``longestHang`` has passed, then returns.
    func write(to writer: inout any ResponseBodyWriter, wrote: (Int) async -> Void) async throws {
        if hangAfter == 0 {
            try await Task.sleep(for: Self.longestHang)
            return
        }
        var batch = Self.emptyBatch()
        for index in 0..<count {
            append(index, to: &batch)
            let sent = index + 1
            let hangsHere = sent == hangAfter
            if interval > .zero || hangsHere || sent == count || batch.readableBytes >= Self.batchBytes {
                try Task.checkCancellation()
                try await writer.write(batch)
                await wrote(batch.readableBytes)
                batch = Self.emptyBatch()  // the written one may still be queued: never reuse it
            }
            if hangsHere {
                try await Task.sleep(for: Self.longestHang)
                return
            }
            if interval > .zero, sent < count { try await Task.sleep(for: interval) }
        }
    }

    /// A buffer with room for a batch.
    private static func emptyBatch() -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.reserveCapacity(batchBytes + 256)
        return buffer
    }
}
