import Courier
import Foundation

@testable import CourierTransfers

// libFuzzer entry for the server-sent events parser (CourierTransfers' EventStreamParser
// and ServerEvent.parse, the real code compiled from Sources/CourierTransfers/ServerSentEvents).
//
// Input: byte 0 picks the line/event limit, byte 1 seeds the chunking, the rest is the stream.
// Checked on every input:
// - no crash, whatever the bytes and however they are cut into chunks;
// - chunking never changes the outcome: one chunk, random chunks (with empty ones) and
//   ServerEvent.parse give the same events, last event ID and reconnection time;
// - the events are those of the WHATWG rules, as the reference reader below (written from the
//   spec, independently) reads them;
// - with a limit, the stream fails with `.responseTooLarge(limit:)` rather than hand over an event
//   whose data exceeds the limit (switch: FUZZ_SSE_LIMIT=0), and what came before is a prefix of
//   the unlimited reading.

private let limits = [1, 4, 16, 64, 1024, 16 * 1024 * 1024]

@_cdecl("LLVMFuzzerTestOneInput")
public func sseFuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = fuzzBytes(data, size)
    guard input.count >= 2 else { return 0 }
    let limit = limits[Int(input[0]) % limits.count]
    var random = FuzzRandom(seed: UInt64(input[1]) << 32 | UInt64(input.count))
    let stream = Array(input[2...])

    // One chunk, no limit.
    var whole = EventStreamParser(limit: .max)
    let wholeEvents: [ServerEvent]
    do { wholeEvents = try whole.feed(stream) } catch { fuzzFailure("unlimited parser threw \(error)") }

    // Random chunks, no limit.
    var chunked = EventStreamParser(limit: .max)
    var chunkedEvents: [ServerEvent] = []
    let chunks = fuzzChunks(stream, random: &random, maxPiece: 1 + Int(input[1] % 16))
    do {
        for chunk in chunks { chunkedEvents += try chunked.feed(chunk) }
    } catch { fuzzFailure("unlimited parser threw \(error)") }
    guard chunkedEvents == wholeEvents, chunked.lastEventID == whole.lastEventID, chunked.reconnectionTime == whole.reconnectionTime else {
        fuzzFailure(
            "chunking changed the outcome for \(fuzzShow(stream)):\n  whole   \(wholeEvents) \(whole.lastEventID.debugDescription) \(String(describing: whole.reconnectionTime))\n  chunked \(chunkedEvents) \(chunked.lastEventID.debugDescription) \(String(describing: chunked.reconnectionTime))"
        )
    }
    let viaParse: [ServerEvent]
    do { viaParse = try ServerEvent.parse(chunks) } catch { fuzzFailure("ServerEvent.parse threw \(error)") }
    guard viaParse == wholeEvents else { fuzzFailure("ServerEvent.parse differs for \(fuzzShow(stream))") }

    // The rules, read independently.
    let reference = ReferenceReader.read(stream)
    guard reference.events == wholeEvents, reference.lastEventID == whole.lastEventID, reference.reconnectionTime == whole.reconnectionTime else {
        fuzzFailure(
            "parser and WHATWG reference differ for \(fuzzShow(stream)):\n  parser    \(wholeEvents) \(whole.lastEventID.debugDescription) \(String(describing: whole.reconnectionTime))\n  reference \(reference.events) \(reference.lastEventID.debugDescription) \(String(describing: reference.reconnectionTime))"
        )
    }

    // With a limit: the events before a failure are the unlimited reading's first ones, and none
    // is over the limit.
    var limited = EventStreamParser(limit: limit)
    var limitedEvents: [ServerEvent] = []
    for chunk in chunks {
        do {
            limitedEvents += try limited.feed(chunk)
        } catch {
            guard case .responseTooLarge(let reported) = error, reported == limit else { fuzzFailure("limited parser threw \(error)") }
            break
        }
    }
    guard wholeEvents.starts(with: limitedEvents) else { fuzzFailure("limited parser's events are not a prefix for \(fuzzShow(stream))") }
    // The limit counts the bytes received; an event's text may be up to 3× as long in UTF-8
    // (each invalid byte becomes U+FFFD, three bytes).
    if fuzzCheck("SSE_LIMIT"), let big = limitedEvents.first(where: { $0.data.utf8.count > 3 * limit }) {
        fuzzFailure(
            "an event of \(big.data.utf8.count) data bytes passed a \(limit)-byte limit (stream \(fuzzShow(stream)), chunks \(chunks.map(\.count)))")
    }

    // After a break the parser starts over (a BOM again, no pending block) but keeps the ID.
    limited.discardPending()
    _ = try? limited.feed(stream)
    return 0
}

/// The WHATWG event-stream interpretation, written from the spec
/// (html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation) over the
/// whole stream at once, plus Courier's additions (an event's own `id` and `retry`, the retry cap).
private enum ReferenceReader {
    static func read(_ bytes: [UInt8]) -> (events: [ServerEvent], lastEventID: String, reconnectionTime: Int?) {
        var rest = bytes[...]
        if rest.starts(with: [0xEF, 0xBB, 0xBF]) { rest = rest.dropFirst(3) }  // UTF-8 decode strips one BOM
        // Lines end at CRLF, LF or CR; a last line without an end is never processed.
        var lines: [ArraySlice<UInt8>] = []
        var start = rest.startIndex
        var index = start
        while index < rest.endIndex {
            let byte = rest[index]
            if byte == 0x0A || byte == 0x0D {
                lines.append(rest[start..<index])
                index += 1
                if byte == 0x0D, index < rest.endIndex, rest[index] == 0x0A { index += 1 }
                start = index
            } else {
                index += 1
            }
        }
        var events: [ServerEvent] = []
        var lastEventID = ""
        var reconnectionTime: Int?
        var dataBuffer: [UInt8] = []
        var sawData = false
        var eventType: String?
        var blockID: String?
        var blockRetry: Int?
        for line in lines {
            if line.isEmpty {
                // Dispatch: nothing when no data line came; the trailing LF is dropped.
                if sawData {
                    if dataBuffer.last == 0x0A { dataBuffer.removeLast() }
                    events.append(
                        ServerEvent(
                            id: blockID, event: eventType, data: String(decoding: dataBuffer, as: UTF8.self),
                            retry: blockRetry, lastEventID: lastEventID))
                }
                dataBuffer = []
                sawData = false
                eventType = nil
                blockID = nil
                blockRetry = nil
                continue
            }
            if line.first == 0x3A { continue }
            let field: ArraySlice<UInt8>
            var value: ArraySlice<UInt8>
            if let colon = line.firstIndex(of: 0x3A) {
                field = line[..<colon]
                value = line[(colon + 1)...]
                if value.first == 0x20 { value = value.dropFirst() }
            } else {
                field = line
                value = []
            }
            switch String(decoding: field, as: UTF8.self) {
            case "event": eventType = String(decoding: value, as: UTF8.self)
            case "data":
                dataBuffer += value
                dataBuffer.append(0x0A)
                sawData = true
            case "id":
                if !value.contains(0) {
                    lastEventID = String(decoding: value, as: UTF8.self)
                    blockID = lastEventID
                }
            case "retry":
                if !value.isEmpty, value.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
                    var milliseconds = 0
                    for digit in value { milliseconds = min(86_400_000, milliseconds * 10 + Int(digit - 0x30)) }
                    reconnectionTime = milliseconds
                    blockRetry = milliseconds
                }
            default: break
            }
        }
        return (events, lastEventID, reconnectionTime)
    }
}
