extension NetworkError {
    /// Why a transfer's local file could not be read or written (``NetworkError/fileError(_:)``).
    ///
    /// Paths are the caller's own (never a name taken from the server).
    public enum FileFailure: Sendable, Equatable {
        /// The disk (or the user's quota) is full; a download keeps its partial file to resume.
        case diskFull(path: String)
        /// Another download (in this process or another) is writing to the same target.
        case inUse(path: String)
        /// The finished file's checksum is not the one the caller gave; nothing was kept.
        case checksumMismatch(expected: String, actual: String)
        /// The file could not be opened, read, written, synced or renamed (`errno` and the operation).
        case ioFailed(path: String, operation: String, errno: Int32)
        /// A checksum given by the caller is not `sha256:` followed by 64 hex digits.
        case invalidChecksum(String)
    }
}

extension NetworkError.FileFailure: CustomStringConvertible {
    /// A one-line description for logs and the command line.
    public var description: String {
        switch self {
        case .diskFull(let path): "the disk is full writing \(path)"
        case .inUse(let path): "another download is writing \(path)"
        case .checksumMismatch(let expected, let actual): "checksum mismatch: expected \(expected), got \(actual)"
        case .ioFailed(let path, let operation, let code): "\(operation) \(path) failed (errno \(code))"
        case .invalidChecksum(let text): "not a checksum of the form sha256:HEX: \(text.prefix(80))"
        }
    }
}
