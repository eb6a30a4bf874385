import Courier
import CourierAsyncHTTPClient
import CourierSandbox
import CourierTransfers
import Foundation
import IntegrationTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `TLSSettings` on the AsyncHTTPClient transport against the sandbox serving HTTPS with
/// certificates the tests make (`openssl`), and HTTP/2 by ALPN.
@Suite("TLS: roots, pins, client certificates, minimum version, HTTP/2")
struct TLSTransportTests {
    struct Echo: Decodable {
        var cookies: [String: String]
    }

    static func sandbox(
        _ certificates: TestCertificates, clientRoots: String? = nil, http2: Bool = true, maximumTLS12: Bool = false,
        _ body: (RunningSandbox) async throws -> Void
    ) async throws {
        var options = SandboxServer.Options()
        options.extraHostNames = [TestCertificates.resolvableName]
        options.tls = SandboxServer.TLS(
            certificateChainPEM: certificates.serverChainPEM, privateKeyPEM: certificates.serverKeyPEM, clientCertificateRootsPEM: clientRoots,
            http2: http2, maximumTLS12: maximumTLS12)
        try await SandboxServer.withRunning(options: options, body)
    }

    static func client(_ tls: TLSSettings) throws -> (NetworkClient, HTTPClientTransport) {
        var settings = HTTPClientTransport.Settings()
        settings.tls = tls
        let transport = try HTTPClientTransport(validating: settings)
        return (NetworkClient(transport: transport), transport)
    }

    static func call(_ client: NetworkClient, _ sandbox: RunningSandbox) async throws -> [String: String] {
        try await client.request(sandbox.get("/cookies"), as: Echo.self).cookies
    }

    @Test("a server whose CA the system does not know: untrusted by default; trusted with roots .only / .systemAnd its CA")
    func roots() async throws {
        let certificates = try await TestCertificates.shared.value
        try await Self.sandbox(certificates) { sandbox in
            let (plain, plainTransport) = try Self.client(TLSSettings())
            await #expect(throws: NetworkError.networkError(URLError(.serverCertificateUntrusted))) { try await Self.call(plain, sandbox) }
            for roots in [TLSSettings.Roots.only(pem: certificates.caPEM), .systemAnd(pem: certificates.caPEM)] {
                let (client, transport) = try Self.client(TLSSettings(roots: roots))
                #expect(try await Self.call(client, sandbox).isEmpty)
                try await transport.shutdown()
            }
            let (wrong, wrongTransport) = try Self.client(TLSSettings(roots: .only(pem: certificates.otherCAPEM)))
            await #expect(throws: NetworkError.networkError(URLError(.serverCertificateUntrusted))) { try await Self.call(wrong, sandbox) }
            try await plainTransport.shutdown()
            try await wrongTransport.shutdown()
        }
    }

    @Test("pins: the server key's pin (among others, for rotation) passes on calls and streams; none matching fails before any request")
    func pins() async throws {
        let certificates = try await TestCertificates.shared.value
        try await Self.sandbox(certificates) { sandbox in
            let other = "sha256//" + Data(repeating: 7, count: 32).base64EncodedString()
            let (client, transport) = try Self.client(TLSSettings(roots: .only(pem: certificates.caPEM), pins: [other, certificates.serverPin]))
            #expect(try await Self.call(client, sandbox).isEmpty)
            var lines = 0
            for try await _ in client.lines(sandbox.get("/ndjson", query: ["count": 3])) { lines += 1 }
            #expect(lines == 3)
            let (pinned, pinnedTransport) = try Self.client(TLSSettings(roots: .only(pem: certificates.caPEM), pins: [other]))
            await #expect(throws: NetworkError.networkError(URLError(.serverCertificateUntrusted))) { try await Self.call(pinned, sandbox) }
            await #expect(throws: NetworkError.self) {
                for try await _ in pinned.lines(sandbox.get("/ndjson", query: ["count": 3])) {}
            }
            #expect(throws: TLSSettingsError.invalidPin("sha1//abc")) { try Self.client(TLSSettings(pins: ["sha1//abc"])) }
            try await transport.shutdown()
            try await pinnedTransport.shutdown()
        }
    }

    @Test("mutual TLS: a server that requires a client certificate accepts the right one and refuses a call without", arguments: [false, true])
    func clientCertificates(tls12: Bool) async throws {
        let certificates = try await TestCertificates.shared.value
        try await Self.sandbox(certificates, clientRoots: certificates.clientCAPEM, maximumTLS12: tls12) { sandbox in
            let identity = TLSSettings.ClientCertificate(
                certificateChainPEM: certificates.clientCertificatePEM, privateKeyPEM: certificates.clientKeyPEM)
            let (client, transport) = try Self.client(TLSSettings(roots: .only(pem: certificates.caPEM), clientCertificate: identity))
            #expect(try await Self.call(client, sandbox).isEmpty)
            let (without, withoutTransport) = try Self.client(TLSSettings(roots: .only(pem: certificates.caPEM)))
            await #expect(throws: NetworkError.self) { try await Self.call(without, sandbox) }
            let rogue = TLSSettings.ClientCertificate(certificateChainPEM: certificates.rogueCertificatePEM, privateKeyPEM: certificates.rogueKeyPEM)
            let (refused, refusedTransport) = try Self.client(TLSSettings(roots: .only(pem: certificates.caPEM), clientCertificate: rogue))
            let error = await #expect(throws: NetworkError.self) { try await Self.call(refused, sandbox) }
            let code = (error.flatMap { if case .networkError(let urlError) = $0 { urlError.code } else { nil } })
            if tls12 {
                // The refusal is part of the handshake, and the server's alert names it.
                #expect(code == .clientCertificateRejected, "\(String(describing: error))")
            } else {
                // TLS 1.3: the client's handshake is over before the server checks its certificate;
                // the refusal may arrive as the connection closing.
                #expect(code == .clientCertificateRejected || code == .networkConnectionLost, "\(String(describing: error))")
            }
            try await refusedTransport.shutdown()
            try await transport.shutdown()
            try await withoutTransport.shutdown()
        }
    }

    @Test("a PKCS#12 client certificate is presented as the PEM one is; a wrong passphrase or not PKCS#12 is refused when the transport is made")
    func pkcs12() async throws {
        let certificates = try await TestCertificates.shared.value
        try await Self.sandbox(certificates, clientRoots: certificates.clientCAPEM, maximumTLS12: true) { sandbox in
            let identity = TLSSettings.ClientCertificate(pkcs12: certificates.clientPKCS12, passphrase: TestCertificates.clientPKCS12Passphrase)
            let (client, transport) = try Self.client(TLSSettings(roots: .only(pem: certificates.caPEM), clientCertificate: identity))
            #expect(try await Self.call(client, sandbox).isEmpty)
            try await transport.shutdown()
            #expect(throws: TLSSettingsError.invalidPKCS12) {
                try Self.client(TLSSettings(clientCertificate: .init(pkcs12: certificates.clientPKCS12, passphrase: "wrong")))
            }
            #expect(throws: TLSSettingsError.invalidPKCS12) {
                try Self.client(TLSSettings(clientCertificate: .init(pkcs12: Data(certificates.clientCertificatePEM.utf8))))
            }
        }
        // Descriptions and dumps never show the key or the passphrase.
        let pem = TLSSettings(
            clientCertificate: .init(certificateChainPEM: certificates.clientCertificatePEM, privateKeyPEM: certificates.clientKeyPEM))
        let p12 = TLSSettings(clientCertificate: .init(pkcs12: certificates.clientPKCS12, passphrase: TestCertificates.clientPKCS12Passphrase))
        for settings in [pem, p12] {
            var dumped = ""
            dump(settings, to: &dumped)
            for shown in [String(describing: settings), String(reflecting: settings), dumped] {
                #expect(!shown.contains("PRIVATE KEY") && !shown.contains(TestCertificates.clientPKCS12Passphrase), "\(shown)")
                #expect(shown.contains("client certificate ("), "\(shown)")
            }
        }
    }

    @Test("resolve: a name no resolver knows is dialled at the given address, the name kept for Host, SNI and the certificate")
    func resolve() async throws {
        let certificates = try await TestCertificates.shared.value
        try await Self.sandbox(certificates) { sandbox in
            let name = TestCertificates.resolvableName
            let endpoint = TestEndpoint(baseURL: URL(string: "https://\(name):\(sandbox.port)")!, path: "/cookies")
            var settings = HTTPClientTransport.Settings()
            settings.tls = TLSSettings(roots: .only(pem: certificates.caPEM))
            let unresolved = try HTTPClientTransport(validating: settings)
            await #expect(throws: NetworkError.networkError(URLError(.cannotFindHost))) {
                try await NetworkClient(transport: unresolved).response(endpoint)
            }
            settings.resolve = [name.uppercased(): "127.0.0.1"]
            let resolved = try HTTPClientTransport(validating: settings)
            let response = try await NetworkClient(transport: resolved).response(endpoint)
            #expect(response.statusCode == 200, "the sandbox answered to Host: \(name)")
            for transport in [unresolved, resolved] { try await transport.shutdown() }
        }
    }

    @Test("a minimum of TLS 1.3 refuses a server that speaks at most 1.2")
    func minimumVersion() async throws {
        let certificates = try await TestCertificates.shared.value
        try await Self.sandbox(certificates, maximumTLS12: true) { sandbox in
            let (twelve, twelveTransport) = try Self.client(TLSSettings(roots: .only(pem: certificates.caPEM), minimumVersion: .tls12))
            #expect(try await Self.call(twelve, sandbox).isEmpty)
            let (thirteen, thirteenTransport) = try Self.client(TLSSettings(roots: .only(pem: certificates.caPEM), minimumVersion: .tls13))
            await #expect(throws: NetworkError.networkError(URLError(.secureConnectionFailed))) { try await Self.call(thirteen, sandbox) }
            try await twelveTransport.shutdown()
            try await thirteenTransport.shutdown()
        }
    }

    @Test("HTTP/2 by ALPN: after one warm-up call, 100 concurrent calls share one connection (HTTP/1.1: many)")
    func http2Multiplexing() async throws {
        let certificates = try await TestCertificates.shared.value
        for http2 in [true, false] {
            try await Self.sandbox(certificates, http2: http2) { sandbox in
                let (client, transport) = try Self.client(TLSSettings(roots: .only(pem: certificates.caPEM)))
                _ = try await Self.call(client, sandbox)
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for _ in 0..<100 { group.addTask { _ = try await client.response(sandbox.get("/delay/100")) } }
                    try await group.waitForAll()
                }
                if http2 {
                    #expect(sandbox.acceptedConnections == 1, "HTTP/2: \(sandbox.acceptedConnections) connections")
                } else {
                    #expect(sandbox.acceptedConnections > 10, "HTTP/1.1: \(sandbox.acceptedConnections) connections")
                }
                try await transport.shutdown()
            }
        }
    }

    @Test("the URLSession transport refuses anything but the default TLS settings when it is made (fails closed)")
    func urlSessionFailsClosed() throws {
        #expect(throws: TLSSettingsError.self) {
            try URLSessionClientTransport(session: URLSession(configuration: .ephemeral), tls: TLSSettings(minimumVersion: .tls13))
        }
        #expect(throws: Never.self) { try URLSessionClientTransport(session: URLSession(configuration: .ephemeral), tls: TLSSettings()) }
    }
}
