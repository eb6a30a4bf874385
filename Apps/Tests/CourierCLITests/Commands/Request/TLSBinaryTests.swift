import CourierSandbox
import Foundation
import IntegrationTestSupport
import Testing

/// `courier request` over HTTPS in curl's words: `--cacert`, `--pinnedpubkey`, `--cert`/`--key`,
/// `--cert-type P12`, `--resolve`, `--http1.1` — the built binary against the sandbox serving HTTPS with test certificates.
@Suite("courier request: TLS options")
struct TLSBinaryTests {
    static func withTLSSandbox(clientRoots: String? = nil, _ body: (String, TestCertificates, URL) async throws -> Void) async throws {
        let certificates = try await TestCertificates.shared.value
        var options = SandboxServer.Options()
        options.extraHostNames = [TestCertificates.resolvableName]
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

    @Test(
        "--cert-type P12: a PKCS#12 bundle, its passphrase from COURIER_CERT_PASSWORD or --cert-password-file; a wrong one or --key with it is bad usage"
    )
    func pkcs12() async throws {
        let certificates = try await TestCertificates.shared.value
        try await Self.withTLSSandbox(clientRoots: certificates.clientCAPEM) { base, certificates, folder in
            let ca = try TestCertificates.write(certificates.caPEM, named: "ca.pem", in: folder)
            let bundle = folder.appendingPathComponent("client.p12")
            try certificates.clientPKCS12.write(to: bundle)
            let p12 = ["request", base + "/cookies", "--cacert", ca, "--cert", bundle.path, "--cert-type", "P12"]
            var environment = ProcessInfo.processInfo.environment
            environment["COURIER_CERT_PASSWORD"] = TestCertificates.clientPKCS12Passphrase
            let fromEnvironment = try await RequestOutputTests.courier(p12, environment: environment)
            #expect(fromEnvironment.status == .exited(0), "\(fromEnvironment.errors)")
            let passwordFile = try TestCertificates.write(TestCertificates.clientPKCS12Passphrase + "\n", named: "p12.pass", in: folder)
            let fromFile = try await RequestOutputTests.courier(p12 + ["--cert-password-file", passwordFile])
            #expect(fromFile.status == .exited(0), "\(fromFile.errors)")
            let wrongFile = try TestCertificates.write("wrong\n", named: "wrong.pass", in: folder)
            let wrong = try await RequestOutputTests.courier(p12 + ["--cert-password-file", wrongFile])
            #expect(wrong.status == .exited(64), "\(wrong.errors)")
            #expect(wrong.errors.contains("PKCS#12") && !wrong.errors.contains("wrong"), "\(wrong.errors)")
            let key = try TestCertificates.write(certificates.clientKeyPEM, named: "client.key", in: folder)
            let withKey = try await RequestOutputTests.courier(p12 + ["--key", key])
            #expect(withKey.status == .exited(64), "\(withKey.errors)")
        }
    }

    @Test("--resolve HOST:PORT:ADDRESS reaches a name no resolver knows, over TLS; malformed or with urlsession it is bad usage")
    func resolveOverTLS() async throws {
        try await Self.withTLSSandbox { base, certificates, folder in
            let ca = try TestCertificates.write(certificates.caPEM, named: "ca.pem", in: folder)
            let port = try #require(URL(string: base)?.port)
            let name = TestCertificates.resolvableName
            let url = "https://\(name):\(port)/cookies"
            let unresolved = try await RequestOutputTests.courier(["request", url, "--cacert", ca])
            #expect(unresolved.status == .exited(10), "\(unresolved.errors)")
            let resolved = try await RequestOutputTests.courier(["request", url, "--cacert", ca, "--resolve", "\(name):\(port):127.0.0.1"])
            #expect(resolved.status == .exited(0), "\(resolved.errors)")
            #expect(String(decoding: resolved.output, as: UTF8.self).contains("cookies"))
            for malformed in ["\(name):\(port)", "\(name):http:127.0.0.1", "\(name):\(port):not-an-address"] {
                let refused = try await RequestOutputTests.courier(["request", url, "--cacert", ca, "--resolve", malformed])
                #expect(refused.status == .exited(64), "\(malformed): \(refused.errors)")
            }
            let urlsession = try await RequestOutputTests.courier([
                "request", url, "--resolve", "\(name):\(port):127.0.0.1", "--transport", "urlsession",
            ])
            #expect(urlsession.status == .exited(64), "refused, not ignored: \(urlsession.errors)")
        }
    }

    @Test("--resolve does not make plain http:// to a non-loopback name secure: --allow-insecure judges the name, not the address")
    func resolvePlainHTTP() async throws {
        var options = SandboxServer.Options()
        options.extraHostNames = [TestCertificates.resolvableName]
        try await SandboxServer.withRunning(options: options) { sandbox in
            let name = TestCertificates.resolvableName
            let url = "http://\(name):\(sandbox.port)/cookies"
            let resolve = ["--resolve", "\(name):\(sandbox.port):127.0.0.1"]
            let refused = try await RequestOutputTests.courier(["request", url] + resolve)
            #expect(refused.status == .exited(15), "\(refused.errors)")
            let allowed = try await RequestOutputTests.courier(["request", url, "--allow-insecure"] + resolve)
            #expect(allowed.status == .exited(0), "\(allowed.errors)")
        }
    }

    @Test("--http2 (the default over https) and --http1.1: the protocol the server saw; both together is bad usage")
    func httpVersions() async throws {
        try await Self.withTLSSandbox { base, certificates, folder in
            let ca = try TestCertificates.write(certificates.caPEM, named: "ca.pem", in: folder)
            struct Seen: Decodable { var httpVersion: String? }
            for (flags, expected) in [([], "HTTP/2"), (["--http2"], "HTTP/2"), (["--http1.1"], "HTTP/1.1")] {
                let run = try await RequestOutputTests.courier(["request", base + "/echo", "--cacert", ca] + flags)
                #expect(run.status == .exited(0), "\(flags): \(run.errors)")
                #expect(try JSONDecoder().decode(Seen.self, from: run.output).httpVersion == expected, "\(flags)")
            }
            let both = try await RequestOutputTests.courier(["request", base + "/echo", "--cacert", ca, "--http1.1", "--http2"])
            #expect(both.status == .exited(64), "\(both.errors)")
        }
    }
}
