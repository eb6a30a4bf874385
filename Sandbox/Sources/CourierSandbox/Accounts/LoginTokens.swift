import Crypto
import Foundation

/// Login tokens (access and refresh): 32 bytes from the system's secure random source, sent as
/// base64url; the database keeps only their SHA-256, so a copy of the file cannot be replayed as a login.
enum LoginTokens {
    /// A new token (43 characters of base64url, 256 bits).
    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// What is stored for `token`.
    static func storedHash(of token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// The token from an `Authorization: Bearer …` value, or nil when the value has another
    /// scheme or a token that cannot be one of ours (wrong length or characters).
    static func bearer(_ authorization: String) -> String? {
        let parts = authorization.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        return isWellFormed(token) ? token : nil
    }

    /// Whether `token` could be one of ours: 43 characters of base64url.
    static func isWellFormed(_ token: String) -> Bool {
        token.count == 43 && token.allSatisfy { alphabet.contains($0) }
    }

    private static let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
}
