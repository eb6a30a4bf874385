import Courier
import CourierSandbox
import Foundation
import HTTPTypes
import IntegrationTestSupport
import OpenAPIRuntime
import Synchronization
import Testing

/// Every `HTTPTask` form and encoding, through a real server, on both transports.
@Suite("HTTPTask round trips")
struct EncodingRoundTripTests {
    static let tricky = ["서울 문화 행사", "a+b", "x&y=z", "50% off/only", "🚀🌕", "  spaces  ", "quote\"s", "semi;colon", "#hash?"]

    struct Article: Codable, Sendable, Equatable {
        var title: String
        var tags: [String]
        var score: Int
    }

    @Test("query parameters survive: Korean, +, &, =, /, emoji", arguments: TransportKind.lanes)
    func queryParameters(_ kind: TransportKind) async throws {
        try await withSandbox(lane: kind) { sandbox in
            let client = NetworkClient(transport: sandbox.transport)
            var parameters: RequestParameters = [:]
            for (index, value) in Self.tricky.enumerated() { parameters["k\(index)"] = value }
            parameters["키 이름+&="] = "값"
            parameters["list"] = ["one", "two+three"]
            parameters["count"] = 3
            parameters["missing"] = Optional<String>.none
            parameters["present"] = Optional<Int>.some(5)
            let echo = try await client.request(
                TestEndpoint(baseURL: sandbox.baseURL, path: "/echo", task: .requestParameters(parameters, encoding: .url)),
                as: Echo.self
            )
            for (index, value) in Self.tricky.enumerated() {
                #expect(echo.queryValue("k\(index)") == [value])
            }
            #expect(echo.queryValue("키 이름+&=") == ["값"])
            #expect(echo.queryValue("list") == ["one", "two+three"])
            #expect(echo.queryValue("count") == ["3"])
            #expect(echo.queryValue("missing") == [])
            #expect(echo.queryValue("present") == ["5"])
            #expect(echo.method == "GET")
        }
    }

    @Test("path segments survive percent-encoding", arguments: TransportKind.lanes)
    func pathSegments(_ kind: TransportKind) async throws {
        try await withSandbox(lane: kind) { sandbox in
            let client = NetworkClient(transport: sandbox.transport)
            let segments = ["echo", "서울 문화", "a+b&c=d", "🚀", "50%", "a/b"]
            let echo = try await client.request(
                TestEndpoint(baseURL: sandbox.baseURL, path: "", segments: segments),
                as: Echo.self
            )
            #expect(echo.pathSegments == segments)
        }
    }

    /// An endpoint with the protocol's defaults (its path split by `Endpoint.pathSegments`).
    struct PlainEndpoint: Endpoint {
        let baseURL: URL
        let path: String
        var method: HTTPMethod { .get }
        var task: HTTPTask { .requestPlain }
        var headers: [String: String]? { nil }
        var decoding: any ResponseDecoding { .json }
    }

    /// Answers 200 to everything and keeps the base URL each request was sent to.
    final class BaseURLRecorder: ClientTransport, Sendable {
        let seen = Mutex<[URL]>([])
        func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
            seen.withLock { $0.append(baseURL) }
            return (HTTPResponse(status: .ok), nil)
        }
    }

    @Test("a trailing slash arrives (an endpoint's path, a URLEndpoint); an upper-case host is sent lowercased", arguments: TransportKind.lanes)
    func trailingSlashAndHostCase(_ kind: TransportKind) async throws {
        try await withSandbox(lane: kind) { sandbox in
            let client = NetworkClient(transport: sandbox.transport)
            let slashed = try await client.request(PlainEndpoint(baseURL: sandbox.baseURL, path: "/echo/users/"), as: Echo.self)
            #expect(slashed.rawPath == "/echo/users/")
            let plain = try await client.request(PlainEndpoint(baseURL: sandbox.baseURL, path: "/echo/users"), as: Echo.self)
            #expect(plain.rawPath == "/echo/users")
            let link = try #require(URLEndpoint(URL(string: "\(sandbox.baseURL.absoluteString)/echo/a%20b/?q=1")!))
            let linked = try await client.request(link, as: Echo.self)
            #expect(linked.rawPath == "/echo/a%20b/")
            #expect(linked.rawQuery == "q=1")
        }
        let base = URL(string: "https://api.example.com")!
        #expect(try PlainEndpoint(baseURL: base, path: "/").httpRequest().path == "/")
        #expect(try PlainEndpoint(baseURL: base, path: "").httpRequest().path == "/")
        #expect(try PlainEndpoint(baseURL: base, path: "a//b/").httpRequest().path == "/a/b/")
        let recorder = BaseURLRecorder()
        _ = try await NetworkClient(transport: recorder).response(PlainEndpoint(baseURL: URL(string: "https://API.Example.COM:8443/v1")!, path: "/x"))
        #expect(recorder.seen.withLock { $0 } == [URL(string: "https://api.example.com:8443/v1")!])
    }

    @Test("JSON Encodable body with a composite query", arguments: TransportKind.lanes)
    func jsonBodyWithQuery(_ kind: TransportKind) async throws {
        try await withSandbox(lane: kind) { sandbox in
            let client = NetworkClient(transport: sandbox.transport)
            let article = Article(title: "비트코인 +10% & \"rally\" 🚀", tags: ["a/b", "c=d"], score: 42)
            let echo = try await client.request(
                TestEndpoint(
                    baseURL: sandbox.baseURL, path: "/echo", method: .post,
                    task: .requestComposite(query: ["page": 2, "q": "이더리움 & co"], body: .requestJSONEncodable(article))),
                as: Echo.self
            )
            #expect(echo.method == "POST")
            #expect(echo.contentType == "application/json")
            #expect(echo.queryValue("page") == ["2"])
            #expect(echo.queryValue("q") == ["이더리움 & co"])
            let decoded = try JSONDecoder().decode(Article.self, from: Data((echo.body ?? "").utf8))
            #expect(decoded == article)
        }
    }

    @Test("form encoding", arguments: TransportKind.lanes)
    func formBody(_ kind: TransportKind) async throws {
        try await withSandbox(lane: kind) { sandbox in
            let client = NetworkClient(transport: sandbox.transport)
            let echo = try await client.request(
                TestEndpoint(
                    baseURL: sandbox.baseURL, path: "/echo", method: .put,
                    task: .requestParameters(["name": "홍길동", "note": "a+b&c=d", "ok": true], encoding: .form)),
                as: Echo.self
            )
            #expect(echo.contentType == "application/x-www-form-urlencoded")
            #expect(echo.form == [["name", "홍길동"], ["note", "a+b&c=d"], ["ok", "true"]])
        }
    }

    @Test("JSON parameter encoding", arguments: TransportKind.lanes)
    func jsonParameters(_ kind: TransportKind) async throws {
        try await withSandbox(lane: kind) { sandbox in
            let client = NetworkClient(transport: sandbox.transport)
            let echo = try await client.request(
                TestEndpoint(
                    baseURL: sandbox.baseURL, path: "/echo", method: .patch,
                    task: .requestParameters(["name": "서울", "age": 30, "tags": ["x", "y"]], encoding: .json)),
                as: Echo.self
            )
            #expect(echo.method == "PATCH")
            let object = try JSONSerialization.jsonObject(with: Data((echo.body ?? "").utf8)) as? [String: Any]
            #expect(object?["name"] as? String == "서울")
            #expect(object?["age"] as? Int == 30)
            #expect(object?["tags"] as? [String] == ["x", "y"])
        }
    }

    @Test("raw data with its content type", arguments: TransportKind.lanes)
    func rawData(_ kind: TransportKind) async throws {
        try await withSandbox(lane: kind) { sandbox in
            let client = NetworkClient(transport: sandbox.transport)
            let echo = try await client.request(
                TestEndpoint(
                    baseURL: sandbox.baseURL, path: "/echo", method: .post,
                    task: .requestData(Data("<xml>한글</xml>".utf8), contentType: "application/xml")),
                as: Echo.self
            )
            #expect(echo.contentType == "application/xml")
            #expect(echo.body == "<xml>한글</xml>")
        }
    }

    @Test("multipart: fields, in-memory file and a streamed 3 MB file", arguments: TransportKind.lanes)
    func multipart(_ kind: TransportKind) async throws {
        let fileURL = FileManager.default.temporaryDirectory.appendingPathComponent("courier-upload-\(UUID().uuidString).bin")
        let size = 3 * 1024 * 1024 + 17
        try Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) }).write(to: fileURL)
        defer { try? FileManager.default.removeItem(at: fileURL) }
        try await withSandbox(lane: kind) { sandbox in
            let client = NetworkClient(transport: sandbox.transport)
            var form = MultipartFormData()
            form.append(field: "title", value: "서울 축제 + 🎉")
            form.append(data: Data("hello".utf8), name: "note", fileName: "note.txt", contentType: "text/plain")
            form.append(file: fileURL, name: "photo", fileName: "사진.bin")
            let echo = try await client.request(
                TestEndpoint(baseURL: sandbox.baseURL, path: "/echo", method: .post, task: .uploadMultipart(form)),
                as: Echo.self
            )
            let parts = try #require(echo.parts)
            #expect(parts.map(\.name) == ["title", "note", "photo"])
            #expect(parts[0].text == "서울 축제 + 🎉")
            #expect(parts[1].fileName == "note.txt" && parts[1].text == "hello")
            #expect(parts[2].fileName == "사진.bin")
            #expect(parts[2].length == size)
            #expect(echo.headers["content-length"] == nil || Int(echo.headers["content-length"] ?? "") == echo.bodyLength)
        }
    }

    @Test("per-endpoint headers arrive", arguments: TransportKind.lanes)
    func headers(_ kind: TransportKind) async throws {
        try await withSandbox(lane: kind) { sandbox in
            let client = NetworkClient(transport: sandbox.transport)
            let echo = try await client.request(
                TestEndpoint(
                    baseURL: sandbox.baseURL, path: "/echo",
                    headers: ["X-Request-Tag": "서울".addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "", "Accept": "application/json"]),
                as: Echo.self
            )
            #expect(echo.headers["x-request-tag"] == "%EC%84%9C%EC%9A%B8")
            #expect(echo.headers["accept"] == "application/json")
        }
    }

    @Test("empty 204 and 205 bodies decode into EmptyResponse", arguments: TransportKind.lanes, [204, 205])
    func emptyBodies(_ kind: TransportKind, code: Int) async throws {
        try await withSandbox(lane: kind) { sandbox in
            let client = NetworkClient(transport: sandbox.transport)
            let value = try await client.request(TestEndpoint(baseURL: sandbox.baseURL, path: "/empty/\(code)"), as: EmptyResponse.self)
            #expect(value == EmptyResponse())
            let response = try await client.response(TestEndpoint(baseURL: sandbox.baseURL, path: "/empty/\(code)"))
            #expect(response.statusCode == code)
            #expect(response.body.isEmpty)
        }
    }

    @Test("percent-encoding is RFC 3986 unreserved-only")
    func percentEncoding() {
        #expect(PercentEncoding.encode("a+b c&d=e/f~g") == "a%2Bb%20c%26d%3De%2Ff~g")
        #expect(PercentEncoding.encode("서") == "%EC%84%9C")
        #expect(PercentEncoding.query(["b": "2", "a": ["x", "y"]]) == "a=x&a=y&b=2")
    }
}
