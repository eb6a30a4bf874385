import AsyncHTTPClient
import Courier
import CourierSandbox
import CourierTransfers
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOPosix

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Courier's transfers against their baselines, in one run, side by side, with ratios: the
// in-process sandbox on an event loop of its own (so that neither side's threads serve the other).
//
//   swift run -c release --package-path Apps TransferBenchmark [--large-reps 3] [--reps 5] [--size BYTES]
//       [--progress-size BYTES] [--lines 100000] [--dir PATH]... [--only download,upload,progress,ndjson]
//       [--sandbox in-process|process]
//
// curl must be on PATH. The 1 GiB sections need about 2 GiB free in `--dir`.
//
// 1. a 1 GiB download over loopback to a file vs `curl -o FILE` (goal ≥ 0.9× curl's throughput;
//    peak memory growth of this process during Courier's download ≤ 32 MB), on the default
//    transport (AsyncHTTPClient) and, reported only, on URLSession;
// 2. a 1 GiB upload from a file (`HTTPTask.uploadFile`) vs `curl -T FILE` (goal ≥ 0.9×), beside
//    URLSession and raw AsyncHTTPClient's async API (reported only);
// 3. a download with a `TransferProgress` read by a task vs none (goal: ≤ 1.02× the time), beside
//    a progress nobody reads and a control (no progress again: the machine's noise);
// 4. 100,000 NDJSON lines through `client.jsonLines` vs raw AsyncHTTPClient, split and decoded by
//    hand (goal ≥ 0.9× lines/s).
//
// Medians of `--large-reps` rounds (default 3) for the GiB transfers and `--reps` (default 5) for
// the NDJSON stream; the contenders alternate order every round. Files go to `--dir` (default: the
// temporary directory), removed after each run; given more than once (`--dir /tmp --dir /dev/shm`),
// the download section runs in each, one after the other, and the others in the first. Courier's
// download syncs the file before renaming it into place by default and curl does not: a row "curl
// -o, then fsync" shows what that costs, and a contender with `DownloadOptions.durability =
// .leftToOS` does as curl does (`--dir /dev/shm`, a tmpfs, takes the disk out). `TRANSFER_BENCH_PROFILE` runs one contender alone
// (see `profiled`).
@main
struct TransferBenchmark {
    static func main() async {
        do {
            try await run()
        } catch {
            FileHandle.standardError.write(Data("benchmark failed: \(error)\n".utf8))
            exit(1)
        }
    }

    /// The run's knobs.
    struct Settings {
        var largeReps = 3
        var reps = 5
        var size: Int64 = 1 << 30
        var progressSize: Int64?
        var lines = 100_000
        var directories: [URL] = []
        /// The first `--dir`, or the temporary directory.
        var directory: URL { directories.first ?? FileManager.default.temporaryDirectory }
        var sections: Set<String> = ["download", "upload", "progress", "ndjson"]
        /// The sandbox in this process (on an event loop group of its own), or in a child process
        /// (`process`: this program again with `--serve`), where it takes no CPU time or memory
        /// of the client's process — as curl has it.
        var sandboxInProcess = true
        /// Only serve the sandbox (the child of `--sandbox process`): its port on stdout.
        var serve = false

        static func parse(_ arguments: [String]) throws -> Settings {
            var settings = Settings()
            var rest = arguments[...]
            while let flag = rest.popFirst() {
                if flag == "--serve" {
                    settings.serve = true
                    continue
                }
                guard let value = rest.popFirst() else { throw BenchmarkError.failed("\(flag) needs a value") }
                switch flag {
                case "--sandbox":
                    guard value == "in-process" || value == "process" else { throw BenchmarkError.failed("--sandbox is in-process or process") }
                    settings.sandboxInProcess = value == "in-process"
                case "--large-reps": settings.largeReps = try positive(flag, value)
                case "--reps": settings.reps = try positive(flag, value)
                case "--size": settings.size = Int64(try positive(flag, value))
                case "--progress-size": settings.progressSize = Int64(try positive(flag, value))
                case "--lines": settings.lines = try positive(flag, value)
                case "--dir": settings.directories.append(URL(fileURLWithPath: value))
                case "--only": settings.sections = Set(value.split(separator: ",").map(String.init))
                default: throw BenchmarkError.failed("unknown option \(flag)")
                }
            }
            return settings
        }

        private static func positive(_ flag: String, _ value: String) throws -> Int {
            guard let number = Int(value), number > 0 else { throw BenchmarkError.failed("\(flag) needs a positive number") }
            return number
        }
    }

    /// One line of the final table.
    struct Verdict {
        var metric: String
        var courier: String
        var baseline: String
        var ratio: String
        var goal: String
        /// nil: reported, no goal.
        var met: Bool?
    }

    /// One measured run of one contender.
    struct Sample {
        var seconds: Double
        /// Peak memory growth of this process, MB (Courier's runs).
        var growth: Double?
        /// Time to `fsync` the file afterwards (curl's runs).
        var sync: Double?
        /// CPU time of this process during the run: the sandbox's, and the client's when it is Courier.
        var cpu: Double = 0
        /// CPU time of the child process (curl's runs).
        var childCPU: Double?
    }

    nonisolated static func run() async throws {
        let settings = try Settings.parse(Array(CommandLine.arguments.dropFirst()))
        var sandboxOptions = SandboxServer.Options()
        let serverLoops = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        sandboxOptions.eventLoopGroup = serverLoops
        if settings.serve {
            // Ends with its parent, however the parent ends.
            let parent = getppid()
            Task.detached {
                while getppid() == parent { try? await Task.sleep(for: .milliseconds(250)) }
                exit(0)
            }
            try await SandboxServer.run(options: sandboxOptions) { port in FileHandle.standardOutput.write(Data("\(port)\n".utf8)) }
            try await serverLoops.shutdownGracefully()
            return
        }
        let sandbox: Sandbox = settings.sandboxInProcess ? .inProcess(try await SandboxServer.start(options: sandboxOptions)) : try await .child()
        let directory = settings.directory.appendingPathComponent("courier-transfer-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        print("Courier transfer benchmark — \(ISO8601DateFormatter().string(from: Date()))")
        print("machine: \(ProcessInfo.processInfo.activeProcessorCount) cores (\(cpuModel())), \(memoryTotal()), Linux \(kernel()); release build")
        print("load average at start: \(loadAverage()) (other processes on these cores make every number noisier)")
        print(
            settings.sandboxInProcess
                ? "sandbox in-process on \(sandbox.baseURL.absoluteString), on an event loop group of its own (1 thread)"
                : "sandbox in a child process (this program with --serve) on \(sandbox.baseURL.absoluteString), one event loop thread")
        let curl = await Child.firstLine(["curl", "--version"]) ?? "curl (version unknown)"
        print("default transport: \(type(of: NetworkClient().configuration.transport)); baseline: \(curl)")
        print(
            "files in \(directory.path) (\(fileSystem(directory.path))); MB = 10⁶ bytes; medians of \(settings.largeReps) rounds (GiB transfers), \(settings.reps) (NDJSON); order alternates every round\n"
        )

        var verdicts: [Verdict] = []
        do {
            if settings.sections.contains("download") {
                verdicts += try await download(settings, base: sandbox.baseURL, directory: directory)
                for other in settings.directories.dropFirst() {
                    let folder = other.appendingPathComponent("courier-transfer-bench-\(UUID().uuidString)")
                    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                    defer { try? FileManager.default.removeItem(at: folder) }
                    print("files in \(folder.path) (\(fileSystem(folder.path)))")
                    verdicts += try await download(settings, base: sandbox.baseURL, directory: folder)
                }
            }
            if settings.sections.contains("upload") {
                verdicts += try await upload(settings, base: sandbox.baseURL, directory: directory)
            }
            if settings.sections.contains("progress") {
                verdicts += try await progress(settings, base: sandbox.baseURL, directory: directory)
            }
            if settings.sections.contains("ndjson") {
                verdicts += try await ndjson(settings, base: sandbox.baseURL)
            }
        } catch {
            await sandbox.stop()
            throw error
        }

        print("summary")
        print(pad("metric", 44) + pad("courier", 13) + pad("baseline", 13) + pad("ratio", 8) + pad("goal", 10) + "result")
        for verdict in verdicts {
            let result = verdict.met.map { $0 ? "met" : "NOT met" } ?? "(reported)"
            print(
                pad(verdict.metric, 44) + pad(verdict.courier, 13) + pad(verdict.baseline, 13) + pad(verdict.ratio, 8)
                    + pad(verdict.goal, 10) + result)
        }
        print("load average at the end: \(loadAverage())")
        await sandbox.stop()
        try await serverLoops.shutdownGracefully()
    }

    /// Where the sandbox runs.
    enum Sandbox {
        case inProcess(RunningSandbox)
        case process(pid_t, URL)

        /// This program again with `--serve`, once it listens.
        static func child() async throws -> Sandbox {
            let portFile = FileManager.default.temporaryDirectory.appendingPathComponent("courier-transfer-bench-\(UUID().uuidString).port").path
            defer { Files.remove(portFile) }
            let pid = try Child.spawn(["/proc/self/exe", "--serve"], output: portFile)
            for _ in 0..<200 {
                if let text = try? String(contentsOfFile: portFile, encoding: .utf8), text.hasSuffix("\n"),
                    let port = Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
                {
                    return .process(pid, URL(string: "http://127.0.0.1:\(port)")!)
                }
                try await Task.sleep(for: .milliseconds(50))
            }
            Child.stop(pid)
            throw BenchmarkError.failed("the sandbox's process did not start listening in 10 s")
        }

        var baseURL: URL {
            switch self {
            case .inProcess(let sandbox): sandbox.baseURL
            case .process(_, let url): url
            }
        }

        func stop() async {
            switch self {
            case .inProcess(let sandbox): await sandbox.stop()
            case .process(let pid, _): Child.stop(pid)
            }
        }
    }

    // MARK: - 1. Download

    static func download(_ settings: Settings, base: URL, directory: URL) async throws -> [Verdict] {
        let size = settings.size
        let endpoint = FileEndpoint(baseURL: base, size: size)
        let url = base.absoluteString + "/files/big.bin?size=\(size)"
        let viaAHC = NetworkClient()
        let viaSession = NetworkClient(transport: URLSessionClientTransport.shared)
        print("1. download of \(describe(size)) over loopback to a file: Courier vs curl -o")
        // Warm-up: connection pools and lazily made sessions are not measured.
        let warm = directory.appendingPathComponent("warm.bin")
        for client in [viaAHC, viaSession] {
            _ = try await client.download(FileEndpoint(baseURL: base, size: 1 << 20), to: warm)
            Files.remove(warm.path)
        }
        _ = try await Child.run(["curl", "-sS", "--fail", "-o", warm.path, base.absoluteString + "/files/big.bin?size=1048576"])
        Files.remove(warm.path)
        try await rawDownload(base.absoluteString + "/files/big.bin?size=1048576", to: warm.path)
        Files.remove(warm.path)

        let courierName = "Courier, AsyncHTTPClient (default)"
        let leftName = "Courier, AHC, durability .leftToOS"
        let sessionName = "Courier, URLSession"
        let curlName = "curl -o"
        let rawName = "raw AHC (async API) → pwrite, no fsync"
        func courier(_ client: NetworkClient, _ target: URL, _ options: DownloadOptions = DownloadOptions()) async throws -> Sample {
            let ((file, growth), wall, cpu) = try await timed {
                try await Memory.growth { try await client.download(endpoint, to: target, options: options) }
            }
            guard file.bytes == size else { throw BenchmarkError.failed("downloaded \(file.bytes) bytes, expected \(size)") }
            return Sample(seconds: wall, growth: growth, cpu: cpu)
        }
        let contenders: [(String, (URL) async throws -> Sample)] = [
            (courierName, { try await courier(viaAHC, $0) }),
            (leftName, { try await courier(viaAHC, $0, DownloadOptions(durability: .leftToOS)) }),
            (
                curlName,
                { target in
                    let (child, _, cpu) = try await timed { try await Child.run(["curl", "-sS", "--fail", "-o", target.path, url]) }
                    guard child.exitCode == 0 else { throw BenchmarkError.failed("curl exited with \(child.exitCode)") }
                    return Sample(seconds: child.seconds, sync: Files.sync(target.path), cpu: cpu, childCPU: child.cpuSeconds)
                }
            ),
            (sessionName, { try await courier(viaSession, $0) }),
            (
                rawName,
                { target in
                    let (_, wall, cpu) = try await timed { try await rawDownload(url, to: target.path) }
                    return Sample(seconds: wall, cpu: cpu)
                }
            ),
        ]
        if let (name, measure) = profiled("download", contenders) {
            var times: [Double] = []
            for round in 0..<settings.largeReps {
                let target = directory.appendingPathComponent("download-\(round).bin")
                times.append(try await measure(target).seconds)
                Files.remove(target.path)
            }
            print("  \(name) alone: median \(format(median(times), 3)) s of \(times.map { format($0, 3) })\n")
            return []
        }
        var results: [String: [Sample]] = [:]
        for round in 0..<settings.largeReps {
            var line = "  round \(round + 1):"
            for (name, measure) in round % 2 == 0 ? contenders : contenders.reversed() {
                let target = directory.appendingPathComponent("download-\(round).bin")
                let sample = try await measure(target)
                try Files.verifyDownload(target.path, size: size)
                Files.remove(target.path)
                results[name, default: []].append(sample)
                line += " \(name) \(format(sample.seconds, 2)) s"
                if let growth = sample.growth { line += " (+\(format(growth)) MB)" }
                if let sync = sample.sync { line += " (+ fsync \(format(sync, 2)) s)" }
                line += ";"
            }
            print(line)
        }
        let curlTime = median(results[curlName]!.map(\.seconds))
        let curlSynced = median(results[curlName]!.map { $0.seconds + ($0.sync ?? 0) })
        let curlRate = megabytesPerSecond(size, curlTime)
        // The sandbox's CPU: this process's while curl downloads. A client's is then its run's less that.
        let serverCPU = median(results[curlName]!.map(\.cpu))
        print(
            "  " + pad("contender", 38) + pad("min s", 8) + pad("median s", 10) + pad("max s", 8) + pad("MB/s", 9) + pad("×curl", 7)
                + pad("peak MB", 9) + "client CPU s")
        for name in [courierName, leftName, sessionName, rawName, curlName] {
            let samples = results[name]!
            let times = samples.map(\.seconds)
            let time = median(times)
            let growth = samples.compactMap(\.growth).max().map { format($0) } ?? "-"
            let cpu = name == curlName ? median(samples.compactMap(\.childCPU)) : median(samples.map(\.cpu)) - serverCPU
            print(
                "  " + pad(name, 38) + pad(format(times.min()!, 3), 8) + pad(format(time, 3), 10) + pad(format(times.max()!, 3), 8)
                    + pad(format(megabytesPerSecond(size, time)), 9) + pad(format(curlTime / time, 3), 7) + pad(growth, 9) + format(cpu, 2))
        }
        let syncedTimes = results[curlName]!.map { $0.seconds + ($0.sync ?? 0) }
        print(
            "  " + pad("curl -o, then fsync (as Courier does)", 38) + pad(format(syncedTimes.min()!, 3), 8) + pad(format(curlSynced, 3), 10)
                + pad(format(syncedTimes.max()!, 3), 8) + pad(format(megabytesPerSecond(size, curlSynced)), 9)
                + pad(format(curlTime / curlSynced, 3), 7))
        print("  ×curl: curl -o's median time over the contender's (above 1: faster than curl)")
        print("  peak MB: growth of this process's peak resident size, the largest of the rounds; client CPU: curl's own, or")
        print("  this process's during the run less the sandbox's (\(format(serverCPU, 2)) s: this process's during curl's runs)\n")

        let courierTime = median(results[courierName]!.map(\.seconds))
        let leftTime = median(results[leftName]!.map(\.seconds))
        let sessionTime = median(results[sessionName]!.map(\.seconds))
        let rawTime = median(results[rawName]!.map(\.seconds))
        let courierGrowth = results[courierName]!.compactMap(\.growth).max() ?? 0
        let sessionGrowth = results[sessionName]!.compactMap(\.growth).max() ?? 0
        return [
            Verdict(
                metric: "download \(describe(size)) MB/s vs curl -o", courier: format(megabytesPerSecond(size, courierTime)),
                baseline: format(curlRate), ratio: format(curlTime / courierTime, 3), goal: "≥ 0.9", met: curlTime / courierTime >= 0.9),
            Verdict(
                metric: "  (vs curl -o + fsync)", courier: format(megabytesPerSecond(size, courierTime)),
                baseline: format(megabytesPerSecond(size, curlSynced)), ratio: format(curlSynced / courierTime, 3), goal: "-", met: nil),
            Verdict(
                metric: "download .leftToOS MB/s vs curl -o", courier: format(megabytesPerSecond(size, leftTime)),
                baseline: format(curlRate), ratio: format(curlTime / leftTime, 3), goal: "-", met: nil),
            Verdict(
                metric: "  (vs raw AHC → file, no fsync)", courier: format(megabytesPerSecond(size, courierTime)),
                baseline: format(megabytesPerSecond(size, rawTime)), ratio: format(rawTime / courierTime, 3), goal: "-", met: nil),
            Verdict(
                metric: "download peak memory growth MB", courier: format(courierGrowth), baseline: "-", ratio: "-", goal: "≤ 32",
                met: courierGrowth <= 32),
            Verdict(
                metric: "download MB/s, URLSession transport", courier: format(megabytesPerSecond(size, sessionTime)),
                baseline: format(curlRate), ratio: format(curlTime / sessionTime, 3), goal: "-", met: nil),
            Verdict(
                metric: "download peak growth MB, URLSession", courier: format(sessionGrowth), baseline: "-", ratio: "-", goal: "-",
                met: nil),
        ]
    }

    // MARK: - 2. Upload

    static func upload(_ settings: Settings, base: URL, directory: URL) async throws -> [Verdict] {
        let size = settings.size
        let source = directory.appendingPathComponent("upload-source.bin")
        try Files.makeSource(source.path, size: size)
        defer { Files.remove(source.path) }
        let url = base.absoluteString + "/upload"
        let receiptFile = directory.appendingPathComponent("receipt.json")
        let viaAHC = NetworkClient()
        let viaSession = NetworkClient(transport: URLSessionClientTransport.shared)
        print("2. upload of \(describe(size)) from a file (HTTPTask.uploadFile, PUT /upload): Courier vs curl -T")
        print("   (curl with `-H Expect:`: curl otherwise waits a second for a 100 Continue the sandbox never sends)")
        let small = directory.appendingPathComponent("small.bin")
        try Files.makeSource(small.path, size: 2 << 20)
        defer { Files.remove(small.path) }
        for client in [viaAHC, viaSession] { _ = try await client.request(UploadEndpoint(baseURL: base, file: small), as: Receipt.self) }

        let courierName = "Courier, AsyncHTTPClient (default)"
        let sessionName = "Courier, URLSession"
        let curlName = "curl -T"
        var hashes: Set<String> = []
        func courier(_ client: NetworkClient) async throws -> Sample {
            let ((receipt, growth), wall, cpu) = try await timed {
                try await Memory.growth { try await client.request(UploadEndpoint(baseURL: base, file: source), as: Receipt.self) }
            }
            guard receipt.bytes == size else { throw BenchmarkError.failed("the sandbox received \(receipt.bytes) bytes, expected \(size)") }
            hashes.insert(receipt.sha256)
            return Sample(seconds: wall, growth: growth, cpu: cpu)
        }
        func curl() async throws -> Sample {
            let (child, _, cpu) = try await timed {
                try await Child.run(["curl", "-sS", "--fail", "-T", source.path, "-H", "Expect:", "-o", receiptFile.path, url])
            }
            guard child.exitCode == 0 else { throw BenchmarkError.failed("curl exited with \(child.exitCode)") }
            let receipt = try JSONDecoder().decode(Receipt.self, from: Data(contentsOf: receiptFile))
            Files.remove(receiptFile.path)
            guard receipt.bytes == size else {
                throw BenchmarkError.failed("the sandbox received \(receipt.bytes) bytes from curl, expected \(size)")
            }
            hashes.insert(receipt.sha256)
            return Sample(seconds: child.seconds, cpu: cpu, childCPU: child.cpuSeconds)
        }
        let rawName = "raw AHC (async API, HTTPClient.shared)"
        func raw(_ file: URL) async throws -> Sample {
            let ((receipt, growth), wall, cpu) = try await timed {
                try await Memory.growth { () async throws -> Receipt in
                    var request = HTTPClientRequest(url: url)
                    request.method = .PUT
                    request.headers.add(name: "Content-Type", value: "application/octet-stream")
                    let length = Files.size(file.path)
                    request.body = .stream(FileBuffers(path: file.path, length: length), length: .known(length))
                    let response = try await HTTPClient.shared.execute(request, timeout: .seconds(600))
                    guard response.status == .ok else { throw BenchmarkError.failed("raw upload: \(response.status)") }
                    return try JSONDecoder().decode(Receipt.self, from: Data(buffer: try await response.body.collect(upTo: 1 << 20)))
                }
            }
            guard receipt.bytes == Files.size(file.path) else {
                throw BenchmarkError.failed("the sandbox received \(receipt.bytes) bytes from raw AHC")
            }
            if file == source { hashes.insert(receipt.sha256) }
            return Sample(seconds: wall, growth: growth, cpu: cpu)
        }
        _ = try await raw(small)
        let contenders: [(String, () async throws -> Sample)] = [
            (courierName, { try await courier(viaAHC) }), (curlName, { try await curl() }), (sessionName, { try await courier(viaSession) }),
            (rawName, { try await raw(source) }),
        ]
        var results: [String: [Sample]] = [:]
        for round in 0..<settings.largeReps {
            var line = "  round \(round + 1):"
            for (name, measure) in round % 2 == 0 ? contenders : contenders.reversed() {
                let sample = try await measure()
                results[name, default: []].append(sample)
                line += " \(name) \(format(sample.seconds, 2)) s" + (sample.growth.map { " (+\(format($0)) MB)" } ?? "") + ";"
            }
            print(line)
        }
        guard hashes.count == 1 else { throw BenchmarkError.failed("the receipts disagree on the SHA-256: \(hashes.sorted())") }
        print("  every receipt: \(size) bytes, sha256 \(hashes.first!.prefix(16))… (the same for all)")
        let curlTime = median(results[curlName]!.map(\.seconds))
        let serverCPU = median(results[curlName]!.map(\.cpu))
        print("  " + pad("contender", 38) + pad("median s", 10) + pad("MB/s", 9) + pad("×curl", 7) + pad("peak MB", 9) + "client CPU s")
        for name in [courierName, sessionName, rawName, curlName] {
            let samples = results[name]!
            let time = median(samples.map(\.seconds))
            let cpu = name == curlName ? median(samples.compactMap(\.childCPU)) : median(samples.map(\.cpu)) - serverCPU
            print(
                "  " + pad(name, 38) + pad(format(time, 3), 10) + pad(format(megabytesPerSecond(size, time)), 9)
                    + pad(format(curlTime / time, 3), 7) + pad(samples.compactMap(\.growth).max().map { format($0) } ?? "-", 9)
                    + format(cpu, 2))
        }
        print("  (the sandbox's CPU, this process's during curl's runs: \(format(serverCPU, 2)) s)\n")
        let courierTime = median(results[courierName]!.map(\.seconds))
        let sessionTime = median(results[sessionName]!.map(\.seconds))
        let rawTime = median(results[rawName]!.map(\.seconds))
        return [
            Verdict(
                metric: "upload \(describe(size)) MB/s vs curl -T", courier: format(megabytesPerSecond(size, courierTime)),
                baseline: format(megabytesPerSecond(size, curlTime)), ratio: format(curlTime / courierTime, 3), goal: "≥ 0.9",
                met: curlTime / courierTime >= 0.9),
            Verdict(
                metric: "upload peak growth MB", courier: format(results[courierName]!.compactMap(\.growth).max() ?? 0), baseline: "-",
                ratio: "-", goal: "-", met: nil),
            Verdict(
                metric: "upload MB/s, URLSession transport", courier: format(megabytesPerSecond(size, sessionTime)),
                baseline: format(megabytesPerSecond(size, curlTime)), ratio: format(curlTime / sessionTime, 3), goal: "-", met: nil),
            Verdict(
                metric: "  (vs raw AHC async API)", courier: format(megabytesPerSecond(size, courierTime)),
                baseline: format(megabytesPerSecond(size, rawTime)), ratio: format(rawTime / courierTime, 3), goal: "-", met: nil),
        ]
    }

    // MARK: - 3. Progress

    static func progress(_ settings: Settings, base: URL, directory: URL) async throws -> [Verdict] {
        let size = settings.progressSize ?? settings.size
        let endpoint = FileEndpoint(baseURL: base, size: size)
        let client = NetworkClient()
        print("3. download of \(describe(size)) with a TransferProgress a task reads vs none (default transport)")
        let noneName = "no progress"
        let observedName = "progress, read by a task"
        let unreadName = "progress, nobody reading"
        let controlName = "no progress again (control)"
        var snapshotCounts: [Int] = []
        let contenders: [(String, (URL) async throws -> Double)] = [
            (
                noneName,
                { target in
                    let start = ContinuousClock.now
                    _ = try await client.download(endpoint, to: target)
                    return seconds(ContinuousClock.now - start)
                }
            ),
            (
                observedName,
                { target in
                    let start = ContinuousClock.now
                    let progress = TransferProgress()
                    let reader = Task { () -> (Int, TransferProgress.Snapshot?) in
                        var count = 0
                        var last: TransferProgress.Snapshot?
                        for await snapshot in progress {
                            count += 1
                            last = snapshot
                        }
                        return (count, last)
                    }
                    _ = try await client.download(endpoint, to: target, progress: progress)
                    let (count, last) = await reader.value
                    let elapsed = seconds(ContinuousClock.now - start)
                    guard let last, last.isFinished, last.bytesDone == size else {
                        throw BenchmarkError.failed("the last snapshot is not the finished transfer: \(String(describing: last))")
                    }
                    snapshotCounts.append(count)
                    return elapsed
                }
            ),
            (
                unreadName,
                { target in
                    let start = ContinuousClock.now
                    _ = try await client.download(endpoint, to: target, progress: TransferProgress())
                    return seconds(ContinuousClock.now - start)
                }
            ),
            // The very same code as "no progress": its ratio is the machine's noise.
            (
                controlName,
                { target in
                    let start = ContinuousClock.now
                    _ = try await client.download(endpoint, to: target)
                    return seconds(ContinuousClock.now - start)
                }
            ),
        ]
        _ = try await client.download(FileEndpoint(baseURL: base, size: 1 << 20), to: directory.appendingPathComponent("warm.bin"))
        Files.remove(directory.appendingPathComponent("warm.bin").path)
        var results: [String: [Double]] = [:]
        for round in 0..<settings.largeReps {
            var line = "  round \(round + 1):"
            for (name, measure) in round % 2 == 0 ? contenders : contenders.reversed() {
                let target = directory.appendingPathComponent("progress-\(round).bin")
                let time = try await measure(target)
                try Files.verifyDownload(target.path, size: size)
                Files.remove(target.path)
                results[name, default: []].append(time)
                line += " \(name) \(format(time, 2)) s;"
            }
            print(line)
        }
        let none = median(results[noneName]!)
        print("  " + pad("contender", 38) + pad("median s", 10) + pad("MB/s", 9) + "×time of none")
        for name in [noneName, observedName, unreadName, controlName] {
            let time = median(results[name]!)
            print("  " + pad(name, 38) + pad(format(time, 3), 10) + pad(format(megabytesPerSecond(size, time)), 9) + format(time / none, 3))
        }
        print("  snapshots read per download: \(snapshotCounts.map(String.init).joined(separator: ", "))\n")
        let observed = median(results[observedName]!)
        let unread = median(results[unreadName]!)
        let control = median(results[controlName]!)
        return [
            Verdict(
                metric: "progress observed: time vs none (s)", courier: format(observed, 3), baseline: format(none, 3),
                ratio: format(observed / none, 3), goal: "≤ 1.02", met: observed / none <= 1.02),
            Verdict(
                metric: "progress unread: time vs none (s)", courier: format(unread, 3), baseline: format(none, 3),
                ratio: format(unread / none, 3), goal: "-", met: nil),
            Verdict(
                metric: "  control: none again vs none (s)", courier: format(control, 3), baseline: format(none, 3),
                ratio: format(control / none, 3), goal: "-", met: nil),
        ]
    }

    // MARK: - 4. NDJSON

    static func ndjson(_ settings: Settings, base: URL) async throws -> [Verdict] {
        let count = settings.lines
        let endpoint = NDJSONEndpoint(baseURL: base, count: count)
        let url = base.absoluteString + "/ndjson?count=\(count)"
        let client = NetworkClient()
        print("4. NDJSON, \(count) lines decoded as Line: client.jsonLines vs raw AsyncHTTPClient (HTTPClient.shared), split and decoded by hand")
        func check(_ lines: Int, _ last: Line?) throws {
            guard lines == count, let last, last.index == count - 1, last.text == "line \(count - 1) 서울" else {
                throw BenchmarkError.failed("\(lines) lines, the last \(String(describing: last)); expected \(count)")
            }
        }
        let courierName = "Courier client.jsonLines"
        let rawName = "raw AHC, one JSONDecoder"
        let rawFreshName = "raw AHC, JSONDecoder() per line"
        let contenders: [(String, () async throws -> Sample)] = [
            (
                courierName,
                {
                    let ((lines, last), wall, cpu) = try await timed { () async throws -> (Int, Line?) in
                        var lines = 0
                        var last: Line?
                        for try await line in client.jsonLines(endpoint, as: Line.self) {
                            lines += 1
                            last = line
                        }
                        return (lines, last)
                    }
                    try check(lines, last)
                    return Sample(seconds: wall, cpu: cpu)
                }
            ),
            (
                rawName,
                {
                    let decoder = JSONDecoder()
                    let ((lines, last), wall, cpu) = try await timed { try await rawLines(url) { try decoder.decode(Line.self, from: $0) } }
                    try check(lines, last)
                    return Sample(seconds: wall, cpu: cpu)
                }
            ),
            (
                rawFreshName,
                {
                    let ((lines, last), wall, cpu) = try await timed { try await rawLines(url) { try JSONDecoder().decode(Line.self, from: $0) } }
                    try check(lines, last)
                    return Sample(seconds: wall, cpu: cpu)
                }
            ),
        ]
        if let (name, measure) = profiled("ndjson", contenders) {
            _ = try await measure()  // warm-up
            var times: [Double] = []
            for _ in 0..<settings.reps { times.append(try await measure().seconds) }
            print("  \(name) alone: median \(format(median(times) * 1000)) ms of \(settings.reps)\n")
            return []
        }
        for (_, measure) in contenders { _ = try await measure() }  // warm-up
        var results: [String: [Sample]] = [:]
        for round in 0..<settings.reps {
            var line = "  round \(round + 1):"
            for (name, measure) in round % 2 == 0 ? contenders : contenders.reversed() {
                let sample = try await measure()
                results[name, default: []].append(sample)
                line += " \(name) \(format(sample.seconds * 1000, 0)) ms;"
            }
            print(line)
        }
        let raw = median(results[rawName]!.map(\.seconds))
        let rawCPU = median(results[rawName]!.map(\.cpu))
        print("  " + pad("contender", 38) + pad("median ms", 11) + pad("lines/s", 10) + pad("×raw", 7) + pad("CPU ms", 8) + "CPU ×raw")
        for name in [courierName, rawName, rawFreshName] {
            let time = median(results[name]!.map(\.seconds))
            let cpu = median(results[name]!.map(\.cpu))
            print(
                "  " + pad(name, 38) + pad(format(time * 1000), 11) + pad(format(Double(count) / time, 0), 10) + pad(format(raw / time, 3), 7)
                    + pad(format(cpu * 1000, 0), 8) + format(cpu / rawCPU, 3))
        }
        print(
            "  ×raw: the raw baseline's time (one decoder) over the contender's; CPU: this process's (the sandbox's included when it runs in-process)\n"
        )
        let courier = median(results[courierName]!.map(\.seconds))
        let rawFresh = median(results[rawFreshName]!.map(\.seconds))
        return [
            Verdict(
                metric: "NDJSON \(count) lines, lines/s vs raw AHC", courier: format(Double(count) / courier, 0),
                baseline: format(Double(count) / raw, 0), ratio: format(raw / courier, 3), goal: "≥ 0.9", met: raw / courier >= 0.9),
            Verdict(
                metric: "  (vs raw, JSONDecoder() per line)", courier: format(Double(count) / courier, 0),
                baseline: format(Double(count) / rawFresh, 0), ratio: format(rawFresh / courier, 3), goal: "-", met: nil),
        ]
    }

    /// The body of `url` through `HTTPClient.shared`'s async API written to a new file at `path`
    /// as it arrives (no sync, no rename): what AsyncHTTPClient alone does.
    static func rawDownload(_ url: String, to path: String) async throws {
        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(600))
        guard response.status == .ok else { throw BenchmarkError.failed("\(url): \(response.status)") }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw BenchmarkError.failed("\(path): cannot create") }
        defer { _ = close(descriptor) }
        var offset: Int64 = 0
        for try await buffer in response.body {
            let written = buffer.withUnsafeReadableBytes { raw in
                var done = 0
                while done < raw.count {
                    let count = pwrite(descriptor, raw.baseAddress! + done, raw.count - done, off_t(offset) + off_t(done))
                    if count < 0 {
                        if errno == EINTR { continue }
                        return -1
                    }
                    done += count
                }
                return done
            }
            guard written >= 0 else { throw BenchmarkError.failed("\(path): write failed (errno \(errno))") }
            offset += Int64(written)
        }
    }

    /// The NDJSON body of `url` through `HTTPClient.shared`, split on `\n` by hand, each line
    /// decoded by `decode`: the number of lines and the last value.
    static func rawLines(_ url: String, decode: (Data) throws -> Line) async throws -> (Int, Line?) {
        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(120))
        guard response.status == .ok else { throw BenchmarkError.failed("\(url): \(response.status)") }
        var pending: [UInt8] = []
        var lines = 0
        var last: Line?
        for try await buffer in response.body {
            let view = buffer.readableBytesView
            var start = view.startIndex
            while let newline = view[start...].firstIndex(of: 0x0A) {
                let line: Data
                if pending.isEmpty {
                    line = Data(view[start..<newline])
                } else {
                    pending.append(contentsOf: view[start..<newline])
                    line = Data(pending)
                    pending.removeAll(keepingCapacity: true)
                }
                if !line.isEmpty {
                    last = try decode(line)
                    lines += 1
                }
                start = view.index(after: newline)
            }
            pending.append(contentsOf: view[start...])
        }
        if !pending.isEmpty {
            last = try decode(Data(pending))
            lines += 1
        }
        return (lines, last)
    }

    /// `TRANSFER_BENCH_PROFILE=SECTION:PREFIX` (e.g. `ndjson:Courier`, `ndjson:raw AHC, one`,
    /// `download:curl`): the contender of SECTION whose name starts with PREFIX runs alone, for
    /// `perf record`; the section then reports only its times.
    static func profiled<Measure>(_ section: String, _ contenders: [(String, Measure)]) -> (String, Measure)? {
        guard let spec = ProcessInfo.processInfo.environment["TRANSFER_BENCH_PROFILE"], spec.hasPrefix(section + ":") else { return nil }
        let prefix = spec.dropFirst(section.count + 1)
        return contenders.first { $0.0.hasPrefix(prefix) }
    }

    // MARK: - The machine

    static func describe(_ size: Int64) -> String {
        if size >= 1 << 30, size % (1 << 30) == 0 { return "\(size >> 30) GiB" }
        if size >= 1 << 20, size % (1 << 20) == 0 { return "\(size >> 20) MiB" }
        return "\(size) bytes"
    }

    static func cpuModel() -> String {
        let text = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let line = text.split(separator: "\n").first { $0.hasPrefix("model name") }
        return line.flatMap { $0.split(separator: ":", maxSplits: 1).last }.map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown CPU"
    }

    static func memoryTotal() -> String {
        let text = (try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8)) ?? ""
        let line = text.split(separator: "\n").first { $0.hasPrefix("MemTotal:") }
        let kib = line.flatMap { Int($0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") } ?? 0
        return "\(kib >> 20) GiB RAM"
    }

    /// The 1, 5 and 15 minute load averages.
    static func loadAverage() -> String {
        let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "?"
        return text.split(separator: " ").prefix(3).joined(separator: " ")
    }

    static func kernel() -> String {
        ((try? String(contentsOfFile: "/proc/sys/kernel/osrelease", encoding: .utf8)) ?? "?").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The file system type of `path` (from /proc/mounts: the longest mount point that prefixes it).
    static func fileSystem(_ path: String) -> String {
        let text = (try? String(contentsOfFile: "/proc/mounts", encoding: .utf8)) ?? ""
        var best: (point: String, type: String) = ("", "?")
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 3 else { continue }
            let point = String(fields[1])
            if (path == point || path.hasPrefix(point == "/" ? "/" : point + "/")) && point.count >= best.point.count {
                best = (point, String(fields[2]))
            }
        }
        return "\(best.type) at \(best.point)"
    }
}
