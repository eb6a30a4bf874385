import Courier
import CourierSandbox
import Foundation
import IntegrationTestSupport
import Testing

/// `courier request … --idempotency-key auto|VALUE` run as a binary against the sandbox's
/// `/idempotent` and `/flaky` routes.
@Suite("courier request --idempotency-key: one key on every attempt, a keyed POST retried, a keyless one not")
struct IdempotencyKeyBinaryTests {
    static func base(_ sandbox: RunningSandbox) -> String {
        var base = sandbox.baseURL.absoluteString
        if base.hasSuffix("/") { base.removeLast() }
        return base
    }

    @Test("auto: a lost answer retried with one minted key creates one resource; VALUE is sent verbatim")
    func autoAndVerbatim() async throws {
        try await withSandbox { sandbox in
            let store = "cli-\(UUID().uuidString.prefix(8))"
            let url = Self.base(sandbox) + "/idempotent/\(store)"
            let (status, output, errors) = try await RequestOutputTests.courier([
                "request", "POST", url + "?loseAnswers=1", "--json", #"{"item":"tea"}"#, "--retry", "3", "--idempotency-key", "auto",
            ])
            #expect(status == .exited(0), "\(errors)")
            let text = String(decoding: output, as: UTF8.self)
            #expect(text.contains(#""id":1"#), "\(text)")
            let (verbatim, _, verbatimErrors) = try await RequestOutputTests.courier([
                "request", "POST", url, "--json", #"{"item":"cake"}"#, "--idempotency-key", "order-42",
            ])
            #expect(verbatim == .exited(0), "\(verbatimErrors)")
            let stats = try await NetworkClient().request(sandbox.get("/idempotent/\(store)/stats"), as: IdempotentStats.self)
            #expect(stats.created == 2 && stats.keys.count == 2, "\(stats)")
            #expect(stats.keys.first?.requests == 2, "the minted key on both attempts: \(stats)")
            let minted = stats.keys.first?.key ?? ""
            #expect(minted.wholeMatch(of: /"[0-9a-f-]{36}"/) != nil, "a quoted UUID: \(minted)")
            #expect(stats.keys.last?.key == "order-42")
        }
    }

    @Test("a keyless POST answered 503 ends at once with exit 12; with a key it is retried")
    func keylessNotRetried() async throws {
        try await withSandbox { sandbox in
            let keyless = "cli-keyless-\(UUID().uuidString.prefix(8))"
            let (status, _, errors) = try await RequestOutputTests.courier([
                "request", "POST", Self.base(sandbox) + "/flaky/\(keyless)?failures=1", "--json", "{}", "--retry", "3",
            ])
            #expect(status == .exited(12), "\(errors)")
            #expect(try await NetworkClient().request(sandbox.get("/flaky/\(keyless)/stats"), as: FlakyStats.self).attempts == 1)
            let keyed = "cli-keyed-\(UUID().uuidString.prefix(8))"
            let (retried, _, retriedErrors) = try await RequestOutputTests.courier([
                "request", "POST", Self.base(sandbox) + "/flaky/\(keyed)?failures=1", "--json", "{}", "--retry", "3", "--idempotency-key", "auto",
            ])
            #expect(retried == .exited(0), "\(retriedErrors)")
            #expect(try await NetworkClient().request(sandbox.get("/flaky/\(keyed)/stats"), as: FlakyStats.self).attempts == 2)
        }
    }

    @Test("a key with a control character is refused before anything is sent")
    func controlCharacterRefused() async throws {
        let (status, _, errors) = try await RequestOutputTests.courier([
            "request", "POST", "http://127.0.0.1:9/idempotent/x", "--json", "{}", "--idempotency-key", "a\u{1B}[2Jb",
        ])
        #expect(status != .exited(0))
        #expect(errors.contains("--idempotency-key"), "\(errors)")
    }
}
