import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One line read from the terminal with echo off, the terminal put back however the read ends.
///
/// A `defer` puts it back when the read returns; but Ctrl-C (SIGINT), Ctrl-\ (SIGQUIT), a
/// SIGTERM or a SIGHUP would end the process in the middle, leaving the user's terminal without
/// echo — every later command typed blind (an interactive bash repairs that itself, other shells,
/// editors and scripts do not). So while echo is off those signals run a handler that restores the
/// saved settings and exits with 128 + the signal (130 for Ctrl-C), as a shell reports a signal.
enum HiddenInput {
    /// The signals that end a process from the keyboard or from outside.
    static let endingSignals: [Int32] = [SIGINT, SIGQUIT, SIGTERM, SIGHUP]

    /// A line from stdin without its newline, read with echo off when stdin is a terminal; nil at
    /// the end of input.
    static func readLine() -> String? {
        guard tcgetattr(STDIN_FILENO, savedTerminal) == 0 else { return Swift.readLine(strippingNewline: true) }
        let previous = installHandlers()
        var quiet = savedTerminal.pointee
        quiet.c_lflag &= ~tcflag_t(ECHO)
        _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet)
        defer {
            _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, savedTerminal)
            restoreHandlers(previous)
            Terminal.write("\n", to: STDERR_FILENO)  // the user's Enter was not echoed
        }
        return Swift.readLine(strippingNewline: true)
    }

    /// Installs ``restoreAndExit`` for ``endingSignals``, except those ignored already (`nohup`):
    /// what was there before, to put back.
    private static func installHandlers() -> [(signal: Int32, action: sigaction)] {
        var handler = sigaction()
        #if canImport(Glibc)
        handler.__sigaction_handler.sa_handler = restoreAndExit
        #else
        handler.__sigaction_u.__sa_handler = restoreAndExit
        #endif
        sigemptyset(&handler.sa_mask)
        var previous: [(signal: Int32, action: sigaction)] = []
        for signal in endingSignals {
            var old = sigaction()
            guard sigaction(signal, &handler, &old) == 0 else { continue }
            previous.append((signal, old))
            if isIgnored(old) { _ = sigaction(signal, &old, nil) }
        }
        return previous
    }

    private static func restoreHandlers(_ previous: [(signal: Int32, action: sigaction)]) {
        for (signal, action) in previous {
            var action = action
            _ = sigaction(signal, &action, nil)
        }
    }

    private static func isIgnored(_ action: sigaction) -> Bool {
        #if canImport(Glibc)
        let handler = action.__sigaction_handler.sa_handler
        #else
        let handler = action.__sigaction_u.__sa_handler
        #endif
        return handler.map { unsafeBitCast($0, to: Int.self) == 1 } ?? false  // SIG_IGN is (handler)1
    }
}

/// The terminal settings from before echo was turned off. A signal handler is a C function: it
/// reaches only globals, and may call only async-signal-safe functions (no locks, no allocation).
/// Set on one thread before the handler is installed, read by the handler only.
nonisolated(unsafe) private let savedTerminal: UnsafeMutablePointer<termios> = {
    let pointer = UnsafeMutablePointer<termios>.allocate(capacity: 1)
    pointer.initialize(to: termios())
    return pointer
}()

/// Puts the terminal back, ends the hidden line, and exits with 128 + `signal` — `_exit`, since
/// `exit` would run atexit handlers and flush stdio from inside a signal handler.
private let restoreAndExit: @convention(c) (Int32) -> Void = { signal in
    _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, savedTerminal)
    var newline: UInt8 = 0x0A
    _ = write(STDERR_FILENO, &newline, 1)
    _exit(128 + signal)
}
