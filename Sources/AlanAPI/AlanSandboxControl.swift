public import Courier
public import Foundation
public import HTTPTypes

/// The control routes of the Courier sandbox's Alan stand-in (`/alan/control`, `/alan/stats`,
/// `/alan/reset`), for tests, demos and benchmarks. `baseURL` is the stand-in's root, e.g.
/// `http://127.0.0.1:8080/alan`.
///
/// | case | call |
/// |---|---|
/// | ``control(baseURL:_:)`` | `POST /control?quota=&failNext=&overviewMs=…` → the sandbox's `AlanStats` (200) |
/// | ``stats(baseURL:clientID:)`` | `GET /stats?client_id=` → the sandbox's `AlanStats` (200) |
/// | ``reset(baseURL:)`` | `POST /reset` → empty (204) |
public enum AlanSandboxControl: Endpoint {
    /// Sets the stand-in's behaviour.
    case control(baseURL: URL, Settings)
    /// Reads the counters (and one client's conversation when `clientID` is set).
    case stats(baseURL: URL, clientID: String?)
    /// Forgets clients, counters and settings.
    case reset(baseURL: URL)

    /// What ``control(baseURL:_:)`` can set; nil leaves a setting as it is.
    public struct Settings: Sendable {
        /// Questions one client may ask before 401.
        public var quota: Int?
        /// How many next questions answer 500.
        public var failNext: Int?
        /// The model's time for the overview, weekly, today and other prompts, in ms.
        public var overviewMs: Int?, weeklyMs: Int?, todayMs: Int?, otherMs: Int?
        /// The pause between streamed tokens, in ms.
        public var tokenDelayMs: Int?

        /// Settings; nil fields stay as they are.
        public init(
            quota: Int? = nil, failNext: Int? = nil, overviewMs: Int? = nil, weeklyMs: Int? = nil,
            todayMs: Int? = nil, otherMs: Int? = nil, tokenDelayMs: Int? = nil
        ) {
            self.quota = quota
            self.failNext = failNext
            self.overviewMs = overviewMs
            self.weeklyMs = weeklyMs
            self.todayMs = todayMs
            self.otherMs = otherMs
            self.tokenDelayMs = tokenDelayMs
        }

        var parameters: RequestParameters {
            let all: [String: Int?] = [
                "quota": quota, "failNext": failNext, "overviewMs": overviewMs, "weeklyMs": weeklyMs,
                "todayMs": todayMs, "otherMs": otherMs, "tokenDelayMs": tokenDelayMs,
            ]
            return all.compactMapValues { $0 }
        }
    }

    /// The stand-in's root given with the case.
    public var baseURL: URL {
        switch self {
        case .control(let url, _), .stats(let url, _), .reset(let url): url
        }
    }

    /// `/control`, `/stats` or `/reset` under the root.
    public var path: String {
        switch self {
        case .control: "/control"
        case .stats: "/stats"
        case .reset: "/reset"
        }
    }

    /// GET for the stats, POST otherwise.
    public var method: HTTPMethod {
        switch self {
        case .stats: .get
        case .control, .reset: .post
        }
    }

    /// The settings (or the client id) in the query.
    public var task: HTTPTask {
        switch self {
        case .control(_, let settings): .requestParameters(settings.parameters, encoding: .url)
        case .stats(_, let clientID): clientID.map { .requestParameters(["client_id": $0], encoding: .url) } ?? .requestPlain
        case .reset: .requestPlain
        }
    }

    /// The client id asked about, so that logs never show it.
    public var secrets: [String] {
        if case .stats(_, let clientID?) = self { return [clientID] }
        return []
    }
}
