import Courier
import CourierCache
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Synchronization

/// The cache middleware of a command that reads an API through the HTTP cache (``CacheOptions``),
/// watched for answers served from what was saved because the network failed (refused, timed
/// out, a 5xx) or because of `--offline` — so the command can say so, with their age, as the
/// app's offline notice did: `offline: showing programs saved 3 h ago`.
///
/// It wraps the cache: the cache's `next` (the network) is watched for a failure, and a 2xx the
/// cache then answers with is a saved one; its `Age` (the cache sets it on everything it serves)
/// is how long ago it was saved. The oldest such age is kept.
final class OfflineNotice: ClientMiddleware, Sendable {
    /// The cache watched.
    let cache: CacheMiddleware
    /// `--offline`: every answer is a saved one.
    let offline: Bool
    private let oldest = Mutex<Int?>(nil)

    init(cache: CacheMiddleware, offline: Bool) {
        self.cache = cache
        self.offline = offline
    }

    /// The age in seconds of the oldest answer served from the cache instead of the network;
    /// nil when every answer came from the network (or was fresh in the cache).
    var savedAge: Int? { oldest.withLock { $0 } }

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let networkFailed = Atomic<Bool>(false)
        let answer = try await cache.intercept(request, body: body, baseURL: baseURL, operationID: operationID) { request, body, url in
            do {
                let answer = try await next(request, body, url)
                if answer.0.status.code >= 500 { networkFailed.store(true, ordering: .relaxed) }
                return answer
            } catch {
                networkFailed.store(true, ordering: .relaxed)
                throw error
            }
        }
        if offline || networkFailed.load(ordering: .relaxed), (200..<300).contains(answer.0.status.code),
            let age = answer.0.headerFields[.age].flatMap({ Int($0) })
        {
            oldest.withLock { $0 = max($0 ?? 0, age) }
        }
        return answer
    }

    /// `offline: showing NOUN saved 3 h ago` for ``savedAge``, or nil when nothing was served saved.
    func message(showing noun: String) -> String? {
        savedAge.map { "offline: showing \(noun) saved \(Self.age($0)) ago" }
    }

    /// An age in words: `40 s`, `12 min`, `3 h`, `2 days`.
    static func age(_ seconds: Int) -> String {
        switch max(0, seconds) {
        case ..<60: "\(max(0, seconds)) s"
        case ..<3_600: "\(seconds / 60) min"
        case ..<(2 * 86_400): "\(seconds / 3_600) h"
        default: "\(seconds / 86_400) days"
        }
    }
}
