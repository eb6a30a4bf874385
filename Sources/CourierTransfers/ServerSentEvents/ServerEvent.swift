public import Courier
import CourierTransportCore
import Foundation

/// One server-sent event, as the WHATWG event-stream rules dispatch it.
///
/// ```swift
/// for try await event in client.events(TickerAPI.stream) {
///     print(event.event ?? "message", event.data)
/// }
/// ```
public struct ServerEvent: Sendable, Equatable, Codable {
    /// The `id` field of this event, if it had one (`""` for an `id` line without a value,
    /// which resets the last event ID).
    public var id: String?
    /// The `event` field (the event type); nil means the default type, `message`.
    public var event: String?
    /// The `data` fields joined by newlines.
    public var data: String
    /// The `retry` field of this event (reconnection time in milliseconds), if it had one.
    public var retry: Int?
    /// The stream's last event ID when this event was dispatched: what a reconnect sends as
    /// `Last-Event-ID` (it persists across events without an `id`).
    public var lastEventID: String

    /// Creates an event.
    public init(id: String? = nil, event: String? = nil, data: String, retry: Int? = nil, lastEventID: String? = nil) {
        self.id = id
        self.event = event
        self.data = data
        self.retry = retry
        self.lastEventID = lastEventID ?? id ?? ""
    }
}

/// A server-sent event whose `data` was decoded into `Value`.
public struct DecodedServerEvent<Value: Sendable>: Sendable {
    /// The event as received.
    public var raw: ServerEvent
    /// Its `data`, decoded.
    public var value: Value

    /// Creates an event.
    public init(raw: ServerEvent, value: Value) {
        self.raw = raw
        self.value = value
    }

    /// The event type; nil means `message`.
    public var event: String? { raw.event }
    /// The event's own `id`.
    public var id: String? { raw.id }
}

extension DecodedServerEvent: Equatable where Value: Equatable {}

extension ServerEvent {
    /// The events in `chunks` of an event stream, parsed as ``NetworkClient/events(_:options:)``
    /// parses a body (an unfinished last event is dropped) — for tests and tools that hold the
    /// bytes already.
    public static func parse(_ chunks: some Sequence<ArraySlice<UInt8>>) throws(NetworkError) -> [ServerEvent] {
        var parser = EventStreamParser()
        var events: [ServerEvent] = []
        for chunk in chunks { events += try parser.feed(chunk) }
        return events
    }
}
