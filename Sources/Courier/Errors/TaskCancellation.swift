import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Error {
    /// True for every form of cancellation: `CancellationError`, `URLError.cancelled` and
    /// ``NetworkError/taskCancelled`` — so cancellation is never shown as a failure.
    public var isTaskCancellation: Bool {
        if self is CancellationError { return true }
        if let urlError = self as? URLError { return urlError.code == .cancelled }
        if let networkError = self as? NetworkError { return networkError == .taskCancelled }
        return false
    }
}
