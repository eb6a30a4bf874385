import ArgumentParser
import Courier
import Foundation

/// `courier bench [METHOD] URL`: load one URL with many calls through one Courier client and
/// report throughput, latency, statuses, errors by family and what the resilience middlewares
/// did — Courier's `hey`.
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Load a URL with many calls through one Courier client (as hey or oha) and summarise them.",
        discussion: """
            Sends -n calls (default 200), or calls for --duration seconds, through one client \
            (AsyncHTTPClient, as `courier request`), -c at a time (default 50; the defaults are \
            hey's). -n sends exactly N calls: no warm-up, no probe. --rate R starts at most R calls \
            a second, spaced evenly (a run that falls behind does not catch up in a burst). A \
            --duration run starts no call after its end; the calls in flight then finish and count.
            Each call's latency runs from its start to its end, the body read (retries, hedges and \
            pacing included); percentiles are exact (all latencies, sorted) up to 1,000,000 calls, \
            past that estimated from a uniform sample of 1,000,000. A 2xx answer is a success; \
            another status is counted under its code, not as an error; a call that fails \
            (refused, timed out, rejected by an open breaker …) is counted under its error's \
            family (transport, client, server, …: the families of the exit codes).
            Middlewares, outermost first: --retry N (N attempts in all, as `courier request`; \
            without it nothing is retried), --hedge (a second copy of a slow exchange, after MS \
            milliseconds or an adaptive delay), --breaker (a circuit breaker per origin, Polly's \
            defaults: open at 10% failures over at least 100 calls in 30 s, for 5 s), --pace \
            (calls held until an announced rate-limit window resets). What they did is counted: \
            hedges sent and won, breaker openings and rejections, time paced.
            On a terminal, a progress bar on stderr (done, rate, errors), then a summary on stdout: \
            requests/s, p50/p90/p99/p99.9/max with a histogram, statuses, errors by family, \
            hedges, breaker, pacing. --json prints one JSON object on stdout and nothing else \
            (no bar): {"requests","succeeded","status":{"200":…},"errors":{"<family>":…},\
            "latency_ms":{"p50","p90","p99","p999","max"},"rps","wall_s","hedges":{"sent","won"},\
            "breaker":{"opened","rejected"},"paced_ms"} (a latency is null when no call ended).
            Ctrl-C stops the run: calls in flight are cut and not counted, the summary of those \
            that ended is printed, exit 130 (a second Ctrl-C exits at once). Exit 0 when the run \
            ends, whatever the calls answered; 64 for bad usage.
            Example: courier bench http://127.0.0.1:8080/echo
            Example: courier bench -n 1000 -c 20 http://127.0.0.1:8080/delay/5 --json
            Example: courier bench --duration 10 --rate 200 'http://127.0.0.1:8080/flaky/b?failures=3' --retry 3
            Example: courier bench -n 300 -c 10 http://127.0.0.1:8080/status/503 --breaker
            Example: courier bench -n 20 -c 2 'http://127.0.0.1:8080/ratelimit/k?family=ietf&limit=5&windowMs=1000' --pace
            Example: courier bench POST http://127.0.0.1:8080/echo -H 'Authorization: Bearer …' -c 8
            """
    )

    /// Calls in flight at most (`-c`).
    static let maxConcurrency = 1000

    @Argument(help: ArgumentHelp("[METHOD] URL: the method is optional (GET).", valueName: "method-and-url"))
    var words: [String]
    @Option(
        name: [.customShort("n"), .customLong("requests")],
        help: ArgumentHelp("Calls to send in all (default 200, as hey's); not with --duration.", valueName: "N"))
    var requests: Int?
    @Option(name: .long, help: ArgumentHelp("Seconds to send calls for, instead of -n.", valueName: "S")) var duration: Double?
    @Option(
        name: [.customShort("c"), .customLong("concurrency")],
        help: ArgumentHelp("Calls in flight at once (hey's default; at most 1000).", valueName: "C"))
    var concurrency: Int = 50
    @Option(name: .long, help: ArgumentHelp("At most R calls started per second, spaced evenly (default: no limit).", valueName: "R"))
    var rate: Double?
    @Option(
        name: .long,
        help: ArgumentHelp("Hedge slow exchanges: a second copy after MS milliseconds, or an adaptive delay (auto).", valueName: "auto|MS"))
    var hedge: String?
    @Flag(name: .long, help: "A circuit breaker per origin (refused calls count as server errors).") var breaker = false
    @Flag(name: .long, help: "Pace calls by the rate limits the server announces (RateLimit, x-ratelimit-* …).") var pace = false
    @Option(name: .long, help: ArgumentHelp("Attempts in all, through the retry middleware (1…10); without it, none retried.", valueName: "N"))
    var retry: Int?
    @Option(
        name: [.customShort("H"), .long],
        help: "A header 'Name: value', or @FILE for the headers in FILE, one a line (repeatable), sent on every call.")
    var header: [String] = []
    @Flag(name: .long, help: "Print one JSON object on stdout (nothing else; no progress bar).") var json = false
    @Flag(name: .long, help: "Allow plain http:// to a non-loopback host.") var allowInsecure = false
    @OptionGroup var transportOptions: TransportOptions

    func validate() throws {
        if let requests, requests < 1 { throw ValidationError("-n must be at least 1") }
        if let duration, !(duration > 0 && duration <= 86_400) { throw ValidationError("--duration must be more than 0 and at most 86400 seconds") }
        if requests != nil && duration != nil { throw ValidationError("-n and --duration: give one (calls in all, or seconds)") }
        guard (1...Self.maxConcurrency).contains(concurrency) else { throw ValidationError("-c must be 1…\(Self.maxConcurrency)") }
        if let rate, !(rate > 0 && rate <= 1_000_000) { throw ValidationError("--rate must be more than 0 (calls a second, at most 1000000)") }
        if let retry, !(1...10).contains(retry) { throw ValidationError("--retry must be 1…10 attempts") }
        if let hedge, BenchMiddlewares.HedgeDelay(hedge) == nil { throw ValidationError("--hedge must be auto or milliseconds (1…60000)") }
        _ = try target()
    }

    /// The method and the URL from the positional words.
    func target() throws -> (method: String, url: String) {
        let (method, url): (String, String)
        switch words.count {
        case 1: (method, url) = ("GET", words[0])
        case 2: (method, url) = (words[0].uppercased(), words[1])
        default: throw ValidationError("give a URL, optionally after a method: courier bench [METHOD] URL")
        }
        guard !method.isEmpty, method.utf8.allSatisfy({ $0 >= 0x21 && $0 < 0x7F && !"()<>@,;:\\\"/[]?={} ".utf8.contains($0) }) else {
            throw ValidationError("'\(method)' is not an HTTP method")
        }
        return (method, url)
    }

    func run() async throws {
        let (method, url) = try target()
        let endpoint: AdHocEndpoint
        do {
            endpoint = try AdHocEndpoint(
                method: method, url: url, headers: try RequestCommand.headerFields(header), extraQuery: [], json: nil, timeout: nil)
        } catch let error as CLIError {
            throw ValidationError(error.description)
        }
        var configuration = NetworkClient.Configuration(transport: try transportOptions.make(connectionsPerHost: concurrency))
        configuration.middlewares = try BenchMiddlewares.make(
            retry: retry, hedge: hedge.flatMap(BenchMiddlewares.HedgeDelay.init), breaker: breaker, pace: pace)
        // Only the resilience middlewares leave steps to count; without them no observer is fed.
        let observer = hedge != nil || breaker || pace ? BenchObserver() : nil
        if let observer { configuration.observers = [observer] }
        if allowInsecure, let host = endpoint.baseURL.host { configuration.insecureHostsAllowed.insert(host.lowercased()) }

        let length: BenchRun.Length = duration.map { .duration(.milliseconds(Int64(($0 * 1000).rounded()))) } ?? .calls(requests ?? 200)
        let run = BenchRun(
            client: NetworkClient(configuration: configuration), endpoint: endpoint, length: length, concurrency: concurrency, rate: rate)
        let bar = !json && TerminalText.Destination.stderr.isTerminal ? Task { await BenchProgress.draw(run) } : nil
        let load = Task { await run.run() }
        let interrupt = BenchInterrupt { load.cancel() }
        let outcome = await load.value
        bar?.cancel()
        await bar?.value
        let counts = await observer?.settled(calls: outcome.sent) ?? BenchObserver.Counts()
        let report = BenchReport(outcome, counts: counts)
        if json {
            Terminal.output(composed: report.json)
        } else {
            let shown = TerminalText.shown(
                method + " " + Redactor().url(endpoint.baseURL.absoluteString + (endpoint.requestTarget ?? "/")), on: .stdout)
            Terminal.output(composed: report.text(target: shown, concurrency: concurrency, interrupted: interrupt.interrupted))
        }
        let interrupted = interrupt.interrupted
        interrupt.restore()
        if interrupted { throw ExitCode(130) }
    }
}
