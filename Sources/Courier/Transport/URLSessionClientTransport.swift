public import CourierTransportCore
public import Foundation
public import HTTPTypes
public import OpenAPIRuntime
import Synchronization

#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// A `ClientTransport` over Foundation's `URLSession` — the Apple-platform default; on Linux it
/// works through FoundationNetworking (libcurl).
///
/// Every call streams through a session delegate (`StreamingSession`), so the body limit holds
/// as bytes arrive: a declared `Content-Length` over `CallContext.maxResponseBytes` is refused
/// before a body byte is read, and the task is cancelled as soon as the count passes the limit.
/// The session follows no redirects (the client does, hop by hop) and keeps no cookies and no
/// cache of its own (Courier's `CacheMiddleware` is the cache). A request body over 1 MiB or of
/// unknown length is sent from a file: a file upload's own, or a temporary copy (0600, removed
/// when the task ends) of any other body — never collected in memory.
///
/// Bounds that depend on the platform: on Linux, libcurl inflates a gzip body before the delegate
/// sees a byte, so only the absolute byte count bounds a compressed body there (not a ratio);
/// and a 3xx body is read whole before the redirect callback, so the call's deadline bounds it.
/// The whole-call deadline is the client's (its capabilities leave out `.deadline`:
/// URLSession's timeout interval is an idle timeout, which a body dripping a byte a second never
/// trips).
public final class URLSessionClientTransport: CallTransport, Sendable {
    /// A transport over a session with an ephemeral configuration.
    public static let shared = URLSessionClientTransport(session: URLSession(configuration: .ephemeral))

    /// The session whose configuration calls use (timeouts, protocol classes, headers).
    public let session: URLSession

    /// The delegate-based session every call goes through, made on first use.
    private let streaming = Mutex<StreamingSession?>(nil)

    /// A transport with `session`'s configuration.
    public init(session: URLSession) {
        self.session = session
    }

    /// A transport with `session`'s configuration and `tls`, which must be the platform's
    /// defaults: FoundationNetworking on Linux has no server-trust or client-certificate
    /// challenge and no minimum-version setting, and this transport does not evaluate trust on
    /// Apple platforms either — so custom roots, pins, a client certificate or a minimum version
    /// fail here, when the transport is made, never silently at call time. Use
    /// `HTTPClientTransport` (`Settings.tls`) for them.
    public convenience init(session: URLSession, tls: TLSSettings) throws(TLSSettingsError) {
        guard tls.isDefault else {
            throw .unsupported(
                "the URLSession transport cannot apply custom trust roots, pins, client certificates or a minimum TLS version; use HTTPClientTransport's Settings.tls"
            )
        }
        self.init(session: session)
    }

    /// URLSession's request timeout is an idle timeout (no bytes for that long), so
    /// `CallContext.idleTimeout` is enforced by URLSession itself; the whole-call deadline is the client's.
    public var capabilities: TransportCapabilities { [.idleTimeout] }

    public func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        try await send(request, body: body, baseURL: baseURL, context: CallContext.current ?? CallContext())
    }

    package func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, context: CallContext) async throws -> (HTTPResponse, HTTPBody?) {
        var urlRequest = try self.urlRequest(request, baseURL: baseURL, deadline: context.deadline)
        if let idle = context.idleTimeout { urlRequest.timeoutInterval = idle.seconds }
        var upload: RequestBodyFile?
        if let body {
            if let file = context.requestFile?.of(body) {
                upload = RequestBodyFile(path: file.path, temporary: false, progress: file.progress)
            } else if case .known(let length) = body.length, length <= Self.inMemoryBodyLimit {
                urlRequest.httpBody = try await Data(collecting: body, upTo: Self.inMemoryBodyLimit)
            } else {
                upload = try await RequestBodyFile.spool(body)
            }
        }
        if Task.isCancelled {
            upload?.remove()
            throw CancellationError()
        }
        let streaming = self.streaming.withLock { streaming in
            if let existing = streaming { return existing }
            let made = StreamingSession(configuration: session.configuration)
            streaming = made
            return made
        }
        // A stream's body has no total limit (an event stream may run for hours); its events do.
        // Nor does the delegate ever wait for a slow reader: FoundationNetworking runs every
        // session's libcurl work on queues that share one target, which task creation waits for
        // (`workQueue.sync`), so a delegate that waited — tried here, with a session per stream and a
        // byte budget — stalled every URLSession call in the process behind one slow reader, and the
        // cooperative threads creating tasks with it (a deadlock under parallel tests). A reader
        // slower than the network therefore lets the body queue up in memory on this transport;
        // the AsyncHTTPClient transport holds the server back instead (ByteStreamTests).
        let limit = context.streamsResponse ? nil : context.maxResponseBytes
        let (http, bytes) = try await streaming.start(urlRequest, uploading: upload, limit: limit)
        // A HEAD answer, a 204 or a 304 declares a length it has no body for.
        let bodiless = request.method == .head || http.statusCode == 204 || http.statusCode == 304
        let length = http.expectedContentLength >= 0 && !bodiless ? HTTPBody.Length.known(http.expectedContentLength) : .unknown
        return (Self.head(http), HTTPBody(bytes, length: length, iterationBehavior: .single))
    }

    /// Request bodies up to this size are sent from memory; larger ones, and those of unknown
    /// length, from a file: a file upload's own file (``HTTPTask/uploadFile(_:contentType:)``),
    /// anything else spooled to a temporary file first — FoundationNetworking has no bound
    /// streams for a body, but it streams a file from disk (`uploadTask(with:fromFile:)`).
    static let inMemoryBodyLimit = 1 << 20

    /// `request` as a `URLRequest`; its timeout (idle, in URLSession's meaning) the deadline's remainder.
    private func urlRequest(_ request: HTTPRequest, baseURL: URL, deadline: ContinuousClock.Instant?) throws -> URLRequest {
        guard let url = URL(string: URLJoin.join(baseURL, request.path ?? "/")) else {
            throw NetworkError.invalidURL
        }
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = request.method.rawValue
        urlRequest.httpShouldHandleCookies = false
        for field in request.headerFields where field.name != .cookie {
            urlRequest.addValue(field.value, forHTTPHeaderField: field.name.rawName)
        }
        // Cookie pairs are joined with "; " (RFC 6265 §5.4); URLRequest would join fields with ",".
        let cookies = request.headerFields[values: .cookie]
        if !cookies.isEmpty { urlRequest.setValue(cookies.joined(separator: "; "), forHTTPHeaderField: "Cookie") }
        if let deadline {
            urlRequest.timeoutInterval = max(0.001, ContinuousClock.now.duration(to: deadline).seconds)
        }
        return urlRequest
    }

    /// The response head of `http`.
    private static func head(_ http: HTTPURLResponse) -> HTTPResponse {
        var fields = HTTPFields()
        for (key, value) in http.allHeaderFields {
            guard let key = key as? String, let name = HTTPField.Name(key), let value = value as? String else { continue }
            // URLSession joined repeated Set-Cookie fields with ", ": a cookie jar needs them apart.
            if name == .setCookie {
                for field in SetCookieFieldSplitter.split(value) { fields.append(HTTPField(name: name, value: field)) }
                continue
            }
            fields.append(HTTPField(name: name, value: value))
        }
        return HTTPResponse(status: .init(code: http.statusCode), headerFields: fields)
    }
}
