import Courier
import CourierTransportCore
import Foundation
import HTTPTypes

/// An outbox entry as the endpoint its replay sends: the URL as given, the kept header fields
/// with the secret ones of this process added back, the body as journaled, and the key already
/// on it (sent as given on every attempt).
struct OutboxEndpoint: Endpoint {
    let baseURL: URL
    let requestTarget: String?
    let method: HTTPMethod
    let task: HTTPTask
    let headers: [String: String]?
    var path: String { String((requestTarget ?? "/").prefix { $0 != "?" }) }
    /// A write is never de-duplicated with another or answered from a cache; its key makes it safe to retry.
    var traits: CallTraits { CallTraits(deduplicable: false, cachePolicy: .reload, wantsIdempotencyKey: true) }

    /// The replay of `entry` with `body`; `added` fields (the secret ones this process kept, then
    /// a flush's) take the place of kept fields of the same name.
    init?(_ entry: OutboxEntry, body: Data, adding added: [HTTPFields]) {
        guard let parts = URLEndpoint.parts(of: entry.url) else { return nil }
        baseURL = parts.baseURL
        requestTarget = parts.requestTarget
        method = entry.method
        var fields: [String: String] = [:]
        for field in entry.headerFields where field.name != .contentType {
            fields[field.name.rawName] = fields[field.name.rawName].map { $0 + ", " + field.value } ?? field.value
        }
        for group in added {
            for field in group where field.name != .contentType {
                for name in fields.keys where name.lowercased() == field.name.canonicalName { fields[name] = nil }
                fields[field.name.rawName] = field.value
            }
        }
        fields[entry.keyHeader.rawName] = entry.idempotencyKey
        headers = fields
        let contentType = entry.headerFields[.contentType]
        task = body.isEmpty && contentType == nil ? .requestPlain : .requestData(body, contentType: contentType ?? "application/octet-stream")
    }
}
