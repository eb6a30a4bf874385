import CourierLLM
import Foundation

/// Prints the values of a streamed answer as `courier json extract --partial` does: one compact
/// JSON line each time the value decoded so far changes, at most every ``interval``; a restart
/// (later text changed which JSON wins) is an empty line before the next value. The caller prints
/// the final value after ``finish(restart:)``.
struct PartialLinePrinter {
    /// The least time between two printed values (the final one is always printed).
    static let interval: UInt64 = 100_000_000

    private var lastPrinted: UInt64 = 0
    private var printed: String?
    private var pending: JSONSnapshot?
    private var restartPending = false

    /// Takes the latest value; prints it when the last line is ``interval`` old.
    mutating func offer(_ snapshot: JSONSnapshot, restart: Bool) {
        pending = snapshot
        restartPending = restartPending || restart
        flushIfDue()
    }

    /// Prints the pending value when the last line is ``interval`` old and it differs from it.
    mutating func flushIfDue() {
        let now = DispatchTime.now().uptimeNanoseconds
        guard let snapshot = pending, now - lastPrinted >= Self.interval else { return }
        let json = snapshot.json
        if json != printed {
            if restartPending, printed != nil { Terminal.output(composed: "") }
            Terminal.outputJSON(json)
            printed = json
            restartPending = false
        }
        pending = nil
        lastPrinted = now
    }

    /// Before the final value: the empty line of a restart not shown yet.
    mutating func finish(restart: Bool) {
        if restartPending || restart, printed != nil { Terminal.output(composed: "") }
    }
}
