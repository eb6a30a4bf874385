import Courier
import CourierCookies
import CourierTesting
import Foundation
import HTTPTypes
import IntegrationTestSupport
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A malicious server cannot crash, exhaust or outlast the client: every hostile route ends in
/// a specific `NetworkError` or a clean answer, within its bound, on both transports.
///
/// Time bounds here are loose (10 s against a 3 s deadline, where the server would go on for 50 s
/// or more): they show the deadline ended the call, not how promptly — a loaded 2-core machine
/// running every suite at once is no stopwatch. `HostileBenchmark` measures the times (drip and
/// dripping head ended by 4 s) and the memory.
@Suite("Hostile servers", .serialized, .tags(.timing))
struct HostileServerTests {
    /// What `/echo` says it received.
    struct Echo: Decodable, Sendable {
        var method: String
        var headers: [String: String]
        var query: [[String]]
        var body: String?
    }

    @Test(
        "an unreadable or huge Retry-After hands the answer back at once, never traps",
        arguments: TransportKind.allCases, ["1e19", "inf", "99999999999999999999", "  1e308 ", "-1", "NaN", "3.5"])
    func retryAfter(_ kind: TransportKind, value: String) async throws {
        try await withSandbox { sandbox in
            let clock = RecordingClock()
            let retry = RetryMiddleware(policy: RetryPolicy(maxAttempts: 3, maxRetryAfter: .seconds(60)), clock: clock)
            let client = NetworkClient(configuration: .init(transport: kind.make(), middlewares: [retry]))
            let answer = try await client.response(
                TestEndpoint(sandbox.baseURL, "/hostile/retry-after", query: ["value": value]), validatingStatus: false)
            #expect(answer.statusCode == 503)
            #expect(clock.sleeps.isEmpty, "a Retry-After past the limit or unreadable is not waited for: the answer comes back at once")
            let limited = try await client.response(
                TestEndpoint(sandbox.baseURL, "/hostile/retry-after", query: ["value": value, "status": "429"]), validatingStatus: false)
            guard case .rateLimited(let after) = limited.statusError else {
                Issue.record("expected rateLimited, got \(String(describing: limited.statusError))")
                return
            }
            // Messages that show the wait must not trap either.
            let message = limited.statusError?.localizedDescription ?? ""
            #expect(message.isEmpty == false)
            if let after { #expect(after <= 2_147_483_648) }
        }
    }

    @Test("Retry-After: digits saturate at 2³¹, anything but digits or an HTTP date is unreadable")
    func retryAfterParsing() {
        func seconds(_ value: String) -> Double? {
            HTTPResponse(status: .serviceUnavailable, headerFields: [.retryAfter: value]).retryAfterSeconds
        }
        #expect(seconds("120") == 120)
        #expect(seconds(" 7 ") == 7)
        #expect(seconds("99999999999999999999") == 2_147_483_648)
        #expect(seconds("1e19") == nil)
        #expect(seconds("inf") == nil)
        #expect(seconds("-5") == nil)
        #expect(seconds("Sun, 06 Nov 1994 08:49:37 GMT") == 0)
        #expect(NetworkError.rateLimited(retryAfter: .infinity).localizedDescription.contains("s"))
        #expect(NetworkError.rateLimited(retryAfter: .nan).localizedDescription.contains("s"))
    }

    /// 256 MiB, not the benchmark's 4 GiB: on Linux, URLSession's libcurl goes on inflating a
    /// cancelled transfer for seconds (FoundationNetworking cannot stop it mid-read), which would
    /// starve the other suites of the 2-core machine; the call's outcome is the same.
    @Test("a gzip bomb ends within the body limit", arguments: TransportKind.allCases)
    func gzipBomb(_ kind: TransportKind) async throws {
        let error = try await Self.error(of: "/hostile/gzip-bomb", mib: 256, over: kind)
        #expect(
            error == .networkError(URLError(.cannotDecodeContentData)) || error == .responseTooLarge(limit: 16 * 1024 * 1024),
            "\(String(describing: error))")
    }

    /// The error `GET path?mib=…` ends in over `kind`, with a 30 s deadline (nil: none was thrown).
    static func error(of path: String, mib: Int, over kind: TransportKind) async throws -> NetworkError? {
        try await withSandbox { sandbox in
            let client = NetworkClient(transport: kind.make())
            return await #expect(throws: NetworkError.self) {
                try await client.response(
                    TestEndpoint(
                        baseURL: sandbox.baseURL, path: path, task: .requestParameters(["mib": String(mib)], encoding: .url),
                        timeout: .seconds(30)))
            }
        }
    }

    /// "Endless" here is 256 MiB (the benchmark's is endless), for the reason given at `gzipBomb`.
    @Test("an endless body ends at the limit", arguments: TransportKind.allCases)
    func endless(_ kind: TransportKind) async throws {
        #expect(try await Self.error(of: "/hostile/endless", mib: 256, over: kind) == .responseTooLarge(limit: 16 * 1024 * 1024))
    }

    @Test("a declared 4 GiB Content-Length is refused before the body is read", arguments: TransportKind.allCases)
    func declaredLength(_ kind: TransportKind) async throws {
        try await withSandbox { sandbox in
            let client = NetworkClient(transport: kind.make())
            let started = ContinuousClock.now
            let error = await #expect(throws: NetworkError.self) {
                try await client.response(
                    TestEndpoint(
                        baseURL: sandbox.baseURL, path: "/hostile/declared",
                        task: .requestParameters(["bytes": "4294967296", "send": "268435456"], encoding: .url), timeout: .seconds(30)))
            }
            #expect(error == .responseTooLarge(limit: 16 * 1024 * 1024))
            #expect(ContinuousClock.now - started < .seconds(10))
        }
    }

    @Test("a body dripping 2 bytes a second (50 s in all) ends at a 3 s deadline", arguments: TransportKind.allCases)
    func drip(_ kind: TransportKind) async throws {
        try await withSandbox { sandbox in
            let client = NetworkClient(transport: kind.make())
            let started = ContinuousClock.now
            let error = await #expect(throws: NetworkError.self) {
                try await client.response(
                    TestEndpoint(
                        baseURL: sandbox.baseURL, path: "/drip",
                        task: .requestParameters(
                            ["bytes": "100", "intervalMs": "500"], encoding: .url), timeout: .seconds(3)))
            }
            let elapsed = ContinuousClock.now - started
            #expect(error == .networkError(URLError(.timedOut)))
            #expect(elapsed < .seconds(10), "\(elapsed)")
        }
    }

    @Test("a head dripping a byte every 300 ms (a minute in all) ends at a 3 s deadline", arguments: TransportKind.allCases)
    func drippingHead(_ kind: TransportKind) async throws {
        let peer = DrippingHeadPeer()
        let client = NetworkClient(transport: kind.make())
        let started = ContinuousClock.now
        let error = await #expect(throws: NetworkError.self) {
            try await client.response(TestEndpoint(baseURL: peer.baseURL, path: "/", timeout: .seconds(3)))
        }
        let elapsed = ContinuousClock.now - started
        peer.stop()
        #expect(error == .networkError(URLError(.timedOut)))
        #expect(elapsed < .seconds(10), "\(elapsed)")
    }

    @Test("a header flood is refused", arguments: TransportKind.allCases)
    func headerFlood(_ kind: TransportKind) async throws {
        try await withSandbox { sandbox in
            let client = NetworkClient(transport: kind.make())
            let error = await #expect(throws: NetworkError.self) {
                try await client.response(TestEndpoint(sandbox.baseURL, "/hostile/headers", query: ["count": "1000"]))
            }
            #expect(error == .networkError(URLError(.cannotParseResponse)))
            // Within the limits, the same route is an answer.
            let fine = try await client.response(TestEndpoint(sandbox.baseURL, "/hostile/headers", query: ["count": "20"]))
            #expect(fine.statusCode == 200)
        }
    }

    @Test("credentials never follow a redirect to another origin; same-origin hops keep them", arguments: TransportKind.allCases)
    func crossOriginRedirect(_ kind: TransportKind) async throws {
        try await withSandbox { sandbox in
            let client = NetworkClient(transport: kind.make())
            let port = try #require(sandbox.baseURL.port)
            let headers = ["Authorization": "Bearer SECRET-TOKEN", "Cookie": "session=SECRET-COOKIE", "X-Api-Key": "SECRET-KEY"]
            // 127.0.0.1 → localhost: another host, so another origin.
            let other = "http://localhost:\(port)/echo?key=SECRET-KEY&page=2"
            let away = try await client.request(
                TestEndpoint(
                    baseURL: sandbox.baseURL, path: "/hostile/redirect", task: .requestParameters(["to": other], encoding: .url),
                    headers: headers, secrets: ["SECRET-KEY"]), as: Echo.self)
            #expect(away.headers["authorization"] == nil)
            #expect(away.headers["cookie"] == nil)
            #expect(away.headers["x-api-key"] == nil, "a header carrying a declared secret")
            #expect(away.query == [["page", "2"]], "a query item carrying a declared secret")
            let same = "http://127.0.0.1:\(port)/echo"
            let home = try await client.request(
                TestEndpoint(
                    baseURL: sandbox.baseURL, path: "/hostile/redirect", task: .requestParameters(["to": same], encoding: .url),
                    headers: headers), as: Echo.self)
            #expect(home.headers["authorization"] == "Bearer SECRET-TOKEN")
            #expect(home.headers["cookie"] == "session=SECRET-COOKIE")
            #expect(home.headers["x-api-key"] == "SECRET-KEY")
        }
    }

    @Test("redirects to file:, to nowhere and in a loop end with their URLError", arguments: TransportKind.allCases)
    func badRedirects(_ kind: TransportKind) async throws {
        try await withSandbox { sandbox in
            let client = NetworkClient(transport: kind.make())
            func error(to target: String) async -> NetworkError? {
                await #expect(throws: NetworkError.self) {
                    try await client.response(TestEndpoint(sandbox.baseURL, "/hostile/redirect", query: ["to": target]))
                }
            }
            #expect(await error(to: "file:///etc/passwd") == .networkError(URLError(.unsupportedURL)))
            #expect(await error(to: "http://") == .networkError(URLError(.redirectToNonExistentLocation)))
            let loop = await #expect(throws: NetworkError.self) {
                try await client.response(TestEndpoint(baseURL: sandbox.baseURL, path: "/redirect-loop", timeout: .seconds(10)))
            }
            #expect(loop == .networkError(URLError(.httpTooManyRedirects)))
            // A plain-http hop to a host that is not allowed is refused as the first request would be.
            #expect(await error(to: "http://example.com/") == .insecureURL(host: "example.com"))
        }
    }

    @Test("303 (and 302 after POST) becomes a GET without a body; 307 keeps the method and body", arguments: TransportKind.allCases)
    func redirectMethods(_ kind: TransportKind) async throws {
        try await withSandbox { sandbox in
            let client = NetworkClient(transport: kind.make())
            func post(_ status: Int) async throws -> Echo {
                try await client.request(
                    TestEndpoint(
                        baseURL: sandbox.baseURL, path: "/hostile/redirect",
                        method: .post,
                        task: .requestComposite(
                            query: ["to": "/echo", "status": "\(status)"], body: .requestData(Data("payload".utf8), contentType: "text/plain"))),
                    as: Echo.self)
            }
            let seeOther = try await post(303)
            #expect(seeOther.method == "GET")
            #expect((seeOther.body ?? "").isEmpty)
            #expect(seeOther.headers["content-type"] == nil)
            let found = try await post(302)
            #expect(found.method == "GET")
            let temporary = try await post(307)
            #expect(temporary.method == "POST")
            #expect(temporary.body == "payload")
        }
    }

    @Test("a client that does not follow redirects hands the 3xx back")
    func notFollowing() async throws {
        try await withSandbox { sandbox in
            let client = NetworkClient(configuration: .init(transport: TransportKind.asyncHTTPClient.make(), redirects: .none))
            let answer = try await client.response(
                TestEndpoint(sandbox.baseURL, "/hostile/redirect", query: ["to": "/echo"]), validatingStatus: false)
            #expect(answer.statusCode == 302)
            #expect(answer.headers[.location] == "/echo")
        }
    }
}

/// A peer on 127.0.0.1 that answers every connection with a status line and then drips header
/// bytes, one every 300 ms, for up to a minute — a head that never ends.
final class DrippingHeadPeer: Sendable {
    let port: Int
    private let descriptor: Int32
    /// Whether the peer was stopped (a class: the threads share it).
    private final class Flag: Sendable {
        let raised = Mutex(false)
        var isRaised: Bool { raised.withLock { $0 } }
    }
    private let stopped = Flag()

    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    init() {
        let descriptor = LoopbackSocket.make()
        port =
            LoopbackSocket.withAddress { address, length in
                bind(descriptor, address, length) == 0 && listen(descriptor, 8) == 0 && getsockname(descriptor, address, &length) == 0
            }.port
        self.descriptor = descriptor
        let stopped = self.stopped
        Thread.detachNewThread {
            while !stopped.isRaised {
                let connection = accept(descriptor, nil, nil)
                guard connection >= 0 else { return }
                Thread.detachNewThread {
                    defer { close(connection) }
                    LoopbackSocket.send(connection, Array("HTTP/1.1 200 OK\r\nX-Drip: ".utf8))
                    for _ in 0..<200 where !stopped.isRaised {
                        guard LoopbackSocket.send(connection, [UInt8(ascii: "a")]) == 1 else { return }
                        Thread.sleep(forTimeInterval: 0.3)
                    }
                }
            }
        }
    }

    func stop() {
        stopped.raised.withLock { $0 = true }
        shutdown(descriptor, Int32(SHUT_RDWR))
        close(descriptor)
    }
}
