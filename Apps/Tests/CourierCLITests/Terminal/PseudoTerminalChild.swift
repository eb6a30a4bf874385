import Foundation
import Testing

#if canImport(Glibc)
import Glibc

/// A child process whose standard streams and controlling terminal are a new pseudo-terminal, as
/// when a person runs it in a terminal window: keys written to ``master`` go through the terminal's
/// line discipline, so Ctrl-C (0x03) becomes a SIGINT for the child, and the terminal's settings
/// (echo on or off) can be read while it runs and after it ends.
///
/// Not `forkpty`: forking a process full of threads is unsafe. `posix_spawn` with
/// `POSIX_SPAWN_SETSID` makes the child a session leader before its file actions run, so opening
/// the terminal there makes it the child's controlling terminal.
final class PseudoTerminalChild: Sendable {
    /// The child's process id.
    let pid: pid_t
    /// The terminal's master side: what the "person" types and sees.
    let master: Int32
    /// The terminal itself, kept open here (never as this process's controlling terminal) so its
    /// settings can be read after the child has gone.
    let terminal: Int32

    /// glibc's `POSIX_SPAWN_SETSID` (2.26+): the Glibc module does not declare GNU extensions.
    private static let spawnSetSID: Int16 = 0x80

    struct Failure: Error, CustomStringConvertible {
        let step: String
        let code: Int32
        var description: String { "\(step): \(String(cString: strerror(code)))" }
    }

    init(_ executable: URL, _ arguments: [String], environment: [String: String]) throws {
        // openpty opens the terminal side O_NOCTTY: it does not become this process's terminal.
        var master: Int32 = -1
        var terminal: Int32 = -1
        guard openpty(&master, &terminal, nil, nil, nil) == 0 else { throw Failure(step: "openpty", code: errno) }
        // `ttyname_r`, not `ttyname`: the latter returns a buffer shared by every thread, and
        // parallel tests opening terminals at once read each other's names (a child then got
        // another test's terminal, or a half-written path: "no prompt", ENOENT).
        var name = [CChar](repeating: 0, count: 256)
        let named = ttyname_r(terminal, &name, name.count)
        guard named == 0 else { throw Failure(step: "ttyname_r", code: named) }
        let path = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        _ = fcntl(master, F_SETFD, FD_CLOEXEC)
        _ = fcntl(terminal, F_SETFD, FD_CLOEXEC)

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, path, O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        posix_spawn_file_actions_adddup2(&actions, 0, 2)
        Self.closeFromThree(&actions)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Default dispositions and no blocked signals, as from a login shell (this process may
        // ignore SIGPIPE or SIGINT).
        var defaults = sigset_t()
        var mask = sigset_t()
        sigfillset(&defaults)
        sigdelset(&defaults, SIGKILL)
        sigdelset(&defaults, SIGSTOP)
        sigemptyset(&mask)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &mask)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK) | Self.spawnSetSID)

        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let code = posix_spawn(&pid, executable.path, &actions, &attributes, argv, envp)
        guard code == 0 else {
            close(master)
            close(terminal)
            throw Failure(step: "posix_spawn \(executable.path)", code: code)
        }
        self.pid = pid
        self.master = master
        self.terminal = terminal
    }

    /// Every descriptor from 3 up closed in the child (glibc 2.34+, found at run time as in
    /// `ChildProcess`): it must not keep this test process's sockets.
    private static func closeFromThree(_ actions: inout posix_spawn_file_actions_t) {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return }
        _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
    }

    deinit {
        close(master)
        close(terminal)
    }

    /// Whether the terminal echoes what is typed now.
    var echoes: Bool {
        var settings = termios()
        return tcgetattr(terminal, &settings) == 0 && settings.c_lflag & tcflag_t(ECHO) != 0
    }

    /// Types `bytes` on the terminal's keyboard.
    func type(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    /// What the terminal shows until `done` holds for it, or `timeout` passes, or the child closes
    /// its side; read on a Dispatch thread.
    func read(until done: @escaping @Sendable (String) -> Bool, timeout: Duration = .seconds(30)) async -> String {
        let master = self.master
        let deadline = ContinuousClock.now + timeout
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                var shown: [UInt8] = []
                var buffer = [UInt8](repeating: 0, count: 4096)
                while ContinuousClock.now < deadline, !done(String(decoding: shown, as: UTF8.self)) {
                    var poller = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
                    guard poll(&poller, 1, 100) >= 0 else { break }
                    guard poller.revents != 0 else { continue }
                    let count = buffer.withUnsafeMutableBytes { Glibc.read(master, $0.baseAddress, $0.count) }
                    if count <= 0 { break }  // EIO: the child has closed the terminal
                    shown += buffer[..<count]
                }
                continuation.resume(returning: String(decoding: shown, as: UTF8.self))
            }
        }
    }

    /// Waits until `condition` holds (checked every 20 ms), at most `timeout`.
    func waitUntil(timeout: Duration = .seconds(10), _ condition: () -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !condition() {
            guard ContinuousClock.now < deadline else { return false }
            try await Task.sleep(for: .milliseconds(20))
        }
        return true
    }

    /// How the child ended: its exit status, or the signal that ended it. Killed after `timeout`.
    func wait(timeout: Duration = .seconds(30)) async -> (exited: Int32?, signal: Int32?) {
        let pid = self.pid
        let watchdog = Task {
            try await Task.sleep(for: timeout)
            kill(pid, SIGKILL)
        }
        defer { watchdog.cancel() }
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                var status: Int32 = 0
                while waitpid(pid, &status, 0) == -1, errno == EINTR {}
                let signal = status & 0x7f
                continuation.resume(returning: signal == 0 ? ((status >> 8) & 0xff, nil) : (nil, signal))
            }
        }
    }
}
#endif
