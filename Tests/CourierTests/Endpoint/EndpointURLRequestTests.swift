import Courier
import CourierSandbox
import Foundation
import IntegrationTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `Endpoint.urlRequest()` (Moya's `urlRequest()`, the seminar's `toURLRequest()`): the call as a
/// Foundation `URLRequest` — the URL as a client sends it, method, header fields, body — that
/// URLSession can send itself.
@Suite("Endpoint.urlRequest(): a URLRequest for code that calls URLSession")
struct EndpointURLRequestTests {
    struct Registration: Encodable, Sendable {
        let username: String
        let age: Int
    }

    /// JSON with sorted keys: a `JSONEncoder`'s key order is otherwise not fixed from one encoding to the next.
    static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }

    /// What the sandbox's echo saw of a request, for comparing two senders.
    struct Seen: Equatable {
        let method: String, rawPath: String, rawQuery: String?, contentType: String?, bodyLength: Int, body: String?
        let form: [[String]]?, parts: [String]?, tag: String?

        init(_ echo: Echo) {
            (method, rawPath, rawQuery, contentType, bodyLength, body) = (
                echo.method, echo.rawPath, echo.rawQuery, echo.contentType, echo.bodyLength, echo.body
            )
            form = echo.form
            parts = echo.parts?.map { "\($0.name) \($0.fileName ?? "-") \($0.length)" }
            tag = echo.headers["x-tag"]
        }
    }

    /// Every kind of body a URLRequest can carry, on `base`.
    static func endpoints(_ base: URL, file: URL) -> [(String, TestEndpoint)] {
        var form = MultipartFormData()
        form.append(field: "title", value: "서울 축제 + 🎉")
        form.append(data: Data("hello".utf8), name: "note", fileName: "note.txt", contentType: "text/plain")
        form.append(file: file, name: "photo", fileName: "사진.bin")
        let tag = ["X-Tag": "a b"]
        return [
            ("plain", TestEndpoint(baseURL: base, path: "/echo/users/서울", headers: tag)),
            ("query", TestEndpoint(baseURL: base, path: "/echo", task: .requestParameters(["q": "a+b 서울", "&": "="], encoding: .url))),
            (
                "json",
                TestEndpoint(
                    baseURL: base, path: "/echo", method: .post, task: .requestJSONEncodable(Registration(username: "민수", age: 31)), headers: tag)
            ),
            (
                "form",
                TestEndpoint(baseURL: base, path: "/echo", method: .put, task: .requestParameters(["name": "김 민수", "x": "a&b=c"], encoding: .form))
            ),
            (
                "json parameters",
                TestEndpoint(baseURL: base, path: "/echo", method: .patch, task: .requestParameters(["age": 32, "name": "민수"], encoding: .json))
            ),
            (
                "data",
                TestEndpoint(
                    baseURL: base, path: "/echo", method: .post, task: .requestData(Data("<xml>한글</xml>".utf8), contentType: "application/xml"))
            ),
            ("multipart", TestEndpoint(baseURL: base, path: "/echo", method: .post, task: .uploadMultipart(form))),
            (
                "file",
                TestEndpoint(baseURL: base, path: "/echo/upload", method: .put, task: .uploadFile(file, contentType: "application/octet-stream"))
            ),
            (
                "composite",
                TestEndpoint(
                    baseURL: base, path: "/echo", method: .post,
                    task: .requestComposite(query: ["page": 2], body: .requestJSONEncodable(Registration(username: "a", age: 1))))
            ),
            ("delete", TestEndpoint(baseURL: base, path: "/echo/users/7", method: .delete)),
        ]
    }

    @Test("method, header fields, body and URL are what a NetworkClient sends: URLSession sending it reaches the sandbox alike")
    func sameAsTheClient() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("url-request-\(UUID().uuidString).bin")
        try Data((0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        try await withSandbox { sandbox in
            let session = URLSession(configuration: .ephemeral)
            let client = NetworkClient(configuration: .init(encoder: Self.encoder))
            for (name, endpoint) in Self.endpoints(sandbox.baseURL, file: file) {
                let request = try endpoint.urlRequest(encoder: Self.encoder)
                let (data, response) = try await session.data(for: request)
                #expect((response as? HTTPURLResponse)?.statusCode == 200, "\(name)")
                let bySession = Seen(try JSONDecoder().decode(Echo.self, from: data))
                let byClient = Seen(try await client.request(endpoint, as: Echo.self))
                #expect(bySession == byClient, "\(name)")
                #expect(bySession.method == endpoint.method.rawValue, "\(name)")
            }
        }
    }

    @Test("the request's parts, read without sending")
    func parts() throws {
        let base = URL(string: "https://api.example.com/v1")!
        let json = TestEndpoint(
            baseURL: base, path: "/users", method: .post, task: .requestJSONEncodable(Registration(username: "민수", age: 31)),
            headers: ["Authorization": "Bearer t0k3n", "X-Tag": "a b"], timeout: .seconds(7))
        let request = try json.urlRequest(encoder: Self.encoder)
        #expect(request.httpMethod == "POST")
        #expect(request.url?.absoluteString == "https://api.example.com/v1/users")
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(request.value(forHTTPHeaderField: "Authorization") == "Bearer t0k3n")
        #expect(request.value(forHTTPHeaderField: "X-Tag") == "a b")
        #expect(request.httpBody == Data(#"{"age":31,"username":"민수"}"#.utf8))
        #expect(request.timeoutInterval == 7)
        let search = TestEndpoint(baseURL: base, path: "/users/김 민수", task: .requestParameters(["q": "a+b&c"], encoding: .url))
        #expect(try search.urlRequest().url?.absoluteString == "https://api.example.com/v1/users/%EA%B9%80%20%EB%AF%BC%EC%88%98?q=a%2Bb%26c")
        #expect(try search.urlRequest().httpBody == nil)
        #expect(try search.urlRequest().httpMethod == "GET")
        let form = TestEndpoint(baseURL: base, path: "/f", method: .post, task: .requestParameters(["b": "2 3", "a": "1"], encoding: .form))
        #expect(try form.urlRequest().httpBody == Data("a=1&b=2%203".utf8))
        #expect(try form.urlRequest().value(forHTTPHeaderField: "Content-Type") == "application/x-www-form-urlencoded")
    }

    @Test("a URL given whole keeps its bytes: URLSession sends the request line curl would")
    func urlAsGiven() async throws {
        let peer = try RequestLinePeer()
        defer { peer.stop() }
        let session = URLSession(configuration: .ephemeral)
        for (given, expected) in URLAsGivenTests.cases {
            let endpoint = try #require(URLEndpoint(URL(string: peer.base + given)!))
            let request = try endpoint.urlRequest()
            #expect(request.url?.absoluteString == peer.base + expected, "\(given)")
            let before = peer.lines.count
            _ = try await session.data(for: request)
            #expect(peer.targets.dropFirst(before).first == expected, "\(given)")
        }
    }

    @Test("a file is streamed from disk; a one-shot byte stream and an unreadable file are encodingError")
    func bodies() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("url-request-\(UUID().uuidString).bin")
        try Data(repeating: 7, count: 1234).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let base = URL(string: "https://api.example.com")!
        let upload = try TestEndpoint(baseURL: base, path: "/u", method: .put, task: .uploadFile(file)).urlRequest()
        #expect(upload.httpBodyStream != nil)
        #expect(upload.httpBody == nil)
        #expect(upload.value(forHTTPHeaderField: "Content-Type") == "application/octet-stream")
        let bytes = AsyncThrowingStream<ArraySlice<UInt8>, any Error> { $0.finish() }
        #expect(throws: NetworkError.encodingError) {
            try TestEndpoint(baseURL: base, path: "/u", method: .post, task: .uploadStream(bytes, length: nil)).urlRequest()
        }
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("missing-\(UUID().uuidString)")
        #expect(throws: NetworkError.encodingError) {
            try TestEndpoint(baseURL: base, path: "/u", method: .put, task: .uploadFile(missing)).urlRequest()
        }
        #expect(throws: NetworkError.invalidURL) { try TestEndpoint(baseURL: URL(string: "relative/path")!, path: "/u").urlRequest() }
    }
}
