import Foundation
import HTTPTypes
import OpenAPIRuntime
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A `ClientTransport` over Foundation's `URLSession` — the Apple-platform default; on Linux it
/// works through FoundationNetworking (libcurl), which buffers whole bodies.
///
/// It honours `CallContext.deadline` through the request's timeout interval, and streams
/// answers that `CallContext.streamsResponse` asks for through a delegate-based session.
public final class URLSessionClientTransport: ClientTransport, BufferingTransport, DeadlineAwareTransport, IdleTimeoutAwareTransport, Sendable {
    /// A transport over a session with an ephemeral configuration.
    public static let shared = URLSessionClientTransport(session: URLSession(configuration: .ephemeral))

    /// The session in use.
    public let session: URLSession
    /// Redirects followed before `URLError(.httpTooManyRedirects)` (Linux's URLSession has no limit).
    public let maxRedirects: Int

    /// A session for streamed answers, with `session`'s configuration, made on first use.
    private let streaming = Mutex<StreamingSession?>(nil)

    /// A transport over `session`.
    public init(session: URLSession, maxRedirects: Int = 10) {
        self.session = session
        self.maxRedirects = maxRedirects
    }

    public func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        if CallContext.current?.streamsResponse == true {
            return try await stream(request, body: body, baseURL: baseURL)
        }
        let (head, data) = try await sendBuffered(request, body: body, baseURL: baseURL)
        return (head, HTTPBody(data))
    }

    /// Streamed answers: URLSession's request timeout is an idle timeout (no bytes for that
    /// long), so `CallContext.idleTimeout` is enforced by URLSession itself.
    public var enforcesIdleTimeout: Bool { true }

    /// One request whose body is handed over as it arrives (`CallContext.streamsResponse`),
    /// silent for at most `CallContext.idleTimeout` (the deadline's remainder when there is none).
    private func stream(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL) async throws -> (HTTPResponse, HTTPBody?) {
        var urlRequest = try self.urlRequest(request, baseURL: baseURL)
        if let idle = CallContext.current?.idleTimeout { urlRequest.timeoutInterval = Self.seconds(idle) }
        if let body { urlRequest.httpBody = try await Data(collecting: body, upTo: 64 * 1024 * 1024) }
        try Task.checkCancellation()
        let streaming = self.streaming.withLock { streaming in
            if let existing = streaming { return existing }
            let made = StreamingSession(configuration: session.configuration, maxRedirects: maxRedirects)
            streaming = made
            return made
        }
        let (http, bytes) = try await streaming.start(urlRequest)
        let length = http.expectedContentLength >= 0 ? HTTPBody.Length.known(http.expectedContentLength) : .unknown
        return (Self.head(http), HTTPBody(bytes, length: length, iterationBehavior: .single))
    }

    /// `request` as a `URLRequest`, its timeout the deadline's remainder.
    private func urlRequest(_ request: HTTPRequest, baseURL: URL) throws -> URLRequest {
        guard let url = URL(string: URLJoin.join(baseURL, request.path ?? "/")) else {
            throw NetworkError.invalidURL
        }
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = request.method.rawValue
        for field in request.headerFields {
            urlRequest.addValue(field.value, forHTTPHeaderField: field.name.rawName)
        }
        if let deadline = CallContext.current?.deadline {
            urlRequest.timeoutInterval = max(0.001, Self.seconds(ContinuousClock.now.duration(to: deadline)))
        }
        return urlRequest
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// The response head of `http`.
    private static func head(_ http: HTTPURLResponse) -> HTTPResponse {
        var fields = HTTPFields()
        for (key, value) in http.allHeaderFields {
            guard let key = key as? String, let name = HTTPField.Name(key), let value = value as? String else { continue }
            fields.append(HTTPField(name: name, value: value))
        }
        return HTTPResponse(status: .init(code: http.statusCode), headerFields: fields)
    }

    package func sendBuffered(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL) async throws -> (HTTPResponse, Data) {
        let urlRequest = try self.urlRequest(request, baseURL: baseURL)
        try Task.checkCancellation()
        let data: Data
        let urlResponse: URLResponse
        let redirects = RedirectLimiter(maximum: maxRedirects)
        do {
            if let body {
                let bytes = try await Data(collecting: body, upTo: .max)
                (data, urlResponse) = try await session.upload(for: urlRequest, from: bytes, delegate: redirects)
            } else {
                (data, urlResponse) = try await session.data(for: urlRequest, delegate: redirects)
            }
        } catch let error as URLError where error.code == .unknown {
            // libcurl's "partial file" (the connection closed before the declared length) arrives
            // as an unknown error; it means the same as URLSession's networkConnectionLost on Apple.
            throw URLError(.networkConnectionLost, userInfo: error.userInfo)
        }
        if redirects.exceeded { throw URLError(.httpTooManyRedirects) }
        guard let http = urlResponse as? HTTPURLResponse else { throw NetworkError.invalidResponse }
        return (Self.head(http), data)
    }
}

/// Counts a task's redirects and stops following them past the limit.
final class RedirectLimiter: NSObject, URLSessionTaskDelegate, Sendable {
    private let state = Mutex((count: 0, exceeded: false))
    let maximum: Int

    init(maximum: Int) { self.maximum = maximum }

    var exceeded: Bool { state.withLock { $0.exceeded } }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        let allow = state.withLock { state -> Bool in
            state.count += 1
            if state.count > maximum { state.exceeded = true }
            return !state.exceeded
        }
        completionHandler(allow ? request : nil)
    }
}
