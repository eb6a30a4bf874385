import CourierSandbox
import Foundation
import IntegrationTestSupport
import Testing

@testable import Courier
@testable import CourierCookies

/// `CookieMiddleware` against the sandbox's `/cookies` routes, over both transports.
@Suite("Cookies: a jar on the client, every redirect hop through it")
struct CookieMiddlewareTests {
    struct Echo: Decodable {
        var cookies: [String: String]
    }

    static func client(_ kind: TransportKind, _ jar: CookieJar) -> NetworkClient {
        NetworkClient(configuration: .init(transport: kind.make(), middlewares: [CookieMiddleware(jar: jar)]))
    }

    @Test("a cookie a 302 sets is sent on the next hop and on later calls; a Max-Age=0 deletes it", arguments: TransportKind.allCases)
    func setOnARedirect(_ kind: TransportKind) async throws {
        try await withSandbox { sandbox in
            let jar = CookieJar()
            let client = Self.client(kind, jar)
            let echo = try await client.request(sandbox.get("/cookies/set", query: ["session": "abc", "theme": "dark"]), as: Echo.self)
            #expect(echo.cookies == ["session": "abc", "theme": "dark"], "the 302's Set-Cookie reached the hop it pointed at")
            #expect(Set(jar.all.map(\.name)) == ["session", "theme"])
            #expect(try await client.request(sandbox.get("/cookies"), as: Echo.self).cookies == ["session": "abc", "theme": "dark"])
            let after = try await client.request(sandbox.get("/cookies/delete", query: ["theme": ""]), as: Echo.self)
            #expect(after.cookies == ["session": "abc"])
        }
    }

    @Test("no cookie reaches another host: not on a call, not on a redirect hop to it", arguments: TransportKind.allCases)
    func otherHostsGetNothing(_ kind: TransportKind) async throws {
        try await withSandbox { sandbox in
            let jar = CookieJar()
            let client = Self.client(kind, jar)
            _ = try await client.response(sandbox.get("/cookies/set", query: ["session": "abc"]))
            let port = try #require(sandbox.baseURL.port)
            let elsewhere = "http://localhost:\(port)/cookies"
            #expect(try await client.request(sandbox.get("/hostile/redirect", query: ["to": elsewhere]), as: Echo.self).cookies.isEmpty)
            // Set there (host-only for localhost), sent there, and still not here.
            _ = try await client.response(sandbox.get("/hostile/redirect", query: ["to": "http://localhost:\(port)/cookies/set?there=1"]))
            #expect(try await client.request(sandbox.get("/cookies"), as: Echo.self).cookies == ["session": "abc"])
            #expect(jar.cookies(for: URL(string: elsewhere)!).map(\.name) == ["there"])
        }
    }

    @Test("attributes as the server gave them: Path limits, a domain the host is not within or a public suffix is refused, Secure needs https")
    func attributes() async throws {
        try await withSandbox { sandbox in
            let jar = CookieJar()
            let client = Self.client(.asyncHTTPClient, jar)
            let sets = ["scoped=1; Path=/cookies/raw", "foreign=1; Domain=example.com", "tld=1; Domain=com", "secure=1; Secure", "plain=1"]
            _ = try await client.response(sandbox.get("/cookies/raw", query: ["set": sets]))
            #expect(Set(jar.all.map(\.name)) == ["scoped", "plain"])
            #expect(try await client.request(sandbox.get("/cookies"), as: Echo.self).cookies == ["plain": "1"])
        }
    }
}

/// URLSession's joined `Set-Cookie` value, split back into fields.
@Suite("Cookies: Set-Cookie fields joined by URLSession, split again")
struct SetCookieSplitTests {
    @Test("commas between cookies split; a comma in an Expires date does not")
    func splits() {
        let joined = "a=1; Path=/, b=2; Expires=Wed, 09 Jun 2021 10:18:14 GMT; Secure, c=3"
        #expect(SetCookieFieldSplitter.split(joined) == ["a=1; Path=/", "b=2; Expires=Wed, 09 Jun 2021 10:18:14 GMT; Secure", "c=3"])
        #expect(SetCookieFieldSplitter.split("only=1") == ["only=1"])
        #expect(SetCookieFieldSplitter.split("") == [])
    }
}
