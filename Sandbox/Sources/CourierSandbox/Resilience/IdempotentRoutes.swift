import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// Writes that honour `Idempotency-Key` as the IETF draft (draft-ietf-httpapi-idempotency-key-header)
/// says: for testing that a retried write is done once.
///
/// | route | answer |
/// |---|---|
/// | `POST, PATCH /idempotent/{store}?required=&loseAnswers=&delayMs=&retryAfter=` | a new resource in `store`: 201 `{"id","key","body"}`; with a key seen before, its first answer replayed (`Idempotent-Replayed: true`) |
/// | — the key's first request still being processed | 409 `{"error"}` with `Retry-After: retryAfter` (default 1) |
/// | — the key reused with another payload (method, path or body) | 422 `{"error"}` |
/// | — no key and `required=1` | 400 `{"error"}` |
/// | — `loseAnswers=N` | the key's first `N` answers are lost: the work is done (once), then the connection closes without an answer |
/// | `GET /idempotent/{store}/stats` | ``IdempotentStats``: resources created, requests, each key's requests |
///
/// Every request waits `delayMs` (default 0) while in progress. A parameter that is present but
/// wrong answers 400 (the draft's 400 for a missing key says so in its `error`).
struct IdempotentRoutes {
    let ledger = IdempotentLedger()

    /// Request bodies larger than this are refused with 413.
    static let maxBodyBytes = 1024 * 1024
    static let keyField = HTTPField.Name("Idempotency-Key")!
    static let replayedField = HTTPField.Name("Idempotent-Replayed")!

    func register(on router: Router<SandboxRequestContext>) {
        let ledger = self.ledger
        for method in [HTTPRequest.Method.post, .patch] {
            router.on("/idempotent/:store", method: method) { request, context in
                try await Self.write(request, context: context, store: try context.parameters.require("store"), ledger: ledger)
            }
        }
        router.get("/idempotent/:store/stats") { _, context in
            JSONResponse.make(await ledger.stats(try context.parameters.require("store")))
        }
    }

    static func write(_ request: Request, context: SandboxRequestContext, store: String, ledger: IdempotentLedger) async throws -> Response {
        let query = QueryReader(request)
        let required = try query.integer("required", in: 0...1, default: 0) == 1
        let loseAnswers = try query.integer("loseAnswers", in: 0...100, default: 0)
        let delay = try query.integer("delayMs", in: 0...60_000, default: 0)
        let retryAfter = try query.integer("retryAfter", in: 0...3600, default: 1)
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: maxBodyBytes)
        } catch is NIOTooManyBytesError {
            throw HTTPError(.contentTooLarge, message: "at most \(maxBodyBytes) bytes")
        }
        let text = String(decoding: body.readableBytesView, as: UTF8.self)
        let payload = "\(request.method.rawValue) \(request.uri.path)\n\(text)"
        let key = request.headers[keyField]
        switch await ledger.begin(store: store, key: key, payload: payload, required: required) {
        case .missingKey:
            return JSONResponse.make(["error": "Idempotency-Key is required"], status: .badRequest)
        case .inProgress:
            return JSONResponse.make(
                ["error": "a request with this Idempotency-Key is being processed"], status: .conflict,
                headers: [.retryAfter: String(retryAfter)])
        case .otherPayload:
            return JSONResponse.make(["error": "this Idempotency-Key was used with another payload"], status: .unprocessableContent)
        case .replay(let answer):
            try await loseIfAsked(context, ledger, store: store, key: key, count: loseAnswers)
            return JSONResponse.make(answer, status: .created, headers: [replayedField: "true"])
        case .fresh:
            if delay > 0 { try? await Task.sleep(for: .milliseconds(delay)) }
            let answer = await ledger.create(store: store, key: key, body: text)
            try await loseIfAsked(context, ledger, store: store, key: key, count: loseAnswers)
            return JSONResponse.make(answer, status: .created)
        }
    }

    /// Closes the connection instead of answering while the key has answers left to lose: the
    /// work is done (or was, for a replay), the answer never leaves.
    private static func loseIfAsked(_ context: SandboxRequestContext, _ ledger: IdempotentLedger, store: String, key: String?, count: Int)
        async throws
    {
        guard await ledger.losesAnswer(store: store, key: key, count: count) else { return }
        try? await context.channel.close()
        throw SandboxFault.droppedOnPurpose
    }

    /// A created resource.
    struct Created: Codable, Sendable {
        var id: Int
        var key: String?
        var body: String
    }
}

/// One store's counts (`GET /idempotent/{store}/stats`).
public struct IdempotentStats: Codable, Sendable, Equatable {
    /// Resources created (a replayed answer creates none).
    public var created = 0
    /// Requests received, answered or not.
    public var requests = 0
    /// Each key's requests, in the order keys were first seen.
    public var keys: [KeyCount] = []

    /// One key and the requests that carried it.
    public struct KeyCount: Codable, Sendable, Equatable {
        public var key: String
        public var requests: Int
    }
}

/// The stores' keys, answers and counts.
actor IdempotentLedger {
    enum Start {
        case fresh, missingKey, inProgress, otherPayload
        case replay(IdempotentRoutes.Created)
    }

    private struct Entry {
        var payload: String
        var answer: IdempotentRoutes.Created?
        var lost = 0
    }

    private var entries: [String: [String: Entry]] = [:]
    private var stores: [String: IdempotentStats] = [:]
    /// Stores are bounded: the oldest is forgotten past this many.
    private static let maxStores = 1000
    private var order: [String] = []

    func begin(store: String, key: String?, payload: String, required: Bool) -> Start {
        var stats =
            stores[store]
            ?? {
                remember(store)
                return IdempotentStats()
            }()
        stats.requests += 1
        defer { stores[store] = stats }
        guard let key else { return required ? .missingKey : .fresh }
        if let index = stats.keys.firstIndex(where: { $0.key == key }) {
            stats.keys[index].requests += 1
        } else {
            stats.keys.append(.init(key: key, requests: 1))
        }
        guard let entry = entries[store]?[key] else {
            entries[store, default: [:]][key] = Entry(payload: payload)
            return .fresh
        }
        guard entry.payload == payload else { return .otherPayload }
        guard let answer = entry.answer else { return .inProgress }
        return .replay(answer)
    }

    func create(store: String, key: String?, body: String) -> IdempotentRoutes.Created {
        stores[store, default: IdempotentStats()].created += 1
        let answer = IdempotentRoutes.Created(id: stores[store]?.created ?? 0, key: key, body: body)
        if let key { entries[store]?[key]?.answer = answer }
        return answer
    }

    /// Whether this answer is lost: the key's first `count` answers are.
    func losesAnswer(store: String, key: String?, count: Int) -> Bool {
        guard let key, var entry = entries[store]?[key], entry.lost < count else { return false }
        entry.lost += 1
        entries[store]?[key] = entry
        return true
    }

    func stats(_ store: String) -> IdempotentStats { stores[store] ?? IdempotentStats() }

    private func remember(_ store: String) {
        order.append(store)
        if order.count > Self.maxStores {
            let oldest = order.removeFirst()
            stores[oldest] = nil
            entries[oldest] = nil
        }
    }
}
