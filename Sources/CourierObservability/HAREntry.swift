import Courier
import CourierTransportCore
import Foundation
import HTTPTypes

/// A HAR 1.2 log (http://www.softwareishard.com/blog/har-12-spec/), as ``HARRecorder`` writes it.
struct HARLog: Encodable {
    struct Log: Encodable {
        var version = "1.2"
        var entries: [HAREntry]
        /// The earlier entries left out (``HARRecorder/maxEntries``).
        var dropped = 0

        enum CodingKeys: String, CodingKey { case version, creator, entries, comment }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(version, forKey: .version)
            try container.encode(["name": "Courier", "version": "1"], forKey: .creator)
            try container.encode(entries, forKey: .entries)
            if dropped > 0 { try container.encode("the \(dropped) earliest entries were left out (maxEntries)", forKey: .comment) }
        }
    }

    var log: Log
}

/// One HTTP exchange of a HAR log. Every field HAR 1.2 requires is present (`-1` where a size
/// is not known); credentials are redacted before they get here.
struct HAREntry: Encodable {
    struct NameValue: Encodable {
        var name: String
        var value: String
    }

    struct Request: Encodable {
        var method: String
        var url: String
        var httpVersion = "HTTP/1.1"
        var cookies: [NameValue]
        var headers: [NameValue]
        var queryString: [NameValue]
        var postData: PostData?
        var headersSize = -1
        var bodySize: Int

        struct PostData: Encodable {
            var mimeType: String
            var text: String
            var comment: String?
        }

        init(_ request: HTTPRequest, url: String, body: (bytes: [UInt8], total: Int)?, redactor: Redactor, limit: Int) {
            method = request.method.rawValue
            self.url = redactor.url(url)
            headers = request.headerFields.map { NameValue(name: $0.name.rawName, value: redactor.header($0.name.rawName, $0.value)) }
            cookies = request.headerFields[values: .cookie].flatMap { $0.split(separator: ";") }.compactMap { pair in
                let name = pair.split(separator: "=", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces) }
                return name.map { NameValue(name: $0, value: Redactor.mask) }
            }
            queryString = (URLComponents(string: self.url)?.percentEncodedQueryItems ?? []).map {
                NameValue(name: $0.name.removingPercentEncoding ?? $0.name, value: ($0.value ?? "").removingPercentEncoding ?? ($0.value ?? ""))
            }
            bodySize = body?.total ?? (request.method == .get || request.method == .head ? 0 : -1)
            if let body {
                let text = String(decoding: body.bytes, as: UTF8.self)
                postData = PostData(
                    mimeType: request.headerFields[.contentType] ?? "application/octet-stream",
                    text: redactor.text(String(validating: body.bytes, as: UTF8.self) != nil ? text : Data(body.bytes).base64EncodedString()),
                    comment: body.total > limit ? "the first \(limit) of \(body.total) bytes" : nil)
            }
        }
    }

    struct Content: Encodable {
        var size: Int
        var mimeType: String
        var text: String?
        var encoding: String?
        var comment: String?

        init(bytes: [UInt8], total: Int, mimeType: String, limit: Int, redactor: Redactor) {
            size = total
            self.mimeType = mimeType
            if String(validating: bytes, as: UTF8.self) != nil {
                text = redactor.text(String(decoding: bytes, as: UTF8.self))
            } else {
                text = Data(bytes).base64EncodedString()
                encoding = "base64"
            }
            if total > limit { comment = "the first \(limit) of \(total) bytes" }
        }

        init(mimeType: String) {
            size = -1
            self.mimeType = mimeType
        }
    }

    struct Response: Encodable {
        var status: Int
        var statusText: String
        var httpVersion = "HTTP/1.1"
        var cookies: [NameValue]
        var headers: [NameValue]
        var content: Content
        var redirectURL: String
        var headersSize = -1
        var bodySize = -1

        init(_ head: HTTPResponse, redactor: Redactor, baseURL: URL) {
            status = head.status.code
            statusText = head.status.reasonPhrase
            headers = head.headerFields.map { NameValue(name: $0.name.rawName, value: redactor.header($0.name.rawName, $0.value)) }
            cookies = head.headerFields[values: .setCookie].compactMap { line in
                line.split(separator: ";").first?.split(separator: "=", maxSplits: 1).first.map {
                    NameValue(name: $0.trimmingCharacters(in: .whitespaces), value: Redactor.mask)
                }
            }
            content = Content(mimeType: head.headerFields[.contentType] ?? "application/octet-stream")
            redirectURL = head.headerFields[.location].map { redactor.url($0) } ?? ""
        }
    }

    struct Timings: Encodable {
        var send: Double = 0
        var wait: Double = 0
        var receive: Double = 0
    }

    var startedDateTime: Date
    var request: Request
    var response: Response?
    var timings = Timings()
    /// The connection the exchange went out on (HAR's "unique ID of the parent TCP/IP
    /// connection"), where the transport told it (`CallStep.Kind.connection`).
    var connection: String?
    var comment: String?

    enum CodingKeys: String, CodingKey { case startedDateTime, time, request, response, cache, timings, connection, comment }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        try container.encode(formatter.string(from: startedDateTime), forKey: .startedDateTime)
        try container.encode(timings.send + timings.wait + timings.receive, forKey: .time)
        try container.encode(request, forKey: .request)
        // A failed exchange has no answer: HAR still wants a response object (status 0).
        let failed = Response(HTTPResponse(status: .init(code: 0)), redactor: Redactor(), baseURL: URL(fileURLWithPath: "/"))
        try container.encode(response ?? failed, forKey: .response)
        try container.encode([String: String](), forKey: .cache)
        try container.encode(timings, forKey: .timings)
        try container.encodeIfPresent(connection, forKey: .connection)
        try container.encodeIfPresent(comment, forKey: .comment)
    }
}
