import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// What one `GET` or `HEAD /files/{name}` request asked for, which part of the file it gets
/// (RFC 9110 §13.1.5 and §14), and the bytes of its body.
struct FileTransferPlan: Sendable {
    /// Which validators the answer carries (`validator=`).
    enum Validators: String, Sendable {
        case etag
        case lastModified = "last-modified"
        case both
        case none
    }

    /// The part of the file an answer sends.
    enum Selection: Equatable, Sendable {
        /// `200`, the whole file.
        case whole
        /// `206`, these bytes.
        case partial(Range<Int64>)
        /// `416`, nothing.
        case unsatisfiable
        /// `304`, nothing: `If-None-Match` named the ETag.
        case notModified
    }

    /// The largest `size` (8 GiB).
    static let maxSize: Int64 = 8 << 30
    /// The largest `version` (a million hours: `Last-Modified` stays in the 22nd century).
    static let maxVersion = 1_000_000
    /// `Last-Modified` of version 0: 2026-01-01T00:00:00Z; each version is an hour later.
    static let firstModified = Date(timeIntervalSince1970: 1_767_225_600)

    var size: Int64
    var seed: UInt64
    /// From `version=`, or (`changing=`) set by the route from its count of requests.
    var version: UInt64
    var validators: Validators
    /// The ETag is sent weak (`W/"…"`), so it never satisfies `If-Range`.
    var weak: Bool
    /// False with `ranges=ignore`: no `Accept-Ranges`, `Range` ignored.
    var honoursRanges: Bool
    /// Bytes per second, at most.
    var pace: Int?
    /// The absolute offset where the body is cut (when the answer covers it).
    var cutAt: Int64?
    /// With `key`: cut only while the key has seen fewer cuts than this (`cuts=N`).
    var maxCuts: Int?
    /// The version comes from the count of requests with this value.
    var changing: String?
    /// Counts this request in ``TransferStats``.
    var key: String?
    /// Only a GET has its `Range` honoured (RFC 9110 §14.2); a HEAD is answered as a whole GET.
    var isGet: Bool
    /// The `Range` field as received.
    var rangeField: String?
    /// The `If-Range` field as received.
    var ifRangeField: String?
    /// The `If-None-Match` field as received.
    var ifNoneMatchField: String?
    /// `maxAge=N`: sent as `Cache-Control: max-age=N` (nothing by default).
    var maxAge: Int?

    /// The plan for `request`; 400 for a parameter that is present but wrong.
    init(_ request: Request) throws {
        let query = QueryReader(request)
        size = Int64(try query.integer("size", in: 0...Int(Self.maxSize), default: 1 << 20))
        seed = UInt64(try query.integer("seed", in: 0...Int.max, default: 0))
        version = UInt64(try query.integer("version", in: 0...Self.maxVersion, default: 1))
        let validator = query.text("validator") ?? Validators.both.rawValue
        guard let validators = Validators(rawValue: validator) else {
            throw HTTPError(.badRequest, message: "validator must be etag, last-modified, both or none")
        }
        self.validators = validators
        weak = try query.flag("weak")
        switch query.text("ranges") {
        case nil, "bytes": honoursRanges = true
        case "ignore": honoursRanges = false
        default: throw HTTPError(.badRequest, message: "ranges must be bytes or ignore")
        }
        pace = try query.integer("pace", in: 1...(1 << 40))
        cutAt = try query.integer("cutAt", in: 0...Int(Self.maxSize)).map(Int64.init)
        changing = query.text("changing")
        key = query.text("key")
        maxCuts = try query.integer("cuts", in: 0...1000)
        if maxCuts != nil, key == nil { throw HTTPError(.badRequest, message: "cuts needs a key") }
        isGet = request.method == .get
        rangeField = request.headers[.range]
        ifRangeField = request.headers[.ifRange]
        ifNoneMatchField = request.headers[.ifNoneMatch]
        maxAge = try query.integer("maxAge", in: 0...(1 << 30))
    }

    /// The file this plan serves.
    var content: SandboxFileContent { SandboxFileContent(size: size, seed: seed, version: version) }

    /// `"size-seed-version"` (`W/` before it when weak), when the answer carries an ETag.
    var entityTag: String? {
        guard validators == .etag || validators == .both else { return nil }
        return (weak ? "W/" : "") + "\"\(size)-\(seed)-\(version)\""
    }

    /// The HTTP date `version` hours after 2026-01-01, when the answer carries `Last-Modified`.
    var lastModified: String? {
        guard validators == .lastModified || validators == .both else { return nil }
        return CacheRoutes.format(Self.firstModified.addingTimeInterval(Double(version) * 3_600))
    }

    /// What the answer sends: the whole file unless a GET's single `Range` is honoured and its
    /// `If-Range`, if any, holds.
    var selection: Selection {
        // If-None-Match compares weakly (RFC 9110 §13.1.2): `W/"x"` and `"x"` are the same tag.
        if let ifNoneMatchField, let entityTag {
            let sent = entityTag.hasPrefix("W/") ? String(entityTag.dropFirst(2)) : entityTag
            let listed = ifNoneMatchField.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            if listed.contains(where: { $0 == "*" || $0 == sent || $0 == "W/" + sent }) { return .notModified }
        }
        guard isGet, honoursRanges, let rangeField else { return .whole }
        if let ifRangeField, !ifRangeHolds(ifRangeField) { return .whole }
        switch ByteRangeRequest(field: rangeField, size: size) {
        case .partial(let range): return .partial(range)
        case .unsatisfiable: return .unsatisfiable
        case .ignored: return .whole
        }
    }

    /// `If-Range: value` holds when it is exactly the strong ETag sent, or (a date) exactly the
    /// `Last-Modified` sent with no ETag; a weak tag never holds.
    func ifRangeHolds(_ value: String) -> Bool {
        let value = value.trimmingCharacters(in: .whitespaces)
        if value.hasPrefix("W/") { return false }
        if value.hasPrefix("\"") { return !weak && entityTag == value }
        return entityTag == nil && lastModified == value
    }

    /// The answer's head fields for `selection`.
    func headers(for selection: Selection) -> HTTPFields {
        var headers = HTTPFields()
        if honoursRanges { headers[.acceptRanges] = "bytes" }
        if let entityTag { headers[.eTag] = entityTag }
        if let lastModified { headers[.lastModified] = lastModified }
        if let maxAge { headers[.cacheControl] = "max-age=\(maxAge)" }
        switch selection {
        case .whole:
            headers[.contentType] = "application/octet-stream"
        case .partial(let range):
            headers[.contentType] = "application/octet-stream"
            headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(size)"
        case .unsatisfiable:
            headers[.contentRange] = "bytes */\(size)"
        case .notModified:
            break
        }
        return headers
    }

    /// The bytes of `range` of `content`, with their `Content-Length`: 64 KiB pieces (fewer with
    /// `pace`, so it is kept smoothly), each written when the connection takes it. With
    /// `cutAt` inside `range`, the body stops there and the connection is cut.
    func body(_ range: Range<Int64>, of content: SandboxFileContent, ledger: TransferLedger) -> ResponseBody {
        let (pace, key) = (self.pace, self.key)
        let end = cutAt.flatMap { range.lowerBound < $0 && $0 < range.upperBound ? $0 : nil } ?? range.upperBound
        let piece = pace.map { max(1, min(SandboxFileContent.chunkLimit, $0 / 20)) } ?? SandboxFileContent.chunkLimit
        return ResponseBody(contentLength: range.count) { writer in
            let clock = ContinuousClock()
            let start = clock.now
            var offset = range.lowerBound
            while offset < end {
                let length = Int(min(Int64(piece), end - offset))
                if let pace {
                    // A piece leaves when the bytes up to its end are due: never ahead of the pace.
                    let due = Double(offset + Int64(length) - range.lowerBound) / Double(pace)
                    try await clock.sleep(until: start.advanced(by: .seconds(due)))
                }
                try await writer.write(content.chunk(at: offset, length: length))
                offset += Int64(length)
                if let key { await ledger.wrote(length, key: key) }
            }
            if end < range.upperBound {
                if let key { await ledger.cut(key) }
                // Lets the last piece leave before the connection is cut (as /truncated does).
                try await Task.sleep(for: .milliseconds(20))
                throw SandboxFault.droppedOnPurpose
            }
            try await writer.finish(nil)
        }
    }
}
