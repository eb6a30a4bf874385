package import CourierTransportCore
public import Foundation
public import Logging
public import OpenAPIRuntime

#if COURIER_ASYNC_HTTP_CLIENT
import CourierAsyncHTTPClient
#endif

extension NetworkClient {
    /// Everything a ``NetworkClient`` can be told; every field has a sensible default.
    public struct Configuration: Sendable {
        /// The server every call goes to, replacing the scheme, host, port and base path of each
        /// endpoint's ``Endpoint/baseURL`` (nil, the default: each endpoint's own). One endpoint
        /// `enum` then serves production, a mirror and the sandbox:
        ///
        /// ```swift
        /// let sandbox = NetworkClient(configuration: .init(baseURL: URL(string: "http://127.0.0.1:8080/hn/v0")!))
        /// let item: Item = try await sandbox.request(HackerNewsAPI.item(id: 8863))
        /// // GET http://127.0.0.1:8080/hn/v0/item/8863.json instead of https://hacker-news.firebaseio.com/v0/…
        /// ```
        public var baseURL: URL?
        /// What sends the requests. Defaults to `HTTPClientTransport.shared` on Linux and
        /// ``URLSessionClientTransport/shared`` on Apple platforms.
        public var transport: any ClientTransport
        /// Middlewares, outermost first (auth, retry, cache, logging …).
        public var middlewares: [any ClientMiddleware]
        /// Decodes JSON bodies.
        public var decoder: JSONDecoder
        /// Encodes ``HTTPTask/requestJSONEncodable(_:)`` bodies.
        public var encoder: JSONEncoder
        /// A response body over this many bytes is ``NetworkError/responseTooLarge(limit:)``
        /// (``limits``' `maxResponseBytes`).
        public var maxResponseBytes: Int {
            get { limits.maxResponseBytes }
            set { limits.maxResponseBytes = newValue }
        }
        /// Every limit a call is held to: body size, header count and size, redirects.
        public var limits: CallLimits
        /// Whether and how redirects are followed (by the client, one hop at a time).
        public var redirects: RedirectPolicy
        /// The deadline for a call when its endpoint sets none.
        public var timeout: Duration
        /// Hosts that may be reached over plain `http://`. Loopback is allowed by default for
        /// development; everything else must use `https://`.
        public var insecureHostsAllowed: Set<String>
        /// Where the client logs (nothing by default beyond what middlewares do).
        public var logger: Logger
        /// Who sees every call's events (``CallObserver``; none by default). Each runs off the
        /// calls' path: an observer that is slow or stuck never stalls a call.
        public var observers: [any CallObserver] = []
        /// Which calls get an idempotency key minted, in what format and header (POST and PATCH
        /// whose endpoint sets `CallTraits.wantsIdempotencyKey`, by default).
        public var idempotencyKeys = IdempotencyKeys()
        /// What traces each call on its path (CourierObservability's `tracing`; nil, the default:
        /// nothing traced, nothing sent).
        package var callTracing: (any CallTracing)?

        /// Creates a configuration.
        public init(
            baseURL: URL? = nil,
            transport: any ClientTransport = NetworkClient.defaultTransport,
            middlewares: [any ClientMiddleware] = [],
            decoder: JSONDecoder = JSONDecoder(),
            encoder: JSONEncoder = JSONEncoder(),
            maxResponseBytes: Int = CallLimits.defaultMaxResponseBytes,
            timeout: Duration = CallLimits.defaultTimeout,
            insecureHostsAllowed: Set<String> = NetworkClient.loopbackHosts,
            logger: Logger = Logger(label: "courier"),
            limits: CallLimits = CallLimits(),
            redirects: RedirectPolicy = RedirectPolicy()
        ) {
            self.limits = limits
            self.redirects = redirects
            self.baseURL = baseURL
            self.transport = transport
            self.middlewares = middlewares
            self.decoder = decoder
            self.encoder = encoder
            if maxResponseBytes != CallLimits.defaultMaxResponseBytes { self.limits.maxResponseBytes = maxResponseBytes }
            self.timeout = timeout
            self.insecureHostsAllowed = insecureHostsAllowed
            self.logger = logger
        }
    }

    /// `localhost`, `127.0.0.1` and `::1`.
    public static let loopbackHosts: Set<String> = ["localhost", "127.0.0.1", "::1", "[::1]"]

    /// The platform's default transport: AsyncHTTPClient on Linux (3.5× faster than URLSession
    /// there under concurrency), URLSession on Apple platforms.
    public static var defaultTransport: any ClientTransport {
        #if COURIER_ASYNC_HTTP_CLIENT
        HTTPClientTransport.shared
        #else
        URLSessionClientTransport.shared
        #endif
    }
}
