import Courier
import Foundation

/// When a queued entry is tried again, and which failures end it.
enum OutboxBackoff {
    /// The longest wait between attempts of one entry (5 minutes), and of a `Retry-After` honoured (a day).
    static let maxDelay: Double = 300
    static let maxRetryAfter: Double = 86_400

    /// Whether an answer with `status` keeps the entry queued: 408, 409 (the first request with
    /// its key still in progress), 425, 429 and every 5xx.
    static func isTransient(_ status: Int) -> Bool {
        [408, 409, 425, 429].contains(status) || (500..<600).contains(status)
    }

    /// Whether a thrown error ends the entry: a request that can never be sent (its URL, its
    /// body) or an answer the client's limits refuse (too large a body, too many or too large
    /// header fields — a replay gets the same answer again). Transport errors, timeouts,
    /// cancellation and a missing credential (a token middleware with no token yet) keep it queued.
    static func isFinal(_ error: NetworkError) -> Bool {
        if case .networkError(let failure) = error, failure.code == .cannotParseResponse { return true }
        switch error.family {
        case .request, .file: return true
        case .response: if case .responseTooLarge = error { return true } else { return false }
        case .cancelled, .transport, .authorization, .client, .server: return false
        }
    }

    /// The wait after attempt `attempts`: the server's `Retry-After` (up to a day) or 1 s doubled
    /// per attempt up to ``maxDelay``, with full jitter on its upper half.
    static func delay(attempts: Int, retryAfter: Double?) -> Double {
        if let retryAfter, retryAfter >= 0 { return min(retryAfter, maxRetryAfter) }
        let ceiling = min(maxDelay, pow(2, Double(min(max(attempts - 1, 0), 20))))
        return Double.random(in: ceiling / 2...ceiling)
    }
}
