import HTTPTypes
import Hummingbird
import NIOCore

/// What one `GET /sse/events` request asked for, and the bytes of its stream.
///
/// Event `n` is `id: n`, then `event: name` when asked, then `data: {"n":n}` (or the two-line
/// data of `multiline`), then a blank line, each line ended by ``lineEnding``. A `: keep-alive`
/// comment line goes before each event with `comments`. The stream starts with the BOM, then a
/// standalone `retry:` block, when asked.
struct SSEStreamPlan: Sendable {
    /// The line terminator of every line.
    enum LineEnding: String, Sendable {
        case lf, cr, crlf

        var text: String {
            switch self {
            case .lf: "\n"
            case .cr: "\r"
            case .crlf: "\r\n"
            }
        }
    }

    /// Events are numbered 1…count.
    var count: Int
    /// Sleep between two events.
    var interval: Duration
    /// The `event:` field of every event, when given.
    var eventName: String?
    /// The value of the leading `retry:` block, verbatim, when given.
    var retry: String?
    /// A `: keep-alive` comment before each event.
    var comments: Bool
    var lineEnding: LineEnding
    /// The stream starts with EF BB BF.
    var bom: Bool
    /// Each event's data is split over two `data:` lines.
    var multiline: Bool
    /// Cut the connection after this many events of this response.
    var dropAfter: Int?
    /// Go silent (connection open) after this many events of this response.
    var hangAfter: Int?
    /// Names the stream in `/sse/stats`.
    var key: String
    /// The `Last-Event-ID` header as received, if any.
    var lastEventID: String?
    /// The first event this response sends: 1, or one past a numeric `Last-Event-ID`.
    var firstID: Int
    /// The client resumes at or past the last event: answer 204 so it stops reconnecting.
    var isFinished: Bool

    /// The longest a hanging stream stays silent before it ends.
    static let longestHang = Duration.seconds(120)
    static let lastEventIDField = HTTPField.Name("Last-Event-ID")

    /// The plan for `request`; 400 for a parameter that is present but wrong.
    init(_ request: Request) throws {
        let query = QueryReader(request)
        let count = try query.integer("count", in: 0...1_000_000, default: 10)
        self.count = count
        interval = .milliseconds(try query.integer("intervalMs", in: 0...600_000, default: 0))
        eventName = try query.line("event")
        retry = try query.line("retry")
        comments = try query.flag("comments")
        bom = try query.flag("bom")
        multiline = try query.flag("multiline")
        let ending = query.text("lineEnding") ?? "lf"
        guard let lineEnding = LineEnding(rawValue: ending) else {
            throw HTTPError(.badRequest, message: "lineEnding must be lf, cr or crlf")
        }
        self.lineEnding = lineEnding
        dropAfter = try query.integer("dropAfter", in: 0...Int.max)
        hangAfter = try query.integer("hangAfter", in: 0...Int.max)
        key = query.text("key") ?? "default"
        lastEventID = Self.lastEventIDField.flatMap { request.headers[$0] }
        // An unparseable Last-Event-ID starts over; one at or past the end is answered 204.
        let resumed = lastEventID.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        isFinished = resumed.map { $0 >= count } ?? false
        firstID = isFinished ? count + 1 : max(resumed ?? 0, 0) + 1
    }

    /// BOM and `retry:` block, before any event; nil when neither was asked for.
    var preamble: ByteBuffer? {
        var text = bom ? "\u{FEFF}" : ""
        if let retry { text += "retry: \(retry)" + lineEnding.text + lineEnding.text }
        return text.isEmpty ? nil : ByteBuffer(string: text)
    }

    /// The bytes of event `n`.
    func event(_ n: Int) -> ByteBuffer {
        let end = lineEnding.text
        var text = comments ? ": keep-alive" + end : ""
        text += "id: \(n)" + end
        if let eventName { text += "event: \(eventName)" + end }
        if multiline {
            text += "data: {\"n\":\(n)," + end + "data: \"two\":true}" + end
        } else {
            text += "data: {\"n\":\(n)}" + end
        }
        return ByteBuffer(string: text + end)
    }

    /// Writes the stream: preamble, then events `firstID…count`, `interval` apart. Throws
    /// ``SandboxFault/droppedOnPurpose`` at `dropAfter`; at `hangAfter` stays silent until
    /// cancelled or ``longestHang`` has passed, then returns.
    func write(to writer: inout any ResponseBodyWriter) async throws {
        if let preamble { try await writer.write(preamble) }
        var sent = 0
        if try await stopsHere(after: sent) { return }
        for n in stride(from: firstID, through: count, by: 1) {
            try Task.checkCancellation()
            if n > firstID, interval > .zero { try await Task.sleep(for: interval) }
            try await writer.write(event(n))
            sent += 1
            if try await stopsHere(after: sent) { return }
        }
    }

    /// Drops (throws) or hangs (then true) once `sent` reaches `dropAfter` or `hangAfter`.
    private func stopsHere(after sent: Int) async throws -> Bool {
        if sent == dropAfter {
            // Lets the last event leave before the connection is cut (as /drop does).
            try await Task.sleep(for: .milliseconds(20))
            throw SandboxFault.droppedOnPurpose
        }
        if sent == hangAfter {
            try await Task.sleep(for: Self.longestHang)
            return true
        }
        return false
    }
}
