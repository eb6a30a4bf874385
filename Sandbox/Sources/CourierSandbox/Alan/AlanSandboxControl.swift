/// The Alan stand-in of a sandbox started in this process: its settings, counters and reset,
/// without a request (``RunningSandbox/alan``). The same knobs are served over HTTP for a sandbox
/// in another process (`POST /alan/control`, `GET /alan/stats`, `POST /alan/reset`).
///
/// ```swift
/// let sandbox = try await SandboxServer.start()
/// await sandbox.alan.configure(.init(quota: 2, overviewMs: 600))
/// let stats = await sandbox.alan.stats(clientID: "test-client")
/// ```
public struct AlanSandboxControl: Sendable {
    let ledger: AlanLedger

    /// The bounds of each setting, here and on `POST /alan/control` (which refuses a value outside them).
    static let quotas = 0...1_000_000, failures = 0...1000, latenciesMs = 0...120_000, tokenDelaysMs = 0...10_000

    /// What ``configure(_:)`` can set; nil leaves a setting as it is.
    public struct Settings: Sendable {
        /// Questions one client may ask before 401.
        public var quota: Int?
        /// How many next questions answer 500.
        public var failNext: Int?
        /// The model's time for the overview, weekly, today and other prompts, in ms.
        public var overviewMs: Int?, weeklyMs: Int?, todayMs: Int?, otherMs: Int?
        /// The pause between streamed tokens, in ms.
        public var tokenDelayMs: Int?

        /// Settings; nil fields stay as they are.
        public init(
            quota: Int? = nil, failNext: Int? = nil, overviewMs: Int? = nil, weeklyMs: Int? = nil,
            todayMs: Int? = nil, otherMs: Int? = nil, tokenDelayMs: Int? = nil
        ) {
            self.quota = quota
            self.failNext = failNext
            self.overviewMs = overviewMs
            self.weeklyMs = weeklyMs
            self.todayMs = todayMs
            self.otherMs = otherMs
            self.tokenDelayMs = tokenDelayMs
        }
    }

    /// Sets the stand-in's behaviour, as `POST /alan/control` does (the same bounds).
    public func configure(_ settings: Settings) async {
        let given = ["overview": settings.overviewMs, "weekly": settings.weeklyMs, "today": settings.todayMs, "other": settings.otherMs]
        await ledger.configure(
            quota: settings.quota.map { $0.clamped(to: Self.quotas) },
            failNext: settings.failNext.map { $0.clamped(to: Self.failures) },
            latencies: given.compactMapValues { $0.map { $0.clamped(to: Self.latenciesMs) } },
            tokenDelayMs: settings.tokenDelayMs.map { $0.clamped(to: Self.tokenDelaysMs) })
    }

    /// The counters (and `clientID`'s conversation), as `GET /alan/stats` answers them.
    public func stats(clientID: String? = nil) async -> AlanStats {
        await ledger.stats(clientID: clientID)
    }

    /// Forgets clients, counters and settings, as `POST /alan/reset` does.
    public func reset() async {
        await ledger.reset()
    }
}

extension Int {
    fileprivate func clamped(to range: ClosedRange<Int>) -> Int { Swift.min(Swift.max(self, range.lowerBound), range.upperBound) }
}
