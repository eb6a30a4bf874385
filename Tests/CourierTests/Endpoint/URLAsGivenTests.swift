import Courier
import Foundation
import HTTPTypes
import IntegrationTestSupport
import Testing

/// DESIGN.md, "URLs as given": a URL given whole goes out as given — judged by the request line a
/// raw socket peer receives, on both transports. curl's line for each case is in `cases` (the
/// CLI's tests run curl itself against the same peer).
@Suite("URLs as given: the request line is the URL's path and query")
struct URLAsGivenTests {
    /// Given path and query → the request target sent (curl 7.88 sends the same unless noted).
    static let cases: [(given: String, sent: String)] = [
        ("/echo?0001", "/echo?0001"),
        ("/echo?a&b=1&c", "/echo?a&b=1&c"),
        ("/echo?y=a+b", "/echo?y=a+b"),
        ("/echo?a=1;b=2", "/echo?a=1;b=2"),
        ("/echo/a//b", "/echo/a//b"),
        ("/echo?%41=%41", "/echo?%41=%41"),
        ("/echo?x=%2f&y=%e2%82%ac", "/echo?x=%2f&y=%e2%82%ac"),
        ("/echo?a=1&a=2&b&a=0", "/echo?a=1&a=2&b&a=0"),
        ("/echo/a;b,c=d@e:f!g$h'i(j)k*l~", "/echo/a;b,c=d@e:f!g$h'i(j)k*l~"),
        ("/echo/%7e/%2F?x=a?b/c&%0a", "/echo/%7e/%2F?x=a?b/c&%0a"),
        ("/echo?", "/echo?"),
        ("/echo#frag", "/echo"),
        ("/echo?#frag", "/echo?"),
        ("", "/"),
        ("?a", "/?a"),
        ("/a/../b/./c/%2e%2e/d", "/b/c/%2e%2e/d"),
        ("/a/b/..", "/a/"),
        // curl refuses a space (exit 3); Courier encodes it.
        ("/echo?q=a b", "/echo?q=a%20b"),
        // curl: `/echo/%c3%bc?x=ü` (lower-case hex in the path, raw UTF-8 in the query).
        ("/echo/ü?x=ü", "/echo/%C3%BC?x=%C3%BC"),
        // curl sends these bytes raw; RFC 3986 does not allow them in a URL.
        ("/echo?x={}|^`\"<>\\[]", "/echo?x=%7B%7D%7C%5E%60%22%3C%3E%5C%5B%5D"),
        // curl sends `%zz` and `%` raw; Foundation's URL (both transports) cannot carry them bare.
        ("/echo?x=%zz&y=%", "/echo?x=%25zz&y=%25"),
    ]

    /// The target sent for `given` (a path and query after the peer's origin) over `kind`.
    static func sent(_ given: String, over kind: TransportKind, peer: RequestLinePeer) async throws -> String? {
        let url = try #require(URL(string: peer.base + given))
        let endpoint = try #require(URLEndpoint(url))
        let before = peer.lines.count
        _ = try await NetworkClient(transport: kind.make()).response(endpoint)
        return peer.targets.dropFirst(before).first
    }

    @Test("URLEndpoint: every case's request line, as given", arguments: TransportKind.allCases)
    func urlEndpoint(_ kind: TransportKind) async throws {
        let peer = try RequestLinePeer()
        defer { peer.stop() }
        for (given, expected) in Self.cases {
            #expect(try await Self.sent(given, over: kind, peer: peer) == expected, "\(given)")
        }
        let withUserInfo = try #require(URLEndpoint(URL(string: "http://user:pass@127.0.0.1:\(peer.port)/echo?0001")!))
        _ = try await NetworkClient(transport: kind.make()).response(withUserInfo)
        #expect(peer.targets.last == "/echo?0001")
    }

    @Test("an IPv6 literal host: the target as given", arguments: TransportKind.allCases)
    func ipv6(_ kind: TransportKind) async throws {
        let peer = try RequestLinePeer(ipv6: true)
        defer { peer.stop() }
        switch kind {
        case .urlSession:
            // FoundationNetworking refuses every IPv6 literal host before sending
            // (swift-corelibs-foundation#5496): the transport reports it as badURL.
            await #expect(throws: NetworkError.networkError(URLError(.badURL))) { try await Self.sent("/echo?a&b=1&c", over: kind, peer: peer) }
            #expect(peer.lines.isEmpty)
        default:
            #expect(try await Self.sent("/echo?a&b=1&c", over: kind, peer: peer) == "/echo?a&b=1&c")
        }
        #expect(URLEndpoint.parts(of: "http://[::1]:\(peer.port)/x")?.baseURL.absoluteString == "http://[::1]:\(peer.port)")
    }

    @Test("parts(of:): the origin (userinfo and fragment left out, host lower-cased, IDNA) and the target")
    func parts() throws {
        let parts = try #require(URLEndpoint.parts(of: "HTTPS://u:p@Example.COM:8443/a//b?0001&y=a+b#top"))
        #expect(parts.baseURL.absoluteString == "https://example.com:8443")
        #expect(parts.requestTarget == "/a//b?0001&y=a+b")
        #expect(URLEndpoint.parts(of: "http://bücher.example/ü")?.baseURL.absoluteString == "http://xn--bcher-kva.example")
        #expect(URLEndpoint.parts(of: "http://bücher.example/ü")?.requestTarget == "/%C3%BC")
        for refused in ["ftp://h/x", "http:///x", "/echo", "http//h/x", "http://exa mple/"] {
            #expect(URLEndpoint.parts(of: refused) == nil, "\(refused)")
        }
        let endpoint = try #require(URLEndpoint(URL(string: "http://h/a//b?0001")!))
        #expect(try endpoint.httpRequest().path == "/a//b?0001")
        #expect(endpoint.path == "/a//b")
    }

    /// A call whose URL is given whole and whose task adds query parameters.
    struct GivenWithParameters: Endpoint {
        let baseURL: URL
        let requestTarget: String?
        var path: String { "/ignored" }
        var method: HTTPMethod { .get }
        var task: HTTPTask { .requestParameters(["q": "a+b 서울", "&": "="], encoding: .url) }
    }

    @Test("query items built from parameters keep RFC 3986 encoding and come after the given query", arguments: TransportKind.allCases)
    func parametersAfterGivenQuery(_ kind: TransportKind) async throws {
        let peer = try RequestLinePeer()
        defer { peer.stop() }
        let base = URL(string: peer.base)!
        let client = NetworkClient(transport: kind.make())
        let built = "%26=%3D&q=a%2Bb%20%EC%84%9C%EC%9A%B8"
        for (given, expected) in [("/echo?0001&y=a+b", "/echo?0001&y=a+b&"), ("/echo", "/echo?"), ("/echo?", "/echo?"), ("/echo?a&", "/echo?a&")] {
            _ = try await client.response(GivenWithParameters(baseURL: base, requestTarget: given))
            #expect(peer.targets.last == expected + built, "\(given)")
        }
    }

    @Test("a redirect's Location is followed as given", arguments: TransportKind.allCases)
    func redirectLocation(_ kind: TransportKind) async throws {
        // curl 7.88 follows it to `/next/a//c?0001&y=a+b&%2f&%zz&sp+ace&{x}&%c3%bc` (a space as `+`).
        let location = "/next/a//b/../c?0001&y=a+b&%2f&%zz&sp ace&{x}&ü#frag"
        let peer = try RequestLinePeer { line in
            line.hasPrefix("GET /start ") ? "HTTP/1.1 302 Found\r\nLocation: \(location)" : "HTTP/1.1 200 OK"
        }
        defer { peer.stop() }
        let client = NetworkClient(transport: kind.make())
        _ = try await client.response(try #require(URLEndpoint(URL(string: peer.base + "/start")!)))
        #expect(peer.targets == ["/start", "/next/a//c?0001&y=a+b&%2f&%25zz&sp%20ace&%7Bx%7D&%C3%BC"])
    }

    @Test("a download URL is fetched as given", arguments: TransportKind.allCases)
    func download(_ kind: TransportKind) async throws {
        let peer = try RequestLinePeer()
        defer { peer.stop() }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("as-given-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        let link = try #require(URLEndpoint(URL(string: peer.base + "/files/a//b.bin?X-Amz-Signature=ab%2Fcd&0001&y=a+b")!))
        let saved = try await NetworkClient(transport: kind.make()).download(link, to: file)
        #expect(saved.bytes == 2)
        #expect(peer.targets == ["/files/a//b.bin?X-Amz-Signature=ab%2Fcd&0001&y=a+b"])
    }
}
