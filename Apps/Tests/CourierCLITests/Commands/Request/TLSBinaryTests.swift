import CourierSandbox
import Foundation
import IntegrationTestSupport
import Testing

/// `courier request` over HTTPS in curl's words: `--cacert`, `--pinnedpubkey`, `--cert`/`--key`,
/// `--http1.1` — the built binary against the sandbox serving HTTPS with test certificates.
@Suite("courier request: TLS options")
struct TLSBinaryTests {
    static func withTLSSandbox(clientRoots: String? = nil, _ body: (String, TestCertificates, URL) async throws -> Void) async throws {
        let certificates = try await TestCertificates.shared.value
        var options = SandboxServer.Options()
        options.tls = SandboxServer.TLS(
            certificateChainPEM: certificates.serverChainPEM, privateKeyPEM: certificates.serverKeyPEM, clientCertificateRootsPEM: clientRoots)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cli-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try await SandboxServer.withRunning(options: options) { sandbox in
            try await body(sandbox.baseURL.absoluteString, certificates, folder)
        }
    }

    @Test("--cacert trusts the test CA (without it: exit 10); --pinnedpubkey with the right key passes, a wrong one exits 10")
    func cacertAndPins() async throws {
        try await Self.withTLSSandbox { base, certificates, folder in
            let ca = try TestCertificates.write(certificates.caPEM, named: "ca.pem", in: folder)
            let untrusted = try await RequestOutputTests.courier(["request", base + "/cookies"])
            #expect(untrusted.status == .exited(10), "\(untrusted.errors)")
            let trusted = try await RequestOutputTests.courier(["request", base + "/cookies", "--cacert", ca])
            #expect(trusted.status == .exited(0), "\(trusted.errors)")
            let pinned = try await RequestOutputTests.courier([
                "request", base + "/cookies", "--cacert", ca, "--pinnedpubkey", certificates.serverPin,
            ])
            #expect(pinned.status == .exited(0), "\(pinned.errors)")
            let wrong = "sha256//" + Data(repeating: 1, count: 32).base64EncodedString()
            let refused = try await RequestOutputTests.courier(["request", base + "/cookies", "--cacert", ca, "--pinnedpubkey", wrong, "--http1.1"])
            #expect(refused.status == .exited(10), "\(refused.errors)")
            let malformed = try await RequestOutputTests.courier(["request", base + "/cookies", "--pinnedpubkey", "md5//x"])
            #expect(malformed.status == .exited(64))
            let urlsession = try await RequestOutputTests.courier(["request", base + "/cookies", "--cacert", ca, "--transport", "urlsession"])
            #expect(urlsession.status == .exited(64), "refused, not ignored: \(urlsession.errors)")
        }
    }

    @Test("--cert/--key present a client certificate to a server that requires one")
    func clientCertificate() async throws {
        let certificates = try await TestCertificates.shared.value
        try await Self.withTLSSandbox(clientRoots: certificates.clientCAPEM) { base, certificates, folder in
            let ca = try TestCertificates.write(certificates.caPEM, named: "ca.pem", in: folder)
            let cert = try TestCertificates.write(certificates.clientCertificatePEM, named: "client.pem", in: folder)
            let key = try TestCertificates.write(certificates.clientKeyPEM, named: "client.key", in: folder)
            let with = try await RequestOutputTests.courier(["request", base + "/cookies", "--cacert", ca, "--cert", cert, "--key", key])
            #expect(with.status == .exited(0), "\(with.errors)")
            let without = try await RequestOutputTests.courier(["request", base + "/cookies", "--cacert", ca])
            #expect(without.status == .exited(10), "\(without.errors)")
        }
    }
}
