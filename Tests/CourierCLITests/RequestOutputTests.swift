import CourierSandbox
import CourierTestSupport
import Foundation
import Testing

/// `courier request` with stdout a file (not a terminal), as a script runs it: escaping is for
/// terminals only, so the server's bytes arrive as they were sent.
@Suite("courier request: output that is not a terminal is not escaped")
struct RequestOutputTests {
    /// Runs the built `courier` with `arguments`; its status, stdout bytes and stderr text.
    static func courier(_ arguments: [String]) async throws -> (status: ChildProcess.Termination, output: Data, errors: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cli-output-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("out"), errors = directory.appendingPathComponent("err")
        let status = try await ChildProcess.run(try ChildProcess.courierBinary(), arguments, stdout: .file(output), stderr: .file(errors))
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
        #expect(text.contains("\"body\" : \"\(hostile)\""), "\(text)")
        #expect(!text.contains("␡") && !text.contains("␛"))
    }
}
