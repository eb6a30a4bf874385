/// A transport stopped reading a response body that grew past `CallContext.maxResponseBytes`.
///
/// Courier maps it to `NetworkError.responseTooLarge(limit:)`; it lives here so a transport can
/// throw it without depending on Courier.
public struct ResponseTooLargeError: Error, Sendable, Equatable {
    /// The limit the body passed, in bytes.
    public let limit: Int

    /// An error for a body over `limit` bytes.
    public init(limit: Int) {
        self.limit = limit
    }
}
