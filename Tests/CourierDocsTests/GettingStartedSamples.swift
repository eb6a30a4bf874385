// Mirrors: Sources/Courier/Courier.docc/Articles/getting-started.md
//
// The article's code, line for line (DocsSyncTests checks that every sample is here). The
// functions are compiled, not called: they would reach api.example.com.

import Courier
import Foundation

struct User: Decodable, Sendable {
    let id: Int
    let name: String
}

enum UserAPI: Endpoint {
    /// `GET /api/v1/users/{id}` → `User`
    case user(id: Int)
    /// `GET /api/v1/users?name=…` → `[User]`
    case search(name: String)

    var baseURL: URL { URL(string: "https://api.example.com")! }
    var path: String {
        switch self {
        case .user(let id): "/api/v1/users/\(id)"
        case .search: "/api/v1/users"
        }
    }
    var method: HTTPMethod { .get }
    var task: HTTPTask {
        switch self {
        case .user: .requestPlain
        case .search(let name): .requestParameters(["name": name], encoding: .url)
        }
    }
}

enum GettingStarted {
    static func sendARequest() async throws {
        let client = NetworkClient()
        let user: User = try await client.request(UserAPI.user(id: 1))
        let namesakes = try await client.request(UserAPI.search(name: "김민수"), as: [User].self)
        print(user.name, namesakes.count)
    }

    static func handleErrors(client: NetworkClient) async {
        do {
            let user: User = try await client.request(UserAPI.user(id: 1))
            show(user)
        } catch .taskCancelled {
            // The screen went away: nothing to show.
        } catch .notFound {
            showEmptyState()
        } catch {
            showAlert(error.localizedDescription)   // "Couldn't load the data. Please try again in a moment."
            print(error.log())                      // serverError(500)-"App/UserScreen.swift#load()"
        }
    }

    static func cancel(client: NetworkClient) async {
        let load = Task {
            try await client.request(UserAPI.user(id: 1), as: User.self)
        }
        load.cancel()
        if case .failure(let error) = await load.result, error.isTaskCancellation {
            print("cancelled, not failed")
        }
    }

    // Not in the article: what the samples call.
    static func show(_ user: User) {}
    static func showEmptyState() {}
    static func showAlert(_ message: String) {}
}
