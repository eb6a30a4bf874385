public import Courier
import CourierTransportCore
import Foundation

extension NetworkClient {
    /// The server-sent events `endpoint` answers with, read incrementally as they arrive.
    ///
    /// ```swift
    /// for try await event in client.events(AlanAPI.stream("비트코인 전망")) {
    ///     print(event.event ?? "message", event.data)
    /// }
    /// ```
    ///
    /// Middlewares run as for any call; the endpoint's timeout bounds only the wait for the
    /// response head, ``EventStreamOptions/idleTimeout`` the silence after it. An error status
    /// ends the stream with the endpoint's status mapping's error, a body that is not
    /// `text/event-stream` with ``NetworkError/invalidResponse``.
    public func events(_ endpoint: some Endpoint, options: EventStreamOptions = EventStreamOptions()) -> ServerEventStream {
        let call: Result<Call, NetworkError>
        do {
            call = .success(try self.call(for: endpoint))
        } catch {
            call = .failure(error)
        }
        return ServerEventStream(client: self, call: call, options: options)
    }

    /// The events of `endpoint` with each `data` decoded as `Value` — by the endpoint's
    /// ``Endpoint/responseDecoding`` unless `decoding` is given (CourierLLM's tolerant decoding
    /// reads APIs that stream pseudo-JSON such as Python dict literals).
    ///
    /// ```swift
    /// for try await tick in client.events(TickerAPI.stream, as: Tick.self) {
    ///     show(tick.value.price)
    /// }
    /// ```
    public func events<Value: Decodable & Sendable>(
        _ endpoint: some Endpoint,
        as type: Value.Type,
        decoding: (any ResponseDecoding)? = nil,
        options: EventStreamOptions = EventStreamOptions()
    ) -> DecodedServerEventStream<Value> {
        DecodedServerEventStream(
            events: events(endpoint, options: options),
            decoding: decoding ?? endpoint.responseDecoding, decoder: configuration.decoder)
    }
}
