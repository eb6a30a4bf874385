import AlanAPI
import CourierLLM
import Foundation

@testable import Courier
@testable import CourierSandbox
@testable import CourierTransfers

// libFuzzer entry for Alan's stream frames: the SSE parser (Courier's EventStreamParser) and the
// frame decoding AlanClient.stream uses (`AlanFrame.decoding`: CourierLLM's tolerant decoding of
// the Python dict literal in each `data:` line) — the real code compiled from Sources/.
//
// The input is read three ways:
// 1. as one frame's data (`{'type': 'continue', 'data': {'content': '안'}}`, or anything else);
// 2. as a whole event stream, each event decoded as DecodedServerEventStream decodes it (errors
//    given their diagnostics as there);
// 3. as the text of a token, a progress sentence and a complete answer, which the sandbox's
//    stand-in writes as the Alan service does (CourierSandbox's PythonLiteral, Python's `repr`)
//    into an SSE frame: the client must read each back exactly (switch: FUZZ_ALAN_ROUNDTRIP=0;
//    FUZZ_ALAN_ESCAPES=0 and FUZZ_ALAN_NESTED=0 leave out control characters and `{`: the two
//    findings this harness made, `\xNN` escapes and a dict in a frame's text, both fixed).

private let decoder = JSONDecoder()

@_cdecl("LLVMFuzzerTestOneInput")
public func alanFrameFuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = fuzzBytes(data, size)

    // 1. One frame's data.
    _ = decodeFrame(Data(bytes))

    // 2. A stream.
    var parser = EventStreamParser()
    if let events = try? parser.feed(bytes) {
        for event in events { _ = decodeFrame(Data(event.data.utf8)) }
    }

    // 3. Round trip of text through the stand-in's writer and the client's reader.
    guard fuzzCheck("ALAN_ROUNDTRIP") else { return 0 }
    var text = String(decoding: bytes.prefix(1024), as: UTF8.self)
    if !fuzzCheck("ALAN_ESCAPES") {
        // Off: no control characters (found: `\xNN`, how Python writes them, was not decoded; fixed).
        text.unicodeScalars.removeAll { $0.value < 0x20 && $0 != "\n" && $0 != "\r" && $0 != "\t" || $0.value == 0x7F }
    }
    if !fuzzCheck("ALAN_NESTED"), text.contains("{") {
        // Off: text with a `{` is not round-tripped (found: a dict in the text that fit the
        // frame's schema better was read instead of the frame; fixed).
        return 0
    }
    let frames: [(String, [(String, PythonLiteral.Value)], AlanStreamEvent)] = [
        ("continue", [("content", .text(text))], .token(text)),
        ("complete", [("content", .text(text))], .complete(text)),
        ("action", [("name", .text("search")), ("speak", .text(text))], .progress(text)),
    ]
    for (type, payload, expected) in frames {
        let line = PythonLiteral.dict([("type", .text(type)), ("data", .dict(payload))])
        var reader = EventStreamParser()
        let events: [ServerEvent]
        do { events = try reader.feed(Array("id: 1\nevent: response\ndata: \(line)\n\n".utf8)) } catch { fuzzFailure("SSE parse failed: \(error)") }
        guard events.count == 1, events[0].data == line, events[0].event == "response" else {
            fuzzFailure("the SSE framing of \(line.debugDescription) read as \(events)")
        }
        switch decodeFrame(Data(events[0].data.utf8)) {
        case .success(let frame):
            guard frame.event == expected else {
                fuzzFailure("\(type) frame of \(text.debugDescription), written \(line.debugDescription), read as \(String(describing: frame.event))")
            }
        case .failure(let error):
            fuzzFailure("\(type) frame of \(text.debugDescription), written \(line.debugDescription), failed: \(error)")
        }
    }
    return 0
}

/// A frame's data decoded as the stream decodes it.
private func decodeFrame(_ body: Data) -> Result<AlanFrame, NetworkError> {
    do throws(NetworkError) {
        let frame = try AlanFrame.decoding.decode(AlanFrame.self, from: body, using: decoder)
        _ = frame.event
        return .success(frame)
    } catch .decodingError(let error) {
        let attached = DecodingDiagnostics.attach(to: error, body: body)
        _ = NetworkError.decodingError(attached).log()
        return .failure(.decodingError(attached))
    } catch {
        _ = error.log()
        return .failure(error)
    }
}
