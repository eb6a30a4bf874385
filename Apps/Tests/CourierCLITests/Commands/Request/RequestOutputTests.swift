import CourierSandbox
import Foundation
import IntegrationTestSupport
import Testing

@testable import courier

/// `courier request` with stdout a file (not a terminal), as a script runs it: escaping is for
/// terminals only, so the server's bytes arrive as they were sent.
@Suite("courier request: output that is not a terminal is not escaped")
struct RequestOutputTests {
    /// Runs the built `courier` with `arguments`; its status, stdout bytes and stderr text.
    static func courier(
        _ arguments: [String], environment: [String: String]? = nil
    ) async throws -> (status: ChildProcess.Termination, output: Data, errors: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cli-output-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("out")
        let errors = directory.appendingPathComponent("err")
        let status = try await ChildProcess.run(
            try ChildProcess.courierBinary(), arguments, environment: environment, stdout: .file(output), stderr: .file(errors))
        return (status, try Data(contentsOf: output), String(decoding: try Data(contentsOf: errors), as: UTF8.self))
    }

    /// `body` with the address of a sandbox started for it, stopped afterwards, thrown or not.
    static func withSandbox<T>(_ body: (String) async throws -> T) async throws -> T {
        let sandbox = try await SandboxServer.start()
        do {
            let base = sandbox.baseURL.absoluteString
            let result = try await body(base.hasSuffix("/") ? String(base.dropLast()) : base)
            await sandbox.stop()
            return result
        } catch {
            await sandbox.stop()
            throw error
        }
    }

    @Test("a binary body goes to a file byte for byte: no placeholder, no hint, no newline")
    func binaryBody() async throws {
        let (status, output, errors) = try await Self.withSandbox { base in
            try await Self.courier(["request", "GET", base + "/bytes/1000"])
        }
        #expect(status == .exited(0), "\(errors)")
        #expect(output == Data((0..<1000).map { UInt8(truncatingIfNeeded: $0) }))
        #expect(errors.isEmpty)
    }

    @Test("DEL and C1 controls in a JSON answer reach a file as sent, not as pictures")
    func controlsUnchanged() async throws {
        let hostile = "a\u{7F}b\u{9B}6n"
        let (status, output, errors) = try await Self.withSandbox { base in
            try await Self.courier(["request", "POST", base + "/echo", "--data", hostile, "--header", "Content-Type: text/plain"])
        }
        #expect(status == .exited(0), "\(errors)")
        let text = String(decoding: output, as: UTF8.self)
        #expect(text.contains("\"body\":\"\(hostile)\""), "\(text)")
        #expect(!text.contains("␡") && !text.contains("␛"))
    }

    @Test("piped, a JSON body is the server's bytes exactly: not reformatted, no newline added (as curl -s writes it)")
    func jsonBytesExactly() async throws {
        try await Self.withSandbox { base in
            let port = Int(base.split(separator: ":").last ?? "") ?? 0
            let raw = await {
                let connection = try? LoopbackConnection(port: port)
                connection?.send("GET /redirect/0 HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n")
                return await connection?.read().text ?? ""
            }()
            let sent = try #require(raw.range(of: "\r\n\r\n").map { String(raw[$0.upperBound...]) })
            // Two redirects followed by default (-L changes nothing), then the same answer.
            for extra in [[], ["-L"]] {
                let (status, output, errors) = try await Self.courier(["request", base + "/redirect/2"] + extra)
                #expect(status == .exited(0), "\(errors)")
                #expect(output == Data(sent.utf8), "\(String(decoding: output, as: UTF8.self)) vs \(sent)")
                #expect(!sent.isEmpty && output.last != UInt8(ascii: "\n"))
            }
            // --pretty asks for the person's form even when piped.
            let pretty = try await Self.courier(["request", base + "/redirect/0", "--pretty"])
            #expect(String(decoding: pretty.output, as: UTF8.self) == "{\n  \"redirected\" : true\n}\n")
        }
    }

    @Test("--include: the head as received (status line, fields, CRLF, a blank line), then the body's bytes")
    func includeHead() async throws {
        let (status, output, errors) = try await Self.withSandbox { base in
            try await Self.courier(["request", base + "/bytes/100", "--include"])
        }
        #expect(status == .exited(0), "\(errors)")
        let marker = Data("\r\n\r\n".utf8)
        let end = try #require(output.range(of: marker))
        let head = String(decoding: output[..<end.lowerBound], as: UTF8.self)
        #expect(head.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(head)")
        #expect(head.lowercased().contains("\r\ncontent-length: 100"), "\(head)")
        #expect(!head.replacingOccurrences(of: "\r\n", with: "").contains("\n"), "every line ends in CRLF")
        #expect(output[end.upperBound...] == Data((0..<100).map { UInt8(truncatingIfNeeded: $0) }))
    }

    @Test("--no-location prints the redirect itself; the method: GET, POST with a body, -X, a bad one refused (64)")
    func redirectsAndMethods() async throws {
        try await Self.withSandbox { base in
            let kept = try await Self.courier(["request", base + "/redirect/1", "--no-location", "--include"])
            let head = String(decoding: kept.output.prefix(40), as: UTF8.self)
            #expect(head.hasPrefix("HTTP/1.1 302"), "\(head) \(kept.errors)")
            #expect(kept.status == .exited(0), "the redirect asked for is no error: \(kept.errors)")

            let posted = try await Self.courier(["request", base + "/echo", "--data", "a=1"])
            #expect(posted.status == .exited(0), "\(posted.errors)")
            #expect(String(decoding: posted.output, as: UTF8.self).contains("\"method\":\"POST\""))
            let put = try await Self.courier(["request", "-X", "PUT", base + "/echo", "--json", "{\"a\":1}"])
            #expect(String(decoding: put.output, as: UTF8.self).contains("\"method\":\"PUT\""), "\(put.errors)")
            let named = try await Self.courier(["request", "DELETE", base + "/echo"])
            #expect(String(decoding: named.output, as: UTF8.self).contains("\"method\":\"DELETE\""), "\(named.errors)")

            let bad = try await Self.courier(["request", "GE T", base + "/echo"])
            #expect(bad.status == .exited(64), "\(bad.errors)")
            let two = try await Self.courier(["request", "GET", base + "/echo", "-X", "POST"])
            #expect(two.status == .exited(64), "\(two.errors)")
        }
    }

    @Test("one exit-code table: --version, json extract without JSON ends 14 (unusable response), a bad schema file 64")
    func versionAndExitCodes() async throws {
        let version = try await Self.courier(["--version"])
        #expect(version.status == .exited(0))
        #expect(String(decoding: version.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == CourierCommand.version)

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cli-json-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let answer = directory.appendingPathComponent("answer.txt")
        try Data("I cannot answer that.".utf8).write(to: answer)
        let extract = try await ChildProcess.run(try ChildProcess.courierBinary(), ["json", "extract"], stdin: .file(answer))
        #expect(extract == .exited(14))
        let badSchema = try await ChildProcess.run(
            try ChildProcess.courierBinary(), ["json", "extract", "--schema", directory.appendingPathComponent("none.json").path],
            stdin: .file(answer))
        #expect(badSchema == .exited(64))
    }
}
