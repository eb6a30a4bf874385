// Mirrors: README.md
//
// README's "Quick start" sample, line for line, in a namespace (GettingStartedSamples has its own
// `UserAPI`). Compiled only: it would reach api.example.com.

import Courier
import Foundation
import Logging

enum QuickStart {
    struct UserResponse: Decodable, Sendable {
        let id: Int
    }

    enum UserAPI: Endpoint {
        case get(id: Int)
        var baseURL: URL { URL(string: "https://api.example.com")! }
        var path: String { switch self { case .get(let id): "/api/v1/users/\(id)" } }
        var method: HTTPMethod { .get }
        var task: HTTPTask { .requestPlain }
    }

    static func quickStart() async {
        let logger = Logger(label: "app")
        do {
            let user: UserResponse = try await NetworkClient().request(UserAPI.get(id: 1))
            _ = user
        } catch .taskCancelled {                       // typed throws: `error` is a NetworkError
        } catch .notFound { showEmptyState()
        } catch {
            show(error.localizedDescription)           // "데이터를 불러오지 못했어요 …"
            logger.error("\(error.log())")             // serverError(500)-"App/UserScreen.swift#load()"
        }
    }

    // Not in the README: what the sample calls.
    static func show(_ message: String) {}
    static func showEmptyState() {}
}
