public import Courier
public import Foundation

/// Why a Seoul Open Data call or load failed. The key is never part of any case or message.
///
/// ```swift
/// do { programs = try await seoul.allPrograms() }
/// catch .invalidAPIKey { askForKey() }
/// catch { show(error.localizedDescription) }
/// ```
public indirect enum SeoulAPIError: Error, Sendable, Equatable {
    /// `INFO-100`: the key was rejected.
    case invalidAPIKey
    /// An `ERROR-…` result (HTTP 200 with an error body), with the service's Korean message,
    /// e.g. `ERROR-336` "데이터요청은 한번에 최대 1000건을 넘을 수 없습니다".
    case service(code: String, message: String)
    /// The answer was neither the service's JSON nor its XML error (a short excerpt).
    case unexpectedAnswer(String)
    /// The request itself failed (transport, HTTP status, cancellation).
    case network(NetworkError)
    /// One page of a full load still failed after retries, so the load failed as a whole.
    case pageFailed(page: Int, pages: Int, firstRow: Int, lastRow: Int, reason: SeoulAPIError)

    /// The `NetworkError` this error corresponds to (for exit codes and coarse handling).
    public var networkError: NetworkError {
        switch self {
        case .invalidAPIKey: .invalidAPIKey
        case .service(let code, let message):
            code.hasPrefix("ERROR-5") || code.hasPrefix("ERROR-6") ? .serverError(500) : .remoteError(400, "\(code) \(message)")
        case .unexpectedAnswer: .invalidResponse
        case .network(let error): error
        case .pageFailed(_, _, _, _, let reason): reason.networkError
        }
    }

    /// True when the load was cancelled (a newer refresh, or the caller went away).
    public var isCancellation: Bool { networkError == .taskCancelled }

    /// Wraps a client error, dropping any URL a transport attached (it would hold the key).
    init(_ error: NetworkError) {
        if case .networkError(let urlError) = error {
            self = .network(.networkError(URLError(urlError.code)))
        } else {
            self = .network(error)
        }
    }
}

extension SeoulAPIError: LocalizedError, CustomStringConvertible {
    /// A message for people, in English with the service's Korean message where there is one.
    public var errorDescription: String? { description }

    public var description: String {
        switch self {
        case .invalidAPIKey:
            "The Seoul Open Data API key was rejected (INFO-100). Check --key or SEOUL_API_KEY."
        case .service(let code, let message):
            "The Seoul Open Data API answered \(code): \(message)"
        case .unexpectedAnswer(let excerpt):
            "The Seoul Open Data API answered something unreadable: \(excerpt)"
        case .network(let error):
            "The request failed: \(error.userMessage(in: .english).replacingOccurrences(of: "\n", with: " ")) (\(error))"
        case .pageFailed(let page, let pages, let firstRow, let lastRow, let reason):
            "Page \(page) of \(pages) (rows \(firstRow)–\(lastRow)) failed after retries, so nothing was loaded: \(reason)"
        }
    }
}
