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

    /// A client certificate and its key, presented when the server asks (mutual TLS): PEM, or a
    /// PKCS#12 bundle (`.p12`/`.pfx`, read by swift-nio-ssl's BoringSSL). Its descriptions and
    /// mirror never show the key or the passphrase.
    public struct ClientCertificate: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
        /// Where the certificate and its key come from.
        public enum Material: Sendable, Equatable {
            /// The certificate chain (leaf first) and the unencrypted private key, PEM.
            case pem(certificateChain: String, privateKey: String)
            /// A PKCS#12 bundle holding the chain and the key, and its passphrase.
            case pkcs12(Data, passphrase: String)
        }

        /// The certificate and its key.
        public var material: Material

        /// A client certificate from PEM: the chain (leaf first) and the unencrypted key.
        public init(certificateChainPEM: String, privateKeyPEM: String) {
            material = .pem(certificateChain: certificateChainPEM, privateKey: privateKeyPEM)
        }

        /// A client certificate from a PKCS#12 bundle and its passphrase (empty for none).
        public init(pkcs12: Data, passphrase: String = "") {
            material = .pkcs12(pkcs12, passphrase: passphrase)
        }

        /// `client certificate (PEM)` or `client certificate (PKCS#12, 2345 bytes)`: never the key.
        public var description: String {
            switch material {
            case .pem: "client certificate (PEM)"
            case .pkcs12(let bundle, _): "client certificate (PKCS#12, \(bundle.count) bytes)"
            }
        }

        /// The same as ``description``.
        public var debugDescription: String { description }

        /// No children: `dump` shows the description only.
        public var customMirror: Mirror { Mirror(self, children: [:], displayStyle: .struct) }
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
    /// A PKCS#12 bundle that cannot be read: not PKCS#12, or the wrong passphrase.
    case invalidPKCS12
    /// The transport cannot honour these settings on this platform (the URLSession transport on Linux).
    case unsupported(String)

    public var description: String {
        switch self {
        case .invalidPin(let pin): "'\(pin)' is not a pin of the form sha256//BASE64 (the SHA-256 of a public key)"
        case .invalidPEM(let what): "\(what) is not valid PEM"
        case .invalidPKCS12: "the client certificate is not a PKCS#12 bundle this passphrase opens"
        case .unsupported(let reason): reason
        }
    }
}
