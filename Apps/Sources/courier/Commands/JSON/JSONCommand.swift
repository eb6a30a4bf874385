import ArgumentParser
import CourierLLM
import Foundation

/// `courier json`: tools for JSON in LLM answers.
struct JSONCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "json",
        abstract: "Work with JSON inside LLM answers.",
        subcommands: [Extract.self]
    )

    /// `courier json extract [--schema FILE] [--report] [--partial]`.
    struct Extract: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Extract (and repair) the JSON in an LLM answer read from standard input.",
            discussion: """
                Prints the JSON compact on one line. With --partial, reads the answer as it arrives and \
                prints a line each time the value decoded so far changes (at most every 100 ms); an \
                empty line marks a restart (later text changed which JSON wins); the last line is the \
                final JSON, as without --partial. Exit status: 0 when JSON was extracted, \
                14 when the answer has no usable JSON (the model's text is printed on standard error), \
                64 when the schema file cannot be read or is not a schema.
                \(ExitCodes.help)
                """
        )

        @Option(name: .long, help: ArgumentHelp("A JSON Schema file the JSON should fit.", valueName: "FILE"))
        var schema: String?

        @Flag(name: .long, help: "Print the repairs that were applied on standard error.")
        var report = false

        @Flag(name: .long, help: "Print the value decoded so far as the answer arrives, one line per change.")
        var partial = false

        func run() throws {
            var jsonSchema: JSONSchema?
            if let schema {
                do {
                    let data = try Data(contentsOf: URL(fileURLWithPath: schema))
                    jsonSchema = try JSONSchema(data: data)
                } catch let error as JSONSchemaError {
                    Self.writeError("error: \(schema): \(error.description)")
                    throw ExitCode(ExitCodes.usage)
                } catch {
                    Self.writeError("error: cannot read schema file \(schema): \(error.localizedDescription)")
                    throw ExitCode(ExitCodes.usage)
                }
            }
            do {
                let extraction: JSONExtraction
                if partial {
                    extraction = try PartialExtraction(schema: jsonSchema).run()
                } else {
                    let input = FileHandle.standardInput.readDataToEndOfFile()
                    let answer = String(decoding: input, as: UTF8.self)
                    extraction = try LLMAnswerDecoder(schema: jsonSchema).extract(fromAnswer: answer)
                }
                Terminal.outputJSON(extraction.json)
                if report {
                    Self.writeError(extraction.report.description)
                    if extraction.report.isTruncated { Self.writeError("answer was truncated") }
                }
            } catch {
                switch error {
                case .noJSON(let modelText):
                    Self.writeError("no JSON in answer; the model said:\n\(modelText)")
                case .typeMismatch(let candidates, let lastError):
                    Self.writeError("no usable JSON: \(candidates) candidate(s), none fits the schema (\(lastError))")
                }
                throw ExitCode(ExitCodes.code(for: .response))
            }
        }

        private static func writeError(_ text: String) {
            Terminal.error(text)
        }
    }
}
