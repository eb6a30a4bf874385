import CourierTransportCore
import Foundation

/// Why an ``Outbox`` could not take, keep or find a write. Delivery failures are not errors of
/// the outbox: they are an entry's ``OutboxEntry/lastError`` or its failed ``OutboxEntry/answer``.
public enum OutboxError: Error, Equatable, CustomStringConvertible {
    /// The outbox holds its most entries or bytes (``OutboxLimits``): the write was not taken.
    case full(entries: Int, bytes: Int)
    /// The write cannot be kept: its URL is not `http(s)`, a field is not valid, or its body
    /// alone is larger than the outbox may hold.
    case invalidWrite(String)
    /// The directory may not be used (created, examined, another user's, writable by others,
    /// not a directory).
    case directory(String)
    /// A file of the outbox could not be written, synced, renamed or removed (errno).
    case journal(path: String, errno: Int32)
    /// No entry has this id.
    case notFound(String)

    public var description: String {
        switch self {
        case .full(let entries, let bytes): "the outbox is full (\(entries) entries, \(bytes) bytes): the write was not taken"
        case .invalidWrite(let reason): "the write cannot be kept: \(reason)"
        case .directory(let reason): reason
        case .journal(let path, let code):
            code == ENOSPC
                ? "the disk is full: \(path) could not be written" : "outbox file \(path): \(String(cString: strerror(code)))"
        case .notFound(let id): "no outbox entry \(id)"
        }
    }

    init(_ refusal: PrivateDirectory.Refusal) {
        switch refusal {
        case .unusable(let path, let code): self = .directory("outbox directory \(path) cannot be used: \(String(cString: strerror(code)))")
        case .ownedByAnotherUser(let path): self = .directory("outbox directory \(path) belongs to another user")
        case .writableByOthers(let path): self = .directory("outbox directory \(path) is writable by others (chmod 700 it)")
        case .notADirectory(let path): self = .directory("outbox path \(path) is not a directory (or is a symbolic link)")
        }
    }
}
