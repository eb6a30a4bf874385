public import Logging
import Synchronization

/// A swift-log destination that keeps every line in memory, so a test can assert what was (and
/// was not) logged — for instance that no password, token or API key ever reached a log line.
///
/// ```swift
/// let capture = LogCapture()
/// let client = NetworkClient(transport: transport,
///                            middlewares: [LoggingMiddleware(logger: capture.logger())])
/// _ = try await client.response(endpoint)
/// #expect(!capture.text.contains(apiKey))
/// ```
public final class LogCapture: Sendable {
    private let storage = Mutex<[String]>([])

    /// Creates an empty capture.
    public init() {}

    /// Every line so far: level, label, message and metadata (sorted `key=value`).
    public var lines: [String] { storage.withLock { $0 } }

    /// All lines joined by newlines.
    public var text: String { lines.joined(separator: "\n") }

    /// A logger at `.trace` that writes into this capture.
    public func logger(_ label: String = "test") -> Logger {
        var logger = Logger(label: label) { label in Handler(label: label, capture: self) }
        logger.logLevel = .trace
        return logger
    }

    fileprivate func append(_ line: String) {
        storage.withLock { $0.append(line) }
    }

    private struct Handler: LogHandler {
        let label: String
        let capture: LogCapture
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { $1 }
            let rendered = merged.map { "\($0)=\($1)" }.sorted().joined(separator: " ")
            capture.append("\(event.level) \(label) \(event.message) \(rendered)")
        }
    }
}
