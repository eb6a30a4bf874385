import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process started with `posix_spawn`, for tests that run the built `courier` binary or
/// Python.
///
/// Not Foundation's `Process`: on Linux (Swift 6.3.1) its `run()` finds the highest open
/// descriptor by copying whole 256-byte `d_name` fields out of `readdir(/proc/self/fd)`, which
/// reads past glibc's buffer and crashes the process now and then when many descriptors are open
/// (swift-corelibs-foundation PR #5472) — as they are in a test process full of sockets. It also
/// changes the whole process's working directory while it spawns. Here the child closes every
/// descriptor from 3 up itself (`posix_spawn_file_actions_addclosefrom_np`), starts in its own
/// process group with SIGPIPE at its default (as from a shell, whatever this process ignores),
/// and its end is waited for on a Dispatch thread, never on the concurrency pool.
public final class ChildProcess: Sendable {
    /// Where one of the child's standard streams goes.
    public enum Stream: Sendable {
        /// `/dev/null`.
        case null
        /// This process's own stream.
        case inherit
        /// A file: read for standard input; created (0600) or truncated for the others.
        case file(URL)
        /// A pipe; this process keeps the other end (``input``, ``output`` or ``errors``).
        case pipe
    }

    /// How the child ended.
    public enum Termination: Sendable, Equatable {
        case exited(Int32)
        case signalled(Int32)

        /// The exit status, or 128 + the signal, as a shell reports it.
        public var status: Int32 {
            switch self {
            case .exited(let code): code
            case .signalled(let signal): 128 + signal
            }
        }
    }

    /// Why a child could not be started.
    public struct SpawnError: Error, CustomStringConvertible {
        public let executable: String
        public let code: Int32
        public var description: String { "could not start \(executable): \(String(cString: strerror(code)))" }
    }

    /// The child's process id.
    public let pid: pid_t
    #if !os(Linux)
    nonisolated(unsafe) private let process: Process  // only waited for, from one Dispatch thread
    #endif
    /// This process's end of the child's standard input, when it is a ``Stream/pipe``.
    public let input: FileHandle?
    /// This process's end of the child's standard output, when it is a ``Stream/pipe``.
    public let output: FileHandle?
    /// This process's end of the child's standard error, when it is a ``Stream/pipe``.
    public let errors: FileHandle?

    #if os(Linux)
    /// Starts `executable` with `arguments` (and `environment`, else this process's).
    public init(
        _ executable: URL, _ arguments: [String], environment: [String: String]? = nil,
        stdin: Stream = .null, stdout: Stream = .null, stderr: Stream = .null
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var ours: [Int32: FileHandle] = [:]
        var theirs: [Int32] = []
        defer { for descriptor in theirs { close(descriptor) } }
        for (target, stream) in [(Int32(0), stdin), (1, stdout), (2, stderr)] {
            switch stream {
            case .inherit:
                break
            case .null:
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0)
            case .file(let url):
                let flags = target == 0 ? O_RDONLY : O_WRONLY | O_CREAT | O_TRUNC
                posix_spawn_file_actions_addopen(&actions, target, url.path, flags, 0o600)
            case .pipe:
                var ends: [Int32] = [0, 0]
                guard pipe(&ends) == 0 else { throw SpawnError(executable: executable.path, code: errno) }
                // The child reads from [0] for stdin and writes to [1] otherwise.
                let (child, parent) = target == 0 ? (ends[0], ends[1]) : (ends[1], ends[0])
                _ = fcntl(parent, F_SETFD, FD_CLOEXEC)
                posix_spawn_file_actions_adddup2(&actions, child, target)
                theirs.append(child)
                ours[target] = FileHandle(fileDescriptor: parent, closeOnDealloc: true)
            }
        }
        Self.closeFromThree(&actions)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        var mask = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        sigemptyset(&mask)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &mask)
        // Its own process group, as Foundation's `Process` does: a signal it sends its group
        // stays there.
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP))

        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
        defer {
            argv.forEach { free($0) }
            envp?.forEach { free($0) }
        }
        var pid: pid_t = 0
        let code =
            envp.map { posix_spawn(&pid, executable.path, &actions, &attributes, argv, $0) }
            ?? posix_spawn(&pid, executable.path, &actions, &attributes, argv, environ)
        guard code == 0 else {
            throw SpawnError(executable: executable.path, code: code)
        }
        self.pid = pid
        self.input = ours[0]
        self.output = ours[1]
        self.errors = ours[2]
    }

    #else
    /// Starts `executable` with `arguments` (and `environment`, else this process's); on Apple
    /// platforms through Foundation's `Process`, which has none of the Linux problems.
    public init(
        _ executable: URL, _ arguments: [String], environment: [String: String]? = nil,
        stdin: Stream = .null, stdout: Stream = .null, stderr: Stream = .null
    ) throws {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        var pipes: [Int: Pipe] = [:]
        func handle(_ stream: Stream, _ target: Int) throws -> Any? {
            switch stream {
            case .inherit: return target == 0 ? FileHandle.standardInput : target == 1 ? FileHandle.standardOutput : FileHandle.standardError
            case .null: return FileHandle.nullDevice
            case .file(let url):
                if target == 0 { return try FileHandle(forReadingFrom: url) }
                _ = FileManager.default.createFile(atPath: url.path, contents: nil, attributes: [.posixPermissions: 0o600])
                return try FileHandle(forWritingTo: url)
            case .pipe:
                let pipe = Pipe()
                pipes[target] = pipe
                return pipe
            }
        }
        process.standardInput = try handle(stdin, 0)
        process.standardOutput = try handle(stdout, 1)
        process.standardError = try handle(stderr, 2)
        try process.run()
        self.process = process
        self.pid = process.processIdentifier
        self.input = pipes[0]?.fileHandleForWriting
        self.output = pipes[1]?.fileHandleForReading
        self.errors = pipes[2]?.fileHandleForReading
    }
    #endif

    /// Waits for the child to end (call once).
    public func wait() async -> Termination {
        #if os(Linux)
        let pid = self.pid
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                var status: Int32 = 0
                while waitpid(pid, &status, 0) == -1, errno == EINTR {}
                let signal = status & 0x7f
                continuation.resume(returning: signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal))
            }
        }
        #else
        nonisolated(unsafe) let process = self.process
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                process.waitUntilExit()
                let status = process.terminationStatus
                continuation.resume(returning: process.terminationReason == .exit ? .exited(status) : .signalled(status))
            }
        }
        #endif
    }

    /// The built `courier` binary: beside this test bundle (the apps package's tests), or in
    /// `Apps/.build/debug`.
    public static func courierBinary(sourceLocation: SourceLocation = #_sourceLocation) throws -> URL {
        let testBundleDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let candidates = [testBundleDirectory.appendingPathComponent("courier"), packageRoot.appendingPathComponent("Apps/.build/debug/courier")]
        let found = candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
        return try #require(
            found, "the courier binary is not built (looked in \(candidates.map(\.path))): run `swift build --package-path Apps` first",
            sourceLocation: sourceLocation)
    }

    /// Runs `executable` to its end.
    public static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String]? = nil,
        stdin: Stream = .null, stdout: Stream = .null, stderr: Stream = .null
    ) async throws -> Termination {
        try await ChildProcess(executable, arguments, environment: environment, stdin: stdin, stdout: stdout, stderr: stderr).wait()
    }

    /// Every descriptor from 3 up is closed in the child (glibc 2.34+; found at run time, since
    /// the Glibc module does not declare it). Without it the child keeps this process's sockets
    /// and pipe ends — a pipe would then not end while any child lives.
    private static func closeFromThree(_ actions: inout posix_spawn_file_actions_t) {
        #if canImport(Glibc)
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return }
        _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
        #endif
    }
}
