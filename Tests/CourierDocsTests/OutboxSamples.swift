// Mirrors: Sources/CourierOutbox/CourierOutbox.docc/CourierOutbox.md
// Mirrors: Sources/CourierOutbox/CourierOutbox.docc/Articles/WritesNeverLost.md
// Mirrors: README.md
//
// The outbox's samples, line for line. Compiled only: they would reach api.example.com. On Linux
// there is no Network framework: a stand-in NWPathMonitor with the members the sample uses.

import Courier
import CourierOutbox
import Foundation

#if canImport(Network)
import Network
#else
final class NWPathMonitor: @unchecked Sendable {  // unchecked: a compile-only stand-in, never run
    struct Path {
        enum Status { case satisfied, unsatisfied }
        var status: Status
    }
    var pathUpdateHandler: (@Sendable (Path) -> Void)?
    func start(queue: DispatchQueue) {}
}
#endif

enum OutboxSamples {
    struct Note: Encodable, Sendable { let text: String }

    enum NotesAPI: Endpoint {
        case create(Note)
        var baseURL: URL { URL(string: "https://api.example.com")! }
        var path: String { "/notes" }
        var method: HTTPMethod { .post }
        var task: HTTPTask { if case .create(let note) = self { .requestJSONEncodable(note) } else { .requestPlain } }
        var traits: CallTraits { CallTraits(wantsIdempotencyKey: true) }
    }

    static func sendNote(client: NetworkClient, appSupport: URL, note: Note) async throws {
        let outbox = try Outbox(directory: appSupport.appendingPathComponent("outbox"), client: client)
        switch try await outbox.send(try OutboxWrite(NotesAPI.create(note))) {
        case .delivered(_, let response): show(response)
        case .queued: showBadge("will be sent when you are back online")
        case .failed(let entry, _, let error): showError(entry, error)
        }
        // iOS: when NWPathMonitor reports .satisfied (and at launch, and in a BGAppRefreshTask):
        Task { await outbox.run() }   // flushes, waits out backoff, until nothing is queued
        for await event in outbox.events() { show(event) }   // .queued, .delivered, .failed, .stillQueued, .dropped
    }

    static func driveFromAnApp(outbox: Outbox) async {
        let monitor = NWPathMonitor()
        monitor.pathUpdateHandler = { path in
            if path.status == .satisfied { Task { await outbox.run() } }   // flushes, waits out backoff
        }
        monitor.start(queue: .main)
        // Also at launch, and in a BGAppRefreshTask's handler: `await outbox.run()`.

        for await event in outbox.events() {
            switch event {
            case .queued(let entry): markPending(entry.id)
            case .delivered(let entry, let response): markSent(entry.id, response)
            case .failed(let entry): markFailed(entry.id, entry.answer)
            case .stillQueued, .dropped: break
            }
        }
    }

    // Not in the samples: what they call.
    static func show(_ response: NetworkResponse) {}
    static func show(_ event: OutboxEvent) {}
    static func showBadge(_ text: String) {}
    static func showError(_ entry: OutboxEntry, _ error: NetworkError) {}
    static func markPending(_ id: String) {}
    static func markSent(_ id: String, _ response: NetworkResponse) {}
    static func markFailed(_ id: String, _ answer: OutboxEntry.Answer?) {}
}
