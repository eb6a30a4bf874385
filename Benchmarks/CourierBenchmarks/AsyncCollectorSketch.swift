import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
import Synchronization

/// A design candidate for the transport, measured side by side: AsyncHTTPClient's async API
/// (its deadline covers the head), the body collected in a task registered where a per-transport
/// sweeper could cancel it at the call's deadline (the registration is paid here; nothing sweeps).
final class CollectorRegistry: Sendable {
    let entries = Mutex<[UInt64: Task<ByteBuffer, any Error>]>([:])
    let next = Mutex<UInt64>(0)
}

enum AsyncCollectorSketch {
    static func swept(_ client: HTTPClient, _ url: String, _ registry: CollectorRegistry) async throws -> Data {
        let response = try await client.execute(HTTPClientRequest(url: url), deadline: .now() + .seconds(30))
        let collector = Task { try await response.body.collect(upTo: 1 << 24) }
        let id = registry.next.withLock { $0 &+= 1; return $0 }
        registry.entries.withLock { $0[id] = collector }
        defer { _ = registry.entries.withLock { $0.removeValue(forKey: id) } }
        let body = try await withTaskCancellationHandler { try await collector.value } onCancel: { collector.cancel() }
        return Data(buffer: body)
    }
}
