import Courier
import Foundation

/// An ``Endpoint`` built from a URL typed on the command line: the URL's path and query are sent
/// as typed (``Endpoint/requestTarget``), as curl sends them.
struct AdHocEndpoint: Endpoint {
    let baseURL: URL
    let requestTarget: String?
    let method: HTTPMethod
    let task: HTTPTask
    let headers: [String: String]?
    let timeout: Duration?
    let secrets: [String]

    /// The path as sent, without the query.
    var path: String { String((requestTarget ?? "/").prefix { $0 != "?" }) }

    /// Splits `url` into a base (scheme, host, port) and its path and query as typed, adds
    /// `extraQuery` after them (RFC 3986-encoded), and attaches `json` (or raw `data` of type
    /// `dataType`) as the body.
    init(
        method: String, url text: String, headers: [String: String], extraQuery: [(String, String)], json: String?, timeout: Duration?,
        secrets: [String] = [], data: String? = nil, dataType: String = "application/octet-stream", uploadFile: URL? = nil
    ) throws {
        guard let parts = URLEndpoint.parts(of: text) else { throw CLIError.usage("'\(text)' is not an http:// or https:// URL") }
        self.baseURL = parts.baseURL
        self.requestTarget = parts.requestTarget
        self.method = HTTPMethod(method.uppercased()) ?? .get
        var query: [String: [String]] = [:]
        for (name, value) in extraQuery { query[name, default: []].append(value) }
        let parameters = URLEndpoint.parameters(query)
        var body: HTTPTask = .requestPlain
        if let json {
            guard (try? JSONSerialization.jsonObject(with: Data(json.utf8), options: [.fragmentsAllowed])) != nil else {
                throw CLIError.usage("--json is not valid JSON")
            }
            body = .requestData(Data(json.utf8), contentType: "application/json")
        }
        if let data {
            guard json == nil else { throw CLIError.usage("--data and --json cannot be used together") }
            body = .requestData(Data(data.utf8), contentType: dataType)
        }
        if let uploadFile {
            guard json == nil, data == nil else { throw CLIError.usage("--upload-file cannot be used with --data or --json") }
            body = .uploadFile(uploadFile, contentType: dataType)
        }
        self.task = parameters.isEmpty ? body : .requestComposite(query: parameters, body: body)
        self.headers = headers.isEmpty ? nil : headers
        self.timeout = timeout
        self.secrets = secrets
    }
}

/// A command-line mistake, reported with a clear message and exit code 64.
enum CLIError: Error, CustomStringConvertible {
    case usage(String)

    var description: String {
        switch self {
        case .usage(let message): message
        }
    }
}
