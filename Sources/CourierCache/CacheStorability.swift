import Courier
import CourierTransportCore
import HTTPTypes

/// Whether a response may be stored by a private cache (RFC 9111 §3).
enum CacheStorability {
    /// Statuses this cache understands well enough to store (206 needs range support; it has none).
    static let understood: Set<Int> = [200, 203, 204, 300, 301, 302, 303, 307, 308, 404, 405, 410, 414, 501]

    /// Whether `response` to `request` may be stored.
    static func isStorable(_ request: HTTPRequest, _ response: HTTPResponse, requestDirectives: CacheControl) -> Bool {
        guard request.method == .get else { return false }
        let status = response.status.code
        guard status >= 200, status != 206, status != 304 else { return false }
        let directives = CacheControl(response.headerFields[values: .cacheControl])
        if requestDirectives.noStore { return false }
        // must-understand lets a cache that understands the status ignore no-store (§5.2.2.3).
        if directives.has("must-understand") {
            guard understood.contains(status) else { return false }
        } else if directives.noStore {
            return false
        }
        if CachedResponse.varyNames(response.headerFields[values: .vary].joined(separator: ", ")).contains("*") { return false }
        if request.headerFields[.authorization] != nil,
            !(directives.mustRevalidate || directives.isPublic || directives.has("s-maxage"))
        {
            return false
        }
        return directives.isPublic || directives.isPrivate || response.headerFields[.expires] != nil
            || directives.has("max-age") || CacheFreshness.heuristicStatuses.contains(status)
    }
}
