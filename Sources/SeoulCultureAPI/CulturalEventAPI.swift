public import Courier
public import Foundation
public import HTTPTypes

/// Seoul Open Data's `culturalEventInfo` service as an `Endpoint`: the key, the answer type,
/// the 1-based row range and the optional filters all sit in the path.
///
/// ```swift
/// let client = NetworkClient(configuration: .init(insecureHostsAllowed: ["openapi.seoul.go.kr"]))
/// let body = try await client.response(CulturalEventAPI.rows(key: key, start: 1, end: 5)).body
/// ```
///
/// The key is one of the endpoint's ``secrets``, so Courier's logging masks it in every line.
public enum CulturalEventAPI: Endpoint, Equatable {
    /// `GET /{KEY}/{json|xml}/culturalEventInfo/{START}/{END}[/{CODENAME}/{TITLE}/{DATE}]` → a
    /// ``CulturalEventAnswer`` (always HTTP 200, even for errors; at most 1,000 rows).
    case rows(key: String, start: Int, end: Int, filter: CulturalEventFilter = CulturalEventFilter(), format: Format = .json)

    /// The answer's format (the `TYPE` path value).
    public enum Format: String, Sendable, Equatable {
        /// JSON (what ``SeoulCultureClient`` asks for).
        case json
        /// XML.
        case xml
    }

    /// The real service: plain `http://openapi.seoul.go.kr:8088` (it has no https).
    public static let defaultServer: URL = URL(string: "http://openapi.seoul.go.kr:8088") ?? URL(fileURLWithPath: "/")

    /// The API's host, the one host besides loopback that a Seoul client may reach over plain http.
    public static let host = "openapi.seoul.go.kr"

    /// The service name in the path.
    public static let service = "culturalEventInfo"

    /// The most rows one call may ask for (more is ERROR-336).
    public static let maxRows = 1000

    /// ``defaultServer``; a client with a base URL (the sandbox's `/seoul`) sends it elsewhere.
    public var baseURL: URL { Self.defaultServer }

    /// The segments joined; see ``pathSegments``.
    public var path: String { pathSegments.joined(separator: "/") }

    /// Each value is its own segment (percent-encoded by Courier, so a title with `/` or Korean
    /// text stays one segment); a skipped optional filter before a given one is a single space,
    /// as the service expects.
    public var pathSegments: [String] {
        switch self {
        case .rows(let key, let start, let end, let filter, let format):
            var segments = [key, format.rawValue, Self.service, String(start), String(end)]
            let optional = [filter.category ?? "", filter.title ?? "", filter.date?.description ?? ""]
            if let last = optional.lastIndex(where: { !$0.isEmpty }) {
                segments += optional[...last].map { $0.isEmpty ? " " : $0 }
            }
            return segments
        }
    }

    /// GET.
    public var method: HTTPMethod { .get }

    /// No body, no query.
    public var task: HTTPTask { .requestPlain }

    /// The key: never logged, wherever it appears.
    public var secrets: [String] {
        switch self {
        case .rows(let key, _, _, _, _): [key]
        }
    }

    /// Reading a page is safe to repeat.
    public var traits: CallTraits { CallTraits(idempotent: true) }
}

/// The optional server-side filters of ``CulturalEventAPI/rows(key:start:end:filter:format:)``.
public struct CulturalEventFilter: Sendable, Equatable {
    /// `CODENAME`: a category, e.g. `"클래식"`.
    public var category: String?
    /// `TITLE`: text in the title.
    public var title: String?
    /// `DATE`: a day the program runs on.
    public var date: SeoulDay?

    /// A filter; nil (or empty) values are not sent.
    public init(category: String? = nil, title: String? = nil, date: SeoulDay? = nil) {
        self.category = category.flatMap { $0.isEmpty ? nil : $0 }
        self.title = title.flatMap { $0.isEmpty ? nil : $0 }
        self.date = date
    }
}
