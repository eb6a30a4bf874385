import Foundation

/// Certificates the tests make with `openssl` (once per process, in a temporary directory): a
/// test CA, a server certificate for 127.0.0.1, localhost and `api.courier.test` signed by it, a second CA nobody
/// trusts, a client CA and a client certificate — PEM text, and the server key's SPKI pin.
public struct TestCertificates: Sendable {
    public var caPEM: String
    public var serverChainPEM: String
    public var serverKeyPEM: String
    /// `sha256//BASE64` of the server key's SubjectPublicKeyInfo.
    public var serverPin: String
    public var otherCAPEM: String
    public var clientCAPEM: String
    public var clientCertificatePEM: String
    public var clientKeyPEM: String
    /// The same client certificate and key as a PKCS#12 bundle (OpenSSL 3's default encryption),
    /// opened by ``clientPKCS12Passphrase``.
    public var clientPKCS12: Data
    public static let clientPKCS12Passphrase = "courier p12 passphrase"
    /// A client certificate from the CA nobody trusts.
    public var rogueCertificatePEM: String
    public var rogueKeyPEM: String

    public static let shared = Task { try await make() }
    /// A name on the server certificate that no resolver knows (`.test` is reserved): reachable
    /// only through `--resolve` / `HTTPClientTransport.Settings.resolve`.
    public static let resolvableName = "api.courier.test"

    private static func make() async throws -> TestCertificates {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-certs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        let extensions = path("server.ext")
        try "subjectAltName=IP:127.0.0.1,DNS:localhost,DNS:\(resolvableName)\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n".write(
            toFile: extensions, atomically: true, encoding: .utf8)
        let clientExtensions = path("client.ext")
        try "basicConstraints=CA:FALSE\nextendedKeyUsage=clientAuth\n".write(toFile: clientExtensions, atomically: true, encoding: .utf8)
        let steps: [[String]] = [
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", path("ca.key"), "-out", path("ca.pem"),
                "-days", "2", "-subj", "/CN=Courier Test CA",
            ],
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", path("other.key"), "-out",
                path("other.pem"),
                "-days", "2", "-subj", "/CN=Nobody's CA",
            ],
            [
                "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", path("server.key"), "-out", path("server.csr"),
                "-subj", "/CN=127.0.0.1",
            ],
            [
                "x509", "-req", "-in", path("server.csr"), "-CA", path("ca.pem"), "-CAkey", path("ca.key"), "-CAcreateserial", "-out",
                path("server.pem"),
                "-days", "2", "-extfile", extensions,
            ],
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", path("clientca.key"), "-out",
                path("clientca.pem"), "-days", "2", "-subj", "/CN=Courier Test Client CA",
            ],
            [
                "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", path("client.key"), "-out", path("client.csr"),
                "-subj", "/CN=courier-client",
            ],
            [
                "x509", "-req", "-in", path("client.csr"), "-CA", path("clientca.pem"), "-CAkey", path("clientca.key"), "-CAcreateserial", "-out",
                path("client.pem"), "-days", "2", "-extfile", clientExtensions,
            ],
            [
                "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", path("rogue.key"), "-out", path("rogue.csr"),
                "-subj", "/CN=rogue-client",
            ],
            [
                "x509", "-req", "-in", path("rogue.csr"), "-CA", path("other.pem"), "-CAkey", path("other.key"), "-CAcreateserial", "-out",
                path("rogue.pem"), "-days", "2", "-extfile", clientExtensions,
            ],
            [
                "pkcs12", "-export", "-in", path("client.pem"), "-inkey", path("client.key"), "-out", path("client.p12"),
                "-passout", "pass:\(clientPKCS12Passphrase)",
            ],
            ["pkey", "-in", path("server.key"), "-pubout", "-outform", "DER", "-out", path("server.spki")],
            ["dgst", "-sha256", "-binary", "-out", path("server.pin"), path("server.spki")],
        ]
        for arguments in steps {
            let run = try await runProcess(URL(fileURLWithPath: "/usr/bin/openssl"), arguments, scratch: folder)
            guard run.status == 0 else { throw CertificateError(step: arguments.prefix(2).joined(separator: " "), output: run.errors) }
        }
        func text(_ name: String) throws -> String { try String(contentsOfFile: path(name), encoding: .utf8) }
        let digest = try Data(contentsOf: URL(fileURLWithPath: path("server.pin")))
        return TestCertificates(
            caPEM: try text("ca.pem"), serverChainPEM: try text("server.pem"), serverKeyPEM: try text("server.key"),
            serverPin: "sha256//" + digest.base64EncodedString(), otherCAPEM: try text("other.pem"),
            clientCAPEM: try text("clientca.pem"), clientCertificatePEM: try text("client.pem"), clientKeyPEM: try text("client.key"),
            clientPKCS12: try Data(contentsOf: URL(fileURLWithPath: path("client.p12"))),
            rogueCertificatePEM: try text("rogue.pem"), rogueKeyPEM: try text("rogue.key"))
    }

    struct CertificateError: Error, CustomStringConvertible {
        let step: String
        let output: String
        var description: String { "openssl \(step) failed: \(output)" }
    }

    /// `text` written to a new 0600 file in `folder` named `name`; its path.
    public static func write(_ text: String, named name: String, in folder: URL) throws -> String {
        let url = folder.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
        return url.path
    }
}
