import CourierLLM
import Foundation

/// `courier json extract --partial`: reads standard input as it arrives and prints the value
/// decoded so far each time it changes, at most every ``interval``; a restart is an empty line
/// before the next value. Returns the final extraction, for the caller to print as `extract` does.
struct PartialExtraction {
    /// The least time between two printed values (the final one is always printed).
    static let interval: UInt64 = 100_000_000

    let schema: JSONSchema?

    func run() throws(LLMDecodingError) -> JSONExtraction {
        var decoder = PartialJSONDecoder(schema: schema)
        var lastPrinted: UInt64 = 0
        var printed: String?
        var pending: JSONSnapshot?
        var restartPending = false
        while true {
            let data = FileHandle.standardInput.availableData
            if data.isEmpty { break }
            if let update = decoder.feed(data) {
                pending = update.snapshot
                restartPending = restartPending || update.isRestart
            }
            let now = DispatchTime.now().uptimeNanoseconds
            if let snapshot = pending, now - lastPrinted >= Self.interval {
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
        }
        let final = try decoder.finish()
        if restartPending || final.isRestart, printed != nil { Terminal.output(composed: "") }
        return JSONExtraction(json: final.snapshot.json, report: final.report ?? RepairReport())
    }
}
