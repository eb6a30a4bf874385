// Mirrors: Sources/Courier/Courier.docc/Articles/middlewares.md
//
// The article's code, line for line (DocsSyncTests checks that every sample is here). Compiled
// only: the samples talk to blog.example.com. A `return` after a sample hands back what it built.

import Courier
import CourierCache
import Foundation
import Logging

enum MiddlewaresArticle {
    static func configure(auth: BearerTokenMiddleware) -> NetworkClient {
        let client = NetworkClient(configuration: .init(
            baseURL: URL(string: "https://blog.example.com")!,
            middlewares: [
                auth,                                   // BearerTokenMiddleware: one refresh per call
                DeduplicationMiddleware(),              // identical GETs share one request …
                RetryMiddleware(),                      // … and its retries
                LoggingMiddleware(logger: Logger(label: "blog")),   // innermost: logs every attempt
            ]
        ))
        return client
    }

    static func logging() -> LoggingMiddleware {
        let logging = LoggingMiddleware(
            logger: Logger(label: "blog"),
            level: .debug,
            redactor: Redactor(extraHeaders: ["x-session-id"], extraQueryNames: ["signature"])
        )
        return logging
    }

    static func retry() -> RetryMiddleware {
        let budget = RetryPolicy.Budget(maxTokens: 10, tokenRatio: 0.1)   // give it to every client of one server
        let retry = RetryMiddleware(
            policy: RetryPolicy(maxAttempts: 4, baseDelay: .milliseconds(200), maxRetryAfter: .seconds(30)),
            budget: budget
        )
        return retry
    }

    static func bearer(store: TokenStore) -> BearerTokenMiddleware {
        let auth = BearerTokenMiddleware(allowedOrigins: [URL(string: "https://blog.example.com")!]) {
            await store.token                              // a BearerTokenMiddleware.Token(value, expiresAt:) or nil
        } refresh: { rejected in
            try await store.refresh(replacing: rejected)   // e.g. POST /auth/refresh; store and return the new one
        }
        return auth
    }

    static func deduplication() async throws {
        let shared = NetworkClient(configuration: .init(middlewares: [DeduplicationMiddleware()]))
        async let first: [User] = shared.request(UserAPI.search(name: "kim"))
        async let second: [User] = shared.request(UserAPI.search(name: "kim"))
        let (a, b) = try await (first, second)   // one request reached the server
        print(a.count == b.count)
    }

    static func caching() throws -> NetworkClient {
        let cache = CacheMiddleware(storage: try DiskCacheStorage(directory: URL(filePath: "/tmp/blog-cache")))
        let cached = NetworkClient(configuration: .init(middlewares: [cache, RetryMiddleware()]))
        return cached
    }

    // Not in the article: the app's token store the bearer sample reads.
    actor TokenStore {
        var token: BearerTokenMiddleware.Token?
        func refresh(replacing rejected: BearerTokenMiddleware.Token?) async throws -> BearerTokenMiddleware.Token? { token }
    }
}
