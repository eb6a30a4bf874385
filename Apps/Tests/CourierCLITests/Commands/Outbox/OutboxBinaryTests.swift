import Courier
import CourierSandbox
import Foundation
import IntegrationTestSupport
import Testing

/// `courier request … --outbox DIR` and `courier outbox list|flush|drop` run as binaries against
/// the sandbox: a write queued while its server is down (exit 75), listed, flushed once when it
/// is back, in order, with its one key; a final 4xx kept as failed (exit 11); no secret on disk.
@Suite("courier outbox: writes kept until delivered, exit 75 while queued")
struct OutboxBinaryTests {
    static func directory() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("courier-outbox-cli-\(UUID().uuidString)").path
    }

    static func lines(_ output: Data) -> [[String: Any]] {
        String(decoding: output, as: UTF8.self).split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    @Test("queued while the server is down (exit 75), listed, flushed in order once it is up, each write created once")
    func queuedThenFlushed() async throws {
        try await withSandbox { sandbox in
            let directory = Self.directory()
            let store = "cli-outbox-\(UUID().uuidString.prefix(8))"
            let down = RefusingPort()
            let secret = "tok-\(UUID().uuidString)"
            // Both writes go to a port that refuses: queued, in order.
            for item in ["tea", "milk"] {
                let (status, output, errors) = try await RequestOutputTests.courier([
                    "request", "POST", "\(down.baseURL.absoluteString)/idempotent/\(store)?key=\(secret)", "--json", #"{"item":"\#(item)"}"#,
                    "-H", "Authorization: Bearer \(secret)", "--outbox", directory, "--timeout", "2",
                ])
                #expect(status == .exited(75), "\(errors)")
                #expect(output.isEmpty)
                #expect(errors.contains("queued "), "\(errors)")
            }
            let (listed, listOutput, listErrors) = try await RequestOutputTests.courier(["outbox", "list", directory, "--json"])
            #expect(listed == .exited(0), "\(listErrors)")
            let entries = Self.lines(listOutput)
            #expect(entries.count == 2)
            #expect(entries.allSatisfy { $0["state"] as? String == "queued" && $0["method"] as? String == "POST" })
            // In order: the second command sent the first write again (it may not overtake it) and stopped there.
            #expect(entries.map { $0["attempts"] as? Int } == [2, 0], "\(entries)")
            #expect(entries.allSatisfy { ($0["url"] as? String)?.contains(secret) == false }, "the URL redacted as logs redact it")
            #expect(entries.first?["lastError"] is String && entries.allSatisfy { $0["createdAt"] is String && $0["id"] is String })
            // No secret in any file of the directory.
            for name in try FileManager.default.contentsOfDirectory(atPath: directory) {
                let bytes = try Data(contentsOf: URL(fileURLWithPath: directory).appendingPathComponent(name))
                #expect(bytes.range(of: Data("Bearer \(secret)".utf8)) == nil, "the token reached \(name)")
            }
            // The server is back (the entries are re-pointed by dropping them and queueing to the sandbox).
            for entry in entries {
                let (dropped, _, dropErrors) = try await RequestOutputTests.courier(["outbox", "drop", directory, entry["id"] as? String ?? ""])
                #expect(dropped == .exited(0), "\(dropErrors)")
            }
            let url = "\(sandbox.baseURL.absoluteString)/idempotent/\(store)"
            for item in ["tea", "milk"] {
                let (status, _, errors) = try await RequestOutputTests.courier([
                    "request", "POST", url + "?loseAnswers=1", "--json", #"{"item":"\#(item)"}"#, "--outbox", directory,
                ])
                #expect(status == .exited(75), "a lost answer leaves it queued: \(errors)")
            }
            // The second command delivered the first write (its replayed answer) before losing its own.
            let (flushed, _, flushErrors) = try await RequestOutputTests.courier(["outbox", "flush", directory, "-H", "Authorization: Bearer x"])
            #expect(flushed == .exited(0), "\(flushErrors)")
            #expect(flushErrors.components(separatedBy: "delivered ").count == 2, "\(flushErrors)")
            let stats = try await NetworkClient().request(sandbox.get("/idempotent/\(store)/stats"), as: IdempotentStats.self)
            #expect(stats.created == 2, "\(stats)")
            #expect(stats.keys.map(\.requests) == [2, 2], "each write's one key on its lost and its flushed attempt: \(stats)")
            let (empty, emptyOutput, _) = try await RequestOutputTests.courier(["outbox", "list", directory, "--json"])
            #expect(empty == .exited(0) && emptyOutput.isEmpty)
        }
    }

    @Test("a final 4xx prints and exits as without --outbox (11) and is kept as failed; flush exits 11 for it, then 0")
    func finalAnswer() async throws {
        try await withSandbox { sandbox in
            let directory = Self.directory()
            let url = "\(sandbox.baseURL.absoluteString)/idempotent/cli-final-\(UUID().uuidString.prefix(8))"
            let (first, firstOutput, firstErrors) = try await RequestOutputTests.courier([
                "request", "POST", url, "--json", #"{"item":"tea"}"#, "--idempotency-key", "k-7", "--outbox", directory,
            ])
            #expect(first == .exited(0), "\(firstErrors)")
            #expect(String(decoding: firstOutput, as: UTF8.self).contains(#""key":"k-7""#))
            let (reused, reusedOutput, reusedErrors) = try await RequestOutputTests.courier([
                "request", "POST", url, "--json", #"{"item":"milk"}"#, "--idempotency-key", "k-7", "--outbox", directory,
            ])
            #expect(reused == .exited(11), "\(reusedErrors)")
            #expect(reusedOutput.isEmpty && reusedErrors.contains("another payload"), "as without --outbox: the error on stderr")
            let entries = Self.lines(try await RequestOutputTests.courier(["outbox", "list", directory, "--json"]).1)
            #expect(entries.count == 1 && entries.first?["state"] as? String == "failed" && entries.first?["lastError"] as? String == "HTTP 422")
            let (flushed, _, _) = try await RequestOutputTests.courier(["outbox", "flush", directory])
            #expect(flushed == .exited(0), "a failed write is not sent again, and failed in no flush")
        }
    }

    @Test("a keyless POST without --outbox answered 503 is not retried (exit 12); DIR is created 0700")
    func keylessAndDirectory() async throws {
        try await withSandbox { sandbox in
            let directory = Self.directory()
            let (status, _, errors) = try await RequestOutputTests.courier([
                "request", "POST", "\(sandbox.baseURL.absoluteString)/status/503", "--json", "{}", "--outbox", directory,
            ])
            #expect(status == .exited(75), "a 503 keeps the write queued: \(errors)")
            let mode = try FileManager.default.attributesOfItem(atPath: directory)[.posixPermissions] as? Int
            #expect(mode == 0o700)
            let (flushed, _, flushErrors) = try await RequestOutputTests.courier(["outbox", "flush", directory])
            #expect(flushed == .exited(75), "\(flushErrors)")
            #expect(flushErrors.contains("HTTP 503"), "\(flushErrors)")
        }
    }
}
