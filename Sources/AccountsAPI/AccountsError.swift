public import Courier
public import Foundation

/// What an ``Accounts`` call throws: the server's own words when it answered with the
/// wrapper, otherwise the `NetworkError` underneath.
///
/// ```swift
/// do {
///     try await accounts.register(request)
/// } catch .server(409, _, let message, _) {
///     show(message)                       // "이미 존재하는 사용자명"
/// } catch {
///     show(error.localizedDescription)
/// }
/// ```
public enum AccountsError: Error, Sendable, Equatable {
    /// The server answered non-2xx with the wrapper: its status, `code`, `message`, and the
    /// `NetworkError` the status means (`unauthorized`, `notFound`, `rateLimited(retryAfter:)`,
    /// `remoteError(status, message)` …).
    case server(status: Int, code: String?, message: String, error: NetworkError)
    /// The request failed before a wrapped answer came back (transport, decoding, cancellation,
    /// or an error answer that is not the wrapper).
    case network(NetworkError)
    /// The call needs a login and there is none for this server.
    case notLoggedIn
    /// The credentials file could not be read or written.
    case credentials(String)

    /// The HTTP status, when there was an answer.
    public var statusCode: Int? {
        switch self {
        case .server(let status, _, _, _): status
        case .network(let error): error.statusCode
        case .notLoggedIn, .credentials: nil
        }
    }

    /// The `NetworkError` underneath, when there is one.
    public var networkError: NetworkError? {
        switch self {
        case .server(_, _, _, let error), .network(let error): error
        case .notLoggedIn, .credentials: nil
        }
    }

    /// The server's `message`, when it sent one.
    public var serverMessage: String? {
        if case .server(_, _, let message, _) = self { return message }
        return nil
    }
}

extension AccountsError: LocalizedError {
    /// The server's message, or the user message of the cause.
    public var errorDescription: String? { userMessage(in: .preferred) }

    /// The message to show in `language` (the server's message is shown as it was sent).
    public func userMessage(in language: NetworkError.MessageLanguage) -> String {
        switch (self, language) {
        case (.server(_, _, let message, _), _): message
        case (.network(let error), _): error.userMessage(in: language)
        case (.notLoggedIn, .korean): "로그인이 필요해요"
        case (.notLoggedIn, .english): "You are not logged in."
        case (.credentials(let reason), .korean): "로그인 정보를 저장하거나 읽지 못했어요: \(reason)"
        case (.credentials(let reason), .english): "Couldn't read or save the login: \(reason)"
        }
    }
}

extension AccountsError: CustomStringConvertible {
    /// A one-line developer description, e.g. `server(409 CONFLICT "이미 존재하는 사용자명")`.
    public var description: String {
        switch self {
        case .server(let status, let code, let message, _): "server(\(status) \(code ?? "-") \"\(message)\")"
        case .network(let error): "network(\(error))"
        case .notLoggedIn: "notLoggedIn"
        case .credentials(let reason): "credentials(\(reason))"
        }
    }
}
