import Foundation
import IntegrationTestSupport
import Testing

#if canImport(Glibc)
import Glibc

/// The password prompt of `courier users login` in a real (pseudo-)terminal: echo is off while
/// it waits, and back on however it ends — Ctrl-C included.
@Suite("courier users: the password prompt gives the terminal back")
struct PasswordPromptInterruptTests {
    /// `courier users login` at its prompt in a new terminal, with a scratch HOME; nothing listens
    /// on the server's port, so nothing is sent if a password gets through.
    static func atPrompt(_ scratch: URL) async throws -> PseudoTerminalChild {
        var environment = ProcessInfo.processInfo.environment.filter { $0.key != "COURIER_PASSWORD" }
        environment["HOME"] = scratch.path
        environment["XDG_CONFIG_HOME"] = scratch.appendingPathComponent("config").path
        environment["TERM"] = "xterm"
        let child = try PseudoTerminalChild(
            try ChildProcess.courierBinary(),
            [
                "users", "login", "--username", "someone", "--server", "http://127.0.0.1:9", "--credentials",
                scratch.appendingPathComponent("c.json").path,
            ],
            environment: environment)
        let shown = await child.read { $0.contains("Password: ") }
        try #require(shown.contains("Password: "), "no prompt; the terminal showed \(shown.debugDescription)")
        // The prompt is written just before echo goes off.
        try #require(try await child.waitUntil { !child.echoes }, "echo still on at the prompt")
        return child
    }

    @Test(
        "Ctrl-C (SIGINT, 130) and Ctrl-\\ (SIGQUIT, 131) at the prompt: echo back on, a clean exit with 128 + the signal",
        arguments: [(UInt8(0x03), Int32(130)), (UInt8(0x1C), Int32(131))])
    func interruptRestoresEcho(key: UInt8, status: Int32) async throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("cli-prompt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let child = try await Self.atPrompt(scratch)
        child.type([key])
        let ended = await child.wait()
        // Without the handler the signal ends the process (no exit status) and echo stays off:
        // everything typed in that terminal afterwards is invisible.
        #expect(ended.signal == nil && ended.exited == status, "\(ended)")
        #expect(child.echoes, "the terminal was left without echo")
    }

    @Test("a password typed at the prompt is not shown, and echo is back on afterwards")
    func typedPasswordHidden() async throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("cli-prompt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let child = try await Self.atPrompt(scratch)
        child.type(Array("Secret0pass\r".utf8))
        let ended = await child.wait()
        // What it showed after the prompt (the terminal stays open here, so no end of file).
        let shown = await child.read(until: { _ in false }, timeout: .milliseconds(500))
        #expect(ended.exited == 10, "nothing listens on port 9: a transport error; \(ended) \(shown)")
        #expect(!shown.contains("Secret0pass"), "the password was echoed: \(shown.debugDescription)")
        #expect(child.echoes)
    }
}
#endif
