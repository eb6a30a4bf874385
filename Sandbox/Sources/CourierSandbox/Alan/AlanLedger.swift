/// The Alan stand-in's state: per-client conversations and quotas, injected failures,
/// latencies, counters.
actor AlanLedger {
    struct Client {
        var turns = 0
        var used = 0
    }

    private var clients: [String: Client] = [:]
    private var questions = 0
    private var streams = 0
    private var resets = 0
    private var quotaRefusals = 0
    private var injectedFailures = 0
    private var requests = 0
    var quota = 1_000
    var failNext = 0
    var latencyMs: [String: Int] = [:]
    var tokenDelayMs = 0

    /// What happens to a question that passed the parameter checks.
    enum Admission {
        case refusedQuota
        case failedOnPurpose
        /// Admitted: the conversation's turn number (1 for the first question since a reset).
        case admitted(turn: Int)
    }

    func countRequest() { requests += 1 }

    /// Counts a question of `clientID` against its quota, or refuses it.
    func admit(_ clientID: String, streaming: Bool) -> Admission {
        var client = clients[clientID] ?? Client()
        defer { clients[clientID] = client }
        guard client.used < quota else {
            quotaRefusals += 1
            return .refusedQuota
        }
        client.used += 1
        if failNext > 0 {
            failNext -= 1
            injectedFailures += 1
            return .failedOnPurpose
        }
        client.turns += 1
        if streaming { streams += 1 } else { questions += 1 }
        return .admitted(turn: client.turns)
    }

    /// Forgets the conversation of `clientID` (its quota use stays).
    func resetConversation(_ clientID: String) {
        clients[clientID, default: Client()].turns = 0
        resets += 1
    }

    func configure(quota: Int?, failNext: Int?, latencies: [String: Int], tokenDelayMs: Int?) {
        if let quota { self.quota = quota }
        if let failNext { self.failNext = failNext }
        latencyMs.merge(latencies) { $1 }
        if let tokenDelayMs { self.tokenDelayMs = tokenDelayMs }
    }

    func latency(for kind: String) -> Int { latencyMs[kind] ?? latencyMs["other"] ?? 0 }

    func stats(clientID: String?) -> AlanStats {
        AlanStats(
            questions: questions, streams: streams, resets: resets, quotaRefusals: quotaRefusals,
            injectedFailures: injectedFailures, requests: requests, clients: clients.count,
            conversationTurns: clientID.map { clients[$0]?.turns ?? 0 }, quotaUsed: clientID.map { clients[$0]?.used ?? 0 },
            quota: quota, failNext: failNext, latencyMs: latencyMs, tokenDelayMs: tokenDelayMs)
    }

    func reset() {
        clients = [:]
        questions = 0
        streams = 0
        resets = 0
        quotaRefusals = 0
        injectedFailures = 0
        requests = 0
        quota = 1_000
        failNext = 0
        latencyMs = [:]
        tokenDelayMs = 0
    }
}
