package import CourierTransportCore
import Crypto
package import Foundation
package import NIOCore
package import NIOSSL

/// ``TLSSettings`` in swift-nio-ssl's terms, for every SwiftNIO client Courier runs
/// (AsyncHTTPClient's transport, swift-websocket's client): the client configuration for roots, a
/// client certificate and the minimum version, and a pin check for a channel whose handshake is
/// done — AsyncHTTPClient runs it in its connection initializers, after the handshake (the chain
/// already trusted) and before any request is written, as curl checks `--pinnedpubkey`; failing
/// there fails the connection.
package enum TLSSetup {
    /// swift-nio-ssl's client configuration for `settings`.
    package static func configuration(_ settings: TLSSettings) throws(TLSSettingsError) -> TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        switch settings.roots {
        case .system: break
        case .systemAnd(let pem): configuration.additionalTrustRoots = [.certificates(try certificates(pem, "the trust roots"))]
        case .only(let pem): configuration.trustRoots = .certificates(try certificates(pem, "the trust roots"))
        }
        switch settings.clientCertificate?.material {
        case .pem(let chain, let key):
            configuration.certificateChain = try certificates(chain, "the client certificate").map { .certificate($0) }
            do {
                configuration.privateKey = .privateKey(try NIOSSLPrivateKey(bytes: Array(key.utf8), format: .pem))
            } catch {
                throw .invalidPEM("the client certificate's key")
            }
        case .pkcs12(let bundle, let passphrase):
            guard let opened = try? NIOSSLPKCS12Bundle(buffer: Array(bundle), passphrase: Array(passphrase.utf8)) else { throw .invalidPKCS12 }
            configuration.certificateChain = opened.certificateChain.map { .certificate($0) }
            configuration.privateKey = .privateKey(opened.privateKey)
        case nil: break
        }
        switch settings.minimumVersion {
        case .tls13: configuration.minimumTLSVersion = .tlsv13
        case .tls12: configuration.minimumTLSVersion = .tlsv12
        case nil: break
        }
        return configuration
    }

    /// A configuration that trusts nothing: what invalid settings become (fail closed).
    package static var trustingNothing: TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.trustRoots = .certificates([])
        return configuration
    }

    private static func certificates(_ pem: String, _ what: String) throws(TLSSettingsError) -> [NIOSSLCertificate] {
        guard let parsed = try? NIOSSLCertificate.fromPEMBytes(Array(pem.utf8)), !parsed.isEmpty else { throw .invalidPEM(what) }
        return parsed
    }

    /// The connection initializer that checks the peer's key against `digests` (SHA-256 of the
    /// leaf's SubjectPublicKeyInfo); a connection without TLS has nothing to check.
    package static func pinCheck(_ digests: Set<Data>) -> @Sendable (any Channel) -> EventLoopFuture<Void> {
        { channel in
            channel.pipeline.handler(type: NIOSSLHandler.self).map { Optional($0) }.recover { _ in nil }.flatMapThrowing { handler in
                guard let handler else { return }
                guard let certificate = handler.peerCertificate,
                    let key = try? certificate.extractPublicKey().toSPKIBytes(),
                    digests.contains(Data(SHA256.hash(data: key)))
                else { throw CertificatePinMismatch() }
            }
        }
    }
}

/// The server's key is none of the pinned ones.
package struct CertificatePinMismatch: Error, CustomStringConvertible {
    package var description: String { "the server's public key matches none of the pinned keys" }
}
