import CourierSandbox
import Foundation
import IntegrationTestSupport
import Testing

/// The one link opener every `--open` uses, through the built `courier` (`raon show ID --open`)
/// against a sandbox, with a recording stand-in for `$BROWSER`.
@Suite("courier --open: the link opener, end to end", .serialized)
struct LinkOpenerBinaryTests {
    static let key = "CourierTestKey0123456789abcdef"

    /// `--base-url`, `--key` and `--today` for `sandbox`'s Seoul stand-in.
    static func service(_ sandbox: RunningSandbox) -> [String] {
        ["--base-url", sandbox.baseURL.appendingPathComponent("seoul").absoluteString, "--key", key, "--today", "2026-11-20"]
    }

    /// The first program `list --json` gives, as JSON.
    static func firstProgram(_ home: PrivateHome, _ sandbox: RunningSandbox) async throws -> [String: Any] {
        let list = try await home.courier(["raon", "list", "--json", "--district", "종로구"] + service(sandbox))
        try #require(list.status == 0, "list failed: \(list.errors)")
        let programs = try JSONSerialization.jsonObject(with: Data(list.output.utf8)) as? [[String: Any]] ?? []
        return try #require(programs.first)
    }

    @Test("raon show ID --open runs $BROWSER once, with the homepage exactly as list --json gives it as its one argument")
    func opensTheHomepage() async throws {
        let home = try PrivateHome("open")
        defer { home.remove() }
        let browser = try home.recordingBrowser()
        try await withSandbox { sandbox in
            let program = try await Self.firstProgram(home, sandbox)
            let id = try #require(program["id"] as? String)
            let homepage = try #require(program["homepage"] as? String)
            let shown = try await home.courier(["raon", "show", id, "--open"] + Self.service(sandbox), environment: ["BROWSER": browser.path])
            #expect(shown.status == 0, "show --open: \(shown.errors)")
            #expect(shown.output.contains(id), "the program is shown as without --open")
            #expect(try browser.runs() == [[homepage]])
            #expect(shown.errors.contains("opened \(homepage)"))
        }
    }

    @Test("without $BROWSER, xdg-open (found on PATH) gets the link")
    func defaultOpener() async throws {
        let home = try PrivateHome("open")
        defer { home.remove() }
        let opener = try home.recordingBrowser("xdg-open")
        try await withSandbox { sandbox in
            let program = try await Self.firstProgram(home, sandbox)
            let id = try #require(program["id"] as? String)
            let shown = try await home.courier(
                ["raon", "show", id, "--open", "--json"] + Self.service(sandbox), environment: ["PATH": home.directory.path, "BROWSER": nil])
            #expect(shown.status == 0, "show --open: \(shown.errors)")
            #expect(try opener.runs() == [[try #require(program["homepage"] as? String)]])
            // Piped, stdout holds the command's JSON alone.
            #expect((try JSONSerialization.jsonObject(with: Data(shown.output.utf8)) as? [String: Any])?["id"] as? String == id)
        }
    }

    @Test("a browser that exits non-zero, or cannot be found, fails the command (exit 1) and says so")
    func browserFailures() async throws {
        let home = try PrivateHome("open")
        defer { home.remove() }
        let failing = try home.recordingBrowser("failing-browser", status: 3)
        try await withSandbox { sandbox in
            let id = try #require(try await Self.firstProgram(home, sandbox)["id"] as? String)
            let failed = try await home.courier(["raon", "show", id, "--open"] + Self.service(sandbox), environment: ["BROWSER": failing.path])
            #expect(failed.status == 1)
            #expect(failed.errors.contains("exited with status 3"), "\(failed.errors)")
            #expect(try failing.runs().count == 1)

            let missing = home.directory.appendingPathComponent("no-such-browser").path
            let absent = try await home.courier(["raon", "show", id, "--open"] + Self.service(sandbox), environment: ["BROWSER": missing])
            #expect(absent.status == 1)
            #expect(absent.errors.contains("could not open the link") && absent.errors.contains("no-such-browser"), "\(absent.errors)")

            let unnamed = try await home.courier(
                ["raon", "show", id, "--open"] + Self.service(sandbox), environment: ["BROWSER": "courier-test-no-such-browser"])
            #expect(unnamed.status == 1)
            #expect(unnamed.errors.contains("courier-test-no-such-browser ($BROWSER) was not found"), "\(unnamed.errors)")
        }
    }
}
