import CourierTransportCore
import Foundation
import OpenAPIRuntime

/// A file a request body is sent from by ``URLSessionClientTransport``: a file upload's own file,
/// or a temporary copy of another body (0600 in the temporary directory, removed when the task ends).
struct RequestBodyFile: Sendable {
    let path: String
    /// Whether the file is this transport's to remove.
    let temporary: Bool
    /// Where the bytes sent are reported (an upload with progress).
    var progress: (any ByteProgress)? = nil

    /// Writes `body` to a new temporary file, chunk by chunk.
    static func spool(_ body: HTTPBody) async throws -> RequestBodyFile {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("courier-upload-\(UUID().uuidString)").path
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw NetworkError.fileError(.ioFailed(path: path, operation: "open", errno: errno)) }
        let file = RequestBodyFile(path: path, temporary: true)
        defer { _ = close(descriptor) }
        do {
            for try await chunk in body {
                let written = chunk.withUnsafeBytes { raw -> Bool in
                    var done = 0
                    while done < raw.count {
                        let count = write(descriptor, raw.baseAddress! + done, raw.count - done)
                        if count < 0 {
                            if errno == EINTR { continue }
                            return false
                        }
                        done += count
                    }
                    return true
                }
                guard written else {
                    let code = errno
                    throw NetworkError.fileError(code == ENOSPC ? .diskFull(path: path) : .ioFailed(path: path, operation: "write", errno: code))
                }
            }
        } catch {
            file.remove()
            throw error
        }
        return file
    }

    /// Removes the file when it is a temporary copy.
    func remove() {
        if temporary { _ = unlink(path) }
    }
}
