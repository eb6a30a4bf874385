/// Every limit a call is held to, in one place: what `NetworkClient` enforces on every call
/// shape (buffered, through middlewares, streamed) and every transport, whatever the transport
/// enforces on its own.
///
/// ```swift
/// var configuration = NetworkClient.Configuration()
/// configuration.limits.maxResponseBytes = 64 * 1024 * 1024   // a larger answer is allowed
/// configuration.limits.maxRedirects = 3
/// ```
///
/// | Limit | Default | Past it |
/// |---|---|---|
/// | ``maxResponseBytes`` | 16 MiB | `responseTooLarge(limit:)` — a declared `Content-Length` over it before a byte is read; otherwise as soon as the count passes it |
/// | ``maxDecompressionRatio`` | 100 | `networkError(.cannotDecodeContentData)` (AsyncHTTPClient; on Linux URLSession inflates inside libcurl, so there only ``maxResponseBytes`` bounds it) |
/// | ``maxHeaderFields`` | 256 | `networkError(.cannotParseResponse)` |
/// | ``maxHeaderBytes`` | 128 KiB | `networkError(.cannotParseResponse)` |
/// | ``maxRedirects`` | 10 | `networkError(.httpTooManyRedirects)` |
///
/// The whole-call deadline (body included) is the endpoint's `timeout` or the client's; the idle
/// timeout of streams is the stream's option. Both end a call with `networkError(.timedOut)`.
public struct CallLimits: Sendable, Equatable {
    /// The largest response body accepted, in bytes (after decompression).
    public var maxResponseBytes: Int
    /// How many times its compressed size a gzip/deflate body may expand.
    public var maxDecompressionRatio: Int
    /// The most header fields an answer may have.
    public var maxHeaderFields: Int
    /// The most bytes an answer's header fields may take, names and values together.
    public var maxHeaderBytes: Int
    /// The most redirects one call follows.
    public var maxRedirects: Int

    /// Limits with the defaults in the table above.
    public init(
        maxResponseBytes: Int = CallLimits.defaultMaxResponseBytes,
        maxDecompressionRatio: Int = CallLimits.defaultMaxDecompressionRatio,
        maxHeaderFields: Int = 256,
        maxHeaderBytes: Int = 128 * 1024,
        maxRedirects: Int = 10
    ) {
        self.maxResponseBytes = maxResponseBytes
        self.maxDecompressionRatio = maxDecompressionRatio
        self.maxHeaderFields = maxHeaderFields
        self.maxHeaderBytes = maxHeaderBytes
        self.maxRedirects = maxRedirects
    }

    /// 16 MiB: the default ``maxResponseBytes``.
    public static let defaultMaxResponseBytes = 16 * 1024 * 1024
    /// 100: the default ``maxDecompressionRatio`` (a transport that decompresses uses it).
    public static let defaultMaxDecompressionRatio = 100
    /// 30 s: a call's deadline when its endpoint sets none (the client's `timeout`), and a
    /// transport's when it is sent to without a call's context.
    public static let defaultTimeout: Duration = .seconds(30)
}
