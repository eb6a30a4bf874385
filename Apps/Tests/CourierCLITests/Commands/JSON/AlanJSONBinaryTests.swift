import Foundation
import IntegrationTestSupport
import Testing

/// `courier alan ask --json [--stream]` run as a binary against the embedded sandbox.
@Suite("courier alan ask --json")
struct AlanJSONBinaryTests {
    /// Runs the built `courier` with `arguments`; its status, stdout and stderr.
    static func courier(_ arguments: [String]) async throws -> (status: ChildProcess.Termination, output: String, errors: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cli-alan-json-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("out")
        let errors = directory.appendingPathComponent("err")
        let status = try await ChildProcess.run(
            try ChildProcess.courierBinary(), arguments, stdin: .null, stdout: .file(output), stderr: .file(errors))
        return (
            status, String(decoding: try Data(contentsOf: output), as: UTF8.self),
            String(decoding: try Data(contentsOf: errors), as: UTF8.self)
        )
    }

    /// A prompt the stand-in answers with the weekly section's JSON, citations after its values.
    static let weeklyPrompt = "비트코인 주간 동향: struct CoinWeekly { priceTrend, volumeChange, reason } #breakage:citation"

    @Test("--stream prints the JSON growing line by line; its last line is what --json without --stream prints")
    func streamedLinesEndWithTheWholeExtraction() async throws {
        let whole = try await Self.courier(["alan", "ask", Self.weeklyPrompt, "--json", "--sandbox"])
        let streamed = try await Self.courier(["alan", "ask", Self.weeklyPrompt, "--json", "--stream", "--sandbox"])
        #expect(whole.status == .exited(0), "\(whole.errors)")
        #expect(streamed.status == .exited(0), "\(streamed.errors)")
        let lines = streamed.output.split(separator: "\n").map(String.init)
        #expect(lines.count >= 3, "\(streamed.output)")
        #expect(lines.last == whole.output.trimmingCharacters(in: .newlines))
        #expect(!whole.output.contains("출처"))
        var previous = 0
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String], "\(line)")
            // Members only come: each line has at least the members of the one before.
            #expect(object.count >= previous)
            previous = object.count
        }
        // The text answer is what `json extract` reads: the same final JSON.
        let text = try await Self.courier(["alan", "ask", Self.weeklyPrompt, "--sandbox"])
        let extracted = try await JSONPartialBinaryTests.courier(["json", "extract"], input: text.output)
        #expect(extracted.output == whole.output)
    }

    @Test("an answer without JSON: the model's words on stderr, extract's exit code 14")
    func refusal() async throws {
        let result = try await Self.courier(["alan", "ask", "비트코인이 뭐야?", "--json", "--stream", "--sandbox"])
        #expect(result.status == .exited(14))
        #expect(result.errors.contains("no JSON in the answer"))
        #expect(result.output.isEmpty)
    }
}
