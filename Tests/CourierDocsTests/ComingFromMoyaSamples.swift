#if Combine  // the `Combine` trait: Package.swift
// Mirrors: Sources/Courier/Courier.docc/Articles/coming-from-moya-or-alamofire.md
//
// The article's code, line for line (DocsSyncTests checks that every sample is here). Compiled
// only: the samples call api.github.com.

import Courier
import CourierCombine
import Foundation
import HTTPTypes
import OpenAPIRuntime
#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif

enum GitHub: TargetType {
    case userProfile(String)

    var baseURL: URL { URL(string: "https://api.github.com")! }
    var path: String {
        switch self {
        case .userProfile(let name): "/users/\(name)"
        }
    }
    var method: HTTPMethod { .get }
    var task: HTTPTask { .requestPlain }
    var headers: [String: String]? { ["Accept": "application/vnd.github+json"] }
}

struct Profile: Decodable, Sendable {
    let login: String
    let publicRepos: Int
}

struct UserAgentMiddleware: ClientMiddleware {
    let userAgent: String

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        request.headerFields[.userAgent] = userAgent
        return try await next(request, body, baseURL)
    }
}

extension GitHub {
    var statusMapping: StatusMapping {
        StatusMapping { response, body in
            response.status.code == 304 ? nil : StatusMapping.standard.error(for: response, body: body)
        }
    }
}

enum ComingFromMoyaArticle {
    static func callbacksToAsync() async throws {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let client = NetworkClient(configuration: .init(decoder: decoder))
        let profile = try await client.request(GitHub.userProfile("kean"), as: Profile.self)
        print(profile.publicRepos)
    }

    static func publishers(client: NetworkClient, subscriptions: inout Set<AnyCancellable>) {
        client.publisher(for: GitHub.userProfile("kean"), as: Profile.self)
            .sink(receiveCompletion: { print($0) }, receiveValue: { print($0.login) })
            .store(in: &subscriptions)
    }
}
#endif  // Combine
