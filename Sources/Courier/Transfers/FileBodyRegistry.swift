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
        let progress: TransferProgress?
    }

    private let entries = Mutex<[ObjectIdentifier: Entry]>([:])

    /// Records that `body` reads the file at `path`; a transport that sends the file itself
    /// reports the bytes it sends to `progress`.
    func record(_ body: HTTPBody, path: String, progress: TransferProgress? = nil) {
        entries.withLock { entries in
            if entries.count >= 64 { entries = entries.filter { $0.value.body != nil } }
            entries[ObjectIdentifier(body)] = Entry(body: body, path: path, progress: progress)
        }
    }

    /// The file `body` reads and the progress to report to, when it is one this registry recorded
    /// (and still alive).
    func file(of body: HTTPBody) -> (path: String, progress: TransferProgress?)? {
        entries.withLock { entries in
            guard let entry = entries[ObjectIdentifier(body)], entry.body === body else { return nil }
            return (entry.path, entry.progress)
        }
    }
}
