import AlanAPI
import ArgumentParser
import Courier
import CourierLLM
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `courier alan …`: ask the Alan LLM (ESTsoft), whole or streamed, and reset the conversation.
struct AlanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "alan",
        abstract: "Ask the Alan LLM (ESTsoft): a whole answer or streamed tokens; reset the conversation.",
        discussion: """
            The key is the client_id query value: --client-id-file PATH (the file's one line), \
            --client-id (visible in `ps`), or $ALAN_CLIENT_ID_<TASK> (e.g. ALAN_CLIENT_ID_GENERAL, \
            ALAN_CLIENT_ID_COIN_REPORT), then $ALAN_CLIENT_ID. It never appears in output or logs. --sandbox uses the in-process stand-in (no key needed).
            Example: courier alan ask "비트코인이 뭐야?" --stream --sandbox
            Example: ALAN_CLIENT_ID=… courier alan reset
            \(ExitCodes.help)
            """,
        subcommands: [AlanAskCommand.self, AlanResetCommand.self]
    )
}

/// `courier alan ask`.
struct AlanAskCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ask",
        abstract: "Ask one question; the answer goes to stdout (streamed with --stream, progress dimmed on stderr)."
    )

    @Argument(help: "The question.") var prompt: String
    @Flag(name: .long, help: "Stream tokens as they arrive.") var stream = false
    @Flag(
        name: .long,
        help: """
            Print the JSON in the answer instead of its text, as `courier json extract` does; with --stream, one \
            compact line each time the value decoded so far changes (the lines of `courier json extract --partial`).
            """)
    var json = false
    @Option(name: .long, help: "The task whose key to use (general, coin-report, dashboard-briefing, …).") var task: String = AlanTask.general
        .rawValue
    @OptionGroup var options: AlanOptions

    func validate() throws {
        guard !prompt.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { throw ValidationError("the question is empty") }
    }

    func run() async throws {
        let task = AlanTask(rawValue: task)
        // On a terminal the answer is escaped (``TerminalText``) — token by token too: an escape
        // sequence split across tokens is still caught, since every control is shown on its own.
        let dim = TerminalText.Destination.stderr.isTerminal
        try await options.withClient(task: task, settings: .init(tokenDelayMs: stream ? 15 : nil)) { alan, _ in
            do {
                if json {
                    try await printJSON(alan, task: task, dim: dim)
                } else if stream {
                    var printed = ""
                    for try await event in alan.stream(prompt, task: task) {
                        switch event {
                        case .progress(let sentence):
                            Terminal.error(composed: dim ? "\u{1B}[2m\(TerminalText.escaped(sentence))\u{1B}[0m" : sentence)
                        case .token(let token):
                            printed += token
                            Terminal.write(TerminalText.shown(token, on: .stdout), to: STDOUT_FILENO)
                        case .complete(let whole):
                            // The whole answer repeats the tokens: print only what did not arrive yet.
                            if whole.hasPrefix(printed) {
                                Terminal.write(TerminalText.shown(whole.dropFirst(printed.count), on: .stdout) + "\n", to: STDOUT_FILENO)
                            } else {
                                Terminal.write("\n" + TerminalText.shown(whole, on: .stdout) + "\n", to: STDOUT_FILENO)
                            }
                        }
                    }
                } else {
                    let answer = try await alan.ask(prompt, task: task)
                    Terminal.error(composed: dim ? "\u{1B}[2m\(TerminalText.escaped(answer.action.speak))\u{1B}[0m" : answer.action.speak)
                    Terminal.output(answer.content)
                }
            } catch NetworkError.uriTooLong(let code) {
                if let length = try? alan.requestURLLength(for: prompt, task: task), length > alan.maxURLLength {
                    Terminal.error(alan.uriTooLongMessage(length: length))
                }
                throw NetworkError.uriTooLong(code)
            }
        }
    }
}

extension AlanAskCommand {
    /// `--json`: the JSON of the answer — with `--stream`, each value decoded so far as the tokens
    /// arrive (CourierLLM's `PartialJSONDecoder`), the service's `complete` frame replacing the
    /// tokens; the last line is what `courier json extract` prints for the whole answer. No JSON in
    /// the answer: the model's words on stderr, and `extract`'s exit code.
    func printJSON(_ alan: AlanClient, task: AlanTask, dim: Bool) async throws {
        var decoder = PartialJSONDecoder()
        var printer = PartialLinePrinter()
        if stream {
            var tokens = ""
            for try await event in alan.stream(prompt, task: task) {
                switch event {
                case .progress(let sentence):
                    Terminal.error(composed: dim ? "\u{1B}[2m\(TerminalText.escaped(sentence))\u{1B}[0m" : sentence)
                case .token(let token):
                    tokens += token
                    if let update = decoder.feed(token) { printer.offer(update.snapshot, restart: update.isRestart) } else { printer.flushIfDue() }
                case .complete(let whole):
                    // The whole answer replaces the tokens.
                    guard whole != tokens, let update = decoder.replaceText(with: whole) else { continue }
                    printer.offer(update.snapshot, restart: update.isRestart)
                }
            }
        } else {
            _ = decoder.feed(try await alan.ask(prompt, task: task).content)
        }
        do {
            let final = try decoder.finish()
            printer.finish(restart: final.isRestart)
            Terminal.outputJSON(final.snapshot.json)
        } catch {
            switch error {
            case .noJSON(let modelText):
                Terminal.error("no JSON in the answer; the model said:\n\(modelText)")
            case .typeMismatch(let candidates, let lastError):
                Terminal.error("no usable JSON: \(candidates) candidate(s) (\(lastError))")
            }
            throw ExitCode(ExitCodes.code(for: .response))
        }
    }
}

/// `courier alan reset`.
struct AlanResetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset",
        abstract: "Clear the conversation of a task's client_id (DELETE /api/v1/reset-state)."
    )

    @Option(name: .long, help: "The task whose conversation to clear.") var task: String = AlanTask.general.rawValue
    @OptionGroup var options: AlanOptions

    func run() async throws {
        let task = AlanTask(rawValue: task)
        try await options.withClient(task: task) { alan, _ in
            try await alan.reset(task: task)
            Terminal.output("conversation of task \(task) reset")
        }
    }
}
