import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The suite's origin server (test-engine/server/handle-test.mjs): `/test/<uuid>[/<file>]` answers
/// the configured response for the request's `Req-Num`, with `Server-Request-Count`,
/// `Client-Request-Count`, `Server-Now`, `Server-Base-Url` and `Request-Numbers`, magic dates
/// and locations, `999 304 Not Generated` for a validation that was not conditional, pauses and
/// disconnects. Configurations are handed over in-process (``OriginState/configure(_:_:)``).
enum ConformanceOrigin {
    static func answer(_ request: Request, uuid: String, state: OriginState) async throws -> Response {
        let clientNumber = request.headers[raw: Fields.reqNum].flatMap { Int($0) }
        guard let (steps, serverNumber) = await state.arrive(uuid) else {
            return Response(status: .conflict)
        }
        let number = clientNumber ?? serverNumber
        guard steps.indices.contains(number - 1) else { return Response(status: .conflict) }
        let step = steps[number - 1]
        if let pause = step.responsePause { try await Task.sleep(for: .seconds(pause)) }
        let now = Date()
        let nowMs = Int(now.timeIntervalSince1970 * 1000)

        var status = HTTPResponse.Status(code: step.responseStatus?.0 ?? 200, reasonPhrase: step.responseStatus?.1 ?? "OK")
        if step.expectedType?.hasSuffix("validated") == true {
            // The previous step's validators as configured; a magic date only once it was sent.
            let served = await state.served(uuid, number - 1)
            let previous = number >= 2 ? steps[number - 2].responseHeaders : []
            func validator(_ name: String) -> String? {
                guard let spec = previous.first(where: { $0.name.lowercased() == name }) else { return nil }
                if case .text(let value) = spec.value { return value }
                return served[name]
            }
            var validated = false
            if let lm = validator("last-modified"), request.headers[.ifModifiedSince] == lm { validated = true }
            if let etag = validator("etag"), request.headers[.ifNoneMatch] == etag { validated = true }
            status = validated ? .notModified : HTTPResponse.Status(code: 999, reasonPhrase: "304 Not Generated")
        }
        let baseURL = request.uri.description
        var fields = HTTPFields()
        fields[raw: Fields.serverBaseURL] = baseURL
        fields[raw: Fields.serverRequestCount] = String(serverNumber)
        fields[raw: Fields.clientRequestCount] = clientNumber.map(String.init) ?? "NaN"
        fields[raw: Fields.serverNow] = String(nowMs)
        var saved: [String: String] = [:]
        var order: [String] = []
        for spec in step.responseHeaders {
            let value = HeaderFixup.value(spec, serverNowMs: nowMs, baseURL: baseURL, step: step)
            guard let name = HTTPField.Name(spec.name) else { continue }
            fields.append(HTTPField(name: name, value: value))
            if spec.checked {
                let key = spec.name.lowercased()
                if !order.contains(key) { order.append(key) }
                saved[key] = fields[values: name].joined(separator: ", ")
            }
        }
        if fields[.contentType] == nil { fields[.contentType] = "text/plain" }
        let record = OriginState.Record(
            requestNumber: clientNumber, method: request.method.rawValue,
            headers: Dictionary(request.headers.map { ($0.name.canonicalName, $0.value) }, uniquingKeysWith: { "\($0), \($1)" }),
            responseHeaders: order.map { ($0, saved[$0] ?? "") })
        let numbers = await state.record(uuid, number: number, record: record, served: saved)
        fields[raw: Fields.requestNumbers] = numbers.map { $0.map(String.init) ?? "NaN" }.joined(separator: " ")

        if step.disconnect {
            return Response(status: status, headers: fields, body: ResponseBody { _ in throw OriginFault.disconnect })
        }
        if status.code == 204 || status.code == 304 || request.method == .head {
            return Response(status: status, headers: fields)
        }
        let body = step.responseBody ?? uuid
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(string: body)))
    }
}

/// A response cut off on purpose (`disconnect`).
enum OriginFault: Error {
    case disconnect
}

/// Field names the harness uses.
enum Fields {
    static let reqNum = "Req-Num"
    static let serverBaseURL = "Server-Base-Url"
    static let serverRequestCount = "Server-Request-Count"
    static let clientRequestCount = "Client-Request-Count"
    static let serverNow = "Server-Now"
    static let requestNumbers = "Request-Numbers"
}

extension HTTPFields {
    /// The value of the field spelled `name` (joined when repeated); setting replaces it.
    subscript(raw name: String) -> String? {
        get {
            guard let field = HTTPField.Name(name) else { return nil }
            let values = self[values: field]
            return values.isEmpty ? nil : values.joined(separator: ", ")
        }
        set {
            guard let field = HTTPField.Name(name) else { return }
            self[field] = newValue
        }
    }
}

/// What the origin knows per test: its configuration and what it saw.
actor OriginState {
    struct Record: Sendable {
        var requestNumber: Int?
        var method: String
        var headers: [String: String]
        var responseHeaders: [(String, String)]
    }

    private var configs: [String: [TestStep]] = [:]
    private var records: [String: [Record]] = [:]
    private var servedHeaders: [String: [Int: [String: String]]] = [:]

    func configure(_ uuid: String, _ steps: [TestStep]) { configs[uuid] = steps }

    /// The test's steps and this request's server-side number.
    func arrive(_ uuid: String) -> ([TestStep], Int)? {
        guard let steps = configs[uuid] else { return nil }
        return (steps, (records[uuid]?.count ?? 0) + 1)
    }

    /// The checked header fields the origin sent for request `number` (lowercased names).
    func served(_ uuid: String, _ number: Int) -> [String: String] { servedHeaders[uuid]?[number] ?? [:] }

    /// Records a request; returns the client numbers of every request seen so far.
    func record(_ uuid: String, number: Int, record: Record, served: [String: String]) -> [Int?] {
        records[uuid, default: []].append(record)
        servedHeaders[uuid, default: [:]][number] = served
        return records[uuid, default: []].map(\.requestNumber)
    }

    func state(_ uuid: String) -> [Record] { records[uuid] ?? [] }
}
