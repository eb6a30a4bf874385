import ArgumentParser
import Courier
import CourierAsyncHTTPClient
import CourierCache
import CourierCookies
import CourierObservability
import CourierOutbox
import CourierTransfers
import Foundation
import HTTPTypes
import Logging

/// `courier request [METHOD] URL`: send one request and show the answer or the error, explained.
struct RequestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "request",
        abstract: "Send one HTTP request through Courier and print the answer.",
        discussion: """
            The method is GET, or POST with --data or --json; name another before the URL \
            (`courier request DELETE URL`) or with -X. Redirects are followed (at most 10, each \
            hop checked; -L is accepted and changes nothing); --no-location prints the redirect \
            itself.
            Output: piped or redirected, the body's bytes exactly as received (no newline added, \
            nothing reformatted), so `courier request URL > file` saves what `curl -sL URL > file` \
            saves. On a terminal, JSON is pretty-printed, control characters and escape sequences \
            from the server are shown, not obeyed (ESC as ␛), and a binary body is not printed \
            (redirect stdout to a file to save it); --pretty pretty-prints JSON when piped too. \
            --include prints the head first, as received: `HTTP/1.1 <code> <reason>`, the header \
            fields, each line ending in CRLF, a blank line. On failure the error's log line and \
            its user message go to stderr.
            --upload-file (-T) FILE sends FILE as the body, streamed from disk (PUT unless a \
            method is named). --lines prints the body line by line as each line arrives.
            With --stream, prints each server-sent event as it arrives, one compact JSON object \
            per line ({"id":…,"event":…,"data":…}, a field absent when the event has none). With \
            --retry N, up to N attempts (backoff with jitter, Retry-After honoured; idempotent \
            methods, or a write with --idempotency-key: then also 408, 409, 425 and every 5xx, \
            never 400 or 422), each retry logged to stderr. With --cache DIR, responses are kept in an \
            HTTP cache (RFC 9111) on disk in DIR, shared by every process that uses the same DIR \
            (a cached answer shows its Age with --include).
            Secrets stay out of `ps` in files: --header @FILE reads header lines ('Authorization: \
            Bearer …') from FILE, --query name@FILE the value of one query item.
            \(ExitCodes.help)
            Example: courier request 'http://127.0.0.1:8080/echo?q=서울' --query 'tag=a&b'
            Example: courier request http://127.0.0.1:8080/bytes/1024 > body.bin
            Example: courier request GET 'http://127.0.0.1:8080/sse/events?count=3' --stream
            Example: courier request 'http://127.0.0.1:8080/flaky/demo?failures=2' --retry 3
            Example: courier request POST http://127.0.0.1:8080/idempotent/orders --json '{"item":"tea"}' --retry 3 --idempotency-key auto
            Example: courier request 'http://127.0.0.1:8080/cache/demo?cc=max-age%3D60' --cache /tmp/cc --include
            Example: courier request http://127.0.0.1:8080/echo --data 'a=1' --header 'Content-Type: text/plain'
            Example: courier request -X PUT http://127.0.0.1:8080/echo --json '{"a":1}'
            Example: courier request http://127.0.0.1:8080/upload --upload-file big.iso
            Example: courier request 'http://127.0.0.1:8080/ndjson?count=5&interval=200' --lines
            Example: courier request http://127.0.0.1:8080/echo --header @headers.txt --query serviceKey@key.txt
            """
    )

    @Argument(help: ArgumentHelp("[METHOD] URL: the method is optional (GET, or POST with a body).", valueName: "method-and-url"))
    var words: [String]
    @Option(name: [.customShort("X"), .customLong("request")], help: "The method (as curl -X): GET, POST, PUT, PATCH, DELETE …")
    var requestMethod: String?
    @Option(
        name: [.customShort("H"), .long],
        help:
            "A header 'Name: value', or @FILE for the headers in FILE, one a line, as curl -H @FILE (repeatable; a token is safer in a file than in `ps`)."
    ) var header: [String] = []
    @Option(name: .long, help: "A query item name=value, or name@FILE for the value in FILE (one line), encoded for you (repeatable).") var query:
        [String] = []
    @Option(name: .long, help: "A JSON body (POST unless a method is named).") var json: String?
    @Option(name: .long, help: "Seconds before giving up (default 30); with --stream, seconds of silence.") var timeout: Double = 30
    @Flag(name: [.short, .long], help: "Also print the request and response lines and headers on stderr (secrets redacted).") var verbose = false
    @Flag(name: .long, help: "Allow plain http:// to a non-loopback host.") var allowInsecure = false
    @OptionGroup var transportOptions: TransportOptions
    @Option(name: .long, help: "Attempts in all, through the retry middleware (e.g. 3); default 1.") var retry: Int = 1
    @Option(
        name: .long,
        help: ArgumentHelp(
            "An Idempotency-Key for the call: auto mints one (a quoted UUID), any other value is sent verbatim; the same key on every attempt, and a POST/PATCH with a key is retried (--retry).",
            valueName: "auto|VALUE"))
    var idempotencyKey: String?
    @Flag(name: .long, help: "Read the answer as server-sent events; print each as a JSON line as it arrives.") var stream = false
    @Option(name: .long, help: "Keep responses in an HTTP cache on disk in this directory (shared by processes).") var cache: String?
    @Option(
        name: [.customShort("c"), .customLong("cookie-jar")],
        help: "A cookies.txt file (curl's format): its cookies are sent, and the answers' cookies written back to it (merged, 0600).")
    var cookieJar: String?
    @Option(
        name: [.short, .long],
        help: "A raw body (POST unless a method is named); its type from --header 'Content-Type: …' (default application/octet-stream).") var data:
        String?
    @Flag(name: [.short, .long], help: "Print the head (status line, header fields) before the body, as curl -i does.") var include = false
    @Flag(name: [.customShort("L"), .long], help: "Follow redirects (the default; accepted for curl's habit).") var location = false
    @Flag(name: .long, help: "Do not follow redirects: print the 3xx answer itself.") var noLocation = false
    @Flag(
        name: .long,
        help:
            "Print the call's timeline on stderr when it ends: each attempt (sent, first byte, body) and every decision (retry, cache, redirect), in milliseconds; each attempt carries a W3C traceparent (one trace id, printed)."
    )
    var trace = false
    @Flag(
        name: .long,
        help: "Print the curl command that sends this request (after the jar and other options shaped it) and send nothing; credentials redacted.")
    var curl = false
    @Flag(name: .long, help: "With --curl: show credentials (Authorization, cookies, API keys) instead of <redacted>.") var curlWithSecrets = false
    @Option(name: .long, help: "Write a HAR 1.2 log of every HTTP exchange (each attempt, each redirect hop) to FILE; credentials redacted.")
    var har: String?
    @Option(name: .customLong("max-redirs"), help: "Follow at most N redirects (default 10); one more fails (exit 10), as curl's.")
    var maxRedirects: Int?
    @Flag(name: .long, help: "Pretty-print a JSON body even when stdout is not a terminal.") var pretty = false
    @Option(
        name: [.customShort("T"), .long],
        help: "Send FILE as the body, streamed from disk (PUT unless a method is named; its type from --header 'Content-Type: …').")
    var uploadFile: String?
    @Flag(name: .long, help: "Print the body line by line as each line arrives (NDJSON, logs); the exit code as usual.") var lines = false
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Keep the write in this outbox directory until it is delivered: journaled (with an idempotency key, minted unless given) before the first attempt; a final answer prints and exits as without --outbox; a transient failure leaves it queued: 'queued ID' on stderr, exit 75 (courier outbox flush DIR sends it later).",
            valueName: "DIR"))
    var outbox: String?

    /// The method and the URL from the positional words, -X, and the body options.
    func target() throws -> (method: String, url: String) {
        let method: String?
        let url: String
        switch words.count {
        case 1: (method, url) = (nil, words[0])
        case 2: (method, url) = (words[0], words[1])
        default: throw ValidationError("give a URL, optionally after a method: courier request [METHOD] URL")
        }
        if let method, let requestMethod, method.uppercased() != requestMethod.uppercased() {
            throw ValidationError("two methods: \(method) and -X \(requestMethod)")
        }
        let chosen = (method ?? requestMethod)?.uppercased() ?? (uploadFile != nil ? "PUT" : data != nil || json != nil ? "POST" : "GET")
        guard !chosen.isEmpty, chosen.utf8.allSatisfy({ $0 >= 0x21 && $0 < 0x7F && !"()<>@,;:\\\"/[]?={} ".utf8.contains($0) }) else {
            throw ValidationError("'\(chosen)' is not an HTTP method")
        }
        return (chosen, url)
    }

    func run() async throws {
        var headers = try Self.headerFields(header)
        var extraQuery: [(String, String)] = []
        for item in query {
            // The first of = and @ decides, as in curl's --url-query: email=a@b.example is a value.
            guard let separator = item.firstIndex(where: { $0 == "=" || $0 == "@" }) else {
                throw ValidationError("--query '\(item)' must look like name=value or name@FILE")
            }
            let name = String(item[..<separator])
            let rest = String(item[item.index(after: separator)...])
            extraQuery.append((name, item[separator] == "=" ? rest : try SecretSource.read(rest, option: "--query \(name)@")))
        }
        let (method, url) = try target()
        guard !(location && noLocation) else { throw ValidationError("-L/--location and --no-location contradict each other") }
        guard timeout > 0, timeout <= 86_400 else { throw ValidationError("--timeout must be positive and at most 86400 seconds") }
        guard (1...10).contains(retry) else { throw ValidationError("--retry must be 1…10 attempts") }
        if let idempotencyKey {
            guard !idempotencyKey.isEmpty, !idempotencyKey.contains(where: { $0.isNewline || $0.asciiValue.map { $0 < 0x20 || $0 == 0x7F } == true })
            else {
                throw ValidationError("--idempotency-key: give auto or a value without control characters")
            }
            guard !headers.keys.contains(where: { $0.lowercased() == "idempotency-key" }) else {
                throw ValidationError("--idempotency-key and an Idempotency-Key header: give one")
            }
            headers["Idempotency-Key"] = idempotencyKey == "auto" ? NetworkClient.IdempotencyKeys().mint() : idempotencyKey
        }
        let endpoint: AdHocEndpoint
        do {
            let dataType = headers.first { $0.key.lowercased() == "content-type" }?.value
            if data != nil || uploadFile != nil, let name = headers.keys.first(where: { $0.lowercased() == "content-type" }) { headers[name] = nil }
            if let uploadFile, !FileManager.default.isReadableFile(atPath: uploadFile) {
                throw CLIError.usage("--upload-file: cannot read '\(uploadFile)'")
            }
            endpoint = try AdHocEndpoint(
                method: method, url: url, headers: headers, extraQuery: extraQuery, json: json,
                timeout: .milliseconds(Int(timeout * 1000)), data: data, dataType: dataType ?? "application/octet-stream",
                uploadFile: uploadFile.map { URL(fileURLWithPath: $0) })
        } catch let error as CLIError {
            throw ValidationError(error.description)
        }
        var configuration = NetworkClient.Configuration(
            transport: try transportOptions.make())
        // Also the outbox's replays' (an entry keeps no timeout of its own).
        configuration.timeout = .milliseconds(Int(timeout * 1000))
        if noLocation { configuration.redirects = .none }
        if let maxRedirects {
            guard maxRedirects >= 0 else { throw ValidationError("--max-redirs must be 0 or more") }
            configuration.limits.maxRedirects = maxRedirects
        }
        if allowInsecure, let host = endpoint.baseURL.host { configuration.insecureHostsAllowed.insert(host.lowercased()) }
        if retry > 1 {
            configuration.middlewares.append(RetryMiddleware(policy: RetryPolicy(maxAttempts: retry), logger: Self.stderrLogger("courier.retry")))
        }
        // The jar sees every attempt and every redirect hop; before the cache, which keys on Cookie.
        var jar: CookieJar?
        if let cookieJar {
            let loaded = CookieJar()
            do {
                try loaded.load(from: URL(fileURLWithPath: cookieJar))
            } catch {
                throw ValidationError("--cookie-jar: cannot read '\(cookieJar)' (\(error.log()))")
            }
            configuration.middlewares.append(CookieMiddleware(jar: loaded))
            jar = loaded
        }
        defer {
            if let jar, let cookieJar {
                do { try jar.save(to: URL(fileURLWithPath: cookieJar)) } catch {
                    Terminal.error("--cookie-jar: cookies not saved to '\(cookieJar)': \(error.log())")
                }
            }
        }
        var cacheMiddleware: CacheMiddleware?
        if let cache {
            do {
                let storage = try DiskCacheStorage(directory: URL(fileURLWithPath: cache))
                let middleware = CacheMiddleware(storage: storage)
                cacheMiddleware = middleware
                configuration.middlewares.append(middleware)
            } catch {
                throw ValidationError("--cache: cannot use '\(cache)' as a cache directory (\(error.localizedDescription))")
            }
        }
        // Next to the transport: it sees every exchange, as sent.
        if let har { configuration.middlewares.append(HARRecorder(file: URL(fileURLWithPath: har))) }
        // Each attempt carries a W3C traceparent: one trace id for the call, which the waterfall prints.
        if trace { configuration.tracing = TracingOptions() }
        let client = NetworkClient(configuration: configuration)
        let redactor = Redactor()
        if curl || curlWithSecrets {
            do {
                Terminal.output(try await client.curlCommand(for: endpoint, revealingSecrets: curlWithSecrets))
            } catch {
                throw ExitCodes.report(error)
            }
            return
        }
        let timeline = CallTimeline()
        defer { if trace { Terminal.error(Self.waterfall(of: timeline)) } }
        if let outbox {
            guard !stream, !lines else { throw ValidationError("--outbox keeps a write: not with --stream or --lines") }
            try await flushingCache(cacheMiddleware) {
                try await sendThroughOutbox(outbox, endpoint, client: trace ? client.recording(into: timeline) : client, redactor: redactor)
            }
            return
        }
        do {
            try await flushingCache(cacheMiddleware) {
                if trace {
                    try await send(endpoint, client: client.recording(into: timeline), redactor: redactor)
                } else {
                    try await send(endpoint, client: client, redactor: redactor)
                }
            }
        } catch let error as NetworkError {
            let target = endpoint.requestTarget ?? endpoint.path
            if verbose { Terminal.error("> \(endpoint.method.rawValue) \(redactor.url(endpoint.baseURL.absoluteString + target))") }
            throw ExitCodes.report(error)
        }
    }

    /// The timeline's waterfall and, when its attempts carried a `traceparent`, the call's trace id
    /// (to find the call in the server's traces).
    static func waterfall(of timeline: CallTimeline) -> String {
        let waterfall = timeline.waterfall()
        let traceParent = timeline.steps.lazy.compactMap { if case .traceContext(let value) = $0.kind { value } else { nil } }.first
        guard let traceID = traceParent?.split(separator: "-").dropFirst().first else { return waterfall }
        return waterfall + "\ntrace id \(traceID)"
    }

    /// Sends the call and prints its answer as the options ask.
    private func send(_ endpoint: AdHocEndpoint, client: NetworkClient, redactor: Redactor) async throws {
        do {
            if stream {
                for try await event in client.events(endpoint, options: EventStreamOptions(idleTimeout: .milliseconds(Int(timeout * 1000)))) {
                    Terminal.outputJSON(EventLine.render(event))
                }
                return
            }
            if lines {
                for try await line in client.lines(endpoint, options: ByteStreamOptions(idleTimeout: .milliseconds(Int(timeout * 1000)))) {
                    Terminal.output(line)
                }
                return
            }
            let response = try await client.response(endpoint, validatingStatus: false)
            try show(response, endpoint: endpoint, redactor: redactor)
        }
    }

    /// Prints `response` as the options ask; throws its status error (or exits with its code after `-i`).
    private func show(_ response: NetworkResponse, endpoint: AdHocEndpoint, redactor: Redactor) throws {
        if verbose { Terminal.error(VerboseLines.exchange(response, baseURL: endpoint.baseURL, redactor: redactor)) }
        if include {
            BodyPrinter.showHead(Self.head(response.head))
            BodyPrinter.show(response.body, contentType: response.headers[.contentType], pretty: pretty)
            if let error = statusError(of: response) {
                Terminal.error(redactor.text(error.log()))
                throw ExitCode(ExitCodes.code(for: error.family))
            }
            return
        }
        if let error = statusError(of: response) { throw error }
        BodyPrinter.show(response.body, contentType: response.headers[.contentType], pretty: pretty)
    }

    /// The write journaled in the outbox at `directory`, then sent (after any earlier write still
    /// queued there, in order; this command's credentials go on each). A final answer is shown as
    /// without an outbox; a write left queued says so and exits 75.
    private func sendThroughOutbox(_ directory: String, _ endpoint: AdHocEndpoint, client: NetworkClient, redactor: Redactor) async throws {
        let outbox: Outbox
        do {
            outbox = try Outbox(directory: URL(fileURLWithPath: directory), client: client)
        } catch {
            throw ValidationError("--outbox: \(error.description)")
        }
        let write: OutboxWrite
        do { write = try OutboxWrite(endpoint) } catch { throw ExitCodes.report(error) }
        let credentials = HTTPFields(write.headerFields.filter { write.secretHeaders.contains($0.name.canonicalName) })
        let outcome: OutboxOutcome
        do {
            outcome = try await outbox.send(write, headers: credentials)
        } catch {
            Terminal.error("--outbox: \(error.description)")
            throw ExitCode(ExitCodes.failure)
        }
        switch outcome {
        case .delivered(_, let response):
            do { try show(response, endpoint: endpoint, redactor: redactor) } catch let error as NetworkError { throw ExitCodes.report(error) }
        case .failed(let entry, let answer, let error):
            Terminal.error("failed \(entry.id) (kept in the outbox: courier outbox drop \(directory) \(entry.id))")
            guard let answer else { throw ExitCodes.report(error) }
            do { try show(answer, endpoint: endpoint, redactor: redactor) } catch let error as NetworkError { throw ExitCodes.report(error) }
        case .queued(let entry, let error):
            if let error { Terminal.error(redactor.text(error.log())) }
            Terminal.error("queued \(entry.id)")
            throw ExitCode(OutboxCommand.queuedExit)
        }
    }

    /// What the answer's status means here: with --no-location, a redirect is the answer asked
    /// for (exit 0, as curl without -L), not an error.
    func statusError(of response: NetworkResponse) -> NetworkError? {
        if noLocation, (300..<400).contains(response.statusCode) { return nil }
        return response.statusError
    }

    /// `--header` values as name → value, each `@FILE` read (``headerLines(_:)``); a line that is
    /// not `Name: value` with a valid name is a usage error.
    static func headerFields(_ values: [String]) throws -> [String: String] {
        var headers: [String: String] = [:]
        for line in try headerLines(values) {
            guard let colon = line.firstIndex(of: ":") else { throw ValidationError("--header '\(line)' must look like 'Name: value'") }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces)
            guard HTTPField.Name(name) != nil else { throw ValidationError("--header: '\(name)' is not a valid header name") }
            headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return headers
    }

    /// `--header` values with each `@FILE` replaced by the non-empty lines of FILE.
    static func headerLines(_ values: [String]) throws -> [String] {
        try values.flatMap { value throws -> [String] in
            guard value.hasPrefix("@") else { return [value] }
            let text = try SecretSource.readText(String(value.dropFirst()), option: "--header @")
            return text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }).map(String.init)
        }
    }

    /// The head as it came — `HTTP/1.1 <code> <reason>`, the header fields in their order and
    /// spelling, each line ending in CRLF, then the blank line — as `curl -i` prints it.
    /// (Courier's transports speak HTTP/1.1 here; the version is not kept past the transport.)
    static func head(_ head: HTTPResponse) -> String {
        var text = "HTTP/1.1 \(head.status.code) \(head.status.reasonPhrase)\r\n"
        for field in head.headerFields { text += "\(field.name.rawName): \(field.value)\r\n" }
        return text + "\r\n"
    }

    /// A logger writing `.notice` and up to stderr (the retry lines, escaped on a terminal: their
    /// reason can quote the server).
    static func stderrLogger(_ label: String) -> Logger {
        var logger = Logger(label: label) { StreamLogHandler(label: $0, stream: Terminal.StandardError(), metadataProvider: nil) }
        logger.logLevel = .notice
        return logger
    }
}

/// `{"id":…,"event":…,"data":…}` with the fields an event has, in that order.
enum EventLine {
    static func render(_ event: ServerEvent) -> String {
        var fields: [String] = []
        if let id = event.id { fields.append("\"id\":" + quoted(id)) }
        if let type = event.event { fields.append("\"event\":" + quoted(type)) }
        fields.append("\"data\":" + quoted(event.data))
        return "{" + fields.joined(separator: ",") + "}"
    }

    private static func quoted(_ text: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return (try? encoder.encode(text)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\""
    }
}
