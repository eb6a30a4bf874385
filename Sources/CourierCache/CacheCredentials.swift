import Courier
import CourierTransportCore
import Foundation
import HTTPTypes

#if canImport(CryptoKit)
import CryptoKit
#else
import Crypto
#endif

/// Keeps the stored answers of callers with different credentials apart without writing a
/// credential anywhere: a request with `Authorization`, `Cookie` or `Proxy-Authorization` is
/// stored under its URL plus an HMAC-SHA256 of those values, keyed by a random secret of the
/// store (``CacheStorage/credentialKey``) — never the raw value, and not a plain hash a guess
/// could be checked against.
enum CacheCredentials {
    /// The request fields that carry credentials.
    static let fields: [HTTPField.Name] = [.authorization, .cookie, .proxyAuthorization]
    /// Their lowercased names (how `Vary` lists name them).
    static let names: Set<String> = Set(fields.map(\.canonicalName))

    /// What a credential field's value is stored as in a variant's `Vary` values: only whether it
    /// was there. The primary key already holds the HMAC of the values, so equal keys mean equal
    /// credentials.
    static let presentMarker = "<credential>"

    /// `#credentials=HEX` for a request with credentials, "" for one without.
    static func keySuffix(_ request: HTTPFields, key: Data) -> String {
        var material = Data()
        for name in fields {
            let values = request[values: name]
            guard !values.isEmpty else { continue }
            material.append(contentsOf: name.canonicalName.utf8)
            material.append(0)
            material.append(contentsOf: values.joined(separator: "\n").utf8)
            material.append(0)
        }
        guard !material.isEmpty else { return "" }
        let code = HMAC<SHA256>.authenticationCode(for: material, using: SymmetricKey(data: key))
        return "#credentials=" + Data(code).hexString
    }

    /// A fresh random key.
    static func randomKey() -> Data {
        Data(SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) })
    }

    /// The key of stores that keep none of their own: made once per process.
    static let processKey = randomKey()
}
