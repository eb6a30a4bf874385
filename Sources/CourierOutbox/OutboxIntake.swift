import Courier
import CourierTransportCore
import Foundation
import HTTPTypes

/// A write made into an entry: its URL and fields checked, its body read (bounded), its key
/// taken or minted, its secret fields split off (they never reach the disk).
enum OutboxIntake {
    static func entry(
        for write: OutboxWrite, id: String, keys: NetworkClient.IdempotencyKeys, limits: OutboxLimits
    ) throws(OutboxError) -> (entry: OutboxEntry, body: Data, secret: HTTPFields) {
        guard OutboxEntryFormat.isURL(write.url), URLEndpoint.parts(of: write.url) != nil else {
            throw .invalidWrite("'\(Redactor().url(String(write.url.prefix(200))))' is not an http:// or https:// URL of visible characters")
        }
        guard write.headerFields.count <= OutboxEntryFormat.maxFields else {
            throw .invalidWrite("it has more than \(OutboxEntryFormat.maxFields) header fields")
        }
        let body = try read(write.body, limit: limits.maxBytes)
        let header = keys.header
        let key = write.idempotencyKey ?? write.headerFields[header] ?? keys.mint()
        guard !key.isEmpty, key.utf8.count <= 1024, HTTPField.isValidValue(key) else {
            throw .invalidWrite("the idempotency key is empty, longer than 1024 bytes or not a valid field value")
        }
        var kept = HTTPFields()
        var secret = HTTPFields()
        for field in write.headerFields where field.name != header {
            if write.secretHeaders.contains(field.name.canonicalName) { secret.append(field) } else { kept.append(field) }
        }
        let entry = OutboxEntry(
            id: id, method: write.method, url: write.url, headerFields: kept, idempotencyKey: key, keyHeader: header,
            createdAt: Date(), bodyLength: body.count)
        return (entry, body, secret)
    }

    /// The body's bytes, refused when larger than the outbox may hold.
    private static func read(_ body: OutboxWrite.Body, limit: Int) throws(OutboxError) -> Data {
        switch body {
        case .none: return Data()
        case .data(let data):
            guard data.count <= limit else { throw .invalidWrite("its body (\(data.count) bytes) is larger than the outbox (\(limit) bytes)") }
            return data
        case .file(let url):
            guard let status = Platform.status(atPath: url.path), status.isRegularFile else {
                throw .invalidWrite("its body file \(url.path) cannot be read")
            }
            guard status.size <= limit else { throw .invalidWrite("its body file (\(status.size) bytes) is larger than the outbox (\(limit) bytes)") }
            guard let data = PrivateFile.read(url.path, maxBytes: limit) ?? (try? Data(contentsOf: url)), data.count <= limit else {
                throw .invalidWrite("its body file \(url.path) cannot be read")
            }
            return data
        }
    }
}
