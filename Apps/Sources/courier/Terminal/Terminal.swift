import Courier
import Foundation
import HTTPTypes

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where the CLI writes: stdout for results, stderr for diagnostics.
///
/// Writes go through `write(2)`, not `FileHandle.write`: SwiftNIO ignores SIGPIPE, so a reader
/// that has gone (`courier raon list | head -3`) turns into EPIPE, on which `FileHandle.write`
/// traps. Here a closed stdout ends the program quietly with status 0, as Unix filters do; a
/// closed stderr just stops diagnostics.
///
/// Text that may hold anything from outside (server text, error bodies, header values, LLM
/// answers) goes through ``output(_:)``, ``error(_:)`` or ``outputJSON(_:)``: on a terminal it is
/// escaped by ``TerminalText``, piped it goes out unchanged. Lines carrying the CLI's own escape
/// sequences (colours, OSC 8 links, redraws) go through ``output(composed:)``/``write(_:to:)``,
/// their outside parts escaped by the caller.
enum Terminal {
    /// A line on stdout; escaped when stdout is a terminal.
    static func output(_ text: String) {
        output(composed: TerminalText.shown(text, on: .stdout))
    }

    /// A line on stderr; escaped when stderr is a terminal.
    static func error(_ text: String) {
        error(composed: TerminalText.shown(text, on: .stderr))
    }

    /// A line on stdout as given: its escape sequences are the CLI's own, its outside parts
    /// already escaped (``TerminalText/escaped(_:)``, ``TerminalText/link(_:to:)``).
    static func output(composed text: String) {
        write(text.hasSuffix("\n") ? text : text + "\n", to: STDOUT_FILENO)
    }

    /// A line on stderr as given (see ``output(composed:)``).
    static func error(composed text: String) {
        write(text.hasSuffix("\n") ? text : text + "\n", to: STDERR_FILENO)
    }

    /// JSON on stdout; on a terminal its controls are escaped as JSON escapes them, so it stays
    /// the same JSON (``TerminalText/json(_:)``).
    static func outputJSON(_ text: String) {
        output(composed: TerminalText.Destination.stdout.isTerminal ? TerminalText.json(text) : text)
    }

    /// Columns of the terminal on stdout (80 when unknown, or stdout is not a terminal).
    static var columns: Int { columns(of: STDOUT_FILENO) }

    /// Columns of the terminal on stderr (80 when unknown), for what is drawn there (a progress bar).
    static var stderrColumns: Int { columns(of: STDERR_FILENO) }

    private static func columns(of descriptor: Int32) -> Int {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }

    /// stderr as a `TextOutputStream` (for swift-log's `StreamLogHandler`), escaped when it is a
    /// terminal.
    struct StandardError: TextOutputStream, Sendable {
        mutating func write(_ string: String) {
            Terminal.write(TerminalText.shown(string, on: .stderr), to: STDERR_FILENO)
        }
    }

    /// `data` exactly as given to `descriptor` (a body's bytes, piped).
    static func write(_ data: Data, to descriptor: Int32) {
        write(bytes: Array(data), to: descriptor)
    }

    /// `text` exactly as given (no newline added) to `descriptor`, all of it.
    static func write(_ text: String, to descriptor: Int32) {
        write(bytes: Array(text.utf8), to: descriptor)
    }

    private static func write(bytes: [UInt8], to descriptor: Int32) {
        brokenPipeIsAnError.touch()
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                systemWrite(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
            }
            if written >= 0 {
                offset += written
                continue
            }
            if errno == EINTR { continue }
            if errno == EPIPE, descriptor == STDOUT_FILENO { exit(0) }
            return
        }
    }
}

/// SIGPIPE ignored, once, before the first write: a command without SwiftNIO (`courier json
/// extract`) was killed by the signal (status 141) where the others saw EPIPE and ended with 0.
private struct BrokenPipeIsAnError: Sendable {
    init() { signal(SIGPIPE, SIG_IGN) }
    func touch() {}
}

private let brokenPipeIsAnError = BrokenPipeIsAnError()

/// `write(2)`.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(descriptor, bytes, count)
    #elseif canImport(Musl)
    Musl.write(descriptor, bytes, count)
    #else
    Darwin.write(descriptor, bytes, count)
    #endif
}
