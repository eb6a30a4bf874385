import Courier
import CourierObservability
import CourierSandbox
import Foundation
import IntegrationTestSupport
import Testing

/// ``HARRecorder`` over real sockets: the log has every field HAR 1.2 requires, a HAR reader
/// (PyPI's haralyzer, installed by Scripts/test.sh) opens it, and no credential reaches it.
@Suite("HAR logs: one entry per HTTP exchange, read back by haralyzer")
struct HARRecorderTests {
    /// A new empty folder for a test's log (the caller removes it).
    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("har-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test("a retried call, a redirect, a JSON POST and a binary body: one entry per exchange, timings, redacted credentials, base64 for binary")
    func log() async throws {
        try await withSandbox { sandbox in
            let folder = try Self.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let file = folder.appendingPathComponent("calls.har")
            let har = HARRecorder(file: file, maxBodyBytes: 1024)
            let retry = RetryMiddleware(policy: RetryPolicy(maxAttempts: 2, baseDelay: .milliseconds(5)), random: { 1 })
            let token = BearerTokenMiddleware { BearerTokenMiddleware.Token("t0ken-secret", expiresAt: Date().addingTimeInterval(3600)) }
            let client = NetworkClient(transport: NetworkClient.defaultTransport, middlewares: [retry, token, har])
            _ = try await client.response(sandbox.get("/flaky/har-\(UUID().uuidString.prefix(6))", query: ["failures": 1]))
            _ = try await client.response(sandbox.get("/redirect/1"))
            _ = try await client.response(
                TestEndpoint(
                    baseURL: sandbox.baseURL, path: "/echo", method: .post, task: .requestJSONEncodable(["password": "hunter22-secret", "n": "1"]),
                    secrets: ["hunter22-secret"]))
            _ = try await client.response(sandbox.get("/bytes/3000"))

            let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
            let text = try String(contentsOf: file, encoding: .utf8)
            #expect(!text.contains("t0ken-secret") && !text.contains("hunter22-secret"), "no credential in the log")

            let script = """
                import json, sys
                from haralyzer import HarParser
                har = json.load(open(sys.argv[1]))
                parser = HarParser(har)
                page_entries = parser.har_data["entries"]
                required_entry = ["startedDateTime", "time", "request", "response", "cache", "timings"]
                required_request = ["method", "url", "httpVersion", "cookies", "headers", "queryString", "headersSize", "bodySize"]
                required_response = ["status", "statusText", "httpVersion", "cookies", "headers", "content", "redirectURL", "headersSize", "bodySize"]
                for e in page_entries:
                    assert all(k in e for k in required_entry), e.keys()
                    assert all(k in e["request"] for k in required_request), e["request"].keys()
                    assert all(k in e["response"] for k in required_response), e["response"].keys()
                    assert all(k in e["timings"] for k in ["send", "wait", "receive"])
                    assert "size" in e["response"]["content"] and "mimeType" in e["response"]["content"]
                print(json.dumps([[e["request"]["method"], e["request"]["url"].split("?")[0].rsplit("/", 2)[-2:], e["response"]["status"],
                    e["response"]["content"].get("encoding"), e["response"]["content"]["size"], e["timings"]["wait"] >= 0] for e in page_entries]))
                """
            let scriptFile = folder.appendingPathComponent("check.py")
            try script.write(to: scriptFile, atomically: true, encoding: .utf8)
            let run = try await runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["python3", scriptFile.path, file.path], scratch: folder)
            #expect(run.status == 0, "haralyzer could not read the log: \(run.errors) \(run.output)")
            let rows = try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [[Any]] ?? []
            let statuses = rows.compactMap { $0[2] as? Int }
            #expect(statuses == [503, 200, 302, 200, 200, 200], "one entry per exchange: \(run.output)")
            let binary = try #require(rows.last)
            #expect(binary[3] as? String == "base64" && binary[4] as? Int == 3000, "\(binary)")
            #expect(text.contains("\"comment\":\"the first 1024 of 3000 bytes\""))
        }
    }

    struct Log: Decodable {
        struct Inner: Decodable {
            var entries: [Entry]
            var comment: String?
        }
        struct Entry: Decodable {
            struct Request: Decodable { var url: String }
            var request: Request
            var connection: String?
        }
        var log: Inner
    }

    @Test("a long-lived client's log keeps the last maxEntries exchanges; a recorded call's entries name their connection")
    func boundedWithConnections() async throws {
        try await withSandbox { sandbox in
            let folder = try Self.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let file = folder.appendingPathComponent("calls.har")
            let client = NetworkClient(transport: NetworkClient.defaultTransport, middlewares: [HARRecorder(file: file, maxEntries: 3)])
            let timeline = CallTimeline()
            let recording = client.recording(into: timeline)
            for index in 0..<5 { _ = try await recording.response(sandbox.get("/echo", query: ["n": index])) }
            let log = try JSONDecoder().decode(Log.self, from: Data(contentsOf: file)).log
            #expect(log.entries.map { $0.request.url.components(separatedBy: "n=").last } == ["2", "3", "4"], "the last three kept")
            #expect(log.comment == "the 2 earliest entries were left out (maxEntries)")
            let numbers = timeline.steps.compactMap { if case .connection(let number, _) = $0.kind { String(number) } else { nil } }
            #expect(numbers.count == 5 && log.entries.map(\.connection) == numbers.suffix(3).map { Optional($0) }, "\(numbers)")
        }
    }
}
