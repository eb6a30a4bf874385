import Courier
import CourierSandbox
import Foundation
import IntegrationTestSupport
import Testing

/// `NetworkClient.request(url:)` (the coin app's `request<T>(url:)`): decode from a URL given
/// whole, sent as given (DESIGN.md, "URLs as given") — judged by the request line a raw socket
/// peer receives, on both transports.
@Suite("request(url:): decoding from a URL given whole")
struct RequestURLTests {
    @Test("every case of URLAsGivenTests goes out as curl would send it", arguments: TransportKind.allCases)
    func requestLine(_ kind: TransportKind) async throws {
        let peer = try RequestLinePeer()
        defer { peer.stop() }
        let client = NetworkClient(transport: kind.make())
        for (given, expected) in URLAsGivenTests.cases {
            let url = try #require(URL(string: peer.base + given))
            let before = peer.lines.count
            // The peer answers `ok`, not JSON: the call reaches decoding and fails there.
            await #expect(throws: NetworkError.self) { _ = try await client.request(url: url, as: [String].self) }
            #expect(peer.lines.dropFirst(before).first?.hasPrefix("GET ") == true)
            #expect(peer.targets.dropFirst(before).first == expected, "\(given)")
        }
        do throws(NetworkError) {
            let _: [Int] = try await client.request(url: URL(string: peer.base + "/echo?a&b=1&c")!)
            Issue.record("`ok` decoded as [Int]")
        } catch .decodingError {
            #expect(peer.targets.last == "/echo?a&b=1&c")
        }
    }

    @Test("the answer decodes as the call site's type, or as `as:` says; flag items, + and %2f arrive as given", arguments: TransportKind.allCases)
    func decodes(_ kind: TransportKind) async throws {
        try await withSandbox { sandbox in
            let client = NetworkClient(transport: kind.make())
            let url = try #require(URL(string: sandbox.baseURL.absoluteString + "/echo/a%2fb?a&b=1&c&y=a+b&x=%2f"))
            let echo: Echo = try await client.request(url: url)
            #expect(echo.method == "GET")
            #expect(echo.rawPath == "/echo/a%2fb")
            #expect(echo.rawQuery == "a&b=1&c&y=a+b&x=%2f")
            let same = try await client.request(url: url, as: Echo.self)
            #expect(same.rawQuery == echo.rawQuery)
        }
    }

    @Test("it goes to the URL's own server, also on a client made with a base URL")
    func ownServer() async throws {
        let peer = try RequestLinePeer()
        defer { peer.stop() }
        let refusing = RefusingPort()
        let client = NetworkClient(configuration: .init(baseURL: URL(string: "http://127.0.0.1:\(refusing.port)/base")!))
        await #expect(throws: NetworkError.self) { _ = try await client.request(url: URL(string: peer.base + "/next?page=2&0001")!, as: [Int].self) }
        #expect(peer.targets == ["/next?page=2&0001"])
    }

    @Test("a URL that is not http(s) with a host is invalidURL, nothing sent")
    func invalid() async throws {
        let client = NetworkClient()
        for text in ["ftp://127.0.0.1/x", "file:///etc/passwd", "mailto:a@b.c", "/relative"] {
            let url = try #require(URL(string: text))
            await #expect(throws: NetworkError.invalidURL, "\(text)") { _ = try await client.request(url: url, as: [Int].self) }
        }
    }

    @Test("a decoding failure logs in the seed's format, naming the caller")
    func decodingLog() async throws {
        try await withSandbox { sandbox in
            let url = try #require(URL(string: sandbox.baseURL.absoluteString + "/echo?x=1"))
            do throws(NetworkError) {
                _ = try await NetworkClient().request(url: url, as: [String: Int].self)
                Issue.record("an echo decoded as [String: Int]")
            } catch {
                let line = error.log()
                #expect(line.hasPrefix("decodingError(\""))
                #expect(line.hasSuffix("-\"CourierTests/RequestURLTests.swift#decodingLog()\""))
            }
        }
    }
}
