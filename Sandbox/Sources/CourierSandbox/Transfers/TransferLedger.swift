import HTTPTypes

/// Per-key counts of the transfer routes for ``TransferStats``, and the request counts behind
/// `changing=`. Each table keeps at most ``maxKeys`` keys (the oldest is forgotten first).
actor TransferLedger {
    /// The most keys each table keeps.
    static let maxKeys = 1_000
    /// The most `Range` and `If-Range` values kept per key.
    static let maxFields = 16

    private var byKey = BoundedTable<TransferStats>(limit: maxKeys)
    private var changing = BoundedTable<Int>(limit: maxKeys)

    /// A request with `key` arrived, with these `Range` and `If-Range` fields.
    func request(_ key: String, range: String? = nil, ifRange: String? = nil) {
        byKey.update(key, initial: TransferStats()) { stats in
            stats.requests += 1
            if let range { Self.append(range, to: &stats.ranges) }
            if let ifRange { Self.append(ifRange, to: &stats.ifRanges) }
        }
    }

    /// The request with `key` is answered `status` (200, 206 or 416 are counted).
    func answered(_ key: String, _ status: HTTPResponse.Status) {
        byKey.update(key, initial: TransferStats()) { stats in
            switch status {
            case .ok: stats.full += 1
            case .partialContent: stats.partial += 1
            case .rangeNotSatisfiable: stats.unsatisfiable += 1
            case .notModified: stats.notModified += 1
            default: break
            }
        }
    }

    /// `bytes` more of a response body with `key` were written.
    func wrote(_ bytes: Int, key: String) {
        byKey.update(key, initial: TransferStats()) { $0.bytesWritten += bytes }
    }

    /// `bytes` of an upload with `key` were read.
    func received(_ bytes: Int, key: String) {
        byKey.update(key, initial: TransferStats()) { $0.bytesReceived += bytes }
    }

    /// A response with `key` was cut on purpose.
    func cut(_ key: String) {
        byKey.update(key, initial: TransferStats()) { $0.cuts += 1 }
    }

    /// One more request for `changing=key`: returns the version it serves, 1 for the first.
    func nextVersion(_ key: String) -> Int {
        changing.update(key, initial: 0) { $0 += 1 }
        return changing[key] ?? 1
    }

    func stats(_ key: String) -> TransferStats { byKey[key] ?? TransferStats() }

    private static func append(_ value: String, to list: inout [String]) {
        list.append(value)
        if list.count > maxFields { list.removeFirst(list.count - maxFields) }
    }
}
