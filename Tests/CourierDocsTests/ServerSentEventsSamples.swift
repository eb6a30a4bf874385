// Mirrors: Sources/Courier/Courier.docc/Articles/server-sent-events.md
//
// The article's code, line for line (DocsSyncTests checks that every sample is here). Compiled
// only: the samples read ticker.example.com.

import Courier
import CourierTransfers
import Foundation

enum TickerAPI: Endpoint {
    /// `GET /prices/stream?symbols=` → `text/event-stream` of `Tick`
    case prices(symbols: [String])

    var baseURL: URL { URL(string: "https://ticker.example.com")! }
    var path: String { "/prices/stream" }
    var method: HTTPMethod { .get }
    var task: HTTPTask {
        switch self {
        case .prices(let symbols): .requestParameters(["symbols": symbols.joined(separator: ",")], encoding: .url)
        }
    }
    var headers: [String: String]? { ["Accept": "text/event-stream"] }
}

struct Tick: Decodable, Sendable {
    let symbol: String
    let price: Double
}

enum ServerSentEventsArticle {
    static func read(client: NetworkClient) async throws {
        for try await event in client.events(TickerAPI.prices(symbols: ["BTC", "ETH"])) {
            print(event.event ?? "message", event.id ?? "-", event.data)
        }
    }

    static func decode(client: NetworkClient) async throws {
        for try await tick in client.events(TickerAPI.prices(symbols: ["BTC"]), as: Tick.self) {
            print(tick.event ?? "message", tick.value.symbol, tick.value.price)
        }
    }

    static func reconnect(client: NetworkClient) async throws {
        let options = EventStreamOptions(
            idleTimeout: .seconds(45),                             // no byte for 45 s: the connection is dead
            reconnect: .init(delay: .seconds(3), maxAttempts: 5)   // then resume, at most 5 failures in a row
        )
        for try await event in client.events(TickerAPI.prices(symbols: ["BTC"]), options: options) {
            print(event.lastEventID, event.data)                   // what a reconnect sends as Last-Event-ID
        }
    }

    static func stop(client: NetworkClient) {
        let reading = Task {
            for try await event in client.events(TickerAPI.prices(symbols: ["BTC"])) {
                print(event.data)
            }
        }
        reading.cancel()
    }
}
