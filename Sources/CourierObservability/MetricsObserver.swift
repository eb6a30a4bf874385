public import CoreMetrics
public import Courier
public import CourierTransportCore
import Foundation
import Metrics
import Synchronization

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
///   (dimension `outcome`: `freshHit`, `staleServed`, `revalidated`, `miss`, `stored`, `bypassed`)
///   and `courier.client.connections` (dimension `outcome`: `new`, `reused`; an exchange's
///   connection, where the transport can tell), `courier.client.hedges` (dimension `outcome`:
///   `sent`, `won`: a hedge sent, a hedge that answered first), `courier.client.breaker`
///   (dimension `outcome`: `rejected`, `probe`, `opened`, `closed`) and `courier.client.paced`
///   (a call the rate-limit pacer held; `courier.client.paced.duration`, a `Timer`, how long).
///
/// ```swift
/// var configuration = NetworkClient.Configuration()
/// configuration.observers = [MetricsObserver()]
/// ```
///
/// It runs off the calls' path, like every `CallObserver`.
public struct MetricsObserver: CallObserver {
    /// The duration metric's label (OpenTelemetry's name).
    public static let durationLabel = "http.client.request.duration"

    private let handles: Handles

    /// An observer reporting through `factory` (by default the one `MetricsSystem` was
    /// bootstrapped with; a test passes MetricsTestKit's `TestMetrics`).
    public init(factory: any MetricsFactory = MetricsSystem.factory) {
        handles = Handles(factory: factory)
    }

    /// False: it reads whole timelines only.
    public var observesEachStep: Bool { false }

    public func callEnded(_ steps: [CallStep]) {
        var method = "GET"
        var exchanges: [Exchange] = []
        // The steps read where they lie: a copy of each (`for step in steps`) cost 1,600 instructions a call.
        steps.withUnsafeBufferPointer { steps in
            for index in steps.indices {
                let attempt = steps[index].attempt
                let at = steps[index].at
                switch steps[index].kind {
                case .callStarted(let name, _):
                    method = name
                case .attemptStarted(let url):
                    exchanges.append(Exchange(attempt: attempt, url: url, start: at, end: at))
                case .responseHead(let status):
                    Self.update(&exchanges, attempt) {
                        $0.status = status
                        $0.end = at
                    }
                case .attemptFailed(let reason):
                    Self.update(&exchanges, attempt) {
                        $0.error = reason
                        $0.end = at
                    }
                case .bodyDone:
                    Self.update(&exchanges, attempt) { $0.end = at }
                case .retryScheduled:
                    handles.counter(.retries).increment()
                case .retryAbandoned(let reason) where reason.contains("budget"):
                    handles.counter(.retryBudgetExhausted).increment()
                case .connection(_, let reused):
                    handles.counter(.connections(reused: reused)).increment()
                case .joined:
                    handles.counter(.deduplicated).increment()
                case .cache(let outcome):
                    handles.counter(.cache(outcome)).increment()
                case .hedgeSent:
                    handles.counter(.hedges(won: false)).increment()
                case .hedgeWon(let byHedge) where byHedge:
                    handles.counter(.hedges(won: true)).increment()
                case .breaker(let outcome):
                    handles.counter(.breaker(outcome)).increment()
                case .paced(let wait):
                    handles.counter(.paced).increment()
                    let (seconds, attoseconds) = wait.components
                    handles.pacedTimer.recordNanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
                default:
                    break
                }
            }
        }
        for exchange in exchanges {
            let (seconds, attoseconds) = (exchange.end - exchange.start).components
            handles.timer(for: exchange, method: method).recordNanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        }
    }

    /// Applies `change` to the exchange numbered `attempt` (the last ones are the likely ones).
    private static func update(_ exchanges: inout [Exchange], _ attempt: Int, _ change: (inout Exchange) -> Void) {
        guard let index = exchanges.lastIndex(where: { $0.attempt == attempt }) else { return }
        change(&exchanges[index])
    }

    /// The metrics made so far, each made once: making a `Timer` or a `Counter` — its label and
    /// dimensions handed to the factory — for every exchange cost more than the rest of the
    /// observer (callgrind). At most 1,024 distinct timers are kept; then they are made afresh.
    final class Handles: Sendable {
        /// What tells one duration timer from another: the dimensions' sources.
        struct Key: Hashable {
            var method: String
            /// `scheme://authority` of the exchange's URL.
            var origin: Substring
            var status: Int?
            var error: String?
        }

        /// The last exchange's timer, by what its key is read from: most exchanges are like the one
        /// before (the same URL, method and outcome), and comparing those costs a quarter of reading
        /// the URL's origin and hashing the key (callgrind: 730 instructions an exchange, was 2,800).
        struct Last {
            var method: String
            var url: String
            var status: Int?
            var error: String?
            var timer: Timer
        }

        struct Timers {
            var byKey: [Key: Timer] = [:]
            var last: Last?
        }

        let factory: any MetricsFactory
        private let timers = Mutex(Timers())
        /// By ``CounterName/slot``.
        private let counters = Mutex<[Counter?]>(Array(repeating: nil, count: CounterName.slots))

        /// `courier.client.paced.duration`: how long the pacer held a call.
        let pacedTimer: Timer

        init(factory: any MetricsFactory) {
            self.factory = factory
            pacedTimer = Timer(label: "courier.client.paced.duration", factory: factory)
        }

        func timer(for exchange: Exchange, method: String) -> Timer {
            let last = timers.withLock { timers -> Timer? in
                guard let last = timers.last, last.url == exchange.url, last.method == method, last.status == exchange.status,
                    last.error == exchange.error
                else { return nil }
                return last.timer
            }
            if let last { return last }
            let key = Key(method: method, origin: exchange.origin, status: exchange.status, error: exchange.error)
            let made = timers.withLock { $0.byKey[key] }
            let timer = made ?? Timer(label: MetricsObserver.durationLabel, dimensions: exchange.dimensions(method: method), factory: factory)
            timers.withLock { timers in
                if made == nil {
                    if timers.byKey.count >= 1024 { timers.byKey = [:] }
                    timers.byKey[key] = timer
                }
                timers.last = Last(method: method, url: exchange.url, status: exchange.status, error: exchange.error, timer: timer)
            }
            return timer
        }

        func counter(_ name: CounterName) -> Counter {
            let slot = name.slot
            if let counter = counters.withLock({ $0[slot] }) { return counter }
            let counter = Counter(label: name.label, dimensions: name.outcome.map { [("outcome", $0)] } ?? [], factory: factory)
            counters.withLock { $0[slot] = counter }
            return counter
        }
    }

    /// A counter the observer adds to, found at a slot of its own: joining the label and the
    /// outcome into one text to look it up cost 2,500 instructions per call, hashing 800.
    enum CounterName: Hashable {
        case retries
        case retryBudgetExhausted
        case deduplicated
        case cache(CallStep.CacheOutcome)
        case connections(reused: Bool)
        case hedges(won: Bool)
        case breaker(CallStep.BreakerOutcome)
        case paced

        var label: String {
            switch self {
            case .retries: "courier.client.retries"
            case .retryBudgetExhausted: "courier.client.retry_budget.exhausted"
            case .deduplicated: "courier.client.deduplicated"
            case .cache: "courier.client.cache"
            case .connections: "courier.client.connections"
            case .hedges: "courier.client.hedges"
            case .breaker: "courier.client.breaker"
            case .paced: "courier.client.paced"
            }
        }

        /// How many counters there are: one slot each.
        static let slots = 18

        /// Its place among the counters made.
        var slot: Int {
            switch self {
            case .retries: 0
            case .retryBudgetExhausted: 1
            case .deduplicated: 2
            case .connections(let reused): reused ? 4 : 3
            case .cache(.freshHit): 5
            case .cache(.staleServed): 6
            case .cache(.revalidated): 7
            case .cache(.miss): 8
            case .cache(.stored): 9
            case .cache(.bypassed): 10
            case .hedges(let won): won ? 12 : 11
            case .breaker(.rejected): 13
            case .breaker(.probe): 14
            case .breaker(.opened): 15
            case .breaker(.closed): 16
            case .paced: 17
            }
        }

        /// The `outcome` dimension, if it has one.
        var outcome: String? {
            switch self {
            case .cache(let outcome): outcome.rawValue
            case .connections(let reused): reused ? "reused" : "new"
            case .hedges(let won): won ? "won" : "sent"
            case .breaker(let outcome): outcome.rawValue
            case .retries, .retryBudgetExhausted, .deduplicated, .paced: nil
            }
        }
    }

    /// One HTTP exchange as the steps tell it.
    struct Exchange {
        let attempt: Int
        let url: String
        let start: ContinuousClock.Instant
        var end: ContinuousClock.Instant
        var status: Int?
        var error: String?

        /// `scheme://authority` of ``url``: what its server attributes are read from.
        var origin: Substring {
            guard let start = Redactor.authorityStart(url) else { return url[...] }
            return url[..<Redactor.authorityEnd(url, from: start)]
        }

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
            guard let start = Redactor.authorityStart(url) else { return ("http", "", nil) }
            let scheme = url[..<url.utf8.index(start, offsetBy: -3)].lowercased()
            let authority = url[start..<Redactor.authorityEnd(url, from: start)]
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
