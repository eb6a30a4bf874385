import Courier
import CourierTesting
import Foundation
import IntegrationTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The stub transport users get for their own unit tests.
@Suite("StubTransport")
struct StubTransportTests {
    struct User: Codable, Sendable, Equatable {
        var id: Int
        var name: String
    }

    @Test("answers from its table and records what was sent")
    func table() async throws {
        let stub = StubTransport()
        stub.on(.get, "/users/1", .encoded(User(id: 1, name: "홍길동")))
        stub.on(.delete, "/users/1", .status(204))
        stub.on(.get, "/offline", .fail(.notConnectedToInternet))
        let client = NetworkClient(transport: stub)
        let base = URL(string: "https://api.example.com")!
        let user = try await client.request(
            TestEndpoint(baseURL: base, path: "/users/1", task: .requestParameters(["x": "1"], encoding: .url)), as: User.self)
        #expect(user == User(id: 1, name: "홍길동"))
        let empty = try await client.request(TestEndpoint(baseURL: base, path: "/users/1", method: .delete), as: EmptyResponse.self)
        #expect(empty == EmptyResponse())
        let offline = await #expect(throws: NetworkError.self) {
            try await client.response(TestEndpoint(baseURL: base, path: "/offline"))
        }
        #expect(offline == .networkError(URLError(.notConnectedToInternet)))
        #expect(stub.requests.map { $0.request.path ?? "" } == ["/users/1?x=1", "/users/1", "/offline"])
    }

    /// An API with a Korean path segment and a query, the way a client module would declare it.
    enum SearchAPI: Endpoint {
        case search(String, page: Int)
        var baseURL: URL { URL(string: "https://api.example.com")! }
        var path: String {
            switch self {
            case .search(let term, _): "/search/\(term)"
            }
        }
        var method: HTTPMethod { .get }
        var task: HTTPTask {
            switch self {
            case .search(_, let page): .requestParameters(["page": page, "q": "문화 & 행사"], encoding: .url)
            }
        }
    }

    @Test("a stub keyed by endpoint matches the request as the client builds it (Korean path, encoded query)")
    func byEndpoint() async throws {
        let stub = StubTransport()
        try stub.on(SearchAPI.search("서울", page: 2), .json(#"{"hits":3}"#))
        let client = NetworkClient(transport: stub)
        struct Hits: Decodable, Sendable { var hits: Int }
        #expect(try await client.request(SearchAPI.search("서울", page: 2), as: Hits.self).hits == 3)
        #expect(stub.requests.first?.request.path == "/search/%EC%84%9C%EC%9A%B8?page=2&q=%EB%AC%B8%ED%99%94%20%26%20%ED%96%89%EC%82%AC")
    }

    @Test("an unmatched request fails loudly: named in the error, kept, and reported to the handler")
    func unmatched() async throws {
        let heard = Recorder<String>()
        let stub = StubTransport { message in Task { await heard.append(message) } }
        try stub.on(SearchAPI.search("서울", page: 1), .json("{}"))
        let client = NetworkClient(transport: stub)
        let error = await #expect(throws: NetworkError.self) { try await client.response(SearchAPI.search("부산", page: 1)) }
        guard case .networkError(let urlError) = error else {
            Issue.record("expected networkError, got \(String(describing: error))")
            return
        }
        #expect(urlError.code == .resourceUnavailable)
        #expect(urlError.localizedDescription.contains("no stub for GET /search/%EB%B6%80%EC%82%B0?page=1"))
        #expect(urlError.localizedDescription.contains("GET /search/%EC%84%9C%EC%9A%B8?page=1"))
        #expect(stub.unmatched.count == 1)
        await eventually { await heard.count == 1 }
    }
}
