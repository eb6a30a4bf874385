import Foundation

/// Who a per-origin state belongs to: `scheme://host:port`, lower-cased, with the scheme's default
/// port filled in — so `https://API.example.com` and `https://api.example.com:443/v1` share one.
struct OriginKey: Hashable, Sendable {
    let text: String

    init(_ url: URL) {
        let scheme = (url.scheme ?? "http").lowercased()
        let host = (url.host ?? "").lowercased()
        let port = url.port ?? (scheme == "https" || scheme == "wss" ? 443 : 80)
        text = "\(scheme)://\(host):\(port)"
    }
}

/// A table of per-origin values that holds at most `capacity` origins, dropping the least recently
/// used one to make room: a client that talks to many hosts keeps a bounded amount of state.
struct OriginTable<Value> {
    private struct Slot {
        var value: Value
        var used: UInt64
    }

    let capacity: Int
    private var slots: [OriginKey: Slot] = [:]
    private var tick: UInt64 = 0

    init(capacity: Int) { self.capacity = max(1, capacity) }

    /// Origins held now.
    var count: Int { slots.count }

    /// The value for `key` without touching its recency.
    func peek(_ key: OriginKey) -> Value? { slots[key]?.value }

    /// Runs `body` on the value for `key` (made by `make` when absent, evicting the least recently
    /// used origin when full) and marks it used.
    mutating func with<R>(_ key: OriginKey, make: () -> Value, _ body: (inout Value) -> R) -> R {
        tick &+= 1
        if slots[key] == nil, slots.count >= capacity, let oldest = slots.min(by: { $0.value.used < $1.value.used })?.key {
            slots[oldest] = nil
        }
        let now = tick
        slots[key, default: Slot(value: make(), used: now)].used = now
        return body(&slots[key, default: Slot(value: make(), used: now)].value)
    }
}
