public import Courier
public import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension NetworkError {
    /// The seed's `addressUnreachable(URL)`: for a transport failure (`networkError`), the
    /// address that could not be reached; nil for every other error.
    ///
    /// ```swift
    /// do { _ = try await hackerNews.ids(of: .new) } catch {
    ///     if let url = error.unreachableAddress { print("cannot reach \(url)") }
    /// }
    /// ```
    public var unreachableAddress: URL? {
        guard case .networkError(let error) = self else { return nil }
        return error.failingURL
    }

    /// The seed's two errors of the story-list call: a transport failure names the list's
    /// address (``unreachableAddress``), an answer that is not a list of ids is
    /// `NetworkError.invalidResponse` ("the server responded with garbage"); other errors
    /// (cancellation, status errors) stay as they are.
    static func storyList(_ error: NetworkError, url: URL) -> NetworkError {
        switch error {
        case .networkError(let urlError) where urlError.failingURL == nil:
            var userInfo = urlError.userInfo
            userInfo[NSURLErrorFailingURLErrorKey] = url
            return .networkError(URLError(urlError.code, userInfo: userInfo))
        case .decodingError:
            return .invalidResponse
        default:
            return error
        }
    }
}
