public import Courier
public import Foundation
public import HTTPTypes

/// The Hacker News API (v0, `https://hacker-news.firebaseio.com/v0/`) as an `Endpoint` enum:
/// one case per call. No key, no documented rate limit; every answer is JSON, and an id or a
/// name that does not exist answers `null` (status 200), not 404.
///
/// ```swift
/// let client = NetworkClient(configuration: .init(baseURL: URL(string: "http://127.0.0.1:8080/hn/v0/")!))
/// let item: Item? = try await client.request(HackerNewsAPI.item(id: 8863))
/// ```
///
/// The base URL includes the version path: a client made with
/// `NetworkClient.Configuration.baseURL` `…/hn/v0/` (the sandbox's stand-in) or a mirror's
/// root sends the same calls there.
public enum HackerNewsAPI: Endpoint, Equatable, Hashable {
    /// `GET item/{id}.json` → `Item?` (null for an id that does not exist).
    case item(id: Int)
    /// `GET topstories.json` → `[Int]` (up to 500 ids, rank order).
    case topStories
    /// `GET newstories.json` → `[Int]` (up to 500 ids, newest first).
    case newStories
    /// `GET beststories.json` → `[Int]` (up to 500 ids).
    case bestStories
    /// `GET askstories.json` → `[Int]` (up to 200 ids).
    case askStories
    /// `GET showstories.json` → `[Int]` (up to 200 ids).
    case showStories
    /// `GET jobstories.json` → `[Int]` (up to 200 ids).
    case jobStories
    /// `GET maxitem.json` → `Int`, the largest item id so far.
    case maxItem
    /// `GET user/{id}.json` → `User?` (null for a name that does not exist; names are case-sensitive).
    case user(id: String)
    /// `GET updates.json` → ``Updates``: recently changed items and profiles.
    case updates

    /// `https://hacker-news.firebaseio.com/v0/`, the official API root, version path included.
    public static let defaultBaseURL: URL = URL(string: "https://hacker-news.firebaseio.com/v0/") ?? URL(fileURLWithPath: "/")

    /// The call that answers `list`'s ids.
    ///
    /// ```swift
    /// let ids: [Int] = try await client.request(HackerNewsAPI.list(.top))
    /// ```
    public static func list(_ list: StoryList) -> HackerNewsAPI {
        switch list {
        case .top: .topStories
        case .new: .newStories
        case .best: .bestStories
        case .ask: .askStories
        case .show: .showStories
        case .job: .jobStories
        }
    }

    /// ``defaultBaseURL``; a client with `NetworkClient.Configuration.baseURL` sends the calls elsewhere.
    public var baseURL: URL { Self.defaultBaseURL }

    /// The path below the API root, e.g. `/item/8863.json`.
    public var path: String { "/" + pathSegments.joined(separator: "/") }

    /// The path as segments; a user name stays one segment whatever it contains.
    public var pathSegments: [String] {
        switch self {
        case .item(let id): ["item", "\(id).json"]
        case .topStories: ["topstories.json"]
        case .newStories: ["newstories.json"]
        case .bestStories: ["beststories.json"]
        case .askStories: ["askstories.json"]
        case .showStories: ["showstories.json"]
        case .jobStories: ["jobstories.json"]
        case .maxItem: ["maxitem.json"]
        case .user(let id): ["user", "\(id).json"]
        case .updates: ["updates.json"]
        }
    }

    /// Every call is a `GET`.
    public var method: HTTPMethod { .get }

    /// No body, no query.
    public var task: HTTPTask { .requestPlain }

    /// JSON is all the API speaks.
    public var headers: [String: String]? { ["Accept": "application/json"] }
}

/// The six story lists of the API, by the name `courier hn stories --list` takes.
///
/// ```swift
/// for try await stories in hackerNews.stories(list: .top) { render(stories) }
/// ```
public enum StoryList: String, Sendable, CaseIterable, Codable {
    /// `topstories`: the front page, rank order.
    case top
    /// `newstories`: the newest; shown newest first by `time` (the seed's sort).
    case new
    /// `beststories`: the best recent stories, rank order.
    case best
    /// `askstories`: Ask HN, rank order.
    case ask
    /// `showstories`: Show HN, rank order.
    case show
    /// `jobstories`: job ads, rank order.
    case job

    /// Whether a growing list of this kind is sorted by `time`, newest first (only `new`), rather
    /// than kept in the list's rank order.
    public var sortsByTime: Bool { self == .new }
}
