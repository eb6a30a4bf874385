import ArgumentParser
import Foundation
import Subprocess

#if canImport(System)
import System
#else
import SystemPackage
#endif

/// The one way `courier` opens a link in a browser, for every `--open` (`raon show ID --open`,
/// `coin report --open N`, `hn item ID --open`).
///
/// Links come from the network (a program's homepage, a news article, a story's `url`), so only
/// an `http`/`https` URL (the scheme in any case) without control characters or spaces is ever
/// opened; anything else — `javascript:`, `file:`, `data:`, a custom scheme — is refused with a
/// message and exit 15, nothing opened (the code of "nothing sent": ``ExitCodes``).
///
/// The browser is `$BROWSER` when set (one program: a name looked up on `PATH`, or a path),
/// else `xdg-open` (Linux) or `open` (macOS). It gets the link exactly as given as its one
/// argument — no shell, nothing to interpret — and inherits the terminal (a text browser such as
/// `w3m` works); when stdout is piped, the browser's output goes to stderr, so the command's own
/// output stays whole. The command waits for it to exit; a browser that cannot be started or
/// ends with a non-zero status is a failure (exit 1), reported on stderr.
///
/// Started through swift-subprocess, not Foundation's `Process`, which on Linux crashes now and
/// then in a process with many descriptors open (see `ChildProcess` in the tests' support).
enum LinkOpener {
    /// The most characters of a link shown in a message (a hostile one may be megabytes long).
    static let shownLimit = 200

    /// Exit status for a refused link: 15, "nothing sent or opened".
    static let refusedCode = ExitCodes.code(for: .request)

    /// Why `link` is not opened, or nil when it may be: an `http`/`https` URL with a host, without
    /// control characters, spaces or other whitespace.
    static func refusal(of link: String) -> String? {
        if link.isEmpty { return "it is empty" }
        if link.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
            return "it holds control characters"
        }
        if link.unicodeScalars.contains(where: { $0.properties.isWhitespace }) { return "it holds spaces" }
        guard let colon = link.firstIndex(of: ":") else { return "it is not a URL (no scheme)" }
        let scheme = link[..<colon]
        guard let first = scheme.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic,
            scheme.unicodeScalars.allSatisfy({
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0))
            })
        else { return "it is not a URL (no scheme)" }
        let lowered = scheme.lowercased()
        guard lowered == "http" || lowered == "https" else { return "only http:// and https:// links are opened, not \(lowered):" }
        guard link[link.index(after: colon)...].hasPrefix("//"), let url = URL(string: link), let host = url.host, !host.isEmpty else {
            return "it is not a valid \(lowered):// URL with a host"
        }
        return nil
    }

    /// `link` as shown in a message: its control characters made visible, at most ``shownLimit``
    /// characters.
    static func shown(_ link: String) -> String {
        let cut = link.count > shownLimit ? String(link.prefix(shownLimit)) + "…" : link
        return TerminalText.escaped(cut)
    }

    /// The program that opens links: `$BROWSER` when set and not empty, else the platform's opener.
    struct Browser: Sendable {
        /// The program, as named (`$BROWSER`'s value, `xdg-open`, `/usr/bin/open`).
        var program: String
        /// Where the name came from, for messages: `$BROWSER` or the platform's default.
        var origin: String
        /// The executable: a path when the name holds a `/`, else a name looked up on `PATH`.
        var executable: Executable {
            program.contains("/") ? .path(FilePath(program)) : .name(program)
        }
    }

    /// The browser for `environment`.
    static func browser(in environment: [String: String]) -> Browser {
        if let chosen = environment["BROWSER"], !chosen.isEmpty { return Browser(program: chosen, origin: "$BROWSER") }
        #if os(macOS)
        return Browser(program: "/usr/bin/open", origin: "the default opener")
        #else
        return Browser(program: "xdg-open", origin: "the default opener (set $BROWSER to choose a browser)")
        #endif
    }

    /// Opens `link` (nil: the subject has none, `missing` says so, exit 1). A refused link ends
    /// the command with exit 15, a browser that fails with exit 1; both say why on stderr.
    static func open(
        _ link: String?, missing: @autoclosure () -> String, environment: [String: String] = ProcessInfo.processInfo.environment
    ) async throws {
        guard let link else {
            Terminal.error("✗ " + missing())
            throw ExitCode(ExitCodes.failure)
        }
        try await open(link, environment: environment)
    }

    /// Opens `link` as ``open(_:missing:environment:)`` does.
    static func open(_ link: String, environment: [String: String] = ProcessInfo.processInfo.environment) async throws {
        if let reason = refusal(of: link) {
            Terminal.error(composed: "✗ not opened (\(reason)): \(shown(link))")
            throw ExitCode(refusedCode)
        }
        let browser = browser(in: environment)
        let name = TerminalText.escaped(browser.program)
        let status: TerminationStatus
        do {
            // The browser's stdout is ours on a terminal; piped, it goes to stderr (a browser may
            // print "Opening in existing browser session.") so the command's output stays whole.
            let output: FileDescriptorOutput = TerminalText.Destination.stdout.isTerminal ? .currentStandardOutput : .currentStandardError
            status = try await Subprocess.run(
                browser.executable, arguments: [link], input: .currentStandardInput, output: output, error: .currentStandardError
            ).terminationStatus
        } catch let error as SubprocessError where error.code == .executableNotFound {
            Terminal.error(composed: "✗ could not open the link: \(name) (\(browser.origin)) was not found")
            throw ExitCode(ExitCodes.failure)
        } catch {
            Terminal.error(
                composed: "✗ could not open the link: \(name) (\(browser.origin)) could not be started: \(TerminalText.escaped("\(error)"))")
            throw ExitCode(ExitCodes.failure)
        }
        switch status {
        case .exited(0):
            Terminal.error(composed: "opened \(shown(link)) with \(name)")
        case .exited(let code):
            Terminal.error(composed: "✗ could not open the link: \(name) (\(browser.origin)) exited with status \(code)")
            throw ExitCode(ExitCodes.failure)
        case .signaled(let signal):
            Terminal.error(composed: "✗ could not open the link: \(name) (\(browser.origin)) was ended by signal \(signal)")
            throw ExitCode(ExitCodes.failure)
        }
    }
}
