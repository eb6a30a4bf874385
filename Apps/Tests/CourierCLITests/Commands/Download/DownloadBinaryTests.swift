import Courier
import CourierSandbox
import CourierTransfers
import Foundation
import IntegrationTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `courier download` and `courier request --upload-file/--lines` as a person runs them: the
/// built binary as a child process against a sandbox on 127.0.0.1.
@Suite("courier download: the built binary")
struct DownloadBinaryTests {
    /// A scratch directory and a way to run `courier` in it.
    struct Scratch: ~Copyable {
        let url: URL

        init() throws {
            url = FileManager.default.temporaryDirectory.appendingPathComponent("courier-download-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }

        deinit { try? FileManager.default.removeItem(at: url) }

        func path(_ name: String) -> String { url.appendingPathComponent(name).path }

        func courier(_ arguments: [String]) async throws -> ProcessRun {
            try await runProcess(try ChildProcess.courierBinary(), arguments, scratch: url)
        }

        /// The file names here, without the runs' captured output.
        var names: [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).filter { !$0.hasPrefix("out-") && !$0.hasPrefix("err-") }
                .sorted()
        }
    }

    static func content(_ size: Int64, version: UInt64 = 1) -> Data {
        Data(SandboxFileContent(size: size, seed: 0, version: version).bytes(in: 0..<size))
    }

    static func stats(_ sandbox: RunningSandbox, _ key: String) async throws -> TransferStats {
        try await NetworkClient().request(sandbox.get("/files/stats", query: ["key": key]))
    }

    static func size(_ path: String) -> Int64 {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value ?? 0
    }

    @Test("a killed `courier download` leaves its partial; `--continue` resumes it from there (Range), and the file is whole")
    func killedThenContinued() async throws {
        let scratch = try Scratch()
        try await withSandbox { sandbox in
            let key = "killed-\(UUID().uuidString.prefix(8))"
            let size: Int64 = 6 << 20
            let url = sandbox.baseURL.absoluteString + "/files/k.bin?size=\(size)&pace=\(4 << 20)&key=\(key)"
            let target = scratch.path("k.bin")
            let first = try await ChildProcess(try ChildProcess.courierBinary(), ["download", url, "-o", target])
            await eventually { Self.size(target + ".courier-partial") > 1 << 20 }
            kill(first.pid, SIGKILL)
            #expect(await first.wait() == .signalled(SIGKILL))
            #expect(scratch.names == ["k.bin.courier-partial", "k.bin.courier-resume"])
            let kept = Self.size(target + ".courier-partial")

            let resumed = try await scratch.courier(["download", url, "-o", target, "--continue"])
            #expect(resumed.status == 0, "\(resumed.errors)")
            #expect(resumed.errors.isEmpty, "no progress bar when stderr is not a terminal: \(resumed.errors)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == Self.content(size))
            #expect(scratch.names == ["k.bin"])
            let stats = try await Self.stats(sandbox, key)
            #expect(stats.ranges == ["bytes=\(kept)-"] && stats.partial == 1)
        }
    }

    @Test("without --continue a download starts over, and the old FILE stays whole until the new one is")
    func startsOverAndReplacesAtTheEnd() async throws {
        let scratch = try Scratch()
        try await withSandbox { sandbox in
            let key = "over-\(UUID().uuidString.prefix(8))"
            let target = scratch.path("o.bin")
            try Data("the old file".utf8).write(to: URL(fileURLWithPath: target))
            let url = sandbox.baseURL.absoluteString + "/files/o.bin?size=\(3 << 20)&pace=\(2 << 20)&key=\(key)"
            let first = try await ChildProcess(try ChildProcess.courierBinary(), ["download", url, "-o", target])
            await eventually { Self.size(target + ".courier-partial") > 500_000 }
            kill(first.pid, SIGKILL)
            _ = await first.wait()
            #expect(try String(contentsOfFile: target, encoding: .utf8) == "the old file")
            let again = try await scratch.courier(["download", url, "-o", target])
            #expect(again.status == 0, "\(again.errors)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == Self.content(3 << 20))
            #expect(try await Self.stats(sandbox, key).ranges.isEmpty)
        }
    }

    @Test("a cut connection with --retry 1 exits 10 and says how to resume; a complete FILE with --continue is not fetched again")
    func interruptedExitCodeAndCompleteFile() async throws {
        let scratch = try Scratch()
        try await withSandbox { sandbox in
            let key = "cut-\(UUID().uuidString.prefix(8))"
            let url = sandbox.baseURL.absoluteString + "/files/c.bin?size=\(2 << 20)&cutAt=700000&cuts=1&key=\(key)"
            let target = scratch.path("c.bin")
            let cut = try await scratch.courier(["download", url, "-o", target, "--retry", "1"])
            #expect(cut.status == 10)
            #expect(cut.errors.contains("--continue"), "\(cut.errors)")
            let resumed = try await scratch.courier(["download", url, "-o", target, "-C", "-"])
            #expect(resumed.status == 0, "\(resumed.errors)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == Self.content(2 << 20))
            let complete = try await scratch.courier(["download", url, "-o", target, "--continue"])
            #expect(complete.status == 0, "\(complete.errors)")
            let stats = try await Self.stats(sandbox, key)
            #expect(stats.unsatisfiable == 1 && stats.requests == 3, "the last run asked for what follows the end: 416")
            #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == Self.content(2 << 20))
        }
    }

    @Test(
        "on a terminal (`script`), the progress bar is redrawn in place: percent rising, bytes, rate and ETA, ending at 100%",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func progressBarOnATerminal() async throws {
        let scratch = try Scratch()
        try await withSandbox { sandbox in
            let target = scratch.path("bar.bin")
            let url = sandbox.baseURL.absoluteString + "/files/bar.bin?size=\(3 << 20)&pace=\(4 << 20)"
            let typescript = scratch.path("typescript")
            let command = "'\(try ChildProcess.courierBinary().path)' download '\(url)' -o '\(target)'"
            let run = try await runProcess(URL(fileURLWithPath: "/usr/bin/script"), ["-qec", command, typescript], scratch: scratch.url)
            #expect(run.status == 0, "\(run.errors)")
            let screen = try String(contentsOfFile: typescript, encoding: .utf8)
            let frames = screen.components(separatedBy: "\r\u{1B}[2K").dropFirst().map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            let percents = frames.compactMap { frame in frame.split(separator: " ").first { $0.hasSuffix("%") }.flatMap { Int($0.dropLast()) } }
            #expect(frames.count >= 5, "redrawn in place (carriage return, erase line): \(frames.count) frames")
            #expect(percents == percents.sorted() && percents.last == 100, "\(percents)")
            #expect(frames.contains { $0.contains("B/s") && $0.contains("left") }, "rate and ETA: \(frames)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == Self.content(3 << 20))
        }
    }

    /// Whether this machine lets a process mount a small file system of its own (`unshare -rm`:
    /// a user and mount namespace — no change to the machine's mounts).
    static let canMountPrivately: Bool =
        FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare")
        && system("/usr/bin/unshare -rm /bin/sh -c 'mount -t tmpfs -o size=64k tmpfs /tmp' >/dev/null 2>&1") == 0

    @Test("a full disk: exit 17 with a clear message, the partial and its state kept, no FILE", .enabled(if: canMountPrivately))
    func diskFull() async throws {
        let scratch = try Scratch()
        try await withSandbox { sandbox in
            let small = scratch.url.appendingPathComponent("small")
            try FileManager.default.createDirectory(at: small, withIntermediateDirectories: true)
            let url = sandbox.baseURL.absoluteString + "/files/f.bin?size=\(3 << 20)"
            // In a mount namespace of its own: a 1 MiB tmpfs over `small`, the download into it,
            // then what is left there (the mount ends with the shell).
            let script = #"mount -t tmpfs -o size=1m tmpfs "$1" && "$2" download "$3" -o "$1/f.bin"; echo "exit=$?"; ls "$1""#
            let run = try await runProcess(
                URL(fileURLWithPath: "/usr/bin/unshare"),
                ["-rm", "/bin/sh", "-c", script, "sh", small.path, try ChildProcess.courierBinary().path, url],
                scratch: scratch.url)
            let lines = run.output.split(separator: "\n").map(String.init)
            #expect(lines.first == "exit=17", "\(run.output) \(run.errors)")
            #expect(Array(lines.dropFirst()) == ["f.bin.courier-partial", "f.bin.courier-resume"], "\(run.output)")
            #expect(run.errors.contains("disk is full"), "\(run.errors)")
        }
    }

    @Test("`courier raon show ID --sandbox --poster FILE` saves the program's poster")
    func raonPoster() async throws {
        let scratch = try Scratch()
        let list = try await scratch.courier(["raon", "list", "--sandbox", "--json", "--today", "2026-11-20"])
        try #require(list.status == 0, "\(list.errors)")
        let listed = try JSONSerialization.jsonObject(with: Data(list.output.utf8)) as? [[String: Any]] ?? []
        let id = try #require(listed.first?["id"] as? String)
        let target = scratch.path("poster.svg")
        let show = try await scratch.courier(["raon", "show", id, "--sandbox", "--today", "2026-11-20", "--poster", target])
        #expect(show.status == 0, "\(show.errors)")
        #expect(try String(contentsOfFile: target, encoding: .utf8).hasPrefix("<svg"))
        #expect(show.errors.contains("saved the poster"))
    }

    @Test("a name refused from the URL is a usage error (64) that shows no escape sequence from it")
    func refusedName() async throws {
        let scratch = try Scratch()
        let refused = try await scratch.courier(["download", "http://127.0.0.1:9/files/x%1B%5B2J"])
        #expect(refused.status == 64)
        #expect(refused.errors.contains("give -o FILE"), "\(refused.errors)")
        #expect(!refused.errors.contains("\u{1B}"), "no escape sequence from the URL reaches the terminal")
    }

    @Test("`courier request --upload-file` streams the file (PUT); `--lines` prints each line")
    func uploadFileAndLines() async throws {
        let scratch = try Scratch()
        try await withSandbox { sandbox in
            let source = scratch.path("up.bin")
            let data = Self.content(5 << 20)
            try data.write(to: URL(fileURLWithPath: source))
            let upload = try await scratch.courier(["request", sandbox.baseURL.absoluteString + "/upload", "--upload-file", source])
            #expect(upload.status == 0, "\(upload.errors)")
            let receipt = try JSONDecoder().decode(UploadReceipt.self, from: Data(upload.output.utf8))
            #expect(receipt.bytes == data.count && receipt.declaredLength == data.count)
            let lines = try await scratch.courier(["request", sandbox.baseURL.absoluteString + "/ndjson?count=3", "--lines"])
            #expect(lines.status == 0)
            #expect(lines.output == (0..<3).map { #"{"index":\#($0),"text":"line \#($0) 서울"}"# + "\n" }.joined())
            let missing = try await scratch.courier(["request", sandbox.baseURL.absoluteString + "/upload", "-T", scratch.path("none")])
            #expect(missing.status == 64)
        }
    }
}
