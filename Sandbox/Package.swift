// swift-tools-version:6.1
import PackageDescription

// The sandbox server: stand-ins for every API Courier's clients talk to (httpbin-style echo,
// Hacker News, Seoul's cultural programs, Alan, the accounts API, hostile routes, WebSocket
// tickers), so the library's tests, the demo and the benchmarks run offline.
//
// A package of its own, beside the library: the library's tests use it by path, the apps
// (`Apps/`) embed it; a package that depends on Courier never resolves Hummingbird or SQLite.
// It imports nothing of Courier.
let package = Package(
    name: "CourierSandbox",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11)],
    products: [
        .library(name: "CourierSandbox", targets: ["CourierSandbox"])
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
        .package(url: "https://github.com/vapor/sqlite-nio.git", from: "1.13.2"),
        .package(url: "https://github.com/adam-fowler/compress-nio.git", from: "1.5.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.2"),
    ],
    targets: [
        .target(
            name: "CourierSandbox",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                // The in-memory sandbox (InMemorySandbox): the router run without a socket.
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                // HTTPS (and HTTP/2 by ALPN) when the tests ask for it: SandboxServer.Options.tls.
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "HummingbirdHTTP2", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        )
    ]
)
