import Courier
import Foundation
import HTTPTypes

/// One request of a test as a Courier endpoint (test-engine/client/fetching.mjs): its method,
/// headers (magic `If-Modified-Since` from the previous response's `Server-Now`), `Test-Name`,
/// `Test-ID`, `Req-Num`, Fetch's `cache: no-cache` as `Cache-Control: max-age=0`, body and query.
struct ConformanceEndpoint: Endpoint {
    let baseURL: URL
    let path: String
    let pathSegments: [String]
    let method: HTTPMethod
    let task: HTTPTask
    let headers: [String: String]?
    /// The query as the test gives it (`a=b&c`), and the body, for ``CLIFetcher``.
    let queryText: String
    let bodyText: String?

    init(test: ConformanceTest, step: TestStep, number: Int, uuid: String, baseURL: URL, previous: NetworkResponse?) {
        self.baseURL = baseURL
        pathSegments = ["test", uuid] + (step.filename.map { [$0] } ?? [])
        path = "/" + pathSegments.joined(separator: "/")
        method = HTTPMethod(step.method) ?? .get
        var fields: [String: String] = [:]
        for spec in step.requestHeaders {
            let isIMS = spec.name.lowercased() == "if-modified-since"
            let now = step.magicIMS && isIMS ? previous?.headers[raw: Fields.serverNow].flatMap { Int($0) } : nil
            let value = HeaderFixup.value(spec, serverNowMs: now, baseURL: nil, step: step)
            // Fetch's Headers.append combines a repeated name into one "a, b" line.
            fields[spec.name] = fields[spec.name].map { $0 + ", " + value } ?? value
        }
        // Fetch's `cache: "no-cache"` validates a stored response by sending `Cache-Control: max-age=0`.
        if step.fetchCache == "no-cache", !fields.keys.contains(where: { $0.lowercased() == "cache-control" }) {
            fields["Cache-Control"] = "max-age=0"
        }
        fields["Test-Name"] = test.name.replacingOccurrences(of: "\n", with: " ")
        fields["Test-ID"] = test.id
        fields["Req-Num"] = String(number)
        headers = fields
        queryText = step.queryArg ?? ""
        bodyText = step.requestBody
        var query: RequestParameters = [:]
        for pair in (step.queryArg ?? "").split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            query[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
        }
        let contentType = fields.first { $0.key.lowercased() == "content-type" }?.value ?? "text/plain;charset=UTF-8"
        let body = step.requestBody.map { HTTPTask.requestData(Data($0.utf8), contentType: contentType) }
        switch (query.isEmpty, body) {
        case (true, nil): task = .requestPlain
        case (false, nil): task = .requestParameters(query, encoding: .url)
        case (true, let body?): task = body
        case (false, let body?): task = .requestComposite(query: query, body: body)
        }
    }

    var statusMapping: StatusMapping { .acceptAll }
    var timeout: Duration? { .seconds(10) }
    var responseDecoding: any ResponseDecoding { .json }
}
