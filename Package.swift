// swift-tools-version:6.1
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

/// Where URLSession is not the platform's own (FoundationNetworking on Linux is 3.5× slower
/// than AsyncHTTPClient at 32 requests in flight), Courier defaults to AsyncHTTPClient.
let nonApple: [Platform] = [.linux, .windows, .android]

let package = Package(
    name: "Courier",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11)],
    products: [
        .library(name: "Courier", targets: ["Courier"]),
        .library(name: "CourierAsyncHTTPClient", targets: ["CourierAsyncHTTPClient"]),
        .library(name: "CourierLLM", targets: ["CourierLLM"]),
        .library(name: "CourierConcurrency", targets: ["CourierConcurrency"]),
        .library(name: "CourierCombine", targets: ["CourierCombine"]),
        .library(name: "CourierTesting", targets: ["CourierTesting"]),
        .library(name: "AccountsAPI", targets: ["AccountsAPI"]),
        .library(name: "CourierSandbox", targets: ["CourierSandbox"]),
        .executable(name: "courier", targets: ["courier"]),
        .library(name: "HackerNewsAPI", targets: ["HackerNewsAPI"]),
        .library(name: "AlanAPI", targets: ["AlanAPI"]),
        .library(name: "SeoulCultureAPI", targets: ["SeoulCultureAPI"]),
        .library(name: "CourierWebSocket", targets: ["CourierWebSocket"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession.git", from: "1.4.0"),
        .package(url: "https://github.com/swift-server/swift-openapi-async-http-client.git", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/vapor/sqlite-nio.git", from: "1.13.2"),
        .package(url: "https://github.com/adam-fowler/compress-nio.git", from: "1.5.0"),
        .package(url: "https://github.com/OpenCombine/OpenCombine.git", from: "0.14.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin.git", from: "1.5.0"),
        .package(url: "https://github.com/hummingbird-project/swift-websocket.git", from: "1.6.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
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
                // HMAC for the cache's credential keys: CryptoKit on Apple platforms; elsewhere
                // swift-crypto, already in AsyncHTTPClient's graph (via swift-nio-extras).
                .product(name: "Crypto", package: "swift-crypto", condition: .when(platforms: nonApple)),
            ],
            swiftSettings: strict + [.define("COURIER_ASYNC_HTTP_CLIENT", .when(platforms: nonApple))]
        ),
        // What Courier and its transports share: the per-call context, traits and transport capabilities.
        .target(
            name: "CourierTransportCore",
            dependencies: [
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ],
            swiftSettings: strict
        ),
        // Courier's thin transport over AsyncHTTPClient (the default on Linux).
        .target(
            name: "CourierAsyncHTTPClient",
            dependencies: [
                "CourierTransportCore",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        .target(name: "CourierLLM", dependencies: ["Courier"], swiftSettings: strict),
        .target(name: "CourierConcurrency", dependencies: ["Courier"], swiftSettings: strict),
        .target(
            name: "CourierCombine",
            dependencies: [
                "Courier",
                .product(name: "OpenCombine", package: "OpenCombine", condition: .when(platforms: nonApple)),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "CourierTesting",
            dependencies: ["Courier", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        .target(
            name: "CourierTestSupport",
            dependencies: [
                "Courier", "CourierSandbox",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ],
            path: "Tests/CourierTestSupport",
            swiftSettings: strict
        ),
        .target(name: "AccountsAPI", dependencies: ["Courier"], swiftSettings: strict),
        .target(
            name: "SeoulCultureAPI",
            dependencies: [
                "Courier", "CourierConcurrency",
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "CourierSandbox",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
            ],
            swiftSettings: strict
        ),
        // A reconnecting WebSocket client over swift-websocket's WSClient, and the Upbit-style ticker.
        .target(
            name: "CourierWebSocket",
            dependencies: [
                "Courier",
                .product(name: "WSClient", package: "swift-websocket"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "courier",
            dependencies: [
                "Courier", "CourierLLM", "CourierConcurrency", "AccountsAPI", "CourierSandbox", "HackerNewsAPI",
                "AlanAPI",
                "SeoulCultureAPI",
                "CourierWebSocket",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "CourierBenchmarks",
            dependencies: [
                "Courier", "CourierSandbox",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            path: "Benchmarks/CourierBenchmarks",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "ResilienceBenchmark",
            dependencies: [
                "Courier", "CourierSandbox",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            path: "Benchmarks/ResilienceBenchmark",
            swiftSettings: strict
        ),
        // Peak memory and time against the sandbox's hostile routes, per transport (issue 25).
        .executableTarget(
            name: "HostileBenchmark",
            dependencies: ["Courier", "CourierSandbox", .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime")],
            path: "Benchmarks/HostileBenchmark",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "LLMBenchmark",
            dependencies: ["CourierLLM"],
            path: "Benchmarks/LLMBenchmark",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "ConcurrencyBenchmark",
            dependencies: ["Courier", "CourierConcurrency", "CourierCombine", "CourierSandbox"],
            path: "Benchmarks/ConcurrencyBenchmark",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "AccountsBenchmark",
            dependencies: [
                "Courier", "AccountsAPI", "CourierSandbox",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            path: "Benchmarks/AccountsBenchmark",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "SeoulBenchmark",
            dependencies: ["Courier", "SeoulCultureAPI", "CourierSandbox"],
            path: "Benchmarks/SeoulBenchmark",
            swiftSettings: strict
        ),
        .testTarget(
            name: "CourierTests",
            dependencies: [
                "Courier", "CourierAsyncHTTPClient", "CourierSandbox", "CourierTesting", "CourierTestSupport",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
                .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "CourierDocsTests",
            dependencies: ["Courier", "CourierLLM", "CourierConcurrency", "CourierCombine", "CourierTesting", "AccountsAPI", "CourierSandbox", "HackerNewsAPI", "SeoulCultureAPI", "AlanAPI", "CourierWebSocket"],
            swiftSettings: strict
        ),
        .testTarget(name: "CourierLLMTests", dependencies: ["CourierTestSupport", "CourierLLM", "Courier", "CourierSandbox"], resources: [.copy("Fixtures")], swiftSettings: strict),
        .testTarget(name: "CourierConcurrencyTests", dependencies: ["CourierConcurrency", "Courier", "CourierSandbox", "CourierTestSupport"], swiftSettings: strict),
        .testTarget(name: "CourierCombineTests", dependencies: ["CourierTestSupport", "CourierCombine", "Courier", "CourierSandbox"], swiftSettings: strict),
        .testTarget(name: "AccountsAPITests", dependencies: ["CourierTestSupport", "AccountsAPI", "Courier", "CourierSandbox", "CourierTesting"], swiftSettings: strict),
        .testTarget(name: "CourierSandboxTests", dependencies: ["CourierSandbox", "CourierTestSupport", "CourierTesting", .product(name: "AsyncHTTPClient", package: "async-http-client"), .product(name: "NIOCore", package: "swift-nio")], swiftSettings: strict),
        .target(
            name: "HackerNewsAPI",
            dependencies: [
                "Courier", "CourierConcurrency", "CourierCombine",
                .product(name: "OpenCombine", package: "OpenCombine", condition: .when(platforms: [.linux, .windows, .android])),
            ],
            swiftSettings: strict
        ),
        // The command-line tool's own logic (its terminal layer), through @testable import of the executable.
        .testTarget(
            name: "CourierCLITests",
            dependencies: ["courier", "CourierTestSupport", "CourierSandbox", "HackerNewsAPI"],
            swiftSettings: strict
        ),
        .testTarget(name: "HackerNewsAPITests", dependencies: ["CourierTestSupport", "HackerNewsAPI", "Courier", "CourierSandbox", "CourierConcurrency"], swiftSettings: strict),
        .executableTarget(
            name: "HackerNewsBenchmark",
            dependencies: ["Courier", "HackerNewsAPI", "CourierSandbox"],
            path: "Benchmarks/HackerNewsBenchmark",
            swiftSettings: strict
        ),
        .target(name: "AlanAPI", dependencies: ["Courier", "CourierLLM", "CourierConcurrency", .product(name: "Logging", package: "swift-log")], swiftSettings: strict),
        .testTarget(name: "AlanAPITests", dependencies: ["AlanAPI", "Courier", "CourierLLM", "CourierConcurrency", "CourierSandbox", "CourierTestSupport", "CourierTesting"], swiftSettings: strict),
        .executableTarget(
            name: "AlanBenchmark",
            dependencies: ["AlanAPI", "Courier", "CourierLLM", "CourierSandbox"],
            path: "Benchmarks/AlanBenchmark",
            swiftSettings: strict
        ),
        .testTarget(name: "SeoulCultureAPITests", dependencies: ["SeoulCultureAPI", "CourierTestSupport", "CourierTesting", "CourierConcurrency", "Courier", "CourierSandbox"], swiftSettings: strict),
        .executableTarget(
            name: "CacheConformance",
            dependencies: [
                "Courier",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Benchmarks/CacheConformance",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "CacheBenchmark",
            dependencies: [
                "Courier", "CourierSandbox",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client"),
            ],
            path: "Benchmarks/CacheBenchmark",
            swiftSettings: strict
        ),
        .testTarget(name: "CourierWebSocketTests", dependencies: ["CourierWebSocket", "Courier", "CourierSandbox", "CourierTestSupport", "CourierTesting", .product(name: "WSClient", package: "swift-websocket"), .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOWebSocket", package: "swift-nio"), .product(name: "Hummingbird", package: "hummingbird"), .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"), .product(name: "Logging", package: "swift-log")], swiftSettings: strict),
        .executableTarget(
            name: "WebSocketBenchmark",
            dependencies: [
                "CourierWebSocket", "Courier", "CourierSandbox",
                .product(name: "WSClient", package: "swift-websocket"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Benchmarks/WebSocketBenchmark",
            swiftSettings: strict
        ),
    ]
)
