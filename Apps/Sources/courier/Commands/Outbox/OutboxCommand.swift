import ArgumentParser
import Courier
import CourierOutbox
import Foundation
import HTTPTypes

/// `courier outbox`: the writes `courier request --outbox DIR` kept until they are delivered.
struct OutboxCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "outbox",
        abstract: "List, send or drop the writes kept in an outbox directory (courier request --outbox DIR).",
        discussion: """
            An outbox keeps each write on disk — method, URL, header fields (never Authorization, \
            Cookie, Proxy-Authorization or API keys), body and idempotency key — until a final \
            answer: 2xx/3xx delivers it, a 4xx other than 408/409/425/429 fails it (kept to be \
            shown), anything else keeps it queued. DIR is created 0700 when missing.

            Example: courier outbox flush ./outbox -H @token-header.txt --retry 3

            \(ExitCodes.help)
            """,
        subcommands: [OutboxListCommand.self, OutboxFlushCommand.self, OutboxDropCommand.self]
    )

    /// "Queued for later" (BSD's `EX_TEMPFAIL`): a write kept in the outbox, to be sent again.
    static let queuedExit: Int32 = 75

    /// The outbox in `directory` with a client made by `transport` (and `retry` attempts in all).
    static func open(_ directory: String, transport: TransportOptions, retry: Int = 1, timeout: Double = 30) throws -> Outbox {
        var configuration = NetworkClient.Configuration(transport: try transport.make())
        configuration.timeout = .milliseconds(Int(timeout * 1000))
        if retry > 1 {
            configuration.middlewares.append(
                RetryMiddleware(policy: RetryPolicy(maxAttempts: retry), logger: RequestCommand.stderrLogger("courier.retry")))
        }
        do {
            return try Outbox(directory: URL(fileURLWithPath: directory), client: NetworkClient(configuration: configuration))
        } catch {
            throw ValidationError("--outbox: \(error.description)")
        }
    }
}

/// `courier outbox list DIR [--json]`.
struct OutboxListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "The writes in the outbox, in queue order (queued and failed).")

    @Argument(help: "The outbox directory.") var directory: String
    @Flag(name: .long, help: "One JSON object a line: id, method, url (credentials redacted), state, attempts, lastError, createdAt.")
    var json = false
    @OptionGroup var transportOptions: TransportOptions

    func run() async throws {
        let outbox = try OutboxCommand.open(directory, transport: transportOptions)
        let redactor = Redactor()
        for entry in await outbox.entries() {
            if json {
                Terminal.outputJSON(Self.jsonLine(entry, redactor: redactor))
            } else {
                let last = entry.lastError.map { "  last: \($0)" } ?? ""
                Terminal.output(
                    "\(entry.id)  \(entry.state.rawValue)  \(entry.method.rawValue) \(redactor.url(entry.url))  attempts \(entry.attempts)\(last)")
            }
        }
    }

    private struct Line: Encodable {
        let id: String
        let method: String
        let url: String
        let state: String
        let attempts: Int
        let lastError: String?
        let createdAt: String
    }

    static func jsonLine(_ entry: OutboxEntry, redactor: Redactor) -> String {
        let line = Line(
            id: entry.id, method: entry.method.rawValue, url: redactor.url(entry.url), state: entry.state.rawValue,
            attempts: entry.attempts, lastError: entry.lastError, createdAt: entry.createdAt.formatted(.iso8601))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return (try? encoder.encode(line)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}

/// `courier outbox flush DIR [-H …] [--retry N]`.
struct OutboxFlushCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flush",
        abstract: "Send the queued writes now, in order, each with its idempotency key.",
        discussion: """
            Failed writes are skipped; the flush stops at the first write that fails transiently \
            (it and every later one stay queued). Waits for a flush another process is running. \
            Exit 75 if a write is still queued, else 11 if one failed for good in this flush, else 0.
            """)

    @Argument(help: "The outbox directory.") var directory: String
    @Option(
        name: [.customShort("H"), .long],
        help: "A header 'Name: value' for every write sent, or @FILE (one a line): how a token comes back (repeatable).")
    var header: [String] = []
    @Option(name: .long, help: "Attempts per write in this flush, through the retry middleware (e.g. 3); default 1.") var retry: Int = 1
    @Option(name: .long, help: "Seconds before an attempt gives up (default 30).") var timeout: Double = 30
    @OptionGroup var transportOptions: TransportOptions

    func run() async throws {
        guard (1...10).contains(retry) else { throw ValidationError("--retry must be 1…10 attempts") }
        guard timeout > 0, timeout <= 86_400 else { throw ValidationError("--timeout must be positive and at most 86400 seconds") }
        let fields = try OutboxFlushCommand.fields(header)
        let outbox = try OutboxCommand.open(directory, transport: transportOptions, retry: retry, timeout: timeout)
        let report = await outbox.flush(headers: fields)
        for id in report.delivered { Terminal.error("delivered \(id)") }
        for id in report.failed { Terminal.error("failed \(id)") }
        if let stopped = report.stoppedAt {
            let reason = await outbox.entries().first { $0.id == stopped }?.lastError ?? "not delivered"
            Terminal.error("queued \(stopped) (\(reason)); \(report.stillQueued) still queued")
        }
        if report.stillQueued > 0 { throw ExitCode(OutboxCommand.queuedExit) }
        if !report.failed.isEmpty { throw ExitCode(ExitCodes.code(for: .client)) }
    }

    /// `-H` lines as header fields.
    static func fields(_ values: [String]) throws -> HTTPFields {
        var fields = HTTPFields()
        for (name, value) in try RequestCommand.headerFields(values) {
            guard let fieldName = HTTPField.Name(name) else { throw ValidationError("--header: '\(name)' is not a valid header name") }
            fields.append(HTTPField(name: fieldName, value: value))
        }
        return fields
    }
}

/// `courier outbox drop DIR ID`.
struct OutboxDropCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "drop", abstract: "Remove one write from the outbox for good.")

    @Argument(help: "The outbox directory.") var directory: String
    @Argument(help: "The write's id (as outbox list shows it).") var id: String
    @OptionGroup var transportOptions: TransportOptions

    func run() async throws {
        let outbox = try OutboxCommand.open(directory, transport: transportOptions)
        do {
            try await outbox.drop(id)
        } catch {
            Terminal.error(error.description)
            throw ExitCode(ExitCodes.failure)
        }
        Terminal.error("dropped \(id)")
    }
}
