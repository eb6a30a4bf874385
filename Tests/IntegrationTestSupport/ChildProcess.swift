import Foundation
import Subprocess
import Testing

#if canImport(System)
import System
#else
import SystemPackage
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process for tests that run the built `courier` binary or Python, started through
/// swift-subprocess.
///
/// Not Foundation's `Process`: on Linux (Swift 6.3.1) its `run()` finds the highest open
/// descriptor by copying whole 256-byte `d_name` fields out of `readdir(/proc/self/fd)`, which
/// reads past glibc's buffer and crashes the process now and then when many descriptors are open
/// (swift-corelibs-foundation PR #5472) — as they are in a test process full of sockets. Checked
/// as that crash was found (3,000 sockets open, 2,000 spawns from 4 tasks, glibc's
/// `malloc.top_pad=0` so the over-read meets unmapped memory): `Process` crashed in 8 of 11 runs,
/// swift-subprocess in none of 8 — it never reads `/proc/self/fd` (the child closes every
/// descriptor from 3 up with `posix_spawn_file_actions_addclosefrom_np`) and waits on a pidfd,
/// with no SIGCHLD handler. The child starts in its own process group, with every signal at its
/// default (SIGPIPE included, whatever this process ignores).
///
/// swift-subprocess lends a running process to a closure; here the closure hands out the pid and
/// returns at once, and the run goes on in a task of its own until the child ends, so a child can
/// outlive the call that started it (a peer kept for a whole suite). A child on a pseudo-terminal
/// (a controlling terminal, which swift-subprocess cannot give) is ``PseudoTerminalChild``'s.
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
        public let reason: String
        public var description: String { "could not start \(executable): \(reason)" }
    }

    /// The child's process id.
    public let pid: pid_t
    /// This process's end of the child's standard input, when it is a ``Stream/pipe``.
    public let input: FileHandle?
    /// This process's end of the child's standard output, when it is a ``Stream/pipe``.
    public let output: FileHandle?
    /// This process's end of the child's standard error, when it is a ``Stream/pipe``.
    public let errors: FileHandle?
    private let run: Task<Termination, any Error>

    /// Starts `executable` with `arguments` (and `environment`, else this process's).
    public init(
        _ executable: URL, _ arguments: [String], environment: [String: String]? = nil,
        stdin: Stream = .null, stdout: Stream = .null, stderr: Stream = .null
    ) async throws {
        var ours: [Int: FileHandle] = [:]
        /// The child's end of `stream` for descriptor `target`, and whether it is closed here once
        /// the child has it (everything but this process's own standard streams).
        func descriptor(_ stream: Stream, _ target: Int32) throws -> (FileDescriptor, close: Bool) {
            let reading = target == 0
            switch stream {
            case .inherit: return (FileDescriptor(rawValue: target), false)
            case .null: return (try FileDescriptor.open("/dev/null", reading ? .readOnly : .writeOnly, options: [.closeOnExec]), true)
            case .file(let url):
                let child =
                    reading
                    ? try FileDescriptor.open(FilePath(url.path), .readOnly, options: [.closeOnExec])
                    : try FileDescriptor.open(
                        FilePath(url.path), .writeOnly, options: [.create, .truncate, .closeOnExec], permissions: [.ownerReadWrite])
                return (child, true)
            case .pipe:
                let ends = try FileDescriptor.pipe()
                // The child reads from the read end for stdin and writes to the write end otherwise.
                let (child, parent) = reading ? (ends.readEnd, ends.writeEnd) : (ends.writeEnd, ends.readEnd)
                _ = fcntl(parent.rawValue, F_SETFD, FD_CLOEXEC)
                _ = fcntl(child.rawValue, F_SETFD, FD_CLOEXEC)
                ours[Int(target)] = FileHandle(fileDescriptor: parent.rawValue, closeOnDealloc: true)
                return (child, true)
            }
        }
        let standardInput = try descriptor(stdin, 0)
        let standardOutput = try descriptor(stdout, 1)
        let standardError = try descriptor(stderr, 2)
        var options = PlatformOptions()
        options.processGroupID = 0  // its own group: a signal it sends its group stays there
        let environmentValue: Environment =
            environment.map { .custom(Dictionary(uniqueKeysWithValues: $0.map { (Environment.Key(rawValue: $0.key)!, $0.value) })) } ?? .inherit
        let (started, pidSink) = AsyncStream<pid_t>.makeStream()
        let run = Task { () throws -> Termination in
            defer { pidSink.finish() }
            let result = try await Subprocess.run(
                .path(FilePath(executable.path)), arguments: Arguments(arguments), environment: environmentValue,
                platformOptions: options,
                input: .fileDescriptor(standardInput.0, closeAfterSpawningProcess: standardInput.close),
                output: .fileDescriptor(standardOutput.0, closeAfterSpawningProcess: standardOutput.close),
                error: .fileDescriptor(standardError.0, closeAfterSpawningProcess: standardError.close)
            ) { execution in
                pidSink.yield(execution.processIdentifier.value)
            }
            switch result.terminationStatus {
            case .exited(let code): return .exited(Int32(code))
            case .signaled(let signal): return .signalled(Int32(signal))
            }
        }
        var pid: pid_t?
        for await started in started {
            pid = started
            break
        }
        guard let pid else {
            let reason: String
            do {
                _ = try await run.value
                reason = "it ended before it started"
            } catch { reason = "\(error)" }
            throw SpawnError(executable: executable.path, reason: reason)
        }
        self.pid = pid
        self.input = ours[0]
        self.output = ours[1]
        self.errors = ours[2]
        self.run = run
    }

    /// Waits for the child to end (call once).
    public func wait() async -> Termination {
        (try? await run.value) ?? .signalled(SIGKILL)
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
}
