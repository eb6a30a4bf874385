import Foundation

/// What a view model needs from a client, for injection and test doubles (the seminar's
/// `NetworkProviding`). ``NetworkClient`` is the real one; CourierTesting has a stub.
public protocol NetworkProviding: Sendable {
    /// Sends `endpoint` and decodes the answer as `T`.
    func request<T: Decodable & Sendable>(_ endpoint: some Endpoint, as type: T.Type) async throws(NetworkError) -> T
    /// Sends `endpoint` and returns the answer's status, headers and bytes, after status mapping.
    func response(_ endpoint: some Endpoint) async throws(NetworkError) -> NetworkResponse
}

extension NetworkProviding {
    /// Sends `endpoint` and decodes the answer as the type the call site expects.
    public func request<T: Decodable & Sendable>(_ endpoint: some Endpoint) async throws(NetworkError) -> T {
        try await request(endpoint, as: T.self)
    }
}
