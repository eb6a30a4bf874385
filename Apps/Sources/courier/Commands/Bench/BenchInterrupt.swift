import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Ctrl-C during `courier bench`: the first stops the run (``init(_:)``'s action: cancel the
/// run's task), so that the summary of the calls that ended is still printed; a second ends the
/// process at once (130).
final class BenchInterrupt {
    private final class Flag: Sendable {
        let raised = Atomic<Bool>(false)
    }

    private let source: any DispatchSourceSignal
    private let flag = Flag()

    /// Catches SIGINT until ``restore()``; `action` runs (on a dispatch queue) at the first.
    init(_ action: @escaping @Sendable () -> Void) {
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        let flag = self.flag
        source.setEventHandler {
            if flag.raised.exchange(true, ordering: .relaxed) {
                Terminal.write("\n", to: STDERR_FILENO)
                exit(130)
            }
            action()
        }
        source.resume()
        self.source = source
    }

    /// Whether Ctrl-C was pressed.
    var interrupted: Bool { flag.raised.load(ordering: .relaxed) }

    /// SIGINT back to its default (ends the process).
    func restore() {
        source.cancel()
        signal(SIGINT, SIG_DFL)
    }
}
