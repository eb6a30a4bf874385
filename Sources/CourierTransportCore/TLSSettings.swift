public import Foundation

/// TLS beyond the platform's defaults, one value for a transport: which roots to trust, keys to
/// pin, a client certificate to present, the lowest version to speak.
///
/// ```swift
/// var tls = TLSSettings()
/// tls.roots = .systemAnd(pem: corporateRootPEM)
/// tls.pins = ["sha256//YLh1dUR9y6Kja30RrAn7JKnbQG/uEtLMkBgFF2Fuihg="]   // curl's --pinnedpubkey form
/// tls.minimumVersion = .tls13
/// var settings = HTTPClientTransport.Settings()
/// settings.tls = tls
/// ```
///
/// On the AsyncHTTPClient transport every setting applies to every call (streams included). The
/// URLSession transport on Linux has no trust, client-certificate or version setting: there,
/// anything but the defaults fails closed when the transport is made.
public struct TLSSettings: Sendable, Equatable {
    /// The certificate authorities a server's chain must lead to.
    public enum Roots: Sendable, Equatable {
        /// The system's.
        case system
        /// The system's and these (PEM, one or more certificates).
        case systemAnd(pem: String)
        /// Only these (PEM).
        case only(pem: String)
    }

    /// A client certificate and its key, presented when the server asks (mutual TLS).
    public struct ClientCertificate: Sendable, Equatable {
        /// The certificate chain, PEM (leaf first).
        public var certificateChainPEM: String
        /// The private key, PEM (unencrypted).
        public var privateKeyPEM: String

        /// A client certificate.
        public init(certificateChainPEM: String, privateKeyPEM: String) {
            self.certificateChainPEM = certificateChainPEM
            self.privateKeyPEM = privateKeyPEM
        }
    }

    /// The lowest TLS version accepted.
    public enum Version: Sendable, Equatable {
        case tls12
        case tls13
    }

    /// Whose certificates are trusted (``Roots/system`` by default).
    public var roots: Roots
    /// The server's public key must be one of these (as curl's `--pinnedpubkey`: `sha256//` and
    /// the base64 SHA-256 of the leaf certificate's SubjectPublicKeyInfo; several for a rotation).
    /// Checked after the chain is trusted, before any request is written. Empty: no pinning.
    public var pins: [String]
    /// Presented when the server asks for one.
    public var clientCertificate: ClientCertificate?
    /// The lowest version spoken (nil: the TLS library's, TLS 1.2 or later).
    public var minimumVersion: Version?

    /// The platform's defaults: system roots, no pins, no client certificate.
    public init(roots: Roots = .system, pins: [String] = [], clientCertificate: ClientCertificate? = nil, minimumVersion: Version? = nil) {
        self.roots = roots
        self.pins = pins
        self.clientCertificate = clientCertificate
        self.minimumVersion = minimumVersion
    }

    /// Whether these are the platform's defaults.
    public var isDefault: Bool { self == TLSSettings() }

    /// The SHA-256 digests ``pins`` name; throws for one not in the `sha256//BASE64` form.
    public func pinnedDigests() throws(TLSSettingsError) -> Set<Data> {
        var digests: Set<Data> = []
        for pin in pins {
            for part in pin.split(separator: ";") {
                let text = part.trimmingCharacters(in: .whitespaces)
                guard text.hasPrefix("sha256//"), let digest = Data(base64Encoded: String(text.dropFirst(8))), digest.count == 32 else {
                    throw .invalidPin(text)
                }
                digests.insert(digest)
            }
        }
        return digests
    }
}

/// TLS settings that cannot be used.
public enum TLSSettingsError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A pin not of the form `sha256//` + base64 of 32 bytes.
    case invalidPin(String)
    /// A certificate or key that is not valid PEM.
    case invalidPEM(String)
    /// The transport cannot honour these settings on this platform (the URLSession transport on Linux).
    case unsupported(String)

    public var description: String {
        switch self {
        case .invalidPin(let pin): "'\(pin)' is not a pin of the form sha256//BASE64 (the SHA-256 of a public key)"
        case .invalidPEM(let what): "\(what) is not valid PEM"
        case .unsupported(let reason): reason
        }
    }
}
