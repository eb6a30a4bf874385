package import Foundation

#if canImport(CryptoKit)
import CryptoKit
#else
import Crypto
#endif

/// An incremental SHA-256 (swift-crypto off Apple platforms, CryptoKit on them), hex out.
package struct SHA256Hasher {
    private var hash = SHA256()

    package init() {}

    package mutating func update(_ bytes: some DataProtocol) {
        hash.update(data: bytes)
    }

    /// The digest as 64 lowercase hex digits.
    package func finalize() -> String {
        Data(hash.finalize()).hexString
    }
}
