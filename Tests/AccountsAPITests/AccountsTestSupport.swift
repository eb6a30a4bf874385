import AccountsAPI
import Courier
import CourierTesting
import Foundation
import HTTPTypes
import IntegrationTestSupport
import Logging
import Testing

@testable import CourierSandbox

/// A sandbox on an ephemeral port with its own data directory, and a client for it.
struct AccountsSandbox {
    let running: RunningSandbox
    let dataDirectory: URL
    let client: NetworkClient

    var baseURL: URL { running.baseURL }
    var databaseFile: URL { dataDirectory.appendingPathComponent("accounts.sqlite") }

    /// Starts a sandbox; `configure` adjusts the accounts settings (defaults otherwise).
    static func start(
        dataDirectory: URL? = nil,
        logger: Logger = Logger(label: "test.sandbox", factory: { _ in SwiftLogNoOpLogHandler() }),
        logRequests: Bool = false,
        configure: (inout AccountsSettings) -> Void = { _ in }
    ) async throws -> AccountsSandbox {
        let directory =
            dataDirectory
            ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("courier-accounts-test-\(UUID().uuidString)", isDirectory: true)
        var options = SandboxServer.Options()
        options.dataDirectory = directory
        options.logRequests = logRequests
        var settings = AccountsSettings()
        configure(&settings)
        let running = try await AccountsSettings.$override.withValue(settings) {
            try await SandboxServer.start(options: options, logger: logger)
        }
        return AccountsSandbox(running: running, dataDirectory: directory, client: NetworkClient())
    }

    func stop() async {
        await running.stop()
    }

    /// Stops and removes the data directory.
    func finish() async {
        await running.stop()
        try? FileManager.default.removeItem(at: dataDirectory)
    }

    /// A fresh ``Accounts`` for this sandbox.
    func accounts(credentials: CredentialsFile? = nil, configuration: NetworkClient.Configuration = .init()) -> Accounts {
        Accounts(server: baseURL, configuration: configuration, credentials: credentials)
    }

    /// Sends anything and returns the raw answer, whatever its status.
    func raw(_ method: HTTPRequest.Method, _ path: String, json: String? = nil, headers: [String: String] = [:]) async throws -> RawAnswer {
        let body = json.map { HTTPTask.requestData(Data($0.utf8), contentType: headers["Content-Type"] ?? "application/json") }
        let endpoint = TestEndpoint(
            baseURL: baseURL, path: path, method: method, task: body ?? .requestPlain,
            headers: headers.filter { $0.key != "Content-Type" }, statusMapping: .acceptAll)
        let response = try await client.response(endpoint)
        return RawAnswer(response: response)
    }

    /// Registers `username` with the standard test fields; returns the new id.
    @discardableResult
    func register(_ username: String, password: String = "Passw0rd!") async throws -> Int {
        let answer = try await raw(.post, "/api/v1/users", json: registerJSON(username, password: password))
        try #require(answer.status == 201, "registration of \(username) answered \(answer.status) \(answer.message ?? "")")
        return try #require(answer.data?["id"] as? Int)
    }

    /// Logs in; returns (userId, token).
    func login(_ username: String, password: String = "Passw0rd!") async throws -> (id: Int, token: String) {
        let answer = try await raw(.post, "/api/v1/auth/login", json: #"{"username":"\#(username)","password":"\#(password)"}"#)
        try #require(answer.status == 200, "login answered \(answer.status) \(answer.message ?? "")")
        let id = try #require(answer.data?["userId"] as? Int)
        let token = try #require(answer.data?["token"] as? String)
        return (id, token)
    }
}

func registerJSON(_ username: String, password: String = "Passw0rd!", name: String = "홍길동", email: String = "hong@example.com", age: String = "25")
    -> String
{
    #"{"username":"\#(username)","password":"\#(password)","name":"\#(name)","email":"\#(email)","age":\#(age)}"#
}

/// One answer, with the wrapper parsed.
struct RawAnswer {
    let response: NetworkResponse
    let json: [String: Any]

    init(response: NetworkResponse) {
        self.response = response
        self.json = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:]
    }

    var status: Int { response.statusCode }
    var success: Bool? { json["success"] as? Bool }
    var code: String? { json["code"] as? String }
    var message: String? { json["message"] as? String }
    var data: [String: Any]? { json["data"] as? [String: Any] }
    var dataIsNull: Bool { json["data"] is NSNull }
    var hasAllWrapperKeys: Bool { ["success", "code", "message", "data"].allSatisfy { json[$0] != nil } }
    func header(_ name: String) -> String? { HTTPField.Name(name).flatMap { response.headers[$0] } }
}

/// A unique username for this run.
func uniqueName(_ prefix: String = "user") -> String {
    "\(prefix)_\(UUID().uuidString.prefix(8).lowercased())"
}
