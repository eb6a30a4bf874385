import Foundation
import IntegrationTestSupport
import Testing

/// `courier request URL` sends the URL as given (DESIGN.md, "URLs as given"): the request line a
/// raw socket peer receives, over both transports, beside curl's for the same URL.
@Suite("courier request: the URL as given, beside curl")
struct RequestURLAsGivenTests {
    /// Given path and query → what Courier sends → what curl 7.88 sends (nil: curl refuses the URL).
    static let cases: [(given: String, courier: String, curl: String?)] = [
        ("/echo?0001", "/echo?0001", "/echo?0001"),
        ("/echo?a&b=1&c", "/echo?a&b=1&c", "/echo?a&b=1&c"),
        ("/echo?y=a+b", "/echo?y=a+b", "/echo?y=a+b"),
        ("/echo?a=1;b=2", "/echo?a=1;b=2", "/echo?a=1;b=2"),
        ("/echo/a//b", "/echo/a//b", "/echo/a//b"),
        ("/echo?%41=%41", "/echo?%41=%41", "/echo?%41=%41"),
        ("/echo?x=%2f&y=%e2%82%ac", "/echo?x=%2f&y=%e2%82%ac", "/echo?x=%2f&y=%e2%82%ac"),
        ("/echo?b=2&a=1&b=1&flag", "/echo?b=2&a=1&b=1&flag", "/echo?b=2&a=1&b=1&flag"),
        ("/echo/a;b,c=d@e:f!g$h'i(j)k*l~", "/echo/a;b,c=d@e:f!g$h'i(j)k*l~", "/echo/a;b,c=d@e:f!g$h'i(j)k*l~"),
        ("/echo/%7e/%2F?x=a?b/c&%0a", "/echo/%7e/%2F?x=a?b/c&%0a", "/echo/%7e/%2F?x=a?b/c&%0a"),
        ("/echo?", "/echo?", "/echo?"),
        ("/echo#frag", "/echo", "/echo"),
        ("/echo?#frag", "/echo?", "/echo?"),
        ("", "/", "/"),
        ("?a", "/?a", "/?a"),
        ("/a/../b/./c/%2e%2e/d", "/b/c/%2e%2e/d", "/b/c/%2e%2e/d"),
        ("/echo?q=a b", "/echo?q=a%20b", nil),
        ("/echo/ü?x=ü", "/echo/%C3%BC?x=%C3%BC", "/echo/%c3%bc?x=ü"),
        ("/echo?x={}|^`\"<>\\[]", "/echo?x=%7B%7D%7C%5E%60%22%3C%3E%5C%5B%5D", "/echo?x={}|^`\"<>\\[]"),
        ("/echo?x=%zz&y=%", "/echo?x=%25zz&y=%25", "/echo?x=%zz&y=%"),
    ]

    static let transports = ["ahc", "urlsession"]

    @Test("every case over --transport ahc and urlsession: Courier's request line, and curl's", arguments: transports)
    func requestLines(_ transport: String) async throws {
        let peer = try RequestLinePeer()
        defer { peer.stop() }
        for (given, expected, _) in Self.cases {
            let run = try await RequestOutputTests.courier(["request", "--transport", transport, peer.base + given])
            #expect(run.status == .exited(0), "\(given): \(run.errors)")
            #expect(peer.targets.last == expected, "\(given)")
        }
    }

    @Test("curl's request line for each case is the table's", .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/curl")))
    func curlReference() async throws {
        let peer = try RequestLinePeer()
        defer { peer.stop() }
        let scratch = FileManager.default.temporaryDirectory
        for (given, _, curl) in Self.cases {
            let before = peer.lines.count
            _ = try await runProcess(URL(fileURLWithPath: "/usr/bin/curl"), ["-sg", "-o", "/dev/null", peer.base + given], scratch: scratch)
            #expect(peer.targets.dropFirst(before).first == curl, "\(given)")
        }
    }

    @Test("userinfo is not sent on the request line; --query items come after the given query; an IPv6 host", arguments: transports)
    func moreShapes(_ transport: String) async throws {
        let peer = try RequestLinePeer()
        defer { peer.stop() }
        _ = try await RequestOutputTests.courier(["request", "--transport", transport, "http://u:p@127.0.0.1:\(peer.port)/echo?0001"])
        #expect(peer.targets.last == "/echo?0001")
        _ = try await RequestOutputTests.courier(["request", "--transport", transport, peer.base + "/echo?0001&y=a+b", "--query", "q=a+b 서울"])
        #expect(peer.targets.last == "/echo?0001&y=a+b&q=a%2Bb%20%EC%84%9C%EC%9A%B8")
        let six = try RequestLinePeer(ipv6: true)
        defer { six.stop() }
        let run = try await RequestOutputTests.courier(["request", "--transport", transport, six.base + "/echo?a&b=1&c"])
        // FoundationNetworking refuses every IPv6 literal host with badURL before sending
        // (swift-corelibs-foundation#5496: its check that libcurl and URL agree on the host keeps
        // the brackets on one side only); curl and AsyncHTTPClient reach it.
        let reachable = transport != "urlsession"
        #expect(run.status == .exited(reachable ? 0 : 10), "\(run.errors)")
        #expect(six.targets == (reachable ? ["/echo?a&b=1&c"] : []))
    }

    @Test("courier download fetches the URL as given", arguments: transports)
    func download(_ transport: String) async throws {
        let peer = try RequestLinePeer()
        defer { peer.stop() }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("as-given-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        let run = try await RequestOutputTests.courier([
            "download", "--transport", transport, peer.base + "/files/a//b.bin?X-Amz-Signature=ab%2Fcd&0001&y=a+b", "-o", file,
        ])
        #expect(run.status == .exited(0), "\(run.errors)")
        #expect(peer.targets == ["/files/a//b.bin?X-Amz-Signature=ab%2Fcd&0001&y=a+b"])
    }
}
