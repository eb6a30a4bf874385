public import Courier
import CourierTransportCore
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Synchronization

/// A curl command line that sends a request as a `NetworkClient` would — after its middlewares
/// shaped it (a saved bearer token, the jar's cookies, an idempotency key) — without sending it.
///
/// ```swift
/// print(try await client.curlCommand(for: UserAPI.get(id: 1)))
/// // curl -X GET 'https://api.example.com/users/1' -H 'Authorization: <redacted>' -H 'Accept: application/json'
/// ```
///
/// Credentials (`Authorization`, `Cookie`, API-key fields and query items, the endpoint's
/// `secrets`) are redacted unless `revealingSecrets` is true: a command with them can be pasted
/// into a shell and runs; one without them shows what would be sent. A body is given as it is
/// (text in single quotes, a file as `--data-binary @FILE`); a binary body held in memory is named
/// by its size only. The first hop is shown: the client follows redirects itself.
extension NetworkClient {
    /// The curl command that sends `endpoint` as this client would, nothing sent.
    public func curlCommand(for endpoint: some Endpoint, revealingSecrets: Bool = false) async throws(NetworkError) -> String {
        let call = try call(for: endpoint)
        var capturing = configuration
        let capture = CapturingTransport()
        capturing.transport = capture
        capturing.redirects = .none
        capturing.observers = []
        do {
            _ = try await CallPipeline(capturing).collect(call, context: call.context(maxResponseBytes: configuration.maxResponseBytes))
        } catch is CapturingTransport.Captured {
        } catch {
            if Task.isCancelled { throw .taskCancelled }
            // A middleware that answered without the network (a fresh cache hit) sends nothing to show.
            throw NetworkError(error)
        }
        guard let captured = capture.captured else { throw .invalidResponse }
        return CurlCommand.render(captured, secrets: revealingSecrets ? nil : call.secrets)
    }
}

/// The rendering of a captured request as a curl command line.
enum CurlCommand {
    static func render(_ captured: CapturingTransport.Request, secrets: [String]?) -> String {
        let redactor = secrets.map { Redactor(secrets: $0) }
        let url = URLJoin.join(captured.baseURL, captured.request.path ?? "/")
        var words = ["curl", "-X", captured.request.method.rawValue, quote(redactor?.url(url) ?? url)]
        for field in captured.request.headerFields {
            let value = redactor?.header(field.name.rawName, field.value) ?? field.value
            words += ["-H", quote("\(field.name.rawName): \(value)")]
        }
        switch captured.body {
        case .none: break
        case .file(let path): words += ["--data-binary", quote("@" + path)]
        case .text(let text): words += ["--data-binary", quote(redactor?.text(text) ?? text)]
        case .binary(let count): words += ["--data-binary", quote("@BODY"), "# a binary body of \(count) bytes, not shown"]
        }
        return words.joined(separator: " ")
    }

    /// `word` in single quotes for a POSIX shell (a `'` inside as `'\''`).
    static func quote(_ word: String) -> String {
        "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

/// A transport that keeps the request it is given and sends nothing.
final class CapturingTransport: CallTransport, Sendable {
    /// What the transport was given.
    struct Request: Sendable {
        enum Body: Sendable {
            case none
            case file(String)
            case text(String)
            case binary(Int)
        }

        let request: HTTPRequest
        let baseURL: URL
        let body: Body
    }

    /// Thrown instead of sending: the pipeline stops there.
    struct Captured: Error {}

    private let state = Mutex<Request?>(nil)
    var captured: Request? { state.withLock { $0 } }

    /// The client's deadline and idle timeout apply as they would to the real transport.
    var capabilities: TransportCapabilities { [] }

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        try await send(request, body: body, baseURL: baseURL, context: CallContext.current ?? CallContext())
    }

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, context: CallContext) async throws -> (HTTPResponse, HTTPBody?) {
        var shown = Request.Body.none
        if let body {
            if let file = context.requestFile?.of(body) {
                shown = .file(file.path)
            } else {
                let data = try await BodyCollector.collect(body, limit: 1 << 20)
                shown = String(data: data, encoding: .utf8).map { .text($0) } ?? .binary(data.count)
            }
        }
        state.withLock { $0 = Request(request: request, baseURL: baseURL, body: shown) }
        throw Captured()
    }
}
