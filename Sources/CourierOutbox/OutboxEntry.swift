public import Foundation
public import HTTPTypes

/// One write in an ``Outbox``: what is sent (method, URL, the header fields that may be kept on
/// disk, the body), the idempotency key it carries on every attempt, and how far it got.
///
/// An entry is ``State/queued`` until a final answer: a 2xx or 3xx removes it (delivered); a 4xx
/// other than 408, 409, 425 and 429 — or a request that can never be sent — makes it
/// ``State/failed``, kept with its ``answer`` for the app to show until it is dropped or retried.
public struct OutboxEntry: Sendable, Equatable, Identifiable {
    /// Where an entry stands.
    public enum State: String, Sendable, Codable, CaseIterable {
        /// Waiting to be delivered, in queue order.
        case queued
        /// Answered for good with an error; kept for the app to show.
        case failed
    }

    /// The final answer that failed an entry: its status, header fields and the start of its body.
    public struct Answer: Sendable, Equatable {
        /// The status code.
        public var status: Int
        /// The answer's header fields.
        public var headerFields: HTTPFields
        /// The body's first ``OutboxLimits/maxAnswerBytes`` bytes.
        public var body: Data

        /// An answer with `status`, `headerFields` and `body`.
        public init(status: Int, headerFields: HTTPFields, body: Data) {
            self.status = status
            self.headerFields = headerFields
            self.body = body
        }

        /// The most bytes of header fields kept of a server's answer.
        static let maxFieldBytes = 64 << 10

        /// What is kept of a server's answer: its status, its first 256 header fields
        /// within ``maxFieldBytes``, and its body's first ``OutboxLimits/maxAnswerBytes`` — so an
        /// answer with a thousand fields or a huge body still makes an entry the reader accepts.
        static func kept(status: Int, headerFields: HTTPFields, body: Data) -> Answer {
            var kept = HTTPFields()
            var bytes = 0
            for field in headerFields.prefix(OutboxEntryFormat.maxFields) {
                bytes += field.name.rawName.utf8.count + field.value.utf8.count
                if bytes > maxFieldBytes { break }
                kept.append(field)
            }
            return Answer(status: status, headerFields: kept, body: Data(body.prefix(OutboxLimits.maxAnswerBytes)))
        }
    }

    /// The entry's name in the outbox: its creation time and a random part, in queue order.
    public let id: String
    /// The request method.
    public let method: HTTPRequest.Method
    /// The URL, sent as given (byte for byte, as the caller wrote it).
    public let url: String
    /// The header fields kept on disk: never a secret one (``OutboxWrite/secretHeaders``).
    public let headerFields: HTTPFields
    /// The idempotency key, the same on every attempt (written as sent, quotes included).
    public let idempotencyKey: String
    /// The field that carries ``idempotencyKey``.
    public let keyHeader: HTTPField.Name
    /// When the write was put in the outbox.
    public let createdAt: Date
    /// The body's length in bytes.
    public let bodyLength: Int
    /// Attempts so far (counted before each is sent: one cut off by a crash counts).
    public internal(set) var attempts: Int
    /// Queued or failed.
    public internal(set) var state: State
    /// Why the last attempt did not deliver it (`HTTP 503`, `networkError(-1004 cannotConnectToHost)` …).
    public internal(set) var lastError: String?
    /// Not sent again before this time by ``Outbox/run(headers:)`` (backoff, or the server's `Retry-After`);
    /// ``Outbox/flush(headers:)`` sends at once.
    public internal(set) var notBefore: Date?
    /// The answer that failed it, for a ``State/failed`` entry that got one.
    public internal(set) var answer: Answer?

    init(
        id: String, method: HTTPRequest.Method, url: String, headerFields: HTTPFields, idempotencyKey: String,
        keyHeader: HTTPField.Name, createdAt: Date, bodyLength: Int, attempts: Int = 0, state: State = .queued,
        lastError: String? = nil, notBefore: Date? = nil, answer: Answer? = nil
    ) {
        self.id = id
        self.method = method
        self.url = url
        self.headerFields = headerFields
        self.idempotencyKey = idempotencyKey
        self.keyHeader = keyHeader
        self.createdAt = createdAt
        self.bodyLength = bodyLength
        self.attempts = attempts
        self.state = state
        self.lastError = lastError
        self.notBefore = notBefore
        self.answer = answer
    }
}
