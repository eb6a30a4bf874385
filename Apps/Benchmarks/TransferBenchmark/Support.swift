import Courier
import CourierSandbox
import Foundation
import NIOCore

#if canImport(Glibc)
import Glibc
#endif

// What the sections of TransferBenchmark share: the endpoints, the clock and statistics, the
// process's peak memory, files, and curl as a child process.

/// `GET /files/big.bin?size=N` of the sandbox: N deterministic bytes (seed 0, version 1).
struct FileEndpoint: Endpoint {
    let baseURL: URL
    let size: Int64
    var path: String { "/files/big.bin" }
    var method: HTTPMethod { .get }
    var task: HTTPTask { .requestParameters(["size": String(size)], encoding: .url) }
    /// Bounds the wait for the head only (a download's body has its own idle timeout).
    var timeout: Duration? { .seconds(600) }
}

/// `PUT /upload` with a file as the body: the sandbox hashes it as it streams and answers a receipt.
struct UploadEndpoint: Endpoint {
    let baseURL: URL
    let file: URL
    var path: String { "/upload" }
    var method: HTTPMethod { .put }
    var task: HTTPTask { .uploadFile(file) }
    /// The whole call, body included.
    var timeout: Duration? { .seconds(600) }
}

/// `GET /ndjson?count=N`: N lines `{"index":i,"text":"line i 서울"}`.
struct NDJSONEndpoint: Endpoint {
    let baseURL: URL
    let count: Int
    var path: String { "/ndjson" }
    var method: HTTPMethod { .get }
    var task: HTTPTask { .requestParameters(["count": String(count)], encoding: .url) }
    var timeout: Duration? { .seconds(120) }
}

/// One NDJSON record.
struct Line: Decodable, Sendable {
    var index: Int
    var text: String
}

/// What `/upload` answers (the fields this benchmark checks).
struct Receipt: Decodable, Sendable {
    var bytes: Int
    var sha256: String
}

enum BenchmarkError: Error, CustomStringConvertible {
    case failed(String)
    var description: String {
        switch self {
        case .failed(let message): message
        }
    }
}

// MARK: - Clock and statistics

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

/// The middle value (the mean of the two middle ones for an even count); 0 when empty.
func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    let mid = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

/// Megabytes (10⁶ bytes) a second.
func megabytesPerSecond(_ bytes: Int64, _ seconds: Double) -> Double {
    seconds > 0 ? Double(bytes) / 1e6 / seconds : 0
}

func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
}

func format(_ value: Double, _ digits: Int = 1) -> String {
    String(format: "%.\(digits)f", value)
}

// MARK: - Memory (as HostileBenchmark: /proc/self/clear_refs resets VmHWM, read back from /proc/self/status)

enum Memory {
    /// A /proc/self/status field in kB; -1 when unreadable.
    static func status(_ field: String) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return -1 }
        for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? -1
        }
        return -1
    }

    /// Resets the peak resident size to the current one (Linux ≥ 4.0).
    static func resetPeak() {
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
    }

    /// Runs `body` with the peak reset first; returns its result and the growth of the peak
    /// resident size over the resident size before it, in MB (10⁶ bytes).
    static func growth<T>(_ body: () async throws -> T) async rethrows -> (T, Double) {
        resetPeak()
        let before = status("VmRSS")
        let result = try await body()
        let peak = status("VmHWM")
        return (result, Double(max(0, peak - before)) * 1024 / 1e6)
    }
}

// MARK: - CPU time

/// CPU time (user + system) of this process, in seconds: the in-process sandbox's and the client's.
func processCPU() -> Double {
    var usage = rusage()
    #if os(Linux)
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    #else
    getrusage(RUSAGE_SELF, &usage)
    #endif
    return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec)
        + Double(usage.ru_stime.tv_usec) / 1e6
}

/// Wall time and this process's CPU time of `body`, in seconds.
func timed<T>(_ body: () async throws -> T) async rethrows -> (T, wall: Double, cpu: Double) {
    let cpu = processCPU()
    let start = ContinuousClock.now
    let result = try await body()
    return (result, seconds(ContinuousClock.now - start), processCPU() - cpu)
}

// MARK: - Files

enum Files {
    /// The size of the file at `path`; -1 when it is not there.
    static func size(_ path: String) -> Int64 {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : -1
    }

    /// Checks `path` holds `size` bytes of the sandbox's file (`SandboxFileContent` of seed 0 and
    /// version 1, the route's defaults), reading 64
    /// spots spread over it (and its first and last bytes).
    static func verifyDownload(_ path: String, size: Int64) throws {
        let actual = Self.size(path)
        guard actual == size else { throw BenchmarkError.failed("\(path): \(actual) bytes, expected \(size)") }
        let content = SandboxFileContent(size: size, seed: 0, version: 1)
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw BenchmarkError.failed("\(path): cannot open") }
        defer { _ = close(descriptor) }
        var offsets: [Int64] = [0, size - 1]
        for spot in 1..<64 { offsets.append(size / 64 * Int64(spot) + Int64(spot * 7919)) }
        for offset in offsets where offset >= 0 && offset < size {
            var byte: UInt8 = 0
            guard pread(descriptor, &byte, 1, off_t(offset)) == 1, byte == content.byte(at: offset) else {
                throw BenchmarkError.failed("\(path): wrong byte at offset \(offset)")
            }
        }
    }

    /// Writes `size` bytes of a repeating pattern to `path` (the upload's source).
    static func makeSource(_ path: String, size: Int64) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw BenchmarkError.failed("\(path): cannot create") }
        defer { _ = close(descriptor) }
        let content = SandboxFileContent(size: size, seed: 0, version: 1)
        let block = (0..<Int64(1 << 20)).map { content.byte(at: $0) }
        var written: Int64 = 0
        while written < size {
            let want = Int(min(Int64(block.count), size - written))
            let done = block.withUnsafeBytes { write(descriptor, $0.baseAddress!, want) }
            guard done > 0 else { throw BenchmarkError.failed("\(path): write failed (errno \(errno))") }
            written += Int64(done)
        }
    }

    /// `fsync` of the file at `path`: what it took, in seconds.
    static func sync(_ path: String) -> Double {
        let start = ContinuousClock.now
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        if descriptor >= 0 {
            _ = fsync(descriptor)
            _ = close(descriptor)
        }
        return seconds(ContinuousClock.now - start)
    }

    static func remove(_ path: String) {
        _ = unlink(path)
    }
}

/// A file as `ByteBuffer`s of 256 KiB (what Courier's file body reads at a time), read straight
/// into each buffer: the raw AsyncHTTPClient upload's body.
struct FileBuffers: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    let path: String
    let length: Int64

    func makeAsyncIterator() -> Iterator { Iterator(path: path, length: length) }

    final class Iterator: AsyncIteratorProtocol {
        private let descriptor: Int32
        private let length: Int64
        private var offset: Int64 = 0

        init(path: String, length: Int64) {
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
            self.length = length
        }

        deinit {
            if descriptor >= 0 { _ = close(descriptor) }
        }

        func next() async throws -> ByteBuffer? {
            guard descriptor >= 0 else { throw BenchmarkError.failed("cannot open the upload's file") }
            let want = Int(Swift.min(Int64(256 << 10), length - offset))
            guard want > 0 else { return nil }
            var buffer = ByteBufferAllocator().buffer(capacity: want)
            let read = buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: want) { raw in
                Swift.max(0, pread(descriptor, raw.baseAddress!, want, off_t(offset)))
            }
            guard read > 0 else { throw BenchmarkError.failed("the upload's file shrank") }
            offset += Int64(read)
            return buffer
        }
    }
}

// MARK: - Child processes

/// One finished child process.
struct ChildRun: Sendable {
    /// From just before the spawn to the reaped exit.
    let seconds: Double
    let exitCode: Int32
    /// The child's own peak resident size and CPU time (from `wait4`).
    let maxRSSKiB: Int
    let cpuSeconds: Double
}

enum Child {
    /// Runs `arguments` (the first found on `PATH`) with stdin on /dev/null, stdout on `output`
    /// (/dev/null by default) and stderr inherited; waits for it on a thread of its own (never a
    /// Swift concurrency thread: the in-process sandbox's handlers need those while the child runs).
    static func run(_ arguments: [String], output: String = "/dev/null") async throws -> ChildRun {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<ChildRun, any Error>) in
            let thread = Thread {
                continuation.resume(with: Result { try spawnAndWait(arguments, output: output) })
            }
            thread.start()
        }
    }

    /// The first line `arguments` print; nil when they fail.
    static func firstLine(_ arguments: [String]) async -> String? {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("courier-transfer-bench-\(UUID().uuidString).txt").path
        defer { _ = unlink(output) }
        guard let child = try? await run(arguments, output: output), child.exitCode == 0,
            let text = try? String(contentsOfFile: output, encoding: .utf8)
        else { return nil }
        return text.split(separator: "\n").first.map(String.init)
    }

    /// Starts `arguments` in the background (stdin /dev/null, stdout to `output`, stderr
    /// inherited); its process id.
    static func spawn(_ arguments: [String], output: String = "/dev/null") throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let envp: [UnsafeMutablePointer<CChar>?] = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in envp { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, arguments[0], &actions, nil, argv, envp)
        guard spawned == 0 else { throw BenchmarkError.failed("cannot start \(arguments[0]): errno \(spawned)") }
        return pid
    }

    /// Sends SIGTERM to `pid` and reaps it.
    static func stop(_ pid: pid_t) {
        _ = kill(pid, SIGTERM)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }

    private static func spawnAndWait(_ arguments: [String], output: String) throws -> ChildRun {
        let start = ContinuousClock.now
        let pid = try spawn(arguments, output: output)
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw BenchmarkError.failed("wait4: errno \(errno)") }
        }
        let elapsed = seconds(ContinuousClock.now - start)
        // WIFEXITED / WEXITSTATUS, which Swift does not import.
        let exitCode: Int32 = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        let cpu =
            Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec)
            + Double(usage.ru_stime.tv_usec) / 1e6
        return ChildRun(seconds: elapsed, exitCode: exitCode, maxRSSKiB: Int(usage.ru_maxrss), cpuSeconds: cpu)
    }
}
