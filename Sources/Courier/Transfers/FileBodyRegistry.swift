import OpenAPIRuntime
import Synchronization

/// Which request bodies are files (``HTTPTask/uploadFile(_:contentType:)``), so a transport that
/// can send a file itself — URLSession's `uploadTask(with:fromFile:)`, which FoundationNetworking
/// on Linux streams from disk — does so instead of reading the body through. Held weakly: an
/// entry goes with its body.
final class FileBodyRegistry: Sendable {
    static let shared = FileBodyRegistry()

    private struct Entry {
        weak var body: HTTPBody?
        let path: String
    }

    private let entries = Mutex<[ObjectIdentifier: Entry]>([:])

    func record(_ body: HTTPBody, path: String) {
        entries.withLock { entries in
            if entries.count >= 64 { entries = entries.filter { $0.value.body != nil } }
            entries[ObjectIdentifier(body)] = Entry(body: body, path: path)
        }
    }

    /// The file `body` reads, when it is one this registry recorded (and still alive).
    func path(of body: HTTPBody) -> String? {
        entries.withLock { entries in
            guard let entry = entries[ObjectIdentifier(body)], entry.body === body else { return nil }
            return entry.path
        }
    }
}
