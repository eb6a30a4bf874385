import ArgumentParser
import Courier
import Foundation
import HTTPTypes
import Logging

/// `courier request METHOD URL`: send one request and show the answer or the error, explained.
struct RequestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "request",
        abstract: "Send one HTTP request through Courier and print the answer.",
        discussion: """
            Prints the body (JSON pretty-printed) on success. On failure prints the error's log \
            line and its user message to stderr. On a terminal, control characters and escape \
            sequences from the server are shown, not obeyed (ESC as ␛), and a binary body is not \
            printed (redirect stdout to a file to save it); piped, nothing is escaped and a binary \
            body goes out byte for byte. With --stream, prints each server-sent event as \
            it arrives, one compact JSON object per line ({"id":…,"event":…,"data":…}, a field \
            absent when the event has none). With --retry N, up to N attempts (backoff with \
            jitter, Retry-After honoured; idempotent methods only), each retry logged to stderr.
            \(ExitCodes.help)
            Example: courier request GET 'http://127.0.0.1:8080/echo?q=서울' --query 'tag=a&b'
            Example: courier request GET 'http://127.0.0.1:8080/sse/events?count=3' --stream
            Example: courier request GET 'http://127.0.0.1:8080/flaky/demo?failures=2' --retry 3
            With --cache DIR, responses are kept in an HTTP cache (RFC 9111) on disk in DIR, shared \
            by every process that uses the same DIR; --include prints the status line and header \
            fields first (a cached answer shows its Age).
            Example: courier request GET 'http://127.0.0.1:8080/cache/demo?cc=max-age%3D60' --cache /tmp/cc --include
            Example: courier request POST http://127.0.0.1:8080/echo --data 'a=1' --header 'Content-Type: text/plain'
            Secrets stay out of `ps` in files: --header @FILE reads header lines ('Authorization: Bearer …') \
            from FILE, --query name@FILE the value of one query item.
            Example: courier request GET http://127.0.0.1:8080/echo --header @headers.txt --query serviceKey@key.txt
            """
    )

    @Argument(help: "HTTP method: GET, POST, PUT, PATCH, DELETE …") var method: String
    @Argument(help: "The URL (http:// only to loopback unless --allow-insecure).") var url: String
    @Option(name: .long, help: "A header 'Name: value', or @FILE for the headers in FILE, one a line, as curl -H @FILE (repeatable; a token is safer in a file than in `ps`).") var header: [String] = []
    @Option(name: .long, help: "A query item name=value, or name@FILE for the value in FILE (one line), encoded for you (repeatable).") var query: [String] = []
    @Option(name: .long, help: "A JSON body.") var json: String?
    @Option(name: .long, help: "Seconds before giving up (default 30); with --stream, seconds of silence.") var timeout: Double = 30
    @Flag(name: .long, help: "Also print the request and response lines and headers (secrets redacted).") var verbose = false
    @Flag(name: .long, help: "Allow plain http:// to a non-loopback host.") var allowInsecure = false
    @Option(name: .long, help: "Transport: ahc (AsyncHTTPClient, default) or urlsession.") var transport: String = "ahc"
    @Option(name: .long, help: "Attempts in all, through the retry middleware (e.g. 3); default 1.") var retry: Int = 1
    @Flag(name: .long, help: "Read the answer as server-sent events; print each as a JSON line as it arrives.") var stream = false
    @Option(name: .long, help: "Keep responses in an HTTP cache on disk in this directory (shared by processes).") var cache: String?
    @Option(name: .long, help: "A raw body; its type from --header 'Content-Type: …' (default application/octet-stream).") var data: String?
    @Flag(name: .long, help: "Print the status line and the header fields before the body, as curl -i does.") var include = false

    func run() async throws {
        var headers: [String: String] = [:]
        for line in try Self.headerLines(header) {
            guard let colon = line.firstIndex(of: ":") else { throw ValidationError("--header '\(line)' must look like 'Name: value'") }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces)
            guard HTTPField.Name(name) != nil else { throw ValidationError("--header: '\(name)' is not a valid header name") }
            headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var extraQuery: [(String, String)] = []
        for item in query {
            // The first of = and @ decides, as in curl's --url-query: email=a@b.example is a value.
            guard let separator = item.firstIndex(where: { $0 == "=" || $0 == "@" }) else {
                throw ValidationError("--query '\(item)' must look like name=value or name@FILE")
            }
            let name = String(item[..<separator]), rest = String(item[item.index(after: separator)...])
            extraQuery.append((name, item[separator] == "=" ? rest : try SecretSource.read(rest, option: "--query \(name)@")))
        }
        guard timeout > 0, timeout <= 86_400 else { throw ValidationError("--timeout must be positive and at most 86400 seconds") }
        guard (1...10).contains(retry) else { throw ValidationError("--retry must be 1…10 attempts") }
        let endpoint: AdHocEndpoint
        do {
            let dataType = headers.first { $0.key.lowercased() == "content-type" }?.value
            if data != nil, let name = headers.keys.first(where: { $0.lowercased() == "content-type" }) { headers[name] = nil }
            endpoint = try AdHocEndpoint(method: method, url: url, headers: headers, extraQuery: extraQuery, json: json,
                                         timeout: .milliseconds(Int(timeout * 1000)), data: data, dataType: dataType ?? "application/octet-stream")
        } catch let error as CLIError {
            throw ValidationError(error.description)
        }
        var configuration = NetworkClient.Configuration(transport: transport == "urlsession" ? URLSessionClientTransport.shared : HTTPClientTransport.shared)
        if allowInsecure, let host = endpoint.baseURL.host { configuration.insecureHostsAllowed.insert(host.lowercased()) }
        if retry > 1 {
            configuration.middlewares.append(RetryMiddleware(policy: RetryPolicy(maxAttempts: retry), logger: Self.stderrLogger("courier.retry")))
        }
        if let cache {
            do {
                let storage = try DiskCacheStorage(directory: URL(fileURLWithPath: cache))
                configuration.middlewares.append(CacheMiddleware(storage: storage))
            } catch {
                throw ValidationError("--cache: cannot use '\(cache)' as a cache directory (\(error.localizedDescription))")
            }
        }
        let client = NetworkClient(configuration: configuration)
        let redactor = Redactor()
        do {
            if stream {
                for try await event in client.events(endpoint, options: EventStreamOptions(idleTimeout: .milliseconds(Int(timeout * 1000)))) {
                    Terminal.outputJSON(EventLine.render(event))
                }
                return
            }
            let response = try await client.answer(endpoint)
            if verbose { Terminal.error(VerboseLines.exchange(response, baseURL: endpoint.baseURL, redactor: redactor)) }
            if include {
                Terminal.output(Self.head(response.head))
                Terminal.output("")
                BodyPrinter.show(response.body, contentType: response.headers[.contentType])
                if let error = response.statusError {
                    Terminal.error(redactor.text(error.log()))
                    throw ExitCode(ExitCodes.code(for: error.family))
                }
                return
            }
            if let error = response.statusError { throw error }
            BodyPrinter.show(response.body, contentType: response.headers[.contentType])
        } catch let error as NetworkError {
            if verbose { Terminal.error("> \(endpoint.method.rawValue) \(redactor.url(endpoint.baseURL.absoluteString + endpoint.path))") }
            Terminal.error(redactor.text(error.log()))
            Terminal.error(error.userMessage(in: .preferred))
            throw ExitCode(ExitCodes.code(for: error.family))
        }
    }

    /// `--header` values with each `@FILE` replaced by the non-empty lines of FILE.
    static func headerLines(_ values: [String]) throws -> [String] {
        try values.flatMap { value throws -> [String] in
            guard value.hasPrefix("@") else { return [value] }
            let text = try SecretSource.readText(String(value.dropFirst()), option: "--header @")
            return text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }).map(String.init)
        }
    }

    /// The status line and header fields as `curl -i` prints them.
    static func head(_ head: HTTPResponse) -> String {
        var lines = ["HTTP/1.1 \(head.status.code) \(head.status.reasonPhrase)"]
        for field in head.headerFields { lines.append("\(field.name.rawName): \(field.value)") }
        return lines.joined(separator: "\n")
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
