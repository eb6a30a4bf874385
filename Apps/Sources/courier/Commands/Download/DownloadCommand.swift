import ArgumentParser
import Courier
import CourierAsyncHTTPClient
import CourierTransfers
import Foundation
import HTTPTypes

/// `courier download URL [-o FILE] [--continue]`: save a URL's body to a file, resumably.
struct DownloadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "download",
        abstract: "Download a URL to a file, with progress, resumable after an interruption.",
        discussion: """
            The body is written to FILE.courier-partial beside FILE (what resuming needs in \
            FILE.courier-resume) and renamed to FILE only when whole: FILE is never half-written. \
            -o names FILE; without it, the URL's last path segment, percent-decoded (refused when \
            empty, '.', '..', or holding '/' or a control character; never a name the server \
            suggests). An interrupted download exits non-zero and leaves what it needs beside FILE; \
            --continue (or -C -) resumes it with Range and If-Range — with no partial but FILE \
            present, FILE is taken as the beginning, and a complete FILE is not fetched again. \
            Without --continue a download starts over (FILE is replaced only at the end). On a \
            terminal a progress bar is drawn on stderr (percent, bytes, rate, time left); nothing \
            of it when stderr is not a terminal. A cut connection is resumed within the run with \
            --retry N attempts. FILE is synced to disk before the rename, so it survives a power \
            loss whole; --no-sync leaves that to the OS, as curl does.
            \(ExitCodes.help)
            Example: courier download 'http://127.0.0.1:8080/files/big.bin?size=104857600' -o big.bin
            Example: courier download 'http://127.0.0.1:8080/files/big.bin?size=104857600' -o big.bin --continue
            Example: courier download 'http://127.0.0.1:8080/files/a.bin?size=1024' --checksum sha256:…
            """
    )

    @Argument(help: "The URL to download (http:// or https://).") var url: String
    @Option(name: [.short, .customLong("output")], help: "The file to write (default: the URL's last path segment).") var output: String?
    @Flag(name: .customLong("continue"), help: "Resume an interrupted download of FILE (curl's -C -).") var resume = false
    @Option(name: .customShort("C"), parsing: .unconditional, help: ArgumentHelp("'-' to resume, as --continue.", valueName: "-"))
    var continueAt: String?
    @Option(name: .long, help: "The file's expected SHA-256, as sha256:HEX; checked before FILE is put in place.") var checksum: String?
    @Option(
        name: [.customShort("H"), .long],
        help: "A header 'Name: value', or @FILE for the headers in FILE, one a line (repeatable).") var header: [String] = []
    @Option(name: .long, help: "Seconds to wait for the answer's head, and of silence after it (default 30).") var timeout: Double = 30
    @Option(name: .long, help: "Attempts in all: a cut connection is resumed up to N-1 times (default 3).") var retry: Int = 3
    @Flag(
        name: .long,
        help: ArgumentHelp(
            "Leave writing FILE to disk to the OS, as curl does: no sync before the rename.",
            discussion: "Faster on a slow disk; after a power loss FILE may be missing or damaged.")
    ) var noSync = false
    @OptionGroup var transportOptions: TransportOptions
    @Flag(name: .long, help: "Allow plain http:// to a non-loopback host.") var allowInsecure = false

    func run() async throws {
        if let continueAt, continueAt != "-" { throw ValidationError("-C takes '-' only (resume where the file ends)") }
        guard timeout > 0, timeout <= 86_400 else { throw ValidationError("--timeout must be positive and at most 86400 seconds") }
        guard (1...10).contains(retry) else { throw ValidationError("--retry must be 1…10 attempts") }
        let name = try output ?? Self.fileName(from: url)
        let headers = try RequestCommand.headerFields(header)
        let endpoint: AdHocEndpoint
        do {
            endpoint = try AdHocEndpoint(
                method: "GET", url: url, headers: headers, extraQuery: [], json: nil, timeout: .milliseconds(Int(timeout * 1000)))
        } catch let error as CLIError {
            throw ValidationError(error.description)
        }
        var configuration = NetworkClient.Configuration(
            transport: try transportOptions.make())
        if allowInsecure, let host = endpoint.baseURL.host { configuration.insecureHostsAllowed.insert(host.lowercased()) }
        configuration.middlewares.append(
            RetryMiddleware(policy: RetryPolicy(maxAttempts: retry), logger: RequestCommand.stderrLogger("courier.retry")))
        let client = NetworkClient(configuration: configuration)
        var options = DownloadOptions(
            resume: resume || continueAt != nil ? .fromExistingBytes : .never, checksum: checksum,
            idleTimeout: .milliseconds(Int(timeout * 1000)))
        options.retry = RetryPolicy(maxAttempts: retry)
        options.durability = noSync ? .leftToOS : .synced
        let target = URL(fileURLWithPath: name)
        let showProgress = TerminalText.Destination.stderr.isTerminal
        let progress = TransferProgress(interval: .milliseconds(100))
        // The bar names the file, not its folder: a long path would leave no room for the bar.
        let bar = ProgressBar(name: target.lastPathComponent)
        do {
            async let saved = client.download(endpoint, to: target, options: options, progress: progress)
            // The sequence ends when the download does, whatever its outcome.
            if showProgress { for await snapshot in progress { bar.draw(snapshot) } }
            let file = try await saved
            if showProgress {
                bar.finish()
                let kept = file.resumedFrom > 0 ? ", \(ProgressBar.bytes(file.resumedFrom)) kept from before" : ""
                Terminal.error("saved \(name) (\(ProgressBar.bytes(file.bytes))\(kept))")
            }
        } catch let error as NetworkError {
            if showProgress { bar.finish() }
            let exit = ExitCodes.report(error)
            let inUse = error == .fileError(.inUse(path: target.path))
            if !inUse, error.family != .request, FileManager.default.fileExists(atPath: name + ".courier-partial") {
                Terminal.error("the partial download is kept: run again with --continue to resume")
            }
            throw exit
        }
    }

    /// The URL's last path segment, percent-decoded — refused when it is empty, `.`, `..`, or
    /// holds `/`, `\` or a control character (then -o must name the file).
    static func fileName(from url: String) throws -> String {
        guard let parts = URLEndpoint.parts(of: url) else {
            throw ValidationError("'\(url)' is not an http:// or https:// URL")
        }
        // The last segment as sent, then decoded: `a%2Fb` is one segment that decodes to `a/b`.
        let path = parts.requestTarget.prefix { $0 != "?" }
        let encoded = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? ""
        let last = encoded.removingPercentEncoding ?? ""
        let shown = last.unicodeScalars.map {
            $0.value < 0x20 || (0x7F...0x9F).contains($0.value) ? "\\u{\(String($0.value, radix: 16))}" : String($0)
        }
        let refuse = ValidationError("cannot name the file after '\(TerminalText.escaped(shown.joined()))' in the URL: give -o FILE")
        guard !last.isEmpty, last != ".", last != "..", !last.contains("/"), !last.contains("\\"),
            !last.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || TerminalText.isControl($0) })
        else { throw refuse }
        return last
    }
}
