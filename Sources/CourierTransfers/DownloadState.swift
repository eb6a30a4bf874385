import Courier
import CourierTransportCore
import Foundation

#if canImport(CryptoKit)
import CryptoKit
#else
import Crypto
#endif

/// What a partial download needs to be resumed, kept beside it (`FILE.courier-resume`, 0600) and
/// written before the first body byte: the strong validator, the expected length, and a keyed
/// fingerprint of the URL — never the URL itself, which may carry a key. The fingerprint is an
/// HMAC-SHA256 of the URL under a random key stored in the same file: the URL cannot be read back
/// from it, and a partial is only ever resumed from the URL it came from.
struct DownloadState: Codable, Equatable {
    /// The file's format; another value is not read.
    var format = 1
    /// The HMAC key, hex.
    var key: String
    /// HMAC-SHA256(key, URL), hex.
    var fingerprint: String
    /// A strong ETag, when the server sent one.
    var etag: String?
    /// `Last-Modified`, when the server sent it and it is a strong validator (RFC 9110 §8.8.2.2:
    /// the answer's `Date` at least a second later — else the file may change again within the
    /// same second, unseen); used when there is no ETag.
    var lastModified: String?
    /// The whole file's length, when the server declared it.
    var length: Int64?

    /// A state for `url` with a fresh key.
    init(url: String, etag: String?, lastModified: String?, length: Int64?) {
        let key = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
        self.key = key.hexString
        self.fingerprint = Self.fingerprint(url, key: key)
        self.etag = etag
        self.lastModified = lastModified
        self.length = length
    }

    /// Whether this state was written for `url`.
    func isFor(_ url: String) -> Bool {
        guard let key = Data(hex: key), key.count == 32 else { return false }
        return Self.fingerprint(url, key: key) == fingerprint
    }

    /// The `If-Range` value: the strong ETag, else the date; nil when the partial cannot be
    /// resumed (no validator, or only a weak ETag — RFC 9110 §13.1.5 forbids it in If-Range).
    var ifRange: String? {
        if let etag, !etag.hasPrefix("W/") { return etag }
        return etag == nil ? lastModified : nil
    }

    private static func fingerprint(_ url: String, key: Data) -> String {
        Data(HMAC<SHA256>.authenticationCode(for: Data(url.utf8), using: SymmetricKey(data: key))).hexString
    }
}
