import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// `/echo` and `/echo/**` for every method: what the server received, decoded.
struct EchoRoutes {
    func register(on router: Router<SandboxRequestContext>) {
        for method in [HTTPRequest.Method.get, .post, .put, .patch, .delete] {
            router.on("/echo", method: method) { request, context in try await Self.echo(request, channel: context.channel) }
            router.on("/echo/**", method: method) { request, context in try await Self.echo(request, channel: context.channel) }
        }
    }

    static func echo(_ request: Request, channel: (any Channel)? = nil) async throws -> Response {
        let buffer = try await request.body.collect(upTo: 64 * 1024 * 1024)
        let bytes = Data(buffer.readableBytesView)
        let raw = request.uri.string
        let rawPath = String(raw.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
        let contentType = request.headers[.contentType]
        var headers: [String: String] = [:]
        for field in request.headers { headers[field.name.canonicalName] = field.value }
        let text = bytes.count <= 1024 * 1024 ? String(data: bytes, encoding: .utf8) : nil
        var echo = EchoAnswer(
            method: request.method.rawValue,
            rawPath: rawPath,
            pathSegments: rawPath.split(separator: "/").map { String($0).removingPercentEncoding ?? String($0) },
            rawQuery: request.uri.query,
            query: QueryText.items(request.uri.query ?? ""),
            headers: headers,
            contentType: contentType,
            bodyLength: bytes.count,
            body: text
        )
        // An HTTP/2 stream is a child of its connection's channel, itself a child of the listener.
        if let parent = channel?.parent { echo.httpVersion = parent.parent != nil ? "HTTP/2" : "HTTP/1.1" }
        if contentType?.hasPrefix("application/x-www-form-urlencoded") == true, let text {
            echo.form = QueryText.items(text)
        }
        if let contentType, contentType.hasPrefix("multipart/form-data"), let boundary = MultipartText.boundary(of: contentType) {
            echo.parts = MultipartText.parts(of: bytes, boundary: boundary)
        }
        return JSONResponse.make(echo)
    }
}

/// RFC 3986 query text → items. `+` is kept as `+` (only `%2B` was ever sent for a plus).
enum QueryText {
    static func items(_ query: String) -> [[String]] {
        query.split(separator: "&").map { item in
            let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(pair[0]).removingPercentEncoding ?? String(pair[0])
            let value = pair.count > 1 ? (String(pair[1]).removingPercentEncoding ?? String(pair[1])) : ""
            return [name, value]
        }
    }
}

/// A small multipart/form-data reader for the echo route.
enum MultipartText {
    static func boundary(of contentType: String) -> String? {
        guard let range = contentType.range(of: "boundary=") else { return nil }
        return String(contentType[range.upperBound...]).trimmingCharacters(in: CharacterSet(charactersIn: "\" "))
    }

    static func parts(of body: Data, boundary: String) -> [EchoAnswer.Part] {
        let delimiter = Data("--\(boundary)".utf8)
        var parts: [EchoAnswer.Part] = []
        var ranges: [Range<Data.Index>] = []
        var searchStart = body.startIndex
        while let found = body.range(of: delimiter, in: searchStart..<body.endIndex) {
            ranges.append(found)
            searchStart = found.upperBound
        }
        for (current, next) in zip(ranges, ranges.dropFirst()) {
            var section = body[current.upperBound..<next.lowerBound]
            guard section.starts(with: Data("\r\n".utf8)) else { continue }
            section = section.dropFirst(2)
            guard let headEnd = section.range(of: Data("\r\n\r\n".utf8)) else { continue }
            let head = String(decoding: section[section.startIndex..<headEnd.lowerBound], as: UTF8.self)
            var content = section[headEnd.upperBound...]
            if content.suffix(2) == Data("\r\n".utf8) { content = content.dropLast(2) }
            var part = EchoAnswer.Part(name: "", fileName: nil, contentType: nil, length: content.count, text: nil)
            for line in head.components(separatedBy: "\r\n") {
                let lower = line.lowercased()
                if lower.hasPrefix("content-disposition:") {
                    part.name = value(of: "name", in: line) ?? ""
                    part.fileName = value(of: "filename", in: line)
                } else if lower.hasPrefix("content-type:") {
                    part.contentType = line.dropFirst("content-type:".count).trimmingCharacters(in: .whitespaces)
                }
            }
            if content.count <= 4096 { part.text = String(data: Data(content), encoding: .utf8) }
            parts.append(part)
        }
        return parts
    }

    private static func value(of key: String, in line: String) -> String? {
        guard let range = line.range(of: "; \(key)=\"") else { return nil }
        let rest = line[range.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<end])
    }
}
