// swift-tools-version:6.1
import PackageDescription

// The apps built on Courier: the `courier` command-line tool (with the sandbox server embedded),
// the benchmarks and the HTTP cache conformance runner. A package of its own beside the library
// (AsyncHTTPClient's Examples/ and Hummingbird's examples are the model), so that a package that
// depends on Courier never resolves swift-argument-parser, Hummingbird or the benchmarks' baselines.
//
//   swift run --package-path Apps courier demo
let strict: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny")]

let courier: [Target.Dependency] = [
    .product(name: "Courier", package: "Courier"), .product(name: "CourierAsyncHTTPClient", package: "Courier"),
    .product(name: "CourierCache", package: "Courier"), .product(name: "CourierCookies", package: "Courier"),
    .product(name: "CourierTransfers", package: "Courier"), .product(name: "CourierObservability", package: "Courier"),
    .product(name: "CourierOutbox", package: "Courier"),
]
let sandbox: Target.Dependency = .product(name: "CourierSandbox", package: "CourierSandbox")
func library(_ name: String) -> Target.Dependency { .product(name: name, package: "Courier") }

let package = Package(
    name: "CourierApps",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11)],
    products: [
        .executable(name: "courier", targets: ["courier"])
    ],
    dependencies: [
        // The library, every trait on: the CLI shows Combine, WebSocket and SQLite features.
        .package(name: "Courier", path: "..", traits: ["Combine", "WebSocket", "SQLite"]),
        .package(name: "CourierSandbox", path: "../Sandbox"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.13.4"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        // The baselines the benchmarks compare Courier with.
        .package(url: "https://github.com/apple/swift-openapi-urlsession.git", from: "1.4.0"),
        .package(url: "https://github.com/swift-server/swift-openapi-async-http-client.git", from: "1.5.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/hummingbird-project/swift-websocket.git", from: "1.6.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        // Child processes (the cache conformance runner drives `courier` through the CLI; `--open` starts a browser).
        .package(url: "https://github.com/swiftlang/swift-subprocess.git", from: "1.0.2"),
    ],
    targets: [
        .executableTarget(
            name: "courier",
            dependencies: courier + [
                library("CourierLLM"), library("CourierLLMAdapter"), library("CourierConcurrency"),
                library("AccountsAPI"), library("HackerNewsAPI"), library("AlanAPI"), library("SeoulCultureAPI"),
                library("CourierWebSocket"), sandbox,
                // `courier bench --breaker --pace` (and --hedge).
                library("CourierResilience"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                // `--open` starts the browser (LinkOpener).
                .product(name: "Subprocess", package: "swift-subprocess", condition: .when(platforms: [.linux, .macOS])),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "CourierBenchmarks",
            dependencies: courier + [
                sandbox,
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
            dependencies: courier + [
                sandbox,
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            path: "Benchmarks/ResilienceBenchmark",
            swiftSettings: strict
        ),
        // Writes through an outbox (journaled, synced, sent, removed) beside plain POSTs.
        .executableTarget(
            name: "OutboxBenchmark",
            dependencies: courier + [sandbox, .product(name: "NIOPosix", package: "swift-nio")],
            path: "Benchmarks/OutboxBenchmark",
            swiftSettings: strict
        ),
        // Peak memory and time against the sandbox's hostile routes, per transport.
        .executableTarget(
            name: "HostileBenchmark",
            dependencies: courier + [sandbox, .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime")],
            path: "Benchmarks/HostileBenchmark",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "LLMBenchmark",
            dependencies: [library("CourierLLM")],
            path: "Benchmarks/LLMBenchmark",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "ConcurrencyBenchmark",
            dependencies: courier + [library("CourierConcurrency"), library("CourierCombine"), sandbox],
            path: "Benchmarks/ConcurrencyBenchmark",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "AccountsBenchmark",
            dependencies: courier + [
                library("AccountsAPI"), sandbox,
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            path: "Benchmarks/AccountsBenchmark",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "SeoulBenchmark",
            dependencies: courier + [library("SeoulCultureAPI"), sandbox],
            path: "Benchmarks/SeoulBenchmark",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "HackerNewsBenchmark",
            dependencies: courier + [library("HackerNewsAPI"), sandbox],
            path: "Benchmarks/HackerNewsBenchmark",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "AlanBenchmark",
            dependencies: courier + [library("AlanAPI"), library("CourierLLM"), library("CourierLLMAdapter"), sandbox],
            path: "Benchmarks/AlanBenchmark",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "CookieConformance",
            dependencies: courier + [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            path: "Benchmarks/CookieConformance",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "CacheConformance",
            dependencies: courier + [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Subprocess", package: "swift-subprocess", condition: .when(platforms: [.linux, .macOS])),
            ],
            path: "Benchmarks/CacheConformance",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "CacheBenchmark",
            dependencies: courier + [
                sandbox,
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client"),
            ],
            path: "Benchmarks/CacheBenchmark",
            swiftSettings: strict
        ),
        // 1 GiB download and upload vs curl, progress overhead, NDJSON vs raw AsyncHTTPClient.
        .executableTarget(
            name: "TransferBenchmark",
            dependencies: courier + [
                sandbox,
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            path: "Benchmarks/TransferBenchmark",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "HTTP2Benchmark",
            dependencies: courier + [
                sandbox, "IntegrationTestSupport",
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            path: "Benchmarks/HTTP2Benchmark",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "WebSocketBenchmark",
            dependencies: courier + [
                library("CourierWebSocket"), library("AlanAPI"), sandbox,
                .product(name: "WSClient", package: "swift-websocket"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Benchmarks/WebSocketBenchmark",
            swiftSettings: strict
        ),

        // The library's test support (the same sources: Tests/IntegrationTestSupport is a link to
        // the root's), for the tests of the command-line tool.
        .target(
            name: "IntegrationTestSupport",
            dependencies: courier + [
                sandbox,
                .product(name: "Subprocess", package: "swift-subprocess", condition: .when(platforms: [.linux, .macOS])),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ],
            path: "Tests/IntegrationTestSupport",
            swiftSettings: strict
        ),
        // The command-line tool: its terminal layer through @testable import, and the built
        // binary run as a person runs it.
        .testTarget(
            name: "CourierCLITests",
            dependencies: courier + ["courier", "IntegrationTestSupport", sandbox, library("HackerNewsAPI"), library("SeoulCultureAPI")],
            swiftSettings: strict
        ),
    ]
)
