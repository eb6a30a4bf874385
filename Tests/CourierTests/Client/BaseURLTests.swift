import Courier
import CourierSandbox
import Foundation
import IntegrationTestSupport
import Testing

/// One endpoint `enum`, any server: the client's base URL replaces the endpoint's.
@Suite("Endpoints bound to a server at run time")
struct BaseURLTests {
    /// An API whose real home is elsewhere, with a base path.
    enum MirroredAPI: Endpoint {
        case search(String)
        var baseURL: URL { URL(string: "https://api.example.invalid/v9")! }
        var path: String {
            switch self {
            case .search(let term): "/echo/search/\(term)"
            }
        }
        var method: HTTPMethod { .get }
        var task: HTTPTask { .requestParameters(["q": "서울 문화+행사"], encoding: .url) }
    }

    @Test("the client's base URL replaces scheme, host, port and base path", arguments: TransportKind.lanes)
    func rebased(_ kind: TransportKind) async throws {
        try await withSandbox(lane: kind) { sandbox in
            let client = NetworkClient(configuration: .init(baseURL: sandbox.baseURL, transport: sandbox.transport))
            let echo: Echo = try await client.request(MirroredAPI.search("서울"))
            #expect(echo.pathSegments == ["echo", "search", "서울"])
            #expect(echo.query == [["q", "서울 문화+행사"]])
        }
    }

    @Test("a base path on the client's base URL is kept in front of the endpoint's path")
    func basePath() async throws {
        try await withSandbox { sandbox in
            let client = NetworkClient(configuration: .init(baseURL: sandbox.baseURL.appendingPathComponent("echo")))
            let response = try await client.response(TestEndpoint(baseURL: URL(string: "https://elsewhere.invalid/api")!, path: "/a/b"))
            #expect(response.request.path == "/a/b")
            let echo = try JSONDecoder().decode(Echo.self, from: response.body)
            #expect(echo.pathSegments == ["echo", "a", "b"])
        }
    }

    @Test("without a client base URL the endpoint's own is used; plain http elsewhere is still refused")
    func endpointDefault() async throws {
        let client = NetworkClient()
        await #expect(throws: NetworkError.insecureURL(host: "example.invalid")) {
            _ = try await client.response(TestEndpoint(baseURL: URL(string: "http://example.invalid")!, path: "/x"))
        }
        let bound = NetworkClient(configuration: .init(baseURL: URL(string: "http://mirror.invalid")!))
        await #expect(throws: NetworkError.insecureURL(host: "mirror.invalid")) {
            _ = try await bound.response(TestEndpoint(baseURL: URL(string: "http://127.0.0.1:1")!, path: "/x"))
        }
    }
}

/// An error answer keeps its response, and `{success, code, message, data}` decodes in one place.
@Suite("Error answers and envelopes")
struct EnvelopeTests {
    struct Item: Codable, Sendable, Equatable {
        var id: Int
    }

    func endpoint(_ sandbox: RunningSandbox, status: Int, body: String, decoding: any ResponseDecoding = .json) -> TestEndpoint {
        var endpoint = TestEndpoint(
            baseURL: sandbox.baseURL, path: "/status/\(status)",
            task: .requestParameters(["body": body, "contentType": "application/json"], encoding: .url))
        endpoint.decoding = decoding
        return endpoint
    }

    @Test("response(_:validatingStatus: false) hands back an error status with its headers, body and mapped error; response(_:) throws it")
    func answerKeepsResponse() async throws {
        try await withSandbox { sandbox in
            let client = NetworkClient()
            let body = #"{"success":false,"code":"CONFLICT","message":"이미 존재하는 사용자명","data":null}"#
            let answer = try await client.response(endpoint(sandbox, status: 409, body: body), validatingStatus: false)
            #expect(answer.statusCode == 409 && !answer.isSuccess)
            #expect(answer.statusError == .remoteError(409, body))
            #expect(answer.headers[.contentType] == "application/json")
            #expect(EnvelopeHead.read(answer.body) == EnvelopeHead(success: false, code: "CONFLICT", message: "이미 존재하는 사용자명"))
            await #expect(throws: NetworkError.remoteError(409, body)) { _ = try await client.response(endpoint(sandbox, status: 409, body: body)) }
            let mapped = StatusMapping.standard.readingEnvelopeMessages()
            #expect(mapped.error(for: answer.head, body: answer.body) == .remoteError(409, "이미 존재하는 사용자명"))
        }
    }

    @Test("EnvelopeDecoding returns data, an empty value for no data, and refuses success:false")
    func envelopeDecoding() async throws {
        try await withSandbox { sandbox in
            let client = NetworkClient()
            let item: Item = try await client.request(
                endpoint(sandbox, status: 200, body: #"{"success":true,"code":"OK","data":{"id":7}}"#, decoding: .envelope))
            #expect(item == Item(id: 7))
            let empty: EmptyResponse = try await client.request(
                endpoint(sandbox, status: 200, body: #"{"success":true,"data":null}"#, decoding: .envelope))
            #expect(empty == EmptyResponse())
            await #expect(throws: NetworkError.remoteError(200, "nope")) {
                let _: Item = try await client.request(
                    endpoint(sandbox, status: 200, body: #"{"success":false,"message":"nope"}"#, decoding: .envelope))
            }
            let error = await #expect(throws: NetworkError.self) {
                let _: Item = try await client.request(endpoint(sandbox, status: 200, body: #"{"success":true}"#, decoding: .envelope))
            }
            #expect(error?.caseName == "decodingError")
            let whole: Envelope<Item> = try await client.request(endpoint(sandbox, status: 200, body: #"{"data":{"id":1}}"#))
            #expect(whole == Envelope(success: true, data: Item(id: 1)))
        }
    }
}
