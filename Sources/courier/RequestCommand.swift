import ArgumentParser
import Courier
import Foundation
import HTTPTypes

/// `courier request METHOD URL`: send one request and show the answer or the error, explained.
struct RequestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "request",
        abstract: "Send one HTTP request through Courier and print the answer.",
        discussion: """
            Prints the body (JSON pretty-printed) on success. On failure prints the error's log \
            line and its user message to stderr.
            \(ExitCodes.help)
            Example: courier request GET 'http://127.0.0.1:8080/echo?q=서울' --query 'tag=a&b'
            """
    )

    @Argument(help: "HTTP method: GET, POST, PUT, PATCH, DELETE …") var method: String
    @Argument(help: "The URL (http:// only to loopback unless --allow-insecure).") var url: String
    @Option(name: .long, help: "A header 'Name: value' (repeatable).") var header: [String] = []
    @Option(name: .long, help: "A query item name=value, encoded for you (repeatable).") var query: [String] = []
    @Option(name: .long, help: "A JSON body.") var json: String?
    @Option(name: .long, help: "Seconds before giving up (default 30).") var timeout: Double = 30
    @Flag(name: .long, help: "Also print the request and response lines and headers (secrets redacted).") var verbose = false
    @Flag(name: .long, help: "Allow plain http:// to a non-loopback host.") var allowInsecure = false
    @Option(name: .long, help: "Transport: ahc (AsyncHTTPClient, default) or urlsession.") var transport: String = "ahc"

    func run() async throws {
        var headers: [String: String] = [:]
        for line in header {
            guard let colon = line.firstIndex(of: ":") else { throw ValidationError("--header '\(line)' must look like 'Name: value'") }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces)
            guard HTTPField.Name(name) != nil else { throw ValidationError("--header: '\(name)' is not a valid header name") }
            headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var extraQuery: [(String, String)] = []
        for item in query {
            guard let equals = item.firstIndex(of: "=") else { throw ValidationError("--query '\(item)' must look like name=value") }
            extraQuery.append((String(item[..<equals]), String(item[item.index(after: equals)...])))
        }
        guard timeout > 0 else { throw ValidationError("--timeout must be positive") }
        let endpoint: AdHocEndpoint
        do {
            endpoint = try AdHocEndpoint(method: method, url: url, headers: headers, extraQuery: extraQuery, json: json, timeout: .milliseconds(Int(timeout * 1000)))
        } catch let error as CLIError {
            throw ValidationError(error.description)
        }
        var configuration = NetworkClient.Configuration(transport: transport == "urlsession" ? URLSessionClientTransport.shared : HTTPClientTransport.shared)
        if allowInsecure, let host = endpoint.baseURL.host { configuration.insecureHostsAllowed.insert(host.lowercased()) }
        let client = NetworkClient(configuration: configuration)
        let redactor = Redactor()
        do {
            let response = try await client.response(endpoint.accepting(.acceptAll))
            if verbose { Terminal.error(VerboseLines.exchange(response, baseURL: endpoint.baseURL, redactor: redactor)) }
            if let error = StatusMapping.standard.error(for: response.head, body: response.body) {
                throw error
            }
            Terminal.output(BodyPrinter.render(response.body, contentType: response.headers[.contentType]))
        } catch let error as NetworkError {
            if verbose { Terminal.error("> \(endpoint.method.rawValue) \(redactor.url(endpoint.baseURL.absoluteString + endpoint.path))") }
            Terminal.error(redactor.text(error.log()))
            Terminal.error(error.userMessage(in: .preferred))
            throw ExitCode(ExitCodes.code(for: error.family))
        }
    }
}

extension Endpoint {
    /// This endpoint with another status mapping (the CLI prints error bodies too).
    func accepting(_ mapping: StatusMapping) -> some Endpoint { RemappedEndpoint(base: self, statusMapping: mapping) }
}

/// An endpoint with its status mapping replaced.
struct RemappedEndpoint<Base: Endpoint>: Endpoint {
    let base: Base
    let statusMapping: StatusMapping
    var baseURL: URL { base.baseURL }
    var path: String { base.path }
    var pathSegments: [String] { base.pathSegments }
    var method: HTTPMethod { base.method }
    var task: HTTPTask { base.task }
    var headers: [String: String]? { base.headers }
    var timeout: Duration? { base.timeout }
    var secrets: [String] { base.secrets }
}
