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
        let llm = await LLMDemo.run(baseURL: sandbox.baseURL) { Terminal.output($0) }
        steps += llm.steps
        failures += llm.failures
        let resilience = await ResilienceDemo.run(baseURL: sandbox.baseURL) { Terminal.output($0) }
        steps += resilience.steps
        failures += resilience.failures
        let concurrency = await ConcurrencyDemo.run(baseURL: sandbox.baseURL) { Terminal.output($0) }
        steps += concurrency.steps
        failures += concurrency.failures
        let hackerNews = await HackerNewsDemo.run(baseURL: sandbox.baseURL) { Terminal.output($0) }
        steps += hackerNews.steps
        failures += hackerNews.failures
        let coin = await CoinDemo.run(baseURL: sandbox.baseURL) { Terminal.output($0) }
        steps += coin.steps
        failures += coin.failures
        let raon = await RaonDemo.run(baseURL: sandbox.baseURL) { Terminal.output($0) }
        steps += raon.steps
        failures += raon.failures
        let cache = await CacheDemo.run(baseURL: sandbox.baseURL) { Terminal.output($0) }
        steps += cache.steps
        failures += cache.failures
        let webSocket = await WebSocketDemo.run(baseURL: sandbox.baseURL) { Terminal.output($0) }
        steps += webSocket.steps
        failures += webSocket.failures
        await sandbox.stop()
        Terminal.output("\n\(failures == 0 ? "✓" : "✗") demo finished: \(steps) steps, \(failures) unexpected — \(core.oneLine); \(accounts.oneLine)")
        if failures > 0 { throw ExitCode(1) }
    }
}
