import Courier
import Foundation
import HTTPTypes

/// One test of `parser.json`: the `Set-Cookie` values a server sends, where the next request
/// goes, and the cookies it must carry.
struct ParserTest: Decodable {
    struct Pair: Decodable, Equatable {
        var name: String
        var value: String
    }

    var test: String
    var received: [String]
    var sentTo: String?
    var sent: [Pair]

    enum CodingKeys: String, CodingKey {
        case test, received, sent
        case sentTo = "sent-to"
    }

    /// The area the test's id names (`DOMAIN`, `PATH` …; `numbered` for the bare numbers).
    var prefix: String {
        let letters = String(test.prefix { !$0.isNumber })
        return letters.isEmpty ? "numbered" : letters
    }

    /// The `Cookie` field the second request must carry (empty: none).
    var sentHeader: String { sent.map { "\($0.name)=\($0.value)" }.joined(separator: "; ") }

    /// The second request's URL: `sent-to` (absolute, or relative to `origin`), or the default.
    func target(origin: URL) -> URL {
        sentTo.flatMap { URL(string: $0, relativeTo: origin)?.absoluteURL }
            ?? URL(string: "http://home.example.org:8888/cookie-parser-result?\(test)")!
    }
}

/// A GET of `url` as it is (path, percent-escapes and query kept), at `port` instead of the suite's 8888.
struct RawEndpoint: Endpoint {
    let baseURL: URL
    let path: String
    let task: HTTPTask
    var method: HTTPMethod { .get }
    var headers: [String: String]? { nil }
    var statusMapping: StatusMapping { .acceptAll }
    var timeout: Duration? { .seconds(10) }

    init(url: URL, port: Int) {
        var parts = URLComponents(url: url, resolvingAgainstBaseURL: true)!
        parts.port = port
        let path = parts.percentEncodedPath
        let query = parts.percentEncodedQuery
        parts.percentEncodedPath = ""
        parts.percentEncodedQuery = nil
        baseURL = parts.url!
        self.path = path
        task = query.map { .requestParameters([$0: ""], encoding: .url) } ?? .requestPlain
    }
}
