#if WebSocket  // the `WebSocket` trait: Package.swift
public import Courier
public import CourierWebSocket
public import Foundation
public import Logging

/// Live prices from an Upbit-style ticker WebSocket: subscribes on every (re)connect, decodes
/// ticker messages, and never delivers the same tick twice across a reconnect (a message whose
/// `seq` — or `timestamp` where there is none — is not newer than the last one for its code is
/// dropped).
///
/// ```swift
/// let feed = UpbitTickerFeed(codes: ["KRW-BTC", "KRW-ETH"])
/// for try await ticker in feed.tickers { print(ticker.code, ticker.tradePrice) }
/// ```
public final class UpbitTickerFeed: Sendable {
    /// Upbit's public WebSocket endpoint.
    public static let upbitURL = URL(string: "wss://api.upbit.com/websocket/v1")!

    /// The session underneath: its `states` show connects and reconnects.
    public let session: WebSocketSession
    let logger: Logger

    /// A feed for `codes`.
    /// - Parameters:
    ///   - url: The WebSocket endpoint (Upbit's by default; the sandbox's `/websocket/v1` offline).
    ///   - codes: Market codes such as `KRW-BTC`.
    ///   - pingInterval: The heartbeat (a dead connection is noticed within two intervals).
    ///   - reconnect: Backoff between attempts.
    ///   - buffer: A slow reader loses the oldest prices by default: only the latest matter.
    ///   - logger: Where reconnects and skipped messages are logged.
    public init(
        url: URL = UpbitTickerFeed.upbitURL,
        codes: [String],
        pingInterval: Duration? = .seconds(10),
        reconnect: ReconnectPolicy = ReconnectPolicy(),
        buffer: WebSocketBufferPolicy = .dropOldest(limit: 1024),
        logger: Logger = Logger(label: "courier.ticker")
    ) {
        let subscription = UpbitSubscription.ticker(codes: codes)
        let configuration = WebSocketConfiguration(url: url, pingInterval: pingInterval)
        self.logger = logger
        session = WebSocketSession(
            client: WebSocketClient(configuration: configuration, logger: logger),
            reconnect: reconnect,
            buffer: buffer,
            onConnect: { connection throws(NetworkError) in
                try await connection.send(text: subscription)
            }
        )
    }

    /// Ticker messages as they arrive, each tick once. Ends when the session is closed; throws
    /// when the server rejects the subscription or the session gives up.
    public var tickers: UpbitTickers { UpbitTickers(messages: session.messages, logger: logger) }

    /// Closes the connection; no reconnect.
    public func close() async {
        await session.close()
    }
}

/// The decoded, de-duplicated ticker messages of an ``UpbitTickerFeed``.
public struct UpbitTickers: AsyncSequence, Sendable {
    /// A ticker message.
    public typealias Element = UpbitTicker
    /// The one error it throws.
    public typealias Failure = NetworkError

    let messages: WebSocketSessionMessages
    let logger: Logger

    /// An iterator that decodes and drops repeats.
    public func makeAsyncIterator() -> Iterator {
        Iterator(messages: messages.makeAsyncIterator(), logger: logger)
    }

    /// Decodes messages and drops ticks already delivered.
    public struct Iterator: AsyncIteratorProtocol {
        var messages: WebSocketSessionMessages.Iterator
        let logger: Logger
        var latest: [String: Int64] = [:]
        let decoder = JSONDecoder()

        /// The next new tick.
        public mutating func next() async throws(NetworkError) -> UpbitTicker? {
            while let message = try await messages.next() {
                let data = message.data
                if let ticker = try? decoder.decode(UpbitTicker.self, from: data) {
                    if let last = latest[ticker.code], ticker.order <= last { continue }
                    latest[ticker.code] = ticker.order
                    return ticker
                }
                if let rejection = try? decoder.decode(UpbitErrorMessage.self, from: data) {
                    throw .remoteError(400, "\(rejection.error.name): \(rejection.error.message ?? "")")
                }
                logger.warning("ticker message skipped: not a ticker", metadata: ["bytes": "\(data.count)"])
            }
            return nil
        }
    }
}

/// Upbit's error answer: `{"error":{"name":"WRONG_FORMAT","message":"…"}}`.
struct UpbitErrorMessage: Decodable {
    struct Detail: Decodable {
        var name: String
        var message: String?
    }
    var error: Detail
}
#endif  // WebSocket
