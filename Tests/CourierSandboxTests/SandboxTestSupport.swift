import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import Synchronization
import Testing

@testable import CourierSandbox

/// The methods the tests send (AsyncHTTPClient's own type is NIOHTTP1's, not a dependency here).
enum Method: String, Sendable {
    case GET, HEAD, POST, PUT, PATCH, DELETE
}

/// One answer, read whole.
struct Answer: Sendable {
    var status: Int
    var headers: [(name: String, value: String)]
    var body: [UInt8]

    var text: String { String(decoding: body, as: UTF8.self) }

    /// The first value of header `name` (any case).
    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    func json<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(body))
    }

    /// The body as a JSON object.
    var object: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:]
    }
}

extension RunningSandbox {
    /// A request to `path` (query included) on this sandbox.
    func request(_ method: Method = .GET, _ path: String, headers: [(String, String)] = [], body: [UInt8]? = nil) -> HTTPClientRequest {
        var request = HTTPClientRequest(url: baseURL.absoluteString + path)
        switch method {
        case .GET: request.method = .GET
        case .HEAD: request.method = .HEAD
        case .POST: request.method = .POST
        case .PUT: request.method = .PUT
        case .PATCH: request.method = .PATCH
        case .DELETE: request.method = .DELETE
        }
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        return request
    }

    /// Sends a request with AsyncHTTPClient and reads the whole answer, whatever its status.
    func send(
        _ method: Method = .GET, _ path: String, headers: [(String, String)] = [], body: [UInt8]? = nil,
        timeout: TimeAmount = .seconds(30)
    ) async throws -> Answer {
        let response = try await HTTPClient.shared.execute(request(method, path, headers: headers, body: body), timeout: timeout)
        let collected = try await response.body.collect(upTo: 64 * 1024 * 1024)
        let headers = response.headers.map { (name: $0.name, value: $0.value) }
        return Answer(status: Int(response.status.code), headers: headers, body: Array(collected.readableBytesView))
    }

    /// `path` decoded as JSON from a 2xx answer.
    func json<T: Decodable>(_ path: String, as type: T.Type = T.self) async throws -> T {
        let answer = try await send(.GET, path)
        try #require((200..<300).contains(answer.status), "\(path) answered \(answer.status): \(answer.text)")
        return try answer.json(T.self)
    }

    /// `POST path` that must answer 204 (the stats resets).
    func reset(_ path: String) async throws {
        let answer = try await send(.POST, path)
        #expect(answer.status == 204, "\(path) answered \(answer.status)")
    }
}

let quietLogger = Logger(label: "test.sandbox", factory: { _ in SwiftLogNoOpLogHandler() })

/// A new, unique folder name under the temporary directory (not created).
func temporaryDirectory() -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("courier-sandbox-test-\(UUID().uuidString)", isDirectory: true)
}

/// A sandbox with cheap bcrypt for the User API, on `dataDirectory` or on its own data directory
/// (removed afterwards).
func withAccountsSandbox<T>(
    dataDirectory: URL? = nil,
    logger: Logger = quietLogger,
    configure: (inout AccountsSettings) -> Void = { _ in },
    _ body: (RunningSandbox, URL) async throws -> T
) async throws -> T {
    let directory = dataDirectory ?? temporaryDirectory()
    defer { if dataDirectory == nil { try? FileManager.default.removeItem(at: directory) } }
    var settings = AccountsSettings()
    settings.bcryptCost = 4  // bcrypt's floor: these tests are about tokens, not hashing
    configure(&settings)
    var options = SandboxServer.Options()
    options.dataDirectory = directory
    options.logRequests = true
    let sandbox = try await AccountsSettings.$override.withValue(settings) {
        try await SandboxServer.start(options: options, logger: logger)
    }
    do {
        let result = try await body(sandbox, directory)
        await sandbox.stop()
        return result
    } catch {
        await sandbox.stop()
        throw error
    }
}

/// Reads a streamed answer in a task until `enough` says the bytes so far suffice, then hands
/// them over and keeps the request open until the task is cancelled (the client going away).
struct OpenStream: Sendable {
    let task: Task<Void, any Error>
    let received: [UInt8]

    static func open(_ request: HTTPClientRequest, until enough: @escaping @Sendable ([UInt8]) -> Bool) async throws -> OpenStream {
        let (signal, continuation) = AsyncStream<[UInt8]>.makeStream()
        let task = Task {
            defer { continuation.finish() }
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
            var bytes: [UInt8] = []
            for try await chunk in response.body {
                bytes += chunk.readableBytesView
                if enough(bytes) {
                    continuation.yield(bytes)
                    try await Task.sleep(for: .seconds(60))
                }
            }
        }
        var iterator = signal.makeAsyncIterator()
        guard let received = await iterator.next() else {
            _ = try await task.value  // the error that ended the stream early, if any
            throw StreamEndedEarly()
        }
        return OpenStream(task: task, received: received)
    }

    struct StreamEndedEarly: Error {}
}

extension Array where Element == UInt8 {
    /// The number of times `text`'s bytes occur.
    func occurrences(of text: String) -> Int {
        let needle = Array(text.utf8)
        guard !needle.isEmpty, count >= needle.count else { return 0 }
        return (0...(count - needle.count)).filter { self[$0..<($0 + needle.count)].elementsEqual(needle) }.count
    }
}

/// What a login or a refresh answered in `data`.
struct IssuedTokens: Sendable {
    var userId: Int
    var token: String
    var expiresAt: String
    var refreshToken: String
    var refreshExpiresAt: String

    init(_ answer: Answer) throws {
        let data = try #require(answer.object["data"] as? [String: Any], "no data in \(answer.status) \(answer.text)")
        userId = try #require(data["userId"] as? Int)
        token = try #require(data["token"] as? String)
        expiresAt = try #require(data["expiresAt"] as? String)
        refreshToken = try #require(data["refreshToken"] as? String)
        refreshExpiresAt = try #require(data["refreshExpiresAt"] as? String)
    }
}

extension RunningSandbox {
    /// Registers `username` (password `Passw0rd!`) and logs in.
    func registerAndLogin(_ username: String = "user_\(UUID().uuidString.prefix(8).lowercased())") async throws -> IssuedTokens {
        try await register(username)
        return try await login(username)
    }

    /// Registers `username` with password `Passw0rd!`.
    func register(_ username: String) async throws {
        let body = #"{"username":"\#(username)","password":"Passw0rd!","name":"홍길동","email":"hong@example.com","age":25}"#
        let registered = try await send(.POST, "/api/v1/users", headers: [("Content-Type", "application/json")], body: Array(body.utf8))
        try #require(registered.status == 201, "registration answered \(registered.status) \(registered.text)")
    }

    /// Logs `username` in with password `Passw0rd!`.
    func login(_ username: String) async throws -> IssuedTokens {
        let login = try await send(
            .POST, "/api/v1/auth/login", headers: [("Content-Type", "application/json")],
            body: Array(#"{"username":"\#(username)","password":"Passw0rd!"}"#.utf8))
        try #require(login.status == 200, "login answered \(login.status) \(login.text)")
        return try IssuedTokens(login)
    }

    /// `POST /api/v1/auth/refresh` with `refreshToken`.
    func refresh(_ refreshToken: String) async throws -> Answer {
        try await send(
            .POST, "/api/v1/auth/refresh", headers: [("Content-Type", "application/json")],
            body: Array(#"{"refreshToken":"\#(refreshToken)"}"#.utf8))
    }

    /// `GET /api/v1/users/{id}` with `token` as the bearer.
    func showUser(_ id: Int, token: String) async throws -> Answer {
        try await send(.GET, "/api/v1/users/\(id)", headers: [("Authorization", "Bearer \(token)")])
    }
}
