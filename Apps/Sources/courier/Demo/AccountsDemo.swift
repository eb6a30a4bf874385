import AccountsAPI
import Courier
import Foundation

/// The accounts part of `courier demo`: the seminar's User API flow against a
/// server — register two users, log in, show, update, a forbidden attempt on the other user,
/// delete — one line per request and one per answer. Passwords and tokens are never shown.
enum AccountsDemo {
    /// How the walk went.
    struct Summary: Sendable {
        /// Requests made.
        var steps = 0
        /// Answers that were not the expected status.
        var failures = 0
        /// One line for the demo's last line, e.g. `accounts 8/8 as expected`.
        var oneLine = ""
    }

    /// Walks the flow against `baseURL`, sending each line to `output`.
    static func run(baseURL: URL, output: (String) -> Void) async throws -> Summary {
        let accounts = Accounts(server: baseURL)
        var walk = Walk(accounts: accounts)
        output("── Accounts: the seminar's User API, with tokens ──")
        let suffix = UUID().uuidString.prefix(6).lowercased()
        let alice = RegisterRequest(username: "alice_\(suffix)", password: Self.password(), name: "홍길동", email: "hong@example.com", age: 25)
        let bob = RegisterRequest(username: "bob_\(suffix)", password: Self.password(), name: "김영희", email: "kim@example.com", age: 31)

        let aliceID = await walk.step(.register(alice), expect: 201, as: UserResponse.self, output: output)?.id
        let bobID = await walk.step(.register(bob), expect: 201, as: UserResponse.self, output: output)?.id
        guard let aliceID, let bobID else { return walk.finish(note: "stopped: registration failed") }
        guard
            await walk.step(
                .login(LoginRequest(username: alice.username, password: alice.password)), expect: 200, as: LoginResponse.self, output: output) != nil
        else {
            return walk.finish(note: "stopped: login failed")
        }
        await walk.step(.getUser(id: aliceID), expect: 200, as: UserResponse.self, output: output)
        await walk.step(.updateUser(id: aliceID, UpdateUserRequest(name: "김철수", age: 26)), expect: 200, as: UserResponse.self, output: output)
        await walk.step(.getUser(id: bobID), expect: 403, as: UserResponse.self, output: output, why: "another user's account")
        await walk.step(.deleteUser(id: aliceID), expect: 200, as: EmptyResponse.self, output: output)
        await walk.step(
            .login(LoginRequest(username: alice.username, password: alice.password)), expect: 401, as: LoginResponse.self, output: output,
            why: "the account is gone")
        return walk.finish(note: nil)
    }

    /// A throwaway password that meets the rules; it is sent, never printed.
    private static func password() -> String {
        "Demo-\(UUID().uuidString.prefix(12))-9"
    }

    /// The steps taken so far.
    private struct Walk {
        let accounts: Accounts
        var summary = Summary()

        @discardableResult
        mutating func step<T: Decodable & Sendable & Encodable>(
            _ call: UserAPI, expect: Int, as type: T.Type, output: (String) -> Void, why: String? = nil
        ) async -> T? {
            summary.steps += 1
            output("→ \(call.method.rawValue) \(call.path)\(DemoLines.body(of: call))")
            let start = ContinuousClock.now
            do {
                let reply = try await accounts.send(call, as: type)
                let ok = reply.statusCode == expect
                if !ok { summary.failures += 1 }
                output(
                    "← \(reply.statusCode) \(reply.code ?? "-") “\(reply.message ?? "")”\(DemoLines.data(reply.data)) \(DemoLines.ms(since: start))  \(ok ? "✓" : "✗ expected \(expect)")"
                )
                return ok ? reply.data : nil
            } catch {
                let status = error.statusCode
                let ok = status == expect
                if !ok { summary.failures += 1 }
                let code: String
                if case .server(_, let serverCode, _, _) = error { code = serverCode ?? "-" } else { code = "\(error)" }
                let head = status.map { "\($0) \(code)" } ?? code
                output(
                    "← \(head) “\(error.userMessage(in: .korean))” \(DemoLines.ms(since: start))  \(ok ? "✓ \(why ?? "as expected")" : "✗ expected \(expect)")"
                )
                return nil
            }
        }

        func finish(note: String?) -> Summary {
            var summary = self.summary
            summary.oneLine = "accounts \(summary.steps - summary.failures)/\(summary.steps) as expected" + (note.map { " (\($0))" } ?? "")
            return summary
        }
    }
}

/// Compact renderings for the demo's lines, with secrets masked.
enum DemoLines {
    static let mask = "••••••"

    static func body(of call: UserAPI) -> String {
        switch call {
        case .register(var request):
            request.password = mask
            return " " + json(request)
        case .login(var request):
            request.password = mask
            return " " + json(request)
        case .updateUser(_, let request):
            return " " + json(request)
        case .refresh, .logout:
            return " " + json(["refreshToken": mask])
        case .getUser, .deleteUser:
            return ""
        }
    }

    static func data<T: Encodable>(_ value: T?) -> String {
        guard let value else { return "" }
        if var login = value as? LoginResponse {
            login.token = login.token.map { _ in mask }
            login.refreshToken = login.refreshToken.map { _ in mask }
            return " " + json(login)
        }
        if value is EmptyResponse { return "" }
        return " " + json(value)
    }

    static func json(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "?"
    }

    static func ms(since start: ContinuousClock.Instant) -> String {
        let elapsed = ContinuousClock.now - start
        return "(\(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000) ms)"
    }
}
