import Courier
import CourierSandbox
import Foundation
import IntegrationTestSupport
import Testing

/// The redirect policies on the client's own hop-by-hop following, and the chain an answer reports.
@Suite("Redirects: policies and the chain followed")
struct RedirectPolicyTests {
    @Test("the answer tells the redirects it followed, in order", arguments: TransportKind.allCases)
    func chain(_ kind: TransportKind) async throws {
        try await withSandbox { sandbox in
            let client = NetworkClient(transport: kind.make())
            let answer = try await client.response(sandbox.get("/redirect/3"))
            #expect(answer.statusCode == 200)
            #expect(answer.redirects.map(\.status) == [302, 302, 302])
            #expect(answer.redirects.map(\.from.path) == ["/redirect/3", "/redirect/2", "/redirect/1"])
            #expect(answer.redirects.map(\.to.path) == ["/redirect/2", "/redirect/1", "/redirect/0"])
            #expect(try await client.response(sandbox.get("/redirect/0")).redirects.isEmpty)
        }
    }

    @Test("sameOrigin follows within the origin; a redirect to another origin is the answer", arguments: TransportKind.allCases)
    func sameOrigin(_ kind: TransportKind) async throws {
        try await withSandbox { sandbox in
            let client = NetworkClient(configuration: .init(transport: kind.make(), redirects: .sameOrigin))
            #expect(try await client.response(sandbox.get("/redirect/2")).redirects.count == 2)
            let port = try #require(sandbox.baseURL.port)
            let elsewhere = try await client.response(
                sandbox.get("/hostile/redirect", query: ["to": "http://localhost:\(port)/redirect/0"]), validatingStatus: false)
            #expect(elsewhere.statusCode == 302 && elsewhere.redirects.isEmpty)
            #expect(elsewhere.headers[.location] == "http://localhost:\(port)/redirect/0")
        }
    }

    @Test("a closure decides per hop; never follows none", arguments: TransportKind.allCases)
    func decides(_ kind: TransportKind) async throws {
        try await withSandbox { sandbox in
            let upToOne = NetworkClient(
                configuration: .init(transport: kind.make(), redirects: RedirectPolicy { from, _, _ in from.path != "/redirect/2" }))
            let stopped = try await upToOne.response(sandbox.get("/redirect/3"), validatingStatus: false)
            #expect(stopped.statusCode == 302 && stopped.redirects.count == 1)
            let never = NetworkClient(configuration: .init(transport: kind.make(), redirects: .none))
            let first = try await never.response(sandbox.get("/redirect/3"), validatingStatus: false)
            #expect(first.statusCode == 302 && first.redirects.isEmpty)
        }
    }
}
