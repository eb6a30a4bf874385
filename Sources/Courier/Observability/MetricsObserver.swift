public import CoreMetrics
public import CourierTransportCore
import Foundation
import Metrics

/// Reports every call to swift-metrics, in OpenTelemetry's terms for HTTP clients, through
/// whatever metrics backend the process bootstrapped (Prometheus, swift-otel, StatsD …):
///
/// - `http.client.request.duration` — a `Timer` per HTTP exchange (each attempt of a retried call,
///   each redirect hop), from the moment it was handed to the transport to its last byte (to its
///   head, or its failure, when the body was not read), with the attributes `http.request.method`,
///   `server.address`, `server.port`, `url.scheme`, `http.response.status_code` (when a head came)
///   and `error.type` (a failed exchange or an error status);
/// - counters: `courier.client.retries` (a retry scheduled), `courier.client.retry_budget.exhausted`,
///   `courier.client.deduplicated` (a call that joined one in flight) and `courier.client.cache`
///   (dimension `outcome`: `freshHit`, `staleServed`, `revalidated`, `miss`, `stored`, `bypassed`).
///
/// ```swift
/// var configuration = NetworkClient.Configuration()
/// configuration.observers = [MetricsObserver()]
/// ```
///
/// It runs off the calls' path, like every ``CallObserver``.
public struct MetricsObserver: CallObserver {
    /// The duration metric's label (OpenTelemetry's name).
    public static let durationLabel = "http.client.request.duration"

    private let factory: any MetricsFactory

    /// An observer reporting through `factory` (by default the one `MetricsSystem` was
    /// bootstrapped with; a test passes MetricsTestKit's `TestMetrics`).
    public init(factory: any MetricsFactory = MetricsSystem.factory) {
        self.factory = factory
    }

    /// False: it reads whole timelines only.
    public var observesEachEvent: Bool { false }

    public func callEnded(_ events: [CallEvent]) {
        var method = "GET"
        var attempts: [Int: Exchange] = [:]
        for event in events {
            switch event.kind {
            case .callStarted(let name, _):
                method = name
            case .attemptStarted(let url):
                attempts[event.attempt] = Exchange(url: url, start: event.at, end: event.at)
            case .responseHead(let status):
                attempts[event.attempt]?.status = status
                attempts[event.attempt]?.end = event.at
            case .attemptFailed(let reason):
                attempts[event.attempt]?.error = reason
                attempts[event.attempt]?.end = event.at
            case .bodyDone:
                attempts[event.attempt]?.end = event.at
            case .retryScheduled:
                Counter(label: "courier.client.retries", factory: factory).increment()
            case .retryAbandoned(let reason) where reason.contains("budget"):
                Counter(label: "courier.client.retry_budget.exhausted", factory: factory).increment()
            case .joined:
                Counter(label: "courier.client.deduplicated", factory: factory).increment()
            case .cache(let outcome):
                Counter(label: "courier.client.cache", dimensions: [("outcome", outcome.rawValue)], factory: factory).increment()
            default:
                break
            }
        }
        for exchange in attempts.values {
            let duration = exchange.end - exchange.start
            let nanoseconds = duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
            Timer(label: Self.durationLabel, dimensions: exchange.dimensions(method: method), factory: factory).recordNanoseconds(nanoseconds)
        }
    }

    /// One HTTP exchange as the events tell it.
    struct Exchange {
        let url: String
        let start: ContinuousClock.Instant
        var end: ContinuousClock.Instant
        var status: Int?
        var error: String?

        /// OpenTelemetry's HTTP client attributes.
        func dimensions(method: String) -> [(String, String)] {
            let (scheme, host, port) = Self.server(of: url)
            var dimensions: [(String, String)] = [
                ("http.request.method", method),
                ("server.address", host),
                ("server.port", port ?? (scheme == "https" ? "443" : "80")),
                ("url.scheme", scheme),
            ]
            if let status { dimensions.append(("http.response.status_code", String(status))) }
            if let error {
                dimensions.append(("error.type", Self.errorType(error)))
            } else if let status, status >= 400 {
                dimensions.append(("error.type", String(status)))
            }
            return dimensions
        }

        /// OpenTelemetry's `error.type` of a failure as the timeline names it: the name without its
        /// details (`networkError(-1004 cannotConnectToHost)` → `cannotConnectToHost`).
        static func errorType(_ reason: String) -> String {
            reason.split(separator: " ").last.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "()")) } ?? reason
        }

        /// The scheme, host and port of an absolute URL, read off its text (cheaper than
        /// `URLComponents`, and these URLs are the client's own: `scheme://host[:port]/…`).
        static func server(of url: String) -> (scheme: String, host: String, port: String?) {
            guard let separator = url.range(of: "://") else { return ("http", "", nil) }
            let scheme = url[..<separator.lowerBound].lowercased()
            let rest = url[separator.upperBound...]
            let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
            let hostAndPort = authority.split(separator: "@").last ?? authority
            if hostAndPort.hasPrefix("["), let close = hostAndPort.firstIndex(of: "]") {
                let host = String(hostAndPort[hostAndPort.index(after: hostAndPort.startIndex)..<close])
                let after = hostAndPort[hostAndPort.index(after: close)...]
                return (scheme, host, after.hasPrefix(":") ? String(after.dropFirst()) : nil)
            }
            let parts = hostAndPort.split(separator: ":", maxSplits: 1)
            return (scheme, String(parts.first ?? "").lowercased(), parts.count > 1 ? String(parts[1]) : nil)
        }
    }
}
