public import Foundation
public import HTTPTypes
public import Logging
public import OpenAPIRuntime

/// Logs each request and its answer through swift-log, with secrets redacted in every line
/// (see ``Redactor``); works for Courier endpoints and OpenAPI-generated clients alike.
///
/// ```swift
/// let client = NetworkClient(transport: HTTPClientTransport.shared,
///                            middlewares: [LoggingMiddleware(logger: Logger(label: "api"))])
/// ```
public struct LoggingMiddleware: ClientMiddleware, CallMiddleware {
    /// Where lines go.
    public var logger: Logger
    /// Level for the request/response lines.
    public var level: Logger.Level
    /// Also log header fields (redacted).
    public var logHeaders: Bool
    /// Extra redaction rules; secrets from the endpoint (`CallContext.secrets`) are added per call.
    public var redactor: Redactor

    /// Creates the middleware.
    public init(logger: Logger, level: Logger.Level = .info, logHeaders: Bool = true, redactor: Redactor = Redactor()) {
        self.logger = logger
        self.level = level
        self.logHeaders = logHeaders
        self.redactor = redactor
    }

    public func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        try await intercept(request, body: body, baseURL: baseURL, operationID: operationID, context: CallContext.current, next: next)
    }

    package func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String,
        context: CallContext?,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var redactor = self.redactor
        redactor.secrets += context?.secrets.filter { $0.count >= 3 } ?? []
        let target = redactor.url(URLJoin.join(baseURL, request.path ?? "/"))
        var metadata: Logger.Metadata = ["operation": "\(operationID)"]
        if logHeaders { metadata["headers"] = "\(redactor.headers(request.headerFields))" }
        logger.log(level: level, "→ \(request.method.rawValue) \(target)", metadata: metadata)
        let start = ContinuousClock.now
        do {
            let (response, responseBody) = try await next(request, body, baseURL)
            let elapsed = ContinuousClock.now - start
            var responseMetadata: Logger.Metadata = ["elapsed": "\(elapsed.formatted(.units(allowed: [.milliseconds])))"]
            if logHeaders { responseMetadata["headers"] = "\(redactor.headers(response.headerFields))" }
            logger.log(level: level, "← \(response.status.code) \(request.method.rawValue) \(target)", metadata: responseMetadata)
            return (response, responseBody)
        } catch {
            let mapped = NetworkError(error)
            logger.log(
                level: mapped == .taskCancelled ? level : .warning,
                "✕ \(request.method.rawValue) \(target): \(redactor.text(mapped.logDescription))")
            throw error
        }
    }
}
