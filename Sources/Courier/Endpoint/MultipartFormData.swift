public import Foundation
public import OpenAPIRuntime

/// A `multipart/form-data` body: text fields and files, streamed part by part.
///
/// Files given by URL are read from disk in 64 KiB chunks while the request is sent, never
/// loaded whole; the body length is known up front, so no chunked encoding is needed.
///
/// ```swift
/// var form = MultipartFormData()
/// form.append(field: "title", value: "서울 축제")
/// form.append(file: photoURL, name: "photo", fileName: "photo.jpg", contentType: "image/jpeg")
/// let task = HTTPTask.uploadMultipart(form)
/// ```
public struct MultipartFormData: Sendable {
    /// One part of the form.
    public enum Part: Sendable {
        /// A text field.
        case field(name: String, value: String)
        /// In-memory bytes sent as a file.
        case data(name: String, fileName: String, contentType: String, Data)
        /// A file on disk, streamed.
        case file(name: String, fileName: String, contentType: String, url: URL)
    }

    /// The boundary between parts (random by default).
    public let boundary: String
    /// The parts, in order.
    public private(set) var parts: [Part] = []

    /// An empty form with a random boundary.
    public init(boundary: String = "courier-" + UUID().uuidString) {
        self.boundary = boundary
    }

    /// Appends a text field.
    public mutating func append(field name: String, value: String) { parts.append(.field(name: name, value: value)) }
    /// Appends in-memory bytes as a file.
    public mutating func append(data: Data, name: String, fileName: String, contentType: String = "application/octet-stream") {
        parts.append(.data(name: name, fileName: fileName, contentType: contentType, data))
    }
    /// Appends a file on disk, streamed when the request is sent.
    public mutating func append(file url: URL, name: String, fileName: String? = nil, contentType: String = "application/octet-stream") {
        parts.append(.file(name: name, fileName: fileName ?? url.lastPathComponent, contentType: contentType, url: url))
    }

    /// `multipart/form-data; boundary=…`.
    public var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    /// The body as an `HTTPBody` that can be iterated more than once (files are reopened).
    /// Throws ``NetworkError/encodingError`` when a file cannot be read.
    public func body() throws(NetworkError) -> HTTPBody {
        var length: Int64 = 0
        for segment in segments() {
            switch segment {
            case .bytes(let bytes): length += Int64(bytes.count)
            case .file(let url):
                guard let size = try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber else {
                    throw .encodingError
                }
                length += size.int64Value
            }
        }
        return HTTPBody(MultipartChunks(segments: segments()), length: .known(length), iterationBehavior: .multiple)
    }

    enum Segment: Sendable {
        case bytes([UInt8])
        case file(URL)
    }

    func segments() -> [Segment] {
        var out: [Segment] = []
        for part in parts {
            var head = "--\(boundary)\r\n"
            switch part {
            case .field(let name, _):
                head += "Content-Disposition: form-data; name=\"\(Self.quoted(name))\"\r\n\r\n"
            case .data(let name, let fileName, let type, _), .file(let name, let fileName, let type, _):
                head += "Content-Disposition: form-data; name=\"\(Self.quoted(name))\"; filename=\"\(Self.quoted(fileName))\"\r\n"
                head += "Content-Type: \(Self.headerValue(type))\r\n\r\n"
            }
            out.append(.bytes(Array(head.utf8)))
            switch part {
            case .field(_, let value): out.append(.bytes(Array(value.utf8)))
            case .data(_, _, _, let data): out.append(.bytes(Array(data)))
            case .file(_, _, _, let url): out.append(.file(url))
            }
            out.append(.bytes(Array("\r\n".utf8)))
        }
        out.append(.bytes(Array("--\(boundary)--\r\n".utf8)))
        return out
    }

    /// `text` for a quoted parameter: `"`, CR and LF percent-encoded (the HTML form rule), by
    /// Unicode scalar — `replacingOccurrences` compares whole characters, and fuzzing found a
    /// quote or a line break followed by a combining mark slipping through it raw.
    private static func quoted(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out.append(contentsOf: "%22".unicodeScalars)
            case "\r": out.append(contentsOf: "%0D".unicodeScalars)
            case "\n": out.append(contentsOf: "%0A".unicodeScalars)
            default: out.append(scalar)
            }
        }
        return String(out)
    }

    /// A part's content type with every control character dropped: a CR LF in it would start a
    /// header line of the caller's choosing.
    private static func headerValue(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }))
    }
}

/// The chunks of a multipart body; files are read lazily in 64 KiB pieces.
struct MultipartChunks: AsyncSequence, Sendable {
    typealias Element = ArraySlice<UInt8>
    let segments: [MultipartFormData.Segment]

    func makeAsyncIterator() -> Iterator { Iterator(segments: segments) }

    struct Iterator: AsyncIteratorProtocol {
        let segments: [MultipartFormData.Segment]
        var index = 0
        var handle: FileHandle?

        mutating func next() async throws -> ArraySlice<UInt8>? {
            while true {
                if let handle {
                    if let chunk = try handle.read(upToCount: 64 * 1024), !chunk.isEmpty {
                        return ArraySlice(chunk)
                    }
                    try? handle.close()
                    self.handle = nil
                    index += 1
                    continue
                }
                guard index < segments.count else { return nil }
                switch segments[index] {
                case .bytes(let bytes):
                    index += 1
                    return bytes[...]
                case .file(let url):
                    handle = try FileHandle(forReadingFrom: url)
                }
            }
        }
    }
}
