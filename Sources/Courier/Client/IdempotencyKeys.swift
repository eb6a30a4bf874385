import Foundation
public import HTTPTypes

extension NetworkClient {
    /// Idempotency keys minted by the client (the IETF draft "The Idempotency-Key HTTP Header
    /// Field"): one fresh key per call that wants one, the same on every attempt and redirect hop
    /// of the call, so that ``RetryMiddleware`` may retry the write and the server does it once.
    ///
    /// A call wants a key when its endpoint sets `CallTraits.wantsIdempotencyKey` — or every call
    /// of ``methods`` when ``forEveryCall`` is set — and its method is one of ``methods``. A key
    /// the request already carries (an endpoint's header) is sent as given.
    ///
    /// ```swift
    /// enum Orders: Endpoint {
    ///     case create(NewOrder)
    ///     var traits: CallTraits { CallTraits(wantsIdempotencyKey: true) }   // retried safely
    ///     …
    /// }
    /// ```
    public struct IdempotencyKeys: Sendable {
        /// How a key is written.
        public enum Format: Sendable, Equatable {
            /// The draft's Structured Field string: a fresh UUID between quotes,
            /// `"8e03978e-40d5-43e8-bc93-6894a57f9324"`.
            case structuredString
            /// A bare token, for APIs that want one (Stripe): the UUID without quotes.
            case token
        }

        /// The methods that get a key (POST and PATCH by default: the others are idempotent).
        public var methods: Set<HTTPRequest.Method>
        /// How keys are written; ``Format/structuredString`` by default.
        public var format: Format
        /// The header field; `Idempotency-Key` by default (``RetryPolicy/idempotencyKeyHeader``
        /// must name the same field for the retries to see it).
        public var header: HTTPField.Name
        /// Whether every call of ``methods`` gets a key, not only those whose endpoint asks.
        public var forEveryCall: Bool

        /// Keys for POST and PATCH calls that ask, as quoted strings in `Idempotency-Key`.
        public init(
            methods: Set<HTTPRequest.Method> = [.post, .patch], format: Format = .structuredString,
            header: HTTPField.Name = RetryMiddleware.idempotencyKey, forEveryCall: Bool = false
        ) {
            self.methods = methods
            self.format = format
            self.header = header
            self.forEveryCall = forEveryCall
        }

        /// A fresh key in ``format``: 122 random bits (a version 4 UUID), 36 characters.
        public func mint() -> String {
            let uuid = UUID().uuidString.lowercased()
            return format == .structuredString ? "\"\(uuid)\"" : uuid
        }

        /// Puts a fresh key on `request` when the call wants one and carries none.
        func stamp(_ request: inout HTTPRequest, traits: CallTraits) {
            guard traits.wantsIdempotencyKey || forEveryCall, methods.contains(request.method),
                request.headerFields[header] == nil
            else { return }
            request.headerFields[header] = mint()
        }
    }
}
