public import Courier
import Foundation
import HTTPTypes

extension StatusMapping {
    /// The coin-report app's table for the Alan API: 2xx ok; 401 → `NetworkError.quotaExceeded(_:)`
    /// (that is how the service says the quota is used up); 404 → notFound; 414 → uriTooLong;
    /// 503 → serviceUnavailable; other 5xx → serverError; anything else (429 included) →
    /// remoteError(code, body), or unknown(code) when the body is not UTF-8.
    ///
    /// ```swift
    /// struct MyAlanCall: Endpoint {
    ///     var statusMapping: StatusMapping { .alan }
    /// }
    /// ```
    public static let alan = StatusMapping { response, body in
        switch response.status.code {
        case 401: .quotaExceeded(401)
        case 429: remote(429, body)
        default: standard.error(for: response, body: body)
        }
    }
}
