import Courier
import CourierOutbox
import CourierSandbox
import Foundation
import HTTPTypes
import IntegrationTestSupport
import Testing

/// The outbox against the sandbox over real sockets: writes journaled before they are sent,
/// delivered in order with one key each, kept queued on a transient failure and failed on a
/// final 4xx, bounded, and never writing a secret to disk.
@Suite("Outbox: writes kept on disk until delivered, once, in order")
struct OutboxTests {
    static func directory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("courier-outbox-\(UUID().uuidString)")
    }

    static func store() -> String { "outbox-\(UUID().uuidString.prefix(8))" }

    static func client(_ kind: TransportKind = .asyncHTTPClient, timeout: Duration = .seconds(10)) -> NetworkClient {
        var configuration = NetworkClient.Configuration(transport: kind.make())
        configuration.timeout = timeout
        return NetworkClient(configuration: configuration)
    }

    static func write(_ url: String, _ item: String, headers: HTTPFields = [:]) -> OutboxWrite {
        OutboxWrite(url: url, json: Data(#"{"item":"\#(item)"}"#.utf8), headerFields: headers)
    }

    static func stats(_ sandbox: RunningSandbox, _ store: String) async throws -> IdempotentStats {
        try await NetworkClient().request(sandbox.get("/idempotent/\(store)/stats"), as: IdempotentStats.self)
    }

    /// Every file's bytes in `directory`, the lock files and set-aside entries included.
    static func everyByte(in directory: URL) throws -> Data {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).reduce(into: Data()) { all, name in
            all.append(try Data(contentsOf: directory.appendingPathComponent(name)))
        }
    }

    @Test("entries go in order, one key each, and leave the outbox when delivered", arguments: TransportKind.allCases)
    func inOrder(_ kind: TransportKind) async throws {
        try await withSandbox { sandbox in
            let store = Self.store()
            let outbox = try Outbox(directory: Self.directory(), client: Self.client(kind))
            let url = "\(sandbox.baseURL.absoluteString)/idempotent/\(store)"
            var entries: [OutboxEntry] = []
            for item in ["tea", "milk", "bread"] { entries.append(try await outbox.enqueue(Self.write(url, item))) }
            #expect(await outbox.entries().map(\.id) == entries.map(\.id))
            #expect(entries.map(\.id) == entries.map(\.id).sorted(), "ids in queue order")
            let report = await outbox.flush()
            #expect(report.delivered == entries.map(\.id) && report.failed.isEmpty && report.stillQueued == 0)
            let stats = try await Self.stats(sandbox, store)
            #expect(stats.created == 3)
            #expect(stats.keys.map(\.key) == entries.map(\.idempotencyKey), "sent in order, each with its own journaled key")
            for entry in entries {
                #expect(entry.idempotencyKey.wholeMatch(of: /"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"/) != nil)
            }
            #expect(await outbox.entries().isEmpty)
        }
    }

    @Test(
        "a lost answer keeps the write queued; the next flush sends it with the same key and one resource exists", arguments: TransportKind.allCases)
    func lostAnswer(_ kind: TransportKind) async throws {
        try await withSandbox { sandbox in
            let store = Self.store()
            let directory = Self.directory()
            let outbox = try Outbox(directory: directory, client: Self.client(kind, timeout: .seconds(3)))
            let events = outbox.events()
            let outcome = try await outbox.send(Self.write("\(sandbox.baseURL.absoluteString)/idempotent/\(store)?loseAnswers=1", "tea"))
            guard case .queued(let entry, let error) = outcome else {
                Issue.record("not queued: \(outcome)")
                return
            }
            #expect(error?.family == .transport, "\(String(describing: error))")
            #expect(entry.attempts == 1 && entry.lastError != nil && entry.notBefore != nil)
            // Another process (here: another outbox on the directory) finds it and delivers it.
            let later = try Outbox(directory: directory, client: Self.client(kind))
            let stored = try #require(await later.entries().first)
            #expect(stored.idempotencyKey == entry.idempotencyKey && stored.attempts == 1 && stored.state == .queued)
            let report = await later.flush()
            #expect(report.delivered == [entry.id])
            let stats = try await Self.stats(sandbox, store)
            #expect(stats.created == 1 && stats.keys.count == 1 && stats.keys.first?.requests == 2, "\(stats)")
            var seen: [String] = []
            for await event in events {
                switch event {
                case .queued: seen.append("queued")
                case .stillQueued: seen.append("stillQueued")
                default: seen.append("other")
                }
                if seen.count == 2 { break }
            }
            #expect(seen == ["queued", "stillQueued"])
        }
    }

    @Test("a transient head stops the flush: a later write never overtakes it; dropped, the rest go")
    func orderKeptBehindTransient() async throws {
        try await withSandbox { sandbox in
            let store = Self.store()
            let outbox = try Outbox(directory: Self.directory(), client: Self.client())
            let head = try await outbox.enqueue(OutboxWrite(url: "\(sandbox.baseURL.absoluteString)/status/503", body: .data(Data("x".utf8))))
            let next = try await outbox.enqueue(Self.write("\(sandbox.baseURL.absoluteString)/idempotent/\(store)", "tea"))
            var report = await outbox.flush()
            #expect(report.stoppedAt == head.id && report.delivered.isEmpty && report.stillQueued == 2)
            #expect(try await Self.stats(sandbox, store).created == 0, "the later write was not sent")
            let stuck = try #require(await outbox.entries().first)
            #expect(stuck.lastError == "HTTP 503" && stuck.attempts == 1 && stuck.state == .queued)
            try await outbox.drop(head.id)
            report = await outbox.flush()
            #expect(report.delivered == [next.id] && report.stillQueued == 0)
            await #expect(throws: OutboxError.notFound(head.id)) { try await outbox.drop(head.id) }
        }
    }

    @Test("a final 4xx fails the write (kept with its answer, not retried); later writes still go; retry sends it again")
    func finalAnswer() async throws {
        try await withSandbox { sandbox in
            let store = Self.store()
            let url = "\(sandbox.baseURL.absoluteString)/idempotent/\(store)"
            let outbox = try Outbox(directory: Self.directory(), client: Self.client())
            guard
                case .delivered(_, let first) = try await outbox.send(
                    OutboxWrite(url: url, json: Data(#"{"item":"tea"}"#.utf8), headerFields: [.init("Idempotency-Key")!: "k-1"]))
            else {
                Issue.record("not delivered")
                return
            }
            #expect(first.statusCode == 201)
            // The same key with another payload: 422, final.
            let reused = OutboxWrite(url: url, json: Data(#"{"item":"milk"}"#.utf8), headerFields: [.init("Idempotency-Key")!: "k-1"])
            let failed = try await outbox.enqueue(reused)
            let after = try await outbox.enqueue(Self.write(url, "bread"))
            let report = await outbox.flush()
            #expect(report.failed == [failed.id] && report.delivered == [after.id] && report.stillQueued == 0)
            let kept = try #require(await outbox.entries().first)
            #expect(kept.id == failed.id && kept.state == .failed && kept.attempts == 1)
            #expect(kept.answer?.status == 422 && String(decoding: kept.answer?.body ?? Data(), as: UTF8.self).contains("another payload"))
            #expect(await outbox.flush().failed.isEmpty, "a failed entry is not sent again by a flush")
            guard case .failed(_, let answer, let error) = try await outbox.retry(failed.id) else {
                Issue.record("retry did not fail")
                return
            }
            #expect(answer?.statusCode == 422 && error.family == .client)
            #expect(try await Self.stats(sandbox, store).keys.first { $0.key == "k-1" }?.requests == 3)
        }
    }

    @Test("secret fields never reach the disk; they go with the write in this process, and from flush(headers:) after")
    func secretsStayOffDisk() async throws {
        try await withSandbox { sandbox in
            let directory = Self.directory()
            let down = RefusingPort()
            let outbox = try Outbox(directory: directory, client: Self.client(timeout: .milliseconds(500)))
            let secret = "s3cret-token-\(UUID().uuidString)"
            var write = Self.write(
                "\(down.baseURL.absoluteString)/echo", "tea",
                headers: [
                    .authorization: "Bearer \(secret)", .cookie: "session=\(secret)", .init("X-Note-Token")!: secret, .init("X-Trace")!: "kept",
                ])
            write.secretHeaders.insert("x-note-token")
            guard case .queued(let entry, _) = try await outbox.send(write) else {
                Issue.record("sent to a refusing port?")
                return
            }
            let bytes = try Self.everyByte(in: directory)
            #expect(bytes.range(of: Data(secret.utf8)) == nil, "a secret on disk")
            #expect(bytes.range(of: Data("kept".utf8)) != nil, "the other fields are journaled")
            #expect(entry.headerFields[.authorization] == nil && entry.headerFields[.init("X-Trace")!] == "kept")
            // The entry (pointed at the refusing port) cannot be re-pointed: a fresh one at the echo route shows the headers added back.
            try await outbox.drop(entry.id)
            let echoURL = "\(sandbox.baseURL.absoluteString)/echo"
            let echo = try Outbox(directory: directory, client: Self.client())
            guard case .delivered(_, let echoed) = try await echo.send(Self.write(echoURL, "tea", headers: [.authorization: "Bearer \(secret)"]))
            else {
                Issue.record("not delivered")
                return
            }
            #expect(echoed.text?.contains("Bearer \(secret)") == true, "the secret goes with the write in this process")
            _ = try await echo.enqueue(Self.write(echoURL, "milk", headers: [.authorization: "Bearer \(secret)"]))
            let restarted = try Outbox(directory: directory, client: Self.client())  // another process: no secret in memory
            let events = restarted.events()
            let report = await restarted.flush(headers: [.authorization: "Bearer from-flush"])
            #expect(report.delivered.count == 1)
            for await event in events {
                guard case .delivered(_, let response) = event else { continue }
                #expect(response.text?.contains("Bearer from-flush") == true && response.text?.contains(secret) == false)
                break
            }
            #expect(try Self.everyByte(in: directory).range(of: Data(secret.utf8)) == nil)
        }
    }

    @Test("a full outbox refuses a new write and keeps every old one")
    func full() async throws {
        let outbox = try Outbox(directory: Self.directory(), client: Self.client(), limits: OutboxLimits(maxEntries: 2, maxBytes: 1 << 20))
        let url = "http://127.0.0.1:1/notes"
        _ = try await outbox.enqueue(Self.write(url, "a"))
        _ = try await outbox.enqueue(Self.write(url, "b"))
        await #expect(throws: OutboxError.self) { try await outbox.enqueue(Self.write(url, "c")) }
        #expect(await outbox.entries().count == 2)
        let small = try Outbox(directory: Self.directory(), client: Self.client(), limits: OutboxLimits(maxEntries: 10, maxBytes: 600))
        await #expect(throws: OutboxError.self) { try await small.enqueue(OutboxWrite(url: url, body: .data(Data(count: 700)))) }
        await #expect(throws: OutboxError.self) { try await small.enqueue(OutboxWrite(url: "ftp://x/y")) }
    }

    @Test("two outboxes flushing one directory at once never send an entry twice")
    func twoFlushers() async throws {
        try await withSandbox { sandbox in
            let store = Self.store()
            let directory = Self.directory()
            let url = "\(sandbox.baseURL.absoluteString)/idempotent/\(store)"
            let first = try Outbox(directory: directory, client: Self.client())
            let second = try Outbox(directory: directory, client: Self.client())
            for index in 0..<20 { _ = try await first.enqueue(Self.write(url, "item-\(index)")) }
            async let a = first.flush()
            async let b = second.flush()
            let (one, two) = await (a, b)
            #expect(Set(one.delivered).isDisjoint(with: two.delivered))
            #expect(one.delivered.count + two.delivered.count == 20)
            let stats = try await Self.stats(sandbox, store)
            #expect(stats.created == 20 && stats.requests == 20, "\(stats.created) created of \(stats.requests) requests")
        }
    }

    @Test("the directory is private: created 0700, files 0600; refused when others may write to it")
    func privateDirectory() async throws {
        let directory = Self.directory()
        let outbox = try Outbox(directory: directory, client: Self.client())
        let entry = try await outbox.enqueue(Self.write("http://127.0.0.1:1/x", "a"))
        let attributes = try FileManager.default.attributesOfItem(atPath: directory.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o700)
        let file = directory.appendingPathComponent(entry.id + ".entry")
        #expect((try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int) == 0o600)
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: directory.path)
        #expect(throws: OutboxError.self) { try Outbox(directory: directory, client: Self.client()) }
    }

    @Test("a temporary file of a process that is gone is removed; an unreadable entry is set aside, not sent or lost")
    func leftovers() async throws {
        let directory = Self.directory()
        let outbox = try Outbox(directory: directory, client: Self.client())
        let entry = try await outbox.enqueue(Self.write("http://127.0.0.1:1/x", "a"))
        // A pid that is not running (beyond pid_max on Linux), and a torn entry file.
        let stale = directory.appendingPathComponent(".tmp-99999999-abc")
        try Data("half".utf8).write(to: stale)
        let file = directory.appendingPathComponent(entry.id + ".entry")
        let whole = try Data(contentsOf: file)
        try whole.prefix(whole.count - 3).write(to: file)
        let reopened = try Outbox(directory: directory, client: Self.client())
        #expect(!FileManager.default.fileExists(atPath: stale.path))
        #expect(await reopened.entries().isEmpty, "a torn entry is not an entry")
        _ = await reopened.flush()
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent(entry.id + ".unreadable").path))
    }

    @Test(
        "a flooded final answer: over the client's header limit it fails the write (not retried forever), within it the answer is kept; the entry stays readable",
        arguments: TransportKind.allCases)
    func floodedAnswer(_ kind: TransportKind) async throws {
        try await withSandbox { sandbox in
            let outbox = try Outbox(directory: Self.directory(), client: Self.client(kind))
            let base = "\(sandbox.baseURL.absoluteString)/hostile/headers?size=64&status=422"
            guard case .failed(let refused, nil, let error) = try await outbox.send(Self.write(base + "&count=1000", "tea")) else {
                Issue.record("1,000 fields: not failed without an answer")
                return
            }
            #expect(error == .networkError(URLError(.cannotParseResponse)), "\(error)")
            guard case .failed(let kept, let answer, _) = try await outbox.send(Self.write(base + "&count=200", "milk")) else {
                Issue.record("200 fields: not failed")
                return
            }
            #expect(answer?.statusCode == 422 && (answer?.headers.count ?? 0) > 200)
            let entries = await outbox.entries()
            #expect(entries.map(\.id) == [refused.id, kept.id] && entries.allSatisfy { $0.state == .failed })
            #expect(entries.first?.lastError?.contains("cannotParseResponse") == true)
            #expect(entries.last?.answer?.status == 422 && (entries.last?.answer?.headerFields.count ?? 0) > 200)
        }
    }
}
