/// Counts `/sse/events` streams per key for `/sse/stats`.
actor SSEStatsBook {
    /// How a stream ended.
    enum Ending: Sendable {
        /// The server finished the response.
        case completed
        /// The client went away first.
        case disconnected
        /// `dropAfter` cut it on purpose.
        case dropped
    }

    private var byKey: [String: SSEStats] = [:]

    /// A request arrived; `streaming` is false for a 204 (it ends at once, completed).
    func started(_ key: String, lastEventID: String?, streaming: Bool) {
        var stats = byKey[key, default: SSEStats()]
        stats.connections += 1
        if let lastEventID { stats.lastEventIDs.append(lastEventID) }
        if streaming { stats.open += 1 } else { stats.completed += 1 }
        byKey[key] = stats
    }

    /// A stream that ``started(_:lastEventID:streaming:)`` ended.
    func ended(_ key: String, _ ending: Ending) {
        var stats = byKey[key, default: SSEStats()]
        stats.open -= 1
        switch ending {
        case .completed: stats.completed += 1
        case .disconnected: stats.disconnects += 1
        case .dropped: break
        }
        byKey[key] = stats
    }

    func stats(_ key: String) -> SSEStats { byKey[key, default: SSEStats()] }

    /// Forgets every key; streams still open stay counted as open, so their end keeps `open` right.
    func reset() {
        byKey = byKey.compactMapValues { $0.open > 0 ? SSEStats(open: $0.open) : nil }
    }
}
