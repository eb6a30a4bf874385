import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Key-at-a-time input for interactive screens: stdin without line buffering and echo, read on
/// a thread of its own (a blocking `read` must not hold a Swift concurrency thread), and the
/// terminal restored on exit or Ctrl-C.
final class RawTerminal {
    private let saved: termios?
    private let signalSource: any DispatchSourceSignal

    /// Switches stdin to key-at-a-time mode (when it is a terminal) and hides the cursor.
    init() {
        var original = termios()
        if isatty(STDIN_FILENO) == 1, tcgetattr(STDIN_FILENO, &original) == 0 {
            saved = original
            var raw = original
            raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
            withUnsafeMutablePointer(to: &raw.c_cc) { pointer in
                pointer.withMemoryRebound(to: cc_t.self, capacity: Int(NCCS)) { cc in
                    cc[Int(VMIN)] = 1
                    cc[Int(VTIME)] = 0
                }
            }
            tcsetattr(STDIN_FILENO, TCSANOW, &raw)
        } else {
            saved = nil
        }
        Terminal.write("\u{1B}[?25l", to: STDOUT_FILENO)
        // Ctrl-C still interrupts (ISIG stays on): put the terminal back before leaving.
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        let toRestore = saved
        source.setEventHandler {
            RawTerminal.restore(toRestore)
            exit(130)
        }
        source.resume()
        signalSource = source
    }

    /// The keys typed, one byte each, read on a dedicated thread.
    func keys() -> AsyncStream<UInt8> {
        AsyncStream { continuation in
            Thread.detachNewThread {
                var byte: UInt8 = 0
                while read(STDIN_FILENO, &byte, 1) == 1 {
                    continuation.yield(byte)
                }
                continuation.finish()
            }
        }
    }

    /// Puts the terminal back as it was and shows the cursor.
    func restore() {
        signalSource.cancel()
        signal(SIGINT, SIG_DFL)
        Self.restore(saved)
    }

    private static func restore(_ saved: termios?) {
        if var saved { tcsetattr(STDIN_FILENO, TCSANOW, &saved) }
        Terminal.write("\u{1B}[?25h", to: STDOUT_FILENO)
    }
}
