/// How `NetworkClient/bytes(_:options:)`, `NetworkClient/lines(_:options:)` and
/// `NetworkClient/jsonLines(_:as:decoding:options:)` read a body as it arrives.
///
/// The endpoint's timeout bounds the wait for the response head; after it, ``idleTimeout``
/// bounds each silence, so a stream may run for hours as long as bytes keep coming.
import Courier
import CourierTransportCore

public struct ByteStreamOptions: Sendable {
    /// No bytes for this long ends the stream with `NetworkError/networkError(_:)` `.timedOut`;
    /// nil waits for ever.
    public var idleTimeout: Duration?

    /// Options with a 60 s idle timeout.
    public init(idleTimeout: Duration? = .seconds(60)) {
        self.idleTimeout = idleTimeout
    }
}
