import ArgumentParser
import Courier

/// The exit codes of every `courier` command: one table (``help``, shown by `courier --help` and
/// each command's help, and in the README).
///
/// | code | meaning |
/// |---|---|
/// | 0 | success |
/// | 1 | the command could not do what was asked (nothing to export, a file not written, a demo step failed, no saved login, no link to open, a browser that failed) |
/// | 10–17 | a network call failed, one code per ``NetworkError/Family`` (``code(for:)``) |
/// | 15 | also: a link `--open` refuses (not `http`/`https`, ``LinkOpener``), nothing opened |
/// | 75 | a write kept in an outbox, still queued: to be sent later (`--outbox`, `courier outbox flush`; BSD's `EX_TEMPFAIL`) |
/// | 64 | bad usage: an unknown option, a bad value, an unreadable file named by an option |
/// | 130 | interrupted (Ctrl-C) |
enum ExitCodes {
    /// The command could not do what was asked.
    static let failure: Int32 = 1
    /// Bad usage (BSD's `EX_USAGE`, as swift-argument-parser exits on a validation error).
    static let usage: Int32 = 64

    static func code(for family: NetworkError.Family) -> Int32 {
        switch family {
        case .transport: 10
        case .client: 11
        case .server: 12
        case .authorization: 13
        case .response: 14
        case .request: 15
        case .cancelled: 16
        case .file: 17
        }
    }

    /// Reports `error` on stderr — its log line, secrets redacted, then its user message — and
    /// returns the exit to end with (its family's code).
    static func report(_ error: NetworkError) -> ExitCode {
        Terminal.error(Redactor().text(error.log()))
        Terminal.error(error.userMessage(in: .preferred))
        return ExitCode(code(for: error.family))
    }

    /// The table shown in `--help`.
    static let help = """
        Exit codes (every command): 0 success; 1 the command could not do what was asked \
        (nothing to export, a file not written, a demo step failed); 10 transport (refused, \
        timeout, DNS, TLS, redirects); 11 client error answer (4xx); 12 server error answer \
        (5xx, or refused by an open circuit breaker); 13 authorization (401, key, quota); 14 unusable response (bad JSON, too large, \
        cut off; no JSON in an LLM answer); 15 nothing sent or opened (bad URL, insecure \
        http://, encoding; a link --open refuses: not http(s)); 16 cancelled; 17 a local file (disk full, the same download already running, \
        checksum mismatch); 64 bad usage (also an unreadable or invalid file named by an \
        option); 75 a write kept in an outbox is still queued, to be sent later (--outbox, \
        courier outbox flush); 130 interrupted (Ctrl-C; at a password prompt the terminal's echo is put back \
        first).
        """
}
