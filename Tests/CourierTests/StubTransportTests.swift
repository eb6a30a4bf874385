import Courier
import CourierTestSupport
import CourierTesting
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The stub transport users get for their own unit tests.
@Suite("StubTransport")
struct StubTransportTests {
    struct User: Codable, Sendable, Equatable { var id: Int; var name: String }

    @Test("answers from its table and records what was sent")
    func table() async throws {
        let stub = StubTransport()
        stub.on(.get, "/users/1", .encoded(User(id: 1, name: "홍길동")))
        stub.on(.delete, "/users/1", .status(204))
        stub.on(.get, "/offline", .fail(.notConnectedToInternet))
        let client = NetworkClient(transport: stub)
        let base = URL(string: "https://api.example.com")!
        let user = try await client.request(TestEndpoint(baseURL: base, path: "/users/1", task: .requestParameters(["x": "1"], encoding: .url)), as: User.self)
        #expect(user == User(id: 1, name: "홍길동"))
        let empty = try await client.request(TestEndpoint(baseURL: base, path: "/users/1", method: .delete), as: EmptyResponse.self)
        #expect(empty == EmptyResponse())
        let offline = await #expect(throws: NetworkError.self) {
            try await client.response(TestEndpoint(baseURL: base, path: "/offline"))
        }
        #expect(offline == .networkError(URLError(.notConnectedToInternet)))
        let missing = await #expect(throws: NetworkError.self) {
            try await client.response(TestEndpoint(baseURL: base, path: "/nope"))
        }
        #expect(missing == .notFound(404))
        #expect(stub.requests.map { $0.request.path ?? "" } == ["/users/1?x=1", "/users/1", "/offline", "/nope"])
    }
}
