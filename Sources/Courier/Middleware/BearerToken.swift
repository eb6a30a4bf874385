public import Foundation

extension BearerTokenMiddleware {
    /// An access token sent as `Authorization: Bearer …`, with its expiry when known. Its
    /// `description` and mirror never show the value (`print`, interpolation and `dump` are safe).
    public struct Token: Sendable, Equatable, CustomStringConvertible, CustomReflectable {
        /// The token itself.
        public var value: String
        /// When it stops working; nil when unknown.
        public var expiresAt: Date?

        /// Creates a token.
        public init(_ value: String, expiresAt: Date? = nil) {
            self.value = value
            self.expiresAt = expiresAt
        }

        /// Whether it expires within `margin` from now.
        public func expires(within margin: Duration) -> Bool {
            guard let expiresAt else { return false }
            return expiresAt.timeIntervalSinceNow <= Double(margin.components.seconds)
        }

        public var description: String {
            "BearerTokenMiddleware.Token(<redacted>, expiresAt: \(expiresAt.map { "\($0)" } ?? "nil"))"
        }

        public var customMirror: Mirror { Mirror(self, children: ["value": Redactor.mask, "expiresAt": expiresAt as Any]) }
    }
}
