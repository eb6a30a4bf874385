import Courier
public import Foundation

extension SeoulCultureClient {
    /// The poster of `program` (its `imageURL`), or nil when it has none: fetched through this
    /// client's middlewares — with a `CacheMiddleware` in its configuration, a poster seen once
    /// is read from the cache (Raon re-downloaded every poster on every launch).
    ///
    /// ```swift
    /// let seoul = SeoulCultureClient(key: key, configuration: .init(middlewares: [CacheMiddleware(storage: storage)]))
    /// let image = try await seoul.poster(of: program)
    /// ```
    public func poster(of program: CulturalProgram) async throws(SeoulAPIError) -> Data? {
        guard let url = program.imageURL else { return nil }
        guard let endpoint = URLEndpoint(url) else { throw .network(.invalidURL) }
        // The image lives on another server than the API: the same middlewares without the API's base URL.
        var configuration = client.configuration
        configuration.baseURL = nil
        do {
            return try await NetworkClient(configuration: configuration).response(endpoint).body
        } catch {
            throw SeoulAPIError(error)
        }
    }
}
