// Mirrors: Sources/Courier/Courier.docc/Articles/define-an-api.md
//
// The article's code, line for line (DocsSyncTests checks that every sample is here).
// `bindToAnyServer()` runs in SampleRunTests; the rest is compiled only.

import Courier
import CourierSandbox
import Foundation

struct NewPost: Encodable, Sendable {
    let title: String
    let body: String
}

enum PostsAPI: Endpoint {
    /// `GET /posts?page=&tag=` → `[Post]`
    case list(page: Int, tags: [String])
    /// `POST /session` (form) → `Session`
    case login(username: String, password: String)
    /// `POST /posts/{id}/photos` (multipart) → `Photo`
    case attach(id: Int, photo: URL)
    /// `PUT /posts/{id}?notify=` (JSON) → `Post`
    case publish(id: Int, notify: Bool, NewPost)

    var baseURL: URL { URL(string: "https://blog.example.com")! }
    var path: String {
        switch self {
        case .list: "/posts"
        case .login: "/session"
        case .attach(let id, _): "/posts/\(id)/photos"
        case .publish(let id, _, _): "/posts/\(id)"
        }
    }
    var method: HTTPMethod {
        switch self {
        case .list: .get
        case .login, .attach: .post
        case .publish: .put
        }
    }
    var task: HTTPTask {
        switch self {
        case .list(let page, let tags):
            .requestParameters(["page": page, "tag": tags], encoding: .url)   // ?page=2&tag=swift&tag=서울
        case .login(let username, let password):
            .requestParameters(["username": username, "password": password], encoding: .form)
        case .attach(_, let photo):
            .uploadMultipart(Self.form(photo: photo))
        case .publish(_, let notify, let post):
            .requestComposite(query: ["notify": notify], body: .requestJSONEncodable(post))
        }
    }
    var secrets: [String] { if case .login(_, let password) = self { [password] } else { [] } }

    private static func form(photo: URL) -> MultipartFormData {
        var form = MultipartFormData()
        form.append(file: photo, name: "photo", contentType: "image/jpeg")   // read in chunks
        return form
    }
}

extension PostsAPI {
    var traits: CallTraits {
        switch self {
        case .login: CallTraits(authorization: .none)                        // never send the token
        case .publish: CallTraits(authorization: .bearer, idempotent: true)  // PUT: safe to retry
        case .list, .attach: CallTraits(authorization: .bearer)
        }
    }
}

enum DefineAnAPI {
    static func bindToAnyServer() async throws {
        try await SandboxServer.withRunning { sandbox in   // CourierSandbox, in-process on 127.0.0.1
            let client = NetworkClient(configuration: .init(baseURL: sandbox.baseURL.appending(path: "echo")))
            let echo: EchoAnswer = try await client.request(PostsAPI.list(page: 1, tags: ["swift", "서울"]))
            print(echo.rawPath, echo.queryValue("tag"))   // /echo/posts ["swift", "서울"]
        }
    }
}
