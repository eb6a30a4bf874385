import Courier
import CourierAsyncHTTPClient
import CourierSandbox
import CourierTransfers
import Foundation
import IntegrationTestSupport
import Testing

/// The AsyncHTTPClient transport through real proxies: the tests' own CONNECT proxy
/// (`Scripts/connect-proxy.py`, which reports what it saw) and PyPI's `pproxy` (SOCKS5).
@Suite("Proxies: the AsyncHTTPClient transport through real proxy processes", .serialized)
struct ProxyTransportTests {
    static func client(_ rules: ProxyRules) -> (NetworkClient, HTTPClientTransport) {
        var settings = HTTPClientTransport.Settings()
        settings.proxy = rules
        let transport = HTTPClientTransport(settings: settings)
        return (NetworkClient(transport: transport), transport)
    }

    struct Echo: Decodable {
        var cookies: [String: String]
    }

    @Test(
        "an HTTP proxy with Basic credentials: the call, a stream and a download tunnel through CONNECT; the credentials go to the proxy, not the server"
    )
    func httpProxyWithCredentials() async throws {
        let proxy = try await ProxyPeer.connectProxy(["--user", "alice", "--password", "s3cret"])
        try await withSandbox { sandbox in
            let (client, transport) = Self.client(ProxyRules(all: try HTTPProxy(url: "http://alice:s3cret@127.0.0.1:\(proxy.port)")))
            let answer = try await client.request(sandbox.get("/cookies"), as: Echo.self)
            #expect(answer.cookies.isEmpty)
            var lines = 0
            for try await _ in client.lines(sandbox.get("/ndjson", query: ["count": 5])) { lines += 1 }
            #expect(lines == 5)
            let target = FileManager.default.temporaryDirectory.appendingPathComponent("proxy-\(UUID().uuidString).bin")
            defer { try? FileManager.default.removeItem(at: target) }
            let file = try await client.download(sandbox.get("/files/p.bin", query: ["size": 1 << 20]), to: target)
            #expect(file.bytes == 1 << 20)
            let records = proxy.records
            #expect(!records.isEmpty && records.allSatisfy { $0.method == "CONNECT" && $0.status == 200 }, "\(records)")
            #expect(records.allSatisfy { $0.target == "127.0.0.1:\(sandbox.baseURL.port ?? 0)" })
            #expect(records.allSatisfy { $0.authorization == "Basic YWxpY2U6czNjcmV0" })
            try await transport.shutdown()
        }
        await proxy.stop()
    }

    @Test("an https URL through the CONNECT proxy: TLS end to end with the server — its roots and pins apply, the proxy sees only CONNECT")
    func httpsThroughProxy() async throws {
        let certificates = try await TestCertificates.shared.value
        let proxy = try await ProxyPeer.connectProxy([])
        var options = SandboxServer.Options()
        options.tls = SandboxServer.TLS(certificateChainPEM: certificates.serverChainPEM, privateKeyPEM: certificates.serverKeyPEM)
        try await SandboxServer.withRunning(options: options) { sandbox in
            var settings = HTTPClientTransport.Settings()
            settings.proxy = ProxyRules(all: HTTPProxy(kind: .http, host: "127.0.0.1", port: proxy.port))
            settings.tls = TLSSettings(roots: .only(pem: certificates.caPEM), pins: [certificates.serverPin])
            let transport = try HTTPClientTransport(validating: settings)
            let answer = try await NetworkClient(transport: transport).request(sandbox.get("/cookies"), as: Echo.self)
            #expect(answer.cookies.isEmpty)
            try await transport.shutdown()
            settings.tls.pins = ["sha256//" + Data(repeating: 9, count: 32).base64EncodedString()]
            let mispinned = try HTTPClientTransport(validating: settings)
            await #expect(throws: NetworkError.networkError(URLError(.serverCertificateUntrusted))) {
                try await NetworkClient(transport: mispinned).response(sandbox.get("/cookies"))
            }
            try await mispinned.shutdown()
            await eventually("the proxy's records") { proxy.records.count == 2 }
            let records = proxy.records
            #expect(records.count == 2 && records.allSatisfy { $0.method == "CONNECT" && $0.status == 200 }, "\(records)")
            #expect(records.allSatisfy { $0.target == "127.0.0.1:\(sandbox.port)" })
        }
        await proxy.stop()
    }

    @Test("wrong credentials: the proxy's 407 is userAuthenticationRequired")
    func wrongCredentials() async throws {
        let proxy = try await ProxyPeer.connectProxy(["--user", "alice", "--password", "s3cret"])
        try await withSandbox { sandbox in
            let (client, transport) = Self.client(ProxyRules(all: try HTTPProxy(url: "http://alice:wrong@127.0.0.1:\(proxy.port)")))
            await #expect(throws: NetworkError.networkError(URLError(.userAuthenticationRequired))) {
                try await client.response(sandbox.get("/cookies"))
            }
            #expect(proxy.records.first?.status == 407)
            try await transport.shutdown()
        }
        await proxy.stop()
    }

    @Test("a proxy that allows CONNECT only to 443 refuses a plain-http URL (AsyncHTTPClient tunnels every URL)")
    func only443() async throws {
        let proxy = try await ProxyPeer.connectProxy(["--only-443"])
        try await withSandbox { sandbox in
            let (client, transport) = Self.client(ProxyRules(all: HTTPProxy(kind: .http, host: "127.0.0.1", port: proxy.port)))
            await #expect(throws: NetworkError.self) { try await client.response(sandbox.get("/cookies")) }
            // The proxy prints its record before it answers; this process reads it a moment later.
            await eventually("the proxy's record") { proxy.records.map(\.status) == [403] }
            try await transport.shutdown()
        }
        await proxy.stop()
    }

    @Test("SOCKS5 through pproxy")
    func socks5() async throws {
        // Never skipped for a missing tool: Scripts/test.sh installs pproxy.
        try #require(ProxyPeer.pproxyAvailable, "pproxy is missing: run the tests with Scripts/test.sh (it installs it in .build-python)")
        let proxy = try await ProxyPeer.pproxy("socks5")
        try await withSandbox { sandbox in
            let (client, transport) = Self.client(ProxyRules(all: try HTTPProxy(url: "socks5://127.0.0.1:\(proxy.port)")))
            #expect(try await client.request(sandbox.get("/cookies"), as: Echo.self).cookies.isEmpty)
            try await Task.sleep(for: .milliseconds(100))
            #expect(proxy.output.contains { $0.contains("socks5") && $0.contains("127.0.0.1:\(sandbox.baseURL.port ?? 0)") }, "\(proxy.output)")
            try await transport.shutdown()
        }
        await proxy.stop()
    }

    @Test("rules from the environment send loopback direct: a dead proxy in http_proxy does not stop a call to 127.0.0.1")
    func environmentLoopbackDirect() async throws {
        try await withSandbox { sandbox in
            let rules = try ProxyRules(environment: ["http_proxy": "http://127.0.0.1:1", "https_proxy": "http://127.0.0.1:1"])
            let (client, transport) = Self.client(rules)
            #expect(try await client.request(sandbox.get("/cookies"), as: Echo.self).cookies.isEmpty)
            try await transport.shutdown()
        }
    }
}
