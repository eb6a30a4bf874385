public import HTTPTypes

/// What an endpoint declares about one call, for middlewares to read instead of guessing from
/// the URL — the shape of Moya's `AccessTokenAuthorizable` read by its `AccessTokenPlugin`.
///
/// ```swift
/// enum UserAPI: Endpoint {
///     case login(LoginRequest), getUser(id: Int)
///     var traits: CallTraits {
///         switch self {
///         case .login: CallTraits(authorization: .none)   // never send the token here
///         case .getUser: CallTraits(authorization: .bearer)
///         }
///     }
/// }
/// ```
///
/// Middlewares read them from ``CallContext/current``; requests that do not come from a
/// `NetworkClient` carry none and get the defaults.
public struct CallTraits: Sendable, Equatable {
    /// Whether a credential-attaching middleware (`BearerTokenMiddleware`) adds one.
    public enum Authorization: Sendable, Equatable {
        /// The middleware decides by origin (its own setting): the default.
        case automatic
        /// The call needs the bearer token.
        case bearer
        /// The call must go without credentials (login, refresh, public data).
        case none
    }

    /// Whether a credential-attaching middleware adds one; ``Authorization/automatic`` by default.
    public var authorization: Authorization
    /// Whether sending the call twice has the same effect as once, so a retry is safe. nil (the
    /// default) decides by method: GET, HEAD, OPTIONS, TRACE, PUT and DELETE are idempotent.
    public var idempotent: Bool?
    /// Whether identical concurrent calls may share one upstream request (`DeduplicationMiddleware`).
    public var deduplicable: Bool
    /// How a `CacheMiddleware` treats the call: ``CachePolicy/standard`` by default.
    public var cachePolicy: CachePolicy
    /// Whether the call gets an idempotency key minted for it when its method is one the client's
    /// `NetworkClient.IdempotencyKeys` names (POST and PATCH by default): one key per call, the
    /// same on every attempt and redirect hop, so a retried write is done once. False by default.
    public var wantsIdempotencyKey: Bool
    /// Whether a `HedgingMiddleware` may send a second copy of a slow exchange: nil (the default)
    /// lets its policy decide, true asks for it (still only for a call safe to send twice), false
    /// never hedges the call.
    public var hedged: Bool?

    /// Traits with the defaults: automatic authorization, idempotency by method, de-duplicable,
    /// the standard cache policy, no idempotency key.
    public init(
        authorization: Authorization = .automatic, idempotent: Bool? = nil, deduplicable: Bool = true,
        cachePolicy: CachePolicy = .standard, wantsIdempotencyKey: Bool = false,
        hedged: Bool? = nil
    ) {
        self.hedged = hedged
        self.authorization = authorization
        self.idempotent = idempotent
        self.deduplicable = deduplicable
        self.cachePolicy = cachePolicy
        self.wantsIdempotencyKey = wantsIdempotencyKey
    }

    /// Whether a call with `method` may be sent again: ``idempotent`` when set, else by method.
    public func isIdempotent(_ method: HTTPRequest.Method) -> Bool {
        idempotent ?? Self.idempotentMethods.contains(method)
    }

    /// RFC 9110 §9.2.2's idempotent methods.
    public static let idempotentMethods: Set<HTTPRequest.Method> = [.get, .head, .options, .trace, .put, .delete]
}
