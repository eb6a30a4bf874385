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
/// It honours ``CallContext/deadline`` through the request's timeout interval.
public final class URLSessionClientTransport: ClientTransport, BufferingTransport, DeadlineAwareTransport, Sendable {
    /// A transport over a session with an ephemeral configuration.
    public static let shared = URLSessionClientTransport(session: URLSession(configuration: .ephemeral))

    /// The session in use.
    public let session: URLSession
    /// Redirects followed before `URLError(.httpTooManyRedirects)` (Linux's URLSession has no limit).
    public let maxRedirects: Int

    /// A transport over `session`.
    public init(session: URLSession, maxRedirects: Int = 10) {
        self.session = session
        self.maxRedirects = maxRedirects
    }

    public func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        let (head, data) = try await sendBuffered(request, body: body, baseURL: baseURL)
        return (head, HTTPBody(data))
    }

    func sendBuffered(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL) async throws -> (HTTPResponse, Data) {
        guard let url = URL(string: HTTPClientTransport.join(baseURL, request.path ?? "/")) else {
            throw NetworkError.invalidURL
        }
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = request.method.rawValue
        for field in request.headerFields {
            urlRequest.addValue(field.value, forHTTPHeaderField: field.name.rawName)
        }
        if let deadline = CallContext.current?.deadline {
            let remaining = ContinuousClock.now.duration(to: deadline)
            let (seconds, attoseconds) = remaining.components
            urlRequest.timeoutInterval = max(0.001, Double(seconds) + Double(attoseconds) / 1e18)
        }
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
        var fields = HTTPFields()
        for (key, value) in http.allHeaderFields {
            guard let key = key as? String, let name = HTTPField.Name(key), let value = value as? String else { continue }
            fields.append(HTTPField(name: name, value: value))
        }
        let head = HTTPResponse(status: .init(code: http.statusCode), headerFields: fields)
        return (head, data)
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
