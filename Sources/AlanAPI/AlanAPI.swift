public import Courier
import CourierLLM
public import Foundation
public import HTTPTypes

/// The Alan LLM API (ESTsoft) as an endpoint enum. The `client_id` query value is the only
/// credential; it is declared in ``secrets`` so no log line shows it.
///
/// | case | call |
/// |---|---|
/// | ``question(prompt:clientID:)`` | `GET /api/v1/question?content=&client_id=` → ``AlanAnswer`` (200) |
/// | ``stream(prompt:clientID:)`` | `GET /api/v1/question/sse-streaming?content=&client_id=` → `event: response` frames (200) |
/// | ``resetState(clientID:)`` | `DELETE /api/v1/reset-state` with `{"client_id":…}` → `null` (200) |
///
/// Use ``AlanClient`` rather than the cases directly: it picks the key per task, checks the
/// URL length, and resets and retries once on a 500.
public enum AlanAPI: Endpoint {
    /// `GET /api/v1/question?content=&client_id=` → ``AlanAnswer`` (200).
    case question(prompt: String, clientID: String)
    /// `GET /api/v1/question/sse-streaming?content=&client_id=` → server-sent ``AlanFrame``s (200).
    case stream(prompt: String, clientID: String)
    /// `DELETE /api/v1/reset-state` with `{"client_id":…}` → `null` (200): forgets the conversation.
    case resetState(clientID: String)

    /// The public service: `https://kdt-api-function.azurewebsites.net`.
    public static let defaultBaseURL: URL = URL(string: "https://kdt-api-function.azurewebsites.net") ?? URL(fileURLWithPath: "/")

    /// ``defaultBaseURL``; a client with a configured base URL (the sandbox) sends the calls there.
    public var baseURL: URL { Self.defaultBaseURL }

    /// `/api/v1/question`, `/api/v1/question/sse-streaming` or `/api/v1/reset-state`.
    public var path: String {
        switch self {
        case .question: "/api/v1/question"
        case .stream: "/api/v1/question/sse-streaming"
        case .resetState: "/api/v1/reset-state"
        }
    }

    /// GET for questions, DELETE for the reset.
    public var method: HTTPMethod {
        switch self {
        case .question, .stream: .get
        case .resetState: .delete
        }
    }

    /// The prompt and key in the query (percent-encoded); the reset sends `{"client_id":…}`.
    public var task: HTTPTask {
        switch self {
        case .question(let prompt, let clientID), .stream(let prompt, let clientID):
            .requestParameters(["content": prompt, "client_id": clientID], encoding: .url)
        case .resetState(let clientID):
            .requestParameters(["client_id": clientID], encoding: .json)
        }
    }

    /// `Accept: text/event-stream` for the stream.
    public var headers: [String: String]? {
        if case .stream = self { return ["Accept": "text/event-stream"] }
        return nil
    }

    /// The seed app's table: 401 means the quota is used up.
    public var statusMapping: StatusMapping { .alan }

    /// The model searches the web before it answers: public clients wait minutes.
    public var timeout: Duration? { .seconds(120) }

    /// The client id, wherever it appears.
    public var secrets: [String] {
        switch self {
        case .question(_, let clientID), .stream(_, let clientID), .resetState(let clientID): [clientID]
        }
    }

    /// Questions are not idempotent for the service (each one is a turn of the conversation and
    /// counts against the quota), so no shared upstream request.
    public var traits: CallTraits {
        switch self {
        case .question, .stream: CallTraits(idempotent: false, deduplicable: false)
        case .resetState: CallTraits()
        }
    }
}
