import CourierLLM
import Foundation

/// `courier json extract --partial`: reads standard input as it arrives and prints the value
/// decoded so far each time it changes (``PartialLinePrinter``). Returns the final extraction,
/// for the caller to print as `extract` does.
struct PartialExtraction {
    let schema: JSONSchema?

    func run() throws(LLMDecodingError) -> JSONExtraction {
        var decoder = PartialJSONDecoder(schema: schema)
        var printer = PartialLinePrinter()
        while true {
            let data = FileHandle.standardInput.availableData
            if data.isEmpty { break }
            if let update = decoder.feed(data) {
                printer.offer(update.snapshot, restart: update.isRestart)
            } else {
                printer.flushIfDue()
            }
        }
        let final = try decoder.finish()
        printer.finish(restart: final.isRestart)
        return JSONExtraction(json: final.snapshot.json, report: final.report ?? RepairReport())
    }
}
