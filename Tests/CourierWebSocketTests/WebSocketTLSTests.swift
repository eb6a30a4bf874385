#if WebSocket  // the `WebSocket` trait: Package.swift
import Courier
import CourierSandbox
import CourierWebSocket
import Foundation
import IntegrationTestSupport
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `TLSSettings` on `wss://`: the sandbox serving HTTPS (HTTP/1.1, so it can upgrade) with
/// certificates the tests make; pins refused before dialling.
@Suite("WebSocket over TLS: roots, client certificates, minimum version; pins fail closed")
struct WebSocketTLSTests {
    static func sandbox(
        _ certificates: TestCertificates, clientRoots: String? = nil, maximumTLS12: Bool = false,
        _ body: (RunningSandbox) async throws -> Void
    ) async throws {
        var options = SandboxServer.Options()
        options.tls = SandboxServer.TLS(
            certificateChainPEM: certificates.serverChainPEM, privateKeyPEM: certificates.serverKeyPEM, clientCertificateRootsPEM: clientRoots,
            http2: false, maximumTLS12: maximumTLS12)
        try await SandboxServer.withRunning(options: options, body)
    }

    /// Connects to the sandbox's echo route over `wss://` and checks one message comes back.
    static func echo(_ sandbox: RunningSandbox, _ tls: TLSSettings) async throws(NetworkError) {
        let url = URL(string: "wss://localhost:\(sandbox.port)/ws/echo")!
        let connection = try await WebSocketClient(configuration: .init(url: url, handshakeTimeout: .seconds(5), tls: tls)).connect()
        try await connection.send(text: "안녕 over TLS")
        var echoed: WebSocketMessage?
        for try await message in connection.messages {
            echoed = message
            break
        }
        await connection.close()
        #expect(echoed == .text("안녕 over TLS"))
    }

    @Test("a CA the system does not know: untrusted by default and with another CA; trusted with .only / .systemAnd its CA")
    func roots() async throws {
        let certificates = try await TestCertificates.shared.value
        try await Self.sandbox(certificates) { sandbox in
            await #expect(throws: NetworkError.networkError(URLError(.serverCertificateUntrusted))) {
                try await Self.echo(sandbox, TLSSettings())
            }
            await #expect(throws: NetworkError.networkError(URLError(.serverCertificateUntrusted))) {
                try await Self.echo(sandbox, TLSSettings(roots: .only(pem: certificates.otherCAPEM)))
            }
            try await Self.echo(sandbox, TLSSettings(roots: .only(pem: certificates.caPEM)))
            try await Self.echo(sandbox, TLSSettings(roots: .systemAnd(pem: certificates.caPEM)))
        }
    }

    @Test("mutual TLS (server at TLS 1.2): the right client certificate is accepted, a rogue one rejected")
    func clientCertificates() async throws {
        let certificates = try await TestCertificates.shared.value
        try await Self.sandbox(certificates, clientRoots: certificates.clientCAPEM, maximumTLS12: true) { sandbox in
            let identity = TLSSettings.ClientCertificate(
                certificateChainPEM: certificates.clientCertificatePEM, privateKeyPEM: certificates.clientKeyPEM)
            try await Self.echo(sandbox, TLSSettings(roots: .only(pem: certificates.caPEM), clientCertificate: identity))
            let rogue = TLSSettings.ClientCertificate(certificateChainPEM: certificates.rogueCertificatePEM, privateKeyPEM: certificates.rogueKeyPEM)
            await #expect(throws: NetworkError.networkError(URLError(.clientCertificateRejected))) {
                try await Self.echo(sandbox, TLSSettings(roots: .only(pem: certificates.caPEM), clientCertificate: rogue))
            }
        }
    }

    @Test("a minimum of TLS 1.3 refuses a server that speaks at most 1.2")
    func minimumVersion() async throws {
        let certificates = try await TestCertificates.shared.value
        try await Self.sandbox(certificates, maximumTLS12: true) { sandbox in
            try await Self.echo(sandbox, TLSSettings(roots: .only(pem: certificates.caPEM), minimumVersion: .tls12))
            await #expect(throws: NetworkError.networkError(URLError(.secureConnectionFailed))) {
                try await Self.echo(sandbox, TLSSettings(roots: .only(pem: certificates.caPEM), minimumVersion: .tls13))
            }
        }
    }

    @Test("pins (even the right one) and a bad PEM fail closed before dialling; a session does not retry them")
    func pinsFailClosed() async throws {
        let certificates = try await TestCertificates.shared.value
        try await Self.sandbox(certificates) { sandbox in
            let before = sandbox.acceptedConnections
            let pinned = TLSSettings(roots: .only(pem: certificates.caPEM), pins: [certificates.serverPin])
            let error = await #expect(throws: NetworkError.self) { try await Self.echo(sandbox, pinned) }
            guard case .webSocketError(.tlsUnavailable(let reason)) = error else {
                Issue.record("expected tlsUnavailable, got \(String(describing: error))")
                return
            }
            #expect(reason.contains("pins"))
            await #expect(throws: NetworkError.webSocketError(.tlsUnavailable("the trust roots is not valid PEM"))) {
                try await Self.echo(sandbox, TLSSettings(roots: .only(pem: "not a certificate")))
            }
            let url = URL(string: "wss://localhost:\(sandbox.port)/ws/echo")!
            // A reconnect would wait 30 s first: ending well before that shows the session gave up at once.
            let session = WebSocketSession(
                client: WebSocketClient(configuration: .init(url: url, tls: pinned)),
                reconnect: ReconnectPolicy(initialDelay: .seconds(30), jitter: 0))
            let started = ContinuousClock.now
            await #expect(throws: NetworkError.webSocketError(.tlsUnavailable(reason))) {
                for try await _ in session.messages {}
            }
            #expect(ContinuousClock.now - started < .seconds(15), "given up at once, not after reconnect backoff")
            #expect(sandbox.acceptedConnections == before, "nothing was dialled")
        }
    }

    @Test("wss:// to an IP address is refused before dialling, with a message that says why")
    func ipAddressRefused() async throws {
        try await withSandbox { sandbox in
            for host in ["127.0.0.1", "[::1]"] {
                let url = URL(string: "wss://\(host):\(sandbox.port)/ws/echo")!
                let error = await #expect(throws: NetworkError.self) { try await WebSocketClient(configuration: .init(url: url)).connect() }
                guard case .webSocketError(.tlsUnavailable(let reason)) = error else {
                    Issue.record("expected tlsUnavailable, got \(String(describing: error))")
                    continue
                }
                #expect(reason.contains("IP address"))
            }
        }
    }

    @Test("plain ws:// ignores the TLS settings, pins included (there is no certificate to check)")
    func plainIgnoresTLS() async throws {
        try await withSandbox { sandbox in
            let connection = try await WebSocketClient(
                configuration: .init(
                    url: webSocketURL(sandbox, "/ws/echo"), tls: TLSSettings(pins: ["sha256//" + Data(count: 32).base64EncodedString()]))
            ).connect()
            await connection.close()
        }
    }
}
#endif  // WebSocket
