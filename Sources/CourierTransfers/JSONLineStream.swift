public import Courier
import CourierTransportCore
import Foundation

/// The values of a line-delimited JSON body as they arrive — NDJSON, JSON Lines, and JSON text
/// sequences (RFC 7464: a record separator before each value) — each decoded as `Value` by the
/// endpoint's `Endpoint/responseDecoding` (or the one given). Blank lines are skipped. A line
/// that does not decode ends the stream with `NetworkError/decodingError(_:)`; a line longer
/// than the client's `maxResponseBytes` with `NetworkError/responseTooLarge(limit:)`.
/// Otherwise as ``ByteStream``.
public struct JSONLineStream<Value: Decodable & Sendable>: AsyncSequence, Sendable {
    public typealias Element = Value
    public typealias Failure = NetworkError

    let bytes: ByteStream
    let limit: Int
    let decoding: any ResponseDecoding
    let decoder: JSONDecoder

    public func makeAsyncIterator() -> Iterator {
        Iterator(
            lines: RawLines(bytes: bytes.makeAsyncIterator(), splitter: LineSplitter(limit: limit)),
            decoding: decoding, decoder: decoder)
    }

    /// Reads and decodes one value at a time.
    public struct Iterator: AsyncIteratorProtocol {
        var lines: RawLines
        let decoding: any ResponseDecoding
        let decoder: JSONDecoder

        public mutating func next() async throws(NetworkError) -> Value? {
            try await next(isolation: nil)
        }

        public mutating func next(isolation actor: isolated (any Actor)?) async throws(NetworkError) -> Value? {
            while true {
                let next: Data?
                if let ready = lines.nextReady() { next = ready } else { next = try await lines.next(isolation: actor) }
                guard let line = next else { return nil }
                // RFC 7464's record separator, then the value; blank lines carry none.
                var body = line[...]
                while let first = body.first, first == 0x1E || first == 0x20 || first == 0x09 { body = body.dropFirst() }
                if body.isEmpty { continue }
                if decoding is JSONResponseDecoding {
                    // The plain JSON decoding, called directly (not through the existential).
                    do {
                        return try decoder.decode(Value.self, from: body)
                    } catch let error as DecodingError {
                        throw .decodingError(DecodingDiagnostics.attach(to: error, body: body))
                    } catch {
                        throw NetworkError(error)
                    }
                }
                do {
                    return try decoding.decode(Value.self, from: body, using: decoder)
                } catch .decodingError(let error) {
                    throw .decodingError(DecodingDiagnostics.attach(to: error, body: body))
                }
            }
        }
    }
}
