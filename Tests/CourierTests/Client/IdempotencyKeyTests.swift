import Courier
import CourierSandbox
import Foundation
import HTTPTypes
import IntegrationTestSupport
import Testing

/// Idempotency keys (the IETF draft): minted once per call, kept on every attempt and redirect
/// hop, and a keyed write retried by the draft's table — against the sandbox's `/idempotent` and
/// `/flaky` routes over real sockets.
@Suite("Idempotency keys: a retried write is done once")
struct IdempotencyKeyTests {
    static func store() -> String { "store-\(UUID().uuidString.prefix(8))" }

    static func write(
        _ sandbox: RunningSandbox, _ path: String, query: RequestParameters = [:], body: [String: String] = ["item": "tea"],
        key: String? = nil, wantsKey: Bool = true
    ) -> TestEndpoint {
        TestEndpoint(
            baseURL: sandbox.baseURL, path: path, method: .post, task: .requestComposite(query: query, body: .requestJSONEncodable(body)),
            headers: key.map { ["Idempotency-Key": $0] }, traits: CallTraits(wantsIdempotencyKey: wantsKey))
    }

    static func client(_ kind: TransportKind, attempts: Int = 3, policy: (inout RetryPolicy) -> Void = { _ in }) -> NetworkClient {
        var retry = RetryPolicy(maxAttempts: attempts, baseDelay: .milliseconds(5))
        policy(&retry)
        return NetworkClient(transport: kind.make(), middlewares: [RetryMiddleware(policy: retry, budget: nil, random: { 1 })])
    }

    static func stats(_ sandbox: RunningSandbox, _ store: String) async throws -> IdempotentStats {
        try await NetworkClient().request(sandbox.get("/idempotent/\(store)/stats"), as: IdempotentStats.self)
    }

    static func flakyAttempts(_ sandbox: RunningSandbox, _ key: String) async throws -> Int {
        try await NetworkClient().request(sandbox.get("/flaky/\(key)/stats"), as: FlakyStats.self).attempts
    }

    @Test("a lost answer is retried with the same key: one resource is created, its answer replayed", arguments: TransportKind.allCases)
    func lostAnswer(_ kind: TransportKind) async throws {
        try await withSandbox { sandbox in
            let store = Self.store()
            let answer = try await Self.client(kind).response(Self.write(sandbox, "/idempotent/\(store)", query: ["loseAnswers": 1]))
            #expect(answer.statusCode == 201)
            #expect(answer.head.headerFields[HTTPField.Name("Idempotent-Replayed")!] == "true")
            let stats = try await Self.stats(sandbox, store)
            #expect(stats.created == 1 && stats.requests == 2)
            #expect(stats.keys.count == 1 && stats.keys.first?.requests == 2, "one key on both attempts: \(stats.keys)")
            let key = try #require(stats.keys.first?.key)
            #expect(
                key.wholeMatch(of: /"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"/) != nil, "a quoted sf-string UUID: \(key)")
        }
    }

    @Test(
        "keys are distinct across calls, kept across a 307 redirect, a caller's key sent as given, a bare token when asked",
        arguments: TransportKind.allCases)
    func keysAcrossCallsAndHops(_ kind: TransportKind) async throws {
        try await withSandbox { sandbox in
            let store = Self.store()
            let client = Self.client(kind)
            _ = try await client.response(Self.write(sandbox, "/idempotent/\(store)"))
            _ = try await client.response(Self.write(sandbox, "/idempotent/\(store)"))
            // URLSession on Linux (libcurl) hangs until the deadline when an answer is lost on a
            // reused connection (the 307's): the hop's answer is lost on AsyncHTTPClient only.
            let target = "\(sandbox.baseURL.absoluteString)/idempotent/\(store)?loseAnswers=\(kind == .asyncHTTPClient ? 1 : 0)"
            _ = try await client.response(Self.write(sandbox, "/hostile/redirect", query: ["to": target, "status": "307"]))
            _ = try await client.response(Self.write(sandbox, "/idempotent/\(store)", key: "order-7"))
            var configuration = NetworkClient.Configuration(transport: kind.make())
            configuration.idempotencyKeys.format = .token
            let tokenClient = NetworkClient(configuration: configuration)
            _ = try await tokenClient.response(Self.write(sandbox, "/idempotent/\(store)"))
            let stats = try await Self.stats(sandbox, store)
            #expect(stats.created == 5)
            let hopAttempts = kind == .asyncHTTPClient ? 2 : 1
            #expect(stats.keys.map(\.requests) == [1, 1, hopAttempts, 1, 1], "the redirected write's key on both its attempts: \(stats.keys)")
            #expect(Set(stats.keys.map(\.key)).count == 5, "a fresh key per call")
            #expect(stats.keys[3].key == "order-7")
            #expect(stats.keys[4].key.wholeMatch(of: /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/) != nil, "\(stats.keys[4].key)")
        }
    }

    @Test(
        "409 while the key's first request is in progress is retried after Retry-After, and gets the first answer", arguments: TransportKind.allCases)
    func conflictRetried(_ kind: TransportKind) async throws {
        try await withSandbox { sandbox in
            let store = Self.store()
            let first = Task {
                try await NetworkClient(transport: kind.make()).response(
                    Self.write(sandbox, "/idempotent/\(store)", query: ["delayMs": 6000], key: "k-409"))
            }
            // The first is in progress for 6 s from here: the second meets 409 and waits
            // Retry-After (1 s) between attempts until the first answer is there to replay.
            #expect(await eventually { try await Self.stats(sandbox, store).requests == 1 })
            let second = try await Self.client(kind, attempts: 12).response(Self.write(sandbox, "/idempotent/\(store)", key: "k-409"))
            let original = try await first.value
            #expect(second.statusCode == 201 && second.body == original.body)
            let stats = try await Self.stats(sandbox, store)
            #expect(stats.created == 1 && stats.keys.first?.requests ?? 0 >= 3, "\(stats)")
        }
    }

    @Test(
        "with a key, 503 is retried; 400 and 422 are not and end as remoteError; without a key a POST is sent once", arguments: TransportKind.allCases
    )
    func retryTable(_ kind: TransportKind) async throws {
        try await withSandbox { sandbox in
            let client = Self.client(kind)
            let retried = "keyed-503-\(UUID().uuidString.prefix(6))"
            #expect(try await client.response(Self.write(sandbox, "/flaky/\(retried)", query: ["failures": 1])).statusCode == 200)
            #expect(try await Self.flakyAttempts(sandbox, retried) == 2)
            for status in [400, 422] {
                let key = "keyed-\(status)-\(UUID().uuidString.prefix(6))"
                await #expect {
                    try await client.response(Self.write(sandbox, "/flaky/\(key)", query: ["failures": 5, "status": status]))
                } throws: { error in
                    guard case .remoteError(let code, _) = error as? NetworkError else { return false }
                    return code == status
                }
                #expect(try await Self.flakyAttempts(sandbox, key) == 1, "\(status) is final")
            }
            let keyless = "keyless-\(UUID().uuidString.prefix(6))"
            await #expect(throws: NetworkError.serviceUnavailable(503)) {
                try await client.response(Self.write(sandbox, "/flaky/\(keyless)", query: ["failures": 1], wantsKey: false))
            }
            #expect(try await Self.flakyAttempts(sandbox, keyless) == 1)
            let store = Self.store()
            await #expect {
                try await client.response(Self.write(sandbox, "/idempotent/\(store)", query: ["required": 1], wantsKey: false))
            } throws: { error in
                guard case .remoteError(400, _) = error as? NetworkError else { return false }
                return true
            }
            _ = try await client.response(Self.write(sandbox, "/idempotent/\(store)", key: "same"))
            await #expect {
                try await client.response(Self.write(sandbox, "/idempotent/\(store)", body: ["item": "coffee"], key: "same"))
            } throws: { error in
                guard case .remoteError(422, _) = error as? NetworkError else { return false }
                return true
            }
            #expect(try await Self.stats(sandbox, store).requests == 3, "400 and 422 sent once each")
        }
    }

    @Test("the attempt header, when named, numbers each attempt")
    func attemptHeader() async throws {
        try await withSandbox { sandbox in
            let store = Self.store()
            let client = Self.client(.asyncHTTPClient) { $0.attemptHeader = HTTPField.Name("x-courier-attempt")! }
            _ = try await client.response(Self.write(sandbox, "/idempotent/\(store)", query: ["loseAnswers": 2]))
            let echo = try await client.request(
                TestEndpoint(
                    baseURL: sandbox.baseURL, path: "/echo", method: .post, task: .requestJSONEncodable(["a": "1"]),
                    traits: CallTraits(wantsIdempotencyKey: true)),
                as: Echo.self)
            #expect(echo.headers["x-courier-attempt"] == "1")
            #expect(echo.headers["idempotency-key"]?.hasPrefix("\"") == true)
            let stats = try await Self.stats(sandbox, store)
            #expect(stats.keys.first?.requests == 3 && stats.created == 1, "\(stats)")
        }
    }
}
