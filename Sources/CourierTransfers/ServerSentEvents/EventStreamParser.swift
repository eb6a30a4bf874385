import Courier
import CourierTransportCore

/// Turns event-stream bytes into events, chunk by chunk, per the WHATWG rules
/// (https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation).
///
/// Hand-written because swift-openapi-runtime's decoder (1.13.4) breaks four of those rules —
/// each shown by `EventStreamParserTests`: it keeps a leading UTF-8 BOM in the first field name
/// (so the first event is lost), skips a field line without a colon (`id` alone must reset the
/// last event ID, `data` alone must add an empty line), dispatches blocks with no `data` (the
/// rules drop them), and does not carry the last event ID over to later events. Being a push
/// parser also lets the stream's reader feed it whole network chunks and hand events over in
/// batches, and bound a line's size.
struct EventStreamParser: Sendable {
    /// The last event ID buffer: what a reconnect sends as `Last-Event-ID`.
    private(set) var lastEventID = ""
    /// The reconnection time the stream asked for with `retry:`, in milliseconds.
    private(set) var reconnectionTime: Int?
    /// A line or an event larger than this many bytes fails the stream.
    let limit: Int

    private var line: [UInt8] = []
    private var data: [UInt8] = []
    private var hasData = false
    private var eventType: String?
    private var blockID: String?
    private var blockRetry: Int?
    /// The previous chunk ended in CR: a LF at the start of the next one ends nothing.
    private var skipLF = false
    /// A line or an event passed the limit inside the chunk being scanned: nothing more is handed
    /// over, and ``feed(_:)`` throws (fuzzing found events over the limit handed over whole when
    /// they began and ended inside one chunk).
    private var tooLarge = false
    /// Bytes held back until we know whether the stream starts with a BOM.
    private var head: [UInt8]? = []

    /// A parser that fails on lines or events over `limit` bytes (the client's default answer limit
    /// unless given).
    init(limit: Int = CallLimits.defaultMaxResponseBytes) {
        self.limit = limit
    }

    /// Parses `chunk` and returns the events it completes. Throws when a line or an event
    /// grows past ``limit``.
    mutating func feed(_ chunk: some Collection<UInt8>) throws(NetworkError) -> [ServerEvent] {
        var events: [ServerEvent] = []
        if var held = head {
            held.append(contentsOf: chunk)
            let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
            if held.count < 3, bom.starts(with: held) {
                head = held
                return events
            }
            head = nil
            scan(held.starts(with: bom) ? held[3...] : held[...], into: &events)
        } else if chunk.withContiguousStorageIfAvailable({ scan($0, into: &events) }) == nil {
            scan(Array(chunk), into: &events)
        }
        if tooLarge || line.count > limit || data.count > limit { throw .responseTooLarge(limit: limit) }
        return events
    }

    /// The stream ended or broke: an unfinished event is discarded (the rules say so); the last
    /// event ID and the reconnection time are kept for a reconnect.
    mutating func discardPending() {
        tooLarge = false
        line.removeAll(keepingCapacity: true)
        data.removeAll(keepingCapacity: true)
        hasData = false
        eventType = nil
        blockID = nil
        blockRetry = nil
        skipLF = false
        head = []
    }

    private mutating func scan<Bytes: Collection<UInt8>>(_ bytes: Bytes, into events: inout [ServerEvent]) {
        var start = bytes.startIndex
        var index = start
        if skipLF, index < bytes.endIndex {
            skipLF = false
            if bytes[index] == 0x0A {
                index = bytes.index(after: index)
                start = index
            }
        }
        while index < bytes.endIndex {
            let byte = bytes[index]
            guard byte == 0x0A || byte == 0x0D else {
                index = bytes.index(after: index)
                continue
            }
            if line.isEmpty {
                processLine(bytes[start..<index], into: &events)
            } else {
                line.append(contentsOf: bytes[start..<index])
                let whole = line
                line.removeAll(keepingCapacity: true)
                processLine(whole[...], into: &events)
            }
            index = bytes.index(after: index)
            if byte == 0x0D {
                if index == bytes.endIndex {
                    skipLF = true
                } else if bytes[index] == 0x0A {
                    index = bytes.index(after: index)
                }
            }
            start = index
        }
        if start < bytes.endIndex { line.append(contentsOf: bytes[start...]) }
    }

    private mutating func processLine<Line: Collection<UInt8>>(_ line: Line, into events: inout [ServerEvent]) {
        if tooLarge { return }
        if line.count > limit {
            tooLarge = true
            return
        }
        guard let first = line.first else {
            dispatch(into: &events)
            return
        }
        if first == 0x3A { return }  // ":" starts a comment
        let name: Line.SubSequence
        var value: Line.SubSequence
        if let colon = line.firstIndex(of: 0x3A) {
            name = line[line.startIndex..<colon]
            value = line[line.index(after: colon)...]
            if value.first == 0x20 { value = value.dropFirst() }
        } else {
            name = line[...]
            value = line[line.endIndex...]
        }
        switch Field(name) {
        case .data:
            if hasData { data.append(0x0A) }
            data.append(contentsOf: value)
            hasData = true
            if data.count > limit { tooLarge = true }
        case .event:
            eventType = String(decoding: value, as: UTF8.self)
        case .id:
            guard !value.contains(0) else { return }  // an id with NULL is ignored
            let id = String(decoding: value, as: UTF8.self)
            lastEventID = id
            blockID = id
        case .retry:
            // Digits only (the spec ignores anything else); a huge value saturates at a day.
            guard value.allSatisfy({ (0x30...0x39).contains($0) }),
                let milliseconds = WireNumber.digits(String(decoding: value, as: UTF8.self), cap: 86_400_000)
            else { return }
            reconnectionTime = milliseconds
            blockRetry = milliseconds
        case .other:
            return
        }
    }

    private mutating func dispatch(into events: inout [ServerEvent]) {
        defer {
            data.removeAll(keepingCapacity: true)
            hasData = false
            eventType = nil
            blockID = nil
            blockRetry = nil
        }
        // A block without data is not an event (its id and retry still took effect).
        guard hasData else { return }
        events.append(
            ServerEvent(
                id: blockID, event: eventType, data: String(decoding: data, as: UTF8.self),
                retry: blockRetry, lastEventID: lastEventID))
    }

    private enum Field {
        case data, event, id, retry, other

        init<Name: Collection<UInt8>>(_ name: Name) {
            switch name.count {
            case 2 where name.elementsEqual("id".utf8): self = .id
            case 4 where name.elementsEqual("data".utf8): self = .data
            case 5 where name.elementsEqual("event".utf8): self = .event
            case 5 where name.elementsEqual("retry".utf8): self = .retry
            default: self = .other
            }
        }
    }
}
