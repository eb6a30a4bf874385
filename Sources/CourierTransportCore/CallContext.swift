public import Foundation

/// Per-call facts that travel with a call through middlewares to the transport.
///
/// `NetworkClient` makes one per call and passes it as an argument through its pipeline, to
/// Courier's own middlewares and transports. A middleware or transport of your own reads it as
/// ``current`` — the one bridge, set only around calls whose chain holds one. A call that does
/// not come from a `NetworkClient` (an OpenAPI-generated client, say) has none, and middlewares
/// fall back to what the request itself says (method, headers). Only the client makes a
/// context: code outside the package cannot forge one (raise a call's body limit, drop its
/// secrets) for the middlewares and transports of another call.
public struct CallContext: Sendable {
    /// When the whole call must be done (transports that support deadlines honour it).
    public var deadline: ContinuousClock.Instant?
    /// Values that must never be logged (from `Endpoint.secrets`).
    public var secrets: [String]
    /// The largest response body the client accepts; transports that can stop early do.
    public var maxResponseBytes: Int?
    /// What the endpoint declares about itself: authorization, idempotency (`Endpoint.traits`).
    public var traits: CallTraits
    /// The body is read as it arrives (server-sent events): a transport should hand it back as
    /// a stream instead of buffering it, and ``deadline`` bounds only the wait for the head.
    public var streamsResponse: Bool
    /// For a streamed body: no bytes for this long fails it with `URLError(.timedOut)`. Honoured by
    /// a transport whose ``TransportCapabilities`` say so; for others the client watches the body itself.
    public var idleTimeout: Duration?
    /// Where the call was sent first (its base URL, before any redirect): a middleware that
    /// attaches credentials sends them there and to origins it was told about, never to a
    /// redirect's other origin.
    public var origin: URL?
    /// Where the call's steps go (its timeline, the client's observers); nil when nobody listens.
    package var recorder: CallRecorder?
    /// The recorded exchange a transport is sending (its number in the call's timeline), 0 when
    /// nothing records or before the first.
    package var attempt = 0
    /// For a buffered call: where a middleware that has the answer as bytes already hands them
    /// over (``CollectedAnswer``); nil for a streamed call or one that is not a `NetworkClient`'s.
    package var collected: CollectedAnswer?
    /// For a download to a file: where a disk cache offers to keep the finished file.
    package var downloadOffer: DownloadStoreOffer?
    /// The request body, when it is a file a transport may send itself.
    package var requestFile: RequestFile?

    /// Creates a context.
    package init(
        deadline: ContinuousClock.Instant? = nil,
        secrets: [String] = [],
        maxResponseBytes: Int? = nil,
        traits: CallTraits = CallTraits(),
        streamsResponse: Bool = false,
        idleTimeout: Duration? = nil,
        origin: URL? = nil,
        recorder: CallRecorder? = nil,
        collected: CollectedAnswer? = nil,
        downloadOffer: DownloadStoreOffer? = nil,
        requestFile: RequestFile? = nil
    ) {
        self.collected = collected
        self.downloadOffer = downloadOffer
        self.requestFile = requestFile
        self.recorder = recorder
        self.origin = origin
        self.deadline = deadline
        self.secrets = secrets
        self.maxResponseBytes = maxResponseBytes
        self.traits = traits
        self.streamsResponse = streamsResponse
        self.idleTimeout = idleTimeout
    }

    /// The context of the request this task is sending, for a middleware or transport that is not
    /// Courier's own (Courier's get it as an argument); nil outside a `NetworkClient` call.
    public static var current: CallContext? { task }

    /// Where the client sets ``current`` — the library's one task-local, the bridge to middlewares
    /// and transports that take no context: not public, so it cannot be forged.
    @TaskLocal package static var task: CallContext?
}
