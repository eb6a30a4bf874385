import Foundation
import IntegrationTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A folder of its own for one test of the built `courier`: its `HOME` and XDG folders
/// (config, data, cache) inside, no key or browser from the environment; removed afterwards.
struct PrivateHome {
    let directory: URL

    init(_ name: String = "cli") throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }

    /// `$XDG_CONFIG_HOME`.
    var config: URL { directory.appendingPathComponent("config") }
    /// `$XDG_DATA_HOME`.
    var data: URL { directory.appendingPathComponent("data") }

    /// The environment `courier` runs with: this process's, without secrets or `$BROWSER`, with
    /// `HOME` and the XDG folders here, then `extra` on top (a nil value removes the variable).
    func environment(_ extra: [String: String?] = [:]) -> [String: String] {
        var base = ProcessInfo.processInfo.environment.filter {
            !$0.key.hasPrefix("ALAN_CLIENT_ID") && !["SEOUL_API_KEY", "COURIER_PASSWORD", "BROWSER"].contains($0.key)
        }
        for (name, folder) in [("HOME", "home"), ("XDG_CONFIG_HOME", "config"), ("XDG_DATA_HOME", "data"), ("XDG_CACHE_HOME", "cache")] {
            base[name] = directory.appendingPathComponent(folder).path
        }
        for (name, value) in extra { base[name] = value }
        return base
    }

    /// Runs the built `courier` with `arguments` (stdout and stderr to files, stdin `/dev/null`).
    func courier(_ arguments: [String], environment extra: [String: String?] = [:]) async throws -> ProcessRun {
        try await runProcess(try ChildProcess.courierBinary(), arguments, environment: environment(extra), scratch: directory)
    }

    /// An executable shell script `name` here holding `body` (after `#!/bin/sh`); its path.
    func script(_ name: String, _ body: String) throws -> String {
        let url = directory.appendingPathComponent(name)
        try Data("#!/bin/sh\n\(body)\n".utf8).write(to: url)
        chmod(url.path, 0o755)
        return url.path
    }

    /// A stand-in browser for `$BROWSER`: a script that records how many arguments it got and
    /// each argument (NUL-separated, so nothing in an argument can fake another) in ``Browser/record``,
    /// then exits with `status`.
    func recordingBrowser(_ name: String = "browser", status: Int32 = 0) throws -> Browser {
        let record = directory.appendingPathComponent("\(name).record")
        let path = try script(name, "printf '%s\\0' \"$#\" \"$@\" >> '\(record.path)'\nexit \(status)")
        return Browser(path: path, record: record)
    }

    /// A recording stand-in browser (``recordingBrowser(_:status:)``).
    struct Browser {
        /// The script's path (what `$BROWSER` is set to).
        let path: String
        /// Where each run appends its argument count and arguments.
        let record: URL

        /// The runs recorded so far, each its arguments (the count checked against them).
        func runs() throws -> [[String]] {
            guard FileManager.default.fileExists(atPath: record.path) else { return [] }
            var fields = String(decoding: try Data(contentsOf: record), as: UTF8.self).split(separator: "\0", omittingEmptySubsequences: false)
                .map(String.init)
            if fields.last == "" { fields.removeLast() }
            var runs: [[String]] = []
            while let count = fields.first.flatMap({ Int($0) }) {
                let arguments = Array(fields.dropFirst().prefix(count))
                try #require(arguments.count == count, "a run recorded \(count) arguments but fewer followed")
                runs.append(arguments)
                fields.removeFirst(count + 1)
            }
            try #require(fields.isEmpty, "the record has fields that are not a run: \(fields)")
            return runs
        }
    }
}
