import Foundation
import IntegrationTestSupport
import Testing

/// `courier json extract --partial` run as a binary, the answer on standard input from a file.
@Suite("courier json extract --partial")
struct JSONPartialBinaryTests {
    /// Runs the built `courier` with `arguments` and `input` on stdin; its status, stdout and stderr.
    static func courier(_ arguments: [String], input: String) async throws -> (status: ChildProcess.Termination, output: String, errors: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cli-partial-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let answer = directory.appendingPathComponent("answer.txt")
        let output = directory.appendingPathComponent("out")
        let errors = directory.appendingPathComponent("err")
        try Data(input.utf8).write(to: answer)
        let status = try await ChildProcess.run(
            try ChildProcess.courierBinary(), arguments, stdin: .file(answer), stdout: .file(output), stderr: .file(errors))
        return (
            status, String(decoding: try Data(contentsOf: output), as: UTF8.self),
            String(decoding: try Data(contentsOf: errors), as: UTF8.self)
        )
    }

    @Test("the last line is what `json extract` prints for the whole answer; every line is JSON or a restart's empty line")
    func lastLineEqualsExtract() async throws {
        let answer = "Here you go:\n```json\n{name: 'Bitcoin', \"tags\": ['btc', 'crypto',], ok: True}\n```\nAnything else?"
        let whole = try await Self.courier(["json", "extract"], input: answer)
        let partial = try await Self.courier(["json", "extract", "--partial"], input: answer)
        #expect(whole.status == .exited(0))
        #expect(partial.status == .exited(0))
        let lines = partial.output.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.last.map(String.init) == whole.output.trimmingCharacters(in: .newlines))
        for line in lines where !line.isEmpty {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "\(line)")
        }
    }

    @Test("a fenced block after bare JSON ends with the fenced value; only a restart prints an empty line")
    func fencedBlockWins() async throws {
        let answer = "Draft: {\"a\": 1, \"b\": 2}\nFinal:\n```json\n{\"c\": 3}\n```\n"
        let partial = try await Self.courier(["json", "extract", "--partial"], input: answer)
        #expect(partial.status == .exited(0))
        #expect(partial.output.hasSuffix("{\"c\":3}\n"))
        let lines = partial.output.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        if let empty = lines.firstIndex(of: "") {
            #expect(lines[lines.index(after: empty)...].allSatisfy { $0 == "{\"c\":3}" })
        }
    }

    @Test("exit codes as `extract`: 14 without JSON, 64 for a bad schema file")
    func exitCodes() async throws {
        let refusal = try await Self.courier(["json", "extract", "--partial"], input: "I cannot answer that.")
        #expect(refusal.status == .exited(14))
        #expect(refusal.errors.contains("I cannot answer that."))
        let badSchema = try await Self.courier(["json", "extract", "--partial", "--schema", "/nonexistent/schema.json"], input: "{}")
        #expect(badSchema.status == .exited(64))
    }
}
