import Courier
import CourierSandbox
import Foundation
import IntegrationTestSupport
import Testing

/// One at a time: each test runs several `courier` processes on one data directory.
@Suite(.serialized) enum RaonBinarySuite {
    /// The built `courier` binary, run as a user would: separate processes on one data directory.
    @Suite("courier raon: the built binary as separate processes")
    struct RaonBinaryTests {
        /// A valid stand-in key (20+ letters and digits).
        static let key = "CourierTestKey0123456789abcdef"

        /// Runs `courier arguments…` with `$XDG_DATA_HOME` = `dataHome` and no `SEOUL_API_KEY`.
        static func courier(_ arguments: [String], dataHome: URL) async throws -> ProcessRun {
            var environment = ProcessInfo.processInfo.environment
            environment["XDG_DATA_HOME"] = dataHome.path
            environment["XDG_CACHE_HOME"] = dataHome.appendingPathComponent("cache").path
            environment["SEOUL_API_KEY"] = nil
            return try await runProcess(try ChildProcess.courierBinary(), arguments, environment: environment, scratch: dataHome)
        }

        static func temporaryDataHome() throws -> URL {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("raon-binary-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            return directory
        }

        @Test("two `fav add` processes at once on one data directory both land; `fav list` shows both, and exports them")
        func concurrentFavouriteProcesses() async throws {
            let home = try Self.temporaryDataHome()
            defer { try? FileManager.default.removeItem(at: home) }
            try await withSandbox { sandbox in
                // The processes use this test's stand-in through --base-url, as they would the
                // real service, rather than each starting a sandbox of its own (CPU the other
                // suites running beside this one need).
                let service = [
                    "--base-url", sandbox.baseURL.appendingPathComponent("seoul").absoluteString, "--key", Self.key, "--today", "2026-11-20",
                ]
                let list = try await Self.courier(["raon", "list", "--json", "--district", "종로구"] + service, dataHome: home)
                try #require(list.status == 0, "list failed: \(list.errors)")
                let listed = try JSONSerialization.jsonObject(with: Data(list.output.utf8)) as? [[String: Any]] ?? []
                let ids = listed.prefix(2).compactMap { $0["id"] as? String }
                try #require(ids.count == 2)

                async let first = Self.courier(["raon", "fav", "add", ids[0]] + service, dataHome: home)
                async let second = Self.courier(["raon", "fav", "add", ids[1]] + service, dataHome: home)
                let adds = try await [first, second]
                for add in adds {
                    #expect(add.status == 0, "fav add failed: \(add.errors)")
                    #expect(add.output.hasPrefix("★ added"))
                }
                #expect(
                    try await NetworkClient().request(sandbox.get("/seoul/_stats"), as: SeoulStats.self).requests == 3 * 5,
                    "each run: the probe and four pages")

                let favourites = try await Self.courier(["raon", "fav", "list", "--json"], dataHome: home)
                #expect(favourites.status == 0)
                let saved = try JSONSerialization.jsonObject(with: Data(favourites.output.utf8)) as? [[String: Any]] ?? []
                #expect(Set(saved.compactMap { $0["id"] as? String }) == Set(ids))

                let file = home.appendingPathComponent("favourites.ics")
                let export = try await Self.courier(["raon", "export-ics", file.path, "--all-favourites"], dataHome: home)
                #expect(export.status == 0 && export.output.contains("wrote 2 events"), "export: \(export.errors)")
                let calendar = try String(contentsOf: file, encoding: .utf8)
                #expect(ids.allSatisfy { calendar.contains("UID:\($0)@") })

                // The offline subcommands take the options every raon command takes.
                let reminders = try await Self.courier(["raon", "remind", "--days", "400", "--json"] + service, dataHome: home)
                #expect(reminders.status == 0, "remind: \(reminders.errors)")
                let soon = try JSONSerialization.jsonObject(with: Data(reminders.output.utf8)) as? [[String: Any]] ?? []
                let starting = listed.prefix(2).filter { ($0["startDate"] as? String ?? "") >= "2026-11-20" }.compactMap { $0["id"] as? String }
                #expect(Set(soon.compactMap { $0["id"] as? String }) == Set(starting))  // those starting from today on
                let removed = try await Self.courier(["raon", "fav", "remove", ids[0]] + service, dataHome: home)
                #expect(removed.status == 0 && removed.output.contains("removed"), "fav remove: \(removed.errors)")
                let left = try await Self.courier(["raon", "fav", "list", "--json"] + service, dataHome: home)
                let remaining = try JSONSerialization.jsonObject(with: Data(left.output.utf8)) as? [[String: Any]] ?? []
                #expect(remaining.compactMap { $0["id"] as? String } == [ids[1]])
                let badDay = try await Self.courier(["raon", "fav", "list", "--today", "2026-11-2x"], dataHome: home)
                #expect(badDay.status == 64 && badDay.errors.contains("--today must be a date"))
            }
        }

        @Test("a reader that stops early (`| head`) ends the program quietly with status 0")
        func closedPipe() async throws {
            let home = try Self.temporaryDataHome()
            defer { try? FileManager.default.removeItem(at: home) }
            try await withSandbox { sandbox in
                let process = try await Self.closedPipeRun(
                    [
                        "raon", "list", "--base-url", sandbox.baseURL.appendingPathComponent("seoul").absoluteString, "--key", Self.key, "--today",
                        "2026-11-20",
                    ], home: home)
                #expect(process == .exited(0))
            }
        }

        @Test("`courier json extract | head` too: a command without SwiftNIO ends with 0, not killed by SIGPIPE")
        func closedPipeWithoutNetworking() async throws {
            let home = try Self.temporaryDataHome()
            defer { try? FileManager.default.removeItem(at: home) }
            // An answer whose JSON (≈300 kB) is more than a pipe holds.
            let items = (0..<1_500).map { #"{"n":\#($0),"text":"\#(String(repeating: "x", count: 180))"}"# }
            let answer = home.appendingPathComponent("answer.txt")
            try Data(("Here it is:\n```json\n{\"items\":[" + items.joined(separator: ",") + "]}\n```\n").utf8).write(to: answer)
            let process = try await Self.closedPipeRun(["json", "extract"], home: home, input: answer)
            #expect(process == .exited(0))
        }

        /// Runs `courier arguments…` (stdin from `input`) and, like `head -3`, reads a little of its
        /// output, then closes the read end while it is still writing.
        static func closedPipeRun(_ arguments: [String], home: URL, input: URL? = nil) async throws -> ChildProcess.Termination {
            var environment = ProcessInfo.processInfo.environment
            environment["XDG_DATA_HOME"] = home.path
            let child = try await ChildProcess(
                try ChildProcess.courierBinary(), arguments, environment: environment, stdin: input.map { .file($0) } ?? .null, stdout: .pipe)
            let reader = try #require(child.output)
            // On a Dispatch thread (the read blocks): read a little, then close the read end
            // while the output (more than a pipe holds) is still being written.
            DispatchQueue.global().async {
                _ = reader.readData(ofLength: 200)
                try? reader.close()
            }
            return await child.wait()
        }
    }
}
