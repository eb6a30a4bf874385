// swift-tools-version:6.1
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

/// The libraries' settings: what a module's public API shows of another module is said with
/// `public import`; everything else is imported internally (InternalImportsByDefault), and a
/// member is used only where its module is imported (MemberImportVisibility).
let library: [SwiftSetting] =
    strict + [
        .enableUpcomingFeature("InternalImportsByDefault"),
        .enableUpcomingFeature("MemberImportVisibility"),
    ]

/// Where URLSession is not the platform's own (FoundationNetworking on Linux is 3.5× slower
/// than AsyncHTTPClient at 32 requests in flight), Courier defaults to AsyncHTTPClient.
let nonApple: [Platform] = [.linux, .windows, .android]

// The library. What a package that depends on Courier resolves is what these products need:
// swift-http-types, swift-openapi-runtime, swift-log, AsyncHTTPClient and their own packages.
// Products whose packages would reach every consumer are behind traits a consumer enables:
// `Combine` (CourierCombine and HackerNewsAPI's publishers: OpenCombine off Apple platforms),
// `WebSocket` (CourierWebSocket: swift-websocket), `SQLite` (SeoulCultureAPI's FavouritesStore:
// sqlite-nio). The sandbox server (`Sandbox/`, used by the tests by path) and the apps — the
// `courier` command-line tool, benchmarks, the cache conformance runner (`Apps/`) — are packages
// of their own beside this one, so no consumer resolves Hummingbird or swift-argument-parser.
let package = Package(
    name: "Courier",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11)],
    products: [
        .library(name: "Courier", targets: ["Courier"]),
        .library(name: "CourierCache", targets: ["CourierCache"]),
        .library(name: "CourierCookies", targets: ["CourierCookies"]),
        .library(name: "CourierTransfers", targets: ["CourierTransfers"]),
        .library(name: "CourierOutbox", targets: ["CourierOutbox"]),
        .library(name: "CourierObservability", targets: ["CourierObservability"]),
        .library(name: "CourierResilience", targets: ["CourierResilience"]),
        .library(name: "CourierAsyncHTTPClient", targets: ["CourierAsyncHTTPClient"]),
        .library(name: "CourierLLM", targets: ["CourierLLM"]),
        .library(name: "CourierLLMAdapter", targets: ["CourierLLMAdapter"]),
        .library(name: "CourierConcurrency", targets: ["CourierConcurrency"]),
        .library(name: "CourierCombine", targets: ["CourierCombine"]),
        .library(name: "CourierTesting", targets: ["CourierTesting"]),
        .library(name: "CourierWebSocket", targets: ["CourierWebSocket"]),
        .library(name: "AccountsAPI", targets: ["AccountsAPI"]),
        .library(name: "HackerNewsAPI", targets: ["HackerNewsAPI"]),
        .library(name: "AlanAPI", targets: ["AlanAPI"]),
        .library(name: "SeoulCultureAPI", targets: ["SeoulCultureAPI"]),
    ],
    traits: [
        .trait(name: "Combine", description: "CourierCombine's publishers and HackerNewsAPI's (OpenCombine off Apple platforms)."),
        .trait(name: "WebSocket", description: "CourierWebSocket: a reconnecting WebSocket client over swift-websocket."),
        .trait(name: "SQLite", description: "SeoulCultureAPI's FavouritesStore, kept in SQLite (sqlite-nio)."),
        .default(enabledTraits: []),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
        // OpenTelemetry-style HTTP client metrics (MetricsObserver): the ecosystem's standard.
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        // The W3C `traceparent` / `tracestate` each attempt carries (TracingOptions): the ecosystem's standard.
        .package(url: "https://github.com/swift-otel/swift-w3c-trace-context.git", from: "1.0.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        // TLS settings on the AsyncHTTPClient transport (already in AsyncHTTPClient's graph).
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.2"),
        // AsyncHTTPClient's decompression errors, mapped by type (already in its graph).
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.26.0"),
        // HTTP/2 streams' connection reuse, seen through AsyncHTTPClient's initializers (already in its graph).
        .package(url: "https://github.com/apple/swift-nio-http2.git", from: "1.46.0"),
        // Behind traits.
        .package(url: "https://github.com/OpenCombine/OpenCombine.git", from: "0.14.0"),
        .package(url: "https://github.com/hummingbird-project/swift-websocket.git", from: "1.6.2"),
        .package(url: "https://github.com/vapor/sqlite-nio.git", from: "1.13.2"),
        // Tests only (never resolved by a package that depends on Courier).
        .package(path: "Sandbox"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession.git", from: "1.4.0"),
        .package(url: "https://github.com/swift-server/swift-openapi-async-http-client.git", from: "1.5.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
        .package(url: "https://github.com/swiftlang/swift-subprocess.git", from: "1.0.2"),
        // `swift package generate-documentation` (Scripts/build-docs.sh).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin.git", from: "1.5.0"),
    ],
    targets: [
        .target(
            name: "Courier",
            dependencies: [
                "CourierTransportCore",
                // AsyncHTTPClient is the default transport where URLSession is slow or missing;
                // Apple platforms get URLSession and do not link AsyncHTTPClient or SwiftNIO.
                .target(name: "CourierAsyncHTTPClient", condition: .when(platforms: nonApple)),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: library + [.define("COURIER_ASYNC_HTTP_CLIENT", .when(platforms: nonApple))]
        ),
        // RFC 9111: the cache middleware, its memory and disk stores.
        .target(
            name: "CourierCache",
            dependencies: [
                "Courier", "CourierTransportCore",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "Logging", package: "swift-log"),
                // HMAC for the cache's credential keys: CryptoKit on Apple platforms; elsewhere
                // swift-crypto, already in AsyncHTTPClient's graph (via swift-nio-extras).
                .product(name: "Crypto", package: "swift-crypto", condition: .when(platforms: nonApple)),
            ],
            swiftSettings: library
        ),
        // RFC 6265: the cookie jar and its middleware; the Public Suffix List as a compact table.
        .target(
            name: "CourierCookies",
            dependencies: [
                "Courier", "CourierTransportCore",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: library
        ),
        // Downloads (resume, checksums), uploads with progress, byte and line streams.
        .target(
            name: "CourierTransfers",
            dependencies: [
                "Courier", "CourierTransportCore",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: library
        ),
        // Writes kept on disk until delivered: a journal per entry, replayed in order with its idempotency key.
        .target(
            name: "CourierOutbox",
            dependencies: [
                "Courier", "CourierTransportCore",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: library
        ),
        // The call timeline, HAR, cURL, swift-metrics and swift-distributed-tracing.
        .target(
            name: "CourierObservability",
            dependencies: [
                "Courier", "CourierTransportCore",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "W3CTraceContext", package: "swift-w3c-trace-context"),
            ],
            swiftSettings: library
        ),
        // Calm under load: a circuit breaker per origin, pacing from announced rate limits.
        .target(
            name: "CourierResilience",
            dependencies: [
                "Courier", "CourierTransportCore",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: library
        ),
        // What Courier and its transports share: the per-call context, traits and transport capabilities.
        .target(
            name: "CourierTransportCore",
            dependencies: [
                "CCourierPlatform",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                // SHA-256 for downloads' checksums and the cache's linked bodies: CryptoKit on
                // Apple platforms; elsewhere swift-crypto, already in AsyncHTTPClient's graph.
                .product(name: "Crypto", package: "swift-crypto", condition: .when(platforms: nonApple)),
            ],
            swiftSettings: library
        ),
        // The one C function Swift's Glibc module does not show (`sync_file_range`, a
        // `_GNU_SOURCE` declaration), behind CourierTransportCore's `Platform`.
        .target(name: "CCourierPlatform"),
        // TLSSettings in swift-nio-ssl's terms, for the SwiftNIO clients (AsyncHTTPClient, swift-websocket).
        .target(
            name: "CourierTLS",
            dependencies: [
                "CourierTransportCore",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                // Certificate pins (SHA-256 of a key); in AsyncHTTPClient's graph already.
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: library
        ),
        // Courier's thin transport over AsyncHTTPClient (the default on Linux).
        .target(
            name: "CourierAsyncHTTPClient",
            dependencies: [
                "CourierTransportCore",
                "CourierTLS",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                // Their error types, to map errors by type: packages AsyncHTTPClient depends on already.
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
            ],
            swiftSettings: library
        ),
        // The LLM answer decoder: Foundation only, usable with any HTTP or LLM SDK.
        .target(name: "CourierLLM", swiftSettings: library),
        // Where Courier and the LLM answer decoder meet: `LLMResponseDecoding` for endpoints.
        .target(name: "CourierLLMAdapter", dependencies: ["Courier", "CourierLLM", "CourierTransfers"], swiftSettings: library),
        .target(
            name: "CourierConcurrency", dependencies: ["Courier", .product(name: "Logging", package: "swift-log")], swiftSettings: library),
        .target(
            name: "CourierCombine",
            dependencies: [
                "Courier",
                .product(name: "OpenCombine", package: "OpenCombine", condition: .when(platforms: nonApple, traits: ["Combine"])),
            ],
            swiftSettings: library
        ),
        .target(
            name: "CourierTesting",
            dependencies: ["Courier", .product(name: "Logging", package: "swift-log")],
            swiftSettings: library
        ),
        // A reconnecting WebSocket client over swift-websocket's WSClient, and the Upbit-style ticker.
        .target(
            name: "CourierWebSocket",
            dependencies: [
                "Courier", "CourierTransportCore",
                .product(name: "WSClient", package: "swift-websocket", condition: .when(traits: ["WebSocket"])),
                .target(name: "CourierTLS", condition: .when(traits: ["WebSocket"])),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: ["WebSocket"])),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["WebSocket"])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["WebSocket"])),
                .product(name: "NIOWebSocket", package: "swift-nio", condition: .when(traits: ["WebSocket"])),
                .product(name: "NIOFoundationCompat", package: "swift-nio", condition: .when(traits: ["WebSocket"])),
            ],
            swiftSettings: library
        ),
        .target(name: "AccountsAPI", dependencies: ["Courier"], swiftSettings: library),
        .target(
            name: "HackerNewsAPI",
            dependencies: [
                "Courier", "CourierConcurrency",
                .target(name: "CourierAsyncHTTPClient", condition: .when(platforms: nonApple)),
                .target(name: "CourierCombine", condition: .when(traits: ["Combine"])),
                .product(name: "OpenCombine", package: "OpenCombine", condition: .when(platforms: nonApple, traits: ["Combine"])),
            ],
            swiftSettings: library
        ),
        .target(
            name: "AlanAPI",
            dependencies: [
                "Courier", "CourierCache", "CourierTransfers", "CourierLLM", "CourierLLMAdapter", "CourierConcurrency",
                .product(name: "Logging", package: "swift-log"),
                // The coin app's live ticker (Coin/UpbitTicker*.swift), with the `WebSocket` trait.
                .target(name: "CourierWebSocket", condition: .when(traits: ["WebSocket"])),
            ],
            swiftSettings: library
        ),
        .target(
            name: "SeoulCultureAPI",
            dependencies: [
                "Courier", "CourierConcurrency",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SQLiteNIO", package: "sqlite-nio", condition: .when(traits: ["SQLite"])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["SQLite"])),
            ],
            swiftSettings: library
        ),

        // Tests. Run them all with `Scripts/test.sh` (every trait on, every package of the repository).
        // This repository's own test support (the sandbox started per test, the in-memory lane,
        // loopback sockets, child processes) — not a product. `CourierTesting` is the product
        // for users' tests of their own code.
        .target(
            name: "IntegrationTestSupport",
            dependencies: [
                "Courier", "CourierAsyncHTTPClient",
                .product(name: "Subprocess", package: "swift-subprocess", condition: .when(platforms: [.linux, .macOS])),
                .product(name: "CourierSandbox", package: "Sandbox"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ],
            path: "Tests/IntegrationTestSupport",
            swiftSettings: strict
        ),
        .testTarget(
            name: "CourierTests",
            dependencies: [
                "Courier", "CourierAsyncHTTPClient", "CourierTesting", "IntegrationTestSupport",
                "CourierCache", "CourierCookies", "CourierTransfers", "CourierObservability",
                .product(name: "CourierSandbox", package: "Sandbox"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
                .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "W3CTraceContext", package: "swift-w3c-trace-context"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "CourierCacheTests",
            dependencies: [
                "CourierCache", "Courier", "CourierAsyncHTTPClient", "CourierTesting", "IntegrationTestSupport", "CourierTransfers",
                "CourierObservability",
                .product(name: "CourierSandbox", package: "Sandbox"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "W3CTraceContext", package: "swift-w3c-trace-context"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "CourierCookiesTests",
            dependencies: [
                "CourierCookies", "Courier", "CourierAsyncHTTPClient", "CourierTesting", "IntegrationTestSupport", "CourierObservability",
                .product(name: "CourierSandbox", package: "Sandbox"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "W3CTraceContext", package: "swift-w3c-trace-context"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "CourierOutboxTests",
            dependencies: [
                "CourierOutbox", "Courier", "CourierAsyncHTTPClient", "CourierTesting", "IntegrationTestSupport",
                .product(name: "CourierSandbox", package: "Sandbox"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "CourierTransfersTests",
            dependencies: [
                "CourierTransfers", "Courier", "CourierAsyncHTTPClient", "CourierTesting", "IntegrationTestSupport", "CourierCache",
                "CourierObservability",
                .product(name: "CourierSandbox", package: "Sandbox"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "W3CTraceContext", package: "swift-w3c-trace-context"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "CourierObservabilityTests",
            dependencies: [
                "CourierObservability", "Courier", "CourierAsyncHTTPClient", "CourierTesting", "IntegrationTestSupport", "CourierCache",
                "CourierTransfers",
                .product(name: "CourierSandbox", package: "Sandbox"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "W3CTraceContext", package: "swift-w3c-trace-context"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "CourierResilienceTests",
            dependencies: [
                "CourierResilience", "Courier", "CourierAsyncHTTPClient", "CourierTesting", "IntegrationTestSupport", "CourierObservability",
                .product(name: "CourierSandbox", package: "Sandbox"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "CourierDocsTests",
            dependencies: [
                "Courier", "CourierLLM", "CourierLLMAdapter", "CourierConcurrency", "CourierCombine", "CourierTesting",
                "CourierCache", "CourierCookies", "CourierTransfers", "CourierObservability", "CourierOutbox",
                "AccountsAPI", "HackerNewsAPI", "SeoulCultureAPI", "AlanAPI", "CourierWebSocket",
                .product(name: "CourierSandbox", package: "Sandbox"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "CourierLLMTests",
            dependencies: [
                "IntegrationTestSupport", "CourierLLM", "CourierLLMAdapter", "CourierTransfers", "Courier",
                .product(name: "CourierSandbox", package: "Sandbox"),
            ],
            resources: [.copy("Fixtures")],
            swiftSettings: strict
        ),
        .testTarget(
            name: "CourierConcurrencyTests",
            dependencies: [
                "CourierConcurrency", "Courier", "CourierTesting", "IntegrationTestSupport", .product(name: "CourierSandbox", package: "Sandbox"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "CourierCombineTests",
            dependencies: ["IntegrationTestSupport", "CourierCombine", "Courier", .product(name: "CourierSandbox", package: "Sandbox")],
            swiftSettings: strict
        ),
        .testTarget(
            name: "AccountsAPITests",
            dependencies: [
                "IntegrationTestSupport", "AccountsAPI", "Courier", "CourierTesting", .product(name: "CourierSandbox", package: "Sandbox"),
            ],
            swiftSettings: strict
        ),
        // The sandbox server's own tests (its package is used by path; they share the test support).
        .testTarget(
            name: "CourierSandboxTests",
            dependencies: [
                "IntegrationTestSupport", "CourierTesting",
                .product(name: "CourierSandbox", package: "Sandbox"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "HackerNewsAPITests",
            dependencies: [
                "IntegrationTestSupport", "HackerNewsAPI", "Courier", "CourierCache", "CourierConcurrency",
                .product(name: "CourierSandbox", package: "Sandbox"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "AlanAPITests",
            dependencies: [
                "AlanAPI", "Courier", "CourierCache", "CourierLLM", "CourierConcurrency", "IntegrationTestSupport", "CourierTesting",
                .product(name: "CourierSandbox", package: "Sandbox"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "SeoulCultureAPITests",
            dependencies: [
                "SeoulCultureAPI", "IntegrationTestSupport", "CourierTesting", "CourierConcurrency", "Courier", "CourierCache",
                .product(name: "CourierSandbox", package: "Sandbox"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "CourierWebSocketTests",
            dependencies: [
                "CourierWebSocket", "Courier", "AlanAPI", "IntegrationTestSupport", "CourierTesting",
                .product(name: "CourierSandbox", package: "Sandbox"),
                .product(name: "WSClient", package: "swift-websocket", condition: .when(traits: ["WebSocket"])),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
    ]
)
