public import Foundation

extension NetworkClient {
    /// GETs `url` — an absolute `http(s)` URL given whole, such as a link an API handed out — and
    /// decodes the answer as `T` (the coin app's `request<T>(url:)`). The URL goes out as given
    /// (DESIGN.md, "URLs as given"; ``URLEndpoint``): query order, flag items, `+`, `%2f` kept,
    /// only what may not appear in a URL percent-encoded. It goes to the URL's own server, also
    /// on a client made with a ``Configuration/baseURL``.
    ///
    /// ```swift
    /// let answer: AlanAnswer = try await client.request(url: url)
    /// let page = try await client.request(url: next, as: Page.self)
    /// ```
    ///
    /// - Throws: ``NetworkError/invalidURL`` unless `url` is `http(s)` with a host; otherwise as
    ///   ``request(_:as:)``.
    public func request<T: Decodable & Sendable>(url: URL, as type: T.Type = T.self) async throws(NetworkError) -> T {
        guard let endpoint = URLEndpoint(url) else { throw .invalidURL }
        let response = try await response(toItsOwnServer: endpoint).validated()
        if response.body.isEmpty, let empty = T.self as? any EmptyDecodable.Type, let value = empty.emptyValue as? T { return value }
        do {
            return try JSONResponseDecoding().decode(T.self, from: response.body, using: configuration.decoder)
        } catch .decodingError(let error) {
            throw .decodingError(DecodingDiagnostics.attach(to: error, body: response.body))
        }
    }
}

extension NetworkClient {
    /// The answer to `endpoint` sent to its own `baseURL`, also on a client made with a
    /// ``Configuration/baseURL`` (a URL given whole; an outbox's replay), its status not validated.
    package func response(toItsOwnServer endpoint: some Endpoint) async throws(NetworkError) -> NetworkResponse {
        try await send(call(for: endpoint, toItsOwnServer: true))
    }
}
