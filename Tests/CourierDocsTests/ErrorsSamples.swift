// Mirrors: Sources/Courier/Courier.docc/Articles/errors.md
//
// The article's code, line for line (DocsSyncTests checks that every sample is here). SampleRunTests
// runs `message(for:)` and the Seoul mapping; the rest would need the network and is compiled only.

import Courier
import Foundation
import Logging
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

func message(for error: NetworkError) -> String? {
    switch error {
    case .taskCancelled:
        return nil   // never show cancellation as a failure
    case .networkError(let urlError) where urlError.code == .notConnectedToInternet:
        return "You are offline."
    case .rateLimited(let retryAfter):
        return "Too many requests. Try again in \(Int(retryAfter ?? 30)) s."
    case .decodingError:
        print(error.codingPathDescription ?? "", error.bodyExcerpt ?? "")   // items[3].title {"items":[…
        return error.localizedDescription
    default:
        return error.family == .server ? "The service is down for a moment." : error.localizedDescription
    }
}

extension StatusMapping {
    /// The Alan API: 401 means the quota is used up (AlanAPI ships this table as `.alan`).
    static let quotaOn401 = StatusMapping { response, body in
        response.status.code == 401 ? .quotaExceeded(401) : StatusMapping.standard.error(for: response, body: body)
    }
    /// Seoul Open Data answers 200 with `{"RESULT":{"CODE":"INFO-100",…}}` to a bad key.
    static let seoul = StatusMapping { response, body in
        if let error = StatusMapping.standard.error(for: response, body: body) { return error }
        return String(decoding: body.prefix(300), as: UTF8.self).contains("INFO-100") ? .invalidAPIKey : nil
    }
}

enum AlanAPI: Endpoint {
    /// `GET /api/v1/question?content=&client_id=` → `AlanAnswer`
    case question(String)

    static let clientID = ProcessInfo.processInfo.environment["ALAN_CLIENT_ID"] ?? ""

    var baseURL: URL { URL(string: "https://kdt-api-function.azurewebsites.net")! }
    var path: String { "/api/v1/question" }
    var method: HTTPMethod { .get }
    var task: HTTPTask {
        switch self {
        case .question(let prompt): .requestParameters(["content": prompt, "client_id": Self.clientID], encoding: .url)
        }
    }
    var secrets: [String] { [Self.clientID] }
    var statusMapping: StatusMapping { .quotaOn401 }   // 401 → quotaExceeded
}

enum ShopAPI: Endpoint {
    /// `GET /orders/{id}` → `{"success":true,"data":Order}`
    case order(id: Int)

    var baseURL: URL { URL(string: "https://shop.example.com")! }
    var path: String { switch self { case .order(let id): "/orders/\(id)" } }
    var method: HTTPMethod { .get }
    var task: HTTPTask { .requestPlain }
    var responseDecoding: any ResponseDecoding { .envelope }                  // decodes `data` only
    var statusMapping: StatusMapping { .standard.readingEnvelopeMessages() }  // remoteError(409, "품절된 상품이에요")
}

enum ErrorsArticle {
    static func readAnErrorBody(client: NetworkClient) async throws {
        let answer = try await client.response(UserAPI.user(id: 7), validatingStatus: false)
        if let error = answer.statusError {
            let head = EnvelopeHead.read(answer.body)   // {"success":false,"code":"FORBIDDEN","message":"…"}
            showAlert(head?.message ?? error.localizedDescription)
        } else {
            show(try JSONDecoder().decode(User.self, from: answer.body))
        }
    }

    static func showAndLog(_ error: NetworkError, logger: Logger) {
        print(error.userMessage(in: .korean))   // 데이터를 불러오지 못했어요 / 잠시 후 다시 시도해 주세요
        logger.error("\(error.log())")          // notFound(404)-"App/UserScreen.swift#load()"
    }

    // Not in the article: what the samples call.
    static func show(_ user: User) {}
    static func showAlert(_ message: String) {}
}
