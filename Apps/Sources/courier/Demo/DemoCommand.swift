import ArgumentParser
import Courier
import CourierSandbox
import Foundation
import Logging

/// `courier demo`: the sandbox in-process, and Courier walked through it — no flags, no network.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Start the sandbox in-process and walk Courier through it (no setup, no network)."
    )

    func run() async throws {
        let dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("courier-demo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dataDirectory) }
        var options = SandboxServer.Options()
        options.dataDirectory = dataDirectory
        let sandbox = try await SandboxServer.start(options: options)
        Terminal.output("sandbox listening on \(sandbox.baseURL.absoluteString) (temporary data)\n")
        var failures = 0
        var steps = 0
        let accounts = try await AccountsDemo.run(baseURL: sandbox.baseURL) { Terminal.output($0) }
        steps += accounts.steps
        failures += accounts.failures
        Terminal.output("")
        let core = await CoreDemo.run(baseURL: sandbox.baseURL) { Terminal.output($0) }
        steps += core.steps
        failures += core.failures
        // The other sections, in order; each reports its steps and the unexpected ones.
        let sections: [(URL) async -> (steps: Int, failures: Int)] = [
            { await LLMDemo.run(baseURL: $0) { Terminal.output($0) } },
            { await ResilienceDemo.run(baseURL: $0) { Terminal.output($0) } },
            { await CalmDemo.run(baseURL: $0) { Terminal.output($0) } },
            { await ConcurrencyDemo.run(baseURL: $0) { Terminal.output($0) } },
            { await HackerNewsDemo.run(baseURL: $0) { Terminal.output($0) } },
            { await CoinDemo.run(baseURL: $0, alanControl: sandbox.alan) { Terminal.output($0) } },
            {
                let raon = await RaonDemo.run(baseURL: $0) { Terminal.output($0) }
                return (raon.steps, raon.failures)
            },
            { await CacheDemo.run(baseURL: $0) { Terminal.output($0) } },
            { await TransferDemo.run(baseURL: $0) { Terminal.output($0) } },
            { await WebSocketDemo.run(baseURL: $0) { Terminal.output($0) } },
        ]
        for section in sections {
            let tally = await section(sandbox.baseURL)
            steps += tally.steps
            failures += tally.failures
        }
        await sandbox.stop()
        Terminal.output("\n\(failures == 0 ? "✓" : "✗") demo finished: \(steps) steps, \(failures) unexpected — \(core.oneLine); \(accounts.oneLine)")
        if failures > 0 { throw ExitCode(ExitCodes.failure) }
    }
}
